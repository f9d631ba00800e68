"""The RL environment runs on the kernel (``KMatch``): its action masks and observations
must be exactly what the object engine gives for the same game, ``moves.Decision`` and
``observation.encode`` of the seat's ``seat_view`` (mid-selection included), along random
games of every preset, and every selection reachable at a decision must be the same."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from shengji.env import DONE, Decision, encode, raw_env
from shengji.env.masks import decision, kind_name, mask_array
from shengji.game.actions import Call
from shengji.game.views import seat_view
from shengji.rules.cards import ALL_CARDS
from shengji.rules.presets import preset_names

#: How each hand of a test match declares (by hand number): passing nearly always
#: (redeals, kitty-card trumps), showing when it can (counter-declarations, 炒底/反底), or
#: uniformly random masked actions.
POLICIES = ("pass", "show", "uniform")


def _choose(raw: Any, mask: np.ndarray, rng: np.random.Generator) -> int:
    hand_number = raw.match.hand_number
    policy = POLICIES[hand_number % len(POLICIES)]
    declaring = raw.phase in ("deal", "before_kitty", "after_burial")
    if declaring and not raw.selection:
        if policy == "pass" and rng.random() < 0.97:
            return DONE
        if policy == "show" and mask[:DONE].any() and rng.random() < 0.9:
            return int(rng.choice(np.flatnonzero(mask[:DONE])))
    return int(rng.choice(np.flatnonzero(mask)))


def _same_as_object_engine(raw: Any, agent: str, obs: dict[str, Any]) -> str:
    """Check ``obs`` (what ``agent`` got) and, at the start of a decision, every seat's
    observation against the object engine's; the phase."""
    st = raw.game
    assert raw.phase == st.phase
    acting = agent == raw.agent_selection and st.to_act is not None
    selection = raw.selection if acting else []
    want = encode(seat_view(st, int(agent[-1])), selection)
    assert np.array_equal(obs["observation"], want), np.flatnonzero(obs["observation"] != want)
    if not selection:
        for seat in range(raw.seats):
            got = raw.observe(f"seat_{seat}")["observation"]
            want = encode(seat_view(st, seat), [])
            assert np.array_equal(got, want), (seat, np.flatnonzero(got != want))
    if acting:
        d = Decision(seat_view(st, st.to_act))
        assert list(obs["action_mask"].astype(bool)) == d.mask(selection), (
            d.kind,
            [c.text for c in selection],
        )
    else:
        assert not obs["action_mask"].any()
    return str(st.phase)


def _play(
    preset: str, seed: int, max_hands: int, overrides: Any = None
) -> tuple[Any, Counter[str]]:
    raw = raw_env(preset, max_hands=max_hands, overrides=overrides)
    raw.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    deals = set()
    for agent in raw.agent_iter():
        obs, _, term, trunc, _ = raw.last()
        phase = _same_as_object_engine(raw, agent, obs)
        seen[phase] += 1
        deals.add((raw.match.hand_number, raw.match.hand.redeals))
        seen["burials"] += phase == "bury" and not raw.selection
        if term or trunc:
            raw.step(None)
            continue
        hand = raw.match.hand
        raw.step(_choose(raw, obs["action_mask"], rng))
        seen["weak"] += raw.match.hand is not hand and hand.weak >= 0  # a weak-hand redeal
    st = raw.game
    seen["throw_failed"] += sum(1 for t in st.tricks for p in t.plays if p.attempted)
    seen["redeal"] += len(deals) - raw.hands_played
    return raw, seen


_TOTALS: Counter[str] = Counter()


@pytest.mark.parametrize("preset", preset_names())
def test_masks_and_observations_are_the_object_engines(preset: str) -> None:
    raw, seen = _play(preset, 2, max_hands=3)
    assert raw.hands_played == 3 and len(raw.game.results) == 3
    assert {"deal", "bury", "play", "hand_over"} <= set(seen)
    _TOTALS.update(seen)
    _TOTALS["hands"] += 3


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [*((p, None) for p in preset_names()), *(("zhaopengyou", {"players": n}) for n in (5, 7, 8))],
)
def test_many_random_matches_observe_as_the_object_engine(preset: str, overrides: Any) -> None:
    """The kernel's observations (built in compiled code) against ``encode`` of the seat's
    view, at every step of six more matches of every preset (and 找朋友 at 5, 7 and 8
    seats), two hands each."""
    for seed in range(10, 16):
        raw, seen = _play(preset, seed, max_hands=2, overrides=overrides)
        assert raw.hands_played == 2 and seen["play"] > 0


def test_the_games_above_cover_redeals_counter_burials_and_failed_throws() -> None:
    if _TOTALS["hands"] < 3 * len(preset_names()):
        _TOTALS.clear()
        for preset in preset_names():
            _TOTALS.update(_play(preset, 2, max_hands=3)[1])
            _TOTALS["hands"] += 3
    assert _TOTALS["redeal"] > 0
    assert _TOTALS["burials"] > _TOTALS["hands"]  # some hand buried twice (炒底/反底)
    assert _TOTALS["throw_failed"] > 0 and _TOTALS["after_burial"] > 0


def test_the_end_of_a_match_is_the_object_engines() -> None:
    overrides = {"match_end": "wrap", "match_hands": 2}
    raw, seen = _play("shuangsheng", 4, max_hands=5, overrides=overrides)
    assert raw.game.phase == "match_over" and raw.phase == "match_over"
    assert all(raw.terminations.values()) and raw.hands_played == 2
    assert seen["match_over"] > 0


