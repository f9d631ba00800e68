"""The kernel's hot core: int cards, count-array hands, tables, move generation, apply,
and whole hands (deal, declaring, kitty, play).

Cards are ints 0..53 (``Card.index``); a hand is a list of 54 counts. Every rule here was
ported from the object rules core, now the test oracle (``tests/oracle``), and must give
its answers; ``tests/kernel`` checks it.
This module is compiled with mypyc when it can be, and imported as plain Python
otherwise (or when ``SHENGJI_PURE=1``): keep it self-contained and strictly typed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import product
from random import Random
from typing import Any, Final, Protocol

#: Effective suit number of trumps (as :data:`shengji.trump.TRUMP`).
TRUMP: Final = 4
#: ``throw_penalty`` codes.
PENALTY_NONE: Final = 0
PENALTY_PER_CARD: Final = 1
PENALTY_PER_ATTEMPT: Final = 2
PENALTY_STAKE: Final = 3
PENALTY_FLAT_PER_CARD: Final = 4
#: ``throw_forced`` codes: the beaten unit of the largest kind, one card, the smallest unit.
FORCED_UNIT: Final = 0
FORCED_SINGLE: Final = 1
FORCED_SMALLEST: Final = 2
#: Event kinds of :class:`KEvent`.
EV_PLAY: Final = 0
EV_THROW_FAILED: Final = 1
EV_TRICK: Final = 2

#: Effective suits in lead-list order: trumps, then S H C D.
_SUIT_ORDER: Final = (4, 0, 1, 2, 3)


#: :func:`unit_requirements` by (links, width): without and with ``shorter``.
_REQUIREMENTS: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}
_REQUIREMENTS_SHORTER: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}


class Tables:
    """Per (options, level, trump) tables indexed by card: effective suit, strength,
    global key, tie-break, points; the cards of each effective suit high to low; the
    throw rules (``penalty`` code, ``forced`` a ``FORCED_*`` code for ``throw_forced``,
    ``penalty_final`` for ``throw_penalty_side = final``) and ``shorter`` for
    ``follow_shorter_tractor``."""

    def __init__(
        self,
        suit_of: list[int],
        strength: list[int],
        key: list[int],
        tiebreak: list[int],
        penalty: int,
        forced: int,
        shorter: bool,
        penalty_final: bool,
    ) -> None:
        self.suit_of = suit_of
        self.strength = strength
        self.key = key
        self.tiebreak = tiebreak
        self.penalty = penalty
        self.forced = forced
        self.shorter = shorter
        self.penalty_final = penalty_final
        #: :func:`unit_requirements` of this follow rule, by (links, width), as found.
        self.requirements = _REQUIREMENTS_SHORTER if shorter else _REQUIREMENTS
        self.pts: list[int] = [0] * 54
        for i in range(52):
            r = i % 13
            self.pts[i] = 5 if r == 3 else 10 if r in (8, 11) else 0
        order = sorted(range(54), key=lambda i: (-key[i], -tiebreak[i]))
        self.suit_cards: list[list[int]] = [[c for c in order if suit_of[c] == s] for s in range(5)]
        self.max_strength: int = max(strength)


class Unit:
    """A unit of a play: ``links`` x ``width``; ``cards`` holds one card per link, top
    link first (each stands for ``width`` identical cards)."""

    def __init__(self, links: int, width: int, top: int, suit: int, cards: list[int]) -> None:
        self.links = links
        self.width = width
        self.top = top
        self.suit = suit
        self.cards = cards

    def expand(self) -> list[int]:
        """The unit's cards, each link ``width`` times, top link first."""
        return [c for c in self.cards for _ in range(self.width)]


class KEvent:
    """One recorded event: a play, a failed throw or a finished trick."""

    def __init__(
        self,
        kind: int,
        seat: int,
        cards: list[int],
        attempted: list[int],
        blocked_by: int,
        penalty: int,
        points: int,
        collectors: bool,
    ) -> None:
        self.kind = kind
        self.seat = seat
        self.cards = cards
        self.attempted = attempted
        self.blocked_by = blocked_by
        self.penalty = penalty
        self.points = points
        self.collectors = collectors


class Core:
    """A family of legal follows: ``fixed`` cards plus ``free`` distinct cards of ``pool``."""

    def __init__(self, fixed: list[int], pool: list[int], free: int) -> None:
        self.fixed = fixed
        self.pool = pool
        self.free = free
        self.count: int = math.comb(len(pool), free)


# -- units ----------------------------------------------------------------------------------


def _unit_key(u: Unit) -> tuple[int, int, int]:
    return (u.links, u.width, u.top)


def _forced_key(u: Unit, tiebreak: list[int], forced: int) -> tuple[int, int, int, int]:
    """Order of beaten units: the first is the one a failed throw plays (``forced``: a
    ``FORCED_*`` code)."""
    if forced == FORCED_UNIT:
        return (-u.links, -u.width, u.top, tiebreak[u.cards[0]])
    if forced == FORCED_SINGLE:
        return (0, 0, u.top, tiebreak[u.cards[-1]])
    return (u.links * u.width, 0, u.top, tiebreak[u.cards[0]])


def _longest_run(positions: dict[int, list[int]]) -> tuple[int, int]:
    """(low, high) of the longest run of >= 2 occupied strengths (ties: the higher);
    (-1, -1) when there is none."""
    keys = sorted(positions)
    best_lo, best_hi = -1, -1
    i = 0
    n = len(keys)
    while i < n:
        j = i
        while j + 1 < n and keys[j + 1] == keys[j] + 1:
            j += 1
        length = j - i + 1
        if length >= 2 and (best_hi < 0 or length >= best_hi - best_lo + 1):
            best_lo, best_hi = keys[i], keys[j]
        i = j + 1
    return best_lo, best_hi


def decompose(t: Tables, cards: list[int]) -> list[Unit]:
    """Units of ``cards`` largest first, as :func:`shengji.units.decompose`; empty when
    the cards are of several effective suits (or none)."""
    if not cards:
        return []
    suit_of, strength, tiebreak = t.suit_of, t.strength, t.tiebreak
    suit = suit_of[cards[0]]
    cnt = [0] * 54
    distinct: list[int] = []
    for c in cards:
        if suit_of[c] != suit:
            return []
        if cnt[c] == 0:
            distinct.append(c)
        cnt[c] += 1
    by_width: dict[int, dict[int, list[int]]] = {}
    for c in distinct:
        w = cnt[c]
        positions = by_width.get(w)
        if positions is None:
            positions = {}
            by_width[w] = positions
        lst = positions.get(strength[c])
        if lst is None:
            positions[strength[c]] = [c]
        else:
            lst.append(c)
    units: list[Unit] = []
    for w, positions in by_width.items():
        for lst in positions.values():
            if len(lst) > 1:
                lst.sort(key=lambda c: tiebreak[c], reverse=True)
        if w >= 2:
            while True:
                lo, hi = _longest_run(positions)
                if hi < 0:
                    break
                taken = [positions[s].pop(0) for s in range(hi, lo - 1, -1)]
                units.append(Unit(hi - lo + 1, w, hi, suit, taken))
                for s in range(lo, hi + 1):
                    if not positions[s]:
                        del positions[s]
        for s, lst in positions.items():
            for c in lst:
                units.append(Unit(1, w, s, suit, [c]))
    units.sort(key=_unit_key, reverse=True)
    return units


def lead_units(t: Tables, cards: list[int]) -> list[Unit]:
    """The units of a lead (a single card needs no decomposition)."""
    if len(cards) == 1:
        c = cards[0]
        return [Unit(1, 1, t.strength[c], t.suit_of[c], [c])]
    return decompose(t, cards)


def _placements(t: Tables, cnt: list[int], distinct: list[int], k: int, w: int) -> list[list[int]]:
    """Every way to take a k x w unit from ``cnt`` (restricted to ``distinct``), highest
    top first: one card per link, top link first."""
    strength = t.strength
    pos: dict[int, list[int]] = {}
    for c in distinct:
        if cnt[c] >= w:
            s = strength[c]
            lst = pos.get(s)
            if lst is None:
                pos[s] = [c]
            else:
                lst.append(c)
    out: list[list[int]] = []
    if not pos:
        return out
    for top in sorted(pos, reverse=True):
        if k == 1:
            for c in pos[top]:
                out.append([c])
            continue
        ok = True
        for i in range(1, k):
            if top - i not in pos:
                ok = False
                break
        if not ok:
            continue
        combos: list[list[int]] = [[]]
        for i in range(k):
            nxt: list[list[int]] = []
            for pre in combos:
                for c in pos[top - i]:
                    nxt.append([*pre, c])
            combos = nxt
        out.extend(combos)
    return out


def can_host(t: Tables, cnt: list[int], distinct: list[int], shapes: list[tuple[int, int]]) -> bool:
    """True if disjoint units of all ``shapes`` of width >= 2 fit in ``cnt``."""
    need = [s for s in shapes if s[1] >= 2]
    if not need:
        return True
    size = 0
    for s in need:
        size += s[0] * s[1]
    have = 0
    for c in distinct:
        have += cnt[c]
    if size > have:
        return False
    need.sort(reverse=True)
    return _host(t, cnt, distinct, need, 0)


def _host(
    t: Tables, cnt: list[int], distinct: list[int], shapes: list[tuple[int, int]], i: int
) -> bool:
    if i == len(shapes):
        return True
    k, w = shapes[i]
    for taken in _placements(t, cnt, distinct, k, w):
        for c in taken:
            cnt[c] -= w
        ok = _host(t, cnt, distinct, shapes, i + 1)
        for c in taken:
            cnt[c] += w
        if ok:
            return True
    return False


def best_top(t: Tables, play: list[int], shapes: list[tuple[int, int]]) -> int:
    """The highest top of the largest shape when ``play`` groups exactly into ``shapes``
    (largest first), else -1 (:func:`shengji.units.best_top`)."""
    size = 0
    for s in shapes:
        size += s[0] * s[1]
    if size != len(play):
        return -1
    cnt = [0] * 54
    distinct: list[int] = []
    for c in play:
        if cnt[c] == 0:
            distinct.append(c)
        cnt[c] += 1
    k, w = shapes[0]
    rest = shapes[1:]
    for taken in _placements(t, cnt, distinct, k, w):
        for c in taken:
            cnt[c] -= w
        ok = can_host(t, cnt, distinct, rest)
        for c in taken:
            cnt[c] += w
        if ok:
            return t.strength[taken[0]]
    return -1


def beats_unit(t: Tables, unit: Unit, hand: list[int]) -> bool:
    """True if ``hand`` holds the unit's shape in its suit with a strictly higher top."""
    k, w = unit.links, unit.width
    strength = t.strength
    occ = [False] * (t.max_strength + 1)
    for c in t.suit_cards[unit.suit]:
        if hand[c] >= w:
            occ[strength[c]] = True
    for top in range(t.max_strength, unit.top, -1):
        if top - k + 1 < 0:
            break
        ok = True
        for i in range(k):
            if not occ[top - i]:
                ok = False
                break
        if ok:
            return True
    return False


# -- following ------------------------------------------------------------------------------


def unit_requirements(k: int, w: int, shorter: bool = False) -> list[list[tuple[int, int]]]:
    """:func:`shengji.follow.unit_requirements` for a k x w unit (cached). ``shorter``
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
    families (:func:`shengji.follow._cores`)."""
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


