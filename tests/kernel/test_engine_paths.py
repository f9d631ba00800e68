"""The product's game engine (every rules question answered by the kernel) against the
oracle's (``tests/oracle``: the object rules core): identical states, event streams and
errors on random hands of every preset and of 找朋友 at 4 to 8 seats, with the kernel's
pure and (where built) compiled core."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from oracle import game as oracle
from shengji.bots.random_bot import random_action
from shengji.engine import Kernel
from shengji.errors import Code, PlayError
from shengji.game.actions import Play
from shengji.game.flow import apply, new_match
from shengji.kernel import access, compiled
from shengji.rules.presets import load_preset

from .gate import check_engine_hand, oracle_presets

HANDS_PER_PRESET = 200

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("tuolaji", {"decks": 4}),
    ("tuolaji", {"throw_forced": "single", "throw_penalty": "flat_per_card"}),
    ("classic-1deck", {"throw_penalty": "per_attempt"}),
    ("shuangkou", {"level_cards_link": False, "joker_links_level": False}),
]

#: 找朋友 at the other table sizes (the preset seats six) and with its options, played
#: three hands a match (every player's level, the next banker).
FRIENDS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 5},
    {"players": 7},
    {"players": 8},
    {"players": 8, "friend_calls": 1, "throw_penalty": "per_card"},
    {"players": 6, "decks": 2, "match_hands": 2},
    {"players": 5, "start_level": "A", "declaring": "tuolaji"},
    {"players": 7, "match_end": "reach_ace", "start_level": "Q"},
]


@pytest.fixture(params=["pure", "compiled"])
def engine_kernel(request: pytest.FixtureRequest) -> Iterator[Kernel]:
    """The product's kernel core set to each path in turn (compiled skipped where not
    built); contexts keep their tables per core, so they are made afresh."""
    if request.param == "compiled" and not compiled():
        pytest.skip("the compiled kernel is not built here (pip install -e . builds it)")
    kern = Kernel(pure=request.param == "pure")
    saved = list(access._CORE)
    access._CORE[:] = [kern.core]
    from shengji.rules.trump import trump_context

    trump_context.cache_clear()
    try:
        yield kern
    finally:
        access._CORE[:] = saved
        trump_context.cache_clear()


def hands_for(kern: Kernel) -> int:
    """Fewer hands on the pure path (the compiled one, where built, takes the full run)."""
    return HANDS_PER_PRESET if kern.is_compiled or not compiled() else HANDS_PER_PRESET // 5


@pytest.mark.parametrize("preset", oracle_presets())
def test_every_preset_plays_as_the_oracle(engine_kernel: Kernel, preset: str) -> None:
    opts = load_preset(preset)
    bad: list[str] = []
    for seed in range(hands_for(engine_kernel)):
        bad.extend(check_engine_hand(opts, seed))
    assert bad == []


@pytest.mark.parametrize(("preset", "overrides"), VARIANTS, ids=[str(v) for v in VARIANTS])
def test_option_variants_play_as_the_oracle(
    engine_kernel: Kernel, preset: str, overrides: dict[str, Any]
) -> None:
    opts = load_preset(preset).with_overrides(overrides)
    bad: list[str] = []
    for seed in range(500, 500 + hands_for(engine_kernel) // 4):
        bad.extend(check_engine_hand(opts, seed, throw_rate=0.5))
    assert bad == []


@pytest.mark.parametrize("overrides", FRIENDS, ids=[str(v) for v in FRIENDS])
def test_friends_tables_play_as_the_oracle(
    engine_kernel: Kernel, overrides: dict[str, Any]
) -> None:
    """找朋友: calls (and refused calls), friends found, sides, points and results, in
    lockstep over three hands of a match."""
    opts = load_preset("zhaopengyou", overrides)
    bad: list[str] = []
    for seed in range(900, 900 + hands_for(engine_kernel) // 8):
        bad.extend(check_engine_hand(opts, seed, throw_rate=0.4, hands=3))
    assert bad == []


@pytest.mark.parametrize("paced", [False, True], ids=["asked", "paced"])
@pytest.mark.parametrize("preset", oracle_presets())
def test_shows_out_of_turn_play_as_the_oracle(
    engine_kernel: Kernel, preset: str, paced: bool
) -> None:
    """Shows during the deal by seats that were not asked (and, paced, by anyone between
    the table's deals), with refused shows, passes and deals probed: states, events and
    errors in lockstep with the oracle over two hands."""
    opts = load_preset(preset)
    bad: list[str] = []
    for seed in range(700, 700 + hands_for(engine_kernel) // 4):
        bad.extend(check_engine_hand(opts, seed, hands=2, show_rate=0.3, paced=paced))
    assert bad == []


@pytest.mark.slow
@pytest.mark.parametrize("preset", oracle_presets())
def test_many_hands_play_as_the_oracle(preset: str) -> None:
    opts = load_preset(preset)
    bad: list[str] = []
    for seed in range(10_000, 10_600):
        bad.extend(check_engine_hand(opts, seed, throw_rate=0.4, probe_rate=0.3))
    assert bad == []


def test_the_gate_is_not_blind(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that forgets the format rule is caught by the lockstep comparison (the
    pure core, whose functions can be patched)."""
    from shengji.rules.trump import trump_context

    pure = Kernel(pure=True).core
    monkeypatch.setattr(access, "_CORE", [pure])
    # patched in the core's module that calls it
    follow = importlib.import_module(f"{pure.__name__}.follow")
    monkeypatch.setattr(follow, "follow_requirement", lambda *args: [])
    trump_context.cache_clear()
    bad: list[str] = []
    try:
        for seed in range(40):
            bad.extend(check_engine_hand(load_preset("shuangsheng"), seed, probe_rate=0.5))
            if bad:
                break
    finally:
        trump_context.cache_clear()
    assert bad


def test_an_illegal_follow_is_refused_in_the_oracles_words() -> None:
    """The kernel gives a reason and its parameters; the words are the oracle's."""
    rng = random.Random(3)
    st = new_match(load_preset("shuangsheng"), 3)
    while st.phase != "play" or not st.trick:
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng, 0.0))
    seat = st.to_act
    assert seat is not None and st.lead is not None
    x = st.lead.suit
    hand = st.hands[seat]
    off = [c for c in hand if st.ctx.suit_of[c.index] != x]
    assert any(st.ctx.suit_of[c.index] == x for c in hand) and off  # seed chosen for this
    errors = []
    for engine in (apply, oracle.apply):
        with pytest.raises(PlayError) as exc:
            engine(st, seat, Play((off[0],) * len(st.lead.cards)))
        errors.append((exc.value.code, str(exc.value), exc.value.params))
    assert errors[0] == errors[1]
    assert errors[0][0] in (Code.MUST_FOLLOW_SUIT, Code.CARDS_NOT_IN_HAND)
