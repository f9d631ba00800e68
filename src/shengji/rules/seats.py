"""Seats and teams as data: which side each seat is on, and the seat order around a table.

Four seats with fixed partnerships play {0, 2} against {1, 3}: :data:`FIXED_TEAMS`.
In 找朋友 (``friends``) 4 to 8 seats play, and sides are found during each hand: the
banker alone on side 0 until the called friends join it. Scoring, the game flow and the
kernel read a seat's side from such a tuple instead of assuming ``seat % 2``.

>>> next_on_side(3, 1, FIXED_TEAMS), next_on_side(3, 0, FIXED_TEAMS)
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .options import RuleOptions

#: The side of each seat in a four-seat hand with fixed partnerships.
FIXED_TEAMS: tuple[int, ...] = (0, 1, 0, 1)


def start_teams(options: RuleOptions) -> tuple[int, ...]:
    """The sides of a hand before anything is known: the fixed partnerships, or (找朋友)
    everyone on side 1 until the banker is known (:func:`banker_alone`)."""
    if options.friends:
        return (1,) * options.players
    return FIXED_TEAMS


def banker_alone(seats: int, banker: int) -> tuple[int, ...]:
    """找朋友: the sides once the banker is known and before any friend is found."""
    return tuple(0 if s == banker else 1 for s in range(seats))


def level_holder(options: RuleOptions, seat: int) -> int:
    """Whose level ``seat`` plays at: its team's (fixed partnerships) or its own (找朋友),
    as an index into a state's ``levels``."""
    return seat if options.friends else FIXED_TEAMS[seat]


def next_on_side(seat: int, team: int, teams: Sequence[int] = FIXED_TEAMS) -> int:
    """The first seat after ``seat`` in play order that is on ``team`` (``seat`` itself
    when no other is)."""
    n = len(teams)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if teams[s] == team:
            return s
    return seat
