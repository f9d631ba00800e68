"""One client never hurts another, and two processes never disagree (docs/server.md):
lobby writes off the event loop with a per-address budget, replays made in a worker and
kept, spectator slots that free themselves, conditional lobby writes between processes,
followers that never halt the playing process, damaged rows quarantined everywhere, a
one-time host key and single-use request ids."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect

from shengji.server.app import create_app
from shengji.server.connection import CLOSE_CODES
from shengji.server.limits import Limits
from shengji.server.reviewing import Reviewer

from .client import Client, hub_of, play_to_end, sync, wait_view
from .conftest import FAST_CLIENTS


def _app(db_url: str, limits: Limits = FAST_CLIENTS, bot_delay: float = 0) -> TestClient:
    """A server whose bots, and deals, go at ``bot_delay``."""
    return TestClient(
        create_app(db_url, bot_delay=bot_delay, deal_seconds=bot_delay, limits=limits)
    )


def _room(http: TestClient, **body: Any) -> tuple[str, str]:
    r = http.post("/api/rooms", json={"preset": "classic-1deck", **body})
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["host_key"]


def _ping_seconds(c: Client) -> float:
    start = time.perf_counter()
    assert c.request({"type": "ping"})["type"] == "ack"
    return time.perf_counter() - start


def _status(http: TestClient, rid: str) -> str:
    with hub_of(http).store.engine.connect() as conn:
        value = conn.execute(text("SELECT status FROM rooms WHERE id = :i"), {"i": rid}).scalar()
    return str(value)


# -- 1. lobby writes never run on the event loop --------------------------------------------


def test_a_slow_lobby_write_does_not_stall_other_rooms(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _app(db_url) as http:
        a, key_a = _room(http)
        b, key_b = _room(http)
        store = hub_of(http).store
        real = store.save_room

        def locked(*args: Any, **kwargs: Any) -> int:
            time.sleep(0.8)  # another program holds the database file
            return real(*args, **kwargs)

        with http.websocket_connect(f"/ws/{a}") as wa, http.websocket_connect(f"/ws/{b}") as wb:
            ca, cb = Client(wa), Client(wb)
            ca.request({"type": "join", "name": "a", "host_key": key_a})
            cb.request({"type": "join", "name": "b", "host_key": key_b})
            monkeypatch.setattr(store, "save_room", locked)
            rid = ca.send({"type": "ready", "ready": True})
            time.sleep(0.1)  # the write is under way
            assert _ping_seconds(cb) < 0.4  # room b is served meanwhile
            reply = ca.drain_until(lambda m: m.get("id") == rid)
            assert reply["type"] == "ack"
            sync(ca)
            assert ca.latest["room"]["seats"][0]["ready"] is True


def test_an_uncommitted_lobby_change_is_not_shown(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _app(db_url) as http:
        rid, key = _room(http)
        store = hub_of(http).store
        gate = threading.Event()
        real = store.save_room

        def held(*args: Any, **kwargs: Any) -> int:
            gate.wait(5)
            return real(*args, **kwargs)

        with http.websocket_connect(f"/ws/{rid}") as w:
            c = Client(w)
            c.request({"type": "join", "name": "a", "host_key": key})
            room = hub_of(http).rooms[rid]
            monkeypatch.setattr(store, "save_room", held)
            c.send({"type": "ready", "ready": True})
            time.sleep(0.2)
            assert room.seats[0].ready is False  # not committed yet: not shown
            gate.set()
            sync(c)
            assert room.seats[0].ready is True


def test_lobby_commands_have_a_budget_per_address(db_url: str) -> None:
    limits = FAST_CLIENTS.with_overrides(["lobby_burst=10", "lobby_per_second=0.01"])
    with _app(db_url, limits) as http:
        rid, key = _room(http)
        with ExitStack() as stack:
            clients = [Client(stack.enter_context(http.websocket_connect(f"/ws/{rid}")))]
            clients[0].request({"type": "join", "name": "host", "host_key": key})
            for i in range(3):
                c = Client(stack.enter_context(http.websocket_connect(f"/ws/{rid}")))
                c.request({"type": "join", "name": f"p{i}"})
                clients.append(c)
            codes = [
                clients[i % 4].request({"type": "ready", "ready": i % 2 == 0}).get("code")
                for i in range(12)
            ]
            assert codes[:6] == [None] * 6  # 4 joins and 6 toggles: the burst of 10
            assert codes[6:] == ["RATE_LIMITED"] * 6  # every socket of the address shares it
            assert clients[1].request({"type": "ping"})["type"] == "ack"  # pings are free


def test_a_bot_thinking_does_not_stall_other_rooms(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's decision (a search, a look ahead) is made off the event loop: while a
    room's bots think, another room's player is answered at once."""
    from shengji.bots.heuristic import HeuristicBot

    real = HeuristicBot.act
    thought: list[float] = []

    def slow(self: HeuristicBot, view: Any) -> Any:
        if view.phase == "play":
            end = time.perf_counter() + 0.6
            while time.perf_counter() < end:  # holds the interpreter, as a search does
                pass
            thought.append(end)
        return real(self, view)

    monkeypatch.setattr(HeuristicBot, "act", slow)
    with _app(db_url) as http:
        a, key_a = _room(http, bots=[None, "heuristic", "heuristic", "heuristic"])
        b, key_b = _room(http)
        with http.websocket_connect(f"/ws/{a}") as wa, http.websocket_connect(f"/ws/{b}") as wb:
            ca, cb = Client(wa), Client(wb)
            ca.request({"type": "join", "name": "a", "host_key": key_a})
            cb.request({"type": "join", "name": "b", "host_key": key_b})
            ca.request({"type": "ready"})
            ca.request({"type": "start"})
            play_to_end([ca], until="play")
            pings = []
            while len(thought) < 4:
                sync(ca)
                if ca.view["to_act"] == ca.seat:
                    ca.send({"type": "act", "action": ca.choose()})
                time.sleep(0.15)  # a bot is thinking now
                pings.append(_ping_seconds(cb))
            # on the event loop, a ping would wait for the rest of a 0.6 s decision
            assert max(pings) < 0.3, pings


