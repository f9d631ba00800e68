"""The multiplayer web server: rooms, a WebSocket protocol, persistence and the browser UI."""
