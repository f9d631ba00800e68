"""The search bot: budgets, legal actions in whole hands, reproducible choices under a
seed and a rollout budget, its value function and its registration."""

from __future__ import annotations

import pytest

from shengji.actions import Play
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.registry import by_difficulty, make_player
from shengji.bots.search import (
    ApplyRollout,
    Budget,
    KernelRollout,
    SearchBot,
    finished,
    hand_value,
)
from shengji.errors import ShengjiError
from shengji.game import GameState, apply, legal_actions, new_match
from shengji.players import run_match
from shengji.presets import load_preset
from shengji.views import SeatView, seat_view


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("100ms", Budget(seconds=0.1)),
        ("1.5s", Budget(seconds=1.5)),
        ("2000it", Budget(rollouts=2000)),
        (None, Budget(seconds=0.2)),
    ],
)
def test_budgets(text: str | None, budget: Budget) -> None:
    assert Budget.parse(text) == budget


@pytest.mark.parametrize("text", ["fast", "0ms", "10 minutes", "-5it", "100ms:gpu"])
def test_bad_budgets(text: str) -> None:
    with pytest.raises(ShengjiError) as e:
        make_player(f"search:{text}", 0, 0)
    assert e.value.code == "BAD_BOT_SPEC"


def test_registered_as_the_strong_bot() -> None:
    kind = by_difficulty("strong")
    assert kind.name == "search"
    bot = make_player("search:100ms", 2, 7)
    assert isinstance(bot, SearchBot) and bot.budget == Budget(seconds=0.1)
    assert isinstance(bot.rollout, KernelRollout)
    bot = make_player("search:50it:apply", 2, 7)
    assert isinstance(bot, SearchBot) and bot.budget == Budget(rollouts=50)
    assert isinstance(bot.rollout, ApplyRollout)


def test_kernel_rollouts_play_a_legal_hand() -> None:
    players = [make_player("search:24it:kernel" if s % 2 else "heuristic", s, 5) for s in range(4)]
    st, _ = run_match(load_preset("shuangsheng"), 5, players, stop_after_hand=True)
    assert st.phase in ("hand_over", "match_over") and len(st.results) == 1


@pytest.mark.parametrize("preset", ["shuangsheng", "classic-1deck"])
def test_search_bots_play_legal_hands(preset: str) -> None:
    players = [
        SearchBot(s, 4, Budget(rollouts=24)) if s % 2 == 0 else HeuristicBot(s, 4) for s in range(4)
    ]
    st, rec = run_match(load_preset(preset), 4, players, stop_after_hand=True)
    assert st.phase in ("hand_over", "match_over") and len(st.results) == 1


def _play_view(seed: int, plays: int) -> tuple[GameState, SeatView]:
    st = new_match(load_preset("shuangsheng"), seed)
    bots = [HeuristicBot(s, seed) for s in range(4)]
    done = 0
    while not (st.phase == "play" and done >= plays):
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, bots[seat].act(seat_view(st, seat)))
        done += st.phase == "play"
    assert st.to_act is not None
    return st, seat_view(st, st.to_act)


@pytest.mark.parametrize("plays", [0, 5, 42])
def test_a_seed_and_a_rollout_budget_give_the_same_choice(plays: int) -> None:
    st, view = _play_view(6, plays)
    assert view.seat is not None
    runs = []
    for _ in range(2):
        bot = SearchBot(view.seat, 11, Budget(rollouts=60))
        action = bot.act(view)
        runs.append((action, [(e.play, e.mean, e.n) for e in bot.evaluations]))
    assert runs[0] == runs[1]
    action = runs[0][0]
    assert isinstance(action, Play)
    # a one-unit lead or follow is among the legal actions; a throw is checked by apply
    assert action in list(legal_actions(st, view.seat)) or len(action.cards) > 1
    apply(st, view.seat, action)


def test_hand_value_is_zero_sum_between_the_teams() -> None:
    players = [HeuristicBot(s, 3) for s in range(4)]
    st, _ = run_match(load_preset("shuangsheng"), 3, players, stop_after_hand=True)
    r = st.results[-1]
    values = [hand_value(finished(st), s) for s in range(4)]
    assert values[0] == values[2] == -values[1] == -values[3]
    bteam = r.banker % 2
    up = bteam if r.outcome.side == "banker" else 1 - bteam
    sign = 1 if up == 0 else -1
    pts = r.points if bteam == 1 else -r.points
    assert values[0] == sign * r.outcome.moved + pts / 200
