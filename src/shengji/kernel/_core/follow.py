"""Following: the requirement a lead puts on a hand, the families of legal follows
(:func:`cores`), listing, counting, checking (:func:`follow_fault` says why a play is
refused) and drawing a legal follow."""

from __future__ import annotations

from itertools import product
from typing import Final

from .cards import _REQUIREMENTS, _REQUIREMENTS_SHORTER, Core, Tables, Unit
from .rng import KRng
from .units import can_host


def unit_requirements(k: int, w: int, shorter: bool = False) -> list[list[tuple[int, int]]]:
    """:func:`shengji.rules.follow.unit_requirements` for a k x w unit (cached). ``shorter``
    (``follow_shorter_tractor``): before each list of tuples with m of width w, the same
    list with the longest j-link tractor of width w it can hold in place of j of them
    (j from min(m, k - 1) down to 2)."""
    cache = _REQUIREMENTS_SHORTER if shorter else _REQUIREMENTS
    hit = cache.get((k, w))
    if hit is not None:
        return hit
    vecs = sorted(
        {tuple(sorted(v, reverse=True)) for v in product(range(w, 0, -1), repeat=k)},
        reverse=True,
    )
    out: list[list[tuple[int, int]]] = []
    if k >= 2:
        out.append([(k, w)])
    for i in range(len(vecs)):
        vec = vecs[i]
        if shorter:
            m = 0
            for x in vec:
                if x == w:
                    m += 1
            rest = [(1, x) for x in vec if 2 <= x < w]
            for j in range(min(m, k - 1), 1, -1):
                out.append([(j, w)] + [(1, w)] * (m - j) + rest)
        out.append([(1, x) for x in vec if x >= 2])
        if i == 0 and k >= 2 and w >= 3:
            out.append([(k, w - 1)])
    cache[(k, w)] = out
    return out


def follow_requirement(
    t: Tables, units: list[Unit], cnt: list[int], distinct: list[int]
) -> list[tuple[int, int]]:
    """The shapes a follower holding ``cnt`` of the led suit (``distinct`` cards) must play."""
    chosen: list[tuple[int, int]] = []
    cache = t.requirements
    for u in units:
        if u.width < 2:
            continue
        reqs = cache.get((u.links, u.width))
        if reqs is None:
            reqs = unit_requirements(u.links, u.width, t.shorter)
        for req in reqs:
            if not req or can_host(t, cnt, distinct, chosen + req):
                chosen.extend(req)
                break
    return chosen


class _CoreBuilder:
    """The recursion of :func:`cores` (legal follows grouped by the cards taken >= 2 times)."""

    def __init__(
        self,
        t: Tables,
        src: list[int],
        multi: list[int],
        singles: list[int],
        req: list[tuple[int, int]],
        forced: list[int],
        need: int,
    ) -> None:
        self.t = t
        self.src = src
        self.multi = multi
        self.singles = singles
        self.req = req
        self.forced = forced
        self.need = need
        self.taken = [0] * 54
        self.out: list[Core] = []

    def run(self, i: int, used: int) -> None:
        """Choose how many copies of ``multi[i]`` (none/at most one, or 2..all) to take."""
        multi = self.multi
        if i == len(multi):
            taken = self.taken
            if self.req and not can_host(self.t, taken, multi, self.req):
                return
            pool = [c for c in multi if taken[c] == 0]
            pool.extend(self.singles)
            pool.sort()
            free = self.need - used
            if 0 <= free <= len(pool):
                fixed = list(self.forced)
                for c in multi:
                    for _ in range(taken[c]):
                        fixed.append(c)
                self.out.append(Core(fixed, pool, free))
            return
        c = multi[i]
        self.run(i + 1, used)
        for m in range(2, self.src[c] + 1):
            if used + m > self.need:
                break
            self.taken[c] = m
            self.run(i + 1, used + m)
        self.taken[c] = 0


def cores(t: Tables, units: list[Unit], n: int, hand: list[int]) -> list[Core]:
    """The legal follows of ``hand`` to a lead of ``n`` cards with ``units``, as disjoint
    families (:func:`shengji.rules.follow._cores`)."""
    x = units[0].suit
    suit_cards = t.suit_cards[x]
    held = 0
    for c in suit_cards:
        held += hand[c]
    forced: list[int] = []
    source: list[int] = []
    req: list[tuple[int, int]] = []
    if held >= n:
        source = [c for c in suit_cards if hand[c]]
        req = follow_requirement(t, units, hand, source)
        need = n
    else:
        for c in suit_cards:
            for _ in range(hand[c]):
                forced.append(c)
        for s in range(5):
            if s != x:
                for c in t.suit_cards[s]:
                    if hand[c]:
                        source.append(c)
        need = n - held
    source.sort()
    multi = [c for c in source if hand[c] >= 2]
    singles = [c for c in source if hand[c] == 1]
    b = _CoreBuilder(t, hand, multi, singles, req, forced, need)
    b.run(0, 0)
    return b.out


