"""The move model of :mod:`shengji.moves` on the kernel's state: action masks of a
:class:`~shengji.kernel._core.KHand` for the seat to act, card by card.

:class:`KDecision` allows exactly the cards and ``DONE`` that
``shengji.moves.Decision(seat_view(...)).mask(selection)`` allows for the same game and
selection (``tests/test_env_kernel.py`` compares them along random games of every preset),
worked out from the kernel's int cards and count arrays:

- declaring: a prefix of a legal show (``KHand.legal_shows``), ``DONE`` on a whole show
  or on nothing (pass);
- burying: any card still held until the kitty is full, ``DONE`` when it is;
- leading: any card still held of the effective suit of the first card, ``DONE`` on any
  selection (a unit, or a throw attempt that the kernel checks against the other hands);
- following: a card that keeps the selection inside some family of legal follows
  (``cores``: fixed cards plus ``free`` distinct cards of a pool), ``DONE`` once the
  selection has the lead's size (it is then one of those follows);
- calling friends (找朋友): each call is its card repeated ``ordinal`` times, a card other
  than the last call's starts the next call; a callable card (``KHand.callable_card``)
  not called yet while fewer than ``calls`` calls are chosen, the last call's card again
  up to the number of decks, ``DONE`` once exactly ``calls`` calls are chosen
  (:attr:`KDecision.calls`, :attr:`KDecision.ordinals`).

The selection is kept here: :meth:`KDecision.add` takes the next card and updates
:attr:`KDecision.mask` in place (a few scalar writes for a burial or a lead).
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from ..kernel._core import PH_BURY, PH_CALL, PH_PLAY
from ..moves import DONE, N_ACTIONS

if TYPE_CHECKING:
    from ..kernel._core import KHand, Tables

#: Kinds of :class:`KDecision` (the ``kind`` of ``shengji.moves.Decision``, as ints).
DECLARE: Final = 0
BURY: Final = 1
LEAD: Final = 2
FOLLOW: Final = 3
CALL: Final = 4
KIND_NAMES: Final = ("declare", "bury", "lead", "follow", "call")

Mask = npt.NDArray[np.int8]
#: ``bytes.translate`` table: a count (0..255) to 0/1.
_HELD = bytes([0] + [1] * 255)

# Per kernel tables (kept alive with them): a 0/1 mask of the cards of each effective suit.
_SUIT_MASKS: dict[int, tuple[Tables, list[Mask]]] = {}


def suit_masks(t: Tables) -> list[Mask]:
    """For each effective suit 0..4 (4: trumps), which card kinds are of it."""
    hit = _SUIT_MASKS.get(id(t))
    if hit is None or hit[0] is not t:
        suit_of = np.array(t.suit_of, dtype=np.int8)
        masks = [(suit_of == s).astype(np.int8) for s in range(5)]
        if len(_SUIT_MASKS) >= 1024:
            _SUIT_MASKS.clear()
        hit = _SUIT_MASKS[id(t)] = (t, masks)
    return hit[1]


def held(hand: list[int]) -> Mask:
    """A 0/1 mask of the card kinds that ``hand`` (54 counts) holds."""
    return np.frombuffer(bytes(hand).translate(_HELD), dtype=np.int8)


class KDecision:
    """One decision of the seat to act in ``h``: :attr:`mask` for the selection so far
    (empty at first), :meth:`add` to choose the next card, :attr:`cards` the selection."""

    __slots__ = (
        "callable",
        "calls",
        "cards",
        "decks",
        "extra",
        "fix",
        "free",
        "kind",
        "mask",
        "n",
        "ordinals",
        "pool",
        "rem",
        "sel",
        "shows",
        "suit_of",
        "tables",
        "valid",
    )

    def __init__(self, h: KHand, core: ModuleType | Any) -> None:
        seat = h.to_act
        hand = h.hands[seat]
        self.cards: list[int] = []
        mask = self.mask = np.zeros(N_ACTIONS, dtype=np.int8)
        self.n = 0
        ph = h.phase
        if ph == PH_PLAY:
            ks = h.play
            assert ks is not None
            self.tables = t = ks.t
            if ks.plays:
                self.kind = FOLLOW
                self._follow(core, t, ks.units, ks.n, hand)
            else:
                self.kind = LEAD
                self.rem = list(hand)
                self.suit_of = t.suit_of
                mask[:DONE] = held(hand)
        elif ph == PH_CALL:
            self.kind = CALL
            self.n = h.r.calls
            self.decks = h.r.decks
            self.calls: list[int] = []
            self.ordinals: list[int] = []
            callable_ = self.callable = np.zeros(DONE, dtype=np.int8)
            for c in range(52):
                if h.callable_card(c):
                    callable_[c] = 1
            mask[:DONE] = callable_
        elif ph == PH_BURY:
            self.kind = BURY
            self.rem = list(hand)
            self.n = h.r.kitty_size
            mask[:DONE] = held(hand)
        else:
            self.kind = DECLARE
            shows: dict[int, list[int]] = {}
            for s in h.legal_shows(seat):
                shows.setdefault(s >> 3, []).append(s & 7)
            self.shows = shows
            for c in shows:
                mask[c] = 1
            mask[DONE] = 1

    @property
    def kind_name(self) -> str:
        """``declare``, ``bury``, ``lead``, ``follow`` or ``call`` (as
        ``moves.Decision.kind``)."""
        return KIND_NAMES[self.kind]

    # -- following --------------------------------------------------------------------------

    def _follow(
        self, core: ModuleType | Any, t: Tables, units: Any, n: int, hand: list[int]
    ) -> None:
        self.n = n
        mask = self.mask
        if n == 1:  # a card of the led suit, or any card when void
            suit = units[0].suit
            cards = held(hand)
            np.bitwise_and(cards, suit_masks(t)[suit], out=mask[:DONE])
            if not mask.any():  # void in the led suit: any card
                mask[:DONE] = cards
            return
        families = core.cores(t, units, n, hand)
        count = len(families)
        fix = np.zeros((count, DONE), dtype=np.int8)
        pool = np.zeros((count, DONE), dtype=np.bool_)
        free = np.zeros(count, dtype=np.int16)
        for i, fam in enumerate(families):
            row = fix[i]
            for c in fam.fixed:
                row[c] += 1
            pool[i, fam.pool] = True
            free[i] = fam.free
        self.fix = fix
        self.pool = pool
        self.free = free
        self.valid = np.ones(count, dtype=np.bool_)
        self.extra = np.zeros(count, dtype=np.int16)
        self.sel = np.zeros(DONE, dtype=np.int8)
        allowed = (fix > 0).any(axis=0) | pool[free > 0].any(axis=0)
        mask[:DONE] = allowed

    def _follow_add(self, c: int) -> None:
        sel = self.sel
        sel[c] += 1
        s = int(sel[c])
        over = self.fix[:, c] < s
        # a card beyond the family's fixed ones is one of its free picks: once, from the pool
        if s == 1:
            taken = over & self.pool[:, c] & (self.extra < self.free)
            self.valid &= ~over | taken
            self.extra += taken & self.valid
        else:
            self.valid &= ~over
        mask = self.mask
        if len(self.cards) == self.n:  # a whole follow (it fits a family): nothing more
            mask[:] = 0
            mask[DONE] = 1
            return
        v = self.valid
        more = v & (self.extra < self.free)
        allowed = (sel < self.fix[v]).any(axis=0)
        if more.any():
            allowed |= self.pool[more].any(axis=0) & (sel == 0)
        mask[:DONE] = allowed

    # -- calling friends --------------------------------------------------------------------

    def _call_add(self, c: int) -> None:
        calls, ords = self.calls, self.ordinals
        if calls and calls[-1] == c:
            ords[-1] += 1
        else:
            calls.append(c)
            ords.append(1)
            self.callable[c] = 0  # a card is called once (its run is its ordinal)
        mask = self.mask
        if len(calls) < self.n:
            mask[:DONE] = self.callable
        else:
            mask[:] = 0
        mask[c] = 1 if ords[-1] < self.decks else 0
        mask[DONE] = 1 if len(calls) == self.n else 0

    # -- the next card ----------------------------------------------------------------------

    def add(self, c: int) -> Mask:
        """Add card ``c`` (allowed by :attr:`mask`) to the selection; the new mask."""
        cards = self.cards
        cards.append(c)
        mask = self.mask
        kind = self.kind
        if kind == LEAD:
            rem = self.rem
            rem[c] -= 1
            if len(cards) == 1:
                mask[:DONE] &= suit_masks(self.tables)[self.suit_of[c]]
                mask[DONE] = 1
            mask[c] = 1 if rem[c] > 0 else 0
        elif kind == FOLLOW:
            if self.n == 1:
                mask[:] = 0
                mask[DONE] = 1
            else:
                self._follow_add(c)
        elif kind == CALL:
            self._call_add(c)
        elif kind == BURY:
            rem = self.rem
            rem[c] -= 1
            if len(cards) == self.n:
                mask[:] = 0
                mask[DONE] = 1
            else:
                mask[c] = 1 if rem[c] > 0 else 0
        else:
            counts = self.shows[c]
            k = len(cards)
            mask[:] = 0
            if max(counts) > k:
                mask[c] = 1
            mask[DONE] = 1 if k in counts else 0
        return mask