def _every_selection_agrees(raw: Any, budget: int) -> str:
    """Walk the selections reachable at the current decision (each multiset once, up to
    ``budget``) and compare the kernel's mask with ``moves.Decision`` at each; the kind
    of decision."""
    h = raw.match.hand
    st = raw.game
    ref = Decision(seat_view(st, st.to_act))
    stack: list[list[int]] = [[]]
    nodes = 0
    while stack and nodes < budget:
        prefix = stack.pop()
        d = decision(h, raw.match.core)
        for c in prefix:
            d.add(c)
        assert kind_name(d) == ref.kind
        want = ref.mask([ALL_CARDS[c] for c in prefix])
        mask = mask_array(d)
        assert list(mask.astype(bool)) == want, (ref.kind, prefix)
        nodes += 1
        low = prefix[-1] if prefix else 0
        stack.extend([*prefix, int(c)] for c in np.flatnonzero(mask[:DONE]) if c >= low)
    return ref.kind


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        *((p, None) for p in preset_names()),
        ("tuolaji-4deck", {"follow_shorter_tractor": True}),
        ("shuangsheng", {"declaring": "ladder"}),
    ],
)
def test_every_reachable_selection_is_allowed_alike(preset: str, overrides: Any) -> None:
    raw = raw_env(preset, max_hands=1, overrides=overrides)
    raw.reset(seed=2)
    rng = np.random.default_rng(2)
    kinds: Counter[str] = Counter()
    for _agent in raw.agent_iter():
        obs, _, term, trunc, _ = raw.last()
        if term or trunc:
            raw.step(None)
            continue
        if not raw.selection:
            kinds[_every_selection_agrees(raw, 30)] += 1
        raw.step(_choose(raw, obs["action_mask"], rng))
    calls = {"call"} if raw.options.friends else set()
    assert set(kinds) == {"declare", "bury", "lead", "follow", *calls}


@pytest.mark.parametrize(
    ("players", "seed", "trump_suit"), [(5, 1, True), (6, 2, True), (8, 3, True), (6, 4, False)]
)
def test_every_call_selection_is_allowed_alike(players: int, seed: int, trump_suit: bool) -> None:
    """The banker's calls card by card: the kernel's masks are ``moves.Decision``'s for
    every selection (up to a budget), and ``DONE`` makes the calls the object engine has;
    also with ``call_trump_suit`` off."""
    overrides = {"players": players, "call_trump_suit": trump_suit}
    raw = raw_env("zhaopengyou", max_hands=1, overrides=overrides)
    raw.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while raw.phase != "call":
        raw.step(_choose(raw, raw.observe(raw.agent_selection)["action_mask"], rng))
    assert _every_selection_agrees(raw, 3000) == "call"
    st = raw.game
    ref = Decision(seat_view(st, st.to_act))
    while raw.phase == "call":
        mask = raw.observe(raw.agent_selection)["action_mask"]
        choice = int(rng.choice(np.flatnonzero(mask)))
        if choice == DONE:
            want = ref.action(raw.selection)
        raw.step(choice)
    assert isinstance(want, Call)
    assert tuple(c.call for c in raw.game.calls) == want.calls


def test_weak_hand_redeals_are_the_object_engines() -> None:
    """完全造反 (``weak_redeal``): the environment redeals a weak hand as the game engine
    does, with the same masks and observations before and after."""
    raw, seen = _play("classic-1deck", 4, max_hands=2, overrides={"weak_redeal": "A"})
    assert raw.hands_played == 2
    assert seen["redeal"] > 0


#: The rules of issue 37 that the kernel's masks and observations follow: 找朋友's count
#: declaring with weak-hand redeals, calls outside the trump suit and the penalty counted
#: for the thrower's final side; the plain ladder; the smallest forced unit, shorter
#: tractors followed, the kitty bonus on all cards and fixed 40-point steps.
RULES37: list[tuple[str, dict[str, Any]]] = [
    ("zhaopengyou", {"players": 5, "weak_redeal": "A"}),
    ("zhaopengyou", {"players": 6, "call_trump_suit": False, "throw_penalty": "per_card"}),
    (
        "zhaopengyou",
        {"players": 7, "throw_penalty": "per_attempt", "small_side_bonus": 1, "start_level": "K"},
    ),
    ("zhaopengyou", {"players": 8, "throw_penalty": "per_card", "throw_penalty_side": "thrown"}),
    ("shuangsheng", {"declaring": "ladder"}),
    ("tuolaji", {"declaring": "count", "weak_redeal": "K", "constant_twos": True}),
    ("tuolaji-4deck", {"follow_shorter_tractor": True, "throw_forced": "smallest"}),
    (
        "classic-3deck",
        {
            "follow_shorter_tractor": True,
            "throw_penalty": "per_card",
            "kitty_multiplier": "all_cards",
            "level_table": "standard-fixed",
        },
    ),
]


@pytest.mark.parametrize(("preset", "overrides"), RULES37, ids=[str(v) for v in RULES37])
def test_the_options_of_other_tables_observe_as_the_object_engine(
    preset: str, overrides: dict[str, Any]
) -> None:
    seen: Counter[str] = Counter()
    for seed in range(20, 24):
        raw, more = _play(preset, seed, max_hands=2, overrides=overrides)
        assert raw.hands_played == 2 or raw.game.phase == "match_over"
        seen.update(more)
    if "weak_redeal" in overrides:
        assert seen["weak"] > 0
    if overrides.get("throw_penalty", "none") != "none" or "throw_forced" in overrides:
        assert seen["throw_failed"] > 0