def legal_follows(t: Tables, units: list[Unit], n: int, hand: list[int]) -> list[list[int]]:
    """Every distinct legal follow (card order unspecified)."""
    out: list[list[int]] = []
    for core in cores(t, units, n, hand):
        for extra in _combinations(core.pool, core.free):
            out.append(core.fixed + extra)
    return out


def _combinations(pool: list[int], r: int) -> list[list[int]]:
    if r == 0:
        return [[]]
    out: list[list[int]] = []
    for i in range(len(pool) - r + 1):
        for rest in _combinations(pool[i + 1 :], r - 1):
            out.append([pool[i], *rest])
    return out


def count_follows(t: Tables, units: list[Unit], n: int, hand: list[int]) -> int:
    """The number of distinct legal follows."""
    total = 0
    for core in cores(t, units, n, hand):
        total += core.count
    return total


def is_legal_follow(t: Tables, units: list[Unit], n: int, hand: list[int], play: list[int]) -> bool:
    """True if ``play`` is a legal follow from ``hand`` (which includes it)."""
    return follow_fault(t, units, n, hand, play)[0] == FOLLOW_OK


#: :func:`follow_fault` answers: legal, wrong count, cards not held, suit not followed,
#: format not followed.
FOLLOW_OK: Final = 0
FOLLOW_COUNT: Final = 1
FOLLOW_NOT_HELD: Final = 2
FOLLOW_SUIT: Final = 3
FOLLOW_FORMAT: Final = 4


def follow_fault(
    t: Tables, units: list[Unit], n: int, hand: list[int], play: list[int]
) -> list[int]:
    """Why ``play`` is not a legal follow from ``hand`` (which includes it), as a reason
    code and its parameters: ``[FOLLOW_OK]``; ``[FOLLOW_COUNT]``; ``[FOLLOW_NOT_HELD,
    card...]`` (the cards missing, in play order); ``[FOLLOW_SUIT, held]`` (cards of the
    led suit held); ``[FOLLOW_FORMAT, k, w, ...]`` (the shapes that must be played)."""
    if len(play) != n:
        return [FOLLOW_COUNT]
    pc = [0] * 54
    distinct: list[int] = []
    for c in play:
        if pc[c] == 0:
            distinct.append(c)
        pc[c] += 1
    missing: list[int] = []
    for c in distinct:
        for _ in range(pc[c] - hand[c]):
            missing.append(c)
    if missing:
        return [FOLLOW_NOT_HELD, *missing]
    x = units[0].suit
    suit_of = t.suit_of
    held = 0
    for c in t.suit_cards[x]:
        held += hand[c]
    in_x = 0
    for c in play:
        if suit_of[c] == x:
            in_x += 1
    if held < n:
        return [FOLLOW_OK] if in_x == held else [FOLLOW_SUIT, held]
    if in_x != n:
        return [FOLLOW_SUIT, held]
    source = [c for c in t.suit_cards[x] if hand[c]]
    req = follow_requirement(t, units, hand, source)
    if req and not can_host(t, pc, distinct, req):
        out = [FOLLOW_FORMAT]
        for k, w in req:
            out.append(k)
            out.append(w)
        return out
    return [FOLLOW_OK]


def random_follow(t: Tables, units: list[Unit], n: int, hand: list[int], rng: KRng) -> list[int]:
    """A legal follow drawn uniformly from all distinct legal follows."""
    x = units[0].suit
    if n == 1:
        pool = [c for c in t.suit_cards[x] if hand[c]]
        if not pool:
            pool = [c for c in range(54) if hand[c]]
        return [pool[rng.below(len(pool))]]
    if n == 2 and units[0].width == 2:
        return _random_pair_follow(t, x, hand, rng)
    cs = cores(t, units, n, hand)
    total = 0
    for core in cs:
        total += core.count
    pick = rng.below(total)
    chosen = cs[-1]
    for core in cs:
        if pick < core.count:
            chosen = core
            break
        pick -= core.count
    return chosen.fixed + rng.sample(chosen.pool, chosen.free)


def _random_pair_follow(t: Tables, x: int, hand: list[int], rng: KRng) -> list[int]:
    """Uniform legal follow to a pair lead."""
    xs = [c for c in t.suit_cards[x] if hand[c]]
    held = 0
    for c in xs:
        held += hand[c]
    if held == 1:
        others = [c for c in range(54) if hand[c] and t.suit_of[c] != x]
        return [xs[0], others[rng.below(len(others))]]
    distinct = xs if held >= 2 else [c for c in range(54) if hand[c]]
    pairs = [c for c in distinct if hand[c] >= 2]
    if held >= 2 and pairs:
        c = pairs[rng.below(len(pairs))]
        return [c, c]
    nd = len(distinct)
    if rng.below(len(pairs) + nd * (nd - 1) // 2) < len(pairs):
        c = pairs[rng.below(len(pairs))]
        return [c, c]
    return rng.sample(distinct, 2)
