"""找朋友 in the terminal: six seats around the table (their places, sides and levels),
the banker's call (a dialog in the app, ``call SA:2 HK:1`` in the plain mode), the calls
line with who answered each, a friend found told in the log; snapshots of a six-seat
table."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Static

from shengji.bots.autoplay import choose_action
from shengji.rules.presets import load_preset
from shengji.tui.app import TableApp
from shengji.tui.dialogs import CallDialog
from shengji.tui.plain import action_line, parse_line
from shengji.tui.session import LocalSession, seat_bots
from shengji.tui.text import describe, prompt, seat_title, status_lines, who
from shengji.tui.tracker import Tracker

#: where to look for a six-seat deal whose first hand the person (seat 0) banks
SEED = 0


def _to_call() -> tuple[LocalSession, Tracker]:
    """A six-seat local match played up to the person's call (declaring what it can),
    on the first seed (from ``SEED``) where the person banks the first hand."""
    for seed in range(SEED, SEED + 40):
        session = LocalSession(load_preset("zhaopengyou"), seed=seed, seat=0, deal_seconds=0)
        tracker = Tracker("en")
        for _ in range(1000):
            st = session.state
            tracker.update(st)
            view = st["view"]
            if view["phase"] == "call":
                if view["to_act"] == 0:
                    return session, tracker
                break
            if view["phase"] in ("deal", "before_kitty") and st.get("shows"):
                # shown as soon as it is held (during the deal nobody asks)
                assert session.act({"type": "declare", "cards": st["shows"][-1]}) is None
            elif view["to_act"] == 0:
                assert session.act(choose_action(st)) is None
            else:
                session.poll()  # the deal goes on a round a poll
    raise AssertionError("the person never banks")


def test_six_seats_have_places_names_and_levels() -> None:
    assert seat_bots("easy", 0, players=6) == [None, *["random"] * 5]
    session, _ = _to_call()
    st = session.state
    assert [who(st, s, "en") for s in range(6)] == [
        "you",
        "right",
        "2nd right",
        "opposite",
        "2nd left",
        "left",
    ]
    assert [who(st, s, "zh") for s in range(6)] == [
        "你",
        "下家",
        "下二家",
        "对家",
        "上二家",
        "上家",
    ]
    assert seat_title(st, 1, "en").startswith("→ right · ")
    assert seat_title(st, 3, "en").startswith("↑ opposite · ")
    assert seat_title(st, 5, "en").startswith("← left · ")
    line1, line2 = status_lines(st, "en")
    assert "calling friends" in line1 and "banker you" in line1
    assert line2 == "friends: the banker is calling · levels: all at 2"
    assert status_lines(st, "zh")[1] == "找朋友: 庄家正在叫 · 级: 都打2"
    assert "team" not in " ".join(describe(st, "en"))


def test_the_plain_mode_calls_and_the_log_tells_calls_and_friends() -> None:
    session, tracker = _to_call()
    st = session.state
    assert prompt(st, "en").startswith("your turn: call friends · type call and card:copy")
    assert "call " in prompt(st, "en") and "(SA:2 = the 2nd ♠A played)" in prompt(st, "en")
    assert prompt(st, "zh").startswith("轮到你叫朋友 · 输入 call")
    assert len(str(st["callable"]).split()) == 48  # 52 less the four level cards
    bad = parse_line("call SA:9 HA:1", st)
    assert isinstance(bad, dict)
    refusal = session.act(bad)
    assert refusal is not None and refusal.code == "ILLEGAL_CALL"
    assert "the 9th ♠A" in refusal.say("en") and "1 到 3" in refusal.say("zh")
    action = parse_line("call HA:1 CA:2", st)
    assert isinstance(action, dict) and action == {"type": "call", "calls": "HA:1 CA:2"}
    assert action_line(action) == "call HA:1 CA:2"
    assert session.act(action) is None
    lines = tracker.update(session.state)
    assert "you call the 1st ♥A, the 2nd ♣A: whoever plays it becomes your friend" in lines
    st = session.state
    assert status_lines(st, "en")[1].startswith(
        "friends: the 1st ♥A → not yet · the 2nd ♣A → not yet · levels: all at 2"
    )
    told: list[str] = []
    for _ in range(2000):
        st = session.state
        told += tracker.update(st)
        if st["view"]["phase"] == "hand_over":
            break
        if st["view"]["to_act"] == 0:
            assert session.act(choose_action(st)) is None
    view = session.state["view"]
    assert all(c["seat"] is not None for c in view["calls"]) or view["kitty"]
    found = [c for c in view["calls"] if c["seat"] not in (None, 0)]
    friend_lines = [x for x in told if x.startswith("— friend found! ")]
    assert len(friend_lines) == len({c["seat"] for c in found})
    assert all("joins your side" in x for x in friend_lines)
    line2 = status_lines(session.state, "en")[1]
    for c in found:
        assert f"→ {who(session.state, c['seat'], 'en')}" in line2


def test_the_call_dialog_opens_for_the_banker_and_calls_on_enter() -> None:
    session, _ = _to_call()
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            dialog: Any = app.screen
            assert isinstance(dialog, CallDialog)
            assert dialog.suggested and len(dialog.suggested.split()) == 2
            reads = str(dialog.query_one("#call-reads", Static).renderable)
            assert reads.startswith("reads: the 1st ")
            await pilot.press("enter")
            await pilot.pause()
            assert session.state["view"]["phase"] == "play"
            assert [c["call"] for c in session.state["view"]["calls"]] == dialog.suggested.split()

    asyncio.run(run())


def _table_app(lang: str) -> TableApp:
    """Six seats in the middle of a trick (a frozen state of a real game, seed 1: the
    bots' play may change): seat 4 banks, the 1st ♣A answered by seat 1 (a friend), the
    1st ♥A not yet, Mei in seat 2, the person (seat 0) to play."""
    from .test_app import FakeSession

    state = json.loads((Path(__file__).parent / "data" / "six_seats.json").read_text())
    return TableApp(FakeSession(state), lang=lang)


def test_snapshot_six_seats_100x30(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(_table_app("en"), terminal_size=(100, 30))


def test_snapshot_six_seats_100x30_zh(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(_table_app("zh"), terminal_size=(100, 30))


def test_copy_state_keeps_views_apart() -> None:  # the session's state is not shared
    session, _ = _to_call()
    st: dict[str, Any] = copy.deepcopy(session.state)
    st["view"]["calls"] = [{"call": "SA:2", "seat": 3}]
    st["view"]["sides"] = [0, None, None, 0, None, None]
    assert "→ opposite" in status_lines(st, "en")[1]
    assert session.state["view"]["calls"] == []
