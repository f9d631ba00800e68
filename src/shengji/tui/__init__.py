"""The terminal client: a keyboard-first Textual app and a ``--plain`` line mode.

An adapter: it may import the bots, the game, the words, the rules, the kernel,
``shengji.errors`` and ``shengji.extras``; not env, server or the tools
(tests/test_architecture.py checks it).
"""

from ..extras import require

require("shengji.tui", "tui", "websockets")  # the Textual app checks textual and rich
