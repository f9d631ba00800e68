"""Units (牌型) and lead decomposition (RULES.md §3), and the one-unit leads of a hand."""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import C, ctx_for, examples, from_key, key, random_context
from shengji.errors import PlayError
from shengji.rules.cards import Card, deck
from shengji.rules.leads import count_unit_leads, unit_leads
from shengji.rules.trump import TrumpContext
from shengji.rules.units import Unit, classify_lead, decompose, lead_kind, shape_code, unit_sort_key


def units_text(units: tuple[Unit, ...]) -> list[tuple[str, Counter[Card]]]:
    return [(u.code, Counter(u.cards)) for u in units]


def expect(*pairs: tuple[str, str]) -> list[tuple[str, Counter[Card]]]:
    return [(code, Counter(C(cards))) for code, cards in pairs]


@pytest.mark.parametrize(
    ("preset", "level", "trump", "cards", "expected"),
    [
        # RULES.md §3 examples
        (
            "shuangsheng",
            5,
            "NT",
            "S5 S5 D5 D5 LJ LJ",
            [("tractor:2x2", "S5 S5 LJ LJ"), ("pair", "D5 D5")],
        ),
        (
            "shuangsheng",
            5,
            "NT",
            "D5 D5 LJ LJ H5 H5",
            [("tractor:2x2", "H5 H5 LJ LJ"), ("pair", "D5 D5")],
        ),
        (
            "shuangsheng",
            "J",
            "H",
            "SJ SJ HA HA DJ DJ HJ HJ",
            [("tractor:3x2", "HA HA SJ SJ HJ HJ"), ("pair", "DJ DJ")],
        ),
        ("classic-3deck", 2, "H", "S3 S3 S3 S4 S4", [("triple", "S3 S3 S3"), ("pair", "S4 S4")]),
        (
            "classic-3deck",
            2,
            "H",
            "S9 S9 S10 S10 SJ SJ SJ",
            [("tractor:2x2", "S9 S9 S10 S10"), ("triple", "SJ SJ SJ")],
        ),
        ("shuangsheng", 6, "S", "C5 C5 C7 C7", [("tractor:2x2", "C5 C5 C7 C7")]),
        ("shuangsheng", 5, "H", "SA SA S2 S2", [("pair", "SA SA"), ("pair", "S2 S2")]),
        # the trump chain
        (
            "classic",
            6,
            "S",
            "SA SA H6 H6 S6 S6 LJ LJ BJ BJ",
            [("tractor:5x2", "SA SA H6 H6 S6 S6 LJ LJ BJ BJ")],
        ),
        ("classic", 6, "S", "H6 H6 D6 D6", [("pair", "H6 H6"), ("pair", "D6 D6")]),
        (
            "shuangkou",
            3,
            "S",
            "SA SA D2 D2 S2 S2 D3 D3 S3 S3",
            [("tractor:5x2", "SA SA D2 D2 S2 S2 D3 D3 S3 S3")],
        ),
        ("tuolaji", 9, "NT", "C9 C9 LJ LJ BJ BJ", [("tractor:3x2", "C9 C9 LJ LJ BJ BJ")]),
        ("shuangkou", 9, "NT", "C2 C2 H9 H9 LJ LJ", [("tractor:3x2", "C2 C2 H9 H9 LJ LJ")]),
        (
            "shuangkou",
            9,
            "NT",
            "C2 C2 D2 D2 H9 H9",
            [("tractor:2x2", "C2 C2 H9 H9"), ("pair", "D2 D2")],
        ),
        # the higher suit goes into the tractor, the lower stays apart
        (
            "shuangsheng",
            7,
            "S",
            "SA SA H7 H7 D7 D7",
            [("tractor:2x2", "SA SA H7 H7"), ("pair", "D7 D7")],
        ),
        (
            "shuangsheng",
            7,
            "S",
            "D7 D7 C7 C7 SA SA",
            [("tractor:2x2", "SA SA C7 C7"), ("pair", "D7 D7")],
        ),
        (
            "shuangsheng",
            7,
            "S",
            "SA SA H7 H7 D7 D7 S7 S7",
            [("tractor:3x2", "SA SA H7 H7 S7 S7"), ("pair", "D7 D7")],
        ),
        # longest first, then ties: the higher
        (
            "shuangsheng",
            2,
            "H",
            "S3 S3 S4 S4 S6 S6 S7 S7 S8 S8",
            [("tractor:3x2", "S6 S6 S7 S7 S8 S8"), ("tractor:2x2", "S3 S3 S4 S4")],
        ),
        (
            "shuangsheng",
            2,
            "H",
            "S3 S3 S4 S4 S6 S6 S7 S7 S9",
            [("tractor:2x2", "S6 S6 S7 S7"), ("tractor:2x2", "S3 S3 S4 S4"), ("single", "S9")],
        ),
        # 3 decks: Titanic, triples never split, width must match to link
        ("classic-3deck", 2, "H", "S3 S3 S3 S4 S4 S4", [("tractor:2x3", "S3 S3 S3 S4 S4 S4")]),
        (
            "classic-3deck",
            2,
            "H",
            "S3 S3 S3 S4 S4 S5 S5",
            [("tractor:2x2", "S4 S4 S5 S5"), ("triple", "S3 S3 S3")],
        ),
        (
            "classic-3deck",
            2,
            "H",
            "S3 S3 S3 S4 S4 S4 S5 S5",
            [("tractor:2x3", "S3 S3 S3 S4 S4 S4"), ("pair", "S5 S5")],
        ),
        ("classic-3deck", 2, "H", "SK", [("single", "SK")]),
        ("classic-3deck", 2, "H", "H7 H7 H7", [("triple", "H7 H7 H7")]),
    ],
)
def test_decomposition_examples(
    preset: str, level: int | str, trump: str, cards: str, expected: list[tuple[str, str]]
) -> None:
    ctx = ctx_for(preset, level, trump)
    units = decompose(ctx, C(cards))
    assert units_text(units) == expect(*expected)


