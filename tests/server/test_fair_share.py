"""No address group can take the event loop (issue 39): limits count an IPv4 address or
an IPv6 /64, every address's frames are read at its fair share (the rest wait unread),
and the process caps its connections. The figures under a thousand hostile sockets are
``shengji loadtest --flood 1000`` (docs/server.md); these tests keep the mechanisms."""

from __future__ import annotations

import asyncio
import json
import re
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from shengji.server.app import create_app
from shengji.server.hub import Hub
from shengji.server.launch import ServerProcess
from shengji.server.limits import FairShare, Limits, address_group
from shengji.server.store import Store
from shengji.tools.flood import run_flood

from .client import Client
from .test_restart import _Sock

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="other loopback addresses than 127.0.0.1"
)


def test_an_address_group_is_an_ipv4_address_or_an_ipv6_64() -> None:
    assert address_group("203.0.113.9") == "203.0.113.9"
    assert address_group("2001:db8:1:2:aaaa::1") == address_group("2001:db8:1:2:ffff::9")
    assert address_group("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_group("2001:db8:1:3::1") != address_group("2001:db8:1:2::1")
    assert address_group("::ffff:203.0.113.9") == "203.0.113.9"
    assert address_group("fe80::1%eth0") == "fe80::/64"
    assert address_group("testclient") == "testclient"


def test_one_ipv6_64_is_one_address_for_the_connection_cap(tmp_path: Path) -> None:
    hub = Hub(Store(f"sqlite:///{tmp_path / 'h.db'}"), limits=Limits(connections_per_ip=2))
    try:
        peers = [address_group(f"2001:db8::{i:x}") for i in range(1, 4)]
        assert [hub.connect(p) for p in peers] == [None, None, "RATE_LIMITED"]
        assert hub.connect(address_group("2001:db8:0:1::1")) is None  # another /64
        hub.disconnect(peers[0])
        assert hub.connect(peers[2]) is None
    finally:
        hub.writer.close()
        hub.store.close()


def test_a_fair_share_lets_waiters_go_in_turn() -> None:
    async def scenario() -> list[int]:
        share = FairShare(rate=50, burst=3)
        order: list[int] = []

        async def frame(i: int) -> None:
            await share.take()
            order.append(i)

        t0 = time.monotonic()
        tasks = [asyncio.create_task(frame(i)) for i in range(8)]
        await asyncio.sleep(0)
        assert order == [0, 1, 2]  # the burst at once, the rest wait in turn
        tasks[4].cancel()  # a connection that closes while it waits is skipped
        await asyncio.gather(*tasks, return_exceptions=True)
        # five more tokens at 50 a second: about 0.1 s, and never all at once
        assert time.monotonic() - t0 >= 0.08
        assert not share.waiters and share._timer is None
        return order

    assert asyncio.run(scenario()) == [0, 1, 2, 3, 5, 6, 7]


def test_the_process_caps_its_connections(db_url: str) -> None:
    limits = Limits(connections_per_process=2)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits)) as http:
        rid = http.post("/api/rooms", json={"preset": "classic-1deck"}).json()["id"]
        with (
            http.websocket_connect(f"/ws/{rid}"),
            http.websocket_connect(f"/ws/{rid}"),
            http.websocket_connect(f"/ws/{rid}") as third,
        ):
            refused = json.loads(third.receive_text())
            assert refused["code"] == "SERVER_FULL" and refused["text"]["zh"]
        with http.websocket_connect(f"/ws/{rid}") as ws:  # the others closed: room again
            assert Client(ws).request({"type": "ping"})["type"] == "ack"


def _flood(port: int, room: str, source: str, frames: int, answers: list[int]) -> None:
    """One socket from ``source`` that sends ``frames`` pings without waiting, and
    counts the answers it gets within 3 s."""
    with connect(f"ws://127.0.0.1:{port}/ws/{room}", source_address=(source, 0)) as ws:
        for i in range(frames):
            ws.send(json.dumps({"v": 1, "id": f"f{i}", "type": "ping"}))
        deadline = time.monotonic() + 3
        try:
            while time.monotonic() < deadline:
                ws.recv(timeout=max(0.01, deadline - time.monotonic()))
                answers.append(1)
        except TimeoutError:
            pass


@linux_only
def test_a_flooding_address_gets_its_share_and_another_is_served(tmp_path: Path) -> None:
    srv = ServerProcess(
        f"sqlite:///{tmp_path / 'f.db'}",
        ("ip_commands_per_second=20", "ip_commands_burst=20", "commands_burst=100000"),
    )
    try:
        req = json.dumps({"preset": "classic-1deck"}).encode()
        made = urllib.request.Request(
            f"{srv.url}/api/rooms", req, {"Content-Type": "application/json"}
        )
        rid = json.loads(urllib.request.urlopen(made, timeout=10).read())["id"]
        answers: list[int] = []
        t0 = time.monotonic()
        flood = [
            threading.Thread(target=_flood, args=(srv.port, rid, "127.0.0.2", 200, answers))
            for _ in range(6)
        ]
        for t in flood:
            t.start()
        # meanwhile another address is answered, every time
        other = _Sock(f"ws://127.0.0.1:{srv.port}/ws/{rid}")
        other.ws.close()
        other.ws = connect(f"ws://127.0.0.1:{srv.port}/ws/{rid}", source_address=("127.0.0.3", 0))
        c = Client(other)
        assert all(c.request({"type": "ping"})["type"] == "ack" for _ in range(15))
        other.close()
        for t in flood:
            t.join(30)
        elapsed = time.monotonic() - t0
        # 1,200 pings sent; the address is read at 20 a second (and a burst of 20)
        assert 20 <= len(answers) <= 20 + 20 * elapsed + 5, (len(answers), elapsed)
    finally:
        srv.kill()


@linux_only
def test_the_flood_check_reports_the_innocent_players_pings() -> None:
    lines = run_flood(sockets=24, addresses=3, duration=2.0, warmup=2.0)
    figures = dict(line.split(": ", 1) for line in lines)
    assert figures["hostile sockets"].startswith("24 from 3 addresses")
    assert int(figures["innocent pings"]) > 0
    assert re.fullmatch(r"[\d.]+ ms", figures["innocent ping p99"])
    sent = int(figures["hostile frames sent"].split(",")[0])
    answered = int(figures["hostile frames sent"].rsplit(" ", 1)[1].removesuffix("/s"))
    # three addresses at their default share (100 frames a second each, a burst of 300),
    # besides the tables the sockets watch
    assert sent > 1000 and answered <= 3 * 100 + 3 * 300 / 2 + 100, lines
