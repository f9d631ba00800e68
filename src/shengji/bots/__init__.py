"""Bots: players that choose actions from what their seat may see (``random_bot``,
``heuristic``, ``search`` with its ``belief``, ``rollouts``, ``candidates`` and
``endgame``, ``dmc`` with the ``observation`` it reads, ``external`` programs over
``botproto``), their ``registry``, and what is built on them: ``hints``, ``review``,
``autoplay`` and the ``stats`` of comparing them. Bots may import the game, the words,
the rules, the kernel and ``shengji.errors``; nothing of env, server, tui or the tools
(tests/test_architecture.py checks it)."""