class KRng:
    """The kernel's own random stream (xorshift32, Marsaglia 2003): the few draws move
    generation needs, without a call into the interpreted :mod:`random` module for each
    (which took 38% of a compiled random play-out). Seeded from a :class:`random.Random`
    (:func:`rng_from`), so a seeded play-out is reproducible; not for cryptography."""

    def __init__(self, seed: int) -> None:
        s = seed & 0xFFFFFFFF
        self.s = s if s else 0x9E3779B9

    def next32(self) -> int:
        """The next 32 random bits."""
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x

    def random(self) -> float:
        """A float in [0, 1)."""
        return self.next32() / 4294967296.0

    def below(self, n: int) -> int:
        """An int in ``0..n-1`` (``n`` >= 1), uniform up to n / 2**32."""
        if n < 1 << 30:
            return (self.next32() * n) >> 32
        return ((self.next32() << 32) | self.next32()) % n

    def sample(self, population: list[int], k: int) -> list[int]:
        """``k`` items of ``population`` without replacement, in random order."""
        pool = list(population)
        m = len(pool)
        for i in range(k):
            j = i + self.below(m - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


def rng_from(rng: Random) -> KRng:
    """A kernel stream seeded by (and advancing) ``rng``."""
    return KRng(rng.getrandbits(32))


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


# -- leading --------------------------------------------------------------------------------


def unit_leads(t: Tables, hand: list[int]) -> list[list[int]]:
    """Every distinct one-unit lead of ``hand`` (:func:`shengji.leads.unit_lead_list`)."""
    strength = t.strength
    out: list[list[int]] = []
    for s in _SUIT_ORDER:
        cards = [c for c in t.suit_cards[s] if hand[c]]
        for c in cards:
            out.append([c])
        multi = [c for c in cards if hand[c] >= 2]
        w = 2
        while multi:
            for c in multi:
                out.append([c] * w)
            tractors: list[list[int]] = []
            if len(multi) >= 2:
                pos: dict[int, list[int]] = {}
                for c in multi:
                    st = strength[c]
                    lst = pos.get(st)
                    if lst is None:
                        pos[st] = [c]
                    else:
                        lst.append(c)
                if len(pos) >= 2:
                    tractors = _tractors(pos, w)
            w += 1
            multi = [c for c in multi if hand[c] >= w]
            out.extend(tractors)
    return out


def _tractors(pos: dict[int, list[int]], w: int) -> list[list[int]]:
    """Every tractor of width ``w``: by length, then top (high first)."""
    tops = sorted(pos, reverse=True)
    out: list[list[int]] = []
    k = 2
    while True:
        found = False
        for top in tops:
            ok = True
            for i in range(1, k):
                if top - i not in pos:
                    ok = False
                    break
            if not ok:
                continue
            found = True
            combos: list[list[int]] = [[]]
            for i in range(k):
                nxt: list[list[int]] = []
                for pre in combos:
                    for c in pos[top - i]:
                        nxt.append([*pre, c])
                combos = nxt
            for links in combos:
                out.append([c for c in links for _ in range(w)])
        if not found:
            return out
        k += 1


def random_lead(t: Tables, hand: list[int], size: int, rng: KRng, throw_rate: float) -> list[int]:
    """A random lead as :func:`shengji.bots.random_bot.random_action` makes one: with
    probability ``throw_rate`` a throw attempt (2..8 random cards of the suit of a random
    card, kept if they form several units), else a uniform one-unit lead."""
    if rng.random() < throw_rate:
        pick = rng.below(size)
        card = 0
        for c in range(54):
            pick -= hand[c]
            if pick < 0:
                card = c
                break
        same: list[int] = []
        for c in t.suit_cards[t.suit_of[card]]:
            for _ in range(hand[c]):
                same.append(c)
        if len(same) >= 2:
            attempt = rng.sample(same, 2 + rng.below(min(len(same), 8) - 1))
            if len(decompose(t, attempt)) > 1:
                return attempt
    leads = unit_leads(t, hand)
    return leads[rng.below(len(leads))]


# -- throws and tricks ----------------------------------------------------------------------


class ThrowCheck:
    """A failed throw (:func:`check_throw`): the cards ``played`` instead, the seat offsets
    (1..3 after the thrower) of the ``first`` hand beating any unit and of the ``blocker``
    of the played unit, and the ``penalty`` as a signed change to the collectors' points."""

    def __init__(
        self,
        played: list[int],
        first: int,
        blocker: int,
        penalty: int,
        beaten: list[int],
        by: list[int],
    ) -> None:
        self.played = played
        self.first = first
        self.blocker = blocker
        self.penalty = penalty
        #: Indexes (in the lead's units) of the units beaten, and the seat offset (1..)
        #: of the first other hand beating each.
        self.beaten = beaten
        self.by = by


def check_throw(
    t: Tables, units: list[Unit], others: list[list[int]], banker_side: bool
) -> ThrowCheck | None:
    """A multi-unit lead against the other hands (next seat first): None when it stands,
    else what it plays instead (:func:`shengji.throws.check_throw`)."""
    beaten: list[Unit] = []
    index: list[int] = []
    by: list[int] = []
    for j, u in enumerate(units):
        for i in range(len(others)):
            if beats_unit(t, u, others[i]):
                beaten.append(u)
                index.append(j)
                by.append(i + 1)
                break
    if not beaten:
        return None
    tiebreak = t.tiebreak
    mode = t.forced
    best = 0
    best_key = _forced_key(beaten[0], tiebreak, mode)
    for j in range(1, len(beaten)):
        k = _forced_key(beaten[j], tiebreak, mode)
        if k < best_key:
            best, best_key = j, k
    forced = beaten[best]
    played = [forced.cards[-1]] if mode == FORCED_SINGLE else forced.expand()
    blocker = by[0]
    for j in range(len(beaten)):
        if beaten[j].expand() == played:
            blocker = by[j]
            break
    pts = throw_penalty_points(t.penalty, beaten)
    return ThrowCheck(played, by[0], blocker, pts if banker_side else -pts, index, by)


def throw_penalty_points(penalty: int, beaten: list[Unit]) -> int:
    """Points a failed throw costs its side (positive) under the ``penalty`` code."""
    pts = 0
    if penalty == PENALTY_PER_CARD:
        for u in beaten:
            pts += u.links * u.width * 10 * u.width * u.links
    elif penalty == PENALTY_FLAT_PER_CARD:
        for u in beaten:
            pts += 10 * u.links * u.width
    elif penalty == PENALTY_PER_ATTEMPT:
        pts = 10
    return pts


def trick_winner(t: Tables, units: list[Unit], plays: list[list[int]]) -> int:
    """Index in ``plays`` (0 = the lead, whose units are ``units``) of the play winning
    the trick so far (:func:`shengji.tricks.trick_winner`)."""
    lead = plays[0]
    best = 0
    if len(lead) == 1:
        suit_of, key = t.suit_of, t.key
        x = units[0].suit
        best_key = key[lead[0]]
        for i in range(1, len(plays)):
            c = plays[i][0]
            s = suit_of[c]
            if s in (x, TRUMP) and key[c] > best_key:
                best, best_key = i, key[c]
        return best
    shapes = [(u.links, u.width) for u in units]
    x = units[0].suit
    best_trump = 1 if x == TRUMP else 0
    best_top_ = best_top(t, lead, shapes)
    suit_of = t.suit_of
    for i in range(1, len(plays)):
        p = plays[i]
        s = suit_of[p[0]]
        if s != x and s != TRUMP:
            continue
        mixed = False
        for c in p:
            if suit_of[c] != s:
                mixed = True
                break
        if mixed:
            continue
        top = best_top(t, p, shapes)
        if top < 0:
            continue
        is_trump = 1 if s == TRUMP else 0
        if best_top_ < 0 or (is_trump, top) > (best_trump, best_top_):
            best, best_trump, best_top_ = i, is_trump, top
    return best


# -- card objects as ints (``shengji.cards.Card``) --------------------------------------------


class HasIndex(Protocol):
    """A card object (:class:`shengji.cards.Card`): its int is ``index``."""

    @property
    def index(self) -> int: ...


def card_ints(cards: Sequence[HasIndex]) -> list[int]:
    """The ints of card objects."""
    return [c.index for c in cards]


def hand_counts(cards: Sequence[HasIndex]) -> list[int]:
    """Card objects as 54 counts."""
    out = [0] * 54
    for c in cards:
        out[c.index] += 1
    return out


# -- the state ------------------------------------------------------------------------------


class KState:
    """A hand in the play phase, mutable: hands as counts, the trick so far, points.

    Seats are data: ``team[seat]`` is the seat's side (0 or 1), and a trick has one play
    per seat of ``len(team)``. Sides are fixed partnerships, or (找朋友, :meth:`set_calls`)
    the banker's side grows as called cards are played."""

    def __init__(self, t: Tables, banker: int, leader: int, team: list[int] | None = None) -> None:
        self.t = t
        self.team: list[int] = [0, 1, 0, 1] if team is None else team
        self.seats = len(self.team)
        self.hands: list[list[int]] = [[0] * 54 for _ in range(self.seats)]
        self.sizes: list[int] = [0] * self.seats
        self.banker = banker
        self.leader = leader
        self.to_act = leader
        self.plays: list[list[int]] = []
        self.units: list[Unit] = []
        self.n = 0
        self.trick_points = 0
        self.penalties = 0
        self.stake_penalties: list[int] = [0, 0]
        self.tricks = 0
        self.done = False
        self.last_lead: list[int] = []
        self.last_win: list[int] = []
        self.last_winner = -1
        #: The points of the cards in the last finished trick (whoever took them).
        self.last_points = 0
        self.record = False
        self.events: list[KEvent] = []
        self.blocked: list[int] = []
        self.info: object = None
        #: Points each seat took in its tricks (the collectors' total is its side's sum).
        self.seat_points: list[int] = [0] * self.seats
        #: 找朋友: the called cards and ordinals (empty: fixed partnerships), how many
        #: copies of each have been played, and the seat that played the called copy
        #: (-1: nobody yet). That seat joins the banker's side when its trick is complete.
        self.calls: list[int] = []
        self.call_ord: list[int] = []
        self.call_seen: list[int] = []
        self.call_by: list[int] = []
        #: 找朋友 with ``throw_penalty_side = final``: the points each seat's failed throws
        #: cost (empty until one fails); they count for the seat's side as the hand stands.
        self.thrown: list[int] = []

    def set_calls(self, cards: list[int], ordinals: list[int]) -> None:
        """Play 找朋友 with these calls: the banker alone on side 0 until friends are
        found (``team`` becomes this state's own list)."""
        self.team = [1] * self.seats
        self.team[self.banker] = 0
        self.calls = cards
        self.call_ord = ordinals
        self.call_seen = [0] * len(cards)
        self.call_by = [-1] * len(cards)

    def copy(self) -> KState:
        """An independent copy (events are not copied)."""
        friends = len(self.calls) > 0
        s = KState(self.t, self.banker, self.leader, list(self.team) if friends else self.team)
        s.seat_points = list(self.seat_points)
        if friends:
            s.calls = self.calls
            s.call_ord = self.call_ord
            s.call_seen = list(self.call_seen)
            s.call_by = list(self.call_by)
            if self.thrown:
                s.thrown = list(self.thrown)
        s.hands = [list(h) for h in self.hands]
        s.sizes = list(self.sizes)
        s.to_act = self.to_act
        s.plays = [list(p) for p in self.plays]
        s.units = self.units
        s.n = self.n
        s.trick_points = self.trick_points
        s.penalties = self.penalties
        s.stake_penalties = list(self.stake_penalties)
        s.tricks = self.tricks
        s.done = self.done
        s.last_lead = self.last_lead
        s.last_win = self.last_win
        s.last_winner = self.last_winner
        s.last_points = self.last_points
        s.blocked = list(self.blocked)
        s.info = self.info
        return s

    def set_lead(self, cards: list[int]) -> None:
        """Take ``cards`` (already in the trick) as the lead of the current trick."""
        self.units = lead_units(self.t, cards)
        self.n = len(cards)

    def moves(self) -> list[list[int]]:
        """The legal plays now: every one-unit lead, or every distinct legal follow."""
        hand = self.hands[self.to_act]
        if not self.plays:
            return unit_leads(self.t, hand)
        return legal_follows(self.t, self.units, self.n, hand)

    def count_moves(self) -> int:
        """How many :meth:`moves` there are (follows counted without listing them)."""
        hand = self.hands[self.to_act]
        if not self.plays:
            return len(unit_leads(self.t, hand))
        return count_follows(self.t, self.units, self.n, hand)

    def random_move(self, rng: Random, throw_rate: float) -> list[int]:
        """A uniform legal follow, or a random lead (see :func:`random_lead`)."""
        return self.random_move_k(rng_from(rng), throw_rate)

    def random_move_k(self, rng: KRng, throw_rate: float) -> list[int]:
        """:meth:`random_move` drawing from a kernel stream."""
        seat = self.to_act
        if not self.plays:
            return random_lead(self.t, self.hands[seat], self.sizes[seat], rng, throw_rate)
        return random_follow(self.t, self.units, self.n, self.hands[seat], rng)

    def is_legal(self, cards: list[int]) -> bool:
        """True if the seat to act may play ``cards`` now (a throw attempt counts as legal;
        :meth:`apply` resolves it)."""
        hand = self.hands[self.to_act]
        if not self.plays:
            cnt = [0] * 54
            for c in cards:
                cnt[c] += 1
                if cnt[c] > hand[c]:
                    return False
            return len(decompose(self.t, cards)) > 0
        return is_legal_follow(self.t, self.units, self.n, hand, cards)

    def apply(self, cards: list[int]) -> None:
        """Play ``cards`` for the seat to act (trusted: see :meth:`is_legal`); a throw is
        checked against the other hands and reduced to the forced unit when it fails."""
        t = self.t
        seat = self.to_act
        if not self.plays:
            units = lead_units(t, cards)
            blocked = -1
            if len(units) > 1:
                played, blocked = self._check_throw(seat, cards, units)
                if played:
                    cards = played
                    units = lead_units(t, cards)
            self.units = units
            self.n = len(cards)
            self.leader = seat
            self.blocked.append(blocked)
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
        self.sizes[seat] -= len(cards)
        self.plays.append(cards)
        if self.calls:
            self.count_called(seat, cards)
        if self.record:
            self.events.append(KEvent(EV_PLAY, seat, cards, [], -1, 0, 0, False))
        if len(self.plays) < self.seats:
            self.to_act = (seat + 1) % self.seats
            return
        self._finish_trick()

    def _check_throw(self, seat: int, cards: list[int], units: list[Unit]) -> tuple[list[int], int]:
        """(cards played instead, seat that beat them) for a multi-unit lead; no cards
        when the throw stands (:func:`check_throw`)."""
        t = self.t
        n = self.seats
        others = [self.hands[(seat + i) % n] for i in range(1, n)]
        res = check_throw(t, units, others, self.team[seat] == self.team[self.banker])
        if res is None:
            return [], -1
        self.penalties += res.penalty
        if self.calls and t.penalty_final and res.penalty:
            self.note_thrown(seat, abs(res.penalty))
        if t.penalty == PENALTY_STAKE:
            self.stake_penalties[self.team[seat]] += 1
        if self.record:
            self.events.append(
                KEvent(
                    EV_THROW_FAILED,
                    seat,
                    list(res.played),
                    list(cards),
                    (seat + res.first) % n,
                    res.penalty,
                    0,
                    False,
                )
            )
        return res.played, (seat + res.blocker) % n

    def note_thrown(self, seat: int, points: int) -> None:
        """找朋友 (``throw_penalty_side = final``): ``seat``'s failed throws cost ``points``
        more, counted for its side as the hand stands (:meth:`recount_penalties`)."""
        if not self.thrown:
            self.thrown = [0] * self.seats
        self.thrown[seat] += points

    def recount_penalties(self) -> None:
        """The collectors' penalty points from :attr:`thrown`: a banker-side seat's
        failed throws add, a collector's subtract."""
        tb = self.team[self.banker]
        total = 0
        for s in range(self.seats):
            pts = self.thrown[s]
            total += pts if self.team[s] == tb else -pts
        self.penalties = total

    def count_called(self, seat: int, cards: list[int]) -> None:
        """Count the called copies among ``cards`` played by ``seat`` (in play order)."""
        calls = self.calls
        for c in cards:
            for i in range(len(calls)):
                if calls[i] == c and self.call_by[i] < 0:
                    self.call_seen[i] += 1
                    if self.call_seen[i] == self.call_ord[i]:
                        self.call_by[i] = seat

    def best_play(self) -> int:
        """Index in :attr:`plays` (0 = the lead) of the play winning the trick so far
        (:func:`trick_winner`); -1 before the lead."""
        if not self.plays:
            return -1
        return trick_winner(self.t, self.units, self.plays)

    def _finish_trick(self) -> None:
        t = self.t
        plays = self.plays
        lead = plays[0]
        best = self.best_play()
        winner = (self.leader + best) % self.seats
        pts = 0
        pts_of = t.pts
        for p in plays:
            for c in p:
                pts += pts_of[c]
        self.seat_points[winner] += pts
        team = self.team
        if self.calls:
            # the seats that played a called copy in this trick join the banker's side,
            # with the points they took before; the collectors' total is recounted
            tb = team[self.banker]
            for s in self.call_by:
                if s >= 0:
                    team[s] = tb
            total = 0
            for s in range(self.seats):
                if team[s] != tb:
                    total += self.seat_points[s]
            self.trick_points = total
            if self.thrown:
                self.recount_penalties()
            collectors = team[winner] != tb
        else:
            collectors = team[winner] != team[self.banker]
            if collectors:
                self.trick_points += pts
        if self.record:
            self.events.append(KEvent(EV_TRICK, winner, [], [], -1, 0, pts, collectors))
        self.tricks += 1
        self.last_lead = lead
        self.last_win = plays[best]
        self.last_winner = winner
        self.last_points = pts
        self.plays = []
        self.leader = winner
        self.to_act = winner
        if self.sizes[0] == 0:
            self.done = True


Policy = Callable[[KState, Random], list[int]]


def play_out(s: KState, rng: Random, throw_rate: float, policy: Policy | None) -> None:
    """Play ``s`` to the end of the hand: uniform random legal plays (leads as
    :func:`random_lead`) or the plays ``policy(state, rng)`` returns."""
    if policy is None:
        fast = rng_from(rng)
        while not s.done:
            s.apply(s.random_move_k(fast, throw_rate))
    else:
        while not s.done:
            s.apply(policy(s, rng))


# -- the search bot's rollout policy ---------------------------------------------------------


def light_move(s: KState, rng: KRng) -> list[int]:
    """A cheap, sensible play for the seat to act (``shengji.bots.search.light_play`` on
    ints): lead the longest unit (a pair or tractor) 60% of the time when there is one,
    else the highest or lowest single of a random suit; follow a single cheaply (points
    to a winning partner; the lowest card that wins when the trick holds points, when
    seats are still to play, or 30% of the time; else the lowest card, points last);
    follow a larger lead as :func:`light_follow` does."""
    t = s.t
    seat = s.to_act
    hand = s.hands[seat]
    if not s.plays:
        leads = unit_leads(t, hand)
        longest = 0
        for lead in leads:
            if len(lead) > longest:
                longest = len(lead)
        if longest >= 2 and rng.random() < 0.6:
            tops = [lead for lead in leads if len(lead) == longest]
            return tops[rng.below(len(tops))]
        suits: list[list[int]] = []
        for x in range(5):
            mine = [c for c in t.suit_cards[x] if hand[c]]
            if mine:
                suits.append(mine)
        mine = suits[rng.below(len(suits))]
        return [mine[0]] if rng.random() < 0.5 else [mine[-1]]
    if s.n != 1:
        best = s.best_play()
        losing = s.team[(s.leader + best) % s.seats] != s.team[seat]
        last = len(s.plays) == s.seats - 1
        return light_follow(t, s.units, s.n, hand, s.plays, losing, last, rng)
    x = s.units[0].suit
    key = t.key
    pts = t.pts
    options = [c for c in t.suit_cards[x] if hand[c]]
    if not options:
        options = [c for c in range(54) if hand[c]]
    best = s.best_play()
    winner = (s.leader + best) % s.seats
    if s.team[winner] == s.team[seat]:
        pick = options[0]
        for c in options:
            if pts[c] > pts[pick] or (pts[c] == pts[pick] and key[c] < key[pick]):
                pick = c
        return [pick]
    best_key = key[s.plays[best][0]]
    low_win = -1
    for c in options:
        wins = t.suit_of[c] in (x, TRUMP) and key[c] > best_key
        if wins and (low_win < 0 or key[c] < key[low_win]):
            low_win = c
    trick_pts = 0
    for p in s.plays:
        for c in p:
            trick_pts += pts[c]
    if low_win >= 0 and (trick_pts > 0 or len(s.plays) < s.seats - 1 or rng.random() < 0.3):
        return [low_win]
    pick = options[0]
    for c in options:
        if pts[c] < pts[pick] or (pts[c] == pts[pick] and key[c] < key[pick]):
            pick = c
    return [pick]


def light_follow(
    t: Tables,
    units: list[Unit],
    n: int,
    hand: list[int],
    plays: list[list[int]],
    losing: bool,
    last: bool,
    rng: KRng,
) -> list[int]:
    """:func:`light_move`'s follow of a lead of several cards (``plays``: the trick so
    far, the lead first): when the other side is winning (``losing``), take the trick with
    the lowest pair (or triple) of the led suit that beats a pair (triple) lead or, void
    in the led side suit, with the lowest trumps that do (a pair or triple lead) or the
    lowest trumps of the lead's shape (a throw without tractors), when the trick holds
    points, seats are still to play (not ``last``), or 30% of the time; otherwise, and
    when nothing takes it, a legal follow at random."""
    if losing:
        x = units[0].suit
        held = 0
        for c in t.suit_cards[x]:
            held += hand[c]
        play: list[int] = []
        one = len(units) == 1 and units[0].links == 1  # a pair (or triple) lead
        if held == 0 and x != TRUMP:
            if one:
                play = _lowest_winning(t, units, plays, hand, t.suit_cards[TRUMP])
            else:
                play = _lowest_of_shape(t, units, hand)
        elif one and held >= n:
            play = _lowest_winning(t, units, plays, hand, t.suit_cards[x])
        if (
            play
            and trick_winner(t, units, [*plays, play]) == len(plays)
            and is_legal_follow(t, units, n, hand, play)
        ):
            trick_pts = 0
            for p in plays:
                for c in p:
                    trick_pts += t.pts[c]
            if trick_pts > 0 or not last or rng.random() < 0.3:
                return play
    return random_follow(t, units, n, hand, rng)


def _lowest_winning(
    t: Tables, units: list[Unit], plays: list[list[int]], hand: list[int], order: list[int]
) -> list[int]:
    """The lowest ``width`` identical cards of ``order`` (highest first) in ``hand`` that
    win the trick of a one-unit lead; [] when none does."""
    width = units[0].width
    for i in range(len(order) - 1, -1, -1):
        c = order[i]
        if hand[c] >= width:
            play = [c] * width
            if trick_winner(t, units, [*plays, play]) == len(plays):
                return play
    return []


def _lowest_of_shape(t: Tables, units: list[Unit], hand: list[int]) -> list[int]:
    """The lowest trumps of ``hand`` in the shape of ``units`` (widest unit first) when
    no unit is a tractor; [] when a unit is one or the trumps cannot make the shape."""
    left = hand[:]
    trumps = t.suit_cards[TRUMP]
    out: list[int] = []
    widths = sorted([u.width for u in units if u.links == 1], reverse=True)
    if len(widths) != len(units):
        return []
    for width in widths:
        pick = -1
        for i in range(len(trumps) - 1, -1, -1):
            if left[trumps[i]] >= width:
                pick = trumps[i]
                break
        if pick < 0:
            return []
        left[pick] -= width
        for _ in range(width):
            out.append(pick)
    return out


def play_out_light(s: KState, rng: KRng) -> None:
    """Play ``s`` to the end of the hand with :func:`light_move` for every seat."""
    while not s.done:
        s.apply(light_move(s, rng))


# -- whole hands: dealing, declaring, the kitty, play ---------------------------------------

#: Phases of :class:`KHand` (``shengji.phases`` names them; ``PH_REDEAL`` asks the caller
#: for a new deck: nobody declared and the rules redeal).
PH_DEAL: Final = 0
PH_BEFORE_KITTY: Final = 1
PH_BURY: Final = 2
PH_AFTER_BURIAL: Final = 3
PH_PLAY: Final = 4
PH_OVER: Final = 5
PH_REDEAL: Final = 6
#: 找朋友: the banker calls friends after the last burial.
PH_CALL: Final = 7
#: A show's phase when it is not known (shows replayed from a record).
PH_ANY: Final = -1
#: ``declaring`` systems.
DECL_SHUANGSHENG: Final = 0
DECL_SHUANGKOU: Final = 1
DECL_CLASSIC: Final = 2
DECL_TUOLAJI: Final = 3
DECL_BOTZONE: Final = 4
#: 双升's timing with shows ranked by their number of cards, then ``BJ > LJ > S > H > C
#: > D`` (``count``), or then jokers over level cards of any suit (``ladder``).
DECL_COUNT: Final = 5
DECL_LADDER: Final = 6
#: ``no_declaration`` modes.
NODECL_KITTY_3: Final = 0
NODECL_KITTY_4: Final = 1
NODECL_NO_TRUMP: Final = 2
NODECL_REDEAL: Final = 3
#: Redeals of one hand before falling back to no-trump (an unlucky first hand could loop).
MAX_REDEALS: Final = 20
#: Kinds of :attr:`KHand.log` entries: ``[kind, seat, card...]``.
ACT_DECLARE: Final = 0
ACT_PASS: Final = 1
ACT_BURY: Final = 2
ACT_PLAY: Final = 3
ACT_CALL: Final = 4
#: A paced deal (:attr:`KHand.paced`) dealt on: ``[ACT_DEAL, -1, dealt]``.
ACT_DEAL: Final = 5
#: Trump "suit" of no-trump (无主).
NT: Final = -1


class HandRules:
    """What a hand needs of the rule options, as ints (``shengji.kernel.match`` builds it);
    ``team[seat]`` is the seat's side (with friend calls, only its length counts: sides
    are found during the hand)."""

    def __init__(
        self,
        decks: int,
        hand_size: int,
        kitty_size: int,
        declaring: int,
        counter_takes_banker: bool,
        no_declaration: int,
        team: list[int],
        calls: int,
        call_trump_suit: bool,
        weak_redeal: int,
    ) -> None:
        self.decks = decks
        self.hand_size = hand_size
        self.kitty_size = kitty_size
        self.declaring = declaring
        self.counter_takes_banker = counter_takes_banker
        self.no_declaration = no_declaration
        self.team = team
        self.seats = len(team)
        #: 找朋友: friend calls the banker makes after burying (0: fixed partnerships),
        #: and whether cards of the trump suit may be called.
        self.calls = calls
        self.call_trump_suit = call_trump_suit
        #: ``weak_redeal``: the highest rank a weak hand's trumps reach (-1: no redeal).
        self.weak_redeal = weak_redeal


def counters_after_burial(style: int, first_hand: bool) -> bool:
    """Whether the ``declaring`` system opens a counter round after the banker buries
    (反主炒底 in 双升's later hands, and in ``count`` and ``ladder``; 双抠's 反底)."""
    if style == DECL_SHUANGKOU:
        return True
    return not first_hand and style in (DECL_SHUANGSHENG, DECL_COUNT, DECL_LADDER)


def show_priority(card: int) -> int:
    """Counter-declaring priority ``BJ > LJ > S > H > C > D`` as 5..0."""
    if card >= 52:
        return 5 if card == 53 else 4
    return 3 - card // 13


def show_rung(card: int, count: int) -> int:
    """The 3-deck show ladder: single 1 < pair 2 < jokers 3 < triple 4 < 3 jokers 5."""
    if card >= 52:
        return 3 if count == 2 else 5
    return 1 if count == 1 else 2 if count == 2 else 4 if count == 3 else 6


class KDeclare:
    """What the accepted shows of a hand leave (``shengji.declaring.DeclareState``):
    ``trump`` is a suit 0..3 or :data:`NT`; seats -1 for none; ``pair_seats`` a bit set."""

    def __init__(self, first_hand: bool, banker: int) -> None:
        self.first_hand = first_hand
        self.banker = -1 if first_hand else banker
        self.declared = False
        self.trump = NT
        self.holder = -1
        self.first_declarer = -1
        self.rung = 0
        self.priority = -1
        self.counters = 0
        self.pair_seats = 0
        self.locked = False
        self.flipped = False
        #: Accepted shows as ``seat, card, count`` triples.
        self.shows: list[int] = []

    def copy(self) -> KDeclare:
        """An independent copy."""
        d = KDeclare(self.first_hand, self.banker)
        d.banker = self.banker
        d.declared = self.declared
        d.trump = self.trump
        d.holder = self.holder
        d.first_declarer = self.first_declarer
        d.rung = self.rung
        d.priority = self.priority
        d.counters = self.counters
        d.pair_seats = self.pair_seats
        d.locked = self.locked
        d.flipped = self.flipped
        d.shows = list(self.shows)
        return d

    def _initial(
        self, seat: int, card: int, count: int, phase: int, jokers_ok: bool, after_deal: bool
    ) -> str:
        if phase not in (PH_DEAL, PH_ANY) and not (after_deal and phase == PH_BEFORE_KITTY):
            return "only_while_dealing"
        if card >= 52 and not jokers_ok:
            return "jokers_counter_only"
        self.declared = True
        self.trump = NT if card >= 52 else card // 13
        self.holder = seat
        self.first_declarer = seat
        self.rung = show_rung(card, count)
        self.priority = show_priority(card) if count >= 2 else -1
        if self.first_hand:
            self.banker = seat
        if count >= 2:
            self.pair_seats |= 1 << seat
        self.locked = count >= 2
        return ""

    def _is_reinforcement(self, seat: int, card: int, count: int) -> bool:
        return (
            seat == self.holder
            and card < 52
            and card // 13 == self.trump
            and count == 2
            and self.rung == 1
        )

    def _reinforce(self, seat: int, card: int, phase: int) -> str:
        if phase == PH_AFTER_BURIAL:
            return "late_reinforce"
        self.rung = 2
        self.priority = show_priority(card)
        self.locked = True
        self.pair_seats |= 1 << seat
        return ""

    def _outranks(self, card: int, count: int) -> bool:
        return count >= 2 and (self.rung <= 1 or show_priority(card) > self.priority)

    def _standing_priority(self) -> int:
        if self.priority >= 0:
            return self.priority
        return -1 if self.trump == NT else 3 - self.trump

    def _countered(self, seat: int, card: int, count: int, takes_banker: bool, counts: bool) -> str:
        self.trump = NT if card >= 52 else card // 13
        self.holder = seat
        self.rung = max(2, show_rung(card, count))
        self.priority = show_priority(card)
        if counts:
            self.counters += 1
        if takes_banker:
            self.banker = seat
        self.pair_seats |= 1 << seat
        self.locked = True
        return ""

    def show(self, r: HandRules, level: int, seat: int, card: int, count: int, phase: int) -> str:
        """Apply a show of ``count`` cards ``card`` by ``seat`` in ``phase`` (``PH_ANY``:
        accepted earlier, phase unknown): "" when it is accepted (the state changed), else
        the refusal's reason (the ``reason`` parameter of ``shengji.declaring``'s errors;
        the state is unchanged: every rule is checked before anything changes)."""
        why = self._show(r, level, seat, card, count, phase)
        if not why:
            self.shows.extend((seat, card, count))
        return why

    def _show(self, r: HandRules, level: int, seat: int, card: int, count: int, phase: int) -> str:
        if count < 1:
            return "empty"
        if card < 52 and card % 13 + 2 != level:
            return "not_level"
        if card >= 52 and count < 2:
            return "single_joker"
        if count > r.decks:
            return "too_many"
        style = r.declaring
        if style == DECL_SHUANGSHENG:
            return self._shuangsheng(seat, card, count, phase)
        if style == DECL_CLASSIC:
            return self._classic(r, seat, card, count, phase)
        if style == DECL_TUOLAJI:
            return self._tuolaji(r, seat, card, count, phase)
        if style == DECL_SHUANGKOU:
            return self._shuangkou(seat, card, count, phase)
        if style == DECL_BOTZONE:
            return self._botzone(r, seat, card, count, phase)
        return self._by_count(seat, card, count, phase, style == DECL_COUNT)

    def _shuangsheng(self, seat: int, card: int, count: int, phase: int) -> str:
        if not self.declared:
            return self._initial(seat, card, count, phase, False, False)
        if self._is_reinforcement(seat, card, count):
            return self._reinforce(seat, card, phase)
        if count < 2:
            return "counter_needs_pair"
        if seat == self.holder:
            return "own_declaration"
        if self.first_hand and phase == PH_AFTER_BURIAL:
            return "first_hand_no_counter"
        if not self.first_hand and phase in (PH_DEAL, PH_BEFORE_KITTY):
            return "counter_after_burial"
        if not self._outranks(card, count):
            return "outranked"
        return self._countered(seat, card, count, self.first_hand, True)

    def _by_count(self, seat: int, card: int, count: int, phase: int, suits: bool) -> str:
        """``count`` and ``ladder``: 双升's timing; :attr:`rung` is the standing show's
        number of cards. The holder may only add cards to it; another seat needs a
        stronger show (:meth:`_stronger`)."""
        if not self.declared:
            why = self._initial(seat, card, count, phase, True, False)
            if not why:
                self.rung = count
            return why
        if seat == self.holder:
            if not self._same_show(card) or count <= self.rung:
                return "reinforce_only"
            if phase == PH_AFTER_BURIAL:
                return "late_reinforce"
            self.rung = count
            self.priority = show_priority(card)
            self.locked = True
            self.pair_seats |= 1 << seat
            return ""
        if not self._stronger(card, count, suits):
            return "stronger_show"
        if self.first_hand and phase == PH_AFTER_BURIAL:
            return "first_hand_no_counter"
        if not self.first_hand and phase in (PH_DEAL, PH_BEFORE_KITTY):
            return "counter_after_burial"
        self._countered(seat, card, count, self.first_hand, True)
        self.rung = count
        return ""

    def _same_show(self, card: int) -> bool:
        """Whether ``card`` is the card of the standing show."""
        if card >= 52:
            return self.trump == NT and show_priority(card) == self.priority
        return self.trump == card // 13

    def _stronger(self, card: int, count: int, suits: bool) -> bool:
        """More cards than the standing show, or as many (two or more) that outrank it:
        by ``BJ > LJ > S > H > C > D`` (``suits``), else jokers over level cards."""
        if count != self.rung:
            return count > self.rung
        if count < 2:
            return False
        mine, theirs = show_priority(card), self.priority
        if not suits:
            mine = max(0, mine - 3)
            theirs = max(0, theirs - 3)
        return mine > theirs

    def _shuangkou(self, seat: int, card: int, count: int, phase: int) -> str:
        if not self.declared:
            return self._initial(seat, card, count, phase, False, False)
        if count < 2:
            return "needs_pair"
        if self.flipped and card < 52:
            return "flipped_jokers"
        if phase == PH_AFTER_BURIAL:
            if seat == self.banker:
                return "banker"
            if self.pair_seats >> seat & 1:
                return "once_each"
            if show_priority(card) <= self._standing_priority():
                return "outranked"
            return self._countered(seat, card, count, False, True)
        if phase == PH_BEFORE_KITTY:
            return "fix_while_dealing"
        if self._is_reinforcement(seat, card, count):
            return self._reinforce(seat, card, phase)
        if not self._outranks(card, count):
            return "outranked"
        return self._countered(seat, card, count, self.first_hand, True)

    def _classic(self, r: HandRules, seat: int, card: int, count: int, phase: int) -> str:
        if not self.declared:
            return self._initial(seat, card, count, phase, True, True)
        if phase == PH_AFTER_BURIAL:
            return "after_burial"
        if show_rung(card, count) <= self.rung:
            return "stronger_needed"
        takes = self.first_hand and r.counter_takes_banker
        return self._countered(seat, card, count, takes, seat != self.holder)

    def _tuolaji(self, r: HandRules, seat: int, card: int, count: int, phase: int) -> str:
        if not self.declared:
            return self._initial(seat, card, count, phase, True, False)
        if phase == PH_AFTER_BURIAL:
            return "after_burial"
        if count < 2:
            return "needs_pair"
        takes = self.first_hand and r.counter_takes_banker
        if card >= 52:
            if self.trump == NT:
                return "already_nt"
            return self._countered(seat, card, count, takes, True)
        if self.locked:
            return "locked"
        if card // 13 == self.trump:
            return self._reinforce(seat, card, phase)
        return self._countered(seat, card, count, takes, True)

    def _botzone(self, r: HandRules, seat: int, card: int, count: int, phase: int) -> str:
        if phase not in (PH_DEAL, PH_ANY):
            return "only_while_dealing"
        if not self.declared:
            if count != 1:
                return "single_first"
            return self._initial(seat, card, count, phase, False, False)
        if count != 2:
            return "needs_pair"
        if self.counters:
            return "once_only"
        takes = self.first_hand and r.counter_takes_banker
        return self._countered(seat, card, count, takes, True)


def callable_card(t: Tables, level: int, trump: int, card: int, trump_suit: bool) -> bool:
    """Whether ``card`` may be called as a friend (找朋友) at ``level`` with ``trump``
    (tables ``t``): not a joker, a level card or another card that is a trump outside
    the trump suit (a constant 2); a card of the trump suit only when ``trump_suit``
    (``call_trump_suit``)."""
    if card < 0 or card >= 52 or card % 13 + 2 == level:
        return False
    if t.suit_of[card] != TRUMP:
        return True
    return trump_suit and card // 13 == trump


def calls_error(
    t: Tables,
    level: int,
    trump: int,
    calls: int,
    decks: int,
    cards: list[int],
    ordinals: list[int],
    trump_suit: bool,
) -> str:
    """Why these friend calls are not allowed ("" when they are): not ``calls`` of them,
    a card that may not be called (:func:`callable_card`), an ordinal outside 1..``decks``
    or the same call twice."""
    if len(cards) != calls or len(ordinals) != len(cards):
        return "count"
    seen: list[int] = []
    for i in range(len(cards)):
        c, k = cards[i], ordinals[i]
        if not callable_card(t, level, trump, c, trump_suit):
            return "not_callable"
        if k < 1 or k > decks:
            return "ordinal"
        if c * 8 + k in seen:
            return "duplicate"
        seen.append(c * 8 + k)
    return ""


def random_calls(
    t: Tables, level: int, trump: int, calls: int, decks: int, trump_suit: bool, rng: KRng
) -> tuple[list[int], list[int]]:
    """``calls`` friend calls drawn uniformly: distinct callable cards
    (:func:`callable_card`), each with a uniform ordinal 1..``decks``."""
    pool = [c for c in range(52) if callable_card(t, level, trump, c, trump_suit)]
    cards = rng.sample(pool, calls)
    return cards, [1 + rng.below(decks) for _ in cards]


class KHand:
    """A whole hand on ints, mutable: the deal with a show offered at each draw, the
    declaring windows, burial and the 炒底/反底 rounds, then the play phase (a
    :class:`KState` in :attr:`play`). Every method acts for the seat :attr:`to_act` and
    trusts its input unless it is a ``*_error`` check; :meth:`advance` runs what needs no
    decision. Scoring a finished hand (``PH_OVER``) is the caller's.

    During the deal any seat may show (:meth:`show_during_deal`), not only the one asked.
    A :attr:`paced` hand asks nobody at the draws: the table deals on with :meth:`deal_to`
    at its own pace and the seats show whenever they like."""

    def __init__(
        self,
        r: HandRules,
        tables: list[Tables],
        level: int,
        deck: list[int],
        start_seat: int,
        first_hand: bool,
        banker: int,
        redeals: int,
    ) -> None:
        n = r.seats
        self.r = r
        #: Tables per trump: index ``trump + 1`` (NT first).
        self.tables = tables
        self.level = level
        self.deck = deck
        self.start_seat = start_seat
        self.redeals = redeals
        self.phase = PH_DEAL
        self.dealt = 0
        self.hands: list[list[int]] = [[0] * 54 for _ in range(n)]
        self.sizes: list[int] = [0] * n
        self.kitty: list[int] = deck[n * r.hand_size :]
        self.decl = KDeclare(first_hand, banker)
        self.to_act = -1
        self.window_start = start_seat
        self.window_pos = 0
        self.passes = 0
        self.buried_by: list[int] = []
        #: ``seat, kind (0 picked up, 1 buried), first card index in kitty_cards`` triples.
        self.kitty_log: list[int] = []
        self.kitty_cards: list[int] = []
        self.play: KState | None = None
        #: The kitty card turned to set trump when nobody declared (-1: none turned).
        self.turned = -1
        #: ``weak_redeal``: the seat whose weak hand asks for the redeal (-1: none).
        self.weak = -1
        #: Decisions taken so far (shows, passes, burials, plays).
        self.decisions = 0
        self.record = False
        #: With :attr:`record`: every decision as ``[kind, seat, card...]`` (a declaration
        #: as ``[ACT_DECLARE, seat, card, count]``).
        self.log: list[list[int]] = []
        #: The deal asks nobody: :meth:`deal_to` deals on (the table's clock).
        self.paced = False

    def copy(self) -> KHand:
        """An independent copy (the log is not copied)."""
        h = KHand(self.r, self.tables, self.level, self.deck, self.start_seat, True, -1, 0)
        h.redeals = self.redeals
        h.phase = self.phase
        h.dealt = self.dealt
        h.hands = [list(x) for x in self.hands]
        h.sizes = list(self.sizes)
        h.kitty = list(self.kitty)
        h.decl = self.decl.copy()
        h.to_act = self.to_act
        h.window_start = self.window_start
        h.window_pos = self.window_pos
        h.passes = self.passes
        h.buried_by = list(self.buried_by)
        h.decisions = self.decisions
        h.kitty_log = list(self.kitty_log)
        h.kitty_cards = list(self.kitty_cards)
        h.turned = self.turned
        h.weak = self.weak
        h.paced = self.paced
        if self.play is not None:
            p = self.play.copy()
            p.hands = h.hands
            p.sizes = h.sizes
            h.play = p
        return h

    @property
    def trump_tables(self) -> Tables:
        """The tables of the current trump (NT until one is declared)."""
        d = self.decl
        return self.tables[(d.trump if d.declared else NT) + 1]

    # -- declaring ---------------------------------------------------------------------------

    def show_cards(self, seat: int) -> list[int]:
        """The level cards and jokers ``seat`` holds, by card index."""
        hand = self.hands[seat]
        out: list[int] = []
        c = self.level - 2
        for s in range(4):
            if hand[c + 13 * s]:
                out.append(c + 13 * s)
        if hand[52]:
            out.append(52)
        if hand[53]:
            out.append(53)
        return out

    def legal_shows(self, seat: int) -> list[int]:
        """Every show ``seat`` may make now, as ``card * 8 + count``, ordered by count then
        card (as ``shengji.game.legal_shows``)."""
        out: list[int] = []
        if self.phase not in (PH_DEAL, PH_BEFORE_KITTY, PH_AFTER_BURIAL):
            return out
        hand = self.hands[seat]
        for c in self.show_cards(seat):
            for k in range(2 if c >= 52 else 1, hand[c] + 1):
                if not self.show_error(seat, c, k):
                    out.append(k * 64 + c)
        out.sort()
        return [(x % 64) * 8 + x // 64 for x in out]

    def has_show(self, seat: int) -> bool:
        """Whether ``seat`` has any legal show now."""
        hand = self.hands[seat]
        for c in self.show_cards(seat):
            for k in range(2 if c >= 52 else 1, hand[c] + 1):
                if not self.show_error(seat, c, k):
                    return True
        return False

    def show_error(self, seat: int, card: int, count: int) -> str:
        """Why ``seat`` may not show ``count`` x ``card`` now ("" when it may)."""
        if self.hands[seat][card] < count:
            return "not_held"
        return self.decl.copy()._show(self.r, self.level, seat, card, count, self.phase)

    def declare(self, card: int, count: int) -> None:
        """The seat to act shows ``count`` x ``card`` (legal: :meth:`show_error`)."""
        seat = self.to_act
        self.decl.show(self.r, self.level, seat, card, count, self.phase)
        self.decisions += 1
        if self.record:
            self.log.append([ACT_DECLARE, seat, card, count])
        self.passes = 0
        self.to_act = -1
        if self.phase == PH_BEFORE_KITTY:
            self.window_pos += 1
        elif self.phase == PH_AFTER_BURIAL:
            # the counter-declarer takes the kitty and buries again (炒底/反底)
            self._take_kitty(seat)

    def show_during_deal(self, seat: int, card: int, count: int) -> None:
        """``seat`` shows ``count`` x ``card`` while the cards are dealt, asked or not
        (legal: :meth:`show_error`). A seat asked at its draw whom the show leaves with
        nothing to show is asked no more: the deal goes on at :meth:`advance`."""
        if seat == self.to_act:
            self.declare(card, count)
            return
        self.decl.show(self.r, self.level, seat, card, count, self.phase)
        self.decisions += 1
        if self.record:
            self.log.append([ACT_DECLARE, seat, card, count])
        if self.to_act >= 0 and not self.has_show(self.to_act):
            self.to_act = -1

    def deal_to(self, dealt: int) -> None:
        """Deal on until ``dealt`` cards are out (a :attr:`paced` hand: nobody is asked);
        the last card ends the deal and opens the round before the kitty."""
        if self.record:
            self.log.append([ACT_DEAL, -1, dealt])
        n = self.r.seats
        deck = self.deck
        while self.dealt < dealt:
            seat = (self.start_seat + self.dealt) % n
            self.hands[seat][deck[self.dealt]] += 1
            self.sizes[seat] += 1
            self.dealt += 1
        if self.dealt == n * self.r.hand_size:
            self._end_deal()

    def pass_turn(self) -> None:
        """The seat to act passes (declines to show)."""
        self.decisions += 1
        if self.record:
            self.log.append([ACT_PASS, self.to_act])
        self.to_act = -1
        if self.phase != PH_DEAL:
            self.passes += 1
            self.window_pos += 1

    def _take_kitty(self, seat: int) -> None:
        hand = self.hands[seat]
        for c in self.kitty:
            hand[c] += 1
        self.sizes[seat] += len(self.kitty)
        self.kitty_log.extend((seat, 0, len(self.kitty_cards)))
        self.kitty_cards.extend(self.kitty)
        self.kitty = []
        self.phase = PH_BURY
        self.to_act = seat

    # -- the kitty ---------------------------------------------------------------------------

    def bury_error(self, cards: list[int]) -> str:
        """Why the seat to act may not bury ``cards`` ("" when it may)."""
        if len(cards) != self.r.kitty_size:
            return "count"
        hand = self.hands[self.to_act]
        cnt = [0] * 54
        for c in cards:
            if c < 0 or c > 53:
                return "not_held"
            cnt[c] += 1
            if cnt[c] > hand[c]:
                return "not_held"
        return ""

    def bury(self, cards: list[int]) -> None:
        """The seat to act buries ``cards`` (legal: :meth:`bury_error`)."""
        seat = self.to_act
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
        self.sizes[seat] -= len(cards)
        self.decisions += 1
        if self.record:
            self.log.append([ACT_BURY, seat, *cards])
        self.kitty = list(cards)
        self.buried_by.append(seat)
        self.kitty_log.extend((seat, 1, len(self.kitty_cards)))
        self.kitty_cards.extend(cards)
        self.to_act = -1
        if len(self.buried_by) > 1:
            self.phase = PH_AFTER_BURIAL
            self.passes = 0
            self.window_pos += 1
            return
        if counters_after_burial(self.r.declaring, self.decl.first_hand):
            self.phase = PH_AFTER_BURIAL
            self.window_start = self.decl.banker
            self.window_pos = 0
            self.passes = 0
        else:
            self._end_kitty()

    def _end_kitty(self) -> None:
        if self.r.calls:
            self.phase = PH_CALL
            self.to_act = self.decl.banker
        else:
            self._begin_play()

    # -- 找朋友: calling friends -----------------------------------------------------------

    def callable_card(self, card: int) -> bool:
        """Whether ``card`` may be called now (:func:`callable_card`)."""
        return callable_card(
            self.trump_tables, self.level, self.decl.trump, card, self.r.call_trump_suit
        )

    def call_error(self, cards: list[int], ordinals: list[int]) -> str:
        """Why the banker may not make these calls now ("" when it may)."""
        if self.phase != PH_CALL:
            return "phase"
        r, t = self.r, self.trump_tables
        return calls_error(
            t, self.level, self.decl.trump, r.calls, r.decks, cards, ordinals, r.call_trump_suit
        )

    def call_friends(self, cards: list[int], ordinals: list[int]) -> None:
        """The banker calls friends (legal: :meth:`call_error`); the play begins."""
        self.decisions += 1
        if self.record:
            self.log.append(
                [ACT_CALL, self.to_act, *[c * 8 + k for c, k in zip(cards, ordinals, strict=False)]]
            )
        self._begin_play()
        ks = self.play
        assert ks is not None
        ks.set_calls(list(cards), list(ordinals))

    def random_calls(self, rng: KRng) -> tuple[list[int], list[int]]:
        """The random player's calls (:func:`random_calls`)."""
        t, r = self.trump_tables, self.r
        return random_calls(
            t, self.level, self.decl.trump, r.calls, r.decks, r.call_trump_suit, rng
        )

    def _begin_play(self) -> None:
        banker = self.decl.banker
        ks = KState(self.trump_tables, banker, banker, self.r.team)
        ks.hands = self.hands
        ks.sizes = self.sizes
        ks.record = self.record
        self.play = ks
        self.phase = PH_PLAY
        self.to_act = banker

    # -- play ----------------------------------------------------------------------------------

    def play_cards(self, cards: list[int]) -> None:
        """The seat to act plays ``cards`` (legal: ``self.play.is_legal``)."""
        ks = self.play
        assert ks is not None
        self.decisions += 1
        if self.record:
            self.log.append([ACT_PLAY, ks.to_act, *cards])
        ks.apply(cards)
        if ks.done:
            self.phase = PH_OVER
            self.to_act = -1
        else:
            self.to_act = ks.to_act

    # -- automatic steps -----------------------------------------------------------------------

    def advance(self) -> None:
        """Deal, skip seats with nothing to show and close windows until a seat must
        decide (:attr:`to_act`), the play starts, or the hand needs a redeal."""
        while self.to_act < 0 and self.phase in (PH_DEAL, PH_BEFORE_KITTY, PH_AFTER_BURIAL):
            if self.phase == PH_DEAL:
                if self.paced:
                    return  # the table deals on (deal_to)
                self._deal_until_choice()
            else:
                self._window_step()

    def _deal_until_choice(self) -> None:
        r = self.r
        n = r.seats
        total = n * r.hand_size
        level = self.level
        can = [-1] * n
        deck = self.deck
        while self.dealt < total:
            seat = (self.start_seat + self.dealt) % n
            card = deck[self.dealt]
            self.hands[seat][card] += 1
            self.sizes[seat] += 1
            self.dealt += 1
            if card >= 52 or card % 13 + 2 == level:
                can[seat] = -1
            if can[seat] < 0:
                can[seat] = 1 if self.has_show(seat) else 0
            # a level card may be shown at any time during the deal (随时): the seat is
            # asked at each of its draws while it has a legal show
            if can[seat]:
                self.to_act = seat
                return
        self._end_deal()

    def _end_deal(self) -> None:
        self.phase = PH_BEFORE_KITTY
        self.window_start = self.start_seat
        self.window_pos = 0
        self.passes = 0

    def _window_step(self) -> None:
        n = self.r.seats
        while self.passes < n:
            seat = (self.window_start + self.window_pos) % n
            if self.has_show(seat):
                self.to_act = seat
                return
            self.passes += 1
            self.window_pos += 1
        if self.phase == PH_BEFORE_KITTY:
            self._close_declaring()
        else:
            self._end_kitty()

    def _close_declaring(self) -> None:
        d = self.decl
        if not d.declared:
            mode = self.r.no_declaration
            redeal = mode == NODECL_REDEAL or (d.first_hand and mode == NODECL_KITTY_3)
            if redeal and self.redeals < MAX_REDEALS:
                self.phase = PH_REDEAL
                return
            trump = NT
            if not redeal and mode != NODECL_NO_TRUMP:
                card = self.kitty[2 if mode == NODECL_KITTY_3 else 3]
                trump = NT if card >= 52 else card // 13
                self.turned = card
            d.declared = True
            d.trump = trump
            d.flipped = True
            d.rung = 1
            d.banker = self.start_seat if d.banker < 0 else d.banker
        if self.r.weak_redeal >= 0 and self.redeals < MAX_REDEALS:
            self.weak = self.weak_seat()
            if self.weak >= 0:
                self.phase = PH_REDEAL
                return
        self._take_kitty(d.banker)

    def weak_seat(self) -> int:
        """The first seat from the first dealt to whose hand is weak (:func:`weak_hand`
        under ``weak_redeal``), or -1."""
        t = self.trump_tables
        n = self.r.seats
        for i in range(n):
            seat = (self.start_seat + i) % n
            if weak_hand(t, self.hands[seat], self.level, self.decl.trump, self.r.weak_redeal):
                return seat
        return -1

    # -- a random player (``shengji.bots.random_bot``) -----------------------------------------

    def random_action(self, rng: KRng, throw_rate: float) -> None:
        """Act for :attr:`to_act` as the random bot does: a uniform choice among the legal
        shows and passing, a uniform burial, a uniform legal follow, or a random lead
        (:func:`random_lead`)."""
        seat = self.to_act
        ph = self.phase
        if ph == PH_PLAY:
            ks = self.play
            assert ks is not None
            self.play_cards(ks.random_move_k(rng, throw_rate))
        elif ph == PH_BURY:
            self.bury(random_burial(self.hands[seat], self.r.kitty_size, rng))
        elif ph == PH_CALL:
            cards, ords = self.random_calls(rng)
            self.call_friends(cards, ords)
        else:
            shows = self.legal_shows(seat)
            pick = rng.below(len(shows) + 1)
            if pick < len(shows):
                self.declare(shows[pick] // 8, shows[pick] % 8)
            else:
                self.pass_turn()


def weak_hand(t: Tables, hand: list[int], level: int, trump: int, top: int) -> bool:
    """Whether ``hand`` (counts) is weak for ``weak_redeal`` at rank ``top``: every trump
    it holds (none counts) is a plain card of the trump suit ``trump`` ranked ``top`` or
    lower, so no joker, level card or trump 2 (``constant_twos``), and none under NT."""
    for c in t.suit_cards[TRUMP]:
        if not hand[c]:
            continue
        if c >= 52 or c // 13 != trump or c % 13 + 2 == level or c % 13 + 2 > top:
            return False
        if c % 13 == 0 and t.suit_of[(c + 13) % 52] == TRUMP:  # a constant 2
            return False
    return True


def shuffle_ints(cards: list[int], rng: Random) -> None:
    """Shuffle ``cards`` in place exactly as :meth:`random.Random.shuffle` does (the same
    draws from the same Mersenne Twister), without its interpreted loop."""
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = rng.getrandbits(k)
        while j >= n:
            j = rng.getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def random_burial(hand: list[int], k: int, rng: KRng) -> list[int]:
    """``k`` cards of ``hand`` (counts) drawn uniformly, from the cards in index order."""
    pool: list[int] = []
    for c in range(54):
        for _ in range(hand[c]):
            pool.append(c)
    return rng.sample(pool, k)


def random_hand(h: KHand, rngs: list[KRng], throw_rate: float) -> None:
    """Play ``h`` to its end (or to a redeal) with a random player at every seat, each
    drawing from its own stream ``rngs[seat]``."""
    h.advance()
    while h.phase != PH_OVER and h.phase != PH_REDEAL:
        h.random_action(rngs[h.to_act], throw_rate)
        h.advance()


# -- scoring: the kitty bonus, level tables, the J hook, the match end, coins (§6) ---------

#: ``kitty_multiplier`` option values (``shengji.kernel.access.KITTY_MULTIPLIER``).
KM_LINEAR: Final = 0
KM_DOUBLING: Final = 1
KM_WIDEST: Final = 2
KM_CARD_COUNT: Final = 3
KM_ALL_CARDS: Final = 4
#: ``level_table`` option values.
LT_STANDARD: Final = 0
LT_SUPER: Final = 1
LT_CLASSIC: Final = 2
LT_CLASSIC_1DECK: Final = 3
LT_CLASSIC_3DECK: Final = 4
LT_CLASSIC_1DECK_45: Final = 5
LT_SHUANGKOU: Final = 6
LT_BOTZONE: Final = 7
LT_STANDARD_FIXED: Final = 8
#: ``match_end`` option values.
ME_DEFEND_ACE: Final = 0
ME_REACH_ACE: Final = 1
ME_WRAP: Final = 2
#: Sides of a hand's outcome (``shengji.scoring.Side``); ``SIDE_NONE``: no winner yet.
SIDE_BANKER: Final = 0
SIDE_COLLECTORS: Final = 1
SIDE_NONE: Final = -1


class ScoreRules:
    """What scoring needs of the rule options, as ints (``shengji.kernel.access`` builds
    it): ``max_gain`` and ``match_hands`` -1 for none, ``must_play`` the must-play
    levels; 找朋友's ``calls`` (0: fixed partnerships), ``small_side_bonus`` and
    ``friend_passes_ace``."""

    def __init__(
        self,
        decks: int,
        kitty_multiplier: int,
        level_table: int,
        max_gain: int,
        must_play: list[int],
        j_hook: bool,
        match_end: int,
        match_hands: int,
        coins: bool,
        base_stake: int,
        stake_doubling: bool,
        calls: int,
        small_side_bonus: int,
        friend_passes_ace: bool,
    ) -> None:
        self.decks = decks
        self.kitty_multiplier = kitty_multiplier
        self.level_table = level_table
        self.max_gain = max_gain
        self.must_play = must_play
        self.j_hook = j_hook
        self.match_end = match_end
        self.match_hands = match_hands
        self.coins = coins
        self.base_stake = base_stake
        self.stake_doubling = stake_doubling
        self.calls = calls
        self.small_side_bonus = small_side_bonus
        self.friend_passes_ace = friend_passes_ace


def shape_multiplier(r: ScoreRules, links: int, width: int) -> int:
    """The kitty multiplier of a last trick won with a unit of ``links`` x ``width``:
    ``linear`` (and ``all_cards``, 2 per card) 2·w·k, ``card_count`` k·w, else
    (``doubling``, ``widest``) 2·w^k."""
    if r.kitty_multiplier == KM_LINEAR or r.kitty_multiplier == KM_ALL_CARDS:
        return 2 * width * links
    if r.kitty_multiplier == KM_CARD_COUNT:
        return links * width
    m: int = 2 * width**links
    return m


def kitty_multiplier(r: ScoreRules, links: list[int], widths: list[int]) -> int:
    """The multiplier set by a lead of units of ``links`` x ``widths`` (largest first):
    its largest unit, or (``widest``) its widest then longest; ``card_count`` doubles it
    for a throw; ``all_cards`` is 2 per card of the lead, a throw's every card counted."""
    if r.kitty_multiplier == KM_ALL_CARDS:
        cards = 0
        for i in range(len(links)):
            cards += links[i] * widths[i]
        return 2 * cards
    k, w = links[0], widths[0]
    if r.kitty_multiplier == KM_WIDEST:
        for i in range(len(links)):
            if (widths[i], links[i]) > (w, k):
                k, w = links[i], widths[i]
    m = shape_multiplier(r, k, w)
    if r.kitty_multiplier == KM_CARD_COUNT and len(links) > 1:
        m *= 2
    return m


def level_change(r: ScoreRules, pts: int, last_collectors: bool) -> tuple[int, int]:
    """``(side, gain)``: which side goes up and by how much for the collectors' points
    ``pts`` (<= 0 counts as 0) in the rules' level table (``shengji.scoring.level_change``
    says each table); ``gain`` 0 for the collectors is a swap."""
    p = max(0, pts)
    table = r.level_table
    if table == LT_BOTZONE:
        if p < 80:
            return SIDE_BANKER, 3 if p == 0 else 2 if p < 40 else 1
        return SIDE_COLLECTORS, min(3, 1 + (p - 80) // 40)
    if table == LT_CLASSIC_1DECK_45:
        wins = (1 if p >= 45 else 0) + (1 if last_collectors else 0)
        if wins:
            return SIDE_COLLECTORS, wins
        return SIDE_BANKER, 0 if p == 40 else 1
    if table == LT_SHUANGKOU:
        if p < 80:
            return SIDE_BANKER, 3 if p == 0 else 2 if p < 40 else 1
        if p < 160:
            return SIDE_COLLECTORS, (p - 80) // 40
        return SIDE_COLLECTORS, 2 + max(0, p - 200) // 40
    if table == LT_SUPER:
        if p == 0:
            return SIDE_BANKER, 6
        if p < 40:
            return (SIDE_BANKER, 5 - (p - 5) // 10) if p < 35 else (SIDE_BANKER, 2)
        if p < 80:
            return SIDE_BANKER, 1
        if p < 120:
            return SIDE_COLLECTORS, 0
        if p == 120:
            return SIDE_COLLECTORS, 1
        return SIDE_COLLECTORS, min(6, 2 + (p - 125) // 40)
    if table == LT_CLASSIC_1DECK:
        if p == 0:
            return SIDE_BANKER, 2
        if p < 40:
            return SIDE_BANKER, 1
        if p < 80:
            return SIDE_COLLECTORS, 0
        return SIDE_COLLECTORS, 1 + (p - 80) // 20
    if table == LT_CLASSIC_3DECK:
        if p == 0:
            return SIDE_BANKER, 3
        if p < 60:
            return SIDE_BANKER, 2
        if p < 120:
            return SIDE_BANKER, 1
        if p < 180:
            return SIDE_COLLECTORS, 0
        return SIDE_COLLECTORS, 1 + (p - 180) // 60
    # ``standard`` in steps of 20 points a deck; ``standard-fixed`` and ``classic`` in
    # fixed 40-point steps
    step = 20 * r.decks if table == LT_STANDARD else 40
    if p == 0:
        return SIDE_BANKER, 3
    if p < step:
        return SIDE_BANKER, 2
    if p < 2 * step:
        return SIDE_BANKER, 1
    if table == LT_CLASSIC:
        return SIDE_COLLECTORS, 1 + (p - 2 * step) // step
    return SIDE_COLLECTORS, (p - 2 * step) // step


def climb(r: ScoreRules, start: int, gain: int, as_winning_banker: bool) -> tuple[int, int, bool]:
    """Climb ``gain`` levels from ``start``: the new level, the levels moved and whether a
    must-play level stopped the climb (``wrap`` goes past A back to 2)."""
    level = start
    moved = 0
    for _ in range(gain):
        if level in r.must_play and not (as_winning_banker and level == start):
            return level, moved, True
        if level == 14:
            if r.match_end != ME_WRAP:
                break
            level = 2
        else:
            level += 1
        moved += 1
    return level, moved, False


def next_on_side(seat: int, team: int, teams: list[int]) -> int:
    """The first seat after ``seat`` on ``team`` (``seat`` itself when no other is)."""
    n = len(teams)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if teams[s] == team:
            return s
    return seat


class KOutcome:
    """A hand's outcome (``shengji.scoring.HandOutcome`` as ints): ``side`` and
    ``winner`` are ``SIDE_*`` (``winner`` ``SIDE_NONE`` while the match goes on), ``hook``
    the level the J hook drops the banker side to (0: none), ``bonus`` the levels of
    ``small_side_bonus`` included in ``gain``."""

    def __init__(
        self,
        points: int,
        side: int,
        gain: int,
        moved: int,
        capped: bool,
        must_play_stop: bool,
        hook: int,
        banker_seat: int,
        next_banker: int,
        old_banker_level: int,
        old_collector_level: int,
        banker_level: int,
        collector_level: int,
        winner: int,
        bonus: int,
    ) -> None:
        self.points = points
        self.side = side
        self.gain = gain
        self.moved = moved
        self.capped = capped
        self.must_play_stop = must_play_stop
        self.hook = hook
        self.banker_seat = banker_seat
        self.next_banker = next_banker
        self.old_banker_level = old_banker_level
        self.old_collector_level = old_collector_level
        self.banker_level = banker_level
        self.collector_level = collector_level
        self.winner = winner
        self.bonus = bonus


def hand_outcome(
    r: ScoreRules,
    banker_seat: int,
    banker_level: int,
    collector_level: int,
    points: int,
    trick_points: int,
    last_collectors: bool,
    hook_width: int,
    teams: list[int],
) -> KOutcome:
    """The level table, ``max_gain``, must-play levels, the J hook (``hook_width``: 0
    for none, 1 a single J, 2 or more a pair), rotation and the match end applied to a
    finished hand (``shengji.scoring.hand_outcome``); 找朋友's ``small_side_bonus`` adds
    to the gain of a winning banker's side smaller than the banker and its calls."""
    side, gain = level_change(r, points, last_collectors)
    bonus = 0
    if r.small_side_bonus and side == SIDE_BANKER:
        bteam, size = teams[banker_seat], 0
        for team in teams:
            if team == bteam:
                size += 1
        if size < 1 + r.calls:
            bonus = r.small_side_bonus
            gain += bonus
    capped = r.max_gain >= 0 and gain > r.max_gain
    if capped:
        gain = r.max_gain
    new_b, new_c = banker_level, collector_level
    bteam = teams[banker_seat]
    if side == SIDE_BANKER:
        new_b, moved, stop = climb(r, banker_level, gain, True)
        next_banker = next_on_side(banker_seat, bteam, teams)
    else:
        new_c, moved, stop = climb(r, collector_level, gain, False)
        next_banker = next_on_side(banker_seat, 1 - bteam, teams)
    hook = 0
    if (
        r.j_hook
        and banker_level == 11
        and last_collectors
        and hook_width
        and trick_points >= 40 * r.decks
    ):
        hook = 7 if hook_width == 1 else 3
        new_b = hook
    winner = SIDE_NONE
    if r.match_end == ME_DEFEND_ACE:
        if side == SIDE_BANKER and banker_level == 14:
            winner = SIDE_BANKER
    elif r.match_end == ME_REACH_ACE:
        if side == SIDE_BANKER and new_b == 14:
            winner = SIDE_BANKER
        elif side == SIDE_COLLECTORS and new_c == 14 and moved > 0:
            winner = SIDE_COLLECTORS
    return KOutcome(
        points,
        side,
        gain,
        moved,
        capped,
        stop,
        hook,
        banker_seat,
        next_banker,
        banker_level,
        collector_level,
        new_b,
        new_c,
        winner,
        bonus,
    )


def j_hook_width(t: Tables, level: int, play: list[int]) -> int:
    """For the J hook at level J: when the highest card of the winning ``play`` is a J,
    how many of that J it holds; else 0."""
    if level != 11 or not play:
        return 0
    key, tiebreak = t.key, t.tiebreak
    top = play[0]
    for c in play:
        if (key[c], tiebreak[c]) > (key[top], tiebreak[top]):
            top = c
    if top >= 52 or top % 13 != 9:
        return 0
    return play.count(top)


class KScore:
    """A finished hand in points: the kitty multiplier and bonus (0 unless the collectors
    won the last trick), the collectors' total and the outcome."""

    def __init__(
        self, kitty_multiplier: int, kitty_bonus: int, points: int, outcome: KOutcome
    ) -> None:
        self.kitty_multiplier = kitty_multiplier
        self.kitty_bonus = kitty_bonus
        self.points = points
        self.outcome = outcome


def score_hand(
    r: ScoreRules,
    t: Tables,
    level: int,
    banker: int,
    banker_level: int,
    collector_level: int,
    trick_points: int,
    penalties: int,
    kitty: list[int],
    last_lead: list[int],
    last_winner: int,
    last_win: list[int],
    last_points: int,
    teams: list[int],
) -> KScore:
    """Score a finished hand (``shengji.scoring.score_hand``): the kitty bonus when the
    collectors won the last trick, the J hook, the level table and the match end; with
    ``classic-1deck-45`` the last trick's points and the kitty do not count."""
    collectors_last = teams[last_winner] != teams[banker]
    mult, bonus, width = 0, 0, 0
    if collectors_last:
        units = lead_units(t, last_lead)
        mult = kitty_multiplier(r, [u.links for u in units], [u.width for u in units])
        pts = 0
        for c in kitty:
            pts += t.pts[c]
        bonus = pts * mult
        width = j_hook_width(t, level, last_win)
    total = trick_points + bonus + penalties
    if r.level_table == LT_CLASSIC_1DECK_45:
        total = trick_points - (last_points if collectors_last else 0) + penalties
    outcome = hand_outcome(
        r,
        banker,
        banker_level,
        collector_level,
        total,
        trick_points,
        collectors_last,
        width,
        teams,
    )
    return KScore(mult, bonus, total, outcome)


def team_standing(
    r: ScoreRules, banker_team: int, o: KOutcome, progress: list[int], hand_number: int
) -> tuple[list[int], list[int], bool, int]:
    """After hand ``hand_number`` (0-based): the teams' levels, the levels each climbed
    in the match, whether the match is over and the winning team (-1: none)."""
    levels = [0, 0]
    levels[banker_team] = o.banker_level
    levels[1 - banker_team] = o.collector_level
    climbed = list(progress)
    up = banker_team if o.side == SIDE_BANKER else 1 - banker_team
    climbed[up] += o.moved
    winner = -1
    if o.winner != SIDE_NONE:
        winner = banker_team if o.winner == SIDE_BANKER else 1 - banker_team
    over = winner >= 0
    if not over and r.match_hands >= 0 and hand_number + 1 >= r.match_hands:
        over = True
        if climbed[0] != climbed[1]:
            winner = 0 if climbed[0] > climbed[1] else 1
    return levels, climbed, over, winner


def player_standing(
    r: ScoreRules,
    teams: list[int],
    banker: int,
    o: KOutcome,
    levels: list[int],
    progress: list[int],
    hand_number: int,
) -> tuple[list[int], list[int], bool, int]:
    """找朋友 (every player's own level): after hand ``hand_number``, each player of the
    winning side climbs the outcome's gain from their own level; the players' levels,
    the levels each climbed in the match, whether it is over and the winning seat (-1:
    none). With ``defend_ace`` the banker at A whose side wins passes A, and with
    ``friend_passes_ace`` a friend at A does too."""
    new, climbed, over, winner, _ = _player_standing(
        r, teams, banker, o, levels, progress, hand_number
    )
    return new, climbed, over, winner


def _player_standing(
    r: ScoreRules,
    teams: list[int],
    banker: int,
    o: KOutcome,
    levels: list[int],
    progress: list[int],
    hand_number: int,
) -> tuple[list[int], list[int], bool, int, int]:
    """:func:`player_standing`, and the seat that won the match by levels (-1: none; the
    winner may also be the one that climbed most in a match of ``match_hands``)."""
    n = len(teams)
    bteam = teams[banker]
    up = bteam if o.side == SIDE_BANKER else 1 - bteam
    new, climbed = list(levels), list(progress)
    winner = -1
    for i in range(n):
        s = (banker + i) % n
        if teams[s] != up:
            continue
        start = levels[s]
        new[s], moved, _ = climb(r, start, o.gain, o.side == SIDE_BANKER)
        climbed[s] += moved
        passes = s == banker or r.friend_passes_ace
        done = (
            r.match_end == ME_DEFEND_ACE and o.side == SIDE_BANKER and passes and start == 14
        ) or (r.match_end == ME_REACH_ACE and new[s] == 14 and moved > 0)
        if done and winner < 0:
            winner = s
    by_levels = winner
    over = winner >= 0
    if not over and r.match_hands >= 0 and hand_number + 1 >= r.match_hands:
        over = True
        best = max(climbed)
        if climbed.count(best) == 1:
            winner = climbed.index(best)
    return new, climbed, over, winner, by_levels


def friends_standing(
    r: ScoreRules,
    teams: list[int],
    banker: int,
    o: KOutcome,
    levels: list[int],
    progress: list[int],
    hand_number: int,
) -> tuple[list[int], list[int], bool, int]:
    """找朋友's end of a hand: :func:`player_standing`, and ``o.winner`` set to the side of
    the player who won the match by levels (reaching A, or passing A as the banker, or as
    a friend with ``friend_passes_ace``), ``SIDE_NONE`` when nobody did: the outcome
    speaks for two players only, and either may be at A without ending the match."""
    new, climbed, over, winner, by_levels = _player_standing(
        r, teams, banker, o, levels, progress, hand_number
    )
    o.winner = SIDE_NONE
    if by_levels >= 0:
        o.winner = SIDE_BANKER if teams[by_levels] == teams[banker] else SIDE_COLLECTORS
    return new, climbed, over, winner


def hand_stake(r: ScoreRules, counters: int) -> int:
    """Coins a hand is played for (0 without coins), doubled per counter-declaration with
    ``stake_doubling``."""
    if not r.coins:
        return 0
    return r.base_stake * (2**counters if r.stake_doubling else 1)


def settle_coins(
    r: ScoreRules, stake: int, winner_team: int, penalties: list[int]
) -> tuple[int, int]:
    """The coin change of teams 0 and 1: the losers pay ``stake`` to ``winner_team``, and
    each failed throw under ``throw_penalty = stake`` costs the thrower's team half of
    ``base_stake``, paid to the other team."""
    if not r.coins:
        return 0, 0
    change = [0, 0]
    change[winner_team] += stake
    change[1 - winner_team] -= stake
    for team in range(2):
        half = penalties[team] * r.base_stake // 2
        change[team] -= half
        change[1 - team] += half
    return change[0], change[1]


# -- the RL environments: a decision card by card, and the observation vector ---------------

#: Kinds of :class:`KDecision` (``shengji.moves.Decision.kind``, as ints).
DEC_DECLARE: Final = 0
DEC_BURY: Final = 1
DEC_LEAD: Final = 2
DEC_FOLLOW: Final = 3
DEC_CALL: Final = 4
#: The action that applies the selection (``shengji.moves.DONE``); 55 actions in all.
DONE: Final = 54
N_ACTIONS: Final = 55


#: The lists a :class:`KDecision` of another kind never changes.
_NONE: Final[list[int]] = []
_NO_ROWS: Final[list[list[int]]] = []
_NO_FLAGS: Final[list[bool]] = []


class KDecision:
    """The decision of the seat to act in ``h``, card by card (the move model of
    ``shengji.moves`` on the kernel's state): :attr:`mask` (55 ints, 0/1) for the
    selection so far, :meth:`add` to choose the next card, :attr:`cards` the selection.

    - declaring: a prefix of a legal show (``legal_shows``), ``DONE`` on a whole show or on
      nothing (pass);
    - burying: any card still held until the kitty is full, ``DONE`` when it is;
    - leading: any card still held of the effective suit of the first card, ``DONE`` on
      any selection (a unit, or a throw attempt that the kernel checks);
    - following: a card that keeps the selection inside some family of legal follows
      (:func:`cores`: fixed cards plus ``free`` distinct cards of a pool), ``DONE`` once
      the selection has the lead's size;
    - calling friends (找朋友): a callable card not called yet while fewer than ``calls``
      calls are chosen, or the last call's card again up to the decks; ``DONE`` on exactly
      ``calls`` calls (:attr:`calls`, :attr:`ordinals`)."""

    def __init__(self, h: KHand) -> None:
        seat = h.to_act
        hand = h.hands[seat]
        self.cards: list[int] = []
        mask = self.mask = [0] * N_ACTIONS
        self.n = 0
        # what each kind keeps (the others share empty lists they never change: a
        # decision is made at every step of an environment, its lists are garbage after)
        self.rem: list[int] = _NONE
        self.suit_of: list[int] = _NONE
        #: Declaring: for each card, the counts of its legal shows as bits.
        self.shows: list[int] = _NONE
        self.calls: list[int] = _NONE
        self.ordinals: list[int] = _NONE
        self.callable: list[int] = _NONE
        self.decks = h.r.decks
        self.fix: list[list[int]] = _NO_ROWS
        self.pool: list[list[int]] = _NO_ROWS
        self.free: list[int] = _NONE
        self.valid: list[bool] = _NO_FLAGS
        self.extra: list[int] = _NONE
        self.sel: list[int] = _NONE
        ph = h.phase
        if ph == PH_PLAY:
            ks = h.play
            assert ks is not None
            self.suit_of = ks.t.suit_of
            if ks.plays:
                self.kind = DEC_FOLLOW
                self._follow(ks.t, ks.units, ks.n, hand)
            else:
                self.kind = DEC_LEAD
                self.rem = list(hand)
                for c in range(54):
                    if hand[c]:
                        mask[c] = 1
        elif ph == PH_CALL:
            self.kind = DEC_CALL
            self.n = h.r.calls
            self.calls = []
            self.ordinals = []
            callable_ = self.callable = [0] * 54
            for c in range(52):
                if h.callable_card(c):
                    callable_[c] = 1
                    mask[c] = 1
        elif ph == PH_BURY:
            self.kind = DEC_BURY
            self.rem = list(hand)
            self.n = h.r.kitty_size
            for c in range(54):
                if hand[c]:
                    mask[c] = 1
        else:
            self.kind = DEC_DECLARE
            shows = self.shows = [0] * 54
            for s in h.legal_shows(seat):
                shows[s >> 3] |= 1 << (s & 7)
                mask[s >> 3] = 1
            mask[DONE] = 1

    def _follow(self, t: Tables, units: list[Unit], n: int, hand: list[int]) -> None:
        self.n = n
        mask = self.mask
        if n == 1:  # a card of the led suit, or any card when void
            suit = units[0].suit
            suit_of = t.suit_of
            void = True
            for c in range(54):
                if hand[c] and suit_of[c] == suit:
                    mask[c] = 1
                    void = False
            if void:
                for c in range(54):
                    if hand[c]:
                        mask[c] = 1
            return
        self.sel = [0] * 54
        self.fix, self.pool, self.free, self.valid, self.extra = [], [], [], [], []
        for fam in cores(t, units, n, hand):
            row = [0] * 54
            for c in fam.fixed:
                row[c] += 1
                mask[c] = 1
            pool = [0] * 54
            for c in fam.pool:
                pool[c] = 1
                if fam.free > 0:
                    mask[c] = 1
            self.fix.append(row)
            self.pool.append(pool)
            self.free.append(fam.free)
            self.valid.append(True)
            self.extra.append(0)

    def _follow_add(self, c: int) -> None:
        sel = self.sel
        sel[c] += 1
        s = sel[c]
        fix, pool, free, valid, extra = self.fix, self.pool, self.free, self.valid, self.extra
        count = len(fix)
        # a card beyond the family's fixed ones is one of its free picks: once, from the pool
        for i in range(count):
            if valid[i] and fix[i][c] < s:
                if s == 1 and pool[i][c] and extra[i] < free[i]:
                    extra[i] += 1
                else:
                    valid[i] = False
        mask = self.mask
        for k in range(N_ACTIONS):
            mask[k] = 0
        if len(self.cards) == self.n:  # a whole follow (it fits a family): nothing more
            mask[DONE] = 1
            return
        for i in range(count):
            if not valid[i]:
                continue
            row = fix[i]
            more = extra[i] < free[i]
            prow = pool[i]
            for k in range(54):
                if sel[k] < row[k] or (more and prow[k] and sel[k] == 0):
                    mask[k] = 1

    def _call_add(self, c: int) -> None:
        calls, ords = self.calls, self.ordinals
        if calls and calls[-1] == c:
            ords[-1] += 1
        else:
            calls.append(c)
            ords.append(1)
            self.callable[c] = 0  # a card is called once (its run is its ordinal)
        mask = self.mask
        more = len(calls) < self.n
        for k in range(54):
            mask[k] = self.callable[k] if more else 0
        mask[c] = 1 if ords[-1] < self.decks else 0
        mask[DONE] = 1 if len(calls) == self.n else 0

    def add(self, c: int) -> None:
        """Add card ``c`` (allowed by :attr:`mask`) to the selection; :attr:`mask` is then
        the new mask."""
        cards = self.cards
        cards.append(c)
        mask = self.mask
        kind = self.kind
        if kind == DEC_LEAD:
            rem = self.rem
            rem[c] -= 1
            if len(cards) == 1:
                suit_of = self.suit_of
                suit = suit_of[c]
                for k in range(54):
                    if mask[k] and suit_of[k] != suit:
                        mask[k] = 0
                mask[DONE] = 1
            mask[c] = 1 if rem[c] > 0 else 0
        elif kind == DEC_FOLLOW:
            if self.n == 1:
                for k in range(N_ACTIONS):
                    mask[k] = 0
                mask[DONE] = 1
            else:
                self._follow_add(c)
        elif kind == DEC_CALL:
            self._call_add(c)
        elif kind == DEC_BURY:
            rem = self.rem
            rem[c] -= 1
            if len(cards) == self.n:
                for k in range(N_ACTIONS):
                    mask[k] = 0
                mask[DONE] = 1
            else:
                mask[c] = 1 if rem[c] > 0 else 0
        else:
            bits = self.shows[c]
            k = len(cards)
            for i in range(N_ACTIONS):
                mask[i] = 0
            if bits >> (k + 1):
                mask[c] = 1
            mask[DONE] = (bits >> k) & 1

    def apply(self, h: KHand) -> None:
        """Take the decision with the selection so far (``mask[DONE]`` is 1) in ``h``."""
        cards = self.cards
        kind = self.kind
        if kind == DEC_DECLARE:
            if cards:
                h.declare(cards[0], len(cards))
            else:
                h.pass_turn()
        elif kind == DEC_BURY:
            h.bury(cards)
        elif kind == DEC_CALL:
            h.call_friends(self.calls, self.ordinals)
        else:
            h.play_cards(cards)


class KRow:
    """Where one observation vector is: ``out[base : base + size]`` (:attr:`vec`), and
    each of its parts as its own memoryview (entries are written by small indexes).
    :attr:`parts` holds the card parts in order (``hand``, ``selection``, the ``seats``
    rows of ``played``, ``trick`` and ``shown``, ``picked_up``, ``buried``, ``kitty``,
    ``out``, then the ``called`` rows), :attr:`sc` the scalars."""

    def __init__(
        self, out: memoryview[Any], base: int, size: int, starts: list[int], scalars: int
    ) -> None:
        self.vec = out[base : base + size]
        self.parts = [out[base + at : base + at + 54] for at in starts]
        self.sc = out[base + scalars : base + size]


class KObserver:
    """The observation vectors of the hands of a match (``shengji.bots.observation``'s
    layout, equal to ``encode(seat_view(...))`` of the object engine), written into a
    float32 buffer (a :class:`KRow`) by :meth:`write`.

    ``at`` gives where each part and each scalar is in the vector (the names of
    ``shengji.bots.observation.Layout``), ``scale`` what each raw entry is multiplied by
    (float32 values) before it is clipped into [0, 1]. Each seat's card parts are kept
    here, as a vector of their own, and changed as the hand goes (cards dealt, shown,
    taken and buried with the kitty, played, tricks ended): :meth:`write` copies the seat's
    vector and adds the scalars. The cards each seat played come from the play events of
    the hand (:attr:`KHand.record`, turned on here: observe a match from the start of its
    hands)."""

    def __init__(self, seats: int, friends: bool, at: dict[str, int], scale: list[float]) -> None:
        n = self.seats = seats
        self.friends = friends
        size = self.size = len(scale)
        s0 = self.scalars = at["scalars"]
        #: The card parts' first entries, in :class:`KRow`'s order.
        names = ["hand", "selection"]
        for part in ("played", "trick", "shown"):
            names += [part] * n
        names += ["picked_up", "buried", "kitty", "out"]
        starts = [at[name] for name in names]
        for i in range(2, 2 + 3 * n):
            starts[i] += 54 * ((i - 2) % n)
        if friends:
            starts += [at["called"] + 54 * j for j in range(3)]
        self.starts = starts
        self.p_played = 2
        self.p_trick = 2 + n
        self.p_shown = 2 + 2 * n
        self.p_picked = 2 + 3 * n
        self.p_kitty = self.p_picked + 2
        self.p_out = self.p_picked + 3
        #: A card part's entry for each count (float32 of count / decks, clipped), kept
        #: boxed (so is ``1.0``): they are written as they are.
        card = scale[at["hand"]]
        self.counts: list[Any] = [min(1.0, k * card) for k in range(9)]
        self.one: list[Any] = [1.0]
        #: The scale of the scalars, from the first scalar on.
        self.scale = scale[s0:]
        self.i_phase = at["phase_deal"] - s0
        self.i_trump = at["trump_S"] - s0
        self.i_trump_nt = at["trump_NT"] - s0
        self.i_trump_unknown = at["trump_unknown"] - s0
        self.i_banker = at["banker_0"] - s0
        self.i_banker_unknown = at["banker_unknown"] - s0
        self.i_to_act = at["to_act_0"] - s0
        self.i_leader = at["leader_0"] - s0
        self.i_sizes = at["hand_size_0"] - s0
        self.i_level = at["level"] - s0
        self.i_points = at["collector_points"] - s0
        self.i_penalties = at["penalties"] - s0
        self.i_counters = at["counters"] - s0
        self.i_dealt = at["dealt"] - s0
        self.i_hand_number = at["hand_number"] - s0
        self.i_lead_size = at["lead_size"] - s0
        self.i_decks = at["decks"] - s0
        self.i_kitty_size = at["kitty_size"] - s0
        self.i_position = at["trick_position_0"] - s0
        self.i_seat_points = at["points_0" if friends else "points_own_team"] - s0
        self.i_voids = at["void_0_S"] - s0
        self.i_out = at["out_S"] - s0
        self.i_players = at.get("players", s0) - s0
        self.i_calls = at.get("calls", s0) - s0
        self.i_call = [at.get(f"call_{j}_ordinal", s0) - s0 for j in range(3)]
        self.i_side = at.get("side_0_banker", s0) - s0
        #: Each seat's vector: its card parts (the selection, the kitty and the called
        #: cards stay zero here; the scalars too).
        self._zeros = bytes(4 * n * size)
        self.buf = bytearray(self._zeros)
        floats: memoryview[Any] = memoryview(self.buf).cast("f")
        self.own = [KRow(floats, o * size, size, starts, s0) for o in range(n)]
        self._hand: KHand | None = None
        self._play: KState | None = None
        self.decks = 0
        #: Counts by absolute seat (``54 * seat + card``) as the seats' vectors have them:
        #: each hand, the cards played this hand (the current trick included), the current
        #: trick, the cards shown to declare; the distinct cards of the last three by seat.
        self.held: list[int] = [0] * (54 * n)
        self.held_size: list[int] = [0] * n
        self.played: list[int] = [0] * (54 * n)
        self.trick: list[int] = [0] * (54 * n)
        self.shown: list[int] = [0] * (54 * n)
        self.played_cards: list[list[int]] = [[] for _ in range(n)]
        self.trick_cards: list[list[int]] = [[] for _ in range(n)]
        self.shown_cards: list[list[int]] = [[] for _ in range(n)]
        #: Copies of each card played this hand, by any seat.
        self.played_total: list[int] = [0] * 54
        #: The last kitty each seat picked up (``2 * seat``) and buried (``2 * seat + 1``).
        self.kitty_seen: list[list[int]] = [[] for _ in range(2 * n)]
        #: Voids shown by absolute seat and effective suit (``5 * seat + suit``), points
        #: won by each team (fixed partnerships).
        self.voids: list[int] = [0] * (5 * n)
        self.points = [0, 0]
        #: In the play: each effective suit's cards, and (``5 * seat + suit``) the copies
        #: of them still out for each seat.
        self.suit_size = [0] * 5
        self.out_suit = [0] * (5 * n)
        self.trick_n = 0
        self.led = 0
        self.dealt = 0
        self.events = 0
        self.shows = 0
        self.kitty_log = 0

    def row(self, out: memoryview[Any], base: int) -> KRow:
        """The vector at ``out[base : base + size]`` (float32), to :meth:`write` into."""
        return KRow(out, base, self.size, self.starts, self.scalars)

    # -- following the hand ------------------------------------------------------------------

    def _new_hand(self, h: KHand) -> None:
        n = self.seats
        self.buf[0 : len(self._zeros)] = self._zeros
        for k in range(54 * n):
            self.held[k] = 0
        for s in range(n):
            self.held_size[s] = 0
        for counts, lists in (
            (self.played, self.played_cards),
            (self.trick, self.trick_cards),
            (self.shown, self.shown_cards),
        ):
            for s in range(n):
                for c in lists[s]:
                    counts[54 * s + c] = 0
                lists[s].clear()
        for c in range(54):
            self.played_total[c] = 0
        for seen in self.kitty_seen:
            seen.clear()
        self.decks = h.r.decks
        self.dealt = self.events = self.shows = self.kitty_log = 0
        self.trick_n = 0
        every = self.counts[self.decks]
        for row in self.own:  # nothing dealt yet: every copy is out
            part = row.parts[self.p_out]
            for c in range(54):
                part[c] = every

    def _held(self, seat: int, c: int, delta: int) -> None:
        """``seat`` holds ``delta`` more copies of ``c``: its hand and cards out."""
        k = self.held[54 * seat + c] + delta
        self.held[54 * seat + c] = k
        self.held_size[seat] += delta
        parts = self.own[seat].parts
        parts[0][c] = self.counts[k]
        parts[self.p_out][c] = self.counts[self.decks - k - self.played_total[c]]

    def _kitty_row(self, seat: int, kind: int, cards: list[int]) -> None:
        """``seat`` picked up (``kind`` 0) or buried (1) ``cards``: its row of them."""
        part = self.own[seat].parts[self.p_picked + kind]
        zero = self.counts[0]
        for c in self.kitty_seen[2 * seat + kind]:
            part[c] = zero
        for c in cards:
            part[c] = self.counts[cards.count(c)]
        self.kitty_seen[2 * seat + kind] = cards

    def _seat_rows(self, part: int, seat: int, c: int, count: int) -> None:
        """Every seat's row of ``seat``'s cards of part ``part`` (played, trick, shown):
        ``count`` copies of ``c``."""
        n = self.seats
        value = self.counts[count]
        for o in range(n):
            self.own[o].parts[part + (seat - o) % n][c] = value

    def sync(self, h: KHand) -> None:
        """Catch up with ``h``: a new hand, cards dealt, shows, kitty moves and plays."""
        n = self.seats
        if h is not self._hand:
            h.record = True
            self._hand = h
            self._play = None
            self._new_hand(h)
        if h.dealt > self.dealt:
            deck, start = h.deck, h.start_seat
            for i in range(self.dealt, h.dealt):
                self._held((start + i) % n, deck[i], 1)
            self.dealt = h.dealt
        shows = h.decl.shows
        if len(shows) > self.shows:
            shown = self.shown
            for i in range(self.shows, len(shows), 3):
                seat, c = shows[i], shows[i + 1]
                at = 54 * seat + c
                if not shown[at]:
                    self.shown_cards[seat].append(c)
                shown[at] = shown[at] + shows[i + 2]
                self._seat_rows(self.p_shown, seat, c, shown[at])
            self.shows = len(shows)
        log = h.kitty_log
        if len(log) > self.kitty_log:
            cards = h.kitty_cards
            for i in range(self.kitty_log, len(log), 3):
                end = log[i + 5] if i + 3 < len(log) else len(cards)
                seat, kind = log[i], log[i + 1]
                moved = cards[log[i + 2] : end]
                for c in moved:
                    self._held(seat, c, 1 if kind == 0 else -1)
                self._kitty_row(seat, kind, moved)
            self.kitty_log = len(log)
        ks = h.play
        if ks is not None:
            if ks is not self._play:
                self._begin_play(ks)
            if len(ks.events) > self.events:
                self._plays(ks)
        for s in range(n):  # what the hands say wins (a change the steps above missed)
            if self.held_size[s] != h.sizes[s]:
                hand = h.hands[s]
                for c in range(54):
                    if self.held[54 * s + c] != hand[c]:
                        self._held(s, c, hand[c] - self.held[54 * s + c])
                if ks is not None:
                    self._out_suits(ks, s)

    def _begin_play(self, ks: KState) -> None:
        self._play = ks
        self.events = self.trick_n = 0
        n = self.seats
        for k in range(5 * n):
            self.voids[k] = 0
            self.out_suit[k] = 0
        self.points = [0, 0]
        suit_of = ks.t.suit_of
        size = self.suit_size
        for k in range(5):
            size[k] = 0
        for c in range(54):
            size[suit_of[c]] = size[suit_of[c]] + 1
        for s in range(n):
            self._out_suits(ks, s)

    def _out_suits(self, ks: KState, seat: int) -> None:
        """The copies still out for ``seat`` in each effective suit."""
        suit_of = ks.t.suit_of
        for k in range(5):
            self.out_suit[5 * seat + k] = 0
        for c in range(54):
            k = 5 * seat + suit_of[c]
            left = self.decks - self.held[54 * seat + c] - self.played_total[c]
            self.out_suit[k] = self.out_suit[k] + left

    def _plays(self, ks: KState) -> None:
        n = self.seats
        suit_of = ks.t.suit_of
        played, trick, total = self.played, self.trick, self.played_total
        events = ks.events
        for i in range(self.events, len(events)):
            ev = events[i]
            if ev.kind == EV_PLAY:
                seat = ev.seat
                row = 54 * seat
                for c in ev.cards:
                    total[c] = total[c] + 1
                    self._held(seat, c, -1)
                    for o in range(n):  # one copy fewer out for everyone else
                        if o != seat:
                            self.own[o].parts[self.p_out][c] = self.counts[
                                self.decks - self.held[54 * o + c] - total[c]
                            ]
                            k = 5 * o + suit_of[c]
                            self.out_suit[k] = self.out_suit[k] - 1
                    if not played[row + c]:
                        self.played_cards[seat].append(c)
                    played[row + c] = played[row + c] + 1
                    self._seat_rows(self.p_played, seat, c, played[row + c])
                    if not trick[row + c]:
                        self.trick_cards[seat].append(c)
                    trick[row + c] = trick[row + c] + 1
                    self._seat_rows(self.p_trick, seat, c, trick[row + c])
                if self.trick_n == 0:
                    self.led = suit_of[ev.cards[0]]
                else:
                    for c in ev.cards:
                        if suit_of[c] != self.led:
                            self.voids[5 * seat + self.led] = 1
                            break
                self.trick_n += 1
            elif ev.kind == EV_TRICK:
                for s in range(n):
                    for c in self.trick_cards[s]:
                        trick[54 * s + c] = 0
                        self._seat_rows(self.p_trick, s, c, 0)
                    self.trick_cards[s].clear()
                self.trick_n = 0
                self.points[ev.seat % 2] += ev.points
        self.events = len(events)

    # -- writing a vector ----------------------------------------------------------------------

    def _put(self, sc: memoryview[Any], i: int, v: float) -> None:
        """Scalar ``i``: the raw value ``v`` scaled and clipped (zero entries are left)."""
        x = v * self.scale[i]
        if x > 0.0:
            sc[i] = x if x < 1.0 else 1.0

    def write(
        self, h: KHand, seat: int, levels: list[int], hand_number: int, over: bool, row: KRow
    ) -> None:
        """Write the observation of ``seat`` (an empty selection) into ``row``: its card
        parts as kept here, and the scalars (over zeros). ``levels``, ``hand_number`` and
        ``over`` are the match's."""
        self.sync(h)
        n = self.seats
        row.vec[0 : self.size] = self.own[seat].vec
        sc = row.sc
        one = self.one[0]
        ks = h.play
        d = h.decl
        ph = h.phase
        if ks is not None:
            leader = ks.leader
            self._put(sc, self.i_points, float(ks.trick_points))
            self._put(sc, self.i_penalties, float(ks.penalties))
            if ks.plays:
                self._put(sc, self.i_lead_size, float(ks.n))
        elif ph in (PH_BURY, PH_AFTER_BURIAL, PH_CALL):
            leader = d.banker
        else:
            leader = h.start_seat
        if ph == PH_OVER:
            part = row.parts[self.p_kitty]
            for c in h.kitty:
                part[c] = self.counts[h.kitty.count(c)]
            sc[self.i_phase + (6 if over else 5)] = one
        else:  # the kernel's phases PH_DEAL .. PH_PLAY are the layout's first, PH_CALL 7
            sc[self.i_phase + ph] = one
        if d.declared:
            sc[self.i_trump_nt if d.trump < 0 else self.i_trump + d.trump] = one
        else:
            sc[self.i_trump_unknown] = one
        if d.banker >= 0:
            sc[self.i_banker + (d.banker - seat) % n] = one
        else:
            sc[self.i_banker_unknown] = one
        if h.to_act >= 0:
            sc[self.i_to_act + (h.to_act - seat) % n] = one
        sc[self.i_leader + (leader - seat) % n] = one
        sizes = h.sizes
        for i in range(n):
            self._put(sc, self.i_sizes + i, float(sizes[(seat + i) % n]))
        self._put(sc, self.i_level, float(h.level))
        if self.friends:
            for i in range(n):
                self._put(sc, self.i_level + 1 + i, float(levels[(seat + i) % n]))
        else:
            team = seat % 2
            self._put(sc, self.i_level + 1, float(levels[team]))
            self._put(sc, self.i_level + 2, float(levels[1 - team]))
        self._put(sc, self.i_counters, float(d.counters))
        self._put(sc, self.i_dealt, float(h.dealt))
        self._put(sc, self.i_hand_number, float(hand_number))
        self._put(sc, self.i_decks, float(h.r.decks))
        self._put(sc, self.i_kitty_size, float(h.r.kitty_size))
        sc[self.i_position + self.trick_n] = one
        if ks is not None:
            if self.friends:
                pts = ks.seat_points
                for i in range(n):
                    self._put(sc, self.i_seat_points + i, float(pts[(seat + i) % n]))
            else:
                self._put(sc, self.i_seat_points, float(self.points[seat % 2]))
                self._put(sc, self.i_seat_points + 1, float(self.points[1 - seat % 2]))
            for i in range(n):
                s = 5 * ((seat + i) % n)
                for k in range(5):
                    if self.voids[s + k]:
                        sc[self.i_voids + 5 * i + k] = one
            # the share of each effective suit's cards still out (float64 division, then
            # float32: as numpy computes it)
            for k in range(5):
                left = self.out_suit[5 * seat + k]
                if left:
                    x = left / (float(self.decks) * max(self.suit_size[k], 1))
                    sc[self.i_out + k] = x if x < 1.0 else 1.0
        if self.friends:
            self._friends(h, seat, ks, row)

    def _friends(self, h: KHand, seat: int, ks: KState | None, row: KRow) -> None:
        """找朋友's features: the calls, who answered them (once their trick is complete)
        and the sides known so far."""
        n = self.seats
        sc = row.sc
        one = self.one[0]
        self._put(sc, self.i_players, float(n))
        self._put(sc, self.i_calls, float(h.r.calls))
        banker = h.decl.banker
        if banker < 0:
            return
        side = [-1] * n
        side[banker] = 0
        if ks is not None and ks.calls:
            answered = 0
            for j in range(len(ks.calls)):
                c = ks.calls[j]
                k = ks.call_ord[j]
                row.parts[self.p_out + 1 + j][c] = one
                at = self.i_call[j]
                self._put(sc, at, float(k))
                by = ks.call_by[j]
                done = self.played_total[c]
                for s in range(n):
                    done -= self.trick[54 * s + c]
                # the copy's player is known once its trick is complete
                if by >= 0 and done >= k:
                    answered += 1
                    sc[at + 1] = one
                    sc[at + 2 + (by - seat) % n] = one
                    side[by] = 0
            if answered == len(ks.calls):
                for s in range(n):
                    if side[s] < 0:
                        side[s] = 1
        for i in range(n):
            s = side[(seat + i) % n]
            if s >= 0:
                sc[self.i_side + 2 * i + s] = one


class KTable:
    """One table of a batch of tables stepped together (``shengji.env.vector``): its hand
    in play and the decision of the seat to act, whose observation and mask are row
    :attr:`row` of the batch's arrays (``obs`` float32 of ``size`` a row, ``masks`` 55
    bytes a row, ``seats`` a byte a row). The match around the hand (its levels, hand
    number, scoring) is the caller's."""

    def __init__(
        self,
        observer: KObserver,
        row: int,
        obs: memoryview[Any],
        masks: bytearray,
        seats: bytearray,
    ) -> None:
        self.observer = observer
        self.row = row
        self.vec = observer.row(obs, row * observer.size)
        self.masks = masks
        self.seats = seats
        self.hand: KHand | None = None
        self.decision: KDecision | None = None
        self.levels: list[int] = []
        self.hand_number = 0
        #: A selection part's entries (float32 of count / decks).
        self.chosen = self.vec.parts[1]

    def decide(self, h: KHand, levels: list[int], hand_number: int) -> None:
        """Take up the decision of the seat to act in ``h`` (of a match at ``levels`` and
        ``hand_number``) and write its row."""
        self.hand = h
        self.levels = levels
        self.hand_number = hand_number
        self.decision = KDecision(h)
        self._write()

    def _write(self) -> None:
        h = self.hand
        d = self.decision
        assert h is not None and d is not None
        self.observer.write(h, h.to_act, self.levels, self.hand_number, False, self.vec)
        row = self.row
        self.masks[row * N_ACTIONS : (row + 1) * N_ACTIONS] = bytes(d.mask)
        self.seats[row] = h.to_act

    def step(self, a: int) -> bool:
        """Action ``a`` (allowed by the mask): a card is added to the selection, ``DONE``
        takes the decision and runs the hand on to the next one; the row follows. False
        when the hand ended or needs a redeal (the row is then the caller's to write,
        once it has scored the hand and dealt again)."""
        d = self.decision
        h = self.hand
        assert d is not None and h is not None
        if a == DONE:
            d.apply(h)
            h.advance()
            if h.phase == PH_OVER or h.phase == PH_REDEAL:
                return False
            self.decision = KDecision(h)
            self._write()
            return True
        d.add(a)
        row = self.row
        self.masks[row * N_ACTIONS : (row + 1) * N_ACTIONS] = bytes(d.mask)
        self.chosen[a] = self.observer.counts[d.cards.count(a)]
        return True


def step_tables(tables: list[KTable], actions: list[int]) -> list[int]:
    """:meth:`KTable.step` for each table with its action; the tables whose hand ended or
    needs a redeal."""
    stopped: list[int] = []
    for i in range(len(tables)):
        if not tables[i].step(actions[i]):
            stopped.append(i)
    return stopped
