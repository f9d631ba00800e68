"""找朋友 rooms: 5 to 8 seats, the banker's friend calls over the protocol (malformed and
hostile ones refused with a code, nothing half-applied), calls on a turn timer."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from shengji.game.record import replay, verify
from shengji.game.views import observe

from .client import Client, play_to_end, sync

BOTS5 = [None, "heuristic", "heuristic", "random", "heuristic", "heuristic"]


def _room(http: TestClient, players: int = 6, **extra: Any) -> tuple[str, str]:
    body = {"preset": "zhaopengyou", "overrides": {"players": players, "match_hands": 1}, **extra}
    r = http.post("/api/rooms", json=body)
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["host_key"]


def test_rooms_have_the_presets_seats_and_refuse_seats_past_the_last(http: TestClient) -> None:
    for n in (5, 6, 8):
        rid, _ = _room(http, n)
        info = http.get(f"/api/rooms/{rid}").json()
        assert len(info["seats"]) == n and info["overrides"]["players"] == n
    # more bots than seats: refused, nothing made
    r = http.post(
        "/api/rooms",
        json={"preset": "zhaopengyou", "overrides": {"players": 5}, "bots": ["heuristic"] * 6},
    )
    assert r.status_code == 400 and r.json()["detail"]["code"] == "BAD_SEAT"
    assert "1 到 5" in r.json()["detail"]["text"]["zh"]
    rid, key = _room(http, 6)
    with http.websocket_connect(f"/ws/{rid}") as w, http.websocket_connect(f"/ws/{rid}") as w2:
        host = Client(w)
        assert host.request({"type": "join", "name": "h", "host_key": key})["seat"] == 0
        assert host.latest["room"]["deadlines"] == [None] * 6
        rev = host.latest["rev"]
        for cmd in (
            {"type": "sit", "seat": 6},
            {"type": "set_bot", "seat": 7, "bot": "heuristic"},
            {"type": "kick", "seat": 6},
        ):
            reply = host.request(cmd)
            assert reply["type"] == "error" and reply["code"] == "BAD_SEAT", reply
            assert reply["text"]["en"] == "this table has seats 1 to 6"
        assert host.request({"type": "sit", "seat": 8})["code"] == "BAD_MESSAGE"  # not a seat
        sync(host)
        assert host.latest["rev"] == rev and len(host.latest["room"]["seats"]) == 6
        other = Client(w2)
        assert other.request({"type": "join", "name": "o", "seat": 6})["code"] == "BAD_SEAT"
        assert other.request({"type": "join", "name": "o", "seat": 5})["seat"] == 5
        assert host.request({"type": "sit", "seat": 4})["type"] == "ack"
        assert host.request({"type": "randomize"})["type"] == "ack"
        sync(host)
        seats = host.latest["room"]["seats"]
        assert len(seats) == 6 and sorted(s["kind"] for s in seats) == ["empty"] * 4 + ["human"] * 2


def _expected_views(record: dict[str, Any], n: int) -> dict[int | None, set[str]]:
    states = [replay({**record, "actions": []})]
    replay(record, lambda st, *_: states.append(st))
    seats: list[int | None] = [*range(n), None]
    return {s: {json.dumps(observe(st, s), sort_keys=True) for st in states} for s in seats}


def test_a_six_seat_hand_with_five_bots_and_a_spectator(http: TestClient) -> None:
    rid, key = _room(http, 6, bots=BOTS5)
    with http.websocket_connect(f"/ws/{rid}") as w, http.websocket_connect(f"/ws/{rid}") as ww:
        me, watcher = Client(w), Client(ww)
        me.request({"type": "join", "name": "me", "host_key": key})
        watcher.request({"type": "join", "name": "eve", "spectate": True})
        me.request({"type": "ready"})
        assert me.request({"type": "start"})["type"] == "ack"
        play_to_end([me, watcher])
        sync(watcher)
        view = watcher.view
        assert view["phase"] == "match_over" and view["players"] == 6
        assert len(view["levels"]) == 6 and len(view["calls"]) == 2
        # every side is known once every call is answered (a called copy may lie in the
        # kitty, and then the sides stay unknown)
        answered = all(c["seat"] is not None for c in view["calls"])
        assert all(side is not None for side in view["sides"]) == answered
        record = http.get(f"/api/rooms/{rid}/record").json()
        assert len(verify(record).results) == 1
        expected = _expected_views(record, 6)
        for c in (me, watcher):
            for msg in c.received:
                if msg["type"] == "state" and "view" in msg:
                    seen = json.dumps(msg["view"], sort_keys=True)
                    assert seen in expected[msg["you"]["seat"]]
        views = http.get(f"/api/rooms/{rid}/replay/views?seat=5").json()
        assert views["views"][-1]["phase"] == "match_over"
        assert http.get(f"/api/rooms/{rid}/replay/views?seat=6").status_code == 400


def _to_call_phase(http: TestClient, stack: ExitStack) -> tuple[list[Client], Client]:
    """Six people at a six-seat table, played (first legal choices) up to the banker's
    call; returns the clients and the banker's."""
    rid, key = _room(http, 6)
    clients = [Client(stack.enter_context(http.websocket_connect(f"/ws/{rid}"))) for _ in range(6)]
    for i, c in enumerate(clients):
        c.request({"type": "join", "name": f"p{i}", "host_key": key if i == 0 else None})
        c.request({"type": "ready"})
    assert clients[0].request({"type": "start"})["type"] == "ack"
    play_to_end(clients, until="call")
    view = clients[0].view
    assert view["phase"] == "call" and view["calls"] == []
    banker = next(c for c in clients if c.seat == view["to_act"])
    assert banker.seat == view["banker"]
    return clients, banker


