"""The same server code path on PostgreSQL: set SHENGJI_TEST_PG to a database URL
(e.g. postgresql+psycopg://user:pass@127.0.0.1/db) to run it; skipped otherwise."""

from __future__ import annotations

import os
import time

import pytest
from fastapi.testclient import TestClient

from shengji.game.record import verify
from shengji.server.app import create_app
from shengji.server.launch import ServerProcess

from .client import Client, play_to_end, sync

PG = os.environ.get("SHENGJI_TEST_PG")


@pytest.mark.skipif(not PG, reason="SHENGJI_TEST_PG is not set: no PostgreSQL to test against")
def test_a_match_on_postgresql_survives_a_restart() -> None:
    assert PG is not None
    with TestClient(create_app(PG, bot_delay=0, deal_seconds=0)) as http:
        made = http.post(
            "/api/rooms",
            json={
                "preset": "classic-1deck",
                "overrides": {"match_hands": 1},
                "bots": [None, "heuristic", "heuristic", "heuristic"],
            },
        ).json()
        rid = made["id"]
        with http.websocket_connect(f"/ws/{rid}") as w:
            c = Client(w)
            c.request({"type": "join", "name": "pg", "host_key": made["host_key"]})
            c.request({"type": "ready"})
            c.request({"type": "start"})
            play_to_end([c], until="play")
            token = c.token
    with TestClient(
        create_app(PG, bot_delay=0, deal_seconds=0)
    ) as http:  # a new server on the same database
        with http.websocket_connect(f"/ws/{rid}") as w:
            c = Client(w)
            assert c.request({"type": "join", "token": token})["seat"] == 0
            play_to_end([c])
        assert verify(http.get(f"/api/rooms/{rid}/record").json()).phase == "match_over"


@pytest.mark.skipif(not PG, reason="SHENGJI_TEST_PG is not set: no PostgreSQL to test against")
def test_a_spectator_elsewhere_never_halts_the_bots() -> None:
    """Four bots play on process A, watched there; a spectator on B (this process) joins
    and chats. B's NOTIFY makes A read the room again, and A's bots go on: only another
    process's *actions* make a process a follower."""
    from .test_processes import _post
    from .test_restart import _Sock

    assert PG is not None
    a_proc = ServerProcess(PG, ("commands_burst=1000000",))
    try:
        made = _post(
            a_proc.port,
            {
                "preset": "classic-1deck",
                "overrides": {"match_hands": 1000},
                "bots": ["heuristic"] * 4,
            },
        )
        rid = made["id"]
        host = Client(_Sock(f"ws://127.0.0.1:{a_proc.port}/ws/{rid}"))
        host.request({"type": "join", "name": "h", "host_key": made["host_key"], "spectate": True})
        assert host.request({"type": "start"})["type"] == "ack"
        with TestClient(
            create_app(PG, bot_delay=30, deal_seconds=30)
        ) as b:  # b's bots would be slow
            with b.websocket_connect(f"/ws/{rid}") as wb:
                watcher = Client(wb)
                watcher.request({"type": "join", "name": "w", "spectate": True})
                assert watcher.request({"type": "chat", "text": "hi"})["type"] == "ack"
            host.drain_until(lambda m: m["type"] == "chat" and m["lines"][-1]["text"] == "hi")
            sync(host)
            before = host.latest["rev"]
            time.sleep(1.0)
            sync(host)
            assert host.latest["rev"] > before + 5  # a's bots go on
    finally:
        a_proc.kill()
