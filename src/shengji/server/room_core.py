"""A room's state and persistence: who sits where, the lobby and the match as stored,
writing an action first and applying it after, the review holds, and handing the room
over when another process has changed it. The layers above (:mod:`.broadcast`,
:mod:`.driver`, :mod:`.lobby`, :mod:`.rooms`) add what the room sends, what moves it by
itself, the lobby's commands and the players' commands."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict
from typing import Any

from ..bots.external import ExternalBot
from ..errors import ShengjiError
from ..game.actions import Action, action_to_json
from ..game.dealing import DealClock
from ..game.flow import apply
from ..game.players import Player
from ..game.record import Recorder
from ..game.state import GameState
from ..rules.shuffle import secret_seed
from .connection import Connection
from .limits import Limits
from .room_settings import (
    RoomError,
    RoomSettings,
    SeatInfo,
    Undo,
)
from .store import ActionWrite, GroupWriter, Store, StoreConflict, StoreError

log = logging.getLogger("shengji.server")

CHAT_TAIL = 50

#: Searched bot decisions a room keeps the figures of (:meth:`Room.search_figures`).
SEARCH_KEPT = 1000


class RoomCore:
    """One table: its state, its seats and its store (the bottom layer of :class:`~.rooms.Room`)."""

    def __init__(
        self, room_id: str, settings: RoomSettings, store: Store, limits: Limits | None = None
    ) -> None:
        self.id = room_id
        self.settings = settings
        self.options = settings.options()
        self._options_json = self.options.to_dict()  # options never change: built once
        self._kept_text: tuple[object, object, str] | None = None
        self._settings_text: tuple[str, str] | None = None
        self._own_kept: dict[int, tuple[object, object, object, str]] = {}
        self.store = store
        self.limits = limits or Limits()
        self.seats = [SeatInfo(bot=settings.default_bot) for _ in range(self.options.players)]
        #: Spectators' token hashes and names (at most ``spectator_tokens``, oldest
        #: forgotten first); ``watching`` counts the connected ones.
        self.spectators: dict[str, str] = {}
        self.host_hash: str | None = None
        self.host_key_hash: str | None = None
        self.public_listing = False
        self.status = "lobby"
        self.seed = secret_seed()  # server-side only: it determines every deal
        self.state: GameState | None = None
        self.recorder: Recorder | None = None
        self.rev = 0
        #: The first revision of the deal in progress: a show during the deal may act on
        #: an older revision of the same deal, never on one from before it (a redeal).
        self.deal_rev = 0
        #: The stored row's version this copy was read at or last wrote (None: not stored).
        self.version: int | None = None
        self.chat: list[dict[str, Any]] = []
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.bots: dict[int, Player] = {}
        #: What the last :data:`SEARCH_KEPT` searched bot decisions got in this process
        #: (rollouts, sampled deals, whether the wall-clock cap stopped it).
        self.searched: deque[tuple[int, int, bool]] = deque(maxlen=SEARCH_KEPT)
        self.driver: asyncio.Task[None] | None = None
        #: Deals a paced deal round by round (and makes the bots' shows).
        self.dealer: asyncio.Task[None] | None = None
        self.clock = DealClock(settings.deal_seconds, settings.bot_delay)
        #: Programs (external bots) asked during the deal, off the event loop.
        self.asking: dict[int, asyncio.Task[None]] = {}
        self.timer: asyncio.Task[None] | None = None
        self.timer_for: GameState | None = None
        self.deadlines: list[float | None] = [None] * len(self.seats)
        self.deadlines_at: float | None = None
        self.continued: set[int] = set()
        #: After a hand: seats whose person has a hand review open (when it was opened,
        #: epoch seconds); each holds the next hand until ``review_hold_seconds`` of its
        #: own are spent (``hold_used``, seconds, per seat and hand).
        self.holds: dict[int, float] = {}
        self.hold_used: dict[int, float] = {}
        #: Seconds left of the score sheet's countdown while reviews hold it (None: not held).
        self.next_left: float | None = None
        #: The timer runs to the end of a review's hold (not to the next hand).
        self.timer_hold = False
        self.away_tasks: dict[int, asyncio.Task[None]] = {}
        #: Moves a bot made for each seat whose person was away (told on their return).
        self.played_for: dict[int, int] = {}
        self.last_active = time.monotonic()
        self.stale = False
        #: Another process plays this room (its bots are not moved from here).
        self.following = False
        #: Commits actions off the event loop (the hub's); None: commit in place.
        self.writer: GroupWriter | None = None
        #: Sockets holding this room (joined or not yet): while any, it stays in memory.
        self.attached = 0
        #: Called when the room is found stale (the hub forgets it).
        self.on_moved: Callable[[RoomCore], None] | None = None
        #: When a refused command last compared this copy with the store (monotonic).
        self._store_checked = 0.0
        #: The show or play a person may take back now (None: nothing to take back).
        self.undo: Undo | None = None

    # -- persistence -----------------------------------------------------------------------
    def lobby_data(self) -> dict[str, Any]:
        """What the store keeps of the lobby."""
        return {
            "seats": [asdict(s) for s in self.seats],
            "spectators": self.spectators,
            "host_hash": self.host_hash,
            "host_key_hash": self.host_key_hash,
            "seed": self.seed,
            "public": self.public_listing,
            "chat": self.chat[-CHAT_TAIL:],
            "rev": self.rev,
            # actions after this save raise the revision one each (see restore)
            "actions": len(self.recorder.actions) if self.recorder else 0,
        }

    def settings_data(self) -> dict[str, Any]:
        """What the store keeps of the settings."""
        return asdict(self.settings)

    def _save_job(self, status_before: str) -> Callable[[], int]:
        """The write of the lobby as it is now, to run off the event loop: conditional on
        the stored version this copy holds (a new room is inserted)."""
        expect = None if self.version is None else (self.version, status_before)
        args = (self.id, self.status, self.settings_data(), self.lobby_data(), self.public_listing)
        return lambda: self.store.save_room(*args, expect=expect)

    async def _commit(self, job: Callable[[], int]) -> None:
        """Run a save job (in the writer's thread when there is one); raises StoreError,
        and StoreConflict when another process changed the stored room since."""
        self.version = await self.writer.call(job) if self.writer else job()

    async def save(self) -> None:
        """Persist settings and lobby as they are (a new room: its first write)."""
        await self._commit(self._save_job(self.status))

    def _lobby_snapshot(self) -> tuple[Any, ...]:
        return (
            copy.deepcopy(self.seats),
            dict(self.spectators),
            self.host_hash,
            self.host_key_hash,
            self.public_listing,
            list(self.chat),
            self.rev,
            self.status,
        )

    def _restore_lobby(self, snap: tuple[Any, ...]) -> None:
        (
            self.seats,
            self.spectators,
            self.host_hash,
            self.host_key_hash,
            self.public_listing,
            self.chat,
            self.rev,
            self.status,
        ) = snap

    @contextlib.asynccontextmanager
    async def saving(self, bump: bool = True) -> AsyncIterator[None]:
        """Change the lobby, then save it off the event loop. Until the save is committed
        the room shows its committed lobby; if the save fails, the change is undone.
        ``bump``: the change is the table's (a new revision)."""
        before = self._lobby_snapshot()
        try:
            yield
        except BaseException:
            self._restore_lobby(before)
            raise
        self.rev += bump
        after = self._lobby_snapshot()
        job = self._save_job(before[-1])
        self._restore_lobby(before)
        try:
            await self._commit(job)
        except StoreConflict as e:
            self.moved(f"its lobby write was refused ({e}: {e.__cause__})")
            raise RoomError(e.code, "the room was changed elsewhere: reconnecting") from e
        except StoreError as e:
            raise RoomError(e.code, "the server could not save that: try again") from e
        self._restore_lobby(after)

    # -- who is who ------------------------------------------------------------------------
    def seat_of(self, conn: Connection) -> int | None:
        """The seat of ``conn``'s token now (None: a spectator or not joined)."""
        return None if conn.token_hash is None else self.seat_of_hash(conn.token_hash)

    def seat_of_hash(self, h: str) -> int | None:
        """The seat of a token hash (None: no seat)."""
        return next((i for i, s in enumerate(self.seats) if s.token_hash == h), None)

    def _is_host(self, conn: Connection) -> bool:
        return conn.token_hash is not None and conn.token_hash == self.host_hash

    def _seat_index(self) -> dict[str, int]:
        """Token hash -> seat, for looking many connections up at once."""
        return {s.token_hash: i for i, s in enumerate(self.seats) if s.token_hash}

    def _connected_seats(self, index: dict[str, int] | None = None) -> set[int]:
        index = self._seat_index() if index is None else index
        return {index[c.token_hash] for c in self.conns if c.token_hash in index}

    @property
    def paused(self) -> bool:
        """No person is connected: the room stops after the current hand."""
        return not self.conns

    def waiting(self, here: set[int] | None = None) -> list[int]:
        """After a hand: the connected people who have not pressed "next hand" yet
        (``here``: the connected seats, when already known)."""
        if self.state is None or self.state.phase != "hand_over":
            return []
        here = self._connected_seats() if here is None else here
        return [
            i
            for i, s in enumerate(self.seats)
            if s.kind == "human" and not s.away and i in here and i not in self.continued
        ]

    def hold_ends(self) -> dict[int, float]:
        """The seats whose review holds the next hand now -> when each hold runs out
        (epoch seconds)."""
        cap = self.limits.review_hold_seconds
        return {s: t + cap - self.hold_used.get(s, 0.0) for s, t in self.holds.items()}

    def _end_hold(self, seat: int, now: float) -> None:
        """``seat``'s review is closed (or its hold ran out): charge the time it held."""
        began = self.holds.pop(seat, None)
        if began is not None:
            used = self.hold_used.get(seat, 0.0) + max(0.0, now - began)
            self.hold_used[seat] = min(self.limits.review_hold_seconds, used)

    def _prune_holds(self, now: float) -> None:
        """End the holds that ran out, and those of seats with no connection now."""
        here = self._connected_seats()
        ends = self.hold_ends()
        for seat in list(self.holds):
            gone = seat not in here or self.seats[seat].kind != "human"
            if gone or ends[seat] <= now + 0.01:
                self._end_hold(seat, now)

    async def _changed_elsewhere(self) -> bool:
        """Whether the store holds a newer room than this copy (its lobby version or its
        action count moved on): another process wrote it. Read at most once a second per
        room, so refused commands cannot flood the database."""
        now = time.monotonic()
        if now - self._store_checked < 1.0 or self.version is None:
            return False
        self._store_checked = now
        try:
            mark = await asyncio.to_thread(self.store.room_mark, self.id)
        except StoreError:
            return False
        ours = len(self.recorder.actions) if self.recorder else 0
        return mark is not None and mark != (self.version, ours)

    async def _apply(self, seat: int | None, action: Action) -> None:
        """Apply, persist (in the writer thread when there is one), then update memory;
        the caller broadcasts. Holds the room's lock, so a room's writes keep their order."""
        assert self.state is not None
        try:
            st, _ = apply(self.state, seat, action)
        except ShengjiError as e:
            raise RoomError(e.code, e.message, e.params) from None
        await self._write(seat, action, st)
        if seat is None and self.undo is not None:
            self.undo.tail.append(action)  # a deal round: dealt again after a take-back
        elif seat is not None:
            self.undo = None  # a seat acted: the moment to take back has passed
        self.rev += 1
        if st.phase == "deal" and (
            self.state.phase != "deal"
            or (st.hand_number, st.redeals) != (self.state.hand_number, self.state.redeals)
        ):  # a new deal (the next hand, or a redeal): shows from before it are stale
            self.deal_rev = self.rev
        self.state = st
        self.continued.clear()
        self.holds.clear()
        self.hold_used.clear()
        self.next_left = None
        if st.phase == "match_over":
            self.status = "finished"

    async def _write(self, seat: int | None, action: Action, st: GameState) -> None:
        """Record and store one action that leads to ``st`` (the table's own: seat None);
        when the store refuses, the record is as it was."""
        assert self.recorder is not None
        seq = len(self.recorder.actions)
        self.recorder.add(seat, action)
        finished = st.phase == "match_over"
        write = ActionWrite(
            self.id,
            seq,
            seat,
            action_to_json(action),
            status="finished" if finished else None,
            record=self.recorder.record(st) if finished else None,
        )
        try:
            if self.writer is not None:
                await self.writer.write(write)
            else:
                self.store.append_actions([write])
        except StoreConflict as e:
            self.recorder.actions.pop()
            self.moved(f"action {seq} was refused ({e}: {e.__cause__})")
            raise RoomError(e.code, "the room was changed elsewhere: reconnecting") from e
        except StoreError as e:
            self.recorder.actions.pop()
            raise RoomError(e.code, "the server could not save that: try again") from e
        except BaseException:
            self.recorder.actions.pop()
            raise

    def moved(self, why: str) -> None:
        """Another process has taken this room over (its copy here is stale): stop it,
        forget it, and close its connections so that they reconnect and load it anew."""
        log.warning("room %s handed over: %s", self.id[:8], why)
        self.stale = True
        for conn in list(self.conns):
            conn.close_after("ROOM_MOVED")  # what is queued (an answer) goes first
        self.conns.clear()
        if self.on_moved is not None:
            self.on_moved(self)
        self.close()

    def busy(self) -> bool:
        """Whether the room has connections or tasks running (not to be unloaded)."""
        tasks = [self.driver, self.dealer, self.timer, *self.away_tasks.values()]
        busy = bool(self.conns) or self.attached > 0
        return busy or any(t is not None and not t.done() for t in tasks)

    def close(self) -> None:
        """Stop the room's tasks (it is being unloaded)."""
        for t in [self.driver, self.dealer, self.timer, *self.away_tasks.values()]:
            if t is not None:
                t.cancel()
        for t in self.asking.values():
            t.cancel()
        self.bots, old = {}, self.bots
        for bot in old.values():
            if isinstance(bot, ExternalBot):
                bot.close()  # its program is stopped
