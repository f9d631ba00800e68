"""Rooms: one table each, in layers of one idea each, bottom to top: its state and
store (:mod:`.room_core`, over the plain data of :mod:`.room_settings`), what it sends
(:mod:`.broadcast`), what moves it by itself (:mod:`.driver`: the deal, bots, timers),
the lobby's commands (:mod:`.lobby`) and here the players' commands, loading a room
and following another process that plays it.

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
import time
from typing import Any

from ..errors import Code, ShengjiError
from ..game.actions import Action, Continue, Declare, Play, action_from_json, action_to_json
from ..game.flow import apply, new_match
from ..game.record import Recorder
from ..game.views import seat_view
from ..rules.units import classify_lead
from .connection import Connection
from .limits import Limits
from .lobby import Lobby
from .protocol import (
    Act,
    ActionBody,
    Chat,
    Check,
    Join,
    Ping,
    Reviewing,
    TakeBack,
    message,
)
from .room_core import CHAT_TAIL, log
from .room_settings import RoomError, RoomSettings, SeatInfo, Undo
from .store import ActionWrite, RoomData, Store, StoreError

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


class Room(Lobby):
    """One table: the players' commands, handled one at a time, over the layers of
    :mod:`.lobby`, :mod:`.driver`, :mod:`.broadcast` and :mod:`.room_core`."""

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

    # -- loading, and following another process -------------------------------------------
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
