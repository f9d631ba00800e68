"""Following (跟牌, RULES.md §5): legality, enumeration, counting and sampling, checked
against brute force over every sub-multiset of small hands."""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import (
    C,
    ctx_for,
    examples,
    from_key,
    key,
    minus,
    random_follow_position,
    sub_multiset_count,
    sub_multisets,
)
from shengji.errors import PlayError
from shengji.rules.cards import Card, deck
from shengji.rules.follow import (
    check_follow,
    count_legal_follows,
    follow_requirement,
    is_legal_follow,
    legal_follows,
    random_legal_follow,
    unit_requirements,
)
from shengji.rules.trump import TrumpContext
from shengji.rules.units import classify_lead

FOLLOW_PRESETS = ("shuangsheng", "classic-3deck", "shuangkou", "tuolaji")


# -- an independent statement of the format rule for the simple cases ---------------------


def _pairs(ctx: TrumpContext, counts: Counter[Card]) -> int:
    """Disjoint pairs held (a triple holds one pair; at most 3 decks here)."""
    return sum(1 for n in counts.values() if n >= 2)


def _has_tractor(ctx: TrumpContext, counts: Counter[Card], k: int, width: int = 2) -> bool:
    strengths = sorted({ctx.strength[c.index] for c, n in counts.items() if n >= width})
    run = best = 0
    prev = None
    for s in strengths:
        run = run + 1 if prev is not None and s == prev + 1 else 1
        best = max(best, run)
        prev = s
    return best >= k


def oracle_supported(ctx: TrumpContext, lead: Sequence[Card]) -> bool:
    """Leads whose format rule the oracle states: one unit (no Titanic), or a throw of
    singles and pairs with at most two decks."""
    ld = classify_lead(ctx, lead)
    if len(ld.units) == 1:
        k, w = ld.units[0].shape
        return k == 1 or w == 2
    return ctx.options.decks <= 2 and all(u.links == 1 and u.width <= 2 for u in ld.units)


def oracle_legal(
    ctx: TrumpContext, lead: Sequence[Card], hand: Sequence[Card], play: Sequence[Card]
) -> bool:
    """RULES.md §5 written out directly for the leads of :func:`oracle_supported`."""
    n = len(lead)
    if len(play) != n or Counter(play) - Counter(hand):
        return False
    ld = classify_lead(ctx, lead)
    x = ld.suit
    hx = Counter(c for c in hand if ctx.suit_of[c.index] == x)
    px = Counter(c for c in play if ctx.suit_of[c.index] == x)
    if hx.total() < n:
        return px.total() == hx.total()  # all of X, plus anything
    if px.total() != n:
        return False
    if len(ld.units) > 1:  # throw of pairs and singles: as many pairs as led and held
        led_pairs = sum(1 for u in ld.units if u.width == 2)
        return _pairs(ctx, px) >= min(led_pairs, _pairs(ctx, hx))
    k, w = ld.units[0].shape
    if w == 1:
        return True
    if k == 1 and w == 2:
        return _pairs(ctx, hx) == 0 or _pairs(ctx, px) >= 1
    if k == 1 and w == 3:  # triple > pair + single > 3 singles
        if any(v >= 3 for v in hx.values()):
            return any(v >= 3 for v in px.values())
        return _pairs(ctx, hx) == 0 or _pairs(ctx, px) >= 1
    # k-link tractor of pairs: the tractor if held (inside a longer one counts), else as
    # many pairs as held up to k
    if _has_tractor(ctx, hx, k):
        return _has_tractor(ctx, px, k)
    return _pairs(ctx, px) >= min(k, _pairs(ctx, hx))


# -- brute force --------------------------------------------------------------------------


