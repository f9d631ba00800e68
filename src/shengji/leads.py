"""The leads a hand can make: every single, pair, triple, tractor (and Titanic); a throw
is any other set of cards of one suit and is checked against the other hands on request
(:func:`shengji.throws.check_throw`).

>>> from shengji.presets import load_preset
>>> from shengji.trump import TrumpContext
>>> ctx = TrumpContext(load_preset("shuangsheng"), level=2, trump="H")
>>> [" ".join(c.text for c in lead) for lead in unit_leads(ctx, parse_cards("S5 S5 S6 S6 S8"))]
['S8', 'S6', 'S5', 'S6 S6', 'S5 S5', 'S6 S6 S5 S5']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from .cards import Card, parse_cards  # noqa: F401  (doctests)
from .errors import PlayError
from .trump import TrumpContext
from .units import Lead, classify_lead, placements


def unit_leads(ctx: TrumpContext, hand: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every distinct one-unit lead of ``hand``: by effective suit (trumps first), then
    singles, pairs, triples, then tractors by width and length; highest first."""
    suit_of = ctx.suit_of
    by_suit: dict[int, dict[Card, int]] = {}
    for c, n in Counter(hand).items():
        by_suit.setdefault(suit_of[c.index], {})[c] = n
    for suit in sorted(by_suit, reverse=True):
        counts = by_suit[suit]
        top = max(counts.values())
        for w in range(1, top + 1):
            for taken in placements(ctx, counts, (1, w)):
                yield taken * w
        for w in range(2, top + 1):
            k = 2
            while True:
                found = False
                for taken in placements(ctx, counts, (k, w)):
                    found = True
                    yield tuple(c for c in taken for _ in range(w))
                if not found:
                    break
                k += 1


def count_unit_leads(ctx: TrumpContext, hand: Sequence[Card]) -> int:
    """Number of distinct one-unit leads."""
    return sum(1 for _ in unit_leads(ctx, hand))


def check_lead(ctx: TrumpContext, hand: Sequence[Card], cards: Sequence[Card]) -> Lead:
    """Validate a lead's form (cards held, one effective suit) and classify it; whether a
    throw stands is decided by :func:`shengji.throws.check_throw`."""
    if not cards:
        raise PlayError("a lead needs at least one card", code="EMPTY_PLAY")
    missing = Counter(cards) - Counter(hand)
    if missing:
        raise PlayError(
            "not in your hand: " + " ".join(c.text for c in missing.elements()),
            code="CARDS_NOT_IN_HAND",
        )
    try:
        return classify_lead(ctx, cards)
    except PlayError:
        raise PlayError(
            "a lead must be cards of one suit, or all trumps", code="MIXED_SUITS"
        ) from None
