"""Promises of docs/server.md that no other test keeps (issue 39): the hint queue (one
per address, ``HINT_BUSY`` with ``Retry-After``, answers kept per table position), full
garbage collections every ``full_gc_seconds``, keep-alive pings spread over their
interval, a failed write batch retried one action at a time, a match's last action and
its record in one transaction, and rooms unloaded after ``idle_seconds``."""

from __future__ import annotations

import asyncio
import gc
import http.client
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from sqlalchemy import text

from shengji.server.app import create_app
from shengji.server.hub import Hub
from shengji.server.launch import free_port
from shengji.server.limits import Limits
from shengji.server.room_settings import RoomSettings
from shengji.server.rooms import Room
from shengji.server.serving import protocols
from shengji.server.store import ActionWrite, GroupWriter, Store, StoreError

from .client import Client
from .conftest import FAST_CLIENTS
from .test_fair_share import linux_only
from .test_restart import _Sock

DOC = Path(__file__).parents[2] / "docs" / "server.md"


class Live:
    """The app served by uvicorn with the server's own protocols, in a thread of this
    process (so that a test can reach into it), on a free loopback port."""

    def __init__(self, app: FastAPI, limits: Limits, **config: Any) -> None:
        http_, ws = protocols(limits)
        self.app = app
        self.port = free_port()
        cfg = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, http=http_, ws=ws, log_level="warning", **config
        )
        self.server = uvicorn.Server(cfg)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def request(
        self, method: str, path: str, body: Any = None, token: str = "", source: str = "127.0.0.1"
    ) -> tuple[int, dict[str, str], Any]:
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=60, source_address=(source, 0)
        )
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            conn.request(method, path, None if body is None else json.dumps(body), headers)
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, json.loads(r.read())
        finally:
            conn.close()

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Any]:
    started: list[Live] = []

    def start(limits: Limits, **config: Any) -> Live:
        app = create_app(
            f"sqlite:///{tmp_path / f'l{len(started)}.db'}", bot_delay=0, limits=limits
        )
        started.append(Live(app, limits, **config))
        return started[-1]

    yield start
    for srv in started:
        srv.close()


