"""Lobby controls, the turn timer and handing a disconnected seat to a bot."""

from __future__ import annotations

import itertools
import re
import time
from typing import Any

from fastapi.testclient import TestClient

from shengji.server.room_settings import RoomSettings

from .client import Client, hub_of, sync


def _room(http: TestClient, **body: object) -> tuple[str, str]:
    made = http.post("/api/rooms", json={"preset": "classic-1deck", **body}).json()
    return made["id"], made["host_key"]


def test_lobby_seats_bots_kick_randomize_and_start(http: TestClient) -> None:
    rid, key = _room(http)
    with http.websocket_connect(f"/ws/{rid}") as w0, http.websocket_connect(f"/ws/{rid}") as w1:
        host, guest = Client(w0), Client(w1)
        assert (
            host.request({"type": "join", "name": "host", "seat": 2, "host_key": key})["seat"] == 2
        )
        assert guest.request({"type": "join", "name": "guest", "seat": 2})["code"] == "SEAT_TAKEN"
        assert guest.request({"type": "join", "name": "guest"})["seat"] == 0
        assert guest.request({"type": "sit", "seat": 3})["type"] == "ack"
        assert guest.request({"type": "set_bot", "seat": 1})["code"] == "NOT_HOST"
        assert host.request({"type": "set_bot", "seat": 1, "bot": "random"})["type"] == "ack"
        assert host.request({"type": "start"})["code"] == "SEATS_EMPTY"
        assert host.request({"type": "set_bot", "seat": 0})["type"] == "ack"
        assert host.request({"type": "start"})["code"] == "NOT_READY"
        assert host.request({"type": "randomize"})["type"] == "ack"
        sync(guest)
        seats = guest.latest["room"]["seats"]
        assert sorted(s["kind"] for s in seats) == ["bot", "bot", "human", "human"]
        assert seats[guest.seat]["name"] == "guest"
        assert host.request({"type": "chat", "text": "ready?"})["type"] == "ack"
        sync(guest)
        assert guest.chat[-1]["text"] == "ready?"
        assert host.request({"type": "kick", "seat": guest.seat})["type"] == "ack"
        sync(guest)
        assert guest.latest["you"]["seat"] is None  # kicked: now watching
        assert (
            host.request(
                {
                    "type": "set_bot",
                    "seat": guest.latest["room"]["seats"].index(
                        next(s for s in guest.latest["room"]["seats"] if s["kind"] == "empty")
                    ),
                }
            )["type"]
            == "ack"
        )
        host.request({"type": "ready"})
        assert host.request({"type": "start"})["type"] == "ack"
        assert host.request({"type": "sit", "seat": 0})["code"] == "NOT_IN_LOBBY"


def test_turn_timer_plays_for_a_slow_person(http: TestClient) -> None:
    rid, key = _room(http, turn_seconds=3, bots=[None, "heuristic", "heuristic", "heuristic"])
    with http.websocket_connect(f"/ws/{rid}") as w, http.websocket_connect(f"/ws/{rid}") as ww:
        c = Client(w)
        c.request({"type": "join", "name": "slow", "host_key": key})
        watcher = Client(ww)
        watcher.request({"type": "join", "name": "eve", "spectate": True})
        c.request({"type": "ready"})
        c.request({"type": "start"})
        deadline = time.time() + 60
        told: list[dict[str, Any]] = []
        times: list[float] = []
        while (
            time.time() < deadline and len([m for m in told if m["params"]["action"] == "play"]) < 2
        ):
            # declare (or pass) as bots would, then never play: the timer must play for us
            msg = c.recv()
            if msg["type"] == "notice":
                told.append(msg)
                times.append(time.monotonic())
            elif (
                msg["type"] == "state"
                and msg.get("view")
                and msg["view"]["phase"] in ("deal", "before_kitty", "after_burial")
                and msg["view"]["to_act"] == 0
            ):
                c.send({"type": "act", "action": c.choose()})
        plays = [m for m in told if m["params"]["action"] == "play"]
        assert len(plays) == 2, told
        # every move the timer made is told, in both languages (a burial by its size only)
        assert all(m["code"] == "TIME_RAN_OUT" for m in told)
        assert all(m["params"]["seat"] == 0 and m["params"]["name"] == "slow" for m in told)
        # no faster than the floor: a timer moves one seat every 3 s at most
        assert all(b - a > 2.9 for a, b in itertools.pairwise(times)), times
        # the person it is about is told "you"; the others are told the name
        assert plays[0]["text"]["en"].startswith("your time ran out: the bot played ")
        assert plays[0]["text"]["en"].endswith(" for you")
        assert plays[0]["text"]["zh"].startswith("你超时了, 机器人替你出了 ")
        buried = [m for m in told if m["params"]["action"] == "bury"]
        assert all(m["params"]["cards"] == "" for m in buried)
        sync(watcher)
        seen = [m for m in watcher.received if m["type"] == "notice"]
        assert len(seen) >= len(told)
        first = next(m for m in seen if m["params"]["action"] == "play")["text"]
        assert first["en"].startswith("time ran out: the bot played ")
        assert first["en"].endswith(" for slow") and first["zh"].startswith("slow 超时")


