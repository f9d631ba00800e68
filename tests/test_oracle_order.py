"""The oracle's card order (``tests/oracle/order.py``, a ladder of ranks per effective
suit written from the rule book) agrees with :class:`shengji.rules.trump.TrumpContext`, whose
tables the kernel plays by: on every card's effective suit, on which of two cards of one
effective suit ranks higher (or equal), and on which two ranks join into a tractor; for
every level, every trump (and no-trump) and each setting of ``constant_twos``,
``joker_links_level`` and ``level_cards_link``."""

from __future__ import annotations

import itertools

import pytest

from oracle.order import ladders
from shengji.rules.cards import ALL_CARDS
from shengji.rules.presets import load_preset
from shengji.rules.trump import TRUMP, TrumpContext

_SUIT_NAME = {0: "S", 1: "H", 2: "C", 3: "D", TRUMP: "trump"}


@pytest.mark.parametrize(
    ("twos", "jokers_link", "levels_link"), list(itertools.product([False, True], repeat=3))
)
def test_the_oracles_order_is_the_trump_contexts(
    twos: bool, jokers_link: bool, levels_link: bool
) -> None:
    options = load_preset(
        "tuolaji",
        {
            "constant_twos": twos,
            "joker_links_level": jokers_link,
            "level_cards_link": levels_link,
        },
    )
    for level in range(2, 15):
        for trump in ("S", "H", "C", "D", None):
            ctx = TrumpContext(options, level, trump or "NT")
            where: dict[int, tuple[str, int, bool]] = {}
            for suit, steps in ladders(options, level, trump).items():
                for height, step in enumerate(reversed(steps)):
                    for card in step.cards:
                        assert card.index not in where, card
                        where[card.index] = (suit, height, step.joins_above)
            assert sorted(where) == [c.index for c in ALL_CARDS]
            for a in ALL_CARDS:
                suit, height, _ = where[a.index]
                assert _SUIT_NAME[ctx.suit_of[a.index]] == suit, (ctx, a)
                for b in ALL_CARDS:
                    b_suit, b_height, b_joins = where[b.index]
                    if b_suit != suit:
                        continue
                    sa, sb = ctx.strength[a.index], ctx.strength[b.index]
                    assert (sa > sb) - (sa < sb) == (height > b_height) - (height < b_height)
                    # b's step sits right under a's and joins it: b's tuple, then a's, link
                    oracle_joins = height == b_height + 1 and b_joins
                    assert (sa == sb + 1) == oracle_joins, (ctx, b, a)
