"""Fixtures: an app over a temporary SQLite database, bots moving without delay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shengji.server.app import create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.db'}"


@pytest.fixture
def http(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        yield client
