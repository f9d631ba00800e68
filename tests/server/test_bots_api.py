"""``GET /api/bots``: the bots a room may seat, with their difficulty and descriptions in
both languages (the operator's external bots included); every listed name is accepted by
``POST /api/rooms`` and ``set_bot``, nothing else is."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shengji.bots import external, registry
from shengji.server.app import create_app

from .client import Client, play_to_end, sync
from .conftest import FAST_CLIENTS

PLAIN_BOT = f"{sys.executable} -m shengji.tools.cli bot --player random"


@pytest.fixture
def with_external(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """An app whose operator registered the external bot ``rando`` (the registry is put
    back afterwards)."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(external, "_REGISTERED", set())
    app = create_app(
        f"sqlite:///{tmp_path / 'bots.db'}",
        bot_delay=0,
        deal_seconds=0,
        limits=FAST_CLIENTS,
        bots={"rando": PLAIN_BOT},
    )
    with TestClient(app) as client:
        yield client


def test_api_bots_lists_the_registry_with_levels_and_both_languages(http: TestClient) -> None:
    listed = http.get("/api/bots").json()
    by_name = {b["name"]: b for b in listed}
    assert [b["name"] for b in listed] == registry.table_bot_names()
    assert "dmc" in registry.bot_names() and "dmc" not in by_name  # needs a model file
    assert by_name["random"]["difficulty"] == "easy"
    assert by_name["heuristic"]["difficulty"] == "normal"
    assert by_name["search"]["difficulty"] == "strong"
    assert by_name["heuristic"]["description"] == {
        "en": "heuristic bot: rule-of-thumb play, checked by a few short rollouts",
        "zh": "智能机器人:经验打法,少量推演核对",
    }
    assert by_name["heuristic"]["label"] == {"en": "heuristic bot", "zh": "机器人(智能)"}
    assert all(set(b) == {"name", "difficulty", "label", "description"} for b in listed)


def test_api_bots_lists_the_operators_external_bots(with_external: TestClient) -> None:
    listed = with_external.get("/api/bots").json()
    assert listed[-1] == {
        "name": "rando",
        "difficulty": None,
        "label": {"en": "rando bot", "zh": "机器人(rando)"},
        "description": {
            "en": "rando: an external bot this server runs",
            "zh": "rando:本服务器运行的外部机器人",
        },
    }
    assert PLAIN_BOT not in str(listed)  # a command is never shown to clients


def test_every_listed_bot_can_be_seated_and_nothing_else(with_external: TestClient) -> None:
    names = [b["name"] for b in with_external.get("/api/bots").json()]
    for name in names:
        made = with_external.post("/api/rooms", json={"bots": [None, name, name, name]})
        assert made.status_code == 200, (name, made.json())
    made = with_external.post("/api/rooms", json={"bots": [None, "search", "heuristic", None]})
    rid, key = made.json()["id"], made.json()["host_key"]
    with with_external.websocket_connect(f"/ws/{rid}") as ws:
        host = Client(ws)
        host.request({"type": "join", "name": "ann", "host_key": key})
        assert host.request({"type": "set_bot", "seat": 3, "bot": "random"})["type"] == "ack"
        refused = host.request({"type": "set_bot", "seat": 3, "bot": "search:1s"})
        assert refused["code"] == "BAD_MESSAGE"
        assert host.request({"type": "set_bot", "seat": 2, "bot": "rando"})["type"] == "ack"
        sync(host)
        seated = [s["bot"] for s in host.latest["room"]["seats"]]
        assert seated == [None, "search", "rando", "random"]
    unknown = with_external.post("/api/rooms", json={"bots": [None, "strong"]})
    assert unknown.status_code == 400 and unknown.json()["detail"]["code"] == "UNKNOWN_BOT"


def test_a_room_tells_what_its_searching_bots_decisions_got(http: TestClient) -> None:
    """``GET /api/rooms/{id}`` carries ``bot_search``: the searched decisions of the
    room's bots, how many the wall-clock cap stopped, and the rollouts and sampled deals
    a decision got (p10, p50) within the strong bot's default budget."""
    made = http.post("/api/rooms", json={"bots": [None, "search", "heuristic", "heuristic"]})
    rid, key = made.json()["id"], made.json()["host_key"]
    assert http.get(f"/api/rooms/{rid}").json()["bot_search"] is None
    with http.websocket_connect(f"/ws/{rid}") as ws:
        c = Client(ws)
        c.request({"type": "join", "name": "ann", "host_key": key})
        c.request({"type": "ready"})
        c.request({"type": "start"})
        play_to_end([c], until="hand_over")
    figures = http.get(f"/api/rooms/{rid}").json()["bot_search"]
    assert figures["decisions"] >= 1 and 0 <= figures["capped"] <= figures["decisions"]
    rollouts, deals = figures["rollouts"], figures["deals"]
    assert 0 < rollouts["p10"] <= rollouts["p50"] <= 2000
    assert 0 < deals["p10"] <= deals["p50"] <= rollouts["p50"]