def test_malformed_and_hostile_calls_are_refused_with_codes_and_change_nothing(
    http: TestClient,
) -> None:
    with ExitStack() as stack:
        clients, banker = _to_call_phase(http, stack)
        other = next(c for c in clients if c is not banker)
        before = banker.latest
        rev = before["rev"]
        level = before["view"]["level"]
        hand = before["view"]["hand"].split()
        # a card the banker lacks (any deal: twelve candidates outside hearts and the level)
        missing = next(
            f"{s}{r}"
            for s in "SCD"
            for r in ("A", "Q", "J", "10")
            if f"{s}{r}" not in hand and r != level
        )
        refused = [
            ({"type": "call", "calls": ""}, "ILLEGAL_CALL"),  # too few
            ({"type": "call", "calls": f"{missing}:1"}, "ILLEGAL_CALL"),  # one of two
            ({"type": "call", "calls": "SA:1 SA:1"}, "ILLEGAL_CALL"),  # twice the same
            ({"type": "call", "calls": "SA:4 HA:1"}, "ILLEGAL_CALL"),  # 3 decks: no 4th
            ({"type": "call", "calls": "SA:0 HA:1"}, "ILLEGAL_CALL"),
            ({"type": "call", "calls": "BJ:1 HA:1"}, "ILLEGAL_CALL"),  # a joker
            ({"type": "call", "calls": f"H{level}:1 SA:1"}, "ILLEGAL_CALL"),  # a level card
            ({"type": "call", "calls": "SA:x HA:1"}, "ILLEGAL_CALL"),
            # digits other than ASCII ones: str.isdigit takes "²", int does not
            ({"type": "call", "calls": "SA:² HA:1"}, "ILLEGAL_CALL"),
            ({"type": "call", "calls": "SA:٣ HA:1"}, "ILLEGAL_CALL"),
            ({"type": "call", "calls": "SA:１ HA:1"}, "ILLEGAL_CALL"),
            ({"type": "call", "calls": "SA:1 HA:1 CA:1"}, "ILLEGAL_CALL"),  # too many
            ({"type": "call", "calls": "ZZ:1 HA:1"}, "BAD_CARD"),
            ({"type": "call", "calls": "SA:99999999999999999999 HA:1"}, "ILLEGAL_CALL"),
            ({"type": "call"}, "ILLEGAL_CALL"),  # no calls at all
            ({"type": "call", "calls": "SA:1 " * 40}, "BAD_MESSAGE"),  # over the length cap
            ({"type": "call", "calls": ["SA:1", "HA:1"]}, "BAD_MESSAGE"),  # not a string
            ({"type": "play", "cards": hand[0]}, None),  # not the time to play
            ({"type": "bury", "cards": " ".join(hand[:6])}, None),
            ({"type": "pass"}, None),
        ]
        for action, code in refused:
            for kind in ("check", "act"):
                reply = banker.request({"type": kind, "action": action})
                assert reply["type"] == "error", (action, reply)
                if code is not None:
                    assert reply["code"] == code, (action, reply)
                assert reply["text"]["en"] and reply["text"]["zh"]
        # someone else than the banker calls: not their turn
        reply = other.request({"type": "act", "action": {"type": "call", "calls": "SA:1 HA:1"}})
        assert reply["code"] == "NOT_YOUR_TURN"
        # an ordinal past the decks is worded for people
        reply = banker.request({"type": "act", "action": {"type": "call", "calls": "SA:4 HA:1"}})
        assert "1 到 3" in reply["text"]["zh"] and "the 4th ♠A" in reply["text"]["en"]
        sync(banker)
        assert banker.latest["rev"] == rev
        assert banker.view == before["view"]
        # a stale revision is refused too, a legal call then taken once
        calls = f"{missing}:1 HK:2" if level != "K" else f"{missing}:1 HQ:2"
        stale = banker.request({"type": "act", "action": {"type": "call", "calls": calls}}, rev=0)
        assert stale["code"] == "STALE_REVISION"
        ok = banker.request({"type": "act", "action": {"type": "call", "calls": calls}})
        assert ok["type"] == "ack", ok
        again = banker.request({"type": "act", "action": {"type": "call", "calls": calls}})
        assert again["type"] == "error"
        for c in clients:
            sync(c)
            assert [x["call"] for x in c.view["calls"]] == calls.split()
            assert all(x["seat"] is None for x in c.view["calls"])
            assert c.view["phase"] == "play"


