"""A uniformly random legal player (with occasional throw attempts when leading)."""

from __future__ import annotations

import random

from ..actions import Action, Bury, Continue, Declare, Pass, Play
from ..follow import random_legal_follow
from ..game import Table, legal_shows
from ..leads import unit_lead_list
from ..phases import DECLARING_PHASES
from ..units import decompose
from ..views import SeatView


def random_action(st: Table, seat: int, rng: random.Random, throw_rate: float = 0.1) -> Action:
    """A random legal action for ``seat``: uniform over shows and pass, a random burial, a
    uniform legal follow, a uniform one-unit lead or (``throw_rate``) a throw attempt.
    Works on a game state (fast rollouts) or on the seat's own view."""
    if st.phase == "hand_over":
        return Continue()
    if st.phase in DECLARING_PHASES:
        shows = legal_shows(st, seat)
        choice = rng.randrange(len(shows) + 1)
        return Declare(shows[choice]) if choice < len(shows) else Pass()
    hand = st.hand_of(seat)
    if st.phase == "bury":
        return Bury(tuple(rng.sample(hand, st.options.kitty_size)))
    ctx = st.ctx
    if st.trick:
        assert st.lead is not None
        return Play(random_legal_follow(ctx, st.lead, hand, rng))
    if rng.random() < throw_rate:
        suit = ctx.suit_of[rng.choice(hand).index]
        same = [c for c in hand if ctx.suit_of[c.index] == suit]
        if len(same) >= 2:
            pick = rng.sample(same, rng.randint(2, min(len(same), 8)))
            if len(decompose(ctx, pick)) > 1:
                return Play(tuple(pick))
    return Play(rng.choice(unit_lead_list(ctx, hand)))


class RandomBot:
    """Plays :func:`random_action` from its own view; deterministic for a seed."""

    name = "random"

    def __init__(self, seat: int = 0, seed: int = 0) -> None:
        self.rng = random.Random(f"random:{seed}:{seat}")

    def act(self, view: SeatView) -> Action:
        """A random legal action for the view's seat."""
        assert view.seat is not None
        return random_action(view, view.seat, self.rng)