def test_a_turn_timer_is_off_or_at_least_three_seconds(http: TestClient) -> None:
    for seconds, status in ((0.01, 400), (2.9, 400), (0, 200), (3, 200)):
        r = http.post("/api/rooms", json={"turn_seconds": seconds})
        assert r.status_code == status, (seconds, r.text)
        if status == 400:
            detail = r.json()["detail"]
            assert detail["code"] == "TURN_TOO_SHORT"
            assert "3" in detail["text"]["en"] and "3 秒" in detail["text"]["zh"]
    # a room stored before the floor (or with slow bots) times out no faster than either
    assert RoomSettings(turn_seconds=0.01).timer(0.01) == 3
    assert RoomSettings(turn_seconds=0.01, bot_delay=5).timer(0.01) == 5
    assert RoomSettings(turn_seconds=20).timer(20) == 20


def test_disconnected_seat_goes_to_a_bot_and_is_reclaimed(http: TestClient) -> None:
    rid, key = _room(http, away_seconds=0.2, bots=[None, "heuristic", None, "heuristic"])
    with http.websocket_connect(f"/ws/{rid}") as w0:
        a = Client(w0)
        a.request({"type": "join", "name": "stays", "host_key": key})
        with http.websocket_connect(f"/ws/{rid}") as w2:
            b = Client(w2)
            b.request({"type": "join", "name": "leaves"})
            token = b.token
            for c in (a, b):
                c.request({"type": "ready"})
            a.request({"type": "start"})
        deadline = time.time() + 15
        while time.time() < deadline:
            sync(a)
            if a.latest["room"]["seats"][2]["away"]:
                break
            time.sleep(0.05)
        assert a.latest["room"]["seats"][2]["away"] is True
        room = hub_of(http).rooms[rid]
        while time.time() < deadline and not room.played_for.get(2):
            sync(a)  # play seat 0 until the bot has moved for seat 2
            if a.view["to_act"] == 0:
                a.request({"type": "act", "action": a.choose()})
            time.sleep(0.02)
        made = room.played_for[2]
        with http.websocket_connect(f"/ws/{rid}") as w2b:
            b2 = Client(w2b)
            assert b2.request({"type": "join", "token": token})["seat"] == 2
            sync(a)
            assert a.latest["room"]["seats"][2]["away"] is False
            told = [m for m in b2.received if m["type"] == "notice"]
            assert [m["code"] for m in told] == ["PLAYED_FOR_YOU"]
            # the bot may move once more for seat 2 between the count read and the join
            assert told[0]["params"]["count"] >= made >= 1
            assert "while you were away, the bot made" in told[0]["text"]["en"]
            assert "你离开期间" in told[0]["text"]["zh"]
        assert not any(m["type"] == "notice" for m in a.received)  # told to that seat only


def test_keys_and_tokens_can_be_pasted_into_a_command_line(http: TestClient) -> None:
    """Host keys and resume tokens are hex: never taken for an option (``--host-key -x``)."""
    for _ in range(20):
        rid, key = _room(http)
        assert re.fullmatch(r"[0-9a-f]{48}", key), key
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        c.request({"type": "join", "name": "host", "host_key": key})
        assert c.token is not None and re.fullmatch(r"[0-9a-f]{48}", c.token), c.token


def test_a_lone_person_back_after_the_hand_is_told_what_the_bots_did(http: TestClient) -> None:
    """Nobody is left at the table: the bot plays the away seat to the end of the hand and
    the room rests; the room is read again from the store when its person comes back (and
    after it was unloaded as idle): the count of moves made for them is still told."""
    hub = hub_of(http)
    for unload in (False, True):
        rid, key = _room(http, away_seconds=0.1, bots=[None, "heuristic", "heuristic", "heuristic"])
        with http.websocket_connect(f"/ws/{rid}") as w:
            c = Client(w)
            token = c.request({"type": "join", "name": "solo", "host_key": key})["token"]
            c.request({"type": "ready"})
            c.request({"type": "start"})
        room = hub.rooms[rid]
        deadline = time.time() + 30
        while time.time() < deadline and (room.state is None or room.state.phase != "hand_over"):
            time.sleep(0.05)
        made = room.played_for.get(0, 0)
        assert made >= 1 and room.state is not None and room.state.phase == "hand_over"
        if unload:
            room.last_active -= 10_000
            assert hub.sweep() >= 1 and rid not in hub.rooms
        with http.websocket_connect(f"/ws/{rid}") as w:
            back = Client(w)
            assert back.request({"type": "join", "token": token})["seat"] == 0
            assert hub.rooms[rid] is not room  # read again from the store
            told = [m for m in back.received if m["type"] == "notice"]
            assert [m["params"]["count"] for m in told] == [made]
            assert told[0]["code"] == "PLAYED_FOR_YOU"
        assert rid not in hub._carried
