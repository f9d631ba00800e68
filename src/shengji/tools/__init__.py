"""The tools: the ``shengji`` command line (``cli``) and what it runs — self-play
(``simulate``), speed (``bench``, ``figures``), the server's load tests (``loadtest``,
``flood``), the conformance runner (``conformance``), the Botzone adapter (``botzone``)
and the demo (``demo``). At the top of the house: a tool may import any layer below
(game, words, rules, kernel, bots, env, server, tui), and nothing imports a tool
(tests/test_architecture.py checks it).
"""
