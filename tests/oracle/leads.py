"""The oracle's one-unit leads (§4): each single, pair, triple, tractor and Titanic a
hand could lead. Throws (several units of one suit) are not listed; one is judged when it
is tried (:func:`oracle.throws.check_throw`).

At level 3, with diamonds trump, the club 2 and 4 are adjacent (the level rank drops out):

>>> from shengji.rules.presets import load_preset as preset
>>> from shengji.rules.trump import TrumpContext as Ctx
>>> diamonds = Ctx(preset("shuangsheng"), level=3, trump="D")
>>> [format_cards(u) for u in unit_leads(diamonds, parse_cards("C4 C2 C4 C2 D9"))]
['D9', 'C4', 'C2', 'C4 C4', 'C2 C2', 'C4 C4 C2 C2']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import product

from shengji.errors import Code, PlayError
from shengji.rules.cards import Card, format_cards, parse_cards  # noqa: F401  (doctests)
from shengji.rules.trump import TrumpContext

from .units import Lead, classify_lead, effective_suit_of


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
    """The oracle's check of a lead's form: some cards, each held as often as it is led,
    all of one effective suit (or all trumps); the lead comes back classified. A throw's
    standing against the other hands is :func:`oracle.throws.check_throw`'s question."""
    if len(cards) == 0:
        raise PlayError("a lead needs at least one card", code=Code.EMPTY_PLAY)
    need, held = Counter(cards), Counter(hand)
    lacking = [c for c in need for _ in range(need[c] - held[c])]
    if lacking:
        named = " ".join(c.text for c in lacking)
        raise PlayError(
            f"not in your hand: {named}", code=Code.CARDS_NOT_IN_HAND, params={"cards": named}
        )
    if effective_suit_of(ctx, cards) is None:
        raise PlayError("a lead must be cards of one suit, or all trumps", code=Code.MIXED_SUITS)
    return classify_lead(ctx, cards)
