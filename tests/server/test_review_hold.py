"""A hand review holds the next hand (``reviewing``): while a seated person reads one after
a hand, the next hand waits for them and the table says so; the score sheet's countdown
is paused meanwhile and goes on with what was left; each person's hold is capped
(``review_hold_seconds`` a hand) and ends when their connection does; hostile or
misplaced ``reviewing`` commands get coded errors."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shengji.server.app import create_app

from .client import Client, hub_of, play_to_end, sync
from .conftest import FAST_CLIENTS

TWO_PEOPLE = [None, "heuristic", None, "heuristic"]


def _app(db_url: str, **limits: Any) -> TestClient:
    return TestClient(
        create_app(
            db_url, bot_delay=0, deal_seconds=0, limits=dataclasses.replace(FAST_CLIENTS, **limits)
        )
    )


@pytest.fixture
def quick(db_url: str) -> Iterator[TestClient]:
    """Holds of 0.4 s and a score sheet that waits 1.5 s."""
    with _app(db_url, review_hold_seconds=0.4, next_seconds=1.5) as http:
        yield http


def _room(http: TestClient, bots: list[str | None]) -> tuple[str, str]:
    r = http.post("/api/rooms", json={"preset": "classic-1deck", "bots": bots})
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["host_key"]


def _seated(http: TestClient, rid: str, key: str, ws: list[Any]) -> list[Client]:
    """People in seats 0 and 2 (seat 0 hosts), ready, the match started."""
    clients = [Client(w) for w in ws]
    for i, c in enumerate(clients):
        body = {"type": "join", "name": f"p{i}", "seat": 2 * i}
        if i == 0:
            body["host_key"] = key
        c.request(body)
    for c in clients:
        c.request({"type": "ready"})
    clients[0].request({"type": "start"})
    return clients


def _reviewing(c: Client, open_: bool) -> dict[str, Any]:
    return c.request({"type": "reviewing", "open": open_})


def _wait_for(c: Client, pred: Any, seconds: float = 5.0) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        sync(c)
        if pred(c.latest):
            return
        time.sleep(0.02)
    raise AssertionError(f"never: {c.latest['room']}")


def test_an_open_review_holds_the_next_hand_until_it_is_closed(http: TestClient) -> None:
    rid, key = _room(http, TWO_PEOPLE)
    with http.websocket_connect(f"/ws/{rid}") as w0, http.websocket_connect(f"/ws/{rid}") as w2:
        a, b = _seated(http, rid, key, [w0, w2])
        play_to_end([a, b], until="hand_over")
        sync(a)
        ack = _reviewing(a, True)
        assert ack["type"] == "ack" and ack["reviewing"] == [0] and 119 < ack["hold"] <= 120
        sync(b)
        room = b.latest["room"]
        assert room["reviewing"] == [0] and room["waiting"] == [0, 2]
        # the reviewing seat's clock is its hold; the others' countdown is paused
        assert 119 < room["deadlines"][0] - room["now"] <= 120
        assert room["deadlines"][1:] == [None, None, None]
        # both press "next hand": the table still waits for the one reading
        assert a.request({"type": "act", "action": {"type": "continue"}})["reviewing"] == [0]
        reply = b.request({"type": "act", "action": {"type": "continue"}})
        assert reply["waiting"] == [] and reply["reviewing"] == [0]
        time.sleep(0.2)  # bots would continue at once
        sync(b)
        assert b.view["phase"] == "hand_over" and b.latest["room"]["reviewing"] == [0]
        closed = _reviewing(a, False)
        assert closed["reviewing"] == [] and 119 < closed["hold"] < 120
        _wait_for(b, lambda st: st["view"]["hand_number"] == 1)
        assert b.latest["room"]["reviewing"] == []


def test_a_hold_is_capped_and_spent(quick: TestClient) -> None:
    rid, key = _room(quick, TWO_PEOPLE)
    with quick.websocket_connect(f"/ws/{rid}") as w0, quick.websocket_connect(f"/ws/{rid}") as w2:
        a, b = _seated(quick, rid, key, [w0, w2])
        play_to_end([a, b], until="hand_over")
        assert _reviewing(a, True)["reviewing"] == [0]
        for c in (a, b):
            c.request({"type": "act", "action": {"type": "continue"}})
        # never closed: the next hand starts once the 0.4 s hold has run out
        began = time.time()
        _wait_for(b, lambda st: st["view"]["hand_number"] == 1)
        assert time.time() - began < 2.0
        play_to_end([a, b], until="hand_over")
        # a fresh hand, a fresh hold; once it is spent, opening again holds nothing
        assert _reviewing(a, True)["reviewing"] == [0]
        time.sleep(0.5)
        _wait_for(a, lambda st: st["room"]["reviewing"] == [])
        again = _reviewing(a, True)
        assert again["type"] == "ack" and again["reviewing"] == [] and again["hold"] == 0


def test_the_countdown_pauses_while_a_review_holds_it(db_url: str) -> None:
    # a countdown of 3 s: a busy machine reads it before it runs out
    with _app(db_url, next_seconds=3, review_hold_seconds=60) as http:
        rid, key = _room(http, TWO_PEOPLE)
        with http.websocket_connect(f"/ws/{rid}") as w0, http.websocket_connect(f"/ws/{rid}") as w2:
            a, b = _seated(http, rid, key, [w0, w2])
            play_to_end([a, b], until="hand_over")
            sync(b)
            countdown = b.latest["room"]["deadlines"][2]
            assert countdown is not None
            _reviewing(a, True)
            time.sleep(3.5)  # longer than the countdown: it is paused
            sync(b)
            assert b.view["phase"] == "hand_over"
            assert b.latest["room"]["deadlines"][2] is None
            _reviewing(a, False)
            sync(b)
            # the countdown goes on with what was left of it (nobody pressed next hand)
            left = b.latest["room"]["deadlines"][2] - b.latest["room"]["now"]
            assert 0 < left <= 3
            assert b.latest["room"]["deadlines"][0] == b.latest["room"]["deadlines"][2]
            _wait_for(b, lambda st: st["view"]["hand_number"] == 1, seconds=6)


def test_a_hold_ends_with_its_connection(http: TestClient) -> None:
    rid, key = _room(http, TWO_PEOPLE)
    with http.websocket_connect(f"/ws/{rid}") as w2:
        with http.websocket_connect(f"/ws/{rid}") as w0:
            a, b = _seated(http, rid, key, [w0, w2])
            play_to_end([a, b], until="hand_over")
            _reviewing(a, True)
            a.request({"type": "act", "action": {"type": "continue"}})
            b.request({"type": "act", "action": {"type": "continue"}})
            sync(b)
            assert b.latest["room"]["reviewing"] == [0]
        # seat 0's person left with the review open: the table does not wait for them
        _wait_for(b, lambda st: st["view"]["hand_number"] == 1)


def test_reviewing_is_refused_where_it_holds_nothing(http: TestClient) -> None:
    rid, key = _room(http, TWO_PEOPLE)
    with (
        http.websocket_connect(f"/ws/{rid}") as w0,
        http.websocket_connect(f"/ws/{rid}") as w2,
        http.websocket_connect(f"/ws/{rid}") as ws,
    ):
        spec = Client(ws)
        assert _reviewing(spec, True)["code"] == "NOT_JOINED"
        a = Client(w0)
        a.request({"type": "join", "name": "p0", "seat": 0, "host_key": key})
        lobby = _reviewing(a, True)
        assert lobby["type"] == "error" and lobby["code"] == "NOT_HAND_OVER"
        assert lobby["text"]["zh"] and lobby["text"]["en"]
        b = Client(w2)
        b.request({"type": "join", "name": "p2", "seat": 2})
        for c in (a, b):
            c.request({"type": "ready"})
        a.request({"type": "start"})
        sync(a)
        assert _reviewing(a, True)["code"] == "NOT_HAND_OVER"  # the hand is on
        spec.request({"type": "join", "name": "watcher", "spectate": True})
        play_to_end([a, b], until="hand_over")
        assert _reviewing(spec, True)["code"] == "NOT_SEATED"
        for bad in (
            {"type": "reviewing"},
            {"type": "reviewing", "open": "yes"},
            {"type": "reviewing", "open": 1},
            {"type": "reviewing", "open": True, "seat": 2},
            {"type": "reviewing", "open": None},
        ):
            reply = a.request(bad)
            assert reply["type"] == "error" and reply["code"] == "BAD_MESSAGE", (bad, reply)
        a.ws.send_text(json.dumps({"v": 1, "id": "x" * 65, "type": "reviewing", "open": True}))
        assert a.drain_until(lambda m: m["type"] == "error")["code"] == "BAD_MESSAGE"
        sync(a)
        assert a.latest["room"]["reviewing"] == []
        room = hub_of(http).rooms[rid]
        assert room.holds == {} and room.hold_used == {}
