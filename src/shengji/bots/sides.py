"""Whose side a seat is on, as a bot reasons from the table (the heuristic, the search
bot's candidates and rollouts)."""

from __future__ import annotations

from ..game.state import TableFacts
from ..rules.seats import FIXED_TEAMS


def partners(table: TableFacts, seat: int) -> list[int]:
    """The other seats known to be on ``seat``'s side (a seat whose side is not known yet
    is not among them; a seat that does not know its own side counts as a collector: a
    friend that has not played its called copy plays as one). ``table``: a view or a
    game state."""
    n = table.options.players
    if not table.options.friends:
        return [s for s in range(n) if s != seat and FIXED_TEAMS[s] == FIXED_TEAMS[seat]]
    mine = table.side_of(seat)
    mine = 1 if mine is None else mine
    return [s for s in range(n) if s != seat and table.side_of(s) == mine]
