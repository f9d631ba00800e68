"""Take-backs and forced plays (issue 40): in a room made with ``take_back`` a person takes
back their own last play before anyone else acts (the table is told, and the record and
the store lose it: ``verify`` passes); too late, for someone else's play, or in a room
without take-backs it is refused with a coded error worded in both languages. In a room
made with ``auto_play`` a person's only legal play is made for them."""

from __future__ import annotations

import contextlib
import functools
from typing import Any

from fastapi.testclient import TestClient

from shengji.bots.autoplay import made_by_itself
from shengji.game.record import verify
from shengji.server.app import create_app

from .client import Client, hub_of, play_to_end, sync, wait_view
from .conftest import FAST_CLIENTS

TWO_PEOPLE = [None, None, "heuristic", "heuristic"]


def _actions(room: Any) -> list[Any]:
    assert room.recorder is not None
    return list(room.recorder.actions)


def _room(http: TestClient, **body: Any) -> tuple[str, str]:
    r = http.post("/api/rooms", json={"preset": "classic-1deck", "bots": TWO_PEOPLE} | body)
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["host_key"]


def _seated(rid: str, key: str, ws: list[Any]) -> list[Client]:
    clients = [Client(w) for w in ws]
    for i, c in enumerate(clients):
        body: dict[str, Any] = {"type": "join", "name": f"p{i}", "seat": i}
        if i == 0:
            body["host_key"] = key
        assert c.request(body)["type"] == "ack"
    for c in clients:
        c.request({"type": "ready"})
    assert clients[0].request({"type": "start"})["type"] == "ack"
    return clients


def _to_my_lead(a: Client, b: Client) -> None:
    """Play (both people) until seat 0 leads a trick and seat 1 follows next."""
    for _ in range(400):
        for c in (a, b):
            sync(c)
        v = a.view
        if v["phase"] == "play" and v["to_act"] == 0 and not v.get("trick"):
            return
        actor = {0: a, 1: b}.get(v["to_act"]) if v["phase"] != "hand_over" else None
        if v["phase"] == "hand_over":
            for c in (a, b):
                c.request({"type": "act", "action": {"type": "continue"}})
            continue
        if actor is None:
            continue
        actor.request({"type": "act", "action": actor.choose()})
    raise AssertionError("seat 0 never led")


def test_a_play_is_taken_back_before_the_next_seat_acts(http: TestClient) -> None:
    rid, key = _room(http, take_back=True)
    with http.websocket_connect(f"/ws/{rid}") as w0, http.websocket_connect(f"/ws/{rid}") as w1:
        a, b = _seated(rid, key, [w0, w1])
        _to_my_lead(a, b)
        hand = a.view["hand"]
        room = hub_of(http).rooms[rid]
        actions = len(_actions(room))
        first = a.choose()
        assert a.request({"type": "act", "action": first})["type"] == "ack"
        assert a.latest.get("take_back") is True
        # only the one who played may take it back
        refused = b.request({"type": "take_back"})
        assert refused["code"] == "TAKE_BACK_TOO_LATE" and refused["text"]["zh"]
        assert a.request({"type": "take_back"})["type"] == "ack"
        sync(a)
        assert a.view["hand"] == hand and a.view["to_act"] == 0 and not a.view.get("trick")
        assert "take_back" not in a.latest
        assert len(_actions(room)) == actions
        assert len(room.store.load_actions(rid)) == actions
        told = b.drain_until(lambda m: m["type"] == "notice")
        assert told["code"] == "TOOK_BACK" and "took back" in told["text"]["en"]
        assert "悔" in told["text"]["zh"]
        # played again; once seat 1 has played it is too late
        assert a.request({"type": "act", "action": a.choose()})["type"] == "ack"
        sync(b)
        assert b.request({"type": "act", "action": b.choose()})["type"] == "ack"
        late = a.request({"type": "take_back"})
        assert late["code"] == "TAKE_BACK_TOO_LATE"
        assert late["text"]["en"] and late["text"]["zh"] != late["text"]["en"]
        play_to_end([a, b])
        record = http.get(f"/api/rooms/{rid}/record").json()
        verify(record)
        assert len(record["actions"]) == len(room.store.load_actions(rid))


