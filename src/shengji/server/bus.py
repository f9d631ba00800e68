"""Room events between server processes over PostgreSQL ``LISTEN/NOTIFY``.

Every commit that changes a room (an action, a lobby change) notifies channel
:data:`CHANNEL` with ``"<room id> <process id>"`` in the same transaction, so the
notification leaves only if the change is stored. Every process listens; one that holds
the room in memory (someone it serves is watching or playing there) reads the room again
from the store and sends its people the new table. With sticky routing by room id
(docs/server.md) all of a room's players meet in one process anyway; the bus is what
lets a room's spectators, or a proxy without stickiness, be served by another process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from collections.abc import Callable

log = logging.getLogger("shengji.server")

CHANNEL = "shengji_rooms"

#: This process's name on the bus (so that it ignores its own notifications).
ORIGIN = secrets.token_hex(6)


def payload(room_id: str) -> str:
    """The notification of a change to ``room_id`` made by this process."""
    return f"{room_id} {ORIGIN}"


class PgBus:
    """A thread that listens on :data:`CHANNEL` and calls ``on_change(room_id)`` in the
    event loop for changes other processes made."""

    def __init__(
        self, url: str, loop: asyncio.AbstractEventLoop, on_change: Callable[[str], None]
    ) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.loop = loop
        self.on_change = on_change
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="shengji-bus", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop listening."""
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5, stop_after=100):
                            room_id, _, origin = note.payload.partition(" ")
                            if origin != ORIGIN:
                                with contextlib.suppress(RuntimeError):
                                    self.loop.call_soon_threadsafe(self.on_change, room_id)
            except Exception as e:  # the database restarts: listen again shortly
                log.warning("room event bus: %s; listening again", e)
                self._stop.wait(1.0)
