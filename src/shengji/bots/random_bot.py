"""A uniformly random legal player (with occasional throw attempts when leading).

Its choices are the kernel's (``KHand.random_action``): the same stream gives the same
decisions on a game state, on a seat's view and inside :class:`shengji.engine.match.KMatch`,
which is how ``shengji simulate`` plays random players at kernel speed.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.match import THROW_RATE, seat_stream
from ..engine.rollout import default_kernel
from ..game.actions import Action, Bury, Call, Continue, Declare, Pass, Play
from ..game.legal import legal_shows
from ..game.state import Table
from ..game.views import SeatView
from ..rules.cards import ALL_CARDS
from ..rules.friends import FriendCall
from ..rules.phases import DECLARING_PHASES


def random_action(
    st: Table, seat: int, rng: random.Random | Any, throw_rate: float = THROW_RATE
) -> Action:
    """A random legal action for ``seat``: uniform over shows and pass, a uniform burial,
    uniform friend calls, a uniform legal follow, a uniform one-unit lead or
    (``throw_rate``) a throw attempt.
    ``rng`` is a :class:`random.Random` (one kernel stream is drawn from it per call) or a
    kernel stream (``shengji.engine.match.seat_stream``). Works on a game state or on the
    seat's own view."""
    if st.phase == "hand_over":
        return Continue()
    core = default_kernel().core
    krng = core.rng_from(rng) if isinstance(rng, random.Random) else rng
    if st.phase in DECLARING_PHASES:
        shows = legal_shows(st, seat)
        choice = krng.below(len(shows) + 1)
        return Declare(shows[choice]) if choice < len(shows) else Pass()
    counts = core.hand_counts(st.hand_of(seat))
    if st.phase == "bury":
        cards = core.random_burial(counts, st.options.kitty_size, krng)
        return Bury(tuple(ALL_CARDS[c] for c in cards))
    t = default_kernel().tables(st.ctx)
    if st.phase == "call":
        opts, trump = st.options, -1 if st.ctx.trump is None else int(st.ctx.trump)
        cards, ords = core.random_calls(
            t, st.level, trump, opts.calls, opts.decks, opts.call_trump_suit, krng
        )
        return Call(tuple(FriendCall(ALL_CARDS[c], k) for c, k in zip(cards, ords, strict=True)))
    if st.trick:
        lead = core.card_ints(st.trick[0].cards)
        units = core.lead_units(t, lead)
        cards = core.random_follow(t, units, len(lead), counts, krng)
    else:
        cards = core.random_lead(t, counts, len(st.hand_of(seat)), krng, throw_rate)
    return Play(tuple(ALL_CARDS[c] for c in cards))


class RandomBot:
    """Plays :func:`random_action` from its own view; deterministic for a seed (the same
    stream as a random seat of :class:`shengji.engine.match.KMatch`)."""

    name = "random"

    def __init__(self, seat: int = 0, seed: int = 0) -> None:
        self.rng = seat_stream(seed, seat)

    def act(self, view: SeatView) -> Action:
        """A random legal action for the view's seat."""
        assert view.seat is not None
        return random_action(view, view.seat, self.rng)
