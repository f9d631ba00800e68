"""Root pytest configuration: ``--doctest-modules`` would import ``kernel/_core.py`` as a
file while the compiled extension of the same name is what ``import`` loads; it has no
doctests, so it is not collected (tests/kernel tests both of its paths)."""

collect_ignore = ["src/shengji/kernel/_core.py"]
