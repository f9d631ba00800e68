"""The leads a hand can make: every single, pair, triple, tractor (and Titanic); a throw
is any other set of cards of one suit and is checked against the other hands on request
(:func:`shengji.rules.throws.check_throw`).

>>> from shengji.rules.presets import load_preset
>>> from shengji.rules.trump import TrumpContext
>>> ctx = TrumpContext(load_preset("shuangsheng"), level=2, trump="H")
>>> [" ".join(c.text for c in lead) for lead in unit_leads(ctx, parse_cards("S5 S5 S6 S6 S8"))]
['S8', 'S6', 'S5', 'S6 S6', 'S5 S5', 'S6 S6 S5 S5']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import product

from shengji.errors import Code, PlayError
from shengji.rules.cards import Card, parse_cards  # noqa: F401  (doctests)
from shengji.rules.trump import TrumpContext

from .units import Lead, classify_lead


def unit_leads(ctx: TrumpContext, hand: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every distinct one-unit lead of ``hand``: by effective suit (trumps, then S H C D),
    singles first, then for each width (pairs, triples, ...) the tuples followed by the
    tractors of that width by length; highest first."""
    return iter(unit_lead_list(ctx, hand))


def unit_lead_list(ctx: TrumpContext, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """:func:`unit_leads` as a list."""
    suit_of, key, strength = ctx.suit_of, ctx.key, ctx.strength
    counts: dict[Card, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    distinct = sorted(counts, key=lambda c: key[c.index], reverse=True)
    if len(distinct) == len(hand):  # no two identical cards: singles only
        return [(c,) for c in distinct]
    out: list[tuple[Card, ...]] = []
    start = 0
    n = len(distinct)
    while start < n:  # one effective suit at a time: trumps, then S H C D, high to low
        suit = suit_of[distinct[start].index]
        end = start
        while end < n and suit_of[distinct[end].index] == suit:
            end += 1
        cards = distinct[start:end]
        start = end
        out.extend([(c,) for c in cards])
        multi = [c for c in cards if counts[c] >= 2]
        w = 2
        while multi:
            out.extend([(c,) * w for c in multi])
            tractors: list[tuple[Card, ...]] = []
            if len(multi) >= 2:
                pos: dict[int, list[Card]] = {}
                for c in multi:
                    pos.setdefault(strength[c.index], []).append(c)
                if len(pos) >= 2:
                    tractors = list(_tractors(pos, w))
            w += 1
            multi = [c for c in multi if counts[c] >= w]
            out.extend(tractors)
    return out


def _tractors(pos: dict[int, list[Card]], w: int) -> Iterator[tuple[Card, ...]]:
    """Every tractor of width ``w`` from cards by strength: by length, then top (high first)."""
    tops = sorted(pos, reverse=True)
    k = 2
    while True:
        found = False
        for t in tops:
            if all(t - i in pos for i in range(1, k)):
                found = True
                for links in _runs([pos[t - i] for i in range(k)]):
                    yield tuple(c for c in links for _ in range(w))
        if not found:
            return
        k += 1


def _runs(choices: list[list[Card]]) -> Iterator[tuple[Card, ...]]:
    """Every pick of one card per link (equal cards of several suits give several)."""
    if all(len(x) == 1 for x in choices):
        yield tuple(x[0] for x in choices)
        return
    yield from product(*choices)


def count_unit_leads(ctx: TrumpContext, hand: Sequence[Card]) -> int:
    """Number of distinct one-unit leads."""
    return sum(1 for _ in unit_leads(ctx, hand))


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
