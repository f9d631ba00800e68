"""Running the app under uvicorn with the server's limits: the WebSocket frame size is
enforced by the protocol layer (a bigger frame is never read), and a client that does not
finish its request headers within ``header_seconds`` is disconnected (slowloris)."""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0


class HeaderTimeoutH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing connections whose first request headers do
    not arrive in time (uvicorn only times out idle keep-alive connections)."""

    header_seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.loop.call_later(self.header_seconds, self._headers_due)

    def _headers_due(self) -> None:
        upgraded = self.transport.get_protocol() is not self
        if not upgraded and self.cycle is None and self.conn.their_state is h11.IDLE:
            self.transport.close()


def serve(app: Any, host: str, port: int, log_level: str, ws_max_size: int) -> None:
    """Serve ``app`` until interrupted."""
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=HeaderTimeoutH11,
        ws_max_size=ws_max_size,
        ws_per_message_deflate=False,  # compression costs more CPU than loopback/LAN saves
        timeout_keep_alive=5,
    )
