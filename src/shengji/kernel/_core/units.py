"""Units: a play decomposed into units (:func:`decompose`), shapes hosted by a hand,
the top of a shape, whether a hand beats a unit, and the one-unit leads of a hand (all
of them, or one drawn at random, or a throw attempt)."""

from __future__ import annotations

from .cards import _SUIT_ORDER, FORCED_SINGLE, FORCED_UNIT, Tables, Unit
from .rng import KRng


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
    """Units of ``cards`` largest first, as :func:`shengji.rules.units.decompose`; empty when
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
    (largest first), else -1 (:func:`shengji.rules.units.best_top`)."""
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


# -- leading --------------------------------------------------------------------------------


def unit_leads(t: Tables, hand: list[int]) -> list[list[int]]:
    """Every distinct one-unit lead of ``hand`` (:func:`shengji.rules.leads.unit_lead_list`)."""
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
