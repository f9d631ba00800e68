"""A scripted WebSocket client for server tests: it plays from its own view with the rules
library (first legal choice), and keeps every message it received."""

from __future__ import annotations

import itertools
import json
from typing import Any

from shengji.autoplay import choose_action

_ids = itertools.count()


class Client:
    """One player's socket (a Starlette TestClient WebSocket session)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.chat: list[dict[str, Any]] = []

    def send(self, cmd: dict[str, Any], rev: int | None = None) -> str:
        rid = f"q{next(_ids)}"
        body = {
            "v": 1,
            "id": rid,
            "rev": self.state["rev"] if rev is None and self.state else rev or 0,
        }
        self.ws.send_text(json.dumps({**body, **cmd}))
        return rid

    def recv(self) -> dict[str, Any]:
        msg = json.loads(self.ws.receive_text())
        self.received.append(msg)
        if msg["type"] == "state":
            self.state = msg
            self.seat = msg["you"]["seat"]
        if msg["type"] == "chat":
            self.chat.extend(msg["lines"])
        if msg["type"] == "ack" and msg.get("token"):
            self.token = msg["token"]
        return msg

    def request(self, cmd: dict[str, Any], rev: int | None = None) -> dict[str, Any]:
        """Send a command and read until its ack or error (states are kept)."""
        rid = self.send(cmd, rev)
        while True:
            msg = self.recv()
            if msg["type"] in ("ack", "error") and msg.get("id") == rid:
                return msg

    def drain_until(self, pred: Any, limit: int = 10_000) -> dict[str, Any]:
        for _ in range(limit):
            msg = self.recv()
            if pred(msg):
                return msg
        raise AssertionError("condition never met")

    def choose(self) -> dict[str, Any]:
        """The first legal action from this client's own state."""
        assert self.state is not None
        return choose_action(self.state)


def sync(c: Client) -> None:
    """Bring a client's state up to the room's current revision (ping, then read)."""
    rid = c.send({"type": "ping"})
    rev = None
    while True:
        msg = c.recv()
        if msg["type"] == "ack" and msg.get("id") == rid:
            rev = msg["rev"]
            break
    while c.state is None or c.state["rev"] < rev:
        c.recv()


def play_to_end(clients: list[Client], until: str = "match_over", max_actions: int = 20_000) -> int:
    """Let the seated clients play (bots move by themselves) until the view reaches
    ``until``; returns the number of actions the clients took."""
    import time

    seated = {c.seat: c for c in clients if c.seat is not None}
    taken = 0
    while taken < max_actions:
        for c in clients:
            sync(c)
        view = next(iter(seated.values())).state["view"]
        if view["phase"] == until or view["phase"] == "match_over":
            return taken
        if view["phase"] == "hand_over":  # every person presses "next hand"
            waiting = next(iter(seated.values())).state["room"]["waiting"]
            actor = next((seated[s] for s in waiting if s in seated), None)
        else:
            actor = seated.get(view["to_act"])
        if actor is None:
            time.sleep(0.005)  # a bot is to move
            continue
        reply = actor.request({"type": "act", "action": actor.choose()})
        if reply["type"] == "error":
            assert reply["code"] == "STALE_REVISION", reply
            continue
        taken += 1
    raise AssertionError("the match did not end")
