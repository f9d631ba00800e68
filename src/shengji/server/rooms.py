"""Rooms: seats, identity, the lobby, the match, bots, timers and persistence.

The deal runs by itself (a paced deal, :mod:`shengji.game.dealing`): a round of cards every
``deal_seconds``, anyone shows at any moment, bots answer at their draws, and nobody is
waited on; the round before the kitty and the counters after the burial give a person
``declare_seconds`` (silence is not showing). Each room handles one command at a time (an
asyncio lock). A change is written to the
store first; when the store refuses, the room is left exactly as it was and the client
gets ``STORE_UNAVAILABLE``. Every connection has a bounded outbox (see
:mod:`.connection`): broadcasting never waits for a client. Bots, turn timers and the
"next hand" timer are driven by tasks of the room; when no person is connected the room
stops after the current hand. A seated person reading a hand review after a hand holds the
next hand (``reviewing``), up to ``review_hold_seconds`` a hand: the score sheet's
countdown is paused meanwhile and goes on with what was left of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from pydantic_core import to_json

from ..bots.external import ExternalBot
from ..bots.registry import make_player
from ..errors import Code, ShengjiError
from ..game.actions import Action, Continue, Declare, Pass, Play, action_from_json, action_to_json
from ..game.dealing import DEAL_SECONDS, DECLARE_SECONDS, DealClock, is_dealing
from ..game.flow import apply, new_match
from ..game.players import Player
from ..game.record import Recorder
from ..game.state import GameState
from ..game.views import legal_show_texts, own_view, seat_message, seat_view, table_view
from ..rules.follow import count_legal_follows, legal_follows
from ..rules.friends import callable_cards
from ..rules.options import RuleOptions
from ..rules.phases import DECLARING_PHASES
from ..rules.presets import load_preset
from ..rules.shuffle import derived_seed, secret_seed
from ..rules.units import classify_lead, decompose
from ..words.i18n import notice_texts
from .connection import Connection
from .limits import Limits
from .protocol import (
    PROTOCOL_VERSION,
    Act,
    ActionBody,
    Chat,
    Check,
    Join,
    Kick,
    Ping,
    Randomize,
    Ready,
    Reviewing,
    SetBot,
    SetPublic,
    Sit,
    Start,
    TakeBack,
    message,
)
from .store import ActionWrite, GroupWriter, RoomData, Store, StoreConflict, StoreError

log = logging.getLogger("shengji.server")

CHAT_TAIL = 50
#: Searched bot decisions a room keeps the figures of (:meth:`Room.search_figures`).
SEARCH_KEPT = 1000

#: Refusals that say nothing about the room's state (the others may be a stale copy's).
_NOT_THE_ROOMS = frozenset(
    {
        Code.RATE_LIMITED,
        Code.DUPLICATE_REQUEST,
        Code.NOT_JOINED,
        Code.ALREADY_JOINED,
        Code.STORE_UNAVAILABLE,
        Code.ROOM_MOVED,
        Code.BAD_CARD,
    }
)


def callable_text(st: GameState, seat: int | None) -> str | None:
    """找朋友: the cards the banker may call (one of each, notation), sent to the banker
    while it is their turn to call (else None)."""
    if seat is None or st.phase != "call" or st.to_act != seat:
        return None
    return " ".join(c.text for c in callable_cards(st.ctx))


class RoomError(ShengjiError):
    """A command the room refuses; ``code`` is a :class:`~shengji.errors.Code`."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message, code=code, params=params)


def token_hash(token: str) -> str:
    """What the server stores of a resume token (or a host key)."""
    return hashlib.sha256(token.encode()).hexdigest()


def dumps(msg: Any) -> str:
    """A server message as sent (compact UTF-8 JSON, encoded by pydantic's Rust core)."""
    return to_json(msg).decode()


#: The shortest turn timer a room may have (0 is none): a shorter one would let idle
#: seats play faster than bots do, and such tables crowd out the others.
MIN_TURN_SECONDS = 3.0


@dataclass
class RoomSettings:
    """How a room plays: preset and overrides, timers and bot pace."""

    preset: str = "shuangsheng"
    overrides: dict[str, Any] = field(default_factory=dict)
    turn_seconds: float = 0.0  # 0 = no turn timer
    away_seconds: float = 30.0  # a disconnected seat is handed to a bot after this
    bot_delay: float = 0.6  # seconds between bot moves (0 in tests)
    default_bot: str = "heuristic"
    hints: bool = True  # seated players may ask the strongest bot for a hint
    #: The deal runs by itself (False only for rooms stored before it did: their deals
    #: ask the seat that draws, as their records were played).
    paced: bool = True
    deal_seconds: float = DEAL_SECONDS  # between two rounds of the deal
    #: A person's time to show in the round before the kitty or to counter after the
    #: burial (capped by ``turn_seconds`` when that is shorter); silence is not showing.
    declare_seconds: float = DECLARE_SECONDS
    #: A person may take back their own last show or play before anyone else acts.
    take_back: bool = False
    #: A person's only legal play (and the last trick's whole hand) is played for them.
    auto_play: bool = False

    def options(self) -> RuleOptions:
        """The rule options (validated)."""
        return load_preset(self.preset, self.overrides or None)

    @classmethod
    def stored(cls, data: dict[str, Any]) -> RoomSettings:
        """The settings as the store keeps them (a room stored before deals were paced
        has no ``paced``: its deals asked the seats, as its actions were played)."""
        known = set(cls.__dataclass_fields__)
        return cls(**{"paced": False, **{k: v for k, v in data.items() if k in known}})

    def check_timer(self) -> None:
        """Refuse (``TURN_TOO_SHORT``) a turn timer that is neither off nor at least
        :data:`MIN_TURN_SECONDS`."""
        if 0 < self.turn_seconds < MIN_TURN_SECONDS:
            raise RoomError(
                Code.TURN_TOO_SHORT,
                f"a turn timer is 0 (none) or at least {MIN_TURN_SECONDS:g} seconds",
                {"min": MIN_TURN_SECONDS, "got": self.turn_seconds},
            )

    def timer(self, seconds: float) -> float:
        """Seconds before the table decides for a person who takes ``seconds`` and more:
        never less than the floor (a room stored before it had one) nor than the bots'
        own delay, so that idle seats move no faster than bots."""
        return max(seconds, MIN_TURN_SECONDS, self.bot_delay)


