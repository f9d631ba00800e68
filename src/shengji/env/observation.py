"""Fixed-shape numpy observations of exactly what :func:`~shengji.views.seat_view` shows.

Seats are relative: row 0 is the observing seat, row 1 the next seat to act after it
(its right-hand opponent), row 2 its partner, row 3 the seat before it. The
``observation`` vector is the concatenation of the parts of :data:`LAYOUT` (card
counts are indexed by :attr:`~shengji.cards.Card.index`, 0..53):

>>> [(name, size) for name, size in LAYOUT][:4]
[('hand', 54), ('selection', 54), ('played', 216), ('trick', 216)]
>>> OBS_SIZE
959
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..phases import Phase
from ..views import SeatView

PHASES: tuple[Phase, ...] = (
    "deal",
    "before_kitty",
    "bury",
    "after_burial",
    "play",
    "hand_over",
    "match_over",
)
TRUMPS = ("S", "H", "C", "D", "NT")
#: The scalar features at the end of the vector, in order.
SCALARS = (
    *(f"phase_{p}" for p in PHASES),
    *(f"trump_{t}" for t in TRUMPS),
    "trump_unknown",
    *(f"banker_{i}" for i in range(4)),
    "banker_unknown",
    *(f"to_act_{i}" for i in range(4)),
    *(f"leader_{i}" for i in range(4)),
    *(f"hand_size_{i}" for i in range(4)),
    "level",
    "own_team_level",
    "other_team_level",
    "collector_points",
    "penalties",
    "counters",
    "dealt",
    "hand_number",
    "lead_size",
    "decks",
    "kitty_size",
)

#: (name, size) of each part of the observation vector, in order: own hand; the
#: selection so far; cards played this hand by each seat (current trick included); the
#: current trick by seat; the cards each seat has shown to declare this hand; the last
#: kitty this seat picked up; the last kitty it buried; the kitty once the hand is over
#: (public); then :data:`SCALARS`.
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 54),
    ("selection", 54),
    ("played", 4 * 54),
    ("trick", 4 * 54),
    ("shown", 4 * 54),
    ("picked_up", 54),
    ("buried", 54),
    ("kitty", 54),
    ("scalars", len(SCALARS)),
)
OBS_SIZE = sum(size for _, size in LAYOUT)
_OFFSET = {name: sum(size for _, size in LAYOUT[:i]) for i, (name, _) in enumerate(LAYOUT)}


def part(obs: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
    """The part ``name`` of an observation vector (seat parts shaped ``(4, 54)``)."""
    size = dict(LAYOUT)[name]
    out = obs[_OFFSET[name] : _OFFSET[name] + size]
    return out.reshape(4, 54) if size == 4 * 54 else out


def _count(out: npt.NDArray[np.float32], start: int, cards: Sequence[Card]) -> None:
    for c in cards:
        out[start + c.index] += 1


def encode(view: SeatView, selection: Sequence[Card] = ()) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (a seat's view) with ``selection`` so far."""
    seat = view.seat
    assert seat is not None
    out = np.zeros(OBS_SIZE, dtype=np.float32)

    def rel(s: int) -> int:
        return (s - seat) % 4

    _count(out, _OFFSET["hand"], view.hand)
    _count(out, _OFFSET["selection"], selection)
    for trick in view.tricks:
        for p in trick.plays:
            _count(out, _OFFSET["played"] + 54 * rel(p.seat), p.cards)
    for p in view.trick:
        _count(out, _OFFSET["played"] + 54 * rel(p.seat), p.cards)
        _count(out, _OFFSET["trick"] + 54 * rel(p.seat), p.cards)
    for s, cards in view.declare.shows:
        _count(out, _OFFSET["shown"] + 54 * rel(s), cards)
    for kind, name in (("picked_up", "picked_up"), ("buried", "buried")):
        last = [cards for k, cards in view.kitty_seen if k == kind]
        if last:
            _count(out, _OFFSET[name], last[-1])
    if view.kitty is not None:
        _count(out, _OFFSET["kitty"], view.kitty)
    banker = view.banker
    trump = view.trump
    team = seat % 2
    values: list[float] = [float(view.phase == p) for p in PHASES]
    values += [float(trump == t) for t in TRUMPS] + [float(trump is None)]
    values += [float(banker is not None and rel(banker) == i) for i in range(4)]
    values += [float(banker is None)]
    values += [float(view.to_act is not None and rel(view.to_act) == i) for i in range(4)]
    values += [float(rel(view.leader) == i) for i in range(4)]
    values += [float(view.hand_sizes[(seat + i) % 4]) for i in range(4)]
    values += [float(view.level), float(view.levels[team]), float(view.levels[1 - team])]
    values += [float(view.trick_points), float(view.penalties), float(view.declare.counters)]
    values += [float(view.dealt), float(view.hand_number)]
    values += [float(len(view.lead.cards)) if view.lead is not None else 0.0]
    values += [float(view.options.decks), float(view.options.kitty_size)]
    out[_OFFSET["scalars"] :] = values
    return out
