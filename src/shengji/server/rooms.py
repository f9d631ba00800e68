"""Rooms: seats, identity, the lobby, the match, bots, timers and persistence.

A :class:`Hub` owns every room. Each room handles one command at a time (an asyncio
lock); an applied action is committed to the store before it is broadcast, and bots (and
seats handed to a bot) are driven by one task per room.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..actions import Action, action_from_json, action_to_json
from ..bots.heuristic import HeuristicBot
from ..bots.random_bot import RandomBot
from ..errors import ShengjiError
from ..game import GameState, apply, new_match
from ..options import RuleOptions
from ..players import Player
from ..presets import load_preset
from ..record import Recorder
from ..shuffle import derived_seed, secret_seed
from ..views import seat_message, seat_view
from .protocol import (
    Act,
    ActionBody,
    Chat,
    Check,
    Join,
    Kick,
    Ping,
    Randomize,
    Ready,
    SetBot,
    Sit,
    Start,
    message,
)
from .store import SNAPSHOT_EVERY, Store

BOTS: dict[str, Callable[[int, int], Player]] = {"random": RandomBot, "heuristic": HeuristicBot}
CHAT_TAIL = 50


class RoomError(Exception):
    """A command the room refuses; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def token_hash(token: str) -> str:
    """What the server stores of a resume token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class RoomSettings:
    """How a room plays: preset and overrides, timers and bot pace."""

    preset: str = "shuangsheng"
    overrides: dict[str, Any] = field(default_factory=dict)
    turn_seconds: float = 0.0  # 0 = no turn timer
    away_seconds: float = 30.0  # a disconnected seat is handed to a bot after this
    bot_delay: float = 0.6  # seconds between bot moves (0 in tests)
    default_bot: str = "heuristic"

    def options(self) -> RuleOptions:
        """The rule options (validated)."""
        return load_preset(self.preset, self.overrides or None)


@dataclass
class SeatInfo:
    """Who sits in a seat."""

    kind: str = "empty"  # empty | human | bot
    name: str = ""
    bot: str = "heuristic"
    token_hash: str | None = None
    ready: bool = False
    away: bool = False  # a person's seat played by a bot while they are disconnected


class Connection:
    """One WebSocket client: the hash of its token and its recent request ids.

    A connection holds no seat: the room looks the seat up from the token on every
    command and every message it sends (:meth:`Room.seat_of`), so every connection of a
    token follows that token's seat, and no connection keeps a seat it has left.
    """

    def __init__(self, send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        self.send = send
        self.token_hash: str | None = None
        self.joined = False
        self.recent: deque[str] = deque(maxlen=256)


class Room:
    """One table."""

    def __init__(self, room_id: str, settings: RoomSettings, store: Store) -> None:
        self.id = room_id
        self.settings = settings
        self.options = settings.options()
        self.store = store
        self.seats = [SeatInfo(bot=settings.default_bot) for _ in range(4)]
        self.spectators: dict[str, str] = {}
        self.host_hash: str | None = None
        self.status = "lobby"
        self.seed = secret_seed()  # server-side only: it determines every deal
        self.state: GameState | None = None
        self.recorder: Recorder | None = None
        self.rev = 0
        self.chat: list[dict[str, Any]] = []
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.bots: dict[int, Player] = {}
        self.driver: asyncio.Task[None] | None = None
        self.timer: asyncio.Task[None] | None = None
        self.timer_deadline: float | None = None
        self.away_tasks: dict[int, asyncio.Task[None]] = {}

    # -- persistence -----------------------------------------------------------------------
    def lobby_data(self) -> dict[str, Any]:
        """What the store keeps of the lobby."""
        return {
            "seats": [asdict(s) for s in self.seats],
            "spectators": self.spectators,
            "host_hash": self.host_hash,
            "seed": self.seed,
            "chat": self.chat[-CHAT_TAIL:],
            "rev": self.rev,
        }

    def settings_data(self) -> dict[str, Any]:
        """What the store keeps of the settings."""
        return asdict(self.settings)

    def save(self) -> None:
        """Persist settings and lobby."""
        self.store.save_room(self.id, self.status, self.settings_data(), self.lobby_data())

    @classmethod
    def restore(
        cls,
        room_id: str,
        status: str,
        settings: dict[str, Any],
        lobby: dict[str, Any],
        store: Store,
    ) -> Room:
        """Rebuild a room from the store, replaying its action log."""
        room = cls(room_id, RoomSettings(**settings), store)
        room.seats = [SeatInfo(**s) for s in lobby["seats"]]
        room.spectators = dict(lobby.get("spectators", {}))
        room.host_hash = lobby.get("host_hash")
        room.seed = int(lobby["seed"])
        room.chat = list(lobby.get("chat", []))
        room.rev = int(lobby.get("rev", 0))
        room.status = status
        if status in ("playing", "finished"):
            st = new_match(room.options, room.seed)
            rec = Recorder(room.options, room.seed)
            for seat, data in store.load_actions(room_id):
                action = action_from_json(data)
                st, _ = apply(st, seat, action)
                rec.add(seat, action)
            room.state, room.recorder = st, rec
            room.rev = max(room.rev, len(rec.actions) + 1)
            room.make_bots()
        return room

    # -- views -----------------------------------------------------------------------------
    def public(self) -> dict[str, Any]:
        """The lobby as everyone may see it."""
        host = next(
            (
                i
                for i, s in enumerate(self.seats)
                if s.token_hash and s.token_hash == self.host_hash
            ),
            None,
        )
        connected = {self.seat_of(c) for c in self.conns}
        return {
            "id": self.id,
            "status": self.status,
            "preset": self.settings.preset,
            "overrides": self.settings.overrides,
            "options": self.options.to_dict(),
            "turn_seconds": self.settings.turn_seconds,
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
            "spectators": len(self.spectators),
            "deadline": self.timer_deadline,
        }

    def state_for(self, conn: Connection) -> dict[str, Any]:
        """The ``state`` message for one connection: its own view only."""
        seat = self.seat_of(conn)
        msg = message(
            "state",
            rev=self.rev,
            room=self.public(),
            you={
                "seat": seat,
                "host": conn.token_hash is not None and conn.token_hash == self.host_hash,
            },
            chat=self.chat[-CHAT_TAIL:],
        )
        if self.state is not None:
            msg.update(seat_message(self.state, seat))
        return msg

    async def broadcast(self) -> None:
        """Send every connection its state."""
        for conn in list(self.conns):
            try:
                await conn.send(self.state_for(conn))
            except Exception:  # a dead socket is dropped by its own handler
                self.conns.discard(conn)

    async def send_all(self, msg: dict[str, Any]) -> None:
        """Send one message to every connection."""
        for conn in list(self.conns):
            with contextlib.suppress(Exception):
                await conn.send(msg)

    def seat_of(self, conn: Connection) -> int | None:
        """The seat of ``conn``'s token now (None: a spectator or not joined)."""
        h = conn.token_hash
        if h is None:
            return None
        for i, s in enumerate(self.seats):
            if s.token_hash == h:
                return i
        return None

    # -- commands --------------------------------------------------------------------------
    async def handle(self, conn: Connection, cmd: Any) -> dict[str, Any]:
        """Apply one command; returns the ``ack`` (raises RoomError to refuse)."""
        if isinstance(cmd, Ping):
            return message("ack", id=cmd.id, rev=self.rev)
        if cmd.id in conn.recent:
            raise RoomError("DUPLICATE_REQUEST", f"request {cmd.id!r} was already handled")
        conn.recent.append(cmd.id)  # request ids are single-use, answered or refused
        async with self.lock:
            if isinstance(cmd, Join):
                reply = self._join(conn, cmd)
            elif not conn.joined:
                raise RoomError("NOT_JOINED", "send a join command first")
            elif isinstance(cmd, Act):
                reply = self._act(conn, cmd)
            elif isinstance(cmd, Check):
                reply = self._check(conn, cmd.action, cmd.id)
            elif isinstance(cmd, Chat):
                reply = self._chat(conn, cmd)
            else:
                reply = self._lobby(conn, cmd)
        await self.broadcast()
        self.kick_driver()
        return reply

    def _bump(self) -> None:
        self.rev += 1

    def _join(self, conn: Connection, cmd: Join) -> dict[str, Any]:
        if conn.joined:
            raise RoomError("ALREADY_JOINED", "this connection has already joined")
        token = None
        if cmd.token:
            h = token_hash(cmd.token)
            seat = next((i for i, s in enumerate(self.seats) if s.token_hash == h), None)
            if seat is None and h not in self.spectators:
                raise RoomError("BAD_TOKEN", "that resume token does not belong to this room")
            conn.token_hash = h
            if seat is not None:
                s = self.seats[seat]
                s.away = False
                task = self.away_tasks.pop(seat, None)
                if task:
                    task.cancel()
        else:
            token = secrets.token_urlsafe(24)
            h = token_hash(token)
            if cmd.spectate:
                self.spectators[h] = cmd.name
            else:
                if self.status != "lobby":
                    raise RoomError("ROOM_STARTED", "the match has started: join as a spectator")
                if cmd.seat is not None:
                    if self.seats[cmd.seat].kind != "empty":
                        raise RoomError("SEAT_TAKEN", f"seat {cmd.seat} is taken")
                    seat = cmd.seat
                else:
                    seat = next((i for i, s in enumerate(self.seats) if s.kind == "empty"), None)
                    if seat is None:
                        raise RoomError("ROOM_FULL", "every seat is taken: join as a spectator")
                self.seats[seat] = SeatInfo(
                    kind="human", name=cmd.name, bot=self.settings.default_bot, token_hash=h
                )
                if self.host_hash is None:
                    self.host_hash = h
            conn.token_hash = h
        conn.joined = True
        self.conns.add(conn)
        self._bump()
        self.save()
        return message(
            "ack",
            id=cmd.id,
            rev=self.rev,
            seat=self.seat_of(conn),
            token=token,
            host=conn.token_hash == self.host_hash,
        )

    def _need_host(self, conn: Connection) -> None:
        if conn.token_hash is None or conn.token_hash != self.host_hash:
            raise RoomError("NOT_HOST", "only the host can do that")

    def _need_lobby(self) -> None:
        if self.status != "lobby":
            raise RoomError("NOT_IN_LOBBY", "only before the match starts")

    def _lobby(self, conn: Connection, cmd: Any) -> dict[str, Any]:
        seat = self.seat_of(conn)
        if isinstance(cmd, Sit):
            self._need_lobby()
            if seat is None:
                raise RoomError("NOT_SEATED", "spectators cannot change seats; join a seat")
            if self.seats[cmd.seat].kind != "empty":
                raise RoomError("SEAT_TAKEN", f"seat {cmd.seat} is taken")
            # the token moves with its seat: every connection of it follows
            self.seats[cmd.seat], self.seats[seat] = (
                self.seats[seat],
                SeatInfo(bot=self.settings.default_bot),
            )
        elif isinstance(cmd, Ready):
            self._need_lobby()
            if seat is None:
                raise RoomError("NOT_SEATED", "take a seat first")
            self.seats[seat].ready = cmd.ready
        elif isinstance(cmd, SetBot):
            self._need_host(conn)
            s = self.seats[cmd.seat]
            if s.kind == "human" and s.token_hash == self.host_hash:
                raise RoomError("SEAT_TAKEN", "the host's own seat cannot be given to a bot")
            if self.status != "lobby" and cmd.bot is None:
                raise RoomError("NOT_IN_LOBBY", "a seat cannot be emptied during the match")
            self._evict(cmd.seat)
            self.seats[cmd.seat] = (
                SeatInfo(kind="bot", name=f"{cmd.bot} bot", bot=cmd.bot, ready=True)
                if cmd.bot
                else SeatInfo(bot=self.settings.default_bot)
            )
            self.make_bots()
        elif isinstance(cmd, Kick):
            self._need_host(conn)
            s = self.seats[cmd.seat]
            if s.kind != "human" or s.token_hash == self.host_hash:
                raise RoomError("NOT_KICKABLE", "only another person can be kicked")
            self._evict(cmd.seat)
            if self.status == "lobby":
                self.seats[cmd.seat] = SeatInfo(bot=self.settings.default_bot)
            else:
                bot = self.settings.default_bot
                self.seats[cmd.seat] = SeatInfo(kind="bot", name=f"{bot} bot", bot=bot, ready=True)
                self.make_bots()
        elif isinstance(cmd, Randomize):
            self._need_host(conn)
            self._need_lobby()
            order = list(range(4))
            random.shuffle(order)
            old = list(self.seats)
            self.seats = [old[i] for i in order]
        elif isinstance(cmd, Start):
            self._need_host(conn)
            self._need_lobby()
            if any(s.kind == "empty" for s in self.seats):
                raise RoomError("SEATS_EMPTY", "fill every seat (a person or a bot) first")
            if any(s.kind == "human" and not s.ready for s in self.seats):
                raise RoomError("NOT_READY", "every person must be ready")
            self.state = new_match(self.options, self.seed)
            self.recorder = Recorder(self.options, self.seed)
            self.status = "playing"
            self.make_bots()
        else:  # pragma: no cover - the protocol has no other commands
            raise RoomError("BAD_MESSAGE", "unknown command")
        self._bump()
        self.save()
        return message("ack", id=cmd.id, rev=self.rev)

    def _evict(self, seat: int) -> None:
        """The person in ``seat`` (every connection of their token) becomes a spectator."""
        h = self.seats[seat].token_hash
        if h:
            self.spectators[h] = self.seats[seat].name

    def _chat(self, conn: Connection, cmd: Chat) -> dict[str, Any]:
        seat = self.seat_of(conn)
        name = (
            self.seats[seat].name
            if seat is not None
            else self.spectators.get(conn.token_hash or "", "spectator")
        )
        entry = {"seat": seat, "name": name, "text": cmd.text, "time": time.time()}
        self.chat = [*self.chat[-(CHAT_TAIL - 1) :], entry]
        self._bump()
        self.save()
        return message("ack", id=cmd.id, rev=self.rev)

    def _parse_action(self, body: ActionBody) -> Action:
        try:
            return action_from_json(body.model_dump(exclude_none=True))
        except ShengjiError as e:
            raise RoomError(e.code, e.message) from None

    def _check(self, conn: Connection, body: ActionBody, rid: str) -> dict[str, Any]:
        seat = self.seat_of(conn)
        if self.state is None or seat is None:
            raise RoomError("NOT_PLAYING", "no match to act in")
        action = self._parse_action(body)
        try:
            apply(self.state, seat, action)
        except ShengjiError as e:
            raise RoomError(e.code, e.message) from None
        return message("ack", id=rid, rev=self.rev, legal=True)

    def _act(self, conn: Connection, cmd: Act) -> dict[str, Any]:
        if self.state is None or self.status != "playing":
            raise RoomError("NOT_PLAYING", "the match is not being played")
        seat = self.seat_of(conn)
        if seat is None:
            raise RoomError("NOT_SEATED", "spectators cannot play")
        if cmd.rev != self.rev:
            raise RoomError(
                "STALE_REVISION",
                f"you acted on revision {cmd.rev}, the table is at {self.rev}: look again",
            )
        action = self._parse_action(cmd.action)
        self._apply(seat, action)
        return message("ack", id=cmd.id, rev=self.rev)

    def _apply(self, seat: int, action: Action) -> None:
        """Apply, persist, then update (the caller broadcasts)."""
        assert self.state is not None and self.recorder is not None
        try:
            st, _ = apply(self.state, seat, action)
        except ShengjiError as e:
            raise RoomError(e.code, e.message) from None
        seq = len(self.recorder.actions)
        self.recorder.add(seat, action)
        finished = st.phase == "match_over"
        snapshot = self.recorder.record(st) if (seq + 1) % SNAPSHOT_EVERY == 0 else None
        try:
            self.rev += 1
            self.store.append_action(
                self.id,
                seq,
                seat,
                action_to_json(action),
                snapshot=snapshot,
                lobby=self.lobby_data(),
                status="finished" if finished else None,
            )
        except Exception:
            self.recorder.actions.pop()
            self.rev -= 1
            raise
        self.state = st
        if finished:
            self.status = "finished"
            self.store.save_record(self.id, self.recorder.record(st))
        self._cancel_timer()

    # -- bots, timers, disconnections -------------------------------------------------------
    def make_bots(self) -> None:
        """One bot per seat that a bot plays (or may play while its person is away)."""
        bot_seed = derived_seed(self.seed, "bots")
        self.bots = {i: BOTS[s.bot](i, bot_seed) for i, s in enumerate(self.seats) if s.bot in BOTS}

    def _bot_controls(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or (s.kind == "human" and s.away)

    def kick_driver(self) -> None:
        """Make sure bots (and timers) move when it is their turn."""
        if self.state is None or self.status != "playing":
            return
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        while True:
            st = self.state
            if st is None or self.status != "playing":
                return
            if st.phase == "hand_over":
                if any(s.kind == "human" and not s.away for s in self.seats):
                    return  # people press "next hand"
                seat: int = 0
            else:
                seat = st.to_act if st.to_act is not None else 0
                if not self._bot_controls(seat):
                    self._start_timer(seat)
                    return
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            async with self.lock:
                if self.state is not st:
                    continue  # someone acted meanwhile
                self._bot_move(seat)
            await self.broadcast()

    def _bot_move(self, seat: int) -> None:
        assert self.state is not None
        bot = self.bots.get(seat) or HeuristicBot(seat, derived_seed(self.seed, "bots"))
        action = bot.act(seat_view(self.state, seat))
        self._apply(seat, action)

    def _start_timer(self, seat: int) -> None:
        if self.settings.turn_seconds <= 0 or (self.timer and not self.timer.done()):
            return
        self.timer_deadline = time.time() + self.settings.turn_seconds
        self.timer = asyncio.get_running_loop().create_task(self._expire(seat, self.state))

    def _cancel_timer(self) -> None:
        if self.timer and not self.timer.done() and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None
        self.timer_deadline = None

    async def _expire(self, seat: int, st: GameState | None) -> None:
        await asyncio.sleep(self.settings.turn_seconds)
        async with self.lock:
            if self.state is not st or self.state is None:
                return
            self.timer = None
            self._bot_move(seat)
        await self.broadcast()
        self.kick_driver()

    def disconnected(self, conn: Connection) -> None:
        """A connection closed: hand its seat to a bot after ``away_seconds``."""
        self.conns.discard(conn)
        seat = self.seat_of(conn)
        if seat is None or self.seats[seat].kind != "human":
            return
        if any(self.seat_of(c) == seat for c in self.conns):
            return
        if self.status == "playing" and seat not in self.away_tasks:
            self.away_tasks[seat] = asyncio.get_running_loop().create_task(
                self.hand_to_bot_later(seat)
            )

    def start_away_timer(self, seat: int) -> None:
        """Hand ``seat`` to a bot unless its person reconnects within ``away_seconds``."""
        loop = asyncio.get_running_loop()
        self.away_tasks[seat] = loop.create_task(self.hand_to_bot_later(seat))

    async def hand_to_bot_later(self, seat: int) -> None:
        """After ``away_seconds`` without a connection, a bot plays ``seat``."""
        await asyncio.sleep(self.settings.away_seconds)
        async with self.lock:
            self.away_tasks.pop(seat, None)
            if any(self.seat_of(c) == seat for c in self.conns):
                return
            self.seats[seat].away = True
            self._bump()
            self.save()
        await self.broadcast()
        self.kick_driver()


class Hub:
    """Every room of the server, restored from the store at start."""

    def __init__(self, store: Store, bot_delay: float | None = None) -> None:
        self.store = store
        self.rooms: dict[str, Room] = {}
        self.bot_delay = bot_delay
        for room_id, status, settings, lobby in store.load_rooms():
            if bot_delay is not None:
                settings = {**settings, "bot_delay": bot_delay}
            self.rooms[room_id] = Room.restore(room_id, status, settings, lobby, store)

    def create(self, settings: RoomSettings) -> Room:
        """A new room (validates the options)."""
        if self.bot_delay is not None:
            settings.bot_delay = self.bot_delay
        room_id = secrets.token_hex(16)  # 128 bits: not guessable, not enumerable
        room = Room(room_id, settings, self.store)
        self.rooms[room_id] = room
        room.save()
        return room

    def resume_all(self) -> None:
        """After a restart: drive bots and start away timers for every playing room."""
        for room in self.rooms.values():
            if room.status == "playing":
                for i, s in enumerate(room.seats):
                    if s.kind == "human" and not s.away:
                        room.away_tasks[i] = asyncio.get_running_loop().create_task(
                            room.hand_to_bot_later(i)
                        )
                room.kick_driver()
