"""How a banker values the cards it keeps at the burial: the heuristic buries the
lowest, and the belief guesses a burial the same way (docs/bots.md)."""

from __future__ import annotations

from collections import Counter

from ..rules.cards import Card
from ..rules.trump import TRUMP, TrumpContext


def keep_value(ctx: TrumpContext, c: Card, copies: int, lengths: Counter[int], k: int) -> float:
    """How much a banker burying ``k`` cards wants to keep ``c`` (``copies`` of it in its
    hand, ``lengths`` cards of each effective suit there): by rank, pairs and points,
    trumps far above the rest, side suits short enough to empty below (voids let it
    ruff)."""
    x = ctx.suit_of[c.index]
    v = ctx.strength[c.index] * 1.0 + (25 if copies >= 2 else 0) + c.points * 1.6
    if x == TRUMP:
        return v + 100
    if lengths[x] <= k // 2:
        v -= 8 - lengths[x]  # short suits go first: voids let us ruff
    return v
