"""The multiplayer web server: rooms, a WebSocket protocol, persistence and the browser UI."""

from ..extras import require

require("shengji.server", "server", "fastapi", "uvicorn", "sqlalchemy", "pydantic", "websockets")
