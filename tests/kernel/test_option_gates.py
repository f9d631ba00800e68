"""The equality gates on the rules of issue 37: 找朋友's shows by their number of cards
(``declaring = count``, the preset's), the plain ``ladder``, the throw penalty counted for
the thrower's side at the end of the hand, and the options other tables play by. Every
rule is the kernel's against the oracle's own (``tests/oracle``), hand by hand, match by
match and through the product's ``apply``."""

from __future__ import annotations

from typing import Any

import pytest

from shengji.rules.presets import load_preset

from .conftest import kernels
from .gate import check_engine_hand, check_hands, check_matches

#: Play phases: throws, follows, friends' penalties.
PLAY: list[tuple[str, dict[str, Any]]] = [
    ("tuolaji", {"throw_forced": "smallest", "throw_penalty": "per_card"}),
    ("classic-3deck", {"throw_forced": "smallest", "throw_penalty": "per_attempt"}),
    ("tuolaji", {"follow_shorter_tractor": True}),
    ("classic-3deck", {"follow_shorter_tractor": True}),
    ("tuolaji-4deck", {"follow_shorter_tractor": True, "throw_forced": "smallest"}),
    ("tuolaji", {"kitty_multiplier": "all_cards"}),
    ("zhaopengyou", {"players": 5, "throw_penalty": "per_attempt"}),
    ("zhaopengyou", {"players": 7, "throw_penalty": "per_card", "throw_penalty_side": "thrown"}),
    ("zhaopengyou", {"players": 8, "throw_penalty": "flat_per_card"}),
]

#: Whole matches: declaring, redeals, calls, scoring and levels.
MATCHES: list[tuple[str, dict[str, Any]]] = [
    ("shuangsheng", {"declaring": "count"}),
    ("shuangsheng", {"declaring": "ladder", "no_declaration": "no_trump"}),
    ("classic-3deck", {"declaring": "ladder"}),
    ("tuolaji-4deck", {"declaring": "count", "counter_takes_banker": True}),
    ("zhaopengyou", {"players": 8}),
    ("zhaopengyou", {"players": 5, "throw_penalty": "per_attempt", "start_level": "Q"}),
    (
        "zhaopengyou",
        {"players": 5, "small_side_bonus": 1, "friend_passes_ace": True, "start_level": "K"},
    ),
    ("zhaopengyou", {"players": 6, "small_side_bonus": 2, "max_gain": 3, "call_trump_suit": False}),
    ("classic-1deck", {"weak_redeal": "A"}),
    ("tuolaji", {"weak_redeal": "K", "constant_twos": True, "start_level": "5"}),
    ("zhaopengyou", {"players": 5, "weak_redeal": "Q"}),
    ("tuolaji", {"decks": 3, "level_table": "standard-fixed", "kitty_multiplier": "all_cards"}),
]


@pytest.mark.parametrize(("preset", "overrides"), PLAY, ids=[str(v) for v in PLAY])
def test_play_options_match_the_oracle(preset: str, overrides: dict[str, Any]) -> None:
    opts = load_preset(preset, overrides)
    rep = check_hands(opts, range(2000, 2040), kernels())
    assert rep.mismatches == []
    assert rep.failed_throws > 0


@pytest.mark.parametrize(("preset", "overrides"), MATCHES, ids=[str(v) for v in MATCHES])
def test_match_options_match_the_oracle(preset: str, overrides: dict[str, Any]) -> None:
    opts = load_preset(preset, overrides)
    rep = check_matches(opts, range(3000, 3015), kernels(), hands=4)
    assert rep.mismatches == []
    assert rep.hands > 0
    bad = [m for seed in range(3000, 3006) for m in check_engine_hand(opts, seed, hands=2)]
    assert bad == []


def test_weak_hands_are_redealt_in_the_gate() -> None:
    """The weak-hand gate plays redeals: one deck of 12 cards a seat holds no joker and
    no level card often enough."""
    import random

    from oracle.game import apply, new_match
    from shengji.bots.random_bot import random_action

    opts = load_preset("classic-1deck", {"weak_redeal": "A"})
    weak = 0
    for seed in range(10):
        st, rng = new_match(opts, seed), random.Random(seed)
        while st.phase in ("deal", "before_kitty"):
            seat = st.to_act
            assert seat is not None
            st, events = apply(st, seat, random_action(st, seat, rng))
            weak += sum(1 for e in events if e["type"] == "redeal" and "weak" in e)
    assert weak > 0


def test_the_count_gate_is_not_blind(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel whose ``count`` declaring forgets the number of cards (a higher suit's
    pair over three of a kind, 找朋友's bug) is caught by the whole-match gate."""
    from shengji.engine import Kernel

    k = Kernel(pure=True)

    def by_suit_only(self: Any, card: int, count: int, suits: bool) -> bool:
        return count >= 2 and (self.rung < 2 or k.core.show_priority(card) > self.priority)

    monkeypatch.setattr(k.core.KDeclare, "_stronger", by_suit_only)
    rep = check_matches(load_preset("zhaopengyou"), range(40), [k], hands=1)
    assert rep.mismatches


def test_the_penalty_side_gate_is_not_blind(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that keeps the side known when throwing under ``final`` is caught."""
    from shengji.engine import Kernel

    k = Kernel(pure=True)
    monkeypatch.setattr(k.core.KState, "recount_penalties", lambda self: None)
    opts = load_preset("zhaopengyou", {"players": 5, "throw_penalty": "per_card"})
    rep = check_hands(opts, range(2000, 2080), [k], throw_rate=0.6)
    assert rep.mismatches
