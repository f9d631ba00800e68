"""找朋友 in the equality gates: the oracle's rules for friend calls (``tests/oracle/friends.py``,
written from docs/rules.md §4.16) against the product's, the gates' sensitivity, and the
product bugs they found, as regressions."""

from __future__ import annotations

from typing import Any

import pytest

from oracle import friends as oracle_friends
from shengji.rules.cards import Suit, deck
from shengji.rules.friends import callable_cards
from shengji.rules.presets import load_preset
from shengji.rules.trump import trump_context

from .conftest import kernels
from .gate import check_engine_hand, check_matches


@pytest.mark.parametrize("constant_twos", [False, True])
def test_callable_cards_are_the_oracles(constant_twos: bool) -> None:
    """Every level and trump (no-trump too): jokers, level cards and trumps outside the
    trump suit are never called, a trump-suit card may be."""
    opts = load_preset("zhaopengyou", {"constant_twos": constant_twos})
    for level in range(2, 15):
        for trump in (None, *Suit):
            got = callable_cards(trump_context(opts, level, trump))
            want = [c for c in deck(1) if oracle_friends.callable_card(c, level, trump, opts)]
            assert got == want, (level, trump)


def test_the_oracle_deals_every_table_size() -> None:
    """§4.16's table: 5 players 20 cards each and a kitty of 8, 6: 26 and 6, 7: 22 and 8,
    8: 26 and 8 (4 players keep §7's kitty)."""
    sizes = []
    for n in (4, 5, 6, 7, 8):
        opts = load_preset("zhaopengyou", {"players": n})
        sizes.append((oracle_friends.hand_size(opts), oracle_friends.kitty_size(opts)))
        assert (opts.hand_size, opts.kitty_size, opts.calls) == (
            *sizes[-1],
            oracle_friends.calls_needed(opts),
        )
    assert sizes == [(25, 8), (20, 8), (26, 6), (22, 8), (26, 8)]


def test_the_friends_gate_is_not_blind(monkeypatch: pytest.MonkeyPatch) -> None:
    """An oracle that misreads §4.16's ordinal (counting the copies of each trick afresh)
    is caught by the lockstep comparison and by the whole-match one."""
    real = oracle_friends.answered

    def this_trick_only(calls: Any, before: Any, trick: Any) -> list[tuple[int, int]]:
        return real(calls, (), trick)

    monkeypatch.setattr(oracle_friends, "answered", this_trick_only)
    opts = load_preset("zhaopengyou", {"players": 5})
    bad = [m for seed in range(30) for m in check_engine_hand(opts, seed)]
    assert bad
    rep = check_matches(opts, range(10), kernels()[:1], hands=2)
    assert rep.mismatches


def test_seats_above_four_are_offered_their_shows() -> None:
    """Regression (found by this gate, fixed in 0d541d0): the product's declaring API read
    four seats, so ``legal_shows`` offered seats 4..7 of a 找朋友 table no show (and the
    random bot never showed there, while the kernel's random player did)."""
    opts = load_preset("zhaopengyou", {"players": 5})
    bad = [m for seed in range(5) for m in check_engine_hand(opts, seed)]
    rep = check_matches(opts, range(5), kernels()[:1], hands=2)
    assert bad + rep.mismatches == []


@pytest.mark.parametrize(("players", "seed"), [(4, 21), (6, 18)])
def test_a_reach_ace_win_is_named_in_the_outcome(players: int, seed: int) -> None:
    """Regression (found by this gate, fixed in 0d541d0): a match won by ``reach_ace`` by
    a player who is neither the banker nor the first collector after the banker left the
    outcome's winner None (and the hand's explanation silent on the match)."""
    opts = load_preset(
        "zhaopengyou", {"players": players, "match_end": "reach_ace", "start_level": "Q"}
    )
    assert check_engine_hand(opts, seed, hands=4) == []


@pytest.mark.parametrize("players", [5, 6])
def test_the_calls_offered_are_the_oracles(players: int) -> None:
    """``legal_actions`` at the call: every set of distinct callable calls, in order."""
    import random

    import shengji.game as engine
    from oracle import game as oracle
    from shengji.bots.random_bot import random_action

    opts = load_preset("zhaopengyou", {"players": players})
    for seed in range(3):
        st, rng = engine.new_match(opts, seed), random.Random(seed)
        while st.phase != "call":
            seat = st.to_act
            assert seat is not None
            st, _ = engine.apply(st, seat, random_action(st, seat, rng))
        banker = st.to_act
        assert banker is not None
        got = list(engine.legal_actions(st, banker))
        assert got == list(oracle.legal_actions(st, banker))
        assert len(got) > 0
