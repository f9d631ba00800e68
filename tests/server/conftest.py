"""Fixtures: an app over a temporary SQLite database, bots moving without delay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shengji.server.app import create_app
from shengji.server.limits import Limits


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.db'}"


#: Scripted clients act as fast as the server answers and tests make many rooms: no rate
#: limits for them
#: (tests/server/test_hostile.py checks the limits themselves).
FAST_CLIENTS = Limits(
    commands_per_second=1e6,
    commands_burst=1_000_000,
    lobby_per_second=1e6,
    lobby_burst=1_000_000,
    rooms_burst=1_000,
)


@pytest.fixture
def http(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, deal_seconds=0, limits=FAST_CLIENTS)) as client:
        yield client
