"""The kernel's hot core: int cards, count-array hands, tables, move generation and apply.

Cards are ints 0..53 (``Card.index``); a hand is a list of 54 counts. Every function here
is a port of the rules core (units, follow, throws, tricks, leads) onto that layout and
must give the same answers; ``tests/kernel`` checks it against the reference engine.
This module is compiled with mypyc when it can be, and imported as plain Python
otherwise (or when ``SHENGJI_PURE=1``): keep it self-contained and strictly typed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import product
from random import Random
from typing import Final, Protocol

#: Effective suit number of trumps (as :data:`shengji.trump.TRUMP`).
TRUMP: Final = 4
#: ``throw_penalty`` codes.
PENALTY_NONE: Final = 0
PENALTY_PER_CARD: Final = 1
PENALTY_PER_ATTEMPT: Final = 2
PENALTY_STAKE: Final = 3
PENALTY_FLAT_PER_CARD: Final = 4
#: Event kinds of :class:`KEvent`.
EV_PLAY: Final = 0
EV_THROW_FAILED: Final = 1
EV_TRICK: Final = 2

#: Effective suits in lead-list order: trumps, then S H C D.
_SUIT_ORDER: Final = (4, 0, 1, 2, 3)


class Tables:
    """Per (options, level, trump) tables indexed by card: effective suit, strength,
    global key, tie-break, points; the cards of each effective suit high to low; the
    throw rules (``penalty`` code, ``forced_single`` for ``throw_forced = single``)."""

    def __init__(
        self,
        suit_of: list[int],
        strength: list[int],
        key: list[int],
        tiebreak: list[int],
        penalty: int,
        forced_single: bool,
    ) -> None:
        self.suit_of = suit_of
        self.strength = strength
        self.key = key
        self.tiebreak = tiebreak
        self.penalty = penalty
        self.forced_single = forced_single
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


def _forced_key(u: Unit, tiebreak: list[int], single: bool) -> tuple[int, int, int, int]:
    """Order of beaten units: the first is the one a failed throw plays."""
    if single:
        return (0, 0, u.top, tiebreak[u.cards[-1]])
    return (-u.links, -u.width, u.top, tiebreak[u.cards[0]])


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

_REQUIREMENTS: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}


def unit_requirements(k: int, w: int) -> list[list[tuple[int, int]]]:
    """:func:`shengji.follow.unit_requirements` for a k x w unit (cached)."""
    hit = _REQUIREMENTS.get((k, w))
    if hit is not None:
        return hit
    vecs = sorted(
        {tuple(sorted(v, reverse=True)) for v in product(range(w, 0, -1), repeat=k)},
        reverse=True,
    )
    out: list[list[tuple[int, int]]] = []
    if k >= 2:
        out.append([(k, w)])
    out.append([(1, x) for x in vecs[0] if x >= 2])
    if k >= 2 and w >= 3:
        out.append([(k, w - 1)])
    for vec in vecs[1:]:
        out.append([(1, x) for x in vec if x >= 2])
    _REQUIREMENTS[(k, w)] = out
    return out


def follow_requirement(
    t: Tables, units: list[Unit], cnt: list[int], distinct: list[int]
) -> list[tuple[int, int]]:
    """The shapes a follower holding ``cnt`` of the led suit (``distinct`` cards) must play."""
    chosen: list[tuple[int, int]] = []
    for u in units:
        if u.width < 2:
            continue
        for req in unit_requirements(u.links, u.width):
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
    if len(play) != n:
        return False
    pc = [0] * 54
    distinct: list[int] = []
    for c in play:
        if pc[c] == 0:
            distinct.append(c)
        pc[c] += 1
        if pc[c] > hand[c]:
            return False
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
        return in_x == held
    if in_x != n:
        return False
    source = [c for c in t.suit_cards[x] if hand[c]]
    req = follow_requirement(t, units, hand, source)
    return not req or can_host(t, pc, distinct, req)


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

    def __init__(self, played: list[int], first: int, blocker: int, penalty: int) -> None:
        self.played = played
        self.first = first
        self.blocker = blocker
        self.penalty = penalty


def check_throw(
    t: Tables, units: list[Unit], others: list[list[int]], banker_side: bool
) -> ThrowCheck | None:
    """A multi-unit lead against the other hands (next seat first): None when it stands,
    else what it plays instead (:func:`shengji.throws.check_throw`)."""
    beaten: list[Unit] = []
    by: list[int] = []
    for u in units:
        for i in range(3):
            if beats_unit(t, u, others[i]):
                beaten.append(u)
                by.append(i + 1)
                break
    if not beaten:
        return None
    tiebreak = t.tiebreak
    single = t.forced_single
    best = 0
    best_key = _forced_key(beaten[0], tiebreak, single)
    for j in range(1, len(beaten)):
        k = _forced_key(beaten[j], tiebreak, single)
        if k < best_key:
            best, best_key = j, k
    forced = beaten[best]
    played = [forced.cards[-1]] if single else forced.expand()
    blocker = by[0]
    for j in range(len(beaten)):
        if beaten[j].expand() == played:
            blocker = by[j]
            break
    pts = 0
    if t.penalty == PENALTY_PER_CARD:
        for u in beaten:
            pts += u.links * u.width * 10 * u.width * u.links
    elif t.penalty == PENALTY_FLAT_PER_CARD:
        for u in beaten:
            pts += 10 * u.links * u.width
    elif t.penalty == PENALTY_PER_ATTEMPT:
        pts = 10
    return ThrowCheck(played, by[0], blocker, pts if banker_side else -pts)


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


# -- the game engine's entry points (cards as ``shengji.cards.Card``) -----------------------


class HasIndex(Protocol):
    """A card of the rules core (:class:`shengji.cards.Card`): its int is ``index``."""

    @property
    def index(self) -> int: ...


def card_ints(cards: Sequence[HasIndex]) -> list[int]:
    """The ints of rules-core cards."""
    return [c.index for c in cards]


def hand_counts(cards: Sequence[HasIndex]) -> list[int]:
    """Rules-core cards as 54 counts."""
    out = [0] * 54
    for c in cards:
        out[c.index] += 1
    return out


def follow_is_legal(
    t: Tables, lead: Sequence[HasIndex], hand: Sequence[HasIndex], play: Sequence[HasIndex]
) -> bool:
    """True if ``play`` is a legal follow to ``lead`` from ``hand`` (which includes it)
    (:func:`shengji.follow.is_legal_follow` on rules-core cards)."""
    n = len(lead)
    if len(play) != n:
        return False
    if n == 1:
        suit_of = t.suit_of
        c = play[0].index
        x = suit_of[lead[0].index]
        held = False
        has_x = False
        for h in hand:
            i = h.index
            if i == c:
                held = True
            if suit_of[i] == x:
                has_x = True
        return held and (suit_of[c] == x or not has_x)
    units = lead_units(t, card_ints(lead))
    return is_legal_follow(t, units, n, hand_counts(hand), card_ints(play))


def throw_of(
    t: Tables, cards: Sequence[HasIndex], others: Sequence[Sequence[HasIndex]], banker_side: bool
) -> ThrowCheck | None:
    """:func:`check_throw` for a lead of rules-core cards against the other hands (next
    seat first); None when the throw stands."""
    units = lead_units(t, card_ints(cards))
    if len(units) < 2:
        return None
    return check_throw(t, units, [hand_counts(h) for h in others], banker_side)


def winner_of(t: Tables, plays: Sequence[Sequence[HasIndex]]) -> int:
    """:func:`trick_winner` for plays of rules-core cards, the lead first."""
    ints = [card_ints(p) for p in plays]
    return trick_winner(t, lead_units(t, ints[0]), ints)


# -- the state ------------------------------------------------------------------------------


class KState:
    """A hand in the play phase, mutable: hands as counts, the trick so far, points."""

    def __init__(self, t: Tables, banker: int, leader: int) -> None:
        self.t = t
        self.hands: list[list[int]] = [[0] * 54 for _ in range(4)]
        self.sizes: list[int] = [0, 0, 0, 0]
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

    def copy(self) -> KState:
        """An independent copy (events are not copied)."""
        s = KState(self.t, self.banker, self.leader)
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
        if self.record:
            self.events.append(KEvent(EV_PLAY, seat, cards, [], -1, 0, 0, False))
        if len(self.plays) < 4:
            self.to_act = (seat + 1) % 4
            return
        self._finish_trick()

    def _check_throw(self, seat: int, cards: list[int], units: list[Unit]) -> tuple[list[int], int]:
        """(cards played instead, seat that beat them) for a multi-unit lead; no cards
        when the throw stands (:func:`check_throw`)."""
        t = self.t
        others = [self.hands[(seat + i) % 4] for i in (1, 2, 3)]
        res = check_throw(t, units, others, seat % 2 == self.banker % 2)
        if res is None:
            return [], -1
        self.penalties += res.penalty
        if t.penalty == PENALTY_STAKE:
            self.stake_penalties[seat % 2] += 1
        if self.record:
            self.events.append(
                KEvent(
                    EV_THROW_FAILED,
                    seat,
                    list(res.played),
                    list(cards),
                    (seat + res.first) % 4,
                    res.penalty,
                    0,
                    False,
                )
            )
        return res.played, (seat + res.blocker) % 4

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
        winner = (self.leader + best) % 4
        pts = 0
        pts_of = t.pts
        for p in plays:
            for c in p:
                pts += pts_of[c]
        collectors = winner % 2 != self.banker % 2
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
