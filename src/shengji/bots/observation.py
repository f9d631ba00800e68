"""Fixed-shape numpy observations of exactly what :func:`~shengji.game.views.seat_view` shows.

:func:`encode` builds the vector from a seat's view (objects); :class:`KernelObserver`
builds the same vector from a match on the kernel (:class:`~shengji.engine.match.KMatch`),
as the RL environments do.

Seats are relative: row 0 is the observing seat, row 1 the next seat to act after it
(its right-hand opponent), row 2 its partner, row 3 the seat before it. The
``observation`` vector is the concatenation of the parts of :data:`LAYOUT` (card
counts are indexed by :attr:`~shengji.rules.cards.Card.index`, 0..53):

>>> [(name, size) for name, size in LAYOUT][:4]
[('hand', 54), ('selection', 54), ('played', 216), ('trick', 216)]
>>> OBS_SIZE
1044

A 找朋友 table of ``n`` seats has its own :class:`Layout` (:func:`layout_of`): the same
parts with ``n`` rows of seats (row ``i`` the ``i``-th seat after the observer in play
order), each player's level instead of the teams', the points each seat took, and the
friend calls (a ``called`` part: one row of 54 per call) with who answered each and every
seat's side as far as the table knows.

Every entry is in [0, 1]: card counts are divided by the number of decks, sizes, points
and levels by their largest values (:func:`scales`), and the features a player tracks
(trick position, points won by each side, voids shown by seat and effective suit, cards
still out) are worked out from the same counts by both builders (``_finish`` here, the
kernel's ``KObserver`` for :class:`KernelObserver`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np
import numpy.typing as npt

from ..game.views import SeatView
from ..rules.cards import Card
from ..rules.options import RuleOptions
from ..rules.phases import Phase

if TYPE_CHECKING:
    from ..engine.match import KMatch
    from ..kernel._core import KObserver

PHASES: tuple[Phase, ...] = (
    "deal",
    "before_kitty",
    "bury",
    "after_burial",
    "play",
    "hand_over",
    "match_over",
)
#: 找朋友's phases: :data:`PHASES` and ``call`` (the kernel's ``PH_CALL`` is 7).
FRIEND_PHASES: tuple[Phase, ...] = (*PHASES, "call")
TRUMPS = ("S", "H", "C", "D", "NT")
#: Effective suits (``TrumpContext.suit_of``): the four printed suits' plain cards, then
#: the trumps (``T``).
SUIT_NAMES = ("S", "H", "C", "D", "T")
#: 找朋友: the most friend calls a hand has (``friend_calls`` is 1..3); the layout keeps
#: a row for each.
MAX_CALLS = 3


def _scalar_names(n: int, friends: bool) -> tuple[str, ...]:
    """The scalar features of an ``n``-seat layout, in order."""
    names = [
        *(f"phase_{p}" for p in (FRIEND_PHASES if friends else PHASES)),
        *(f"trump_{t}" for t in TRUMPS),
        "trump_unknown",
        *(f"banker_{i}" for i in range(n)),
        "banker_unknown",
        *(f"to_act_{i}" for i in range(n)),
        *(f"leader_{i}" for i in range(n)),
        *(f"hand_size_{i}" for i in range(n)),
        "level",
    ]
    names += [f"level_{i}" for i in range(n)] if friends else ["own_team_level", "other_team_level"]
    names += [
        "collector_points",
        "penalties",
        "counters",
        "dealt",
        "hand_number",
        "lead_size",
        "decks",
        "kitty_size",
        *(f"trick_position_{i}" for i in range(n)),
    ]
    names += (
        [f"points_{i}" for i in range(n)] if friends else ["points_own_team", "points_other_team"]
    )
    names += [f"void_{i}_{s}" for i in range(n) for s in SUIT_NAMES]
    names += [f"out_{s}" for s in SUIT_NAMES]
    if friends:
        names += ["players", "calls"]
        for j in range(MAX_CALLS):
            names += [f"call_{j}_ordinal", f"call_{j}_answered"]
            names += [f"call_{j}_by_{i}" for i in range(n)]
        names += [f"side_{i}_{side}" for i in range(n) for side in ("banker", "collectors")]
    return tuple(names)


class Layout:
    """The observation vector of a table: :attr:`parts` (name, size) in order and
    :attr:`scalars`. Fixed partnerships (four seats) have the layout of :data:`LAYOUT`
    and :data:`SCALARS`; 找朋友 tables of ``seats`` seats have ``seats`` rows where those
    have four, each player's level instead of the teams', the points each seat took
    instead of each team's, and the friend calls and the sides known so far
    (:func:`layout_of`)."""

    def __init__(self, seats: int, friends: bool) -> None:
        n = self.seats = seats
        self.friends = friends
        self.phases = FRIEND_PHASES if friends else PHASES
        self.scalars = _scalar_names(n, friends)
        parts = [
            ("hand", 54),
            ("selection", 54),
            ("played", n * 54),
            ("trick", n * 54),
            ("shown", n * 54),
            ("picked_up", 54),
            ("buried", 54),
            ("kitty", 54),
            ("out", 54),
        ]
        if friends:
            parts.append(("called", MAX_CALLS * 54))
        parts.append(("scalars", len(self.scalars)))
        self.parts: tuple[tuple[str, int], ...] = tuple(parts)
        self.size = sum(size for _, size in parts)
        self.offset = {
            name: sum(size for _, size in parts[:i]) for i, (name, _) in enumerate(parts)
        }
        base = self.offset["scalars"]
        #: Where each scalar is in the whole vector.
        self.at = {name: base + i for i, name in enumerate(self.scalars)}
        #: For each observing seat, where each entry of the ``played``, ``trick`` and
        #: ``shown`` parts (rows of 54 by relative seat: itself, then the seats after it)
        #: is in a ``(3, n, 54)`` array of those parts by absolute seat, flattened.
        self.rows = [
            np.array(
                [
                    (k * n + (seat + i) % n) * 54 + c
                    for k in range(3)
                    for i in range(n)
                    for c in range(54)
                ]
            )
            for seat in range(n)
        ]

    def part(self, obs: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
        """The part ``name`` of ``obs`` (seat parts shaped ``(seats, 54)``, ``called``
        ``(MAX_CALLS, 54)``)."""
        size = dict(self.parts)[name]
        out = obs[self.offset[name] : self.offset[name] + size]
        if name in ("played", "trick", "shown"):
            return out.reshape(self.seats, 54)
        return out.reshape(MAX_CALLS, 54) if name == "called" else out


#: The layout of four seats with fixed partnerships (every preset but 找朋友's).
LAYOUT4 = Layout(4, False)
#: The scalar features at the end of the four-seat vector, in order.
SCALARS = LAYOUT4.scalars

#: (name, size) of each part of the four-seat observation vector, in order: own hand;
#: the selection so far; cards played this hand by each seat (current trick included);
#: the current trick by seat; the cards each seat has shown to declare this hand; the
#: last kitty this seat picked up; the last kitty it buried; the kitty once the hand is
#: over (public); the copies of each card kind still out (neither in this hand nor played:
#: in the other hands or the kitty); then :data:`SCALARS`.
LAYOUT: tuple[tuple[str, int], ...] = LAYOUT4.parts
OBS_SIZE = LAYOUT4.size
_LAYOUTS: dict[tuple[int, bool], Layout] = {(4, False): LAYOUT4}


def layout_of(options: RuleOptions) -> Layout:
    """The layout of a table with these rules: :data:`LAYOUT4` with fixed partnerships,
    an ``options.players``-seat 找朋友 layout with ``friends``.

    >>> from shengji.rules.presets import load_preset
    >>> layout_of(load_preset("shuangsheng")) is LAYOUT4
    True
    >>> [layout_of(load_preset("zhaopengyou", {"players": n})).size for n in (4, 5, 6, 8)]
    [1239, 1418, 1597, 1955]
    """
    key = (options.players, options.friends) if options.friends else (4, False)
    hit = _LAYOUTS.get(key)
    if hit is None:
        hit = _LAYOUTS[key] = Layout(*key)
    return hit


def part(
    obs: npt.NDArray[np.float32], name: str, layout: Layout | None = None
) -> npt.NDArray[np.float32]:
    """The part ``name`` of an observation vector (seat parts shaped ``(seats, 54)``); the
    layout is the four-seat one unless given (or unless the vector's size is a 找朋友
    layout's already made)."""
    if layout is None:
        layout = LAYOUT4
        if len(obs) != LAYOUT4.size:
            found = [lay for lay in _LAYOUTS.values() if lay.size == len(obs)]
            if not found:
                raise ValueError(f"no layout of {len(obs)} entries: pass layout_of(options)")
            layout = found[0]
    return layout.part(obs, name)


def _count(out: npt.NDArray[np.float32], start: int, cards: Sequence[Card]) -> None:
    for c in cards:
        out[start + c.index] += 1


def encode(view: SeatView, selection: Sequence[Card] = ()) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (a seat's view) with ``selection`` so far."""
    seat = view.seat
    assert seat is not None
    lay = layout_of(view.options)
    n = lay.seats
    off = lay.offset
    out = np.zeros(lay.size, dtype=np.float32)

    def rel(s: int) -> int:
        return (s - seat) % n

    _count(out, off["hand"], view.hand)
    _count(out, off["selection"], selection)
    for trick in view.tricks:
        for p in trick.plays:
            _count(out, off["played"] + 54 * rel(p.seat), p.cards)
    for p in view.trick:
        _count(out, off["played"] + 54 * rel(p.seat), p.cards)
        _count(out, off["trick"] + 54 * rel(p.seat), p.cards)
    for s, cards in view.declare.shows:
        _count(out, off["shown"] + 54 * rel(s), cards)
    for kind, name in (("picked_up", "picked_up"), ("buried", "buried")):
        last = [cards for k, cards in view.kitty_seen if k == kind]
        if last:
            _count(out, off[name], last[-1])
    if view.kitty is not None:
        _count(out, off["kitty"], view.kitty)
    banker = view.banker
    trump = view.trump
    team = seat % 2
    values: list[float] = [float(view.phase == p) for p in lay.phases]
    values += [float(trump == t) for t in TRUMPS] + [float(trump is None)]
    values += [float(banker is not None and rel(banker) == i) for i in range(n)]
    values += [float(banker is None)]
    values += [float(view.to_act is not None and rel(view.to_act) == i) for i in range(n)]
    values += [float(rel(view.leader) == i) for i in range(n)]
    values += [float(view.hand_sizes[(seat + i) % n]) for i in range(n)]
    values += [float(view.level)]
    if lay.friends:
        values += [float(view.levels[(seat + i) % n]) for i in range(n)]
    else:
        values += [float(view.levels[team]), float(view.levels[1 - team])]
    values += [float(view.trick_points), float(view.penalties), float(view.declare.counters)]
    values += [float(view.dealt), float(view.hand_number)]
    values += [float(len(view.lead.cards)) if view.lead is not None else 0.0]
    values += [float(view.options.decks), float(view.options.kitty_size)]
    values += [float(len(view.trick) == i) for i in range(n)]
    points = [0] * (n if lay.friends else 2)
    voids = np.zeros((n, 5), dtype=np.float32)
    playing = view.phase in _PLAYING
    suit_of = view.ctx.suit_of
    if playing:
        for trick in view.tricks:
            points[rel(trick.winner) % len(points)] += trick.points
        for plays in (*(t.plays for t in view.tricks), view.trick):
            if not plays:
                continue
            led = suit_of[plays[0].cards[0].index]
            for p in plays[1:]:
                if any(suit_of[c.index] != led for c in p.cards):
                    voids[rel(p.seat), led] = 1.0
    values += [float(p) for p in points]
    start = off["scalars"]
    out[start : start + len(values)] = values
    v0 = lay.at["void_0_S"]
    out[v0 : v0 + 5 * n] = voids.reshape(-1)
    if lay.friends:
        at = lay.at
        out[at["players"]] = n
        out[at["calls"]] = view.options.calls
        for j, cf in enumerate(view.calls):
            out[off["called"] + 54 * j + cf.call.card.index] = 1.0
            out[at[f"call_{j}_ordinal"]] = cf.call.ordinal
            if cf.seat is not None:
                out[at[f"call_{j}_answered"]] = 1.0
                out[at[f"call_{j}_by_{rel(cf.seat)}"]] = 1.0
        for i in range(n):
            side = view.side_of((seat + i) % n)
            if side is not None:
                out[at[f"side_{i}_{'banker' if side == 0 else 'collectors'}"]] = 1.0
    return _finish(out, view.options, suit_of if playing else None, lay)


#: The phases in which the trick features (voids, points by team, cards out by suit) are
#: filled in; zero before the play.
_PLAYING = ("play", "hand_over", "match_over")
_SCALES: dict[int, tuple[RuleOptions, npt.NDArray[np.float32]]] = {}


def scales(options: RuleOptions) -> npt.NDArray[np.float32]:
    """What each entry of the raw vector (counts, sizes, points, levels) is multiplied by
    to bring it into [0, 1]: card counts by the number of decks, hand sizes and lead
    sizes by the largest hand (the banker's with the kitty), points by the points in the
    decks, levels by 14 (ace), the cards dealt by the deal, counter-declarations by 8 and
    the hand number by 100 (both then capped at 1), decks by 4; 找朋友's seats by 8, calls
    by 3 and ordinals by the decks (the called cards are 0/1 already)."""
    hit = _SCALES.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    lay = layout_of(options)
    n = lay.seats
    d = options.decks
    biggest = options.hand_size + options.kitty_size
    total = options.total_points
    scale = np.full(lay.size, 1.0 / d, dtype=np.float32)
    sc = np.ones(len(lay.scalars), dtype=np.float64)
    by = {name: i for i, name in enumerate(lay.scalars)}
    for i in range(n):
        sc[by[f"hand_size_{i}"]] = 1.0 / biggest
    levels = (
        [f"level_{i}" for i in range(n)] if lay.friends else ["own_team_level", "other_team_level"]
    )
    for name in ("level", *levels):
        sc[by[name]] = 1.0 / 14
    points = (
        [f"points_{i}" for i in range(n)]
        if lay.friends
        else ["points_own_team", "points_other_team"]
    )
    for name in ("collector_points", "penalties", *points):
        sc[by[name]] = 1.0 / total
    sc[by["counters"]] = 1.0 / 8
    sc[by["dealt"]] = 1.0 / (n * options.hand_size)
    sc[by["hand_number"]] = 1.0 / 100
    sc[by["lead_size"]] = 1.0 / biggest
    sc[by["decks"]] = 1.0 / 4
    sc[by["kitty_size"]] = 1.0 / biggest
    if lay.friends:
        sc[by["players"]] = 1.0 / 8
        sc[by["calls"]] = 1.0 / MAX_CALLS
        for j in range(MAX_CALLS):
            sc[by[f"call_{j}_ordinal"]] = 1.0 / d
        called = lay.offset["called"]
        scale[called : called + MAX_CALLS * 54] = 1.0
    scale[lay.offset["scalars"] :] = sc
    if len(_SCALES) >= 256:
        _SCALES.clear()
    _SCALES[id(options)] = (options, scale)
    return scale


def _finish(
    out: npt.NDArray[np.float32],
    options: RuleOptions,
    suit_of: Sequence[int] | npt.NDArray[np.intp] | None,
    lay: Layout = LAYOUT4,
) -> npt.NDArray[np.float32]:
    """Fill the parts worked out from the counts (cards out, and by effective suit once
    ``suit_of`` is known), then scale the raw vector into [0, 1] (in place)."""
    d = float(options.decks)
    off = lay.offset
    played = out[off["played"] : off["trick"]].reshape(lay.seats, 54).sum(axis=0)
    left = np.float32(d) - out[off["hand"] : off["selection"]] - played
    np.maximum(left, 0, out=left)
    out[off["out"] : off["out"] + 54] = left
    out *= scales(options)
    if suit_of is not None:
        suits = np.asarray(suit_of, dtype=np.intp)
        count = np.bincount(suits, minlength=5)
        sums = np.bincount(suits, weights=left, minlength=5)
        at = lay.at["out_S"]
        out[at : at + 5] = sums / (d * np.maximum(count, 1))
    np.clip(out, 0.0, 1.0, out=out)
    return out


# -- the same vector from the kernel ---------------------------------------------------------


class KernelObserver:
    """The observation vectors of a match on the kernel, equal to
    ``encode(seat_view(game, seat))`` for the game state of the same decisions.

    The kernel builds them (:class:`~shengji.kernel._core.KObserver`, compiled with the
    rest of the kernel): it reads the kernel's state (hands, declarations, the kitty log,
    scores, friend calls) and the play events of :attr:`KHand.record
    <shengji.kernel._core.KHand.record>` hands, which it turns on (so observe a match from
    the start of its hands), and writes each vector into a float32 buffer."""

    def __init__(self, match: KMatch) -> None:
        self.match = match
        lay = self.layout = layout_of(match.options)
        self.kernel: KObserver = match.core.KObserver(
            lay.seats, lay.friends, positions(lay), scales(match.options).tolist()
        )
        match.hand.record = True
        self._scratch = np.zeros(lay.size, dtype=np.float32)
        self._row = self.kernel.row(_floats(self._scratch), 0)

    def vector(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat`` with an empty selection (a new array)."""
        m = self.match
        self.kernel.write(m.hand, seat, list(m.levels), m.hand_number, m.over, self._row)
        return self._scratch.copy()


def _floats(a: npt.NDArray[np.float32]) -> memoryview[float]:
    """A float32 array's memory, for the kernel to write."""
    return cast("memoryview[float]", a.data)


def positions(lay: Layout) -> dict[str, int]:
    """Where each part starts and where each scalar is in a vector of ``lay``: what the
    kernel's ``KObserver`` writes by."""
    return {**lay.offset, **lay.at}
