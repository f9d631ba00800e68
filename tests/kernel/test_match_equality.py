"""The whole-match gate: the kernel's match engine (deal with shows, declaring windows,
burial, 炒底/反底, 找朋友's calls, play, scoring, levels, coins) against the oracle's game
flow (the object rules core, ``tests/oracle``), decision by decision, on random matches of
every preset, of option variants and of 找朋友 at 4 to 8 seats, on the pure and (where
built) the compiled path."""

from __future__ import annotations

from typing import Any

import pytest

from shengji.rules.presets import load_preset

from .conftest import kernels
from .gate import check_matches, oracle_presets

SEEDS = 40
HANDS = 3

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("shuangsheng", {"no_declaration": "no_trump", "coins": True, "stake_doubling": True}),
    ("shuangsheng", {"match_hands": 2, "throw_penalty": "stake", "coins": True}),
    ("shuangkou", {"no_declaration": "kitty_card_3", "counter_takes_banker": True}),
    ("classic", {"no_declaration": "kitty_card_4", "decks": 3}),
    ("tuolaji", {"counter_takes_banker": True, "fixed_level": "J", "j_hook": True}),
    ("tuolaji", {"start_level": "A", "match_end": "defend_ace"}),
    ("botzone", {"start_level": "K", "must_play_levels": "K A", "max_gain": 2}),
    ("classic-1deck", {"level_table": "classic-1deck-45", "throw_penalty": "per_card"}),
]

#: 找朋友 at the other table sizes (the preset seats six) and with its options.
FRIENDS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 5},
    {"players": 7},
    {"players": 8},
    {"players": 8, "friend_calls": 1},
    {"players": 6, "decks": 2},
    {"players": 5, "match_hands": 3, "start_level": "K"},
    {"players": 7, "start_level": "A"},
    {"players": 6, "declaring": "shuangkou", "throw_penalty": "per_card"},
    {"players": 8, "must_play_levels": "5 10", "start_level": "4", "max_gain": 2},
    {"players": 6, "match_end": "reach_ace", "start_level": "Q"},
    {"players": 4, "match_end": "reach_ace", "start_level": "K"},
]


@pytest.mark.parametrize("preset", oracle_presets())
def test_every_preset_plays_the_same_matches(preset: str) -> None:
    ks = kernels()
    rep = check_matches(load_preset(preset), range(SEEDS), ks, hands=HANDS)
    assert rep.mismatches == []
    assert rep.hands == SEEDS * HANDS * len(ks)


@pytest.mark.parametrize(("preset", "overrides"), VARIANTS, ids=[str(v) for v in VARIANTS])
def test_option_variants_play_the_same_matches(preset: str, overrides: dict[str, Any]) -> None:
    opts = load_preset(preset).with_overrides(overrides)
    rep = check_matches(opts, range(500, 515), kernels(), hands=6)
    assert rep.mismatches == []
    assert rep.hands > 0


@pytest.mark.parametrize("overrides", FRIENDS, ids=[str(v) for v in FRIENDS])
def test_friends_tables_play_the_same_matches(overrides: dict[str, Any]) -> None:
    """找朋友 at 4 to 8 seats: calls, friends found, sides, points, every player's level,
    the next banker and the match end, hand after hand."""
    opts = load_preset("zhaopengyou", overrides)
    rep = check_matches(opts, range(700, 715), kernels(), hands=4)
    assert rep.mismatches == []
    assert rep.hands > 0


def test_a_wrong_kernel_answer_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The gate is not blind: a kernel whose declaring forgets one rule is reported."""
    from shengji.engine import Kernel

    k = Kernel(pure=True)
    real = k.core.KDeclare._shuangsheng

    def no_own_check(self: Any, seat: int, card: int, count: int, phase: int) -> str:
        if self.declared and count >= 2 and seat == self.holder:
            return str(self._countered(seat, card, count, self.first_hand, True))
        return str(real(self, seat, card, count, phase))

    monkeypatch.setattr(k.core.KDeclare, "_shuangsheng", no_own_check)
    rep = check_matches(load_preset("shuangsheng"), range(60), [k], hands=2)
    # the declarer is offered its own counters, so the deal stops at other draws
    assert any("hand 0" in m and "differ" in m for m in rep.mismatches)
