"""The rules: cards and their notation (``cards``), rule variants as data (``options``,
``presets`` and ``presets/*.toml``), the trump order (``trump``), units and leads
(``units``, ``leads``), following (``follow``), throws (``throws``), tricks (``tricks``),
scoring and levels (``scoring``), declaring (``declaring``, with ``phases``), friends
(``friends``), and their small helpers (``seats``, ``shuffle``, ``immutable``,
``multisets``). Each answers from the kernel where it can. A rules module may import the
kernel (``shengji.kernel``), ``shengji.errors`` and other rules modules, nothing above
them: no game, words, bots or adapters (tests/test_architecture.py checks it).
"""
