"""A scripted WebSocket client for server tests: it plays from its own view with the rules
library (first legal choice), and keeps every message it received."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from shengji.bots.autoplay import choose_action
from shengji.server.hub import Hub

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

    @property
    def latest(self) -> dict[str, Any]:
        """The last state message received (the test fails if none has arrived)."""
        assert self.state is not None, "no state message received yet"
        return self.state

    @property
    def view(self) -> dict[str, Any]:
        """The game view in the last state message."""
        view: dict[str, Any] = self.latest["view"]
        return view

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
        msg: dict[str, Any] = json.loads(self.ws.receive_text())
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

    def drain_until(
        self, pred: Callable[[dict[str, Any]], object], limit: int = 10_000
    ) -> dict[str, Any]:
        """Read messages until one satisfies ``pred``, and return that one."""
        for _ in range(limit):
            msg = self.recv()
            if pred(msg):
                return msg
        raise AssertionError("condition never met")

    def choose(self) -> dict[str, Any]:
        """The first legal action from this client's own state."""
        return choose_action(self.latest)


def hub_of(http: TestClient) -> Hub:
    """The room hub of the app behind a test client (``TestClient.app`` is typed as any
    ASGI app)."""
    app = http.app
    assert isinstance(app, FastAPI)
    hub: Hub = app.state.hub
    return hub


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


def wait_view(c: Client, pred: Callable[[dict[str, Any]], object], within: float = 60.0) -> None:
    """Read ``c``'s states until its view satisfies ``pred`` (the table moves by itself:
    the deal, the bots)."""
    import time

    deadline = time.monotonic() + within
    while True:
        sync(c)
        if c.state is not None and "view" in c.state and pred(c.view):
            return
        assert time.monotonic() < deadline, "the table never got there"
        time.sleep(0.005)


def play_to_end(clients: list[Client], until: str = "match_over", max_actions: int = 20_000) -> int:
    """Let the seated clients play (bots move by themselves) until the view reaches
    ``until``; returns the number of actions the clients took."""
    import time

    seated = {c.seat: c for c in clients if c.seat is not None}
    taken = 0
    while taken < max_actions:
        for c in clients:
            sync(c)
        view = next(iter(seated.values())).view
        if view["phase"] == until or view["phase"] == "match_over":
            return taken
        if view["phase"] == "hand_over":  # every person presses "next hand"
            waiting = next(iter(seated.values())).latest["room"]["waiting"]
            actor = next((seated[s] for s in waiting if s in seated), None)
        else:
            actor = seated.get(view["to_act"])
        if actor is None:
            time.sleep(0.005)  # a bot is to move
            continue
        if (actor.state or {}).get("rev") != (next(iter(seated.values())).state or {}).get("rev"):
            continue  # a change came between the clients' reads (a bot, or a forced play)
        reply = actor.request({"type": "act", "action": actor.choose()})
        if reply["type"] == "error":
            assert reply["code"] == "STALE_REVISION", reply
            continue
        taken += 1
    raise AssertionError("the match did not end")
