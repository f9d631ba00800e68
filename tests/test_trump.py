"""Trump order, effective suits and tractor adjacency (RULES.md §2, §3)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from helpers import C, ctx_for
from shengji.errors import CardError
from shengji.rules.cards import ALL_CARDS, Card, Suit
from shengji.rules.trump import TRUMP, TrumpContext, parse_trump, trump_context, trump_text
from shengji.rules.units import classify_lead


def groups(text: str) -> list[tuple[Card, ...]]:
    """``"BJ > LJ > S3 > H3=C3=D3"`` into groups of equal cards, high to low."""
    return [C(g.replace("=", " ")) for g in text.split(">")]


def assert_trump_order(ctx: TrumpContext, order: str, linked: bool = True) -> None:
    """The trumps are exactly the cards of ``order``, ranked as written: equal inside a
    group, strictly higher than every later group; with ``linked`` consecutive groups are
    adjacent for tractors."""
    gs = groups(order)
    listed = {c for g in gs for c in g}
    assert {c for c in ALL_CARDS if ctx.is_trump(c)} == listed
    for g in gs:
        for a in g:
            assert ctx.effective_suit(a) == TRUMP
            for b in g:
                assert ctx.compare(a, b) == 0, (a, b)
    for i, hi in enumerate(gs):
        for lo in gs[i + 1 :]:
            for a in hi:
                for b in lo:
                    assert ctx.compare(a, b) == 1, (a, b)
                    assert ctx.compare(b, a) == -1, (b, a)
        if linked and i + 1 < len(gs):
            for a in hi:
                for b in gs[i + 1]:
                    assert ctx.adjacent(b, a), (b, a)
                    assert not ctx.adjacent(a, b)


def assert_side_order(ctx: TrumpContext, suit: str, order: str) -> None:
    """Side suit ``suit`` holds exactly ``order`` (high to low), consecutive cards adjacent."""
    cards = C(order)
    s = Suit[suit]
    assert {c for c in ALL_CARDS if not ctx.is_trump(c) and c.suit is s} == set(cards)
    for hi, lo in pairwise(cards):
        assert ctx.effective_suit(hi) == int(s)
        assert ctx.compare(hi, lo) == 1
        assert ctx.adjacent(lo, hi)
    for i, hi in enumerate(cards):
        for lo in cards[i + 2 :]:
            assert not ctx.adjacent(lo, hi)


def test_shuangkou_level_3_spades() -> None:
    ctx = ctx_for("shuangkou", 3, "S")
    assert_trump_order(
        ctx,
        "BJ > LJ > S3 > H3=C3=D3 > S2 > H2=C2=D2 > SA > SK > SQ > SJ > S10 > S9 > S8 > S7 > S6"
        " > S5 > S4",
    )
    assert_side_order(ctx, "H", "HA HK HQ HJ H10 H9 H8 H7 H6 H5 H4")
    assert_side_order(ctx, "D", "DA DK DQ DJ D10 D9 D8 D7 D6 D5 D4")


def test_shuangsheng_level_6_spades() -> None:
    ctx = ctx_for("shuangsheng", 6, "S")
    assert_trump_order(
        ctx,
        "BJ > LJ > S6 > H6=C6=D6 > SA > SK > SQ > SJ > S10 > S9 > S8 > S7 > S5 > S4 > S3 > S2",
    )
    assert_side_order(ctx, "C", "CA CK CQ CJ C10 C9 C8 C7 C5 C4 C3 C2")
    # level-rank skipping: C5 and C7 are adjacent at level 6, C5/C6 are different suits
    assert ctx.adjacent(*C("C5 C7"))
    assert not ctx.adjacent(*C("C5 C6"))
    assert ctx.effective_suit(C("C6")[0]) == TRUMP


def test_level_ace_trump_chain_continues_above_king() -> None:
    ctx = ctx_for("tuolaji", "A", "H")
    assert_trump_order(
        ctx,
        "BJ > LJ > HA > SA=CA=DA > HK > HQ > HJ > H10 > H9 > H8 > H7 > H6 > H5 > H4 > H3 > H2",
    )
    assert_side_order(ctx, "S", "SK SQ SJ S10 S9 S8 S7 S6 S5 S4 S3 S2")


def test_no_trump() -> None:
    ctx = ctx_for("shuangsheng", 6, "NT")
    assert ctx.trump is None
    assert_trump_order(ctx, "BJ > LJ > S6=H6=C6=D6")
    for s in "SHCD":
        assert_side_order(ctx, s, " ".join(s + r for r in "A K Q J 10 9 8 7 5 4 3 2".split()))


def test_no_trump_with_constant_twos() -> None:
    ctx = ctx_for("tuolaji", 9, "NT", constant_twos=True)
    assert_trump_order(ctx, "BJ > LJ > S9=H9=C9=D9 > S2=H2=C2=D2")
    assert_side_order(ctx, "H", "HA HK HQ HJ H10 H8 H7 H6 H5 H4 H3")


def test_constant_twos_with_trump_suit() -> None:
    ctx = ctx_for("tuolaji", 10, "D", constant_twos=True)
    assert_trump_order(
        ctx,
        "BJ > LJ > D10 > S10=H10=C10 > D2 > S2=H2=C2 > DA > DK > DQ > DJ > D9 > D8 > D7 > D6"
        " > D5 > D4 > D3",
    )
    assert_side_order(ctx, "S", "SA SK SQ SJ S9 S8 S7 S6 S5 S4 S3")


def test_constant_twos_at_level_two_are_just_level_cards() -> None:
    ctx = ctx_for("shuangkou", 2, "C")
    assert_trump_order(
        ctx,
        "BJ > LJ > C2 > S2=H2=D2 > CA > CK > CQ > CJ > C10 > C9 > C8 > C7 > C6 > C5 > C4 > C3",
    )


def test_without_constant_twos_two_is_the_lowest_plain_card() -> None:
    ctx = ctx_for("tuolaji", 10, "H")
    assert ctx.adjacent(*C("H2 H3"))
    assert classify_lead(ctx, C("H2 H2 H3 H3")).kind == "tractor"
    assert not ctx.adjacent(*C("SA S2")) and not ctx.adjacent(*C("S2 SA"))  # no wrap


def test_joker_links_level_false_breaks_lj_level_adjacency() -> None:
    on = ctx_for("shuangsheng", 6, "S")
    off = ctx_for("shuangsheng", 6, "S", joker_links_level=False)
    lj, s6 = C("LJ S6")
    assert on.adjacent(s6, lj)
    assert not off.adjacent(s6, lj)
    # the rest of the chain is unchanged
    assert off.adjacent(*C("LJ BJ"))
    assert off.adjacent(*C("H6 S6"))
    assert off.adjacent(*C("SA H6"))
    assert_trump_order(
        off,
        "BJ > LJ > S6 > H6=C6=D6 > SA > SK > SQ > SJ > S10 > S9 > S8 > S7 > S5 > S4 > S3 > S2",
        linked=False,
    )
    assert classify_lead(on, C("S6 S6 LJ LJ")).kind == "tractor"
    assert classify_lead(off, C("S6 S6 LJ LJ")).codes == ("pair", "pair")
    assert classify_lead(off, C("LJ LJ BJ BJ")).kind == "tractor"
    assert classify_lead(off, C("H6 H6 S6 S6")).kind == "tractor"


def test_trumps_rank_above_every_side_card_in_sort_order() -> None:
    ctx = ctx_for("shuangsheng", 6, "S")
    assert ctx.sorted(C("BJ S3 H6 S6 SA D4 C5")) == C("BJ S6 H6 SA S3 C5 D4")
    trumps = [c for c in ALL_CARDS if ctx.is_trump(c)]
    sides = [c for c in ALL_CARDS if not ctx.is_trump(c)]
    assert min(ctx.key[c.index] for c in trumps) > max(ctx.key[c.index] for c in sides)
    full = ctx.sorted(ALL_CARDS)
    assert full[:2] == C("BJ LJ")
    assert set(full[: len(trumps)]) == set(trumps)


@pytest.mark.parametrize("preset", ["shuangsheng", "shuangkou", "classic-3deck", "tuolaji"])
@pytest.mark.parametrize("level", range(2, 15))
@pytest.mark.parametrize("trump", ["S", "H", "C", "D", "NT"])
def test_every_context_is_consistent(preset: str, level: int, trump: str) -> None:
    ctx = trump_context(ctx_for(preset, 2, "S").options, level, parse_trump(trump))
    t = parse_trump(trump)
    ct = ctx.options.constant_twos and level != 2
    n_trumps = 2 + 4 + (4 if ct else 0) + (0 if t is None else 13 - 1 - (1 if ct else 0))
    assert sum(ctx.is_trump(c) for c in ALL_CARDS) == n_trumps
    for c in ALL_CARDS:
        expect_trump = c.is_joker or c.rank == level or (ct and c.rank == 2) or c.suit == t
        assert ctx.is_trump(c) == expect_trump, c
        if not expect_trump:
            assert ctx.effective_suit(c) == c.suit
    # the big joker is the unique top; strengths are dense inside each effective suit
    (big,) = C("BJ")
    assert all(ctx.compare(big, c) == 1 for c in ALL_CARDS if c.text != "BJ")
    for suit in (0, 1, 2, 3, TRUMP):
        ss = sorted({ctx.strength[c.index] for c in ALL_CARDS if ctx.suit_of[c.index] == suit})
        if not ss:
            continue
        gaps = [b - a for a, b in pairwise(ss)]
        assert all(g == 1 for g in gaps) or (suit == TRUMP and not ctx.options.joker_links_level), (
            suit,
            ss,
        )


@pytest.mark.parametrize(
    ("text", "expected"),
    [("S", Suit.S), ("h", Suit.H), ("♣", Suit.C), ("D", Suit.D), ("NT", None), ("nt", None)],
)
def test_parse_trump(text: str, expected: Suit | None) -> None:
    assert parse_trump(text) == expected
    assert trump_text(expected) == ("NT" if expected is None else expected.name)


def test_no_trump_in_chinese() -> None:
    assert parse_trump("无主") is None


@pytest.mark.parametrize("bad", ["X", "SH", "", "N"])
def test_bad_trump(bad: str) -> None:
    with pytest.raises(CardError) as exc:
        ctx_for("shuangsheng", 2, bad)
    assert exc.value.code == "BAD_TRUMP"


@pytest.mark.parametrize("bad", [1, 15, "1", "Z", "BJ"])
def test_bad_level(bad: int | str) -> None:
    with pytest.raises(CardError) as exc:
        ctx_for("shuangsheng", bad, "S")
    assert exc.value.code == "BAD_LEVEL"


def test_level_accepts_text() -> None:
    assert ctx_for("shuangsheng", "J", "S").level == 11
    assert ctx_for("shuangsheng", "10", "S").level == 10
    assert ctx_for("shuangsheng", "T", "S").level == 10


def test_a_context_pickles_without_its_kernel_tables() -> None:
    """Views travel to worker processes (hints, reviews): a context whose kernel tables
    were built pickles as its arguments and works where it lands."""
    import pickle

    from shengji.rules.cards import parse_cards
    from shengji.rules.presets import load_preset
    from shengji.rules.trump import trump_context
    from shengji.rules.units import classify_lead

    ctx = trump_context(load_preset("shuangsheng"), 5, None)
    classify_lead(ctx, parse_cards("S9 S9 S10 S10"))  # builds the tables
    assert ctx.kernel_tables is not None
    back = pickle.loads(pickle.dumps(ctx))
    assert (back.options, back.level, back.trump) == (ctx.options, ctx.level, ctx.trump)
    assert classify_lead(back, parse_cards("S9 S9 S10 S10")).kind == "tractor"