def test_a_call_at_a_four_seat_table_is_refused(http: TestClient) -> None:
    r = http.post("/api/rooms", json={"preset": "shuangsheng", "bots": [None] + ["heuristic"] * 3})
    rid, key = r.json()["id"], r.json()["host_key"]
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        c.request({"type": "join", "name": "me", "host_key": key})
        c.request({"type": "ready"})
        c.request({"type": "start"})
        reply = c.request({"type": "check", "action": {"type": "call", "calls": "SA:1"}})
        assert reply["type"] == "error" and reply["code"] in ("ILLEGAL_ACTION", "NOT_YOUR_TURN")
        sync(c)
        assert "calls" not in c.view


def test_the_turn_timer_calls_friends_for_a_slow_banker(http: TestClient) -> None:
    """Five silent people: nobody shows, so the first seat banks at no trump; the timer
    buries and calls friends for it, and says so."""
    overrides = {"players": 5, "match_hands": 1, "no_declaration": "no_trump"}
    body = {"preset": "zhaopengyou", "overrides": overrides, "turn_seconds": 3}
    made = http.post("/api/rooms", json=body).json()
    rid, key = made["id"], made["host_key"]
    with ExitStack() as stack:
        people = [
            Client(stack.enter_context(http.websocket_connect(f"/ws/{rid}"))) for _ in range(5)
        ]
        for i, p in enumerate(people):
            p.request({"type": "join", "name": f"p{i}", "host_key": key if i == 0 else None})
            p.request({"type": "ready"})
        c = people[0]
        c.request({"type": "start"})
        deadline = time.time() + 60
        called: list[dict[str, Any]] = []
        while time.time() < deadline and not called:  # never act: the timer moves for us
            sync(c)
            called = [
                m for m in c.received if m["type"] == "notice" and m["params"]["action"] == "call"
            ]
            time.sleep(0.02)
        assert called, "the timer made no call for the banker"
        told = called[0]
        assert told["code"] == "TIME_RAN_OUT" and told["params"]["seat"] == 0
        assert told["text"]["en"].startswith("your time ran out: the bot called the ")
        assert told["text"]["zh"].startswith("你超时了, 机器人替你叫了朋友 第")
        sync(c)
        assert len(c.view["calls"]) == 1 and c.view["banker"] == 0


def test_hints_at_a_six_seat_table_call_and_play(http: TestClient) -> None:
    """The hint at a 找朋友 table: the heuristic's calls for the banker, then a searched
    play after tricks by six seats."""
    with ExitStack() as stack:
        clients, banker = _to_call_phase(http, stack)
        rid = banker.latest["room"]["id"]
        auth = {"Authorization": f"Bearer {banker.token}"}
        r = http.post(f"/api/rooms/{rid}/hint", headers=auth)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["action"]["type"] == "call" and len(body["action"]["calls"].split()) == 2
        assert body["text"]["en"].startswith("hint: call the ")
        assert banker.request({"type": "act", "action": body["action"]})["type"] == "ack"
        play_to_end(clients, until="play")
        for _ in range(400):  # a few tricks in: the hint for whoever is to play
            for c in clients:
                sync(c)
            view = clients[0].view
            if len(view["tricks"]) >= 2 and view["trick"]:
                break
            actor = next(c for c in clients if c.seat == view["to_act"])
            actor.request({"type": "act", "action": actor.choose()})
        actor = next(c for c in clients if c.seat == clients[0].view["to_act"])
        r = http.post(f"/api/rooms/{rid}/hint", headers={"Authorization": f"Bearer {actor.token}"})
        assert r.status_code == 200, r.text
        assert r.json()["action"]["type"] == "play"


def test_strong_bots_play_a_six_seat_hand(http: TestClient) -> None:
    """A 找朋友 table of strong bots (search) plays a whole match."""
    rid, key = _room(http, 6, bots=[None, *["search"] * 5])
    with http.websocket_connect(f"/ws/{rid}") as w:
        me = Client(w)
        me.request({"type": "join", "name": "me", "host_key": key})
        me.request({"type": "ready"})
        assert me.request({"type": "start"})["type"] == "ack"
        play_to_end([me])
        assert me.view["phase"] == "match_over"
