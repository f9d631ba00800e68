"""One WebSocket client as the rooms see it: its token, its rate limits and a bounded
outbox that a writer task empties, so that a client that does not read never blocks its
room (it is dropped when its outbox is full and can come back with its token). A message
is written at once when nothing waits before it and the server's transport takes it."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

from ..errors import Code, ShengjiError
from .limits import Limits, TokenBucket

#: Close codes of connections the server drops: the client should reconnect with its
#: token (too slow to read its messages; the room moved to another server process; the
#: connection has used its ``request_ids`` request ids).
CLOSE_CODES = {"SLOW_CONSUMER": 4008, "ROOM_MOVED": 4009, "REQUEST_IDS_SPENT": 4010}

#: The ASGI scope extension of a server that can send text messages at once, without a
#: task switch: a function of the texts (sent in order, in one write) that says whether
#: it did (else they are queued).
WRITE_NOW = "shengji.write_now"


class Connection:
    """One client. It holds no seat: the room looks the seat up from ``token_hash`` on
    every command and every message (:meth:`shengji.server.rooms.Room.seat_of`), so
    every connection of a token follows that token's seat."""

    def __init__(
        self,
        peer: str = "",
        limits: Limits | None = None,
        lobby: TokenBucket | None = None,
        write_now: Callable[..., bool] | None = None,
    ) -> None:
        limits = limits or Limits()
        self.peer = peer
        self.token_hash: str | None = None
        self.joined = False
        #: Every request id this connection has used (each is single-use).
        self.used_ids: set[str] = set()
        self.max_ids = limits.request_ids
        self.commands = TokenBucket(limits.commands_per_second, limits.commands_burst)
        self.chats = TokenBucket(limits.chat_per_second, limits.chat_burst)
        #: Lobby writes (join, seats, ready, chat, …): shared by every connection of the
        #: client's address (the hub's), else this connection's own.
        self.lobby = lobby or TokenBucket(limits.lobby_per_second, limits.lobby_burst)
        self.queue_limit = limits.send_queue
        self.outbox: deque[str] = deque()
        self.dropped: str | None = None
        #: Drop the connection once its current command is answered (a CLOSE_CODES key).
        self.closing: str | None = None
        self._wake = asyncio.Event()
        self.write_now = write_now
        #: Messages kept by :meth:`hold` until :meth:`release`.
        self._held: list[str] | None = None

    def spend_request_id(self, request_id: str) -> None:
        """Mark ``request_id`` used; raises ``DUPLICATE_REQUEST`` if it was. A
        connection that has used ``request_ids`` ids is closed once that command is
        answered (:meth:`close_if_spent`, close code 4010): a fresh connection, joined
        with the token, starts afresh."""
        if request_id in self.used_ids:
            raise ShengjiError(
                f"request {request_id!r} was already handled", code=Code.DUPLICATE_REQUEST
            )
        self.used_ids.add(request_id)

    def close_if_spent(self) -> None:
        """After answering a command: close once every queued message is sent, if this
        connection has used all its request ids."""
        if len(self.used_ids) >= self.max_ids and not self.closing:
            self.closing = "REQUEST_IDS_SPENT"
            self._wake.set()

    def hold(self) -> None:
        """Keep the messages pushed from now on until :meth:`release` (a command's table
        and its answer leave in one write)."""
        if self._held is None:
            self._held = []

    def release(self) -> None:
        """Send the messages kept since :meth:`hold`, in order."""
        held, self._held = self._held, None
        if not held or self.dropped:
            return
        if not self.outbox and self.write_now is not None and self.write_now(*held):
            return
        for text in held:
            self.push(text)

    def push(self, text: str) -> None:
        """Queue one message; drop the connection if it is too far behind."""
        if self.dropped:
            return
        if self._held is not None:
            self._held.append(text)
            return
        if not self.outbox and self.write_now is not None and self.write_now(text):
            return  # sent: nothing waits before it
        if len(self.outbox) >= self.queue_limit:
            self.drop("SLOW_CONSUMER")
        else:
            self.outbox.append(text)
            self._wake.set()

    def close_after(self, reason: str) -> None:
        """Close this connection once what is queued for it is sent (``reason`` is a key
        of :data:`CLOSE_CODES`)."""
        if not self.closing:
            self.closing = reason
            self._wake.set()

    def drop(self, reason: str) -> None:
        """Close this connection (``reason`` is a key of :data:`CLOSE_CODES`)."""
        self.outbox.clear()
        self.dropped = reason
        self._wake.set()

    async def pump(
        self, send: Callable[[str], Awaitable[None]], close: Callable[[int], Awaitable[None]]
    ) -> None:
        """Send queued messages in order until the connection is dropped (then close it)."""
        while True:
            while self.outbox and not self.dropped:
                await send(self.outbox.popleft())
            if self.closing and not self.dropped:
                self.dropped = self.closing  # every queued message has been sent
            if self.dropped:
                await close(CLOSE_CODES[self.dropped])
                return
            self._wake.clear()
            await self._wake.wait()
