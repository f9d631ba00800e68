"""The oracle's units (牌型) and the decomposition of a lead (§3).

A unit has ``links`` (k) and ``width`` (w): a single is 1x1, a pair 1x2, a triple 1x3, a
tractor of k pairs kx2 and a Titanic of k triples kx3 (with 4 decks, four identical cards
make a 1x4 "quad"; see docs/rules.md). Units order by ``(links, width)``: longer tractor >
shorter tractor > triple > pair > single.

>>> from shengji.rules.presets import load_preset
>>> from shengji.rules.trump import TrumpContext
>>> ctx = TrumpContext(load_preset("classic-3deck"), level=2, trump="H")
>>> lead = classify_lead(ctx, parse_cards("S9 S9 S10 S10 SJ SJ SJ"))
>>> lead.kind, lead.codes
('throw', ('tractor:2x2', 'triple'))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from shengji.errors import Code, PlayError
from shengji.rules.cards import Card, parse_cards  # noqa: F401  (parse_cards is used by doctests)
from shengji.rules.trump import TrumpContext
from shengji.rules.units import Lead as Lead  # the data types are the product's
from shengji.rules.units import Shape as Shape
from shengji.rules.units import Unit as Unit
from shengji.rules.units import shape_code, unit_sort_key


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
    """Split cards of one effective suit into units, largest first (§3).

    Identical cards stay together; tuples of equal width at adjacent strengths join into
    tractors, longest run first (ties: the higher), one card per strength, preferring the
    higher suit among equal cards; this repeats on what is left.
    """
    suit = effective_suit_of(ctx, cards)
    if suit is None:
        raise PlayError("cards of several effective suits do not form units", code=Code.MIXED_SUITS)
    strength, tiebreak = ctx.strength, ctx.tiebreak
    counts = Counter(cards)
    by_width: dict[int, dict[int, list[Card]]] = {}
    for c, n in counts.items():
        by_width.setdefault(n, {}).setdefault(strength[c.index], []).append(c)
    units: list[Unit] = []
    for w, positions in by_width.items():
        for lst in positions.values():
            lst.sort(key=lambda c: tiebreak[c.index], reverse=True)
        if w >= 2:
            while True:
                run = _longest_run(positions)
                if run is None:
                    break
                lo, hi = run
                taken = [positions[s].pop(0) for s in range(hi, lo - 1, -1)]
                units.append(_unit(hi - lo + 1, w, hi, suit, taken))
                for s in range(lo, hi + 1):
                    if not positions[s]:
                        del positions[s]
        for s, lst in positions.items():
            for c in lst:
                units.append(_unit(1, w, s, suit, [c]))
    units.sort(key=unit_sort_key, reverse=True)
    return tuple(units)


def _unit(links: int, width: int, top: int, suit: int, cards: list[Card]) -> Unit:
    return Unit(links, width, top, suit, tuple(c for c in cards for _ in range(width)))


def _longest_run(positions: dict[int, list[Card]]) -> tuple[int, int] | None:
    """(low, high) strengths of the longest run of >= 2 occupied positions (ties: higher)."""
    best: tuple[int, int] | None = None
    keys = sorted(positions)
    i = 0
    while i < len(keys):
        j = i
        while j + 1 < len(keys) and keys[j + 1] == keys[j] + 1:
            j += 1
        length = j - i + 1
        if length >= 2 and (best is None or length >= best[1] - best[0] + 1):
            best = (keys[i], keys[j])
        i = j + 1
    return best


def classify_lead(ctx: TrumpContext, cards: Iterable[Card]) -> Lead:
    """Classify a lead: one unit (single/pair/triple/quad/tractor) or a ``throw``.
    Raises PlayError ``MIXED_SUITS`` if the cards are not of one effective suit and
    ``EMPTY_PLAY`` for no cards."""
    cs = tuple(cards)
    if not cs:
        raise PlayError("a lead needs at least one card", code=Code.EMPTY_PLAY)
    if len(cs) == 1:
        i = cs[0].index
        suit = ctx.suit_of[i]
        return Lead("single", suit, (Unit(1, 1, ctx.strength[i], suit, cs),), cs)
    units = decompose(ctx, cs)
    if len(units) == 1:
        u = units[0]
        kind = "tractor" if u.links > 1 else shape_code(u.shape)
    else:
        kind = "throw"
    return Lead(kind, units[0].suit, units, cs)


def lead_kind(ctx: TrumpContext, cards: Iterable[Card]) -> str:
    """Like :func:`classify_lead` but returns ``"invalid"`` for cards of several suits."""
    try:
        return classify_lead(ctx, cards).kind
    except PlayError:
        return "invalid"


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
