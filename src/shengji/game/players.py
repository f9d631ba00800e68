"""The player interface: bots and external programs plugged into a seat (the bots
themselves are listed once, in :mod:`shengji.bots.registry`).

A player is given only its seat's :class:`~shengji.game.views.SeatView` and returns an
action; :func:`run_match` drives a match between a player per seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..rules.options import RuleOptions
from .actions import Action, Continue
from .flow import apply, new_match
from .record import Recorder
from .state import Event, GameState
from .views import SeatView, seat_view


class Player(Protocol):
    """Anything that picks an action for its seat from that seat's view."""

    def act(self, view: SeatView) -> Action:
        """The action to take now (``view.to_act == view.seat``)."""
        ...


def run_match(
    options: RuleOptions,
    seed: int,
    players: Sequence[Player],
    *,
    max_hands: int | None = None,
    stop_after_hand: bool = False,
    stacked: Sequence[Sequence[Any]] = (),
    on_event: Callable[[GameState, list[Event]], None] | None = None,
) -> tuple[GameState, Recorder]:
    """Play a match (or one hand with ``stop_after_hand``) between ``options.players``
    players, one per seat; each is asked only when its seat is to act and sees only its
    view."""
    if len(players) != options.players:
        raise ValueError(
            f"{options.players} seats need {options.players} players, not {len(players)}"
        )
    st = new_match(options, seed, stacked)
    rec = Recorder(options, seed)
    while st.phase != "match_over":
        if st.phase == "hand_over":
            if stop_after_hand or (max_hands is not None and st.hand_number + 1 >= max_hands):
                break
            action: Action = Continue()
            seat = 0
        else:
            seat = st.to_act if st.to_act is not None else 0
            action = players[seat].act(seat_view(st, seat))
        st, events = apply(st, seat, action)
        rec.add(seat, action)
        if on_event is not None:
            on_event(st, events)
    return st, rec
