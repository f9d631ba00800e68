"""Whole matches through WebSocket clients; reconnects; no card leaks to any client."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from shengji.game.record import replay, verify
from shengji.game.views import observe

from .client import Client, play_to_end, sync

TWO_HANDS = {"match_hands": 2}


def _room(
    http: TestClient, preset: str = "classic-1deck", bots: list[str | None] | None = None
) -> tuple[str, str]:
    r = http.post("/api/rooms", json={"preset": preset, "overrides": TWO_HANDS, "bots": bots or []})
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["host_key"]


def _expected_views(record: dict[str, Any]) -> dict[int | None, set[str]]:
    """Every view each seat (and a spectator) could legitimately be sent in this match."""
    states = [replay({**record, "actions": []})]
    replay(record, lambda st, *_: states.append(st))
    return {
        seat: {json.dumps(observe(st, seat), sort_keys=True) for st in states}
        for seat in (0, 1, 2, 3, None)
    }


def _assert_no_leaks(clients: list[Client], record: dict[str, Any]) -> None:
    expected = _expected_views(record)
    for c in clients:
        for msg in c.received:
            text = json.dumps(msg)
            assert '"hands"' not in text and '"deck_order"' not in text
            if msg["type"] == "state" and "view" in msg:
                seat = msg["you"]["seat"]
                assert json.dumps(msg["view"], sort_keys=True) in expected[seat]


def test_four_people_play_a_whole_match_with_a_spectator(http: TestClient) -> None:
    rid, key = _room(http)
    with ExitStack() as stack:
        clients = [
            Client(stack.enter_context(http.websocket_connect(f"/ws/{rid}"))) for _ in range(5)
        ]
        for i, c in enumerate(clients[:4]):
            join = {"type": "join", "name": f"p{i}", "host_key": key if i == 0 else None}
            assert c.request(join)["type"] == "ack"
        assert (
            clients[4].request({"type": "join", "name": "watcher", "spectate": True})["seat"]
            is None
        )
        for c in clients[:4]:
            assert c.request({"type": "ready"})["type"] == "ack"
        host = clients[0]
        assert clients[1].request({"type": "start"})["code"] == "NOT_HOST"
        assert host.request({"type": "start"})["type"] == "ack"
        # a spectator is told the same thing whether it checks or makes an action
        watcher = clients[4]
        for kind in ("check", "act"):
            reply = watcher.request({"type": kind, "action": {"type": "pass"}})
            assert reply["code"] == "NOT_SEATED"
        play_to_end(clients)
        sync(clients[4])
        assert clients[4].view["phase"] == "match_over"
        assert "hand" not in clients[4].view
        record = http.get(f"/api/rooms/{rid}/record").json()
        final = verify(record)
        assert len(final.results) == 2
        _assert_no_leaks(clients, record)
        lines = http.get(f"/api/rooms/{rid}/replay?lang=en").json()["lines"]
        views = http.get(f"/api/rooms/{rid}/replay/views?seat=2").json()
        assert len(views["views"]) == len(record["actions"]) + 1
        assert views["views"][-1]["phase"] == "match_over" and views["views"][0]["seat"] == 2
        assert any(line.startswith("Hand 2") for line in lines)


def test_people_with_bots_and_a_reconnect(http: TestClient) -> None:
    rid, key = _room(http, "shuangkou", bots=[None, "heuristic", None, "random"])
    with http.websocket_connect(f"/ws/{rid}") as w0:
        a = Client(w0)
        a.request({"type": "join", "name": "alice", "host_key": key})
        with http.websocket_connect(f"/ws/{rid}") as w2:
            b = Client(w2)
            assert b.request({"type": "join", "name": "bob"})["seat"] == 2
            token = b.token
            for c in (a, b):
                c.request({"type": "ready"})
            assert a.request({"type": "start"})["type"] == "ack"
            play_to_end([a, b], until="play")
        # bob's connection closed mid-hand; he comes back with his resume token
        with http.websocket_connect(f"/ws/{rid}") as w2b:
            b2 = Client(w2b)
            reply = b2.request({"type": "join", "token": token})
            assert reply["type"] == "ack" and reply["seat"] == 2 and reply["token"] is None
            # a second join on a joined connection is refused, whatever the token
            again = b2.request({"type": "join", "token": "forged"})
            assert again["code"] == "ALREADY_JOINED"
            with http.websocket_connect(f"/ws/{rid}") as w3:
                assert Client(w3).request({"type": "join", "token": "forged"})["code"] == (
                    "BAD_TOKEN"
                )
            play_to_end([a, b2])
            record = http.get(f"/api/rooms/{rid}/record").json()
            assert len(verify(record).results) == 2
            _assert_no_leaks([a, b, b2], record)


def test_a_forged_token_takes_no_seat(http: TestClient) -> None:
    rid, key = _room(http)
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        reply = c.request({"type": "join", "token": "not-a-real-token"})
        assert reply["type"] == "error" and reply["code"] == "BAD_TOKEN"
        assert c.request({"type": "act", "action": {"type": "pass"}})["code"] == "NOT_JOINED"


def test_no_record_or_replay_before_the_end(http: TestClient) -> None:
    rid, key = _room(http, bots=[None, "heuristic", "heuristic", "heuristic"])
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        c.request({"type": "join", "name": "solo", "host_key": key})
        c.request({"type": "ready"})
        c.request({"type": "start"})
        play_to_end([c], until="play")
        for path in ("record", "replay"):
            r = http.get(f"/api/rooms/{rid}/{path}")
            assert r.status_code == 403 and r.json()["detail"]["code"] == "NOT_FINISHED"
        play_to_end([c])
        assert http.get(f"/api/rooms/{rid}/record").status_code == 200
