"""The multiplayer web server: rooms, a WebSocket protocol, persistence and the browser UI.

An adapter: it may import the bots, the game, the words, the rules, the kernel,
``shengji.errors`` and ``shengji.extras``; not env, tui or the tools
(tests/test_architecture.py checks it).
"""

from ..extras import require

require("shengji.server", "server", "fastapi", "uvicorn", "sqlalchemy", "pydantic", "websockets")
