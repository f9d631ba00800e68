"""The words of the client: hints always have a reason, the tracker tells every
declaration and trick, names and teams read right for players and spectators."""

from __future__ import annotations

import copy
from typing import Any

from shengji.bots.autoplay import choose_action
from shengji.bots.registry import by_difficulty, hint_bot, parse_spec
from shengji.bots.search import Budget, SearchBot
from shengji.rules.presets import load_preset
from shengji.tui.session import LocalSession
from shengji.tui.text import prompt, status_lines, who
from shengji.tui.tracker import Tracker


def test_every_hint_has_a_fresh_reason() -> None:
    """Issue 12, item 6: a single legal play, a pass with nothing to show, a burial: the
    reason always says something about this decision."""
    for preset, seed in (("classic-1deck", 2), ("shuangsheng", 5)):
        session = LocalSession(
            load_preset(preset), seed=seed, seat=0, adviser="search:60it", deal_seconds=0
        )
        reasons = []
        for _ in range(400):
            view = session.state["view"]
            if view["phase"] == "hand_over":
                break
            if view["phase"] == "deal":  # nobody is asked: no decision, no hint
                assert session.hint("en") is None
                session.poll()
                continue
            for lang in ("en", "zh"):
                hint = session.hint(lang)
                assert hint is not None and hint[1], (view["phase"], lang)
                reasons.append(hint[1])
            assert session.act(choose_action(session.state)) is None
        assert "the only legal play" in reasons or "只有这一种合法的出法" in reasons
        assert any("search" in r for r in reasons) and any("搜索" in r for r in reasons)


def test_the_hint_comes_from_the_strongest_bot_within_a_second() -> None:
    """Issue 15: the hint uses the strongest bot (search) on a budget under a second."""
    spec = hint_bot()
    name, arg = parse_spec(spec)
    assert by_difficulty("strong").name == name == "search"
    assert arg is not None and arg.endswith(":steady")  # the sure margin: a stable hint
    budget = Budget.parse(arg.split(":")[0])
    assert budget.seconds is not None and budget.seconds <= 0.85 and budget.rollouts is None
    session = LocalSession(load_preset("shuangsheng"), seed=5, seat=0, deal_seconds=0)
    assert isinstance(session.adviser, SearchBot) and session.adviser.budget == budget
    assert session.adviser.steady and not session.adviser.prune


def test_tracker_tells_declarations_counters_and_tricks() -> None:
    state = LocalSession(load_preset("shuangsheng"), seed=1, seat=0, deal_seconds=0).state
    state = copy.deepcopy(state)
    view = state["view"]
    view["declarations"] = [
        {"seat": 1, "cards": "H2"},
        {"seat": 1, "cards": "H2 H2"},
        {"seat": 0, "cards": "BJ BJ"},
    ]
    view["tricks"] = []
    view["trick"] = []
    tracker = Tracker("en")
    lines = tracker.update(state)
    assert "right declares ♥2: trump ♥" in lines
    assert "right reinforces with ♥2 ♥2" in lines
    assert "you counter-declare BJ BJ: no trump" in lines
    assert tracker.update(state) == []  # nothing new, nothing said
    zh = Tracker("zh").update(state)
    assert "下家亮主 ♥2: 主 ♥" in zh and "你反主 大王 大王: 无主" in zh


def test_spectators_see_seats_not_relations() -> None:
    state = copy.deepcopy(
        LocalSession(load_preset("classic-1deck"), seed=1, seat=0, deal_seconds=0).state
    )
    state["you"] = {"seat": None, "host": False}
    state["room"]["id"] = "x" * 32
    assert who(state, 1, "en") == "seat 1" and who(state, 1, "zh") == "1号位"
    s1, s2 = status_lines(state, "en")
    assert s2.startswith("levels: seats 0+2 2 · seats 1+3 2") and "watching" in s2
    assert prompt(state, "en") == "you are watching the game"


def test_the_next_hand_names_who_is_reviewing() -> None:
    seats = [{"kind": "human", "name": n} for n in ("Ann", "Bo", "小明", "Di")]
    room: dict[str, Any] = {"seats": seats, "waiting": [2], "reviewing": [2]}
    state = {"you": {"seat": 0, "host": False}, "room": room, "view": {"phase": "hand_over"}}
    assert prompt(state, "en") == "waiting for 小明 (reviewing the hand) to start the next hand"
    assert prompt(state, "zh") == "等待小明 (正在复盘)开始下一局"
    room["waiting"] = [1]
    assert prompt(state, "en") == "waiting for Bo, 小明 (reviewing the hand) to start the next hand"
