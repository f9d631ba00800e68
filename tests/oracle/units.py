"""The oracle's units (牌型) and how a lead splits into them, from §3.

Every unit is ``links`` tuples of ``width`` identical cards at consecutive strengths:
single 1x1, pair 1x2, triple 1x3, quad 1x4 (four decks), tractor kx2, Titanic kx3. The
larger unit has more links, then more width (a longer tractor beats a shorter one, which
beats a triple, a pair, a single).

The rule book's own example: at level J, hearts trump, ``SJ SJ HA HA DJ DJ HJ HJ`` is a
3-link tractor (HA, an off-suit J, the trump J) and a pair.

>>> from shengji.rules.presets import load_preset as preset
>>> from shengji.rules.trump import TrumpContext as Ctx
>>> hearts = Ctx(preset("classic"), level=11, trump="H")
>>> split = classify_lead(hearts, parse_cards("SJ SJ HA HA DJ DJ HJ HJ"))
>>> split.kind, split.codes, split.units[1].cards
('throw', ('tractor:3x2', 'pair'), (DJ, DJ))
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence

from shengji.errors import Code, PlayError
from shengji.rules.cards import Card, parse_cards  # noqa: F401  (parse_cards is used by doctests)
from shengji.rules.trump import TrumpContext
from shengji.rules.units import Lead as Lead  # the data types are the product's
from shengji.rules.units import Shape as Shape
from shengji.rules.units import Unit as Unit


def effective_suit_of(ctx: TrumpContext, cards: Sequence[Card]) -> int | None:
    """The common effective suit of ``cards``, or None when they are of several."""
    if not cards:
        return None
    suit_of = ctx.suit_of
    s = suit_of[cards[0].index]
    for c in cards:
        if suit_of[c.index] != s:
            return None
    return s


def decompose(ctx: TrumpContext, cards: Sequence[Card]) -> tuple[Unit, ...]:
    """The oracle's split of cards of one effective suit into units, largest first (§3).

    Copies of one card are never split: the cards become tuples (a pair, a triple...).
    Among the tuples of one width, a tractor is a chain of tuples at consecutive
    strengths; the longest chain is taken first (of equal ones, the one with the higher
    top), each link taking the tuple of the higher suit where several rank equal, and the
    search starts again on the tuples left. What no chain takes stays a lone tuple.
    """
    suit = effective_suit_of(ctx, cards)
    if suit is None:
        raise PlayError("cards of several effective suits do not form units", code=Code.MIXED_SUITS)
    copies = Counter(cards)
    found: list[Unit] = []
    for width in sorted(set(copies.values())):
        # the tuples of this width by strength, the higher suit first among equal ones
        tuples: dict[int, list[Card]] = defaultdict(list)
        ranked = sorted(
            (c for c, n in copies.items() if n == width),
            key=lambda c: (ctx.strength[c.index], ctx.tiebreak[c.index]),
            reverse=True,
        )
        for card in ranked:
            tuples[ctx.strength[card.index]].append(card)
        while width > 1:
            chain = _best_chain(set(tuples))
            if not chain:
                break
            links = [tuples[h].pop(0) for h in chain]
            found.append(_tuple_unit(len(chain), width, chain[0], suit, links))
            for h in chain:
                if not tuples[h]:
                    del tuples[h]
        for h, rest in tuples.items():
            found.extend(_tuple_unit(1, width, h, suit, [card]) for card in rest)
    found.sort(key=lambda u: (u.links, u.width, u.top), reverse=True)
    return tuple(found)


def _tuple_unit(links: int, width: int, top: int, suit: int, heads: list[Card]) -> Unit:
    """A unit of ``links`` tuples of ``width`` copies of each card of ``heads``."""
    return Unit(links, width, top, suit, tuple(c for c in heads for _ in range(width)))


def _best_chain(heights: set[int]) -> list[int]:
    """The strengths, top first, of the longest chain of two or more consecutive ones
    (of equal length, the higher chain); empty when there is none."""
    reach = {h: 1 for h in heights}  # how many consecutive strengths end at h, from below
    for h in sorted(heights):
        if h - 1 in reach:
            reach[h] = reach[h - 1] + 1
    best = max(heights, key=lambda h: (reach[h], h), default=None)
    if best is None or reach[best] < 2:
        return []
    return list(range(best, best - reach[best], -1))


_ONE_LINK_KIND = {1: "single", 2: "pair", 3: "triple", 4: "quad"}


def classify_lead(ctx: TrumpContext, cards: Iterable[Card]) -> Lead:
    """The oracle's name for a lead: the kind of its one unit (a tractor or Titanic is a
    ``tractor``), or ``throw`` when it splits into several. An empty lead is an
    EMPTY_PLAY PlayError, cards of several effective suits a MIXED_SUITS one."""
    led = tuple(cards)
    if len(led) == 0:
        raise PlayError("a lead needs at least one card", code=Code.EMPTY_PLAY)
    if len(led) == 1:  # a single needs no splitting
        (card,) = led
        one = Unit(1, 1, ctx.strength[card.index], ctx.suit_of[card.index], led)
        return Lead("single", one.suit, (one,), led)
    parts = decompose(ctx, led)
    head = parts[0]
    if len(parts) > 1:
        kind = "throw"
    elif head.links >= 2:
        kind = "tractor"
    else:
        kind = _ONE_LINK_KIND[head.width]
    return Lead(kind, head.suit, parts, led)


def lead_kind(ctx: TrumpContext, cards: Iterable[Card]) -> str:
    """:func:`classify_lead`'s kind, or ``invalid`` for no cards or several suits."""
    led = tuple(cards)
    return "invalid" if effective_suit_of(ctx, led) is None else classify_lead(ctx, led).kind


