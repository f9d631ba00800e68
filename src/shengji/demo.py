"""Play a whole match between random bots and narrate it (``make run`` for now)."""

from __future__ import annotations

import random
from typing import Any

from .bots.random_bot import random_action
from .game import GameState, apply, new_match
from .options import RuleOptions
from .record import Recorder


def play_match(
    opts: RuleOptions, seed: int, max_hands: int = 200
) -> tuple[GameState, dict[str, Any]]:
    """Play a match between four random bots; returns the final state and its record.
    Stops after ``max_hands`` hands if the match has not ended by then."""
    rng = random.Random(seed)
    st = new_match(opts, seed)
    rec = Recorder(opts, seed)
    while st.phase != "match_over":
        if st.phase == "hand_over" and st.hand_number + 1 >= max_hands:
            break
        seat = st.to_act if st.to_act is not None else 0
        action = random_action(st, seat, rng)
        st, _ = apply(st, seat, action)
        rec.add(seat, action)
    return st, rec.record(st)
