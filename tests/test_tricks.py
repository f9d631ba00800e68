"""Who wins a trick (RULES.md §5)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import C, ctx_for, examples, random_context, random_lead
from shengji.errors import PlayError
from shengji.rules.cards import Card, deck
from shengji.rules.follow import is_legal_follow, random_legal_follow
from shengji.rules.tricks import trick_winner
from shengji.rules.trump import TRUMP, TrumpContext
from shengji.rules.units import classify_lead, decompose

PRESETS = ("shuangsheng", "classic-3deck", "shuangkou", "tuolaji", "classic-1deck")


def random_trick(
    rng: random.Random,
) -> tuple[TrumpContext, list[tuple[Card, ...]], list[tuple[Card, ...]]]:
    """A dealt hand: ``(ctx, plays, hands)`` with a lead of seat 0 and legal follows."""
    ctx = random_context(rng, PRESETS)
    cards = deck(ctx.options.decks)
    rng.shuffle(cards)
    n = ctx.options.hand_size
    hands = [tuple(cards[i * n : (i + 1) * n]) for i in range(4)]
    lead = random_lead(ctx, hands[0], rng, max_cards=10)
    plays = [tuple(lead)] + [random_legal_follow(ctx, lead, hands[i], rng) for i in (1, 2, 3)]
    return ctx, plays, hands


def oracle_winner(ctx: TrumpContext, plays: Sequence[Sequence[Card]]) -> int:
    """For one-unit leads: a play wins only if it is exactly that unit, in the led suit
    or in trumps; the highest (trump first, then top) wins, the first among equals."""
    lead = classify_lead(ctx, plays[0])
    assert len(lead.units) == 1
    best, best_rank = 0, (0, lead.units[0].top)
    for i, play in enumerate(plays[1:], start=1):
        suits = {ctx.suit_of[c.index] for c in play}
        if len(suits) != 1 or not suits <= {lead.suit, TRUMP}:
            continue
        units = decompose(ctx, play)
        if len(units) != 1 or units[0].shape != lead.units[0].shape:
            continue
        rank = (1 if TRUMP in suits and lead.suit != TRUMP else 0, units[0].top)
        if rank > best_rank:
            best, best_rank = i, rank
    return best


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=examples(300))
def test_winner_ignores_card_order_inside_plays(seed: int) -> None:
    rng = random.Random(seed)
    ctx, plays, hands = random_trick(rng)
    for i in (1, 2, 3):
        assert is_legal_follow(ctx, plays[0], hands[i], plays[i])
    w = trick_winner(ctx, plays)
    assert 0 <= w <= 3
    for _ in range(3):
        shuffled = [list(p) for p in plays]
        for p in shuffled:
            rng.shuffle(p)
        assert trick_winner(ctx, shuffled) == w
        assert trick_winner(ctx, [tuple(reversed(p)) for p in plays]) == w
    # the winning play is all led suit or all trump
    x = ctx.suit_of[plays[0][0].index]
    assert {ctx.suit_of[c.index] for c in plays[w]} in ({x}, {TRUMP})
    if len(classify_lead(ctx, plays[0]).units) == 1:
        assert w == oracle_winner(ctx, plays)
    # an identical copy of the winning play, played later, never takes the trick
    if w < 3:
        copy = list(plays)
        copy[w + 1] = plays[w]
        assert trick_winner(ctx, copy) == w


def W(ctx: TrumpContext, *plays: str) -> int:
    return trick_winner(ctx, [C(p) for p in plays])


@pytest.fixture
def hearts() -> TrumpContext:
    return ctx_for("tuolaji", 2, "H")


def test_first_played_wins_ties(hearts: TrumpContext) -> None:
    assert W(hearts, "S9", "S9", "S3", "S4") == 0
    assert W(hearts, "S3", "S9", "S9", "S4") == 1
    assert W(hearts, "S9 S9", "SK S3", "S9 S9", "D3 D4") == 0
    # off-suit level cards rank equal: the first one played wins
    ctx = ctx_for("shuangsheng", 7, "S")
    assert W(ctx, "H7", "D7", "C7", "S3") == 0
    assert W(ctx, "HA", "D7", "C7", "H7") == 1
    assert W(ctx, "HA", "D7", "S7", "H7") == 2


def test_ruff_and_overruff(hearts: TrumpContext) -> None:
    assert W(hearts, "SA", "H3", "SK", "S4") == 1
    assert W(hearts, "SA", "H3", "H5", "S4") == 2
    assert W(hearts, "SA", "H3", "H5", "H2") == 3  # the trump-suit level card
    assert W(hearts, "SA", "H3", "H5", "S2") == 3  # an off-suit level card is a trump too
    assert W(hearts, "SA", "H3", "BJ", "LJ") == 2
    assert W(hearts, "S5 S5", "H3 H3", "H4 H4", "D3 D3") == 2


def test_side_suits_never_beat_each_other(hearts: TrumpContext) -> None:
    assert W(hearts, "S3", "DA", "CA", "S4") == 3
    assert W(hearts, "S3", "DA", "CA", "D2") == 3  # D2 is a level card: trump
    assert W(hearts, "S3", "DA", "CA", "DK") == 0


def test_structure_is_needed(hearts: TrumpContext) -> None:
    # two single trumps never beat a pair
    assert W(hearts, "S5 S5", "H3 H4", "BJ LJ", "S3 S4") == 0
    assert W(hearts, "S5 S5", "H3 H4", "H3 H3", "S6 S6") == 2
    # two off-suit level cards are not a pair
    assert W(hearts, "S5 S5", "S2 D2", "C2 H2", "S3 S3") == 0
    # a tractor needs a tractor: two pairs of trumps that do not link lose
    assert W(hearts, "S5 S5 S6 S6", "H3 H3 H5 H5", "S7 S7 S3 S4", "D3 D3 D4 D4") == 0
    assert W(hearts, "S5 S5 S6 S6", "H3 H3 H4 H4", "H6 H6 H8 H8", "D3 D3 D4 D4") == 1
    # a mixed play (part led suit, part trump) cannot win
    assert W(hearts, "S5 S5", "SA HA", "S3 S4", "S3 S3") == 0
    assert W(hearts, "S5 S5", "SA HA", "S3 S4", "SQ SQ") == 3


def test_trump_lead(hearts: TrumpContext) -> None:
    assert W(hearts, "H5", "H9", "S2", "H2") == 3
    assert W(hearts, "H5", "H9", "S2", "HA") == 2
    assert W(hearts, "H5", "HA", "S9", "C4") == 1
    assert W(hearts, "H5 H5", "LJ LJ", "BJ BJ", "H2 H2") == 2
    assert W(hearts, "H2 H2", "S2 S2", "HA HA", "C2 C2") == 0  # H2 outranks the off-suit 2s


def test_throws_compare_by_largest_unit() -> None:
    ctx = ctx_for("shuangkou", 3, "H")
    # pair + pair thrown: a trump tractor counts as two pairs; the highest pair wins
    assert W(ctx, "SA SA S9 S9", "H4 H4 HK HK", "H5 H5 H6 H6", "D4 D5 D6 D7") == 1
    assert W(ctx, "SA SA S9 S9", "H4 H4 H5 H5", "H6 H6 H8 H8", "D4 D5 D6 D7") == 2
    # singles: the highest single decides
    ctx = ctx_for("shuangkou", "J", "H")
    assert W(ctx, "SA SK", "H9 H5", "H8 H7", "HA H3") == 3
    # pair + single: the pair decides, the single only has to be there
    ctx = ctx_for("tuolaji", 2, "S")
    assert W(ctx, "D9 D9 D3", "S3 S3 S4", "S5 S5 C4", "S6 S6 S7") == 3
    assert W(ctx, "D9 D9 D3", "S3 S3 S4", "S5 S7 S6", "DK DQ DJ") == 1


def test_three_deck_triples() -> None:
    ctx = ctx_for("classic-3deck", 2, "H")
    assert W(ctx, "S8 S8 S8", "SA SA SK", "H3 H3 H3", "S4 S4 S4") == 2
    assert W(ctx, "S8 S8 S8", "SA SA SA", "H3 H3 H4", "S9 S9 S9") == 1
    titanic = ("S8 S8 S8 S9 S9 S9", "H3 H3 H3 H4 H4 H4", "H5 H5 H5 H7 H7 H7", "D3 D4 D5 D6 D7 D8")
    assert W(ctx, *titanic) == 1


def test_lead_can_be_given(hearts: TrumpContext) -> None:
    lead = classify_lead(hearts, C("S5 S5"))
    assert trick_winner(hearts, [C("S5 S5"), C("H3 H3"), C("S7 S7"), C("D4 D4")], lead) == 1


def test_errors(hearts: TrumpContext) -> None:
    with pytest.raises(PlayError) as exc:
        trick_winner(hearts, [])
    assert exc.value.code == "EMPTY_PLAY"
    with pytest.raises(PlayError) as exc:
        trick_winner(hearts, [C("S5 S5"), C("S3")])
    assert exc.value.code == "WRONG_CARD_COUNT"