# -- hosting shapes in a multiset ---------------------------------------------------------


def placements(
    ctx: TrumpContext, counts: dict[Card, int], shape: Shape
) -> Iterator[tuple[Card, ...]]:
    """Every way to take one unit of ``shape`` from ``counts`` (cards of one suit): the
    distinct card at each link, top link first. Order: highest top first."""
    k, w = shape
    strength = ctx.strength
    pos: dict[int, list[Card]] = {}
    for c, n in counts.items():
        if n >= w:
            pos.setdefault(strength[c.index], []).append(c)
    if not pos:
        return
    for top in sorted(pos, reverse=True):
        if k == 1:
            for c in pos[top]:
                yield (c,)
            continue
        if any(top - i not in pos for i in range(1, k)):
            continue
        yield from _product([pos[top - i] for i in range(k)])


def _product(lists: list[list[Card]]) -> Iterator[tuple[Card, ...]]:
    if len(lists) == 1:
        for c in lists[0]:
            yield (c,)
        return
    for c in lists[0]:
        for rest in _product(lists[1:]):
            yield (c, *rest)


def can_host(ctx: TrumpContext, counts: dict[Card, int], shapes: Sequence[Shape]) -> bool:
    """True if disjoint units of all ``shapes`` (width >= 2 ones matter) fit in ``counts``."""
    need = [s for s in shapes if s[1] >= 2]
    if not need:
        return True
    if sum(k * w for k, w in need) > sum(counts.values()):
        return False
    need.sort(reverse=True)
    work = {c: n for c, n in counts.items() if n >= 2}
    return _host(ctx, work, need, 0)


def _host(ctx: TrumpContext, counts: dict[Card, int], shapes: list[Shape], i: int) -> bool:
    if i == len(shapes):
        return True
    shape = shapes[i]
    w = shape[1]
    for taken in list(placements(ctx, counts, shape)):
        for c in taken:
            counts[c] -= w
        ok = _host(ctx, counts, shapes, i + 1)
        for c in taken:
            counts[c] += w
        if ok:
            return True
    return False


def best_top(ctx: TrumpContext, cards: Sequence[Card], shapes: Sequence[Shape]) -> int | None:
    """If ``cards`` can be grouped exactly into units of ``shapes`` (largest first), the
    highest possible top of a unit of the largest shape; else None."""
    if sum(k * w for k, w in shapes) != len(cards):
        return None
    counts = dict(Counter(cards))
    first, rest = shapes[0], list(shapes[1:])
    w = first[1]
    for taken in list(placements(ctx, counts, first)):
        for c in taken:
            counts[c] -= w
        ok = can_host(ctx, counts, rest)
        for c in taken:
            counts[c] += w
        if ok:
            return ctx.strength[taken[0].index]
    return None
