"""The same server code path on PostgreSQL: set SHENGJI_TEST_PG to a database URL
(e.g. postgresql+psycopg://user:pass@127.0.0.1/db) to run it; skipped otherwise."""

from __future__ import annotations

import os

import pytest
from fastapi.testclient import TestClient

from shengji.record import verify
from shengji.server.app import create_app

from .client import Client, play_to_end

PG = os.environ.get("SHENGJI_TEST_PG")


@pytest.mark.skipif(not PG, reason="SHENGJI_TEST_PG is not set: no PostgreSQL to test against")
def test_a_match_on_postgresql_survives_a_restart() -> None:
    assert PG is not None
    with TestClient(create_app(PG, bot_delay=0)) as http:
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
    with TestClient(create_app(PG, bot_delay=0)) as http:  # a new server on the same database
        with http.websocket_connect(f"/ws/{rid}") as w:
            c = Client(w)
            assert c.request({"type": "join", "token": token})["seat"] == 0
            play_to_end([c])
        assert verify(http.get(f"/api/rooms/{rid}/record").json()).phase == "match_over"
