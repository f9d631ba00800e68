"""The game engine's play phase on the kernel (the default) against the same engine in
reference mode (the rules core alone): identical states, event streams and errors on
random hands of every preset, with the kernel's pure and (where built) compiled core."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from shengji import game
from shengji.actions import Play
from shengji.bots.random_bot import random_action
from shengji.errors import Code, PlayError
from shengji.game import apply, new_match, reference_rules, uses_kernel
from shengji.kernel import Kernel, compiled, rollout
from shengji.kernel.equality import check_engine_hand, to_play
from shengji.presets import load_preset, preset_names

HANDS_PER_PRESET = 200

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("tuolaji", {"decks": 4}),
    ("tuolaji", {"throw_forced": "single", "throw_penalty": "flat_per_card"}),
    ("classic-1deck", {"throw_penalty": "per_attempt"}),
    ("shuangkou", {"level_cards_link": False, "joker_links_level": False}),
]


@pytest.fixture(params=["pure", "compiled"])
def engine_kernel(request: pytest.FixtureRequest) -> Iterator[Kernel]:
    """The game engine's kernel set to each path in turn (compiled skipped where not built)."""
    if request.param == "compiled" and not compiled():
        pytest.skip("the compiled kernel is not built here (pip install -e . builds it)")
    if not uses_kernel():
        pytest.skip("SHENGJI_REFERENCE is set: the engine runs the reference rules only")
    kern = Kernel(pure=request.param == "pure")
    saved = list(rollout._DEFAULT)
    rollout._DEFAULT[:] = [kern]
    game._TABLES.clear()
    try:
        yield kern
    finally:
        rollout._DEFAULT[:] = saved
        game._TABLES.clear()


def hands_for(kern: Kernel) -> int:
    """Fewer hands on the pure path (the compiled one, where built, takes the full run)."""
    return HANDS_PER_PRESET if kern.is_compiled or not compiled() else HANDS_PER_PRESET // 5


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_plays_as_the_reference(engine_kernel: Kernel, preset: str) -> None:
    opts = load_preset(preset)
    bad: list[str] = []
    for seed in range(hands_for(engine_kernel)):
        bad.extend(check_engine_hand(opts, seed))
    assert bad == []


@pytest.mark.parametrize(("preset", "overrides"), VARIANTS, ids=[str(v) for v in VARIANTS])
def test_option_variants_play_as_the_reference(
    engine_kernel: Kernel, preset: str, overrides: dict[str, Any]
) -> None:
    opts = load_preset(preset).with_overrides(overrides)
    bad: list[str] = []
    for seed in range(500, 500 + hands_for(engine_kernel) // 4):
        bad.extend(check_engine_hand(opts, seed, throw_rate=0.5))
    assert bad == []


@pytest.mark.slow
@pytest.mark.parametrize("preset", preset_names())
def test_many_hands_play_as_the_reference(preset: str) -> None:
    opts = load_preset(preset)
    bad: list[str] = []
    for seed in range(10_000, 10_600):
        bad.extend(check_engine_hand(opts, seed, throw_rate=0.4, probe_rate=0.3))
    assert bad == []


def test_the_reference_switch() -> None:
    before = uses_kernel()
    with reference_rules():
        assert not uses_kernel()
        with reference_rules():
            assert not uses_kernel()
        assert not uses_kernel()
    assert uses_kernel() == before


def test_the_environment_selects_the_reference() -> None:
    code = "import shengji.game as g; print(g.uses_kernel())"
    for value, want in (("1", "False"), ("0", "True")):
        env = {**os.environ, "SHENGJI_REFERENCE": value}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == want


def test_an_illegal_follow_raises_the_reference_error() -> None:
    """The kernel only says yes or no; a no is explained by the rules core's typed error."""
    rng = random.Random(3)
    st = to_play(new_match(load_preset("shuangsheng"), 3), rng, 0.0)
    while not st.trick:
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
    for reference in (False, True):
        with pytest.raises(PlayError) as exc:
            if reference:
                with reference_rules():
                    apply(st, seat, Play((off[0],) * len(st.lead.cards)))
            else:
                apply(st, seat, Play((off[0],) * len(st.lead.cards)))
        errors.append((exc.value.code, str(exc.value), exc.value.params))
    assert errors[0] == errors[1]
    assert errors[0][0] in (Code.MUST_FOLLOW_SUIT, Code.CARDS_NOT_IN_HAND)
