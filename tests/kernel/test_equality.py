"""The equality gate: on random hands of every preset (and option variants), the kernel's
events, failed throws, legal moves and hand results equal the oracle's, on the pure and
(where built) the compiled path together. ``cd tests && python -m kernel.gate`` runs more."""

from __future__ import annotations

from typing import Any

import pytest

from shengji.rules.presets import load_preset

from .conftest import kernels
from .gate import check_hands, oracle_presets

HANDS_PER_PRESET = 250

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("tuolaji", {"decks": 4}),
    ("tuolaji", {"joker_links_level": False}),
    ("shuangkou", {"level_cards_link": False}),
    ("tuolaji", {"throw_forced": "single", "throw_penalty": "flat_per_card"}),
    ("classic-1deck", {"throw_penalty": "per_attempt"}),
    ("classic-1deck", {"level_table": "classic-1deck-45", "throw_penalty": "per_card"}),
    ("classic", {"decks": 4, "constant_twos": True, "joker_links_level": False}),
    ("zhaopengyou", {"players": 4}),
    ("zhaopengyou", {"players": 5, "throw_penalty": "per_card"}),
    ("zhaopengyou", {"players": 7}),
    ("zhaopengyou", {"players": 8, "friend_calls": 1}),
]


@pytest.mark.parametrize("preset", oracle_presets())
def test_every_preset_matches_the_engine(preset: str) -> None:
    rep = check_hands(load_preset(preset), range(HANDS_PER_PRESET), kernels())
    assert rep.mismatches == []
    assert rep.hands == HANDS_PER_PRESET
    assert rep.failed_throws > 0


@pytest.mark.parametrize(("preset", "overrides"), VARIANTS, ids=[str(v) for v in VARIANTS])
def test_option_variants_match_the_engine(preset: str, overrides: dict[str, Any]) -> None:
    opts = load_preset(preset).with_overrides(overrides)
    rep = check_hands(opts, range(1000, 1040), kernels())
    assert rep.mismatches == []
    assert rep.failed_throws > 0


def test_every_turn_checked_on_a_few_hands() -> None:
    rep = check_hands(load_preset("classic-3deck"), range(7), kernels(), move_every=1)
    assert rep.mismatches == []
    assert rep.move_checks == rep.plays
