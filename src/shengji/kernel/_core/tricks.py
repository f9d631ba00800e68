"""Throws and tricks: whether a throw stands (:func:`check_throw`: the beaten units, who
beat them, the forced play, the penalty) and who wins a trick (:func:`trick_winner`)."""

from __future__ import annotations

from .cards import (
    FORCED_SINGLE,
    PENALTY_FLAT_PER_CARD,
    PENALTY_PER_ATTEMPT,
    PENALTY_PER_CARD,
    TRUMP,
    Tables,
    Unit,
)
from .units import _forced_key, beats_unit, best_top


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
    else what it plays instead (:func:`shengji.rules.throws.check_throw`)."""
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
    the trick so far (:func:`shengji.rules.tricks.trick_winner`)."""
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