@pytest.mark.parametrize(
    ("preset", "level", "trump", "cards", "kind"),
    [
        ("shuangsheng", 6, "S", "C5 C5 C7 C7", "tractor"),
        ("shuangsheng", 6, "S", "C5 C5 C6 C6", "invalid"),  # C6 is a trump
        ("shuangsheng", 6, "S", "S3 H4", "invalid"),
        ("shuangsheng", 6, "S", "S3 H6 LJ", "throw"),  # all trumps
        ("shuangsheng", 6, "S", "BJ", "single"),
        ("shuangsheng", 6, "S", "BJ BJ", "pair"),
        ("shuangsheng", 6, "S", "H6 D6", "throw"),  # two off-suit level cards are no pair
        ("classic-3deck", 2, "S", "D9 D9 D9", "triple"),
        ("classic-3deck", 2, "S", "D9 D9 D9 D10 D10 D10", "tractor"),
        ("tuolaji", 2, "NT", "S2 H3", "invalid"),
        ("tuolaji", 2, "NT", "S2 H2", "throw"),
    ],
)
def test_lead_kind(preset: str, level: int, trump: str, cards: str, kind: str) -> None:
    assert lead_kind(ctx_for(preset, level, trump), C(cards)) == kind


def test_mixed_suits_and_empty_leads_raise() -> None:
    ctx = ctx_for("shuangsheng", 6, "S")
    with pytest.raises(PlayError) as exc:
        classify_lead(ctx, C("C5 D5"))
    assert exc.value.code == "MIXED_SUITS"
    with pytest.raises(PlayError) as exc:
        classify_lead(ctx, ())
    assert exc.value.code == "EMPTY_PLAY"
    assert lead_kind(ctx, C("C5 C5 D5")) == "invalid"


def test_shape_codes() -> None:
    assert [shape_code(s) for s in [(1, 1), (1, 2), (1, 3), (2, 2), (3, 2), (2, 3)]] == [
        "single",
        "pair",
        "triple",
        "tractor:2x2",
        "tractor:3x2",
        "tractor:2x3",
    ]


# -- properties ---------------------------------------------------------------------------

PRESETS = ("shuangsheng", "classic-3deck", "shuangkou", "tuolaji", "classic-1deck")