def _until(ok: Any, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not ok():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def _my_turn_room(srv: Live) -> tuple[str, str, Client]:
    """A started room of one person and three bots, at the person's turn: (id, token)."""
    status, _, made = srv.request(
        "POST", "/api/rooms", {"preset": "classic-1deck", "bots": [None, *["heuristic"] * 3]}
    )
    assert status == 200, made
    c = Client(_Sock(f"ws://127.0.0.1:{srv.port}/ws/{made['id']}"))
    token = c.request({"type": "join", "name": "ann", "host_key": made["host_key"]})["token"]
    c.request({"type": "ready"})
    c.request({"type": "start"})
    while not (c.state and c.state.get("view") and c.view["to_act"] == 0):
        c.recv()
    return made["id"], token, c


# -- hints ---------------------------------------------------------------------------------


@linux_only
def test_hints_wait_in_a_bounded_queue_one_per_address_and_are_kept_per_position(
    live: Any,
) -> None:
    srv = live(FAST_CLIENTS.with_overrides(["hint_queue=2"]))
    adviser = srv.app.state.adviser
    gate = threading.Event()
    calls: list[int] = []

    def job(view: Any, seat: int, hand: int, ms: int) -> dict[str, Any]:
        calls.append(seat)
        gate.wait(30)
        return {"action": {"type": "pass"}, "text": {"en": "wait", "zh": "等"}}

    adviser.job = job
    adviser.make_executor = lambda: ThreadPoolExecutor(2)
    rooms = [_my_turn_room(srv) for _ in range(3)]
    (r1, t1, _), (r2, t2, _), (r3, t3, _) = rooms
    answers: dict[str, Any] = {}

    def ask(key: str, room: str, token: str, source: str) -> None:
        answers[key] = srv.request("POST", f"/api/rooms/{room}/hint", token=token, source=source)

    first = threading.Thread(target=ask, args=("a1", r1, t1, "127.0.0.2"))
    first.start()
    _until(lambda: len(adviser.pending) == 1, "the first hint never started")
    # the same address again, for another table: one at a time per address
    status, headers, body = srv.request(
        "POST", f"/api/rooms/{r2}/hint", token=t2, source="127.0.0.2"
    )
    assert (status, body["detail"]["code"]) == (503, "HINT_BUSY") and headers["retry-after"] == "2"
    assert body["detail"]["text"]["zh"]
    second = threading.Thread(target=ask, args=("b", r2, t2, "127.0.0.3"))
    second.start()
    _until(lambda: len(adviser.pending) == 2, "the second hint never started")
    # the queue (hint_queue=2) is full: a third address is refused too
    status, headers, body = srv.request(
        "POST", f"/api/rooms/{r3}/hint", token=t3, source="127.0.0.4"
    )
    assert (status, body["detail"]["code"]) == (503, "HINT_BUSY") and headers["retry-after"] == "2"
    gate.set()
    first.join(30)
    second.join(30)
    assert answers["a1"][0] == answers["b"][0] == 200
    assert len(calls) == 2
    # the same table position again: the kept answer, no search
    status, _, body = srv.request("POST", f"/api/rooms/{r1}/hint", token=t1, source="127.0.0.4")
    assert status == 200 and body["action"] == {"type": "pass"} and len(calls) == 2
    for _, _, c in rooms:
        c.ws.close()


# -- keep-alive pings ----------------------------------------------------------------------


def _first_ping(port: int, room: str, out: list[float], t0: float) -> None:
    """Open a WebSocket by hand and note when the server's first ping frame comes."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(
            f"GET /ws/{room} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        data = b""
        while b"\r\n\r\n" not in data:
            data += s.recv(4096)
        data = data.partition(b"\r\n\r\n")[2]
        while True:
            while len(data) < 2:
                data += s.recv(4096)
            opcode, length = data[0] & 0x0F, data[1] & 0x7F
            if opcode == 0x9:  # ping
                out.append(time.monotonic() - t0)
                return
            while len(data) < 2 + length:
                data += s.recv(4096)
            data = data[2 + length :]


def test_keepalive_pings_of_connections_made_together_are_spread(live: Any) -> None:
    srv = live(Limits(), ws_ping_interval=3.0, ws_ping_timeout=30.0)
    status, _, made = srv.request("POST", "/api/rooms", {"preset": "classic-1deck"})
    firsts: list[float] = []
    t0 = time.monotonic()
    threads = [
        threading.Thread(target=_first_ping, args=(srv.port, made["id"], firsts, t0))
        for _ in range(12)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(firsts) == 12
    # each waits a random part of the interval before its first ping: never all at once
    # (12 uniform draws in 3 s all within 0.5 s of each other: chance about 1e-8)
    assert max(firsts) - min(firsts) > 0.5, firsts
    assert max(firsts) < 3.0 + 3.0 + 10  # within the interval and the first ping's wait


# -- full garbage collections ---------------------------------------------------------------


def test_full_collections_come_every_full_gc_seconds_and_the_collector_is_off_between(
    tmp_path: Path,
) -> None:
    full: list[float] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 2:
            full.append(time.monotonic())

    async def scenario() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'gc.db'}"), limits=Limits(full_gc_seconds=1.0))
        gc.callbacks.append(note)
        try:
            hub.start()
            await asyncio.sleep(0)
            start = time.monotonic()
            while len(full) < 2:
                assert time.monotonic() - start < 60, "no full collections"
                await asyncio.sleep(0.05)
                assert not gc.isenabled()  # the automatic collector stays off between
            assert full[1] - full[0] >= 0.9  # one each full_gc_seconds, not more often
        finally:
            gc.callbacks.remove(note)
            hub.stop()
            hub.store.close()
        assert gc.isenabled()  # given back when the hub stops

    asyncio.run(scenario())


# -- the writer ------------------------------------------------------------------------------


class _PickyStore(Store):
    """A store that refuses any commit holding an action of room "bad"."""

    batches: list[list[str]]

    def append_actions(self, writes: Any) -> None:
        self.batches.append([w.room_id for w in writes])
        if any(w.room_id == "bad" for w in writes):
            raise StoreError("refused")
        super().append_actions(writes)


def test_a_failed_batch_is_retried_one_action_at_a_time(tmp_path: Path) -> None:
    store = _PickyStore(f"sqlite:///{tmp_path / 'w.db'}")
    store.batches = []
    for room in ("r1", "r2", "bad"):
        store.save_room(room, "playing", {"preset": "classic-1deck"}, {"seats": []})
    writer = GroupWriter(store)

    async def scenario() -> list[Any]:
        writes = [ActionWrite(room, 0, 0, {"type": "pass"}) for room in ("r1", "bad", "r2")]
        return await asyncio.gather(*(writer.write(w) for w in writes), return_exceptions=True)

    try:
        done = asyncio.run(scenario())
        assert done[0] is None and done[2] is None and isinstance(done[1], StoreError)
        # one commit for the three, refused; then each alone: one room's fault stays its own
        assert store.batches == [["r1", "bad", "r2"], ["r1"], ["bad"], ["r2"]]
        assert [store.room_mark(r) for r in ("r1", "r2", "bad")] == [(0, 1), (0, 1), (0, 0)]
    finally:
        writer.close()
        store.close()


def test_a_matchs_last_action_and_its_record_are_one_transaction(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    seats = {"seats": [{"kind": "bot", "name": "b"}] * 4}
    store.save_room("m", "playing", {"preset": "classic-1deck"}, seats)
    store.append_actions([ActionWrite("m", 0, 0, {"type": "pass"})])
    last = ActionWrite("m", 1, 0, {"type": "play"}, status="finished", record={"r": 1})
    with store.engine.begin() as conn:  # the record's insert fails
        conn.execute(
            text(
                "CREATE TRIGGER no_records BEFORE INSERT ON records "
                "BEGIN SELECT RAISE(ABORT, 'full'); END"
            )
        )
    with pytest.raises(StoreError):
        store.append_actions([last])
    # neither the action nor the room's new status was kept without the record
    assert store.room_mark("m") == (0, 1) and store.load_record("m") is None
    row = store.load_room("m")
    assert row is not None and row.status == "playing"
    with store.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER no_records"))
    store.append_actions([last])
    row = store.load_room("m")
    assert store.room_mark("m") == (0, 2) and store.load_record("m") == {"r": 1}
    assert row is not None and row.status == "finished"
    store.close()


# -- rooms in memory ------------------------------------------------------------------------


def test_a_room_nobody_uses_is_unloaded_after_idle_seconds(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'i.db'}")
        hub = Hub(store)  # the default limits: idle_seconds is 120
        try:
            room, _ = await hub.create(RoomSettings(preset="classic-1deck"))
            assert isinstance(room, Room)
            room.last_active = time.monotonic() - 119
            assert hub.sweep() == 0 and room.id in hub.rooms
            room.last_active = time.monotonic() - 121
            assert hub.sweep() == 1 and room.id not in hub.rooms
        finally:
            hub.writer.close()
            store.close()

    assert Limits().idle_seconds == 120
    asyncio.run(scenario())


def test_every_limit_has_its_documented_default() -> None:
    """The limits table of docs/server.md names every limit with its default."""
    doc = DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)? \| ([\d.]+)(?:, ([\d.]+))? \|", doc, re.M)
    documented = {}
    for a, b, va, vb in rows:
        documented[a] = float(va)
        if b:
            documented[b] = float(vb)
    defaults = {f.name: float(getattr(Limits(), f.name)) for f in fields(Limits)}
    assert documented == defaults
