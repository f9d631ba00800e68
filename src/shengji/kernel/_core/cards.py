"""Card tables and the kernel's small records: the constants of the throw rules and events,
:class:`Tables` (one per options, level and trump), :class:`Unit`, :class:`KEvent`,
:class:`Core` (a family of legal follows) and card objects as ints."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, Protocol

#: Effective suit number of trumps (as :data:`shengji.rules.trump.TRUMP`).
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


# -- card objects as ints (``shengji.rules.cards.Card``) --------------------------------------


class HasIndex(Protocol):
    """A card object (:class:`shengji.rules.cards.Card`): its int is ``index``."""

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
