"""Play a whole match between random bots (``make run`` for now)."""

from __future__ import annotations

from typing import Any

from ..bots.random_bot import RandomBot
from ..game.players import run_match
from ..game.state import GameState
from ..rules.options import RuleOptions


def play_match(
    opts: RuleOptions, seed: int, max_hands: int = 200, bot: type[Any] = RandomBot
) -> tuple[GameState, dict[str, Any]]:
    """Play a match between a bot per seat (each sees only its own view); returns the final
    state and its record. Stops after ``max_hands`` hands if the match has not ended."""
    players = [bot(seat, seed) for seat in range(opts.players)]
    st, rec = run_match(opts, seed, players, max_hands=max_hands)
    return st, rec.record(st)