def one_suit_multiset(rng: random.Random) -> tuple[TrumpContext, tuple[Card, ...]]:
    """Cards of one effective suit drawn from a full deck (2 or 3 decks mostly), with
    their copies favoured so pairs, triples and tractors are common."""
    ctx = random_context(rng, PRESETS)
    cards = deck(ctx.options.decks)
    suit = rng.choice(sorted({ctx.suit_of[c.index] for c in cards}))
    pool = [c for c in cards if ctx.suit_of[c.index] == suit]
    counts = Counter(pool)
    distinct = list(counts)
    rng.shuffle(distinct)
    out: list[Card] = []
    target = rng.randrange(1, 17)
    for c in distinct:
        if len(out) >= target:
            break
        out.extend([c] * rng.randrange(0, counts[c] + 1))
    if not out:
        out = [distinct[0]]
    rng.shuffle(out)
    return ctx, tuple(out)


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=examples(300))
def test_decompose_keeps_every_card_and_sorts_largest_first(seed: int) -> None:
    ctx, cards = one_suit_multiset(random.Random(seed))
    units = decompose(ctx, cards)
    # never loses or invents cards
    assert Counter(c for u in units for c in u.cards) == Counter(cards)
    # largest first
    keys = [unit_sort_key(u) for u in units]
    assert keys == sorted(keys, reverse=True)
    counts = Counter(cards)
    suit = ctx.suit_of[cards[0].index]
    for u in units:
        assert u.suit == suit
        assert len(u.cards) == u.links * u.width
        tops = u.cards[:: u.width]
        # each link is `width` identical cards, and all copies stay together
        for i, c in enumerate(tops):
            assert u.cards[i * u.width : (i + 1) * u.width] == (c,) * u.width
            assert counts[c] == u.width
        # links are consecutive strengths, top first
        assert [ctx.strength[c.index] for c in tops] == list(range(u.top, u.top - u.links, -1))
    # identical cards stay together: every distinct card is in exactly one unit
    owners = Counter(c for u in units for c in set(u.cards))
    assert all(n == 1 for n in owners.values())
    # no unit could be extended by another of the same width (tractors are maximal)
    for u in units:
        for v in units:
            if u is v or u.width != v.width or u.width < 2:
                continue
            assert v.top != u.top - u.links, (u, v)
    lead = classify_lead(ctx, cards)
    assert lead.units == units
    assert (lead.kind == "throw") == (len(units) > 1)


def one_suit_sub_multisets(ctx: TrumpContext, hand: tuple[Card, ...]) -> set[tuple[int, ...]]:
    by_suit: dict[int, Counter[Card]] = {}
    for c in hand:
        by_suit.setdefault(ctx.suit_of[c.index], Counter())[c] += 1
    out: set[tuple[int, ...]] = set()
    for counts in by_suit.values():
        items = list(counts.items())
        for takes in product(*(range(n + 1) for _, n in items)):
            sub = [c for (c, _), t in zip(items, takes, strict=True) for _ in range(t)]
            if sub:
                out.add(key(sub))
    return out


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=examples(100))
def test_unit_leads_are_exactly_the_one_unit_sub_multisets(seed: int) -> None:
    rng = random.Random(seed)
    ctx, a = one_suit_multiset(rng)
    _, b = one_suit_multiset(rng)
    # cards of up to two effective suits, never more copies than the decks hold
    counts = Counter(a)
    hand_list = list(a)
    for c in b:
        if counts[c] < ctx.options.decks:
            counts[c] += 1
            hand_list.append(c)
    hand = tuple(hand_list[:14])
    leads = list(unit_leads(ctx, hand))
    keys = [key(ld) for ld in leads]
    assert len(keys) == len(set(keys)), "unit_leads yields a lead twice"
    assert count_unit_leads(ctx, hand) == len(leads)
    brute = {k for k in one_suit_sub_multisets(ctx, hand) if len(decompose(ctx, from_key(k))) == 1}
    assert set(keys) == brute
    hand_counts = Counter(hand)
    for ld in leads:
        assert not Counter(ld) - hand_counts
        assert classify_lead(ctx, ld).kind != "throw"


def test_unit_leads_example() -> None:
    ctx = ctx_for("shuangsheng", 2, "H")
    got = [" ".join(c.text for c in ld) for ld in unit_leads(ctx, C("S5 S5 S6 S6 S8"))]
    assert got == ["S8", "S6", "S5", "S6 S6", "S5 S5", "S6 S6 S5 S5"]
    assert count_unit_leads(ctx, C("S5 S5 S6 S6 S8")) == 6
