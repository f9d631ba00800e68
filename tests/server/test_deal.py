"""The table never waits on a person during the deal: it deals itself at the room's pace,
anyone shows at any moment (even on a table the deal has moved past), and a declaring
prompt that runs out is not showing, never a bot's show."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shengji.game.actions import Deal, Pass, action_to_json
from shengji.game.dealing import DEAL_SECONDS, DECLARE_SECONDS, deal_total
from shengji.game.flow import apply, new_match
from shengji.game.legal import legal_shows
from shengji.game.record import verify
from shengji.game.state import GameState
from shengji.rules.presets import load_preset
from shengji.server.app import create_app
from shengji.server.rooms import Room
from shengji.server.store import ActionWrite, Store

from .client import Client, hub_of, sync, wait_view
from .conftest import FAST_CLIENTS


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[TestClient]:
    """A server that keeps each room's own deal pace (bots without delay)."""
    app = create_app(f"sqlite:///{tmp_path / 'r.db'}", bot_delay=0, limits=FAST_CLIENTS)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def paced(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose deals go at a person's pace: 0.05 s a round (1.25 s a deal)."""
    app = create_app(
        f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0, deal_seconds=0.05, limits=FAST_CLIENTS
    )
    with TestClient(app) as client:
        yield client


def _room(http: TestClient, **body: Any) -> tuple[str, str]:
    r = http.post("/api/rooms", json={"preset": "shuangsheng", **body})
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["host_key"]


def _seed(preset: str, wanted: Callable[[GameState], bool]) -> int:
    """A match seed whose paced first deal, dealt round by round with nobody showing,
    reaches a state ``wanted`` says yes to (a room takes it as its ``seed``)."""
    opts = load_preset(preset)
    for seed in range(500):
        st = new_match(opts, seed, paced=True)
        while st.phase == "deal" and not wanted(st):
            st, _ = apply(st, None, Deal(min(st.dealt + 4, deal_total(st))))
        if wanted(st):
            return seed
    raise AssertionError("no such seed")


def _start(
    http: TestClient, stack: ExitStack, rid: str, key: str, people: int = 1, seed: int = -1
) -> list[Client]:
    """``people`` clients join, are ready, and the first starts the match (on ``seed``)."""
    if seed >= 0:
        hub_of(http).rooms[rid].seed = seed
    clients = [
        Client(stack.enter_context(http.websocket_connect(f"/ws/{rid}"))) for _ in range(people)
    ]
    for i, c in enumerate(clients):
        c.request({"type": "join", "name": f"p{i}", "host_key": key if i == 0 else None})
        c.request({"type": "ready"})
    assert clients[0].request({"type": "start"})["type"] == "ack"
    return clients


def test_a_silent_person_with_three_bots_and_no_timer_sees_the_deal_end(
    paced: TestClient,
) -> None:
    rid, key = _room(paced, bots=[None, "heuristic", "heuristic", "heuristic"])
    with ExitStack() as stack:
        (me,) = _start(paced, stack, rid, key)
        room = hub_of(paced).rooms[rid]
        seen: list[int] = []
        began = time.monotonic()
        while time.monotonic() - began < 60:
            sync(me)
            view = me.view
            seen.append(view["dealt"])
            if view["phase"] != "deal" or view["hand_number"] > 0:
                break
            assert view["to_act"] is None and me.latest["room"]["deadlines"] == [None] * 4
            assert "shows" in me.latest  # the seat's shows, offered all along the deal
            time.sleep(0.02)
        assert me.view["phase"] != "deal" or me.view["hand_number"] > 0, "the deal never ended"
        # the cards came a round at a time, never all at once, and nobody was asked
        assert len(set(seen)) > 5 and max(b - a for a, b in itertools.pairwise(seen)) <= 40
        assert room.recorder is not None
        assert not any(a == Pass() for s, a in room.recorder.actions if s == 0)


def test_a_show_is_taken_whenever_it_is_legal_even_on_an_older_table(
    paced: TestClient,
) -> None:
    """Four people: seat 0 shows the level card it got early, on a table two rounds
    older than the deal; a pass is refused and says why."""
    rid, key = _room(paced)
    seed = _seed("shuangsheng", lambda st: st.dealt <= 32 and bool(legal_shows(st, 0)))
    with ExitStack() as stack:
        me = _start(paced, stack, rid, key, people=4, seed=seed)[0]
        wait_view(me, lambda v: bool(me.latest.get("shows")))
        shows, old = me.latest["shows"], me.latest["rev"]
        wait_view(me, lambda v: me.latest["rev"] >= old + 2)
        reply = me.request({"type": "act", "action": {"type": "declare", "cards": shows[0]}}, old)
        assert reply["type"] == "ack", reply
        sync(me)
        assert {"seat": 0, "cards": shows[0]} in me.view["declarations"]
        assert me.view["banker"] == 0
        refused = me.request({"type": "act", "action": {"type": "pass"}})
        assert refused["type"] == "error"
        if me.view["phase"] == "deal":
            assert refused["code"] == "ILLEGAL_ACTION"
            assert "show" in refused["text"]["en"] and "亮主" in refused["text"]["zh"]


def test_a_show_from_before_a_redeal_is_stale(paced: TestClient) -> None:
    """双升's first deal with nobody showing is dealt again: a show offered in the first
    deal, sent on its revision once the second has begun, is refused STALE_REVISION (the
    cards it names were another deal's), never taken nor answered about the new hand."""
    rid, key = _room(paced)
    seed = _seed("shuangsheng", lambda st: bool(legal_shows(st, 0)))
    with ExitStack() as stack:
        me = _start(paced, stack, rid, key, people=4, seed=seed)[0]
        wait_view(me, lambda v: bool(me.latest.get("shows")))
        shows, old, dealt = me.latest["shows"], me.latest["rev"], me.view["dealt"]
        wait_view(me, lambda v: v["phase"] == "deal" and v["dealt"] < dealt)  # dealt again
        reply = me.request({"type": "act", "action": {"type": "declare", "cards": shows[0]}}, old)
        assert reply["type"] == "error" and reply["code"] == "STALE_REVISION", reply
        sync(me)
        assert me.view["declarations"] == []


def test_a_show_without_a_revision_is_stale_not_a_fault(paced: TestClient) -> None:
    """A show during the deal that names no ``rev`` is refused STALE_REVISION like any
    other action without one (it was a fault answered INTERNAL_ERROR), and nothing is
    taken."""
    rid, key = _room(paced)
    seed = _seed("shuangsheng", lambda st: bool(legal_shows(st, 0)))
    with ExitStack() as stack:
        me = _start(paced, stack, rid, key, people=4, seed=seed)[0]
        wait_view(me, lambda v: bool(me.latest.get("shows")))
        shows = me.latest["shows"]
        act = {"type": "act", "action": {"type": "declare", "cards": shows[0]}, "rev": None}
        reply = me.request(act)
        assert reply["type"] == "error" and reply["code"] == "STALE_REVISION", reply
        sync(me)
        assert me.view["declarations"] == []


def test_the_single_level_card_of_a_person_is_taken_during_the_deal(http: TestClient) -> None:
    """Four people, nobody acting: the first who holds a level card shows it at once."""
    rid, key = _room(http)
    with ExitStack() as stack:
        people = _start(http, stack, rid, key, people=4)
        room = hub_of(http).rooms[rid]
        shower: tuple[Client, str] | None = None
        for _ in range(2000):
            for c in people:
                sync(c)
                if c.view["phase"] == "deal" and c.latest.get("shows"):
                    shower = (c, c.latest["shows"][0])
                    break
            if shower or people[0].view["phase"] != "deal":
                break
        assert shower is not None, "no level card came to anyone"
        c, cards = shower
        reply = c.request({"type": "act", "action": {"type": "declare", "cards": cards}})
        assert reply["type"] == "ack", reply
        wait_view(c, lambda v: v["phase"] != "deal")
        assert c.view["banker"] == c.seat and c.view["declarations"][0]["seat"] == c.seat
        assert room.state is not None and room.recorder is not None
        final = verify(room.recorder.record(room.state))  # deals and shows, in their order
        assert final.declare == room.state.declare


def test_a_declaring_prompt_that_runs_out_is_not_showing(http: TestClient) -> None:
    """经典升级 takes a first show after the deal: the round before the kitty waits
    ``declare_seconds`` on a silent person, then passes for them (no bot's show), and
    says so in both languages."""
    rid, key = _room(http, preset="classic", declare_seconds=3)
    seed = _seed("classic", lambda st: st.phase == "before_kitty")
    with ExitStack() as stack:
        me = _start(http, stack, rid, key, people=4, seed=seed)[0]
        wait_view(me, lambda v: v["phase"] != "deal")
        room = hub_of(http).rooms[rid]
        st = room.state
        assert st is not None and st.phase == "before_kitty"
        asked = st.to_act
        assert asked is not None
        sync(me)
        deadline = me.latest["room"]["deadlines"][asked]
        assert deadline is not None and 2 < deadline - time.time() <= 3.5
        notice = me.drain_until(lambda m: m["type"] == "notice", limit=100_000)
        assert notice["code"] == "TIME_RAN_OUT" and notice["params"]["action"] == "pass"
        assert notice["params"]["seat"] == asked
        you = asked == me.seat
        assert ("you did not show" if you else "did not show") in notice["text"]["en"]
        assert "不亮" in notice["text"]["zh"]
        assert room.recorder is not None
        assert (asked, Pass()) in room.recorder.actions
        assert st.declare.shows == ()  # nobody showed for the silent seat


def test_room_settings_say_the_pace_and_refuse_what_a_table_cannot_use(
    plain: TestClient,
) -> None:
    rid, key = _room(plain, deal_seconds=0.5, declare_seconds=8)
    info = plain.get(f"/api/rooms/{rid}").json()
    assert (info["deal_seconds"], info["declare_seconds"]) == (0.5, 8)
    with plain.websocket_connect(f"/ws/{rid}") as w:
        c = Client(w)
        c.request({"type": "join", "name": "a", "host_key": key})
        room = c.latest["room"]
        assert (room["paced"], room["deal_seconds"], room["declare_seconds"]) == (True, 0.5, 8)
    fresh = plain.get(f"/api/rooms/{_room(plain)[0]}").json()
    assert (fresh["deal_seconds"], fresh["declare_seconds"]) == (DEAL_SECONDS, DECLARE_SECONDS)
    for bad in ({"deal_seconds": 0}, {"deal_seconds": 5}, {"declare_seconds": 1}):
        r = plain.post("/api/rooms", json={"preset": "shuangsheng", **bad})
        assert r.status_code == 422 and r.json()["detail"]["code"] == "BAD_REQUEST", r.text


def test_every_round_is_stored_and_a_room_stored_before_paced_deals_replays(
    http: TestClient, db_url: str
) -> None:
    rid, key = _room(http, bots=[None, "heuristic", "heuristic", "heuristic"])
    with ExitStack() as stack:
        (me,) = _start(http, stack, rid, key)
        wait_view(me, lambda v: v["dealt"] >= 40 or v["phase"] != "deal")
        again = Room.load(rid, Store(db_url))
        room = hub_of(http).rooms[rid]  # read after the store: it has dealt at least as far
        assert again is not None and again.state is not None and room.state is not None
        assert again.state.dealt <= room.state.dealt and again.state.paced
        assert again.recorder is not None and again.recorder.actions[0][0] is None
    # a room whose settings predate paced deals: its stored passes are replayed as asked
    store = Store(db_url)
    row = store.load_room(rid)
    assert row is not None
    old = {k: v for k, v in row.settings.items() if k not in ("paced", "deal_seconds")}
    store.save_room("o" * 32, "playing", old, row.lobby, False)
    asked = new_match(load_preset("shuangsheng"), int(row.lobby["seed"]))
    assert asked.to_act is not None  # the old deal stopped at the first seat with a show
    store.append_actions([ActionWrite("o" * 32, 0, asked.to_act, action_to_json(Pass()))])
    legacy = Room.load("o" * 32, store)
    assert legacy is not None and legacy.state is not None and not legacy.state.paced
    assert legacy.state.dealt > asked.dealt and legacy.recorder is not None
