"""Where the terminal client's table lives: in-process against bots, or on a server.

Both give the same ``state`` dictionary the browser receives (``view`` is the seat's
``observe`` view, ``shows`` its declarations when it must declare) and take actions in
the protocol's JSON form, so the app and the plain mode render one thing.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Callable
from typing import Any, Protocol

from ..actions import action_from_json
from ..bots.heuristic import HeuristicBot
from ..bots.random_bot import RandomBot
from ..errors import ShengjiError
from ..game import GameState, apply, new_match
from ..options import RuleOptions
from ..players import Player
from ..views import seat_message, seat_view

BOTS: dict[str, Callable[[int, int], Player]] = {"heuristic": HeuristicBot, "random": RandomBot}


class Session(Protocol):
    """A seat at a table."""

    state: dict[str, Any]

    def act(self, action: dict[str, Any]) -> str | None:
        """Take an action; the rule error (``CODE: message``) when refused."""
        ...

    def check(self, action: dict[str, Any]) -> str | None:
        """Whether an action would be accepted now (nothing is applied)."""
        ...

    def hint(self, lang: str) -> tuple[dict[str, Any], str] | None:
        """What the heuristic bot would do in this seat, and why."""
        ...

    def poll(self) -> bool:
        """Let the table move on (bots, other players); True when the state changed."""
        ...


class LocalSession:
    """A match in this process: one person's seat, bots in the others."""

    def __init__(
        self, options: RuleOptions, seed: int, seat: int = 0, bots: str = "heuristic"
    ) -> None:
        if bots not in BOTS:
            raise ShengjiError(f"unknown bot {bots!r}; bots: heuristic, random", code="UNKNOWN_BOT")
        self.options = options
        self.seat = seat
        self.st: GameState = new_match(options, seed)
        self.players: dict[int, Player] = {s: BOTS[bots](s, seed) for s in range(4) if s != seat}
        self.adviser = HeuristicBot(seat, seed)
        self.rev = 0
        self.bots = bots
        self.state: dict[str, Any] = {}
        self._refresh()
        self.poll()

    def _refresh(self) -> None:
        seats = [
            {
                "kind": "human" if s == self.seat else "bot",
                "name": "you"
                if s == self.seat
                else f"{type(self.players[s]).__name__.replace('Bot', '').lower()} bot",
            }
            for s in range(4)
        ]
        self.state = {
            "rev": self.rev,
            "room": {
                "preset": self.options.name,
                "overrides": {},
                "options": self.options.to_dict(),
                "seats": seats,
                "status": "finished" if self.st.phase == "match_over" else "playing",
            },
            "you": {"seat": self.seat, "host": True},
            **seat_message(self.st, self.seat),
        }

    def _apply(self, seat: int, action: Any) -> None:
        self.st, _ = apply(self.st, seat, action)
        self.rev += 1

    def act(self, action: dict[str, Any]) -> str | None:
        try:
            self._apply(self.seat, action_from_json(action))
        except ShengjiError as e:
            return f"{e.code}: {e.message}"
        self.poll()
        return None

    def check(self, action: dict[str, Any]) -> str | None:
        try:
            apply(self.st, self.seat, action_from_json(action))
        except ShengjiError as e:
            return f"{e.code}: {e.message}"
        return None

    def hint(self, lang: str) -> tuple[dict[str, Any], str] | None:
        if self.st.to_act != self.seat and self.st.phase != "hand_over":
            return None
        from ..actions import action_to_json

        action = self.adviser.act(seat_view(self.st, self.seat))
        return action_to_json(action), self.adviser.reason[1 if lang == "zh" else 0]

    def poll(self) -> bool:
        changed = False
        while self.st.phase not in ("hand_over", "match_over") and self.st.to_act != self.seat:
            seat = self.st.to_act
            assert seat is not None
            self._apply(seat, self.players[seat].act(seat_view(self.st, seat)))
            changed = True
        self._refresh()
        return changed


def ws_url(url: str) -> tuple[str, str]:
    """(WebSocket URL, room id) from an invite link ``http://host:port/room/ID``."""
    parts = urllib.parse.urlsplit(url)
    path = parts.path.rstrip("/").split("/")
    if len(path) < 3 or path[-2] not in ("room", "ws"):
        raise ShengjiError(f"{url!r} is not a room link (http://host:port/room/ID)", code="BAD_URL")
    scheme = "wss" if parts.scheme in ("https", "wss") else "ws"
    return f"{scheme}://{parts.netloc}/ws/{path[-1]}", path[-1]


class RemoteSession:
    """A seat in a room of a shengji server, over the WebSocket protocol."""

    def __init__(self, url: str, name: str = "terminal", token: str | None = None) -> None:
        from websockets.sync.client import connect

        self.url, self.room = ws_url(url)
        self.ws = connect(self.url, max_size=2**22)
        self.n = 0
        self.state: dict[str, Any] = {}
        self.token = token
        join: dict[str, Any] = (
            {"type": "join", "token": token} if token else {"type": "join", "name": name}
        )
        reply = self._request(join)
        if reply["type"] == "error":
            raise ShengjiError(reply["message"], code=reply["code"])
        self.token = reply.get("token") or token

    def _send(self, cmd: dict[str, Any]) -> str:
        self.n += 1
        rid = f"t{self.n}"
        self.ws.send(json.dumps({"v": 1, "id": rid, "rev": self.state.get("rev", 0), **cmd}))
        return rid

    def _read(self, timeout: float | None) -> dict[str, Any] | None:
        try:
            raw = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        msg: dict[str, Any] = json.loads(raw)
        if msg["type"] == "state":
            self.state = msg
        return msg

    def _request(self, cmd: dict[str, Any]) -> dict[str, Any]:
        rid = self._send(cmd)
        while True:
            msg = self._read(30)
            if msg is None:
                raise ShengjiError("the server did not answer", code="TIMEOUT")
            if msg["type"] in ("ack", "error") and msg.get("id") == rid:
                return msg

    def act(self, action: dict[str, Any]) -> str | None:
        reply = self._request({"type": "act", "action": action})
        return f"{reply['code']}: {reply['message']}" if reply["type"] == "error" else None

    def check(self, action: dict[str, Any]) -> str | None:
        reply = self._request({"type": "check", "action": action})
        return f"{reply['code']}: {reply['message']}" if reply["type"] == "error" else None

    def hint(self, lang: str) -> tuple[dict[str, Any], str] | None:
        return None  # the server does not lend its bots as advisers

    def poll(self) -> bool:
        changed = False
        while (msg := self._read(0.05)) is not None:
            changed = changed or msg["type"] == "state"
        return changed
