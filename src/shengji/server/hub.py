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
import math
import secrets
import time
from dataclasses import asdict
from typing import Any

from ..bots.registry import table_bot_names
from ..errors import Code
from .bus import PgBus
from .limits import FairShare, Limits, TokenBucket
from .room_core import RoomCore
from .room_settings import RoomError, RoomSettings, bot_seat, token_hash
from .rooms import Room
from .store import GroupWriter, RoomDamaged, RoomData, Store, StoreError

log = logging.getLogger("shengji.server")


#: Unloaded rooms whose counts of moves made for away people are kept (the oldest first
#: forgotten beyond it).
CARRIED = 10_000


class Hub:
    """Every room of the server that is in memory, and the per-address limits."""

    def __init__(
        self,
        store: Store,
        bot_delay: float | None = None,
        limits: Limits | None = None,
        deal_seconds: float | None = None,
    ) -> None:
        """``bot_delay`` and ``deal_seconds``: every room's bot and deal pace, whatever
        its settings say (tests and load tests run at 0)."""
        self.store = store
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        self.bot_delay = bot_delay
        self.deal_seconds = deal_seconds
        #: Per-address budgets (keyed by :func:`~.limits.address_group`): rooms made,
        #: lobby writes, frames read, room reads over HTTP.
        self.creations: dict[str, TokenBucket] = {}
        self.lobby_budgets: dict[str, TokenBucket] = {}
        self.shares: dict[str, FairShare] = {}
        self.read_budgets: dict[str, TokenBucket] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        #: Sockets waiting for each room being loaded (attached to it when it is made).
        self._waiting: dict[str, int] = {}
        self.connections: dict[str, int] = {}
        self.open_connections = 0
        self.writer = GroupWriter(store)
        self._sweeper: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None
        self._bus: PgBus | None = None
        self._following: set[asyncio.Task[None]] = set()
        #: Moves bots made for away people of rooms unloaded from memory (room id -> seat
        #: -> count, at most CARRIED rooms): told to each person when they come back, even
        #: after their room was read again from the store.
        self._carried: dict[str, dict[int, int]] = {}

    # -- rooms -----------------------------------------------------------------------------
    async def create(
        self,
        settings: RoomSettings,
        bots: list[str | None] | None = None,
        public: bool = False,
        peer: str = "",
    ) -> tuple[Room, str]:
        """A new room and its host key; nothing is made if anything is refused."""
        seats = settings.options().players  # raises for a bad preset or option
        settings.check_timer()
        if bots is not None and len(bots) > seats:
            raise RoomError(
                Code.BAD_SEAT,
                f"{len(bots)} bots for a table of {seats} seats",
                {"seats": seats, "got": len(bots)},
            )
        for bot in bots or []:
            if bot is not None and bot not in table_bot_names():
                raise RoomError(
                    Code.UNKNOWN_BOT, f"no bot called {bot!r}: {', '.join(table_bot_names())}"
                )
        bucket = _budget(
            self.creations, peer, self.limits.rooms_per_hour / 3600, self.limits.rooms_burst
        )
        if not bucket.take():
            raise RoomError(
                Code.TOO_MANY_ROOMS,
                "too many rooms made from your address: wait",
                {"retry_after": math.ceil(bucket.wait())},
            )
        self._pace(settings)
        room_id = secrets.token_hex(16)  # 128 bits: not guessable, not enumerable
        room = Room(room_id, settings, self.store, self.limits)
        for seat, bot in enumerate(bots or []):
            if bot is not None:
                room.seats[seat] = bot_seat(bot)
        room.make_bots()
        host_key = secrets.token_hex(24)  # hex: never read as a command-line option
        room.host_key_hash = token_hash(host_key)
        room.public_listing = public
        room.writer = self.writer
        try:
            await room.save()
        except StoreError as e:
            raise RoomError(e.code, "the server could not save the room: try again") from e
        room.on_moved = self.forget
        self.rooms[room_id] = room
        return room, host_key

    def lobby_budget(self, peer: str) -> TokenBucket:
        """The lobby-write budget shared by every connection from ``peer``."""
        return _budget(
            self.lobby_budgets, peer, self.limits.lobby_per_second, self.limits.lobby_burst
        )

    def fair_share(self, peer: str) -> FairShare:
        """The frames every connection from ``peer`` together may have read: its fair
        share of the event loop (frames beyond it wait unread)."""
        share = self.shares.get(peer)
        if share is None:
            if len(self.shares) > 10_000:
                for key in [k for k, s in self.shares.items() if s.full()]:
                    del self.shares[key]
            lim = self.limits
            share = FairShare(lim.ip_commands_per_second, lim.ip_commands_burst)
            self.shares[peer] = share
        return share

    def read_budget(self, peer: str) -> TokenBucket:
        """The room reads over HTTP that ``peer`` may make."""
        lim = self.limits
        return _budget(self.read_budgets, peer, lim.reads_per_second, lim.reads_burst)

    async def attach(self, room_id: str) -> Room:
        """The room, loaded from the store if needed, off the event loop (raises
        RoomError), counted in its ``attached`` for the caller (who subtracts itself when
        done): from the moment it is found or loaded, it is never unloaded or read again
        under the caller. Sockets asking for a room while it loads share one load.

        A room that nobody is connected to and that has nothing running is read again
        from the store: another server process may have played it meanwhile."""
        room = self.rooms.get(room_id)
        if room is not None:
            if room.busy():
                room.attached += 1
                return room
            self._unload(room)
        if len(room_id) > 64:
            raise RoomError(Code.NO_ROOM, "no such room")
        loading = self._loading.get(room_id)
        if loading is None:
            loading = self._loading[room_id] = asyncio.ensure_future(self._load(room_id))
            loading.add_done_callback(lambda _: self._loading.pop(room_id, None))
        # counted now: the load attaches every waiter in the same step that makes the room
        self._waiting[room_id] = self._waiting.get(room_id, 0) + 1
        try:
            return await asyncio.shield(loading)
        except asyncio.CancelledError:
            if loading.done() and not loading.cancelled() and loading.exception() is None:
                loading.result().attached -= 1
            elif (left := self._waiting.get(room_id, 0) - 1) > 0:
                self._waiting[room_id] = left
            else:
                self._waiting.pop(room_id, None)
            raise

    def _pace(self, settings: RoomSettings) -> None:
        """The server's own bot and deal pace, where it sets one."""
        if self.bot_delay is not None:
            settings.bot_delay = self.bot_delay
        if self.deal_seconds is not None:
            settings.deal_seconds = self.deal_seconds

    async def _load(self, room_id: str) -> Room:
        def read() -> Room:
            row = self.store.load_room(room_id)
            if row is None:
                raise RoomError(Code.NO_ROOM, "no such room")
            if row.status == "quarantined":
                raise RoomError(Code.ROOM_UNAVAILABLE, "this room is damaged and was set aside")
            paced = {"bot_delay": self.bot_delay, "deal_seconds": self.deal_seconds}
            paced = {k: v for k, v in paced.items() if v is not None}
            if paced:
                row = row._replace(settings={**row.settings, **paced})
            try:
                return Room.restore(room_id, row, self.store, self.limits)
            except StoreError:
                raise
            except Exception as e:  # a corrupt room: set it aside, serve the others
                log.error("room %s cannot be loaded (%s): quarantined", room_id, e)
                with contextlib.suppress(StoreError):
                    self.store.quarantine(room_id)
                raise RoomDamaged(str(e)) from e

        try:
            room = await asyncio.to_thread(read)
        except StoreError as e:
            self._waiting.pop(room_id, None)
            raise RoomError(e.code, "the server cannot reach its database: try again") from e
        except RoomDamaged as e:
            self._waiting.pop(room_id, None)
            raise RoomError(Code.ROOM_UNAVAILABLE, "this room is damaged and was set aside") from e
        except BaseException:
            self._waiting.pop(room_id, None)
            raise
        if (mine := self.rooms.get(room_id)) is not None:
            room.close()
            mine.attached += self._waiting.pop(room_id, 0)
            return mine  # made here while it was being read
        if room.status == "playing":
            for i, seat in enumerate(room.seats):
                if seat.kind == "human" and not seat.away:
                    room.start_away_timer(i)  # until they come back
        for i, made in self._carried.pop(room_id, {}).items():
            room.played_for[i] = room.played_for.get(i, 0) + made
        room.on_moved = self.forget
        room.writer = self.writer
        room.attached += self._waiting.pop(room_id, 0)
        self.rooms[room_id] = room
        return room

    def forget(self, room: RoomCore) -> None:
        """Drop a room from memory (it is loaded anew from the store when asked for)."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    async def public_rooms(self) -> list[dict[str, Any]]:
        """The rooms their hosts listed, as the room list shows them (not loaded; the
        store is read off the event loop; a damaged row is quarantined and left out)."""

        def read() -> list[tuple[str, RoomData | None]]:
            rows: list[tuple[str, RoomData | None]] = []
            for room_id in self.store.public_rooms():
                try:
                    rows.append((room_id, self.store.load_room(room_id)))
                except RoomDamaged:
                    continue
            return rows

        rows = await asyncio.to_thread(read)
        return [s for room_id, row in rows if (s := self._summary(room_id, row)) is not None]

    async def room_summary(self, room_id: str) -> dict[str, Any] | None:
        """What anyone holding a room's link may know before joining (None when there is
        no such room; :class:`RoomDamaged` when its row is damaged or was set aside): the
        room list's entry plus the changed rule options, the turn timer, the deal's pace,
        whether hints are allowed, and what its searching bots' decisions got here
        (:meth:`Room.search_figures`)."""
        row = None
        if room_id not in self.rooms:
            row = await asyncio.to_thread(self.store.load_room, room_id)
            if row is not None and row.status == "quarantined":
                raise RoomDamaged(f"room {room_id} was set aside")
        summary = self._summary(room_id, row)
        if summary is None:
            return None
        room = self.rooms.get(room_id)
        if room is not None:
            settings = room.settings
        elif row is not None:
            settings = RoomSettings.stored(row.settings)
        else:  # unloaded meanwhile
            return None
        summary["overrides"] = dict(settings.overrides)
        summary["turn_seconds"] = settings.turn_seconds
        summary["hints"] = settings.hints
        summary["paced"] = settings.paced
        summary["deal_seconds"] = settings.deal_seconds
        summary["declare_seconds"] = settings.declare_seconds
        summary["take_back"] = settings.take_back
        summary["auto_play"] = settings.auto_play
        summary["bot_search"] = room.search_figures() if room is not None else None
        return summary

    def _summary(self, room_id: str, row: RoomData | None) -> dict[str, Any] | None:
        room = self.rooms.get(room_id)
        if room is not None:
            seats = [_seat_summary(asdict(s)) for s in room.seats]
            status, preset, watching = room.status, room.settings.preset, room.watching()
        else:
            if row is None:
                return None
            seats = [_seat_summary(s) for s in row.lobby["seats"]]
            status, preset, watching = row.status, row.settings["preset"], 0
        return {
            "id": room_id,
            "status": status,
            "preset": preset,
            "seats": seats,
            "spectators": watching,
        }

    # -- connections -----------------------------------------------------------------------
    def connect(self, peer: str) -> Code | None:
        """Count a new connection from ``peer`` (an address group); the refusal's code
        when that group has ``connections_per_ip`` (``RATE_LIMITED``) or the process has
        ``connections_per_process`` (``SERVER_FULL``) open already."""
        if self.open_connections >= self.limits.connections_per_process:
            return Code.SERVER_FULL
        n = self.connections.get(peer, 0)
        if n >= self.limits.connections_per_ip:
            return Code.RATE_LIMITED
        self.connections[peer] = n + 1
        self.open_connections += 1
        return None

    def disconnect(self, peer: str) -> None:
        """A connection from ``peer`` closed."""
        n = self.connections.get(peer, 0) - 1
        self.open_connections -= 1
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
            self._unload(room)
        return len(idle)

    def _unload(self, room: Room) -> None:
        """Drop a room that nobody uses from memory, keeping what is told on a return."""
        room.close()
        del self.rooms[room.id]
        if room.played_for:
            self._carried.pop(room.id, None)
            self._carried[room.id] = dict(room.played_for)
            while len(self._carried) > CARRIED:
                del self._carried[next(iter(self._carried))]

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


def _budget(budgets: dict[str, TokenBucket], peer: str, rate: float, burst: int) -> TokenBucket:
    """``peer``'s bucket in ``budgets`` (made full on first use; when there are very many,
    the full ones are forgotten: they hold nothing a fresh one would not)."""
    bucket = budgets.get(peer)
    if bucket is None:
        if len(budgets) > 10_000:
            for key in [k for k, b in budgets.items() if b.full()]:
                del budgets[key]
        bucket = budgets[peer] = TokenBucket(rate, burst)
    return bucket


def _seat_summary(s: dict[str, Any]) -> dict[str, Any]:
    """A seat as the room's link shows it: who sits there, and which bot (its level is
    shown from the bots' list)."""
    out = {"kind": s["kind"], "name": s["name"]}
    if s["kind"] == "bot":
        out["bot"] = s.get("bot")
    return out
