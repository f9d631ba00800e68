"""``POST /api/rooms/{id}/hint``: the strongest bot's action for the caller's own seat on
its turn (the token names the seat), with its reason in both languages, and refusals that
say what is wrong."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shengji.server.app import create_app

from .client import Client, hub_of, sync
from .conftest import FAST_CLIENTS

LIMITS = FAST_CLIENTS.with_overrides(["hint_ms=60"])


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("hint") / "test.db"
    with TestClient(
        create_app(f"sqlite:///{db}", bot_delay=0, deal_seconds=0, limits=LIMITS)
    ) as client:
        yield client


def _hint(http: TestClient, rid: str, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return http.post(f"/api/rooms/{rid}/hint", headers=headers)


def _error(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["detail"]["code"]


def test_hints_on_my_turn_are_legal_and_explained(http: TestClient) -> None:
    made = http.post(
        "/api/rooms",
        json={"preset": "classic-1deck", "bots": [None, None, "heuristic", "heuristic"]},
    ).json()
    rid = made["id"]
    with http.websocket_connect(f"/ws/{rid}") as w, http.websocket_connect(f"/ws/{rid}") as w1:
        c, bob = Client(w), Client(w1)
        token = c.request({"type": "join", "name": "ann", "host_key": made["host_key"]})["token"]
        assert bob.request({"type": "join", "name": "bob"})["seat"] == 1
        assert _error(_hint(http, rid, token)) == (409, "NOT_PLAYING")
        bob.request({"type": "ready"})
        c.request({"type": "ready"})
        c.request({"type": "start"})
        assert _error(_hint(http, rid, None)) == (403, "BAD_TOKEN")
        assert _error(_hint(http, rid, "x" * 43)) == (403, "BAD_TOKEN")
        assert _error(
            http.post("/api/rooms/nosuchroom/hint", headers={"Authorization": "Bearer t"})
        ) == (
            404,
            "NO_ROOM",
        )
        kinds: list[str] = []
        texts: list[str] = []
        refused_off_turn = False
        deadline = time.time() + 120
        while kinds.count("play") < 6 and time.time() < deadline:
            sync(c)
            view = c.view
            if view["phase"] in ("hand_over", "match_over"):
                break
            if view["to_act"] == 1:  # bob's turn, not ann's
                assert _error(_hint(http, rid, token)) == (409, "NOT_YOUR_TURN")
                refused_off_turn = True
                sync(bob)
                assert bob.request({"type": "act", "action": bob.choose()})["type"] == "ack"
                continue
            if view["to_act"] != 0:
                time.sleep(0.01)  # a bot is to move
                continue
            r = _hint(http, rid, token)
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["seat"] == 0 and set(body["text"]) == {"en", "zh"}
            assert body["text"]["en"].startswith("hint: ") and " · " in body["text"]["en"]
            assert body["text"]["zh"].startswith("提示: ")
            action = body["action"]
            kinds.append(action["type"] if action["type"] != "pass" else "declare")
            texts.append(body["text"]["en"] + body["text"]["zh"])
            reply = c.request({"type": "act", "action": action})
            assert reply["type"] == "ack", (action, reply)  # the hint is a legal action
        assert kinds.count("play") == 6  # declaring and burying: when seat 0 has the choice
        # a searched decision says what the search found, in both languages
        assert any("search" in x and "搜索" in x for x in texts), texts
        # a room this process does not hold (another process plays it): read from the store
        hub = hub_of(http)
        while True:
            sync(c)
            if c.view["phase"] == "play" and c.view["to_act"] == 0:
                break
            if c.view["to_act"] == 1:
                sync(bob)
                bob.request({"type": "act", "action": bob.choose()})
            time.sleep(0.01)
        room = hub.rooms.pop(rid)
        try:
            r = _hint(http, rid, token)
            assert rid not in hub.rooms  # read, not loaded
        finally:
            hub.rooms[rid] = room
        assert r.status_code == 200, r.text
        assert c.request({"type": "act", "action": r.json()["action"]})["type"] == "ack"
        assert refused_off_turn


def test_a_table_without_hints_refuses_them(http: TestClient) -> None:
    made = http.post(
        "/api/rooms",
        json={
            "preset": "classic-1deck",
            "bots": [None, "heuristic", "heuristic", "heuristic"],
            "hints": False,
        },
    ).json()
    rid = made["id"]
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        token = c.request({"type": "join", "name": "ann", "host_key": made["host_key"]})["token"]
        c.request({"type": "ready"})
        c.request({"type": "start"})
        sync(c)
        assert c.latest["room"]["hints"] is False
        r = _hint(http, rid, token)
        assert _error(r) == (403, "HINTS_OFF")
        assert "提示" in r.json()["detail"]["text"]["zh"]
        hub = hub_of(http)
        room = hub.rooms.pop(rid)  # the store's copy says the same
        try:
            assert _error(_hint(http, rid, token)) == (403, "HINTS_OFF")
        finally:
            hub.rooms[rid] = room