def test_a_bot_thinks_during_the_bot_delay(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pause a table gives people to see each bot's play is the bot's time to think:
    three bots that think 0.4 s each behind a 0.5 s delay play a trick in about 1.5 s,
    not 2.7 s."""
    from shengji.bots.heuristic import HeuristicBot

    real = HeuristicBot.act

    def slow(self: HeuristicBot, view: Any) -> Any:
        if view.phase == "play":
            time.sleep(0.4)  # a search of 0.4 s (in the driver's thread)
        return real(self, view)

    monkeypatch.setattr(HeuristicBot, "act", slow)
    app = create_app(db_url, bot_delay=0.5, deal_seconds=0, limits=FAST_CLIENTS)
    with TestClient(app) as http:
        rid, key = _room(http, bots=[None, "heuristic", "heuristic", "heuristic"])
        with http.websocket_connect(f"/ws/{rid}") as w:
            c = Client(w)
            c.request({"type": "join", "name": "a", "host_key": key})
            c.request({"type": "ready"})
            c.request({"type": "start"})
            play_to_end([c], until="play")

            def plays(v: dict[str, Any]) -> int:
                return sum(len(t["plays"]) for t in v["tricks"]) + len(v["trick"])

            seconds = moves = 0.0
            while moves < 6:  # the bots' moves between the person's turns
                wait_view(c, lambda v: v["to_act"] == c.seat, within=30)
                before = plays(c.view)
                assert c.request({"type": "act", "action": c.choose()})["type"] == "ack"
                start = time.monotonic()
                wait_view(c, lambda v: v["to_act"] == c.seat or v["phase"] != "play", within=30)
                seconds += time.monotonic() - start
                moves += plays(c.view) - before - 1
            # each bot move: max(0.5, 0.4) s, not 0.5 + 0.4 s
            assert 0.45 < seconds / moves < 0.7, (seconds, moves)


# -- 2. replays are made in a worker, kept, limited and compressed --------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    db = tmp_path_factory.mktemp("isolation") / "test.db"
    with _app(f"sqlite:///{db}") as http:
        rid, key = _room(http, overrides={"match_hands": 2}, bots=[None, "heuristic"] * 2)
        with http.websocket_connect(f"/ws/{rid}") as w:
            c = Client(w)
            c.request({"type": "join", "name": "solo", "host_key": key})
            c.request({"type": "set_bot", "seat": 2, "bot": "heuristic"})
            c.request({"type": "ready"})
            c.request({"type": "start"})
            play_to_end([c])
        yield http, rid


def _replayer(http: TestClient) -> Reviewer:
    assert isinstance(http.app, FastAPI)
    replayer: Reviewer = http.app.state.replayer
    return replayer


def test_replay_views_are_made_off_the_loop_kept_and_compressed(
    finished: tuple[TestClient, str],
) -> None:
    http, rid = finished
    other, key = _room(http)
    answers: list[Any] = []

    def download(seat: int) -> None:
        answers.append(http.get(f"/api/rooms/{rid}/replay/views?seat={seat}"))

    with http.websocket_connect(f"/ws/{other}") as w:
        c = Client(w)
        c.request({"type": "join", "name": "x", "host_key": key})
        threads = [threading.Thread(target=download, args=(i % 4,)) for i in range(10)]
        for t in threads:
            t.start()
        pings = []
        while any(t.is_alive() for t in threads):
            pings.append(_ping_seconds(c))
        for t in threads:
            t.join()
    assert max(pings) < 0.5
    ok = [r for r in answers if r.status_code == 200]
    assert ok and all(r.status_code in (200, 503) for r in answers)
    busy = [r for r in answers if r.status_code == 503]
    assert all(r.json()["detail"]["code"] == "REPLAY_BUSY" for r in busy)
    assert all(r.headers["content-encoding"] == "gzip" for r in ok)
    body = ok[0].json()
    assert len(body["views"]) == len(body["actions"]) + 1
    kept = len(_replayer(http).cache)
    again = http.get(f"/api/rooms/{rid}/replay/views?seat=0")
    assert again.status_code == 200 and len(_replayer(http).cache) >= 1
    assert len(_replayer(http).cache) <= max(kept, 4)
    plain = http.get(
        f"/api/rooms/{rid}/replay/views?seat=0", headers={"Accept-Encoding": "identity"}
    )
    assert "content-encoding" not in plain.headers
    assert plain.json() == again.json()
    assert int(again.headers["content-length"]) * 5 < len(plain.content)


def test_one_replay_at_a_time_per_address(finished: tuple[TestClient, str]) -> None:
    http, rid = finished
    replayer = _replayer(http)
    replayer.cache.clear()
    gate = threading.Event()
    real = replayer.job

    def slow(source: Any, seat: int, hand: int, budget: int) -> Any:
        gate.wait(10)
        return real(source, seat, hand, budget)

    from concurrent.futures import ThreadPoolExecutor

    replayer.close()
    replayer.job, replayer.make_executor = slow, lambda: ThreadPoolExecutor(2)
    try:
        first: list[Any] = []
        t = threading.Thread(
            target=lambda: first.append(http.get(f"/api/rooms/{rid}/replay/views?seat=1"))
        )
        t.start()
        deadline = time.time() + 5
        while not replayer.pending and time.time() < deadline:
            time.sleep(0.01)
        second = http.get(f"/api/rooms/{rid}/replay/views?seat=3")
        assert second.status_code == 503
        assert second.json()["detail"]["code"] == "REPLAY_BUSY"
        assert second.headers["retry-after"] == "2"
        gate.set()
        t.join()
        assert first[0].status_code == 200
    finally:
        gate.set()
        replayer.close()
        replayer.job = real


# -- 5. spectator slots ------------------------------------------------------------------------


def test_spectator_slots_are_freed_when_spectators_leave(db_url: str) -> None:
    limits = FAST_CLIENTS.with_overrides(["spectators_per_room=40", "spectator_tokens=50"])
    with _app(db_url, limits) as http:
        rid, key = _room(http)
        with http.websocket_connect(f"/ws/{rid}") as w:
            host = Client(w)
            host.request({"type": "join", "name": "host", "host_key": key})
            for i in range(40):
                with http.websocket_connect(f"/ws/{rid}") as ws:
                    reply = Client(ws).request({"type": "join", "name": f"w{i}", "spectate": True})
                    assert reply["type"] == "ack"
            with http.websocket_connect(f"/ws/{rid}") as ws:
                late = Client(ws)
                assert late.request({"type": "join", "name": "41st", "spectate": True})["type"] == (
                    "ack"
                )
                sync(late)
                assert late.latest["room"]["spectators"] == 1  # only the one connected
            sync(host)
            assert host.latest["room"]["spectators"] == 0
            room = hub_of(http).rooms[rid]
            assert len(room.spectators) <= 50  # old spectator tokens are forgotten


def test_the_spectator_cap_counts_connected_spectators(db_url: str) -> None:
    limits = FAST_CLIENTS.with_overrides(["spectators_per_room=2"])
    with _app(db_url, limits) as http, ExitStack() as stack:
        rid, _ = _room(http)
        watchers = []
        for _ in range(3):
            c = Client(stack.enter_context(http.websocket_connect(f"/ws/{rid}")))
            watchers.append(c.request({"type": "join", "spectate": True}).get("code"))
        assert watchers == [None, None, "TOO_MANY_SPECTATORS"]


# -- 6. a stale process's lobby writes are refused --------------------------------------------


def test_two_processes_never_both_seat_two_people(db_url: str) -> None:
    with _app(db_url) as a, _app(db_url) as b:
        rid, key = _room(a)
        with a.websocket_connect(f"/ws/{rid}") as wh:
            Client(wh).request({"type": "join", "name": "host", "host_key": key})
            # b loads the room now (after the host's join); a holds it in memory
            with b.websocket_connect(f"/ws/{rid}") as wb, a.websocket_connect(f"/ws/{rid}") as wa:
                on_b = Client(wb).request({"type": "join", "name": "bee", "seat": 1})
                on_a = Client(wa).request({"type": "join", "name": "ay", "seat": 1})
                assert on_b["type"] == "ack"
                assert on_a["code"] == "ROOM_MOVED"  # a's copy was stale: handed over
        with a.websocket_connect(f"/ws/{rid}") as wa:  # a reloads the room
            again = Client(wa).request({"type": "join", "name": "ay", "seat": 1})
            assert again["code"] == "SEAT_TAKEN"
        lobby = hub_of(a).store.load_room(rid)
        assert lobby is not None and [s["name"] for s in lobby.lobby["seats"]][:2] == [
            "host",
            "bee",
        ]


def _until(ok: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not ok():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_stale_watcher_cannot_set_a_finished_room_back(db_url: str) -> None:
    with _app(db_url) as a, _app(db_url) as b:
        rid, key = _room(a, bots=[None, "heuristic", "heuristic", "heuristic"], public=True)
        with a.websocket_connect(f"/ws/{rid}") as wa:
            player = Client(wa)
            player.request({"type": "join", "name": "p", "host_key": key})
            with b.websocket_connect(f"/ws/{rid}") as wb:  # b loads the room after the join
                watcher = Client(wb)
                joined = watcher.request({"type": "join", "name": "w", "spectate": True})
                assert joined["type"] == "ack"
                # a follows b's lobby write (what b's NOTIFY does on PostgreSQL)
                assert a.portal is not None
                a.portal.call(hub_of(a).remote_change, rid)
                _until(lambda: hub_of(a).rooms[rid].version == hub_of(b).rooms[rid].version)
                player.request({"type": "ready"})
                player.request({"type": "start"})
                play_to_end([player])
                assert _status(a, rid) == "finished"
                # b: its lobby copy is refused, and it says so before it closes
                assert watcher.request({"type": "chat", "text": "gg"})["code"] == "ROOM_MOVED"
                with pytest.raises(WebSocketDisconnect) as closed:
                    while True:
                        watcher.recv()
                assert closed.value.code == CLOSE_CODES["ROOM_MOVED"]
        assert _status(a, rid) == "finished"
        assert rid not in [r["id"] for r in a.get("/api/rooms").json()]


# -- 7. following another process never halts the one that plays ----------------------------


def test_a_lobby_change_elsewhere_does_not_halt_the_bots(db_url: str) -> None:
    # b's bots are slow here: only a plays while the test looks
    with _app(db_url, bot_delay=0.02) as a, _app(db_url, bot_delay=30) as b:
        rid, key = _room(a, bots=["heuristic"] * 4)
        with a.websocket_connect(f"/ws/{rid}") as wa:
            host = Client(wa)  # watches the four bots play on a
            host.request({"type": "join", "name": "p", "host_key": key, "spectate": True})
            assert host.request({"type": "start"})["type"] == "ack"
            room = hub_of(a).rooms[rid]
            with b.websocket_connect(f"/ws/{rid}") as wb:
                watcher = Client(wb)
                watcher.request({"type": "join", "name": "w", "spectate": True})
                assert watcher.request({"type": "chat", "text": "hello"})["type"] == "ack"
            assert a.portal is not None
            a.portal.call(hub_of(a).remote_change, rid)  # what b's NOTIFY does on PostgreSQL
            time.sleep(0.3)
            assert room.recorder is not None
            assert not room.following
            before = len(room.recorder.actions)
            time.sleep(0.5)
            assert len(room.recorder.actions) > before  # the bots go on
            assert any(line["text"] == "hello" for line in room.chat)


# -- 8. a damaged row is quarantined wherever it is read ---------------------------------------


def test_invalid_json_in_a_room_row_is_quarantined_everywhere(db_url: str) -> None:
    with _app(db_url) as http:
        good, _ = _room(http, public=True)
        bad, key = _room(http, public=True)
        with http.websocket_connect(f"/ws/{bad}") as w:
            token = Client(w).request({"type": "join", "name": "me", "host_key": key})["token"]
    with _app(db_url) as http:
        with hub_of(http).store.engine.begin() as conn:
            conn.execute(text("UPDATE rooms SET lobby = '{not json' WHERE id = :i"), {"i": bad})
        listed = http.get("/api/rooms")
        assert listed.status_code == 200
        assert [r["id"] for r in listed.json()] == [good]
        with http.websocket_connect(f"/ws/{bad}") as w:
            frame = json.loads(w.receive_text())
            assert frame["type"] == "error" and frame["code"] == "ROOM_UNAVAILABLE"
        hint = http.post(f"/api/rooms/{bad}/hint", headers={"Authorization": f"Bearer {token}"})
        assert hint.status_code == 503 and hint.json()["detail"]["code"] == "ROOM_UNAVAILABLE"
        review = http.get(f"/api/rooms/{bad}/review?seat=0&hand=0")
        assert review.status_code == 503
        assert review.json()["detail"]["code"] == "ROOM_UNAVAILABLE"
        assert http.get(f"/api/rooms/{bad}/record").status_code == 503
        assert _status(http, bad) == "quarantined"
        assert http.get(f"/api/rooms/{good}/replay").status_code == 403  # others served
        assert _unavailable(http.get(f"/api/rooms/{bad}"))


def _unavailable(r: Any) -> bool:
    return bool(r.status_code == 503 and r.json()["detail"]["code"] == "ROOM_UNAVAILABLE")


def test_a_room_set_aside_for_its_log_is_unavailable_everywhere(db_url: str) -> None:
    """A room whose row reads well but whose action log does not replay is set aside
    when it is loaded; then its summary, hint, review, record and replay all answer 503
    ROOM_UNAVAILABLE, as docs/server.md says (not 404, 409 or 403)."""
    with _app(db_url) as http:
        bad, key = _room(http, bots=[None, "heuristic", "heuristic", "heuristic"])
        with http.websocket_connect(f"/ws/{bad}") as w:
            c = Client(w)
            token = c.request({"type": "join", "name": "me", "host_key": key})["token"]
            c.request({"type": "ready"})
            c.request({"type": "start"})
            while not hub_of(http).store.load_actions(bad):  # a log to break
                sync(c)
                if c.view["to_act"] == 0:
                    c.request({"type": "act", "action": c.choose()})
    with _app(db_url) as http:
        with hub_of(http).store.engine.begin() as conn:
            conn.execute(
                text("UPDATE actions SET action = :a WHERE room_id = :i"),
                {"i": bad, "a": json.dumps({"type": "play", "cards": "BJ BJ BJ"})},
            )
        assert http.get(f"/api/rooms/{bad}").status_code == 200  # not loaded yet
        with http.websocket_connect(f"/ws/{bad}") as w:
            frame = json.loads(w.receive_text())
            assert frame["type"] == "error" and frame["code"] == "ROOM_UNAVAILABLE"
        assert _status(http, bad) == "quarantined"
        mine = {"Authorization": f"Bearer {token}"}
        assert _unavailable(http.get(f"/api/rooms/{bad}"))
        assert _unavailable(http.post(f"/api/rooms/{bad}/hint", headers=mine))
        assert _unavailable(http.get(f"/api/rooms/{bad}/review?seat=0&hand=0", headers=mine))
        assert _unavailable(http.get(f"/api/rooms/{bad}/record"))
        assert _unavailable(http.get(f"/api/rooms/{bad}/replay/views?seat=0"))


def test_room_reads_over_http_have_a_budget_per_address(db_url: str) -> None:
    limits = FAST_CLIENTS.with_overrides(["reads_burst=3", "reads_per_second=0.5"])
    with TestClient(create_app(db_url, bot_delay=0, limits=limits)) as http:
        rid, _ = _room(http)
        got = [http.get(f"/api/rooms/{rid}") for _ in range(4)]
        assert [r.status_code for r in got] == [200, 200, 200, 429]
        assert got[-1].json()["detail"]["code"] == "RATE_LIMITED"
        assert 1 <= int(got[-1].headers["retry-after"]) <= 2
        # every read of a room counts: its record, replays, review, hint
        assert http.get(f"/api/rooms/{rid}/record").status_code == 429


# -- 9. and 10. one-time host key, single-use request ids --------------------------------------


def test_the_host_key_works_once(http: TestClient) -> None:
    rid, key = _room(http)
    with http.websocket_connect(f"/ws/{rid}") as w1, http.websocket_connect(f"/ws/{rid}") as w2:
        host, sniper = Client(w1), Client(w2)
        assert host.request({"type": "join", "name": "h", "host_key": key})["host"] is True
        again = sniper.request({"type": "join", "name": "s", "host_key": key})
        assert again["code"] == "BAD_HOST_KEY"
        assert sniper.request({"type": "join", "name": "s"})["host"] is False
        sync(host)
        assert host.latest["room"]["host_seat"] == 0 and host.latest["you"]["host"] is True


def test_a_request_id_is_refused_after_many_commands(http: TestClient) -> None:
    rid, key = _room(http)
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        c.request({"type": "join", "name": "h", "host_key": key})
        first = c.send({"type": "ping"})
        c.drain_until(lambda m: m.get("id") == first)
        for _ in range(300):
            c.request({"type": "ping"})
        c.ws.send_text(json.dumps({"v": 1, "id": first, "rev": 0, "type": "ping"}))
        reply = c.drain_until(lambda m: m.get("id") == first)
        assert reply["code"] == "DUPLICATE_REQUEST"


def test_a_connection_that_used_its_request_ids_is_closed_after_the_answer(
    tmp_path: Path,
) -> None:
    limits = FAST_CLIENTS.with_overrides(["request_ids=20"])
    with _app(f"sqlite:///{tmp_path / 'ids.db'}", limits) as http:
        rid, key = _room(http)
        with http.websocket_connect(f"/ws/{rid}") as w:
            c = Client(w)
            c.request({"type": "join", "name": "h", "host_key": key})
            for _ in range(18):
                assert c.request({"type": "ping"})["type"] == "ack"
            last = c.request({"type": "ping"})  # the 20th id: answered, then closed
            assert last["type"] == "ack"
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    c.recv()
            assert closed.value.code == 4010


# -- capacity: a broadcast's spliced text is the state message ------------------------------


def test_a_broadcast_is_exactly_each_connections_state(http: TestClient) -> None:
    from shengji.server.room_settings import token_hash

    rid, key = _room(http)
    with ExitStack() as stack:
        people = [
            Client(stack.enter_context(http.websocket_connect(f"/ws/{rid}"))) for _ in range(4)
        ]
        watcher = Client(stack.enter_context(http.websocket_connect(f"/ws/{rid}")))
        people[0].request({"type": "join", "name": "h", "host_key": key})
        for i, c in enumerate(people[1:]):
            c.request({"type": "join", "name": f"p{i}"})
        watcher.request({"type": "join", "name": "w", "spectate": True})
        for c in people:
            c.request({"type": "ready"})
        people[0].request({"type": "start"})
        room = hub_of(http).rooms[rid]
        tricks_seen = False
        compared = 0
        for step in range(2000):  # dealing ("shows"), the kitty, up to a finished trick
            for c in [*people, watcher]:
                sync(c)
            actor = next((c for c in people if c.view["to_act"] == c.seat), people[0])
            tricks_seen = bool(actor.view["tricks"])
            if step % 10 == 0 or tricks_seen or actor.view["phase"] == "deal":
                conns = {c.token_hash: c for c in room.conns}
                for client in [*people, watcher]:
                    assert client.token is not None
                    conn = conns[token_hash(client.token)]
                    rev = room.rev
                    expected = json.loads(json.dumps(room.state_for(conn)))
                    got = dict(client.latest)
                    if room.rev != rev or got["rev"] != rev:
                        continue  # the deal moved on meanwhile (it deals by itself)
                    got["room"] = {k: v for k, v in got["room"].items() if k != "now"}
                    expected["room"].pop("now")
                    assert got == expected
                    compared += 1
            if tricks_seen:
                break
            if actor.view["to_act"] == actor.seat:
                actor.request({"type": "act", "action": actor.choose()})
        assert tricks_seen and compared >= 20


def test_sockets_arriving_together_share_one_copy_of_a_room(http: TestClient) -> None:
    """A room found or loaded is attached to its socket in the same step, so a socket
    arriving between a load and the first socket's attachment never reloads it (two
    copies of one room in one process would refuse each other's lobby writes)."""
    import asyncio

    rid, _ = _room(http)
    hub = hub_of(http)

    async def arrive() -> list[Any]:
        rooms = await asyncio.gather(*(hub.attach(rid) for _ in range(6)))
        later = await hub.attach(rid)
        return [*rooms, later]

    assert http.portal is not None
    rooms = http.portal.call(arrive)
    assert all(r is rooms[0] for r in rooms)
    assert rooms[0].attached == 7 and hub.rooms[rid] is rooms[0]
    rooms[0].attached = 0
