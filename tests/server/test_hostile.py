"""One client must never hurt the others: each attack of a hostile client, scripted,
with the coded error, the bounded memory or the untouched room it must meet."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from shengji.server.app import create_app
from shengji.server.connection import Connection
from shengji.server.limits import Limits
from shengji.server.room_settings import RoomSettings
from shengji.server.rooms import Room
from shengji.server.store import Store, StoreError

from .client import Client, hub_of, play_to_end, sync


def _app(db_url: str, **limits: Any) -> TestClient:
    return TestClient(create_app(db_url, bot_delay=0, deal_seconds=0, limits=Limits(**limits)))


@pytest.fixture
def strict(db_url: str) -> Iterator[TestClient]:
    """A server with small limits."""
    with _app(
        db_url,
        spectators_per_room=2,
        chat_burst=3,
        chat_per_second=0.01,
        commands_burst=40,
        commands_per_second=0.01,
        rooms_burst=3,
        rooms_per_hour=0.01,
        connections_per_ip=6,
        chat_bytes=30,
        name_bytes=12,
    ) as http:
        yield http


def _room(http: TestClient, **body: Any) -> tuple[str, str]:
    r = http.post("/api/rooms", json={"preset": "classic-1deck", **body})
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["host_key"]


def _raw(c: Client, text_: str) -> dict[str, Any]:
    c.ws.send_text(text_)
    while True:
        msg = c.recv()
        if msg["type"] == "error":
            return msg


# -- 3. a client that does not read --------------------------------------------------------


def test_a_client_that_does_not_read_is_dropped_and_never_blocks_the_room(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'q.db'}")
        room = Room("r" * 32, RoomSettings(preset="classic-1deck"), store, Limits(send_queue=8))
        reader, stuck = Connection("a", room.limits), Connection("b", room.limits)
        got: list[str] = []

        async def send(text_: str) -> None:
            got.append(text_)

        async def never(text_: str) -> None:
            await asyncio.Event().wait()  # a socket whose peer never reads

        async def close(code: int) -> None:
            got.append(f"closed {code}")

        tasks = [
            asyncio.create_task(reader.pump(send, close)),
            asyncio.create_task(stuck.pump(never, close)),
        ]
        for c in (reader, stuck):
            c.token_hash, c.joined = c.peer, True
            room.conns.add(c)
        for _ in range(50):
            room.broadcast()  # never awaits a client
            await asyncio.sleep(0)
        assert stuck.dropped == "SLOW_CONSUMER" and stuck not in room.conns
        assert len(stuck.outbox) == 0  # its memory is released
        assert sum(1 for g in got if g.startswith("{")) == 50  # the reader got every state
        await asyncio.sleep(0.01)
        for t in tasks:
            t.cancel()
        store.close()

    asyncio.run(scenario())


def test_held_messages_leave_together_in_order_or_queue_behind_a_full_socket() -> None:
    async def scenario() -> None:
        writes: list[tuple[str, ...]] = []
        open_ = [True]

        def write_now(*texts: str) -> bool:
            if open_[0]:
                writes.append(texts)
            return open_[0]

        conn = Connection("a", Limits(send_queue=8), write_now=write_now)
        conn.push("1")
        conn.hold()
        conn.push("2")
        conn.push("3")
        assert writes == [("1",)]
        conn.release()
        assert writes == [("1",), ("2", "3")]
        conn.release()  # nothing held: nothing written
        open_[0] = False  # flow control holds the socket back: queued, in order
        conn.hold()
        conn.push("4")
        conn.push("5")
        conn.release()
        assert list(conn.outbox) == ["4", "5"] and len(writes) == 2

    asyncio.run(scenario())


# -- 4. limits -----------------------------------------------------------------------------


def test_message_size_counts_bytes_and_deep_json_is_refused(http: TestClient) -> None:
    rid, key = _room(http)
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        c.request({"type": "join", "name": "x", "host_key": key})
        chat = json.dumps(
            {"v": 1, "id": "big", "type": "chat", "text": "字" * 6000}, ensure_ascii=False
        )
        assert len(chat) < 16_384 < len(chat.encode())
        assert _raw(c, chat)["code"] == "MESSAGE_TOO_LARGE"
        deep = '{"v":1,"id":"d","type":"chat","text":' + "[" * 8000 + "]" * 8000 + "}"
        assert _raw(c, deep)["code"] == "BAD_MESSAGE"
        assert c.request({"type": "chat", "text": "still here"})["type"] == "ack"


def test_names_chat_spectators_and_rates_are_capped(strict: TestClient) -> None:
    rid, key = _room(strict)
    with strict.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        assert c.request({"type": "join", "name": "名" * 5})["code"] == "NAME_TOO_LONG"
        assert c.request({"type": "join", "name": "host", "host_key": key})["type"] == "ack"
        assert c.request({"type": "chat", "text": "长" * 11})["code"] == "CHAT_TOO_LONG"
        replies = [c.request({"type": "chat", "text": f"hi {i}"}) for i in range(5)]
        assert [r["type"] for r in replies] == ["ack"] * 3 + ["error"] * 2
        assert replies[-1]["code"] == "RATE_LIMITED"
        sync(c)
        assert [line["text"] for line in c.chat] == ["hi 0", "hi 1", "hi 2"]
        assert "chat" not in c.latest  # chat is its own message, not a table resend
        with ExitStack() as stack:  # the cap counts spectators connected at once
            codes = []
            for _ in range(3):
                ws = stack.enter_context(strict.websocket_connect(f"/ws/{rid}"))
                codes.append(Client(ws).request({"type": "join", "spectate": True})["type"])
            assert codes == ["ack", "ack", "error"]
        for _ in range(40):
            reply = c.request({"type": "ready", "ready": True})
        assert reply["code"] == "RATE_LIMITED"


def test_too_long_has_one_code_and_names_hold_no_control_characters(http: TestClient) -> None:
    rid, key = _room(http)
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        # too many characters or too many bytes: the same code, for names and for chat
        for name in ("a" * 33, "😀" * 25):
            assert c.request({"type": "join", "name": name})["code"] == "NAME_TOO_LONG"
        for name in ("a\u202eb", "nul\x00", "bell\x07", "zero\u200bwidth", "a\u2028b", "\ue000"):
            reply = c.request({"type": "join", "name": name})
            assert reply["code"] == "BAD_NAME", name
            assert reply["text"]["en"] and reply["text"]["zh"]
        assert c.request({"type": "join", "name": "名" * 32, "host_key": key})["type"] == "ack"
        for text_ in ("a" * 501, "😀" * 400):
            assert c.request({"type": "chat", "text": text_})["code"] == "CHAT_TOO_LONG"
        assert c.request({"type": "chat", "text": "字" * 500})["type"] == "ack"
        sync(c)
        assert c.latest["room"]["seats"][0]["name"] == "名" * 32


def test_a_fault_in_one_command_is_answered_and_the_socket_stays(
    http: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    rid, key = _room(http)

    def broken(*args: Any) -> Any:
        raise ValueError("a bug")

    monkeypatch.setattr(Room, "_check", broken)
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        c.request({"type": "join", "name": "x", "host_key": key})
        reply = c.request({"type": "check", "action": {"type": "pass"}})
        assert reply["code"] == "INTERNAL_ERROR" and reply["text"]["zh"]
        assert c.request({"type": "ping"})["type"] == "ack"


def test_room_creation_and_connections_per_address_are_limited(strict: TestClient) -> None:
    made = [strict.post("/api/rooms", json={}) for _ in range(5)]
    assert [r.status_code for r in made] == [200, 200, 200, 429, 429]
    assert made[-1].json()["detail"]["code"] == "TOO_MANY_ROOMS"
    # rooms_per_hour=0.01: the next room in 100 hours, and the answer says when
    assert int(made[-1].headers["retry-after"]) > 3600
    rid = made[0].json()["id"]
    with ExitStack() as stack:
        for _ in range(6):
            stack.enter_context(strict.websocket_connect(f"/ws/{rid}"))
        with strict.websocket_connect(f"/ws/{rid}") as extra:
            assert json.loads(extra.receive_text())["code"] == "RATE_LIMITED"


# -- 5. rooms are paused, unloaded and loaded on demand -----------------------------------


def test_an_absent_lone_person_pauses_the_room_after_the_hand(http: TestClient) -> None:
    rid, key = _room(http, away_seconds=0.05, bots=[None, "heuristic", "heuristic", "heuristic"])
    hub = hub_of(http)
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        token = c.request({"type": "join", "name": "solo", "host_key": key})["token"]
        c.request({"type": "ready"})
        c.request({"type": "start"})
    room = hub.rooms[rid]
    assert room.state is not None  # started
    deadline = time.time() + 30
    while time.time() < deadline and room.state.phase != "hand_over":
        time.sleep(0.05)
    time.sleep(0.5)  # bots must not press "next hand" for the absent person
    assert room.state.phase == "hand_over" and room.state.hand_number == 0
    assert room.public()["paused"] is True
    room.last_active -= 10_000
    assert hub.sweep() == 1 and rid not in hub.rooms  # unloaded from memory
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        assert c.request({"type": "join", "token": token})["seat"] == 0  # loaded on demand
        sync(c)
        assert c.view["phase"] == "hand_over"
        assert c.latest["room"]["waiting"] == [0] and c.latest["room"]["deadlines"][0]
        c.request({"type": "act", "action": {"type": "continue"}})
        sync(c)
        assert c.view["hand_number"] == 1


def test_next_hand_waits_for_every_connected_person(http: TestClient) -> None:
    rid, key = _room(http, bots=[None, "heuristic", None, "heuristic"])
    with http.websocket_connect(f"/ws/{rid}") as w0, http.websocket_connect(f"/ws/{rid}") as w2:
        a, b = Client(w0), Client(w2)
        a.request({"type": "join", "name": "ann", "seat": 0, "host_key": key})
        b.request({"type": "join", "name": "bob", "seat": 2})
        for c in (a, b):
            c.request({"type": "ready"})
        a.request({"type": "start"})
        play_to_end([a, b], until="hand_over")
        sync(a)
        assert a.latest["room"]["waiting"] == [0, 2]
        assert a.request({"type": "act", "action": {"type": "continue"}})["waiting"] == [2]
        sync(b)
        assert b.view["phase"] == "hand_over" and b.latest["room"]["waiting"] == [2]
        b.request({"type": "act", "action": {"type": "continue"}})
        sync(a)
        assert a.view["hand_number"] == 1 and a.latest["room"]["waiting"] == []


def test_turn_deadline_is_in_the_state_that_starts_the_turn(http: TestClient) -> None:
    rid, key = _room(http, turn_seconds=30, bots=[None, "heuristic", "heuristic", "heuristic"])
    with http.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        c.request({"type": "join", "name": "me", "host_key": key})
        c.request({"type": "ready"})
        c.request({"type": "start"})
        play_to_end([c], until="play")
        for _ in range(200):
            sync(c)
            if c.view["to_act"] == 0:
                break
            time.sleep(0.01)
        room = c.latest["room"]
        assert room["deadlines"][0] is not None and room["deadlines"][1:] == [None] * 3
        assert 0 < room["deadlines"][0] - room["now"] <= 30


# -- 6. host sniping -----------------------------------------------------------------------


def test_the_first_joiner_is_not_the_host_and_rooms_are_unlisted(http: TestClient) -> None:
    rid, key = _room(http)
    assert http.get("/api/rooms").json() == []
    with http.websocket_connect(f"/ws/{rid}") as w0, http.websocket_connect(f"/ws/{rid}") as w1:
        sniper, host = Client(w0), Client(w1)
        assert sniper.request({"type": "join", "name": "sniper"})["host"] is False
        assert sniper.request({"type": "start"})["code"] == "NOT_HOST"
        bad = host.request({"type": "join", "name": "h", "host_key": "guess"})
        assert bad["code"] == "BAD_HOST_KEY"
        assert host.request({"type": "join", "name": "h", "host_key": key})["host"] is True
        assert sniper.request({"type": "set_public", "public": True})["code"] == "NOT_HOST"
        assert host.request({"type": "set_public", "public": True})["type"] == "ack"
    assert [r["id"] for r in http.get("/api/rooms").json()] == [rid]


# -- 7. database faults ----------------------------------------------------------------------


def test_a_failing_database_changes_nothing_and_the_bots_survive(
    http: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    rid, key = _room(http, bots=[None, None, "heuristic", "heuristic"])
    store = hub_of(http).store

    def down(*args: Any, **kwargs: Any) -> None:
        raise StoreError("disk full")

    with http.websocket_connect(f"/ws/{rid}") as w, http.websocket_connect(f"/ws/{rid}") as w2:
        c, other = Client(w), Client(w2)
        c.request({"type": "join", "name": "me", "host_key": key})
        room = hub_of(http).rooms[rid]
        monkeypatch.setattr(store, "save_room", down)
        assert other.request({"type": "join", "name": "ghost"})["code"] == "STORE_UNAVAILABLE"
        assert [s.kind for s in room.seats] == ["human", "empty", "bot", "bot"]  # no ghost
        assert c.request({"type": "chat", "text": "lost?"})["code"] == "STORE_UNAVAILABLE"
        assert room.chat == []  # no ghost line
        monkeypatch.undo()
        c.request({"type": "set_bot", "seat": 1})
        c.request({"type": "ready"})
        c.request({"type": "start"})
        play_to_end([c], until="play")
        calls = {"n": 0}
        real = store.append_actions

        def flaky(*args: Any, **kwargs: Any) -> None:
            calls["n"] += 1
            if calls["n"] <= 3:
                raise StoreError("restarting")
            real(*args, **kwargs)

        monkeypatch.setattr(store, "append_actions", flaky)
        assert room.recorder is not None  # started
        done, codes = len(room.recorder.actions), []
        deadline = time.time() + 30  # the bot driver retries with back-off, then goes on
        while time.time() < deadline and len(room.recorder.actions) < done + 8:
            sync(c)
            view = c.view
            if view["to_act"] == 0 and view["phase"] == "play":
                before = room.state
                reply = c.request({"type": "act", "action": c.choose()})
                codes.append(reply.get("code"))
                if reply["type"] == "error":
                    assert room.state is before  # nothing half-applied
            time.sleep(0.02)
        assert calls["n"] > 3 and len(room.recorder.actions) >= done + 8
        assert set(codes) <= {None, "STORE_UNAVAILABLE", "STALE_REVISION"}


def test_a_corrupt_room_is_quarantined_and_the_others_are_served(db_url: str) -> None:
    with _app(db_url) as http:
        good, _ = _room(http)
        bad, _ = _room(http)
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE rooms SET lobby = '{\"seats\": 3}' WHERE id = :i"), {"i": bad})
    store.close()
    with _app(db_url) as http:  # starts despite the corrupt row
        with http.websocket_connect(f"/ws/{bad}") as w:
            assert json.loads(w.receive_text())["code"] == "ROOM_UNAVAILABLE"
        with http.websocket_connect(f"/ws/{good}") as w:
            assert Client(w).request({"type": "join", "name": "ok"})["type"] == "ack"
        with hub_of(http).store.engine.connect() as conn:
            status = conn.execute(text("SELECT status FROM rooms WHERE id = :i"), {"i": bad})
            assert status.scalar() == "quarantined"


# -- 8. refused creation, docs, headers ---------------------------------------------------


def test_an_older_database_loses_only_its_redundant_action_index(tmp_path: Path) -> None:
    """The action log is read by its unique (room_id, seq) index: a database made with
    a second index of room_id alone (one more page written per action) has it dropped
    at start, and its actions read as before."""
    from sqlalchemy import inspect

    from shengji.server.store import ActionWrite

    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store(url)
    store.save_room("r" * 32, "playing", {"preset": "classic-1deck"}, {"seats": []})
    with store.engine.begin() as conn:
        conn.execute(text("CREATE INDEX ix_actions_room_id ON actions (room_id)"))
    store.append_actions([ActionWrite("r" * 32, i, i % 4, {"type": "pass"}) for i in (1, 0, 2)])
    store.close()
    store = Store(url)
    indexes = inspect(store.engine).get_indexes("actions")
    assert "ix_actions_room_id" not in {i["name"] for i in indexes}
    assert store.load_actions("r" * 32) == [(i % 4, {"type": "pass"}) for i in (0, 1, 2)]
    with store.engine.connect() as conn:
        plan = conn.exec_driver_sql(
            "EXPLAIN QUERY PLAN SELECT * FROM actions WHERE room_id = 'x' ORDER BY seq"
        ).all()
    assert "USING INDEX sqlite_autoindex_actions" in str(plan)
    store.close()


def test_a_refused_creation_makes_no_room(http: TestClient) -> None:
    hub = hub_of(http)
    r = http.post("/api/rooms", json={"bots": [None, "grandmaster"]})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "UNKNOWN_BOT"
    r = http.post("/api/rooms", json={"preset": "nope"})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "UNKNOWN_PRESET"
    assert hub.rooms == {}
    with hub.store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM rooms")).scalar() == 0


def test_no_api_docs_and_security_headers(http: TestClient) -> None:
    assert http.get("/docs").status_code == 404
    assert http.get("/openapi.json").status_code == 404
    page = http.get("/")
    csp = page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    assert http.get("/favicon.ico").status_code in (200, 204)