def brute_force_legal(
    ctx: TrumpContext, lead: Sequence[Card], hand: Sequence[Card]
) -> set[tuple[int, ...]]:
    return {
        k for k in sub_multisets(hand, len(lead)) if is_legal_follow(ctx, lead, hand, from_key(k))
    }


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=examples(500))
def test_enumeration_count_and_sampling_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    ctx, lead, hand = random_follow_position(rng, FOLLOW_PRESETS)
    brute = brute_force_legal(ctx, lead, hand)
    assert brute, f"no legal follow for {lead} from {hand} in {ctx!r}"
    listed = list(legal_follows(ctx, lead, hand))
    keys = [key(p) for p in listed]
    assert len(keys) == len(set(keys)), "legal_follows yields a follow twice"
    assert set(keys) == brute
    for p in listed:
        assert p == ctx.sorted(p)
    assert count_legal_follows(ctx, lead, hand) == len(brute)
    ld = classify_lead(ctx, lead)
    assert count_legal_follows(ctx, ld, hand) == len(brute)  # a Lead works as well
    for _ in range(3):
        pick = random_legal_follow(ctx, lead, hand, rng)
        assert len(pick) == len(lead)
        assert key(pick) in brute
    if oracle_supported(ctx, lead):
        oracle = {
            k for k in sub_multisets(hand, len(lead)) if oracle_legal(ctx, lead, hand, from_key(k))
        }
        assert oracle == brute


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=examples(40))
def test_check_follow_agrees_with_is_legal_follow(seed: int) -> None:
    rng = random.Random(seed)
    ctx, lead, hand = random_follow_position(rng, FOLLOW_PRESETS)
    codes = {"WRONG_CARD_COUNT", "CARDS_NOT_IN_HAND", "MUST_FOLLOW_SUIT", "MUST_FOLLOW_FORMAT"}
    for k in sorted(sub_multisets(hand, len(lead)))[:200]:
        play = from_key(k)
        try:
            check_follow(ctx, lead, hand, play)
        except PlayError as e:
            assert e.code in codes
            assert e.message
            assert not is_legal_follow(ctx, lead, hand, play)
        else:
            assert is_legal_follow(ctx, lead, hand, play)
        # the order of the cards in a play never matters
        shuffled = list(play)
        rng.shuffle(shuffled)
        assert is_legal_follow(ctx, lead, hand, shuffled) == is_legal_follow(ctx, lead, hand, play)


def test_seeded_positions_cover_every_lead_kind() -> None:
    """The generator behind the properties really produces tractors, throws, triples and
    void followers (otherwise the properties would test little)."""
    kinds: Counter[str] = Counter()
    voids = 0
    for seed in range(400):
        ctx, lead, hand = random_follow_position(random.Random(seed), FOLLOW_PRESETS)
        kinds[classify_lead(ctx, lead).kind] += 1
        x = ctx.suit_of[lead[0].index]
        voids += not any(ctx.suit_of[c.index] == x for c in hand)
    assert {"single", "pair", "triple", "tractor", "throw"} <= set(kinds)
    assert voids > 10


# -- error codes --------------------------------------------------------------------------


def _code(ctx: TrumpContext, lead: str, hand: str, play: str) -> str | None:
    try:
        check_follow(ctx, C(lead), C(hand), C(play))
    except PlayError as e:
        assert e.message
        assert str(e).startswith(e.code + ": ")
        return e.code
    return None


@pytest.mark.parametrize(
    ("lead", "hand", "play", "code"),
    [
        ("S9 S9", "S3 S4 H5", "S3", "WRONG_CARD_COUNT"),
        ("S9 S9", "S3 S4 H5", "S3 S4 H5", "WRONG_CARD_COUNT"),
        ("S9", "S3 S4 H5", "", "WRONG_CARD_COUNT"),
        ("S9 S9", "S3 S4 H5", "S3 S3", "CARDS_NOT_IN_HAND"),
        ("S9", "S3 S4 H5", "SA", "CARDS_NOT_IN_HAND"),
        # enough of the led suit: every card must be of it
        ("S9 S9", "S3 S4 H5", "S3 H5", "MUST_FOLLOW_SUIT"),
        ("S9", "S3 D4", "D4", "MUST_FOLLOW_SUIT"),
        # fewer: all of them, plus anything
        ("S9 S9 S10 S10", "SK S7 S5 D3 D4 C6", "SK S7 D3 D4", "MUST_FOLLOW_SUIT"),
        ("S9 S9 S10 S10", "SK S7 S5 D3 D4 C6", "SK S7 S5 D3", None),
        # trump led (吊主): trumps while you have them, off-suit level cards are trumps
        ("H5 H5", "S2 C7 D9", "C7 D9", "MUST_FOLLOW_SUIT"),
        ("H5 H5", "S2 LJ C7 D9", "S2 LJ", None),
        ("H5", "S2 C7", "C7", "MUST_FOLLOW_SUIT"),
        # format
        ("S9 S9 S10 S10", "SK SK S5 S5 S3 H4 D7 C8", "SK SK S5 S3", "MUST_FOLLOW_FORMAT"),
        ("S9 S9 S10 S10", "SK SK S5 S5 S3 H4 D7 C8", "SK SK S5 S5", None),
        ("S9 S9", "SQ SQ S5 S3 H4", "S5 S3", "MUST_FOLLOW_FORMAT"),
        ("S9 S9", "SQ SQ S5 S3 H4", "SQ SQ", None),
        ("S9 S9", "SQ S5 S3 H4", "S5 S3", None),
        ("H9 H9", "S2 D2 H4 H4 C3", "S2 D2", "MUST_FOLLOW_FORMAT"),  # S2 D2 is no pair
        ("S9 S9 S10 S10", "SQ SQ SK SK S3 S3 C4", "SQ SQ S3 S3", "MUST_FOLLOW_FORMAT"),
        ("S9 S9 S10 S10", "SQ SQ SK SK S3 S3 C4", "SQ SQ SK SK", None),
        # void: anything goes, trumps or not
        ("S9 S9", "H3 D4 C5", "H3 C5", None),
        ("S9 S9", "H3 D4 C5", "D4 C5", None),
    ],
)
def test_check_follow_codes(lead: str, hand: str, play: str, code: str | None) -> None:
    ctx = ctx_for("shuangsheng", 2, "H")
    assert _code(ctx, lead, hand, play) == code


