"""The leads a hand can make, answered by the kernel: every single, pair, triple,
tractor (and Titanic); a throw is any other set of cards of one suit and is checked
against the other hands on request (:func:`shengji.rules.throws.check_throw`).

>>> from shengji.rules.presets import load_preset
>>> from shengji.rules.trump import TrumpContext
>>> ctx = TrumpContext(load_preset("shuangsheng"), level=2, trump="H")
>>> [" ".join(c.text for c in lead) for lead in unit_leads(ctx, parse_cards("S5 S5 S6 S6 S8"))]
['S8', 'S6', 'S5', 'S6 S6', 'S5 S5', 'S6 S6 S5 S5']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from ..errors import Code, PlayError
from ..kernel import access
from .cards import ALL_CARDS, Card, parse_cards  # noqa: F401  (parse_cards: doctests)
from .trump import TrumpContext
from .units import Lead, classify_lead


def unit_leads(ctx: TrumpContext, hand: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every distinct one-unit lead of ``hand``: by effective suit (trumps, then S H C D),
    singles first, then for each width (pairs, triples, ...) the tuples followed by the
    tractors of that width by length; highest first (equal cards: the higher suit
    first)."""
    return iter(unit_lead_list(ctx, hand))


def unit_lead_list(ctx: TrumpContext, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """:func:`unit_leads` as a list."""
    leads = access.core().unit_leads(access.tables(ctx), access.counts(hand))
    return [tuple(ALL_CARDS[c] for c in lead) for lead in leads]


def count_unit_leads(ctx: TrumpContext, hand: Sequence[Card]) -> int:
    """Number of distinct one-unit leads."""
    return len(access.core().unit_leads(access.tables(ctx), access.counts(hand)))


def check_lead(ctx: TrumpContext, hand: Sequence[Card], cards: Sequence[Card]) -> Lead:
    """Validate a lead's form (cards held, one effective suit) and classify it; whether a
    throw stands is decided by :func:`shengji.rules.throws.check_throw`."""
    if not cards:
        raise PlayError("a lead needs at least one card", code=Code.EMPTY_PLAY)
    if len(cards) == 1 and cards[0] in hand:
        return classify_lead(ctx, cards)
    missing = Counter(cards) - Counter(hand)
    if missing:
        text = " ".join(c.text for c in missing.elements())
        raise PlayError(
            f"not in your hand: {text}", code=Code.CARDS_NOT_IN_HAND, params={"cards": text}
        )
    try:
        return classify_lead(ctx, cards)
    except PlayError:
        raise PlayError(
            "a lead must be cards of one suit, or all trumps", code=Code.MIXED_SUITS
        ) from None
