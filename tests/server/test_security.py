"""The two critical attacks: taking over a seat with a second connection of the same
token, and recovering the deal from one's own hand."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from fastapi.testclient import TestClient

from shengji.game.flow import new_match
from shengji.rules.presets import load_preset
from shengji.rules.shuffle import RESEARCH_SEED_BITS, is_secret, secret_seed, shuffled
from shengji.server.app import create_app
from shengji.server.store import sqlite_url

from .client import Client, hub_of, sync, wait_view


def _room(http: TestClient, **body: object) -> tuple[str, str]:
    r = http.post("/api/rooms", json={"preset": "classic-1deck", **body})
    assert r.status_code == 200, r.text
    return str(r.json()["id"]), str(r.json()["host_key"])


def test_stale_connection_follows_its_token_not_the_seat(http: TestClient) -> None:
    """Two connections of one token; one moves seats; a stranger takes the freed seat:
    the other connection sees no stranger's card and cannot act for them."""
    rid, key = _room(http, bots=[None, None, "random", "random"])
    with (
        http.websocket_connect(f"/ws/{rid}") as wa,
        http.websocket_connect(f"/ws/{rid}") as wb,
        http.websocket_connect(f"/ws/{rid}") as wv,
    ):
        a1 = Client(wa)
        assert (
            a1.request({"type": "join", "name": "alice", "seat": 0, "host_key": key})["seat"] == 0
        )
        a2 = Client(wb)
        assert a2.request({"type": "join", "token": a1.token})["seat"] == 0
        assert a1.request({"type": "sit", "seat": 1})["type"] == "ack"
        victim = Client(wv)
        joined = victim.request({"type": "join", "name": "victim", "seat": 0})
        assert joined["seat"] == 0
        for c in (a1, a2, victim):
            assert c.request({"type": "ready"})["type"] == "ack"
        assert a1.request({"type": "start"})["type"] == "ack"  # alice is the host
        wait_view(a2, lambda v: v["dealt"] > 0)
        wait_view(victim, lambda v: v["dealt"] > 0)
        assert a2.state is not None and victim.state is not None
        assert a2.state["you"]["seat"] == 1  # followed its token to the new seat
        assert a2.state["view"]["seat"] == 1 and victim.state["view"]["seat"] == 0
        assert a2.state["view"]["hand"] != victim.state["view"]["hand"]
        for msg in a2.received:  # never the victim's seat, view or hand
            if msg["type"] == "state" and msg["rev"] >= joined["rev"]:
                assert msg["you"]["seat"] == 1
                assert "view" not in msg or msg["view"]["seat"] == 1
        # acting: the command is taken for alice's own seat, never the victim's
        a2.request({"type": "act", "action": {"type": "pass"}})
        sync(victim)
        room = hub_of(http).rooms[rid]
        assert room.recorder is not None
        assert all(seat != 0 for seat, _ in room.recorder.actions)


def test_kicked_connection_loses_the_seat_on_every_connection(http: TestClient) -> None:
    rid, key = _room(http)
    with http.websocket_connect(f"/ws/{rid}") as w0, http.websocket_connect(f"/ws/{rid}") as w1:
        host, guest = Client(w0), Client(w1)
        host.request({"type": "join", "name": "host", "seat": 0, "host_key": key})
        guest.request({"type": "join", "name": "guest", "seat": 1})
        with http.websocket_connect(f"/ws/{rid}") as w2:
            twin = Client(w2)
            assert twin.request({"type": "join", "token": guest.token})["seat"] == 1
            host.request({"type": "kick", "seat": 1})
            sync(twin)
            assert twin.state is not None and twin.state["you"]["seat"] is None
            assert twin.request({"type": "ready"})["code"] == "NOT_SEATED"


def test_room_seeds_are_secret_and_deals_differ(http: TestClient) -> None:
    hub = hub_of(http)
    rooms = [hub.rooms[_room(http)[0]] for _ in range(20)]
    seeds = [r.seed for r in rooms]
    assert len(set(seeds)) == 20
    assert all(s.bit_length() >= 200 and is_secret(s) for s in seeds)
    deals = {new_match(load_preset("classic-1deck"), s).deck_order for s in seeds}
    assert len(deals) == 20
    for r in rooms:  # nothing a client is sent carries the seed or anything made from it
        assert str(r.seed) not in repr(r.public()) and r.id not in str(r.seed)
        assert len(r.id) >= 32  # room ids carry at least 128 bits


def test_secret_seed_deals_use_the_keyed_generator() -> None:
    s = secret_seed()
    assert s.bit_length() == 256 and is_secret(s) and not is_secret(2**RESEARCH_SEED_BITS - 1)
    cards = list(range(108))
    a, b = shuffled(cards, s, 0, 0), shuffled(cards, s, 1, 0)
    assert sorted(a) == cards and a != b and a == shuffled(cards, s, 0, 0)
    # the same seed read as a research seed (MT19937 from a string) would deal otherwise
    import random

    mt = list(cards)
    random.Random(f"shengji:{s}:0:0").shuffle(mt)
    assert a != mt
    # research seeds keep their deals forever (golden records, tests, simulations)
    assert shuffled(list(range(10)), 3, 0, 0) == [9, 7, 0, 5, 1, 8, 3, 4, 2, 6]


def test_keyed_shuffle_is_uniform_enough() -> None:
    """Each card lands in each position about equally often (no modulo bias)."""
    counts = [[0] * 5 for _ in range(5)]
    for k in range(4000):
        for pos, card in enumerate(shuffled(list(range(5)), (1 << 255) + k, 0, 0)):
            counts[card][pos] += 1
    assert all(650 < n < 950 for row in counts for n in row), counts


def test_database_file_is_private(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "var" / "db.sqlite")
    app = create_app(url, bot_delay=0, deal_seconds=0)
    with TestClient(app) as http:
        _room(http)
    mode = stat.S_IMODE(os.stat(tmp_path / "var" / "db.sqlite").st_mode)
    assert mode == 0o600, oct(mode)
    assert stat.S_IMODE(os.stat(tmp_path / "var").st_mode) == 0o700
    named = tmp_path / "named.db"  # a URL given as is (shengji serve --db sqlite:///...)
    with TestClient(create_app(f"sqlite:///{named}", bot_delay=0, deal_seconds=0)) as http:
        _room(http)
    for f in tmp_path.glob("named.db*"):
        assert stat.S_IMODE(os.stat(f).st_mode) == 0o600, f