@dataclass
class SeatInfo:
    """Who sits in a seat."""

    kind: str = "empty"  # empty | human | bot
    name: str = ""
    bot: str = "heuristic"
    token_hash: str | None = None
    ready: bool = False
    away: bool = False  # a person's seat played by a bot while they are disconnected


def bot_seat(bot: str) -> SeatInfo:
    """A seat taken by a bot."""
    return SeatInfo(kind="bot", name=f"{bot} bot", bot=bot, ready=True)


@dataclass
class Undo:
    """A person's last show or play, while it may still be taken back: the table as it
    was before it, where it sits in the record, and the table's own actions (a paced
    deal's rounds) applied after it."""

    seat: int
    seq: int
    action: Action
    before: GameState
    tail: list[Action] = field(default_factory=list)


#: What a room takes from a fresh copy when another process changed it.
_FOLLOWED = (
    "seats",
    "spectators",
    "host_hash",
    "host_key_hash",
    "public_listing",
    "chat",
    "rev",
    "version",
    "status",
    "state",
    "recorder",
)


class Room:
    """One table."""

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
        self.on_moved: Callable[[Room], None] | None = None
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

    @classmethod
    def load(cls, room_id: str, store: Store, limits: Limits | None = None) -> Room | None:
        """The room as stored, or None (blocking: run it off the event loop)."""
        row = store.load_room(room_id)
        return None if row is None else cls.restore(room_id, row, store, limits)

    @classmethod
    def restore(
        cls, room_id: str, row: RoomData, store: Store, limits: Limits | None = None
    ) -> Room:
        """Rebuild a room from its stored row, replaying its action log (a blocking read
        and CPU work: run it off the event loop)."""
        status, settings, lobby = row.status, row.settings, row.lobby
        room = cls(room_id, RoomSettings.stored(settings), store, limits)
        room.version = row.version
        room.seats = [SeatInfo(**s) for s in lobby["seats"]]
        room.spectators = dict(lobby.get("spectators", {}))
        room.host_hash = lobby.get("host_hash")
        room.host_key_hash = lobby.get("host_key_hash")
        room.public_listing = bool(lobby.get("public", False))
        room.seed = int(lobby["seed"])
        room.chat = list(lobby.get("chat", []))
        room.rev = int(lobby.get("rev", 0))
        room.status = status
        if status in ("playing", "finished"):
            st = new_match(room.options, room.seed, paced=room.settings.paced)
            rec = Recorder(room.options, room.seed)
            for seat, data in store.load_actions(room_id):
                action = action_from_json(data)
                st, _ = apply(st, seat, action)
                rec.add(seat, action)
            room.state, room.recorder = st, rec
            room.rev += len(rec.actions) - int(lobby.get("actions", 0)) + 1
            room.deal_rev = room.rev
            room.make_bots()
        return room

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

    # -- views -----------------------------------------------------------------------------
    def public(self, index: dict[str, int] | None = None) -> dict[str, Any]:
        """The lobby as everyone may see it (``index``: :meth:`_seat_index`, when made)."""
        return {**self._settings_part(), **self._live_part(index)}

    def _settings_part(self) -> dict[str, Any]:
        """The start of :meth:`public`: the settings (which never change) and the status."""
        return {
            "id": self.id,
            "status": self.status,
            "preset": self.settings.preset,
            "overrides": self.settings.overrides,
            "options": self._options_json,
            "turn_seconds": self.settings.turn_seconds,
            "hints": self.settings.hints,
            "paced": self.settings.paced,
            "deal_seconds": self.settings.deal_seconds,
            "declare_seconds": self.settings.declare_seconds,
            "take_back": self.settings.take_back,
            "auto_play": self.settings.auto_play,
        }

    def _live_part(self, index: dict[str, int] | None = None) -> dict[str, Any]:
        """The rest of :meth:`public`: seats, presence, clock and deadlines."""
        index = self._seat_index() if index is None else index
        host = None if self.host_hash is None else index.get(self.host_hash)
        connected = self._connected_seats(index)
        return {
            "seats": [
                {
                    "kind": s.kind,
                    "name": s.name,
                    "bot": s.bot if s.kind == "bot" or s.away else None,
                    "ready": s.ready,
                    "connected": i in connected or s.kind == "bot",
                    "away": s.away,
                }
                for i, s in enumerate(self.seats)
            ],
            "host_seat": host,
            "spectators": self.watching(),
            "public": self.public_listing,
            "now": time.time(),
            "deadlines": list(self.deadlines),
            "paused": self.paused,
            "waiting": self.waiting(connected),
            "reviewing": sorted(self.holds),
        }

    def _public_text(self, index: dict[str, int]) -> str:
        """:meth:`public` as JSON; its settings part, the longest, is encoded once per
        status."""
        kept = self._settings_text
        if kept is None or kept[0] != self.status:
            kept = self._settings_text = (self.status, dumps(self._settings_part())[:-1])
        return f"{kept[1]},{dumps(self._live_part(index))[1:]}"

    def state_for(self, conn: Connection, room: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message for one connection: its own view only (``room``: the
        lobby as :meth:`public` gives it, when already made)."""
        seat = self.seat_of(conn)
        you = {"seat": seat, "host": self._is_host(conn)}
        msg = message("state", rev=self.rev, room=room or self.public(), you=you)
        if self.state is not None:
            msg.update(seat_message(self.state, seat))
            if (callable_ := callable_text(self.state, seat)) is not None:
                msg["callable"] = callable_
            if self._may_take_back(seat):
                msg["take_back"] = True
        return msg

    def _may_take_back(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back its last show or play now."""
        return seat is not None and self.undo is not None and self.undo.seat == seat

    def broadcast(self) -> None:
        """Queue every connection its state. Each distinct message is built once, and
        what all of them share (the lobby, the table part of the views) is encoded once:
        the messages are spliced from encoded parts (the same JSON as :meth:`state_for`)."""
        index = self._seat_index()
        room = self._public_text(index)
        table = None if self.state is None else self._table_text(self.state)
        texts: dict[tuple[int | None, bool], str] = {}
        for conn in list(self.conns):
            h = conn.token_hash
            key = (index.get(h) if h else None, h is not None and h == self.host_hash)
            text = texts.get(key)
            if text is None:
                text = texts[key] = self._state_text(key[0], key[1], room, table)
            conn.push(text)
            if conn.dropped:
                self.conns.discard(conn)

    def _table_text(self, st: GameState) -> str:
        """:func:`~shengji.game.views.table_view` as JSON. The finished tricks and the score
        sheet, the longest part, change only when a trick or a hand ends: their text is
        kept while the state's tuples are the same objects."""
        table = table_view(st)
        kept = self._kept_text
        if kept is None or kept[0] is not st.tricks or kept[1] is not st.results:
            longest = {"tricks": table["tricks"], "score_sheet": table["score_sheet"]}
            kept = self._kept_text = (st.tricks, st.results, dumps(longest)[1:-1])
        del table["tricks"], table["score_sheet"]
        return f"{dumps(table)[:-1]},{kept[2]}}}"

    def _own_text(self, st: GameState, seat: int | None) -> str:
        """``{"seat": …, **own_view(st, seat)`` as JSON without its closing brace. A hand
        changes only when its seat plays or is dealt to: the text is kept per seat while
        its hand, the trump context and the kitty log are the same objects."""
        if seat is None:
            return '{"seat":null'
        kept = self._own_kept.get(seat)
        if (
            kept is None
            or kept[0] is not st.hands[seat]
            or kept[1] is not st.ctx
            or kept[2] is not st.kitty_log
        ):
            text = dumps({"seat": seat, **own_view(st, seat)})[:-1]
            kept = self._own_kept[seat] = (st.hands[seat], st.ctx, st.kitty_log, text)
        return kept[3]

    def _state_text(self, seat: int | None, host: bool, room: str, table: str | None) -> str:
        you = f'{{"seat":{"null" if seat is None else seat},"host":{"true" if host else "false"}}}'
        head = f'{{"v":{PROTOCOL_VERSION},"type":"state","rev":{self.rev},"you":{you}'
        parts = [head, ',"room":', room]
        st = self.state
        if st is not None and table is not None:
            parts += [',"view":', self._own_text(st, seat), ",", table[1:]]
            if (shows := legal_show_texts(st, seat)) is not None:
                parts += [',"shows":', dumps(shows)]
            if (callable_ := callable_text(st, seat)) is not None:
                parts += [',"callable":', dumps(callable_)]
            if self._may_take_back(seat):
                parts.append(',"take_back":true')
        parts.append("}")
        return "".join(parts)

    def send_chat(self, lines: list[dict[str, Any]], to: Connection | None = None) -> None:
        """Queue chat lines: to one connection, or to everyone."""
        text = dumps(message("chat", lines=lines))
        for conn in [to] if to else list(self.conns):
            conn.push(text)

    # -- commands --------------------------------------------------------------------------
    async def handle(self, conn: Connection, cmd: Any) -> dict[str, Any]:
        """Apply one command; returns the ``ack`` (raises RoomError to refuse). The
        messages for ``conn`` may be held (:meth:`Connection.hold`): the caller pushes
        the answer, then releases them."""
        self.last_active = time.monotonic()
        if not conn.commands.take():
            raise RoomError(Code.RATE_LIMITED, "too many commands: slow down")
        try:
            conn.spend_request_id(cmd.id)  # single-use, answered or refused
        except ShengjiError as e:
            raise RoomError(e.code, e.message) from None
        if isinstance(cmd, Ping):
            return message("ack", id=cmd.id, rev=self.rev)
        if not isinstance(cmd, Act | Check) and not conn.lobby.take():
            raise RoomError(Code.RATE_LIMITED, "too many lobby commands from your address: wait")
        async with self.lock:
            if self.stale:
                raise RoomError(Code.ROOM_MOVED, "the room was changed elsewhere: reconnecting")
            try:
                return await self._command(conn, cmd)
            except RoomError as e:
                # refused by this copy: if another process has written the room since (a
                # stale SQLite process has no bus to tell it), the copy is what is wrong
                if e.code in _NOT_THE_ROOMS or not await self._changed_elsewhere():
                    raise
                self.moved(f"a refused command ({e.code}) found a newer room in the store")
                raise RoomError(
                    Code.ROOM_MOVED, "the room was changed elsewhere: reconnecting"
                ) from e

    async def _command(self, conn: Connection, cmd: Any) -> dict[str, Any]:
        """:meth:`handle`'s work under the room's lock."""
        if isinstance(cmd, Join):
            reply = await self._join(conn, cmd)
        elif not conn.joined:
            raise RoomError(Code.NOT_JOINED, "send a join command first")
        elif isinstance(cmd, Chat):
            return await self._chat(conn, cmd)  # chat never resends the table
        elif isinstance(cmd, Check):
            return self._check(conn, cmd.action, cmd.id)
        elif isinstance(cmd, Act):
            reply = await self._act(conn, cmd)
        elif isinstance(cmd, Reviewing):
            reply = self._reviewing(conn, cmd)
        elif isinstance(cmd, TakeBack):
            reply = await self._take_back(conn, cmd)
        else:
            reply = await self._lobby(conn, cmd)
        if self.seat_of(conn) is not None:
            self.following = False  # a player is here: this process plays the room
        conn.hold()  # its table leaves with the answer, in one write (the caller's)
        self._plan()
        self.broadcast()
        if isinstance(cmd, Join):
            self.send_chat(self.chat[-CHAT_TAIL:], to=conn)
        return reply

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

    async def _join(self, conn: Connection, cmd: Join) -> dict[str, Any]:
        if conn.joined:
            raise RoomError(Code.ALREADY_JOINED, "this connection has already joined")
        if cmd.host_key is not None and (
            self.host_key_hash is None or token_hash(cmd.host_key) != self.host_key_hash
        ):
            raise RoomError(Code.BAD_HOST_KEY, "that host key does not belong to this room")
        token = None
        async with self.saving():
            if cmd.token:
                h = token_hash(cmd.token)
                seat = self.seat_of_hash(h)
                if seat is None and h not in self.spectators:
                    raise RoomError(
                        Code.BAD_TOKEN, "that resume token does not belong to this room"
                    )
                if seat is not None:
                    self.seats[seat].away = False
            else:
                token = secrets.token_hex(24)  # hex: never read as a command-line option
                h = token_hash(token)
                if cmd.spectate:
                    if self.watching() >= self.limits.spectators_per_room:
                        raise RoomError(
                            Code.TOO_MANY_SPECTATORS,
                            f"this room has its {self.limits.spectators_per_room} spectators",
                        )
                    self._add_spectator(h, cmd.name)
                else:
                    if self.status != "lobby":
                        raise RoomError(
                            Code.ROOM_STARTED, "the match has started: join as a spectator"
                        )
                    if cmd.seat is not None:
                        if self._seat_arg(cmd.seat).kind != "empty":
                            raise RoomError(Code.SEAT_TAKEN, f"seat {cmd.seat} is taken")
                        seat = cmd.seat
                    else:
                        seat = next(
                            (i for i, s in enumerate(self.seats) if s.kind == "empty"), None
                        )
                        if seat is None:
                            raise RoomError(
                                Code.ROOM_FULL, "every seat is taken: join as a spectator"
                            )
                    self.seats[seat] = SeatInfo(
                        kind="human", name=cmd.name, bot=self.settings.default_bot, token_hash=h
                    )
            if cmd.host_key is not None:
                self.host_hash = h
                self.host_key_hash = None  # one-time: the host is now this token
        if cmd.token and (seat := self.seat_of_hash(h)) is not None:
            task = self.away_tasks.pop(seat, None)
            if task:
                task.cancel()
            made = self.played_for.pop(seat, 0)
            if made:
                self.notice("PLAYED_FOR_YOU", {"seat": seat, "count": made}, to=conn)
        conn.token_hash = h
        conn.joined = True
        self.conns.add(conn)
        if self.state is not None and self.state.phase == "hand_over" and len(self.conns) == 1:
            self.timer_for = None  # back from a pause: the score sheet gets its full time
        return message(
            "ack",
            id=cmd.id,
            rev=self.rev,
            seat=self.seat_of(conn),
            token=token,
            host=self._is_host(conn),
        )

    def _need_host(self, conn: Connection) -> None:
        if not self._is_host(conn):
            raise RoomError(Code.NOT_HOST, "only the host can do that")

    def _seat_arg(self, seat: int) -> SeatInfo:
        """The seat a command names (``BAD_SEAT`` past this table's last seat)."""
        if not 0 <= seat < len(self.seats):
            raise RoomError(
                Code.BAD_SEAT,
                f"this table has seats 0 to {len(self.seats) - 1}, not {seat}",
                {"seat": seat, "seats": len(self.seats)},
            )
        return self.seats[seat]

    def _need_lobby(self) -> None:
        if self.status != "lobby":
            raise RoomError(Code.NOT_IN_LOBBY, "only before the match starts")

    async def _lobby(self, conn: Connection, cmd: Any) -> dict[str, Any]:
        seat = self.seat_of(conn)
        async with self.saving():
            if isinstance(cmd, Sit):
                self._need_lobby()
                if seat is None:
                    raise RoomError(Code.NOT_SEATED, "spectators cannot change seats; join a seat")
                if self._seat_arg(cmd.seat).kind != "empty":
                    raise RoomError(Code.SEAT_TAKEN, f"seat {cmd.seat} is taken")
                # the token moves with its seat: every connection of it follows
                self.seats[cmd.seat], self.seats[seat] = (
                    self.seats[seat],
                    SeatInfo(bot=self.settings.default_bot),
                )
            elif isinstance(cmd, Ready):
                self._need_lobby()
                if seat is None:
                    raise RoomError(Code.NOT_SEATED, "take a seat first")
                self.seats[seat].ready = cmd.ready
            elif isinstance(cmd, SetBot):
                self._need_host(conn)
                s = self._seat_arg(cmd.seat)
                if s.kind == "human" and s.token_hash == self.host_hash:
                    raise RoomError(Code.SEAT_TAKEN, "the host's own seat cannot be given to a bot")
                if self.status != "lobby" and cmd.bot is None:
                    raise RoomError(Code.NOT_IN_LOBBY, "a seat cannot be emptied during the match")
                self._evict(cmd.seat)
                self.seats[cmd.seat] = (
                    bot_seat(cmd.bot) if cmd.bot else SeatInfo(bot=self.settings.default_bot)
                )
            elif isinstance(cmd, Kick):
                self._need_host(conn)
                s = self._seat_arg(cmd.seat)
                if s.kind != "human" or s.token_hash == self.host_hash:
                    raise RoomError(Code.NOT_KICKABLE, "only another person can be kicked")
                self._evict(cmd.seat)
                if self.status == "lobby":
                    self.seats[cmd.seat] = SeatInfo(bot=self.settings.default_bot)
                else:
                    self.seats[cmd.seat] = bot_seat(self.settings.default_bot)
            elif isinstance(cmd, Randomize):
                self._need_host(conn)
                self._need_lobby()
                order = list(range(len(self.seats)))
                random.shuffle(order)
                old = list(self.seats)
                self.seats = [old[i] for i in order]
            elif isinstance(cmd, SetPublic):
                self._need_host(conn)
                self.public_listing = cmd.public
            elif isinstance(cmd, Start):
                self._need_host(conn)
                self._need_lobby()
                if any(s.kind == "empty" for s in self.seats):
                    raise RoomError(Code.SEATS_EMPTY, "fill every seat (a person or a bot) first")
                if any(s.kind == "human" and not s.ready for s in self.seats):
                    raise RoomError(Code.NOT_READY, "every person must be ready")
                self.status = "playing"
            else:  # pragma: no cover - the protocol has no other commands
                raise RoomError(Code.BAD_MESSAGE, "unknown command")
        if isinstance(cmd, Start):
            self.state = new_match(self.options, self.seed, paced=self.settings.paced)
            self.recorder = Recorder(self.options, self.seed)
            self.deal_rev = self.rev
        self.make_bots()
        return message("ack", id=cmd.id, rev=self.rev)

    def _evict(self, seat: int) -> None:
        """The person in ``seat`` (every connection of their token) becomes a spectator."""
        h = self.seats[seat].token_hash
        if h:
            self._add_spectator(h, self.seats[seat].name)

    def _add_spectator(self, h: str, name: str) -> None:
        """Keep a spectator's token, forgetting the oldest ones not connected now beyond
        ``spectator_tokens`` (a forgotten token joins again as a new spectator)."""
        self.spectators.pop(h, None)
        self.spectators[h] = name
        keep = max(self.limits.spectator_tokens, self.limits.spectators_per_room)
        if len(self.spectators) > keep:
            here = {c.token_hash for c in self.conns}
            for old in [x for x in self.spectators if x not in here and x != h]:
                if len(self.spectators) <= keep:
                    break
                del self.spectators[old]

    def watching(self) -> int:
        """Spectators connected now (each token once)."""
        return len({c.token_hash for c in self.conns if c.token_hash in self.spectators})

    async def _chat(self, conn: Connection, cmd: Chat) -> dict[str, Any]:
        if not conn.chats.take():
            raise RoomError(Code.RATE_LIMITED, "too many chat lines: slow down")
        seat = self.seat_of(conn)
        name = (
            self.seats[seat].name
            if seat is not None
            else self.spectators.get(conn.token_hash or "", "spectator")
        )
        entry = {"seat": seat, "name": name, "text": cmd.text, "time": time.time()}
        async with self.saving(bump=False):  # chat does not change the table: acts stay current
            self.chat = [*self.chat[-(CHAT_TAIL - 1) :], entry]
        self.send_chat([entry])
        return message("ack", id=cmd.id, rev=self.rev)

    def _parse_action(self, body: ActionBody) -> Action:
        try:
            return action_from_json(body.model_dump(exclude_none=True))
        except ShengjiError as e:
            raise RoomError(e.code, e.message, e.params) from None

    def _check(self, conn: Connection, body: ActionBody, rid: str) -> dict[str, Any]:
        if self.state is None:
            raise RoomError(Code.NOT_PLAYING, "no match to act in")
        seat = self.seat_of(conn)
        if seat is None:
            raise RoomError(Code.NOT_SEATED, "spectators cannot play")
        action = self._parse_action(body)
        try:
            apply(self.state, seat, action)
        except ShengjiError as e:
            raise RoomError(e.code, e.message, e.params) from None
        if isinstance(action, Play) and not self.state.trick and len(action.cards) > 1:
            ctx = seat_view(self.state, seat).ctx
            if len(classify_lead(ctx, action.cards).units) > 1:
                # a throw (甩牌): legal to try, but it stands only if nobody can beat a part
                return message("ack", id=rid, rev=self.rev, legal=True, throw=True)
        return message("ack", id=rid, rev=self.rev, legal=True)

    async def _act(self, conn: Connection, cmd: Act) -> dict[str, Any]:
        if self.state is None or self.status != "playing":
            raise RoomError(Code.NOT_PLAYING, "the match is not being played")
        seat = self.seat_of(conn)
        if seat is None:
            raise RoomError(Code.NOT_SEATED, "spectators cannot play")
        action = self._parse_action(cmd.action)
        if isinstance(action, Continue) and self.state.phase == "hand_over":
            # "next hand" waits for every connected person: each press is noted
            self.continued.add(seat)
            if self.waiting() or self.holds:
                self.rev += 1
                return message(
                    "ack",
                    id=cmd.id,
                    rev=self.rev,
                    waiting=self.waiting(),
                    reviewing=sorted(self.holds),
                )
        elif cmd.rev != self.rev and not (
            isinstance(action, Declare)
            and self.state.phase == "deal"
            and cmd.rev is not None
            and cmd.rev >= self.deal_rev
        ):  # a show during the deal is taken whenever it is legal: the cards keep coming
            raise RoomError(
                Code.STALE_REVISION,
                f"you acted on revision {cmd.rev}, the table is at {self.rev}: look again",
            )
        before, seq = self.state, len(self.recorder.actions) if self.recorder else 0
        await self._apply(seat, action)
        if (
            self.settings.take_back
            and isinstance(action, Declare | Play)
            and self.state.phase not in ("hand_over", "match_over")
        ):
            self.undo = Undo(seat, seq, action, before)
        return message("ack", id=cmd.id, rev=self.rev)

    async def _take_back(self, conn: Connection, cmd: TakeBack) -> dict[str, Any]:
        """Take back the person's own last show or play: the table goes back to before it
        (the table's own deal rounds since are dealt again) and the record and the store
        lose it, as if it had never been made; everyone is told."""
        if not self.settings.take_back:
            raise RoomError(Code.TAKE_BACK_OFF, "the host made this table one without take-backs")
        if self.state is None or self.status != "playing":
            raise RoomError(Code.NOT_PLAYING, "the match is not being played")
        seat = self.seat_of(conn)
        if seat is None:
            raise RoomError(Code.NOT_SEATED, "spectators cannot play")
        u = self.undo
        if u is None or u.seat != seat:
            raise RoomError(
                Code.TAKE_BACK_TOO_LATE,
                "only your own last show or play, before anyone else has acted since",
            )
        assert self.recorder is not None
        st = u.before
        try:
            for a in u.tail:
                st, _ = apply(st, None, a)
        except ShengjiError:
            raise RoomError(
                Code.TAKE_BACK_TOO_LATE, "the table has moved on: that can no longer be taken back"
            ) from None
        rewrites = [
            ActionWrite(self.id, u.seq + i, None, action_to_json(a)) for i, a in enumerate(u.tail)
        ]

        def job() -> None:
            self.store.take_back(self.id, u.seq, rewrites)

        try:
            if self.writer is not None:
                await self.writer.call(job)
            else:
                job()
        except StoreError as e:
            raise RoomError(e.code, "the server could not save that: try again") from e
        del self.recorder.actions[u.seq :]
        for a in u.tail:
            self.recorder.add(None, a)
        self.state = st
        self.undo = None
        self.rev += 1
        self.continued.clear()
        said = action_to_json(u.action)
        name = self.seats[seat].name or f"{seat + 1}"
        self.notice(
            "TOOK_BACK",
            {"seat": seat, "name": name, "action": said["type"], "cards": said["cards"]},
        )
        return message("ack", id=cmd.id, rev=self.rev)

    def _reviewing(self, conn: Connection, cmd: Reviewing) -> dict[str, Any]:
        """A seated person opened or closed a hand review after a hand: while it is open
        the next hand waits for them, at most ``review_hold_seconds`` in all this hand
        (the ack's ``hold``: the seconds of it left)."""
        seat = self.seat_of(conn)
        if seat is None:
            raise RoomError(Code.NOT_SEATED, "only a seated player's review holds the next hand")
        if self.state is None or self.status != "playing" or self.state.phase != "hand_over":
            raise RoomError(
                Code.NOT_HAND_OVER, "a review holds the next hand only while the score sheet waits"
            )
        now = time.time()
        self._prune_holds(now)
        cap = self.limits.review_hold_seconds
        if not cmd.open:
            self._end_hold(seat, now)
        elif seat not in self.holds and self.hold_used.get(seat, 0.0) < cap:
            self.holds[seat] = now
        self.rev += 1
        ends = self.hold_ends()
        left = ends[seat] - now if seat in ends else cap - self.hold_used.get(seat, 0.0)
        return message(
            "ack", id=cmd.id, rev=self.rev, reviewing=sorted(self.holds), hold=round(left, 1)
        )

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

    # -- bots, timers, disconnections -------------------------------------------------------
    def make_bots(self) -> None:
        """One bot per seat that a bot plays (or may play while its person is away)."""
        bot_seed = derived_seed(self.seed, "bots")
        for bot in self.bots.values():
            if isinstance(bot, ExternalBot):
                bot.close()  # its program is stopped
        self.bots = {}
        for i, s in enumerate(self.seats):
            if not s.bot:
                continue
            try:
                self.bots[i] = make_player(s.bot, i, bot_seed)
            except ShengjiError:  # an external bot the server no longer registers
                log.warning("room %s: no bot %r now; heuristic plays it", self.id[:8], s.bot)
                self.bots[i] = make_player("heuristic", i, bot_seed)

    def _bot_controls(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or (s.kind == "human" and s.away)

    def _bot_turn(self) -> int | None:
        """The seat a bot moves for now (hand over: the seat that continues), or None."""
        st = self.state
        if st is None or self.status != "playing" or self.following:
            return None
        if st.phase == "hand_over":
            if self.paused or self.waiting() or self.holds:
                return None
            return min(self.continued, default=0)
        if st.to_act is None:  # a paced deal: the dealer asks the bots
            return None
        if self._bot_controls(st.to_act) or self._auto_action(st) is not None:
            return st.to_act
        return None

    def _auto_action(self, st: GameState) -> Action | None:
        """With ``auto_play``: a person's play when there is nothing to choose (the only
        legal follow, or leading the last trick with a hand that is one unit); else None."""
        seat = st.to_act
        if not self.settings.auto_play or st.phase != "play" or seat is None:
            return None
        if self.seats[seat].kind != "human" or self.seats[seat].away:
            return None
        view = seat_view(st, seat)
        hand = view.hand
        if view.lead is not None:
            if count_legal_follows(view.ctx, view.lead, hand) == 1:
                return Play(next(iter(legal_follows(view.ctx, view.lead, hand))))
            return None
        last = all(n == len(hand) for n in view.hand_sizes)
        one_suit = len({view.ctx.suit_of[c.index] for c in hand}) == 1
        if hand and (len(hand) == 1 or (last and one_suit and len(decompose(view.ctx, hand)) == 1)):
            return Play(tuple(hand))
        return None

    def _plan(self) -> None:
        """After every change, before the broadcast: timers, deadlines, and the bots."""
        if self.stale:
            return
        if self.following:  # the process that plays the room keeps its timers
            self._cancel_timer()
            self.deadlines = [None] * len(self.seats)
            return
        st = self.state
        if st is None or self.status != "playing":
            self._cancel_timer()
            self.deadlines = [None] * len(self.seats)
            return
        if st.phase == "hand_over":
            self._plan_hand_over(st)
        elif st.to_act is None:  # a paced deal: nobody is waited on
            self._cancel_timer()
            self.deadlines = [None] * len(self.seats)
        else:
            seat = st.to_act
            seconds = self._time_to_decide(st)
            if self._bot_controls(seat) or seconds <= 0:
                self._cancel_timer()
                self.deadlines = [None] * len(self.seats)
            else:
                if self.timer_for is not st:
                    self._start_timer(st, self.settings.timer(seconds))
                self.deadlines = [
                    self.deadlines_at if i == seat else None for i in range(len(self.seats))
                ]
        self.kick_driver()
        self.kick_dealer()

    def _time_to_decide(self, st: GameState) -> float:
        """A person's time for the decision that waits (0: no limit): a show in the round
        before the kitty or after the burial has ``declare_seconds`` (or the turn timer,
        if shorter); burying, calling and playing have the turn timer."""
        turn = self.settings.turn_seconds
        if st.phase in DECLARING_PHASES:
            return (
                min(self.settings.declare_seconds, turn)
                if turn > 0
                else self.settings.declare_seconds
            )
        return turn

    def _plan_hand_over(self, st: GameState) -> None:
        """After a hand: the countdown for the people who have not pressed "next hand",
        paused while reviews hold the table (the timer then runs to the first hold's end;
        each held seat's deadline is its own hold's end)."""
        now = time.time()
        self._prune_holds(now)
        ends = self.hold_ends()
        waiting = self.waiting()
        if ends:
            if self.next_left is None:  # pause the countdown where it is
                self.next_left = self.limits.next_seconds
                if self.timer_for is st and not self.timer_hold and self.deadlines_at is not None:
                    self.next_left = max(0.0, self.deadlines_at - now)
            first = min(ends.values())
            if not (
                self.timer_hold
                and self.timer_for is st
                and self.timer is not None
                and self.deadlines_at == first
            ):
                self._start_timer(st, first - now, hold=True)
                self.deadlines_at = first
            self.deadlines = [ends.get(i) for i in range(len(self.seats))]
            return
        if waiting:
            if self.next_left is not None:  # the holds ended: the countdown goes on
                self._start_timer(st, self.next_left)
            elif self.timer_for is not st or self.timer_hold:
                self._start_timer(st, self.limits.next_seconds)
        else:
            self._cancel_timer()
        self.next_left = None
        deadline = self.deadlines_at if self.timer_for is st else None
        self.deadlines = [deadline if i in waiting else None for i in range(len(self.seats))]

    # -- the deal that runs by itself ------------------------------------------------------
    def _dealing(self) -> bool:
        """Whether this process deals the room's paced deal now."""
        return (
            self.status == "playing"
            and is_dealing(self.state)
            and not self.following
            and not self.stale
        )

    def kick_dealer(self) -> None:
        """Make sure a paced deal goes on (and its clock knows the deal)."""
        if not self._dealing():
            return
        assert self.state is not None
        self.clock.follow(self.state, time.monotonic())
        if self.dealer is None or self.dealer.done():
            self.dealer = asyncio.get_running_loop().create_task(self._deal_on())

    async def _deal_on(self) -> None:
        """Deal round by round at the room's pace; the bots' shows land on their time."""
        failures = 0
        while self._dealing():
            await asyncio.sleep(self.clock.wait(time.monotonic()))
            async with self.lock:
                if not self._dealing():
                    return
                try:
                    changed = await self._deal_step(time.monotonic())
                    failures = 0
                except Exception as e:  # the dealer survives: the store may come back
                    failures += 1
                    changed = False
                    log.warning("room %s: dealing failed (%s), retrying", self.id[:8], e)
                if changed:
                    self._plan()
                    self.broadcast()
            if failures:
                await asyncio.sleep(min(30.0, 0.5 * 2**failures))

    async def _deal_step(self, now: float) -> bool:
        """The bots' shows that are due, then the next round if it is due, then the bots
        a card reached are asked; True when the table changed."""
        changed = False
        for seat, show in self.clock.due_shows(self._st, now):
            with contextlib.suppress(RoomError):  # overtaken by a show meanwhile
                await self._apply(seat, show)
                self._note_played_for(seat, show)
                changed = True
        if is_dealing(self.state) and self.clock.due_round(now):
            # every round is stored: a restart, a replay and every view sent are exact
            await self._apply(None, self.clock.next_deal(self._st))
            self.clock.dealt(now)
            changed = True
        if is_dealing(self.state):
            self._ask_bots(self._st, now)
        return changed

    @property
    def _st(self) -> GameState:
        assert self.state is not None
        return self.state

    def _ask_bots(self, st: GameState, now: float) -> None:
        """Ask the bots a card reached whether they show (programs off the event loop)."""
        seats = [
            i for i in range(len(self.seats)) if self._bot_controls(i) and i not in self.asking
        ]
        for seat in self.clock.to_ask(st, seats):
            bot = self.bots.get(seat) or make_player(
                "heuristic", seat, derived_seed(self.seed, "bots")
            )
            view = seat_view(st, seat)
            if isinstance(bot, ExternalBot):
                task = asyncio.get_running_loop().create_task(self._ask_program(bot, seat, st))
                self.asking[seat] = task
                continue
            try:
                self.clock.decided(seat, bot.act(view), now)
            except Exception as e:  # a bot's failure is not the table's
                log.warning("room %s: bot %d failed during the deal (%s)", self.id[:8], seat, e)

    async def _ask_program(self, bot: ExternalBot, seat: int, st: GameState) -> None:
        try:
            action = await bot.act_in_room(seat_view(st, seat), lambda a: apply(st, seat, a))
            self.clock.decided(seat, action, time.monotonic())
        finally:
            self.asking.pop(seat, None)
            self.kick_dealer()

    def _note_played_for(self, seat: int, action: Action) -> None:
        s = self.seats[seat]
        if s.kind == "human" and s.away and not isinstance(action, Continue):
            self.played_for[seat] = self.played_for.get(seat, 0) + 1

    def kick_driver(self) -> None:
        """Make sure bots move when it is their turn."""
        if self._bot_turn() is None:
            return
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        failures = 0
        while True:
            st = self.state
            if self._bot_turn() is None:
                return
            await asyncio.sleep(self.settings.bot_delay)
            async with self.lock:
                seat = self._bot_turn()
                if self.state is not st or seat is None:
                    continue  # someone acted meanwhile
                try:
                    action = await self._bot_move(seat)
                    failures = 0
                    self._note_played_for(seat, action)
                except Exception as e:  # the driver survives: the store may come back
                    failures += 1
                    log.warning("room %s: bot move failed (%s), retrying", self.id[:8], e)
                self._plan()
                self.broadcast()
            if failures:
                await asyncio.sleep(min(30.0, 0.5 * 2**failures))

    async def _bot_move(self, seat: int) -> Action:
        """A bot's move for ``seat``, applied; returns it."""
        assert self.state is not None
        if self.state.phase == "hand_over":
            await self._apply(seat, Continue())
            return Continue()
        st = self.state
        auto = None if self._bot_controls(seat) else self._auto_action(st)
        if auto is not None:  # auto_play: nothing to choose for the person
            await self._apply(seat, auto)
            return auto
        bot = self.bots.get(seat) or make_player("heuristic", seat, derived_seed(self.seed, "bots"))
        if isinstance(bot, ExternalBot):  # a program: asked off the event loop, checked
            action = await bot.act_in_room(seat_view(st, seat), lambda a: apply(st, seat, a))
        else:
            action = bot.act(seat_view(st, seat))
            effort = getattr(bot, "effort", None)
            if effort is not None:
                self.searched.append((int(effort[0]), int(effort[1]), bool(effort[2])))
        await self._apply(seat, action)
        return action

    def search_figures(self) -> dict[str, Any] | None:
        """What the room's searching bots' decisions got lately (None: no searched
        decision since the room was loaded): :func:`~shengji.bots.search.effort_figures`
        over the last :data:`SEARCH_KEPT`."""
        if not self.searched:
            return None
        from ..bots.search import effort_figures

        return effort_figures(list(self.searched))

    def notice(self, code: str, params: dict[str, Any], to: Connection | None = None) -> None:
        """Tell everyone (or one connection) what the table did by itself: a ``notice``
        message with its ``code``, ``params`` and the words in both languages (addressed
        to "you" on the connections of the seat it is about)."""
        now = time.time()
        said = notice_texts(code, params)
        if to is None:  # told to the table: kept in the chat log, in its place in time
            entry = {"seat": None, "name": "", "text": said["en"], "time": now, "notice": said}
            self.chat = [*self.chat[-(CHAT_TAIL - 1) :], entry]
        text = dumps(message("notice", code=code, params=params, text=said, time=now))
        yours = dumps(
            message(
                "notice", code=code, params=params, text=notice_texts(code, params, True), time=now
            )
        )
        about = params.get("seat")
        for conn in [to] if to else list(self.conns):
            conn.push(yours if about is not None and self.seat_of(conn) == about else text)

    def _timed_out(self, seat: int, action: Action) -> None:
        """The turn timer ran out: a declaring prompt was passed, or a bot moved for
        ``seat``; say so (a burial's cards stay hidden: only their number is told)."""
        a = action_to_json(action)
        cards = a.get("cards", "")
        params = {
            "seat": seat,
            "name": self.seats[seat].name or f"{seat + 1}",
            "action": a["type"],
            "cards": "" if a["type"] == "bury" else cards,
            "count": len(cards.split()),
        }
        if a["type"] == "call":  # 找朋友: the calls are public
            params["calls"] = a.get("calls", "")
        self.notice("TIME_RAN_OUT", params)

    def _start_timer(self, st: GameState, seconds: float, hold: bool = False) -> None:
        self._cancel_timer()
        self.timer_for = st
        self.timer_hold = hold
        self.deadlines_at = time.time() + seconds
        self.timer = asyncio.get_running_loop().create_task(self._expire(st, seconds))

    def _cancel_timer(self) -> None:
        if self.timer and not self.timer.done() and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None
        self.timer_for = None
        self.timer_hold = False
        self.deadlines_at = None

    async def _expire(self, st: GameState, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            if self.state is not st or self.timer is not asyncio.current_task():
                return
            self.timer = None
            try:
                if st.phase == "hand_over":
                    if self.paused:
                        return
                    if not self.timer_hold:  # (else a review's hold ran out: plan again)
                        await self._apply(min(self.continued, default=0), Continue())
                elif st.to_act is not None and st.phase in DECLARING_PHASES:
                    await self._apply(st.to_act, Pass())  # silence is not showing
                    self._timed_out(st.to_act, Pass())
                elif st.to_act is not None:
                    action = await self._bot_move(st.to_act)
                    self._timed_out(st.to_act, action)
            except RoomError as e:
                log.warning("room %s: timer move failed (%s)", self.id[:8], e.message)
                self.timer_for = None  # try again with a fresh timer
            self._plan()
            self.broadcast()

    def disconnected(self, conn: Connection) -> None:
        """A connection closed: hand its seat to a bot after ``away_seconds``."""
        self.conns.discard(conn)
        if self.stale:
            return
        self.last_active = time.monotonic()
        seat = self.seat_of(conn)
        if (
            seat is not None
            and self.seats[seat].kind == "human"
            and seat not in self._connected_seats()
            and self.status == "playing"
        ):
            self.start_away_timer(seat)
        if self.conns:
            self._plan()
            self.broadcast()

    def start_away_timer(self, seat: int) -> None:
        """Hand ``seat`` to a bot unless its person reconnects within ``away_seconds``."""
        if seat not in self.away_tasks and not self.stale:
            loop = asyncio.get_running_loop()
            self.away_tasks[seat] = loop.create_task(self.hand_to_bot_later(seat))

    async def hand_to_bot_later(self, seat: int) -> None:
        """After ``away_seconds`` without a connection, a bot plays ``seat``."""
        await asyncio.sleep(self.settings.away_seconds)
        async with self.lock:
            self.away_tasks.pop(seat, None)
            if seat in self._connected_seats() or self.seats[seat].kind != "human":
                return
            try:
                async with self.saving():
                    self.seats[seat].away = True
            except RoomError:
                return  # the store is down: the seat stays the person's
            self._plan()
            self.broadcast()

    async def follow(self) -> None:
        """Another process changed this room: read it again from the store and send the
        people here the new table (and any new chat lines). Only a process that sees
        another one *play* the room (new actions) stops moving its bots: a lobby change
        elsewhere (a spectator's chat) never halts the process that plays the room."""
        async with self.lock:
            if self.stale:
                return
            try:
                fresh = await asyncio.to_thread(Room.load, self.id, self.store, self.limits)
                if fresh is None:
                    return
            except Exception as e:
                log.warning("room %s: cannot follow another process (%s)", self.id[:8], e)
                self.moved(f"it cannot be read again ({e})")
                return
            seen = self.chat[-1]["time"] if self.chat else 0.0
            new_lines = [line for line in fresh.chat if line["time"] > seen]
            ours = len(self.recorder.actions) if self.recorder else 0
            played_elsewhere = (len(fresh.recorder.actions) if fresh.recorder else 0) > ours
            for name in _FOLLOWED:
                setattr(self, name, getattr(fresh, name))
            if played_elsewhere:
                self.following = True
            self.undo = None
            self.make_bots()
            self._plan()
            self.broadcast()
            if new_lines:
                self.send_chat(new_lines)

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
