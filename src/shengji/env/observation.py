"""Fixed-shape numpy observations of exactly what :func:`~shengji.views.seat_view` shows.

:func:`encode` builds the vector from a seat's view (objects); :class:`KernelObserver`
builds the same vector from a match on the kernel (:class:`~shengji.kernel.match.KMatch`),
as the RL environments do.

Seats are relative: row 0 is the observing seat, row 1 the next seat to act after it
(its right-hand opponent), row 2 its partner, row 3 the seat before it. The
``observation`` vector is the concatenation of the parts of :data:`LAYOUT` (card
counts are indexed by :attr:`~shengji.cards.Card.index`, 0..53):

>>> [(name, size) for name, size in LAYOUT][:4]
[('hand', 54), ('selection', 54), ('played', 216), ('trick', 216)]
>>> OBS_SIZE
1044

Every entry is in [0, 1]: card counts are divided by the number of decks, sizes, points
and levels by their largest values (:func:`scales`), and the features a player tracks
(trick position, points won by each side, voids shown by seat and effective suit, cards
still out) are worked out from the same counts by both builders (``_finish``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..kernel._core import EV_PLAY, EV_TRICK, PH_AFTER_BURIAL, PH_BURY, PH_OVER
from ..options import RuleOptions
from ..phases import Phase
from ..views import SeatView

if TYPE_CHECKING:
    from ..kernel._core import KHand, KState
    from ..kernel.match import KMatch

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
#: Effective suits (``TrumpContext.suit_of``): the four printed suits' plain cards, then
#: the trumps (``T``).
SUIT_NAMES = ("S", "H", "C", "D", "T")
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
    *(f"trick_position_{i}" for i in range(4)),
    "points_own_team",
    "points_other_team",
    *(f"void_{i}_{s}" for i in range(4) for s in SUIT_NAMES),
    *(f"out_{s}" for s in SUIT_NAMES),
)

#: (name, size) of each part of the observation vector, in order: own hand; the
#: selection so far; cards played this hand by each seat (current trick included); the
#: current trick by seat; the cards each seat has shown to declare this hand; the last
#: kitty this seat picked up; the last kitty it buried; the kitty once the hand is over
#: (public); the copies of each card kind still out (neither in this hand nor played: in
#: the other hands or the kitty); then :data:`SCALARS`.
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 54),
    ("selection", 54),
    ("played", 4 * 54),
    ("trick", 4 * 54),
    ("shown", 4 * 54),
    ("picked_up", 54),
    ("buried", 54),
    ("kitty", 54),
    ("out", 54),
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
    values += [float(len(view.trick) == i) for i in range(4)]
    points = [0, 0]
    voids = np.zeros((4, 5), dtype=np.float32)
    playing = view.phase in _PLAYING
    suit_of = view.ctx.suit_of
    if playing:
        for trick in view.tricks:
            points[rel(trick.winner) % 2] += trick.points
        for plays in (*(t.plays for t in view.tricks), view.trick):
            if not plays:
                continue
            led = suit_of[plays[0].cards[0].index]
            for p in plays[1:]:
                if any(suit_of[c.index] != led for c in p.cards):
                    voids[rel(p.seat), led] = 1.0
    values += [float(points[0]), float(points[1])]
    out[_SCALARS : _SCALARS + len(values)] = values
    out[_VOIDS : _VOIDS + 20] = voids.reshape(-1)
    return _finish(out, view.options, suit_of if playing else None)


#: The phases in which the trick features (voids, points by team, cards out by suit) are
#: filled in; zero before the play.
_PLAYING = ("play", "hand_over", "match_over")
_OUT = _OFFSET["out"]
_SCALARS = _OFFSET["scalars"]
_VOIDS = _SCALARS + SCALARS.index("void_0_S")
_SUIT_OUT = _SCALARS + SCALARS.index("out_S")
_SCALES: dict[int, tuple[RuleOptions, npt.NDArray[np.float32]]] = {}


def scales(options: RuleOptions) -> npt.NDArray[np.float32]:
    """What each entry of the raw vector (counts, sizes, points, levels) is multiplied by
    to bring it into [0, 1]: card counts by the number of decks, hand sizes and lead
    sizes by the largest hand (the banker's with the kitty), points by the points in the
    decks, levels by 14 (ace), the cards dealt by the deal, counter-declarations by 8 and
    the hand number by 100 (both then capped at 1), decks by 4."""
    hit = _SCALES.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    d = options.decks
    biggest = options.hand_size + options.kitty_size
    total = options.total_points
    scale = np.full(OBS_SIZE, 1.0 / d, dtype=np.float32)
    sc = np.ones(len(SCALARS), dtype=np.float64)
    by = {name: i for i, name in enumerate(SCALARS)}
    for i in range(4):
        sc[by[f"hand_size_{i}"]] = 1.0 / biggest
    for name in ("level", "own_team_level", "other_team_level"):
        sc[by[name]] = 1.0 / 14
    for name in ("collector_points", "penalties", "points_own_team", "points_other_team"):
        sc[by[name]] = 1.0 / total
    sc[by["counters"]] = 1.0 / 8
    sc[by["dealt"]] = 1.0 / (4 * options.hand_size)
    sc[by["hand_number"]] = 1.0 / 100
    sc[by["lead_size"]] = 1.0 / biggest
    sc[by["decks"]] = 1.0 / 4
    sc[by["kitty_size"]] = 1.0 / biggest
    scale[_SCALARS:] = sc
    if len(_SCALES) >= 256:
        _SCALES.clear()
    _SCALES[id(options)] = (options, scale)
    return scale


def _finish(
    out: npt.NDArray[np.float32],
    options: RuleOptions,
    suit_of: Sequence[int] | npt.NDArray[np.intp] | None,
) -> npt.NDArray[np.float32]:
    """Fill the parts worked out from the counts (cards out, and by effective suit once
    ``suit_of`` is known), then scale the raw vector into [0, 1] (in place)."""
    d = float(options.decks)
    played = out[_PLAYED:_TRICK].reshape(4, 54).sum(axis=0)
    left = np.float32(d) - out[_HAND:_HAND_END] - played
    np.maximum(left, 0, out=left)
    out[_OUT : _OUT + 54] = left
    out *= scales(options)
    if suit_of is not None:
        suits = np.asarray(suit_of, dtype=np.intp)
        n = np.bincount(suits, minlength=5)
        sums = np.bincount(suits, weights=left, minlength=5)
        out[_SUIT_OUT : _SUIT_OUT + 5] = sums / (d * np.maximum(n, 1))
    np.clip(out, 0.0, 1.0, out=out)
    return out


# -- the same vector from the kernel ---------------------------------------------------------

_HAND = _OFFSET["hand"]
_HAND_END = _OFFSET["selection"]
_PLAYED = _OFFSET["played"]
_TRICK = _OFFSET["trick"]
_SHOWN = _OFFSET["shown"]
_PICKED = _OFFSET["picked_up"]
_BURIED = _OFFSET["buried"]
_KITTY = _OFFSET["kitty"]
_S = {name: i for i, name in enumerate(SCALARS)}
_TRUMP = _S["trump_S"]
_TRUMP_NT = _S["trump_NT"]
_TRUMP_UNKNOWN = _S["trump_unknown"]
_BANKER = _S["banker_0"]
_BANKER_UNKNOWN = _S["banker_unknown"]
_TO_ACT = _S["to_act_0"]
_LEADER = _S["leader_0"]
_SIZES = _S["hand_size_0"]
_LEVEL = _S["level"]
_POINTS = _S["collector_points"]
_DEALT = _S["dealt"]
_LEAD_SIZE = _S["lead_size"]
_DECKS = _S["decks"]
_POSITION = _S["trick_position_0"]
#: For each observing seat, where each entry of the ``played``, ``trick`` and ``shown``
#: parts (rows of 54 by relative seat: itself, then the seats after it) is in a
#: ``(3, 4, 54)`` array of those parts by absolute seat, flattened.
_ROWS = [
    np.array(
        [
            (part * 4 + (seat + i) % 4) * 54 + c
            for part in range(3)
            for i in range(4)
            for c in range(54)
        ]
    )
    for seat in range(4)
]


class KernelObserver:
    """The observation vectors of a match on the kernel, equal to
    ``encode(seat_view(game, seat))`` for the game state of the same decisions.

    It reads the kernel's state (hands, declarations, the kitty log, scores) and the play
    events of :attr:`KHand.record <shengji.kernel._core.KHand.record>` hands, which it
    turns on (so observe a match from the start of its hands): the cards each seat played
    this hand and in the current trick are kept here, as numpy counts."""

    def __init__(self, match: KMatch) -> None:
        self.match = match
        match.hand.record = True
        self._hand: KHand | None = None
        self._play: KState | None = None
        #: ``played``, ``trick`` and ``shown`` counts by absolute seat.
        self.parts = np.zeros((3, 4, 54), dtype=np.float32)
        #: The last kitty each seat picked up, then the last one it buried.
        self.kitty_seen = np.zeros((4, 2, 54), dtype=np.float32)
        #: Voids shown by absolute seat and effective suit; points won by each team.
        self.voids = np.zeros((4, 5), dtype=np.float32)
        self.points = [0, 0]
        #: Plays in the current trick, and the effective suit of its lead.
        self._trick_n = 0
        self._led = 0
        #: The effective suit of each card kind in the hand being played (numpy).
        self._suits = np.zeros(54, dtype=np.intp)
        self._events = 0
        self._shows = 0
        self._kitty_log = 0
        #: The seats that saw a kitty this hand, as bits.
        self._kitty_seats = 0

    def _sync(self) -> KHand:
        """Catch up with the match: a new hand, new shows, kitty moves and plays."""
        h = self.match.hand
        if h is not self._hand:
            h.record = True
            self._hand = h
            self._play = None
            self.parts.fill(0)
            self.kitty_seen.fill(0)
            self._events = self._shows = self._kitty_log = self._kitty_seats = 0
            self._trick_n = 0
        shows = h.decl.shows
        if len(shows) > self._shows:
            shown = self.parts[2]
            for i in range(self._shows, len(shows), 3):
                shown[shows[i], shows[i + 1]] += shows[i + 2]
            self._shows = len(shows)
        log = h.kitty_log
        if len(log) > self._kitty_log:
            cards = h.kitty_cards
            for i in range(self._kitty_log, len(log), 3):
                end = log[i + 5] if i + 3 < len(log) else len(cards)
                row = self.kitty_seen[log[i], log[i + 1]]
                self._kitty_seats |= 1 << log[i]
                row.fill(0)
                for c in cards[log[i + 2] : end]:
                    row[c] += 1
            self._kitty_log = len(log)
        ks = h.play
        if ks is not None:
            if ks is not self._play:
                self._play = ks
                self._suits = np.asarray(ks.t.suit_of, dtype=np.intp)
                self._events = self._trick_n = 0
                self.voids.fill(0)
                self.points = [0, 0]
            events = ks.events
            if len(events) > self._events:
                played, trick = self.parts[0], self.parts[1]
                suit_of = ks.t.suit_of
                for i in range(self._events, len(events)):
                    ev = events[i]
                    if ev.kind == EV_PLAY:
                        row, now = played[ev.seat], trick[ev.seat]
                        for c in ev.cards:
                            row[c] += 1
                            now[c] += 1
                        if self._trick_n == 0:
                            self._led = suit_of[ev.cards[0]]
                        elif any(suit_of[c] != self._led for c in ev.cards):
                            self.voids[ev.seat, self._led] = 1.0
                        self._trick_n += 1
                    elif ev.kind == EV_TRICK:
                        trick.fill(0)
                        self._trick_n = 0
                        self.points[ev.seat % 2] += ev.points
                self._events = len(events)
        return h

    def vector(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat`` with an empty selection (a new array)."""
        h = self._sync()
        m = self.match
        out = np.zeros(OBS_SIZE, dtype=np.float32)
        out[_HAND:_HAND_END] = np.frombuffer(bytes(h.hands[seat]), dtype=np.uint8)
        if self._events or self._shows:
            out[_PLAYED:_PICKED] = self.parts.reshape(-1)[_ROWS[seat]]
        if self._kitty_seats >> seat & 1:
            out[_PICKED:_KITTY] = self.kitty_seen[seat].reshape(-1)
        ks = h.play
        d = h.decl
        ph = h.phase
        sc = [0.0] * len(SCALARS)
        if ks is not None:
            leader = ks.leader
            sc[_POINTS] = float(ks.trick_points)
            sc[_POINTS + 1] = float(ks.penalties)
            if ks.plays:
                sc[_LEAD_SIZE] = float(ks.n)
        elif ph in (PH_BURY, PH_AFTER_BURIAL):
            leader = d.banker
        else:
            leader = h.start_seat
        if ph == PH_OVER:
            for c in h.kitty:
                out[_KITTY + c] += 1
            sc[6 if m.over else 5] = 1.0
        else:  # the kernel's phases PH_DEAL .. PH_PLAY are PHASES[0..4]
            sc[ph] = 1.0
        if d.declared:
            sc[_TRUMP_NT if d.trump < 0 else _TRUMP + d.trump] = 1.0
        else:
            sc[_TRUMP_UNKNOWN] = 1.0
        if d.banker >= 0:
            sc[_BANKER + (d.banker - seat) % 4] = 1.0
        else:
            sc[_BANKER_UNKNOWN] = 1.0
        if h.to_act >= 0:
            sc[_TO_ACT + (h.to_act - seat) % 4] = 1.0
        sc[_LEADER + (leader - seat) % 4] = 1.0
        sizes = h.sizes
        sc[_SIZES : _SIZES + 4] = sizes[seat:] + sizes[:seat]
        team = seat % 2
        levels = m.levels
        sc[_LEVEL] = float(h.level)
        sc[_LEVEL + 1] = float(levels[team])
        sc[_LEVEL + 2] = float(levels[1 - team])
        sc[_POINTS + 2] = float(d.counters)
        sc[_DEALT] = float(h.dealt)
        sc[_DEALT + 1] = float(m.hand_number)
        sc[_DECKS] = float(m.options.decks)
        sc[_DECKS + 1] = float(m.options.kitty_size)
        sc[_POSITION + self._trick_n] = 1.0
        if ks is not None:
            sc[_POSITION + 4] = float(self.points[seat % 2])
            sc[_POSITION + 5] = float(self.points[1 - seat % 2])
        out[_SCALARS:] = sc
        if ks is not None:
            v = self.voids
            out[_VOIDS : _VOIDS + 20] = np.concatenate((v[seat:], v[:seat])).reshape(-1)
        return _finish(out, m.options, self._suits if ks is not None else None)
