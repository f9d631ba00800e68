"""The oracle's following (跟牌), from §5: whether a follow is legal, every legal follow,
how many there are, and one drawn at random among them.

Each unit of the lead (largest first) has a ladder of requirements, from the unit itself
down to nothing: for a 2-link Titanic, Titanic, two triples, tractor, triple and pair,
triple, two pairs, pair, nothing. The follower must meet, unit by unit, the highest rung
that the cards it holds in the led suit can meet alongside the rungs already chosen; a
follow is legal when the cards played meet those same rungs.

A tractor led at level 2 (hearts trump) by a hand with two spade pairs but no tractor:
both pairs must be played.

>>> from shengji.rules.presets import load_preset as preset
>>> from shengji.rules.trump import TrumpContext as Ctx
>>> hearts = Ctx(preset("shuangsheng"), level=2, trump="H")
>>> led = parse_cards("S6 S6 S7 S7")
>>> held = parse_cards("SQ SQ S3 S3 S9 HA C5 D8")
>>> check_follow(hearts, led, held, parse_cards("SQ SQ S3 S9"))
Traceback (most recent call last):
...
shengji.errors.PlayError: MUST_FOLLOW_FORMAT: you hold 2 pairs in spades and must play them
>>> [is_legal_follow(hearts, led, held, parse_cards(p)) for p in ("SQ SQ S3 S3", "SQ SQ HA C5")]
[True, False]
>>> count_legal_follows(hearts, led, held)
1
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from shengji.errors import PlayError
from shengji.rules.cards import Card, parse_cards  # noqa: F401  (parse_cards is used by doctests)
from shengji.rules.follow import (
    must_follow_format_error,
    must_follow_suit_error,
    not_in_hand_error,
    wrong_count_error,
)
from shengji.rules.trump import TrumpContext

from .units import Lead, Shape, can_host, classify_lead

Cards = Sequence[Card]
AnyLead = Sequence[Card] | Lead


def unit_requirements(shape: Shape, shorter: bool = False) -> list[list[Shape]]:
    """Requirements for following one lead unit, strictest first, ending with ``[]``.

    A k-link unit of width w: the unit itself; then its k links apart; then (for width
    >= 3) the k-link unit one narrower; then every list of k tuples of width <= w, best
    first (two triples > triple + pair > triple > two pairs > pair > none).
    ``shorter`` (``follow_shorter_tractor``): each list that has m tuples of width w comes
    after the lists where a shorter tractor of width w takes j of them, the longest
    tractor first (j = min(m, k - 1) down to 2).
    """
    k, w = shape
    out: list[list[Shape]] = []
    if k >= 2:
        out.append([shape])
    vectors = _width_vectors(k, w)
    for i, vec in enumerate(vectors):
        tuples = [(1, x) for x in vec if x >= 2]
        if shorter:
            m = vec.count(w)
            narrower = [t for t in tuples if t[1] < w]
            for j in range(min(m, k - 1), 1, -1):
                out.append([(j, w), *[(1, w)] * (m - j), *narrower])
        out.append(tuples)
        if i == 0 and k >= 2 and w >= 3:
            out.append([(k, w - 1)])
    return out


def _width_vectors(k: int, w: int) -> list[tuple[int, ...]]:
    """Non-increasing k-tuples over 1..w, in lexicographically descending order."""
    vecs = [tuple(sorted(v, reverse=True)) for v in product(range(w, 0, -1), repeat=k)]
    return sorted(set(vecs), reverse=True)


def follow_requirement(ctx: TrumpContext, lead: Lead, suit_cards: Sequence[Card]) -> list[Shape]:
    """The shapes a follower holding ``suit_cards`` (its cards of the led suit, at least as
    many as were led) must play, per the rule above."""
    counts = dict(Counter(suit_cards))
    chosen: list[Shape] = []
    for unit in lead.units:
        if unit.width < 2:
            continue
        for req in unit_requirements(unit.shape, ctx.options.follow_shorter_tractor):
            if not req or can_host(ctx, counts, chosen + req):
                chosen.extend(req)
                break
    return chosen


def check_follow(ctx: TrumpContext, lead: AnyLead, hand: Cards, play: Cards) -> None:
    """The oracle's refusal of an illegal follow (``hand`` still holds ``play``): a
    PlayError coded WRONG_CARD_COUNT, CARDS_NOT_IN_HAND, MUST_FOLLOW_SUIT or
    MUST_FOLLOW_FORMAT; nothing when the follow is legal."""
    ld = lead if isinstance(lead, Lead) else classify_lead(ctx, lead)
    n = len(ld.cards)
    if n == 1 and len(play) == 1:
        _check_single(ctx, ld.suit, hand, play[0])
        return
    if n == 2 and len(play) == 2 and ld.units[0].width == 2:
        _check_pair(ctx, ld.suit, hand, play)
        return
    if len(play) != n:
        raise wrong_count_error(n, len(play))
    hand_counts = Counter(hand)
    missing = Counter(play) - hand_counts
    if missing:
        raise not_in_hand_error(list(missing.elements()))
    suit_of = ctx.suit_of
    x = ld.suit
    hx = [c for c in hand if suit_of[c.index] == x]
    px = [c for c in play if suit_of[c.index] == x]
    name = ctx.suit_name(x)
    if len(hx) >= n:
        if len(px) != n:
            raise must_follow_suit_error(name, len(hx), n)
        req = follow_requirement(ctx, ld, hx)
        if req and not can_host(ctx, dict(Counter(px)), req):
            raise must_follow_format_error(name, req)
    elif len(px) != len(hx):
        raise must_follow_suit_error(name, len(hx), n)


def _check_single(ctx: TrumpContext, x: int, hand: Sequence[Card], card: Card) -> None:
    """Fast path of :func:`check_follow` for a one-card lead."""
    if card not in hand:
        raise not_in_hand_error([card])
    suit_of = ctx.suit_of
    if suit_of[card.index] != x and any(suit_of[c.index] == x for c in hand):
        held = sum(1 for c in hand if suit_of[c.index] == x)
        raise must_follow_suit_error(ctx.suit_name(x), held, 1)


def _check_pair(ctx: TrumpContext, x: int, hand: Sequence[Card], play: Sequence[Card]) -> None:
    """Fast path of :func:`check_follow` for a pair lead."""
    a, b = play
    if (a is b and hand.count(a) < 2) or a not in hand or b not in hand:
        raise not_in_hand_error(list((Counter(play) - Counter(hand)).elements()))
    suit_of = ctx.suit_of
    hx = [c for c in hand if suit_of[c.index] == x]
    px = (suit_of[a.index] == x) + (suit_of[b.index] == x)
    name = ctx.suit_name(x)
    if len(hx) >= 2:
        if px != 2:
            raise must_follow_suit_error(name, len(hx), 2)
        if a is not b and len(set(hx)) < len(hx):
            raise must_follow_format_error(name, [(1, 2)], pair_lead=True)
    elif px != len(hx):
        raise must_follow_suit_error(name, len(hx), 2)


def _random_pair_follow(
    ctx: TrumpContext, x: int, hand: Sequence[Card], r: random.Random
) -> tuple[Card, ...]:
    """Uniform legal follow to a pair lead (fast path of :func:`random_legal_follow`)."""
    suit_of = ctx.suit_of
    hx = [c for c in hand if suit_of[c.index] == x]
    if len(hx) == 1:
        others = list(dict.fromkeys(c for c in hand if suit_of[c.index] != x))
        return (hx[0], r.choice(others))
    pool = hx if len(hx) >= 2 else list(hand)
    distinct = list(dict.fromkeys(pool))
    pairs = [c for c in distinct if pool.count(c) >= 2]
    if len(hx) >= 2 and pairs:
        c = r.choice(pairs)
        return (c, c)
    n_mixed = len(distinct) * (len(distinct) - 1) // 2
    if r.randrange(len(pairs) + n_mixed) < len(pairs):
        c = r.choice(pairs)
        return (c, c)
    a, b = r.sample(distinct, 2)
    return (a, b)


def is_legal_follow(
    ctx: TrumpContext, lead: Sequence[Card] | Lead, hand: Sequence[Card], play: Sequence[Card]
) -> bool:
    """True if ``play`` is a legal follow (see :func:`check_follow`)."""
    try:
        check_follow(ctx, lead, hand, play)
    except PlayError:
        return False
    return True


# -- enumeration, counting and sampling ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Core:
    """One way of choosing the structured part of a follow: ``fixed`` cards, then ``free``
    more cards from ``pool`` (distinct cards, each used at most once)."""

    fixed: tuple[Card, ...]
    pool: tuple[Card, ...]
    free: int

    @property
    def count(self) -> int:
        return math.comb(len(self.pool), self.free)


def _cores(ctx: TrumpContext, lead: Lead, hand: Sequence[Card]) -> list[_Core]:
    """Split the legal follows into disjoint families sharing a structured core.

    Every sub-multiset of a card multiset is identified by the cards it takes two or more
    of (with their multiplicity) plus a set of distinct cards it takes once; the format rule
    only looks at the former, so legal follows are counted without listing them.
    """
    n = len(lead.cards)
    x = lead.suit
    suit_of = ctx.suit_of
    hx = [c for c in hand if suit_of[c.index] == x]
    if len(hx) >= n:
        forced: tuple[Card, ...] = ()
        source = hx
        req = follow_requirement(ctx, lead, hx)
        need = n
    else:
        forced = tuple(hx)
        source = [c for c in hand if suit_of[c.index] != x]
        req = []
        need = n - len(hx)
    counts = Counter(source)
    multi = sorted((c for c, m in counts.items() if m >= 2), key=lambda c: c.index)
    singles = tuple(sorted((c for c, m in counts.items() if m == 1), key=lambda c: c.index))
    out: list[_Core] = []
    # choices per multi card: 0 = "at most once" (joins the pool), else take m >= 2 copies
    options = [[0, *range(2, counts[c] + 1)] for c in multi]

    def rec(i: int, used: int, taken: dict[Card, int]) -> None:
        if i == len(multi):
            if req and not can_host(ctx, taken, req):
                return
            pool = tuple(sorted([*singles, *(c for c in multi if c not in taken)], key=_idx))
            free = need - used
            if 0 <= free <= len(pool):
                fixed = forced + tuple(c for c, m in taken.items() for _ in range(m))
                out.append(_Core(fixed, pool, free))
            return
        c = multi[i]
        for m in options[i]:
            if used + m > need:
                break
            if m:
                taken[c] = m
            rec(i + 1, used + m, taken)
            if m:
                del taken[c]

    rec(0, 0, {})
    return out


def _idx(c: Card) -> int:
    return c.index


def _as_lead(ctx: TrumpContext, lead: Sequence[Card] | Lead) -> Lead:
    return lead if isinstance(lead, Lead) else classify_lead(ctx, lead)


def legal_follows(
    ctx: TrumpContext, lead: Sequence[Card] | Lead, hand: Sequence[Card]
) -> Iterator[tuple[Card, ...]]:
    """Every distinct legal follow (as a multiset, cards sorted), lazily."""
    for core in _cores(ctx, _as_lead(ctx, lead), hand):
        for extra in combinations(core.pool, core.free):
            yield ctx.sorted(core.fixed + extra)


def follow_families(
    ctx: TrumpContext, lead: AnyLead, hand: Cards
) -> list[tuple[tuple[Card, ...], tuple[Card, ...], int]]:
    """Disjoint ``(fixed, pool, free)`` triples whose union is the set of legal follows:
    each stands for ``fixed`` together with any ``free`` distinct cards out of ``pool``."""
    return [(core.fixed, core.pool, core.free) for core in _cores(ctx, _as_lead(ctx, lead), hand)]


def count_legal_follows(
    ctx: TrumpContext, lead: Sequence[Card] | Lead, hand: Sequence[Card]
) -> int:
    """The number of distinct legal follows, computed without listing them."""
    return sum(core.count for core in _cores(ctx, _as_lead(ctx, lead), hand))


def random_legal_follow(
    ctx: TrumpContext,
    lead: AnyLead,
    hand: Cards,
    rng: random.Random | None = None,
) -> tuple[Card, ...]:
    """A legal follow drawn uniformly from all distinct legal follows."""
    r = rng or random.Random()
    ld = _as_lead(ctx, lead)
    if len(ld.cards) == 1:
        suit_of = ctx.suit_of
        x = ld.suit
        same = [c for c in hand if suit_of[c.index] == x]
        pool = list(dict.fromkeys(same or hand))  # distinct cards, in hand order
        return (r.choice(pool),)
    if len(ld.cards) == 2 and ld.units[0].width == 2:
        return _random_pair_follow(ctx, ld.suit, hand, r)
    cores = _cores(ctx, ld, hand)
    weights = [core.count for core in cores]
    core = r.choices(cores, weights=weights)[0]
    return core.fixed + tuple(r.sample(core.pool, core.free))
