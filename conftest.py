"""Root pytest configuration: ``--doctest-modules`` would import the modules of
``kernel/_core/`` as files while their compiled extensions are what ``import`` loads; they
have no doctests, so they are not collected (tests/kernel tests both of their paths)."""

collect_ignore = ["src/shengji/kernel/_core"]
