"""The rooms of a server: created, loaded on demand, unloaded when idle.

Nothing is loaded at start-up: a room is rebuilt from the store when someone asks for
it, so one corrupt room cannot stop the server (it is quarantined and refused with
``ROOM_UNAVAILABLE``), and abandoned or finished rooms cost no memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import time
from typing import Any

from ..bots.registry import bot_names
from ..errors import Code
from .bus import PgBus
from .limits import Limits, TokenBucket
from .rooms import Room, RoomError, RoomSettings, bot_seat, token_hash
from .store import GroupWriter, Store, StoreError

log = logging.getLogger("shengji.server")


class Hub:
    """Every room of the server that is in memory, and the per-address limits."""

    def __init__(
        self, store: Store, bot_delay: float | None = None, limits: Limits | None = None
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        self.bot_delay = bot_delay
        self.creations: dict[str, TokenBucket] = {}
        self.connections: dict[str, int] = {}
        self.writer = GroupWriter(store)
        self._sweeper: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None
        self._bus: PgBus | None = None
        self._following: set[asyncio.Task[None]] = set()

    # -- rooms -----------------------------------------------------------------------------
    def create(
        self,
        settings: RoomSettings,
        bots: list[str | None] | None = None,
        public: bool = False,
        peer: str = "",
    ) -> tuple[Room, str]:
        """A new room and its host key; nothing is made if anything is refused."""
        settings.options()  # raises for a bad preset or option
        for bot in bots or []:
            if bot is not None and bot not in bot_names():
                raise RoomError(
                    Code.UNKNOWN_BOT, f"no bot called {bot!r}: {', '.join(bot_names())}"
                )
        bucket = self.creations.get(peer)
        if bucket is None:
            if len(self.creations) > 10_000:
                self.creations.clear()
            bucket = self.creations[peer] = TokenBucket(
                self.limits.rooms_per_hour / 3600, self.limits.rooms_burst
            )
        if not bucket.take():
            raise RoomError(Code.TOO_MANY_ROOMS, "too many rooms made from your address: wait")
        if self.bot_delay is not None:
            settings.bot_delay = self.bot_delay
        room_id = secrets.token_hex(16)  # 128 bits: not guessable, not enumerable
        room = Room(room_id, settings, self.store, self.limits)
        for seat, bot in enumerate(bots or []):
            if bot is not None:
                room.seats[seat] = bot_seat(bot)
        room.make_bots()
        host_key = secrets.token_urlsafe(24)
        room.host_key_hash = token_hash(host_key)
        room.public_listing = public
        try:
            room.save()
        except StoreError as e:
            raise RoomError(e.code, "the server could not save the room: try again") from e
        room.on_moved = self.forget
        room.writer = self.writer
        self.rooms[room_id] = room
        return room, host_key

    def get(self, room_id: str) -> Room:
        """The room, loaded from the store if needed (raises RoomError).

        A room that nobody is connected to and that has nothing running is read again
        from the store: another server process may have played it meanwhile."""
        room = self.rooms.get(room_id)
        if room is not None:
            if room.busy():
                return room
            room.close()
            del self.rooms[room_id]
        if len(room_id) > 64:
            raise RoomError(Code.NO_ROOM, "no such room")
        try:
            row = self.store.load_room(room_id)
        except StoreError as e:
            raise RoomError(e.code, "the server cannot reach its database: try again") from e
        if row is None:
            raise RoomError(Code.NO_ROOM, "no such room")
        status, settings, lobby = row
        if status == "quarantined":
            raise RoomError(Code.ROOM_UNAVAILABLE, "this room is damaged and was set aside")
        if self.bot_delay is not None:
            settings = {**settings, "bot_delay": self.bot_delay}
        try:
            room = Room.restore(room_id, status, settings, lobby, self.store, self.limits)
        except StoreError as e:
            raise RoomError(e.code, "the server cannot reach its database: try again") from e
        except Exception as e:  # a corrupt row: set it aside, serve the others
            log.error("room %s cannot be loaded (%s): quarantined", room_id, e)
            with contextlib.suppress(StoreError):
                self.store.quarantine(room_id)
            raise RoomError(Code.ROOM_UNAVAILABLE, "this room is damaged and was set aside") from e
        if room.status == "playing":
            for i, seat in enumerate(room.seats):
                if seat.kind == "human" and not seat.away:
                    room.start_away_timer(i)  # until they come back
        room.on_moved = self.forget
        room.writer = self.writer
        self.rooms[room_id] = room
        return room

    def forget(self, room: Room) -> None:
        """Drop a room from memory (it is loaded anew from the store when asked for)."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    def public_rooms(self) -> list[dict[str, Any]]:
        """The rooms their hosts listed, as the room list shows them (not loaded)."""
        out = []
        for room_id in self.store.public_rooms():
            room = self.rooms.get(room_id)
            if room is not None:
                seats = [{"kind": s.kind, "name": s.name} for s in room.seats]
                status, preset, spectators = room.status, room.settings.preset, room.spectators
            else:
                row = self.store.load_room(room_id)
                if row is None:
                    continue
                status, settings, lobby = row
                seats = [{"kind": s["kind"], "name": s["name"]} for s in lobby["seats"]]
                preset, spectators = settings["preset"], lobby.get("spectators", {})
            out.append(
                {
                    "id": room_id,
                    "status": status,
                    "preset": preset,
                    "seats": seats,
                    "spectators": len(spectators),
                }
            )
        return out

    # -- connections -----------------------------------------------------------------------
    def connect(self, peer: str) -> bool:
        """Count a new connection from ``peer``; False when it has too many."""
        n = self.connections.get(peer, 0)
        if n >= self.limits.connections_per_ip:
            return False
        self.connections[peer] = n + 1
        return True

    def disconnect(self, peer: str) -> None:
        """A connection from ``peer`` closed."""
        n = self.connections.get(peer, 0) - 1
        if n > 0:
            self.connections[peer] = n
        else:
            self.connections.pop(peer, None)

    # -- memory ----------------------------------------------------------------------------
    def sweep(self) -> int:
        """Unload rooms with no connection and nothing running for ``idle_seconds``."""
        now = time.monotonic()
        idle = [
            r
            for r in self.rooms.values()
            if not r.busy() and now - r.last_active >= self.limits.idle_seconds
        ]
        for room in idle:
            room.close()
            del self.rooms[room.id]
        return len(idle)

    def start(self) -> None:
        """Start unloading idle rooms, and tending the garbage collector, in the background."""

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(max(1.0, min(30.0, self.limits.idle_seconds / 4)))
                self.sweep()

        async def collector() -> None:
            # The collector walks live objects and finds almost no garbage here (states are
            # immutable values freed by reference counting), yet a young-generation pass
            # over a thousand tables' objects stalls every table for tens of milliseconds.
            # So the automatic collector is off; what survives is frozen (never walked
            # again) every second, and the whole heap is collected only now and then.
            gc.disable()
            last_full = time.monotonic()
            while True:
                await asyncio.sleep(1.0)
                if time.monotonic() - last_full >= self.limits.full_gc_seconds:
                    gc.unfreeze()
                    gc.collect()
                    last_full = time.monotonic()
                gc.freeze()

        loop = asyncio.get_running_loop()
        self._sweeper = loop.create_task(sweeper())
        self._collector = loop.create_task(collector())
        if self.store.engine.dialect.name == "postgresql":
            url = self.store.engine.url.render_as_string(hide_password=False)
            self._bus = PgBus(url, loop, self.remote_change)

    def remote_change(self, room_id: str) -> None:
        """Another process changed ``room_id``: if it is in memory here, follow it."""
        room = self.rooms.get(room_id)
        if room is not None and not room.stale:
            task = asyncio.get_running_loop().create_task(room.follow())
            self._following.add(task)
            task.add_done_callback(self._following.discard)

    def stop(self) -> None:
        """Stop every room's tasks."""
        for task in (self._sweeper, self._collector):
            if task:
                task.cancel()
        for room in self.rooms.values():
            room.close()
        self.writer.close()
        if self._bus is not None:
            self._bus.close()
        gc.unfreeze()
        gc.enable()