def test_format_messages_name_what_must_be_played() -> None:
    ctx = ctx_for("shuangsheng", 2, "H")
    with pytest.raises(PlayError) as exc:
        check_follow(ctx, C("S9 S9 S10 S10"), C("SK SK S5 S5 S3 H4 D7 C8"), C("SK SK S5 S3"))
    assert exc.value.code == "MUST_FOLLOW_FORMAT"
    assert "2 pairs" in exc.value.message and "spades" in exc.value.message
    with pytest.raises(PlayError) as exc:
        check_follow(ctx, C("S9 S9"), C("S3 S4 H5"), C("S3 H5"))
    assert exc.value.code == "MUST_FOLLOW_SUIT"
    assert "2" in exc.value.message


def test_tractor_across_the_level_rank_must_be_played() -> None:
    ctx = ctx_for("classic", 7, "S")
    lead, hand = C("HJ HJ HQ HQ"), C("H8 H8 H6 H6 H4 H4 H2 D9")
    assert not is_legal_follow(ctx, lead, hand, C("H6 H6 H4 H4"))
    assert is_legal_follow(ctx, lead, hand, C("H8 H8 H6 H6"))
    assert count_legal_follows(ctx, lead, hand) == 1


def test_longer_tractor_holds_the_shorter_one() -> None:
    ctx = ctx_for("shuangsheng", 2, "H")
    lead, hand = C("S3 S3 S4 S4"), C("S9 S9 S10 S10 SJ SJ S5 D6")
    legal = {key(p) for p in legal_follows(ctx, lead, hand)}
    assert legal == {key(C("S9 S9 S10 S10")), key(C("S10 S10 SJ SJ"))}


@pytest.mark.parametrize(
    ("lead", "hand", "play", "legal"),
    [
        # 3 decks (seed 001): a triple led -> triple > pair + single > 3 singles
        ("S4 S4 S4", "S9 S9 S9 S8 S8 S7 H2", "S8 S8 S7", False),
        ("S4 S4 S4", "S9 S9 S9 S8 S8 S7 H2", "S9 S9 S9", True),
        ("S4 S4 S4", "S9 S9 S8 S8 S7 H3", "S9 S9 S7", True),
        ("S4 S4 S4", "S9 S9 S8 S8 S7 H3", "S9 S8 S7", False),
        ("S4 S4 S4", "S9 S8 S7 S6", "S9 S8 S6", True),
        # a 2-link Titanic led -> two triples before a tractor
        ("S3 S3 S3 S4 S4 S4", "S9 S9 S9 SJ SJ SJ SQ SQ SK SK", "S9 S9 S9 SJ SJ SJ", True),
        ("S3 S3 S3 S4 S4 S4", "S9 S9 S9 SJ SJ SJ SQ SQ SK SK", "SQ SQ SK SK S9 SJ", False),
        # ... a tractor + 2 singles before triple + pair + single
        ("S3 S3 S3 S4 S4 S4", "S9 S9 S9 SQ SQ SK SK S5", "SQ SQ SK SK S9 S5", True),
        ("S3 S3 S3 S4 S4 S4", "S9 S9 S9 SQ SQ SK SK S5", "S9 S9 S9 SQ SQ S5", False),
        # a pair inside a triple counts as a held pair
        ("S4 S4", "S9 S9 S9 S7 H3", "S9 S7", False),
        ("S4 S4", "S9 S9 S9 S7 H3", "S9 S9", True),
    ],
)
def test_three_deck_format(lead: str, hand: str, play: str, legal: bool) -> None:
    ctx = ctx_for("classic-3deck", 2, "H")
    assert is_legal_follow(ctx, C(lead), C(hand), C(play)) is legal


def test_unit_requirements_titanic_ladder() -> None:
    assert unit_requirements((2, 3)) == [
        [(2, 3)],
        [(1, 3), (1, 3)],
        [(2, 2)],
        [(1, 3), (1, 2)],
        [(1, 3)],
        [(1, 2), (1, 2)],
        [(1, 2)],
        [],
    ]
    assert unit_requirements((1, 3)) == [[(1, 3)], [(1, 2)], []]
    assert unit_requirements((3, 2)) == [[(3, 2)], [(1, 2)] * 3, [(1, 2)] * 2, [(1, 2)], []]


