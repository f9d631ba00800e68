"""What a room sends: the lobby and each connection's own view, spliced from parts
encoded once per broadcast, chat lines and notices."""

from __future__ import annotations

import time
from typing import Any

from pydantic_core import to_json

from ..game.state import GameState
from ..game.views import legal_show_texts, own_view, seat_message, table_view
from ..rules.friends import callable_cards
from ..words.i18n import notice_texts
from .connection import Connection
from .protocol import (
    PROTOCOL_VERSION,
    message,
)
from .room_core import CHAT_TAIL, RoomCore


def dumps(msg: Any) -> str:
    """A server message as sent (compact UTF-8 JSON, encoded by pydantic's Rust core)."""
    return to_json(msg).decode()


def callable_text(st: GameState, seat: int | None) -> str | None:
    """找朋友: the cards the banker may call (one of each, notation), sent to the banker
    while it is their turn to call (else None)."""
    if seat is None or st.phase != "call" or st.to_act != seat:
        return None
    return " ".join(c.text for c in callable_cards(st.ctx))


class Broadcasting(RoomCore):
    """A room that tells its connections what they may see."""

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
        kept = self._kept_text
        if kept is None or kept[0] is not st.tricks or kept[1] is not st.results:
            table = table_view(st)
            longest = {"tricks": table.pop("tricks"), "score_sheet": table.pop("score_sheet")}
            kept = self._kept_text = (st.tricks, st.results, dumps(longest)[1:-1])
        else:
            table = table_view(st, finished=False)
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

    def watching(self) -> int:
        """Spectators connected now (each token once)."""
        return len({c.token_hash for c in self.conns if c.token_hash in self.spectators})
