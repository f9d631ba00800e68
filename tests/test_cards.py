"""Card notation (RULES.md §1), points and deck sizes."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples
from shengji.errors import CardError
from shengji.rules.cards import (
    ALL_CARDS,
    BIG_JOKER,
    LITTLE_JOKER,
    Card,
    Suit,
    card,
    card_from_index,
    deck,
    format_cards,
    kitty_size,
    parse_card,
    parse_cards,
    parse_rank,
    points,
    rank_text,
)


def test_there_are_54_distinct_cards_with_dense_indexes() -> None:
    assert len(ALL_CARDS) == 54
    assert [c.index for c in ALL_CARDS] == list(range(54))
    assert len({c.text for c in ALL_CARDS}) == 54
    assert sum(c.is_joker for c in ALL_CARDS) == 2


@pytest.mark.parametrize("c", ALL_CARDS, ids=lambda c: c.text)
def test_notation_round_trip_every_card(c: Card) -> None:
    assert Card.parse(format_cards([c])) is c
    assert parse_card(c.text) is c
    assert card_from_index(c.index) is c
    assert Card.parse(c.symbol) is c  # ♠10 style, jokers stay BJ/LJ
    assert Card.parse(c.text.lower()) is c
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.deepcopy(c) is c


def test_card_text_spellings() -> None:
    assert [c.text for c in parse_cards("S10 HJ DA BJ LJ C2")] == [
        "S10",
        "HJ",
        "DA",
        "BJ",
        "LJ",
        "C2",
    ]


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=60))
@settings(max_examples=examples(200))
def test_format_parse_round_trip_any_list(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert parse_cards(format_cards(cards, sep=",")) == tuple(cards)
    assert parse_cards(format_cards(cards, sep=", ")) == tuple(cards)
    assert parse_cards([c.text for c in cards]) == tuple(cards)
    assert parse_cards(list(cards)) == tuple(cards)
    assert points(cards) == sum(c.points for c in cards)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ST", "S10"),
        ("HT", "H10"),
        ("dt", "D10"),
        ("♠10", "S10"),
        ("♥J", "HJ"),
        ("♣A", "CA"),
        ("♦2", "D2"),
        ("♠T", "S10"),
        ("s10", "S10"),
        ("hq", "HQ"),
        ("cK", "CK"),
        ("bj", "BJ"),
        ("lj", "LJ"),
        ("  DA ", "DA"),
        ("大王", "BJ"),
        ("小王", "LJ"),
    ],
)
def test_accepted_spellings(text: str, expected: str) -> None:
    assert Card.parse(text) is Card.parse(expected)


def test_sj_is_the_jack_of_spades_not_a_joker() -> None:
    sj = Card.parse("SJ")
    assert not sj.is_joker
    assert sj.suit is Suit.S
    assert sj.rank == 11
    assert sj is card("S", "J")
    assert sj is not LITTLE_JOKER and sj is not BIG_JOKER
    assert Card.parse("sj") is sj


def test_chinese_display_names() -> None:
    assert Card.parse("SA").zh == "黑桃A"
    assert Card.parse("H10").zh == "红桃10"
    assert Card.parse("CJ").zh == "梅花J"
    assert Card.parse("D2").zh == "方块2"
    assert BIG_JOKER.zh == "大王"
    assert LITTLE_JOKER.zh == "小王"
    assert Card.parse("大王") is BIG_JOKER
    assert Card.parse("小王") is LITTLE_JOKER
    assert Card.parse("SA").en == "ace of spades"
    assert BIG_JOKER.en == "big joker"


@pytest.mark.parametrize("c", [Card.parse("SA"), Card.parse("H10"), Card.parse("DJ")])
def test_chinese_suited_names_parse(c: Card) -> None:
    assert Card.parse(c.zh) is c


@pytest.mark.parametrize("bad", ["S1", "X5", "SJJ", "", "S11", "S0", "10", "S", "J", "BJJ", "H 10"])
def test_malformed_text_raises_bad_card(bad: str) -> None:
    with pytest.raises(CardError) as exc:
        Card.parse(bad)
    assert exc.value.code == "BAD_CARD"
    assert exc.value.message
    assert str(exc.value).startswith("BAD_CARD: ")


@pytest.mark.parametrize("bad", [5, None, 3.5, b"S10"])
def test_non_text_raises_bad_card(bad: object) -> None:
    with pytest.raises(CardError) as exc:
        parse_card(bad)  # type: ignore[arg-type]
    assert exc.value.code == "BAD_CARD"


def test_parse_cards_reports_the_bad_card() -> None:
    with pytest.raises(CardError) as exc:
        parse_cards("S10 S1 HJ")
    assert exc.value.code == "BAD_CARD"
    assert "S1" in exc.value.message


def test_card_is_immutable_and_not_constructible() -> None:
    c = Card.parse("S10")
    with pytest.raises(AttributeError):
        c.rank = 3
    with pytest.raises(TypeError):
        Card(Suit.S, 10)


def test_card_points() -> None:
    assert {c.text: c.points for c in parse_cards("S5 H10 CK DA LJ BJ S2 HQ")} == {
        "S5": 5,
        "H10": 10,
        "CK": 10,
        "DA": 0,
        "LJ": 0,
        "BJ": 0,
        "S2": 0,
        "HQ": 0,
    }


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_deck_sizes_and_points(n: int) -> None:
    d = deck(n)
    assert len(d) == 54 * n
    assert points(d) == 100 * n
    assert all(d.count(c) == n for c in ALL_CARDS)
    hand = (54 * n - kitty_size(n)) // 4
    assert hand * 4 + kitty_size(n) == 54 * n


def test_kitty_sizes() -> None:
    assert [kitty_size(n) for n in (1, 2, 3, 4)] == [6, 8, 6, 8]
    assert [(54 * n - kitty_size(n)) // 4 for n in (1, 2, 3, 4)] == [12, 25, 39, 52]


@pytest.mark.parametrize("n", [0, 5, -1])
def test_bad_deck_count(n: int) -> None:
    with pytest.raises(CardError):
        deck(n)


def test_ranks() -> None:
    assert [rank_text(r) for r in (2, 10, 11, 12, 13, 14)] == ["2", "10", "J", "Q", "K", "A"]
    assert [parse_rank(t) for t in ("2", "10", "T", "j", "Q", "k", "A")] == [
        2,
        10,
        10,
        11,
        12,
        13,
        14,
    ]
    for bad in ("1", "11", "Z", "", "15"):
        with pytest.raises(CardError) as exc:
            parse_rank(bad)
        assert exc.value.code == "BAD_LEVEL"
    with pytest.raises(CardError):
        rank_text(15)


def test_display_order_sorts_by_index() -> None:
    assert sorted(parse_cards("BJ D2 SA LJ S2")) == list(parse_cards("S2 SA D2 LJ BJ"))


def test_card_helper() -> None:
    assert card("S", 10) is Card.parse("S10")
    assert card(Suit.H, "J") is Card.parse("HJ")
    assert card("d", "A") is Card.parse("DA")
    assert card("S", 2) is Card.parse("S2")
    assert card("D", 14) is Card.parse("DA")


@pytest.mark.parametrize(("suit", "rank"), [("S", 1), ("S", 15), ("S", 0), ("X", 5)])
def test_card_helper_rejects_bad_arguments(suit: str, rank: int) -> None:
    with pytest.raises(CardError):
        card(suit, rank)
