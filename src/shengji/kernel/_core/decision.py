"""The RL environments' decision: :class:`KDecision`, the seat to act's decision taken card
by card (its action mask of 55 actions, the selection, applying it)."""

from __future__ import annotations

from typing import Final

from .cards import Tables, Unit
from .declare import PH_BURY, PH_CALL, PH_PLAY
from .follow import cores
from .hand import KHand

#: Kinds of :class:`KDecision` (``shengji.game.moves.Decision.kind``, as ints).
DEC_DECLARE: Final = 0
DEC_BURY: Final = 1
DEC_LEAD: Final = 2
DEC_FOLLOW: Final = 3
DEC_CALL: Final = 4
#: The action that applies the selection (``shengji.game.moves.DONE``); 55 actions in all.
DONE: Final = 54
N_ACTIONS: Final = 55


#: The lists a :class:`KDecision` of another kind never changes.
_NONE: Final[list[int]] = []
_NO_ROWS: Final[list[list[int]]] = []
_NO_FLAGS: Final[list[bool]] = []


class KDecision:
    """The decision of the seat to act in ``h``, card by card (the move model of
    ``shengji.game.moves`` on the kernel's state): :attr:`mask` (55 ints, 0/1) for the
    selection so far, :meth:`add` to choose the next card, :attr:`cards` the selection.

    - declaring: a prefix of a legal show (``legal_shows``), ``DONE`` on a whole show or on
      nothing (pass);
    - burying: any card still held until the kitty is full, ``DONE`` when it is;
    - leading: any card still held of the effective suit of the first card, ``DONE`` on
      any selection (a unit, or a throw attempt that the kernel checks);
    - following: a card that keeps the selection inside some family of legal follows
      (:func:`cores`: fixed cards plus ``free`` distinct cards of a pool), ``DONE`` once
      the selection has the lead's size;
    - calling friends (找朋友): a callable card not called yet while fewer than ``calls``
      calls are chosen, or the last call's card again up to the decks; ``DONE`` on exactly
      ``calls`` calls (:attr:`calls`, :attr:`ordinals`)."""

    def __init__(self, h: KHand) -> None:
        seat = h.to_act
        hand = h.hands[seat]
        self.cards: list[int] = []
        mask = self.mask = [0] * N_ACTIONS
        self.n = 0
        # what each kind keeps (the others share empty lists they never change: a
        # decision is made at every step of an environment, its lists are garbage after)
        self.rem: list[int] = _NONE
        self.suit_of: list[int] = _NONE
        #: Declaring: for each card, the counts of its legal shows as bits.
        self.shows: list[int] = _NONE
        self.calls: list[int] = _NONE
        self.ordinals: list[int] = _NONE
        self.callable: list[int] = _NONE
        self.decks = h.r.decks
        self.fix: list[list[int]] = _NO_ROWS
        self.pool: list[list[int]] = _NO_ROWS
        self.free: list[int] = _NONE
        self.valid: list[bool] = _NO_FLAGS
        self.extra: list[int] = _NONE
        self.sel: list[int] = _NONE
        ph = h.phase
        if ph == PH_PLAY:
            ks = h.play
            assert ks is not None
            self.suit_of = ks.t.suit_of
            if ks.plays:
                self.kind = DEC_FOLLOW
                self._follow(ks.t, ks.units, ks.n, hand)
            else:
                self.kind = DEC_LEAD
                self.rem = list(hand)
                for c in range(54):
                    if hand[c]:
                        mask[c] = 1
        elif ph == PH_CALL:
            self.kind = DEC_CALL
            self.n = h.r.calls
            self.calls = []
            self.ordinals = []
            callable_ = self.callable = [0] * 54
            for c in range(52):
                if h.callable_card(c):
                    callable_[c] = 1
                    mask[c] = 1
        elif ph == PH_BURY:
            self.kind = DEC_BURY
            self.rem = list(hand)
            self.n = h.r.kitty_size
            for c in range(54):
                if hand[c]:
                    mask[c] = 1
        else:
            self.kind = DEC_DECLARE
            shows = self.shows = [0] * 54
            for s in h.legal_shows(seat):
                shows[s >> 3] |= 1 << (s & 7)
                mask[s >> 3] = 1
            mask[DONE] = 1

    def _follow(self, t: Tables, units: list[Unit], n: int, hand: list[int]) -> None:
        self.n = n
        mask = self.mask
        if n == 1:  # a card of the led suit, or any card when void
            suit = units[0].suit
            suit_of = t.suit_of
            void = True
            for c in range(54):
                if hand[c] and suit_of[c] == suit:
                    mask[c] = 1
                    void = False
            if void:
                for c in range(54):
                    if hand[c]:
                        mask[c] = 1
            return
        self.sel = [0] * 54
        self.fix, self.pool, self.free, self.valid, self.extra = [], [], [], [], []
        for fam in cores(t, units, n, hand):
            row = [0] * 54
            for c in fam.fixed:
                row[c] += 1
                mask[c] = 1
            pool = [0] * 54
            for c in fam.pool:
                pool[c] = 1
                if fam.free > 0:
                    mask[c] = 1
            self.fix.append(row)
            self.pool.append(pool)
            self.free.append(fam.free)
            self.valid.append(True)
            self.extra.append(0)

    def _follow_add(self, c: int) -> None:
        sel = self.sel
        sel[c] += 1
        s = sel[c]
        fix, pool, free, valid, extra = self.fix, self.pool, self.free, self.valid, self.extra
        count = len(fix)
        # a card beyond the family's fixed ones is one of its free picks: once, from the pool
        for i in range(count):
            if valid[i] and fix[i][c] < s:
                if s == 1 and pool[i][c] and extra[i] < free[i]:
                    extra[i] += 1
                else:
                    valid[i] = False
        mask = self.mask
        for k in range(N_ACTIONS):
            mask[k] = 0
        if len(self.cards) == self.n:  # a whole follow (it fits a family): nothing more
            mask[DONE] = 1
            return
        for i in range(count):
            if not valid[i]:
                continue
            row = fix[i]
            more = extra[i] < free[i]
            prow = pool[i]
            for k in range(54):
                if sel[k] < row[k] or (more and prow[k] and sel[k] == 0):
                    mask[k] = 1

    def _call_add(self, c: int) -> None:
        calls, ords = self.calls, self.ordinals
        if calls and calls[-1] == c:
            ords[-1] += 1
        else:
            calls.append(c)
            ords.append(1)
            self.callable[c] = 0  # a card is called once (its run is its ordinal)
        mask = self.mask
        more = len(calls) < self.n
        for k in range(54):
            mask[k] = self.callable[k] if more else 0
        mask[c] = 1 if ords[-1] < self.decks else 0
        mask[DONE] = 1 if len(calls) == self.n else 0

    def add(self, c: int) -> None:
        """Add card ``c`` (allowed by :attr:`mask`) to the selection; :attr:`mask` is then
        the new mask."""
        cards = self.cards
        cards.append(c)
        mask = self.mask
        kind = self.kind
        if kind == DEC_LEAD:
            rem = self.rem
            rem[c] -= 1
            if len(cards) == 1:
                suit_of = self.suit_of
                suit = suit_of[c]
                for k in range(54):
                    if mask[k] and suit_of[k] != suit:
                        mask[k] = 0
                mask[DONE] = 1
            mask[c] = 1 if rem[c] > 0 else 0
        elif kind == DEC_FOLLOW:
            if self.n == 1:
                for k in range(N_ACTIONS):
                    mask[k] = 0
                mask[DONE] = 1
            else:
                self._follow_add(c)
        elif kind == DEC_CALL:
            self._call_add(c)
        elif kind == DEC_BURY:
            rem = self.rem
            rem[c] -= 1
            if len(cards) == self.n:
                for k in range(N_ACTIONS):
                    mask[k] = 0
                mask[DONE] = 1
            else:
                mask[c] = 1 if rem[c] > 0 else 0
        else:
            bits = self.shows[c]
            k = len(cards)
            for i in range(N_ACTIONS):
                mask[i] = 0
            if bits >> (k + 1):
                mask[c] = 1
            mask[DONE] = (bits >> k) & 1

    def apply(self, h: KHand) -> None:
        """Take the decision with the selection so far (``mask[DONE]`` is 1) in ``h``."""
        cards = self.cards
        kind = self.kind
        if kind == DEC_DECLARE:
            if cards:
                h.declare(cards[0], len(cards))
            else:
                h.pass_turn()
        elif kind == DEC_BURY:
            h.bury(cards)
        elif kind == DEC_CALL:
            h.call_friends(self.calls, self.ordinals)
        else:
            h.play_cards(cards)