def test_a_room_without_take_backs_refuses_them(http: TestClient) -> None:
    rid, key = _room(http)
    with http.websocket_connect(f"/ws/{rid}") as w0, http.websocket_connect(f"/ws/{rid}") as w1:
        a, b = _seated(rid, key, [w0, w1])
        _to_my_lead(a, b)
        assert a.request({"type": "act", "action": a.choose()})["type"] == "ack"
        refused = a.request({"type": "take_back"})
        assert refused["code"] == "TAKE_BACK_OFF"
        assert "take-backs" in refused["text"]["en"] and "悔牌" in refused["text"]["zh"]
        assert "take_back" not in a.latest
        assert http.get(f"/api/rooms/{rid}").json()["take_back"] is False


def test_forced_plays_are_made_for_a_person_in_an_auto_play_room(http: TestClient) -> None:
    rid, key = _room(http, auto_play=True)
    assert http.get(f"/api/rooms/{rid}").json()["auto_play"] is True
    with http.websocket_connect(f"/ws/{rid}") as w0, http.websocket_connect(f"/ws/{rid}") as w1:
        a, b = _seated(rid, key, [w0, w1])
        taken = play_to_end([a, b], until="hand_over")
        wait_view(a, lambda v: v["phase"] == "hand_over")
        record = _actions(hub_of(http).rooms[rid])
        people = sum(1 for seat, _ in record if seat in (0, 1))
        assert taken < people  # the last trick (one card each) was played for them


def test_a_client_tells_the_plays_an_auto_play_room_makes_for_it(http: TestClient) -> None:
    """``made_by_itself``: the people never play the turns it names, and the hand still
    ends (were one of them a choice, the table would wait for it)."""
    import time

    rid, key = _room(http, auto_play=True)
    with http.websocket_connect(f"/ws/{rid}") as w0, http.websocket_connect(f"/ws/{rid}") as w1:
        a, b = _seated(rid, key, [w0, w1])
        left: set[int] = set()
        deadline = time.monotonic() + 60
        while a.view["phase"] != "hand_over":
            assert time.monotonic() < deadline, "the table waited for a person"
            for c in (a, b):
                sync(c)
            actor = {0: a, 1: b}.get(a.view["to_act"])
            if actor is None or (actor.state or {}).get("rev") != (a.state or {}).get("rev"):
                time.sleep(0.005)
                continue
            if made_by_itself(actor.latest):
                left.add(actor.latest["rev"])
                time.sleep(0.005)
                continue
            reply = actor.request({"type": "act", "action": actor.choose()})
            assert reply["type"] == "ack" or reply.get("code") == "STALE_REVISION", reply
        assert left, "no play was made for a person"


def _shows_or_dealt(c: Client, view: dict[str, Any]) -> bool:
    """The deal is over, or ``c`` may show now."""
    return view["phase"] != "deal" or bool(c.latest.get("shows"))


def test_a_show_during_the_deal_is_taken_back_and_the_deal_goes_on(db_url: str) -> None:
    """A person shows while the cards come and takes it back: the deal's rounds since are
    dealt again without it, the record has no trace of it, and ``verify`` passes. (Four
    people, of whom only the first ever shows.)"""
    app = create_app(db_url, bot_delay=0, deal_seconds=0.25, limits=FAST_CLIENTS)
    with TestClient(app) as http:
        for _ in range(6):  # tables until the person holds a show during the deal
            rid, key = _room(http, take_back=True, bots=[])
            with contextlib.ExitStack() as stack:
                ws = [stack.enter_context(http.websocket_connect(f"/ws/{rid}")) for _ in range(4)]
                people = [Client(w) for w in ws]
                for i, c in enumerate(people):
                    body: dict[str, Any] = {"type": "join", "name": f"p{i}", "seat": i}
                    if i == 0:
                        body["host_key"] = key
                    c.request(body)
                for c in people:
                    c.request({"type": "ready"})
                a = people[0]
                a.request({"type": "start"})
                wait_view(a, functools.partial(_shows_or_dealt, a))
                shows = a.latest.get("shows") or []
                if a.view["phase"] != "deal" or not shows:
                    continue
                declare = {"type": "declare", "cards": shows[0]}
                assert a.request({"type": "act", "action": declare})["type"] == "ack"
                room = hub_of(http).rooms[rid]
                assert a.request({"type": "take_back"})["type"] == "ack"
                sync(a)
                assert not a.view["declarations"]
                assert all(seat is None for seat, _ in _actions(room))
                assert len(room.store.load_actions(rid)) == len(_actions(room))
                play_to_end(people, until="hand_over")
                return
        raise AssertionError("the person never held a show during the deal")
