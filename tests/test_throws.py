"""Throws (甩牌, RULES.md §4): validity, the forced unit and the penalty modes."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import C, ctx_for, examples, key, random_context, random_throw
from shengji.rules.cards import Card, deck
from shengji.rules.throws import ThrowResult, beats_unit, check_throw, throw_penalty_points
from shengji.rules.trump import TrumpContext
from shengji.rules.units import classify_lead, decompose


def throw(ctx: TrumpContext, lead: str, *others: str, banker: bool = False) -> ThrowResult:
    hands = [C(h) for h in others] + [()] * (3 - len(others))
    return check_throw(ctx, C(lead), hands, banker)


def played(r: ThrowResult) -> Counter[Card]:
    return Counter(r.played)


# -- RULES.md §4 examples -----------------------------------------------------------------


def test_98844_higher_single_forces_the_single() -> None:
    ctx = ctx_for("tuolaji", 2, "H")
    r = throw(ctx, "S9 S8 S8 S4 S4", "S3 D5", "S6 S7", "SJ C4")
    assert not r.valid
    assert played(r) == Counter(C("S9"))
    assert [(u.code, i) for u, i in r.beaten] == [("single", 3)]


def test_98844_higher_pair_forces_the_lowest_pair() -> None:
    ctx = ctx_for("tuolaji", 2, "H")
    r = throw(ctx, "S9 S8 S8 S4 S4", "S3 D5", "SQ SQ", "S6 C4")
    assert not r.valid
    assert played(r) == Counter(C("S4 S4"))
    # both pairs are beaten, and the single too
    assert sorted(u.code for u, _ in r.beaten) == ["pair", "pair", "single"]
    assert {i for _, i in r.beaten} == {2}


def test_equal_does_not_beat() -> None:
    ctx = ctx_for("shuangsheng", 2, "H")
    r = throw(ctx, "CK CJ CJ", "CK C5", "C9 C9", "CQ D3")
    assert r.valid and played(r) == Counter(C("CK CJ CJ")) and r.penalty == 0 and not r.beaten


def test_partner_blocks_too() -> None:
    ctx = ctx_for("shuangkou", 3, "H")
    r = throw(ctx, "SA SQ", "S8 D4", "SK C9", "S7", banker=True)
    assert not r.valid
    assert played(r) == Counter(C("SQ"))
    assert [i for _, i in r.beaten] == [2]  # the partner (index 2) beats it


def test_a_pair_inside_a_triple_beats_a_pair() -> None:
    ctx = ctx_for("classic-3deck", 2, "S")
    r = throw(ctx, "H4 H4 HA", "H9 H9 H9 D3")
    assert not r.valid and played(r) == Counter(C("H4 H4"))


def test_trumps_do_not_beat_a_side_suit_throw() -> None:
    ctx = ctx_for("tuolaji", 2, "H")
    r = throw(ctx, "SA SK SQ", "H3 H3 BJ", "LJ D4", "C5 C6")
    assert r.valid


def test_tractor_beaten_only_by_a_tractor() -> None:
    ctx = ctx_for("tuolaji", 2, "H")
    lead = "S7 S7 S8 S8 SA"
    # two separate higher pairs do not beat a tractor
    assert throw(ctx, lead, "S9 S9 SJ SJ", "D4", "C4").valid
    # a higher tractor does
    r = throw(ctx, lead, "S9 S9 S10 S10", "D4", "C4")
    assert not r.valid and played(r) == Counter(C("S7 S7 S8 S8"))
    # so does a longer one, and a higher one of greater width (3 decks)
    r = throw(ctx, lead, "SJ SJ SQ SQ SK SK", "D4", "C4")
    assert not r.valid and played(r) == Counter(C("S7 S7 S8 S8"))
    ctx3 = ctx_for("classic-3deck", 2, "H")
    r = throw(ctx3, lead, "S9 S9 S9 S10 S10 S10")
    assert not r.valid and played(r) == Counter(C("S7 S7 S8 S8"))
    # a shorter higher tractor does not beat a longer one
    r = throw(ctx, "S3 S3 S4 S4 S5 S5 SA", "SJ SJ SQ SQ", "D4", "C4")
    assert r.valid


def test_titanic_needs_a_titanic() -> None:
    ctx = ctx_for("classic-3deck", 2, "H")
    lead = "S3 S3 S3 S4 S4 S4 SA"
    assert throw(ctx, lead, "S9 S9 S10 S10 SJ SJ").valid  # tractor of pairs: too narrow
    assert throw(ctx, lead, "S9 S9 S9 SJ SJ SJ").valid  # two triples that do not link
    r = throw(ctx, lead, "S9 S9 S9 S10 S10 S10")
    assert not r.valid and played(r) == Counter(C("S3 S3 S3 S4 S4 S4"))


def test_failed_throw_priority_longer_tractor_triple_pair_single() -> None:
    ctx = ctx_for("classic-3deck", 2, "H")
    # tractor of 2, triple, pair and single, all beaten: the tractor is played
    lead = "S3 S3 S4 S4 S6 S6 S6 S8 S8 S10"
    beater = "SJ SJ SQ SQ SK SK SK SA"
    r = throw(ctx, lead, beater)
    assert sorted(u.code for u, _ in r.beaten) == ["pair", "single", "tractor:2x2", "triple"]
    assert played(r) == Counter(C("S3 S3 S4 S4"))
    # without the tractor beaten: the triple
    r = throw(ctx, lead, "SJ SJ SK SK SK SA")
    assert played(r) == Counter(C("S6 S6 S6"))
    # then the lowest pair
    r = throw(ctx, "S3 S3 S5 S5 S8 S8 SA", "SJ SJ")
    assert played(r) == Counter(C("S3 S3"))
    # then the lowest single
    r = throw(ctx, "S3 S5 S8 SA", "SK")
    assert played(r) == Counter(C("S3"))


def test_longer_tractor_before_shorter() -> None:
    ctx = ctx_for("tuolaji", 2, "H")
    r = throw(ctx, "S3 S3 S4 S4 S5 S5 S7 S7 S8 S8", "SJ SJ SQ SQ SK SK")
    assert played(r) == Counter(C("S3 S3 S4 S4 S5 S5"))


def test_lowest_among_equal_ranks_is_the_lower_suit() -> None:
    ctx = ctx_for("tuolaji", 7, "S")
    r = throw(ctx, "H7 D7", "S7")
    assert not r.valid
    assert played(r) == Counter(C("D7"))


def test_single_unit_lead_is_always_valid() -> None:
    ctx = ctx_for("tuolaji", 2, "H")
    r = throw(ctx, "S9 S9 S10 S10", "SA SA SK SK", "D3", "C3")
    assert r.valid and r.penalty == 0 and not r.stake


# -- penalties ----------------------------------------------------------------------------

# (lead, beating hand, beaten units' cards)
CASES = [
    ("SA SQ", "SK", 10),  # one single: 10
    ("SA SQ SQ", "SK SK", 40),  # a pair: 2 cards x 20
    ("SA S7 S7 S8 S8", "S9 S9 S10 S10", 160),  # a 2-link tractor: 4 cards x 40
    ("SA S3 S3 S4 S4 S5 S5", "S9 S9 S10 S10 SJ SJ", 360),  # 3-link: 6 cards x 60
    ("S5 S5 S6 S6 S9 S9 SJ", "SQ S10 S10", 50),  # pair 40 + single 10
]


@pytest.mark.parametrize(("lead", "beater", "per_card"), CASES)
@pytest.mark.parametrize("banker", [False, True])
def test_penalty_modes(lead: str, beater: str, per_card: int, banker: bool) -> None:
    sign = 1 if banker else -1
    expected = {"none": 0, "per_card": per_card, "per_attempt": 10, "stake": 0}
    for mode, pts in expected.items():
        ctx = ctx_for("tuolaji", 2, "H", throw_penalty=mode)
        r = throw(ctx, lead, beater, banker=banker)
        assert not r.valid
        assert r.penalty == sign * pts, mode
        assert r.stake is (mode == "stake")
        assert throw_penalty_points(ctx.options, [u for u, _ in r.beaten]) == pts


def test_shuangkou_per_card_example() -> None:
    ctx = ctx_for("shuangkou", 3, "H")
    r = throw(ctx, "S5 S5 S6 S6 S9 S9 SJ", "SQ D4", "S10 S10", "C7")
    assert played(r) == Counter(C("S9 S9"))
    assert r.penalty == -50
    r = throw(ctx, "S7 S7 S8 S8 SA", "S9 S9 S10 S10", "D4", "C4", banker=True)
    assert played(r) == Counter(C("S7 S7 S8 S8"))
    assert r.penalty == 160


def test_valid_throw_has_no_penalty_in_any_mode() -> None:
    for mode in ("none", "per_card", "per_attempt", "stake"):
        ctx = ctx_for("tuolaji", 2, "H", throw_penalty=mode)
        r = throw(ctx, "SA SK SK", "SQ SQ", "S3", "D4")
        assert r.valid and r.penalty == 0 and not r.stake and not r.beaten


def test_presets_penalty_modes() -> None:
    lead, beater = "SA SQ", "SK"
    assert throw(ctx_for("shuangsheng", 2, "H"), lead, beater).stake
    assert throw(ctx_for("shuangkou", 3, "H"), lead, beater).penalty == -10
    assert throw(ctx_for("classic", 2, "H"), lead, beater).penalty == 0


# -- properties ---------------------------------------------------------------------------


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=examples(300))
def test_throw_check_properties(seed: int) -> None:
    rng = random.Random(seed)
    ctx = random_context(rng, ("shuangsheng", "shuangkou", "classic-3deck", "tuolaji"))
    cards = deck(ctx.options.decks)
    rng.shuffle(cards)
    n = ctx.options.hand_size
    hands = [tuple(cards[i * n : (i + 1) * n]) for i in range(4)]
    lead = random_throw(ctx, hands[0], rng)
    if lead is None:
        return
    banker = rng.random() < 0.5
    r = check_throw(ctx, lead, hands[1:], banker)
    units = classify_lead(ctx, lead).units
    beaten_expected = [u for u in units if any(beats_unit(ctx, u, h) for h in hands[1:])]
    assert [u for u, _ in r.beaten] == beaten_expected
    for u, i in r.beaten:
        assert beats_unit(ctx, u, hands[i])
        assert not any(beats_unit(ctx, u, hands[j]) for j in range(1, i))
    if r.valid:
        assert key(r.played) == key(lead) and r.penalty == 0
    else:
        # the forced unit is one of the beaten units, of the highest priority kind
        forced = decompose(ctx, r.played)
        assert len(forced) == 1
        shapes = [u.shape for u, _ in r.beaten]
        assert forced[0].shape == max(shapes)
        assert forced[0].top == min(u.top for u, _ in r.beaten if u.shape == max(shapes))
        assert not Counter(r.played) - Counter(lead)
        assert (r.penalty >= 0) if banker else (r.penalty <= 0)
