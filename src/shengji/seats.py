"""Seats and teams as data: which side each seat is on, and the seat order around a table.

Every hand today has four seats in play order with fixed partnerships, {0, 2} against
{1, 3}: :data:`FIXED_TEAMS`. Scoring, the game flow and the kernel read a seat's side
from such a tuple instead of assuming ``seat % 2``, so that a mode with more seats, or
teams found during the hand (找朋友), gives its own.

>>> next_on_side(3, 1, FIXED_TEAMS), next_on_side(3, 0, FIXED_TEAMS)
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

#: The side of each seat in a four-seat hand with fixed partnerships.
FIXED_TEAMS: tuple[int, ...] = (0, 1, 0, 1)


def next_on_side(seat: int, team: int, teams: Sequence[int] = FIXED_TEAMS) -> int:
    """The first seat after ``seat`` in play order that is on ``team`` (``seat`` itself
    when no other is)."""
    n = len(teams)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if teams[s] == team:
            return s
    return seat