def test_follow_requirement_tractor_breaks_into_pairs() -> None:
    ctx = ctx_for("shuangsheng", 2, "H")
    lead = classify_lead(ctx, C("S3 S3 S4 S4 S5 S5"))
    assert follow_requirement(ctx, lead, C("SK SK S9 S9 S7")) == [(1, 2), (1, 2)]
    assert follow_requirement(ctx, lead, C("SK SK SQ SQ SJ SJ S7")) == [(3, 2)]
    assert follow_requirement(ctx, lead, C("SK S9 S7")) == []


# -- counting without listing -------------------------------------------------------------


def test_sub_multiset_count_helper() -> None:
    assert sub_multiset_count(C("S3 S3 S4"), 2) == 2  # S3S3, S3S4
    assert sub_multiset_count(C("S3 S4 S5 S6"), 2) == 6
    assert sub_multiset_count(C("S3 S3 S3"), 2) == 1
    hand = C("S3 S3 S4 S5 S5 S5 H2")
    for n in range(8):
        assert sub_multiset_count(hand, n) == len(sub_multisets(hand, n))


def _void_hand(decks: int, ctx: TrumpContext, suit: int, size: int, seed: int) -> list[Card]:
    pool = [c for c in deck(decks) if ctx.suit_of[c.index] != suit]
    random.Random(seed).shuffle(pool)
    return pool[:size]


@pytest.mark.parametrize("seed", range(5))
def test_void_follower_count_is_every_sub_multiset(seed: int) -> None:
    ctx = ctx_for("shuangsheng", 2, "H")
    lead = C("S3 S3 S4 S4 S5 S5 S6 S6")  # 4-link tractor, 8 cards
    hand = _void_hand(2, ctx, ctx.suit_of[lead[0].index], 25, seed)
    expected = sub_multiset_count(hand, 8)
    assert expected > 200_000
    calls = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += event in ("call", "c_call")

    sys.setprofile(profile)
    try:
        got = count_legal_follows(ctx, lead, hand)
    finally:
        sys.setprofile(None)
    assert got == expected
    # counting must not list the follows: far fewer function calls than follows
    assert calls < 10_000 < expected // 20, f"{calls} calls to count {expected} follows"
    pick = random_legal_follow(ctx, lead, hand, random.Random(seed))
    assert len(pick) == 8 and not Counter(pick) - Counter(hand)


def test_void_follower_count_three_decks() -> None:
    ctx = ctx_for("classic-3deck", 5, "NT")
    lead = C("HA HA HA HK HK HK")  # Titanic
    hand = _void_hand(3, ctx, ctx.suit_of[lead[0].index], 39, 11)
    assert count_legal_follows(ctx, lead, hand) == sub_multiset_count(hand, 6)


@pytest.mark.parametrize("held", [0, 1, 3, 7])
def test_short_suit_count_forces_the_led_cards(held: int) -> None:
    ctx = ctx_for("tuolaji", 2, "S")
    lead = C("D3 D3 D4 D4 D6 D6 D7 D7")
    rng = random.Random(held)
    cards = minus(deck(2), lead)
    diamonds = [c for c in cards if ctx.suit_of[c.index] == ctx.suit_of[lead[0].index]]
    others = [c for c in cards if ctx.suit_of[c.index] != ctx.suit_of[lead[0].index]]
    rng.shuffle(diamonds)
    rng.shuffle(others)
    hand = diamonds[:held] + others[: 25 - held]
    assert count_legal_follows(ctx, lead, hand) == sub_multiset_count(others[: 25 - held], 8 - held)
    for _ in range(5):
        pick = random_legal_follow(ctx, lead, hand, rng)
        assert Counter(diamonds[:held]) <= Counter(pick)
        assert is_legal_follow(ctx, lead, hand, pick)


def test_doctest_position_has_one_legal_follow() -> None:
    ctx = ctx_for("shuangsheng", 2, "H")
    lead, hand = C("S9 S9 S10 S10"), C("SK SK S5 S5 S3 H4 D7 C8")
    assert count_legal_follows(ctx, lead, hand) == 1
    assert [key(p) for p in legal_follows(ctx, lead, hand)] == [key(C("SK SK S5 S5"))]
    assert key(random_legal_follow(ctx, lead, hand)) == key(C("SK SK S5 S5"))


def test_random_legal_follow_reaches_every_follow() -> None:
    ctx = ctx_for("shuangsheng", 2, "H")
    lead, hand = C("S9 S9"), C("SK SQ S5 S3 H4")
    legal = {key(p) for p in legal_follows(ctx, lead, hand)}
    assert len(legal) == 6
    rng = random.Random(5)
    seen = {key(random_legal_follow(ctx, lead, hand, rng)) for _ in range(300)}
    assert seen == legal
