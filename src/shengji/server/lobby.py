"""A room's lobby commands: joining (as a seat or a spectator), the host's seats, bots
and settings, starting the match, and chat."""

from __future__ import annotations

import random
import secrets
import time
from typing import Any

from ..errors import Code
from ..game.flow import new_match
from ..game.record import Recorder
from .connection import Connection
from .driver import Driving
from .protocol import (
    Chat,
    Join,
    Kick,
    Randomize,
    Ready,
    SetBot,
    SetPublic,
    Sit,
    Start,
    message,
)
from .room_core import CHAT_TAIL
from .room_settings import RoomError, SeatInfo, bot_seat, token_hash


class Lobby(Driving):
    """A room that people join and set up."""

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
