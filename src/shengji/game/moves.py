"""The move model for programs: every action :func:`~shengji.game.apply` accepts, chosen
card by card from a finite, small set of moves, with no action ever listed whole.

``legal_actions`` lists whole actions, which is not always cheap or complete: a burial
of 8 cards out of 33 has about 13.9 million choices, and at a lead it lists the one-unit
leads only (a throw, any other set of cards of one suit, may also be attempted). Here an
action is built from 54 card kinds (:attr:`~shengji.rules.cards.Card.index`) and ``DONE``: at
most 55 moves a step, at most ``len(cards) + 1`` steps an action, for every decision of
every phase. A card is allowed when the selection with it can still be completed to an
action ``apply`` accepts; ``DONE`` only when the selection is one (on an empty selection
it means pass, where passing is legal). The RL environments (:mod:`shengji.env`) give the
same masks from the kernel's state (:mod:`shengji.env.masks`); a search or a bot in
another language can use it the same way.
Everything is worked out from what the seat may see
(:func:`~shengji.game.views.seat_view`) by the rules modules, without listing burials or
follows:

- declaring (``deal``, ``before_kitty``, ``after_burial``): a prefix of a legal show
  (:func:`~shengji.game.legal_shows`), ``DONE`` on a whole show or on nothing (pass);
- burying: any cards held until the kitty is full (every burial is reachable);
- leading: any cards held of one effective suit: a unit, or a throw attempt that
  :func:`~shengji.game.apply` checks against the other hands (every attempt is
  reachable; ``DONE`` once :func:`~shengji.rules.leads.check_lead` accepts the selection);
- following: a sub-multiset of some legal follow, found from the follow families of
  :mod:`shengji.rules.follow` (fixed cards plus free cards of a pool), ``DONE`` when
  :func:`~shengji.rules.follow.check_follow` accepts the selection;
- calling friends (找朋友, ``call``): each call is its card repeated ``ordinal`` times
  (``SA SA`` is ``SA:2``, "the 2nd ♠A"), the calls one after another: a card other than
  the last one starts the next call. A card may be added when it is callable
  (:func:`~shengji.rules.friends.callable_cards`) and starts a call while fewer than
  ``options.calls`` are chosen and no earlier call has that card, or when it repeats the
  last call's card up to the number of decks; ``DONE`` once exactly ``options.calls``
  calls are chosen. So one card is called at most once in a ``Call`` chosen card by
  card: ``SA:1 SA:2`` together (legal for ``apply``) is the one action that cannot be
  reached (two calls of one card in a row would read as one call).

``Continue`` (the next hand, after ``hand_over``) is the one action without a decision.

>>> from shengji.game import new_match
>>> from shengji.rules.presets import load_preset
>>> from shengji.game.views import seat_view
>>> st = new_match(load_preset("shuangsheng"), seed=3)
>>> d = Decision(seat_view(st, st.to_act))
>>> d.kind, d.allows_done(())
('declare', True)
>>> d.action(())
Pass()
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from ..errors import Code, ShengjiError
from ..rules.cards import Card
from ..rules.follow import check_follow, follow_families
from ..rules.friends import FriendCall, callable_cards
from ..rules.leads import check_lead
from ..rules.phases import DECLARING_PHASES
from .actions import Action, ActionError, Bury, Call, Declare, Pass, Play
from .legal import legal_shows
from .views import SeatView

#: The ``DONE`` action index (after the 54 card kinds 0..53).
DONE = 54
#: Size of the action space: 54 card kinds and ``DONE``.
N_ACTIONS = 55

Kind = Literal["declare", "bury", "lead", "follow", "call"]


class _Family:
    """Legal follows ``fixed + E`` for every ``free``-card subset ``E`` of ``pool``
    (distinct cards), as card-index counts."""

    __slots__ = ("fixed", "free", "pool")

    def __init__(self, fixed: Sequence[Card], pool: Sequence[Card], free: int) -> None:
        self.fixed = Counter(c.index for c in fixed)
        self.pool = frozenset(c.index for c in pool)
        self.free = free

    def allowed(self, sel: Counter[int]) -> set[int]:
        """Card indexes that extend ``sel`` within this family (empty if ``sel`` does not
        fit it)."""
        extra = 0
        for i, n in sel.items():
            over = n - self.fixed[i]
            if over > 0:
                if over > 1 or i not in self.pool:
                    return set()
                extra += 1
        if extra > self.free:
            return set()
        out = {i for i, n in self.fixed.items() if sel[i] < n}
        if extra < self.free:
            out.update(i for i in self.pool if sel[i] == 0)
        return out


class Decision:
    """One decision of a seat: built once from the seat's view, then asked which card may
    come next for each partial selection."""

    def __init__(self, view: SeatView) -> None:
        seat = view.seat
        if seat is None or view.to_act != seat:
            raise ActionError("only the seat to act decides", code=Code.NOT_YOUR_TURN)
        self.view = view
        self.hand = view.hand
        self.held = Counter(c.index for c in self.hand)
        self.shows: list[tuple[Card, ...]] = []
        self.families: list[_Family] = []
        self.callable: frozenset[int] = frozenset()
        self.kind: Kind
        if view.phase in DECLARING_PHASES:
            self.kind = "declare"
            self.shows = legal_shows(view, seat)
        elif view.phase == "bury":
            self.kind = "bury"
        elif view.phase == "play" and view.trick:
            assert view.lead is not None
            self.kind = "follow"
            self.families = [
                _Family(fixed, pool, free)
                for fixed, pool, free in follow_families(view.ctx, view.lead, self.hand)
            ]
        elif view.phase == "play":
            self.kind = "lead"
        elif view.phase == "call":
            self.kind = "call"
            self.callable = frozenset(c.index for c in callable_cards(view.ctx))
        else:
            raise ActionError(f"no decision in phase {view.phase}", params={"phase": view.phase})

    def allowed_cards(self, selection: Sequence[Card]) -> set[int]:
        """Indexes of the cards that may be added to ``selection``."""
        sel = Counter(c.index for c in selection)
        if self.kind == "declare":
            return {
                s[0].index
                for s in self.shows
                if len(s) > len(selection) and all(i == s[0].index for i in sel)
            }
        if self.kind == "bury":
            if len(selection) >= self.view.options.kitty_size:
                return set()
            return {i for i, n in self.held.items() if sel[i] < n}
        if self.kind == "call":
            runs = calls_of(selection)
            opts = self.view.options
            calls: set[int] = set()
            if runs and runs[-1].ordinal < opts.decks:
                calls.add(runs[-1].card.index)
            if len(runs) < opts.calls:
                calls |= self.callable - {c.card.index for c in runs}
            return calls
        if self.kind == "lead":
            free = {i for i, n in self.held.items() if sel[i] < n}
            if not selection:
                return free
            suit_of = self.view.ctx.suit_of
            suit = suit_of[selection[0].index]
            return {i for i in free if suit_of[i] == suit}
        out: set[int] = set()
        for fam in self.families:
            out |= fam.allowed(sel)
        return out

    def allows_done(self, selection: Sequence[Card]) -> bool:
        """True if ``selection`` is a whole legal action (empty: pass, when legal)."""
        if self.kind == "declare":
            return not selection or tuple(selection) in self.shows
        if self.kind == "bury":
            return len(selection) == self.view.options.kitty_size
        if self.kind == "call":
            return len(calls_of(selection)) == self.view.options.calls
        if not selection:
            return False
        try:
            if self.kind == "lead":
                check_lead(self.view.ctx, self.hand, selection)
            else:
                assert self.view.lead is not None
                check_follow(self.view.ctx, self.view.lead, self.hand, selection)
        except ShengjiError:
            return False
        return True

    def mask(self, selection: Sequence[Card]) -> list[bool]:
        """The action mask: 54 card kinds then ``DONE``."""
        allowed = self.allowed_cards(selection)
        out = [i in allowed for i in range(DONE)]
        out.append(self.allows_done(selection))
        return out

    def action(self, selection: Sequence[Card]) -> Action:
        """The game action that ``DONE`` on ``selection`` takes."""
        cards = tuple(selection)
        if self.kind == "declare":
            return Declare(cards) if cards else Pass()
        if self.kind == "bury":
            return Bury(cards)
        if self.kind == "call":
            return Call(calls_of(cards))
        return Play(cards)


def calls_of(selection: Sequence[Card]) -> tuple[FriendCall, ...]:
    """The friend calls a card-by-card selection stands for: each run of one card is a
    call, its length the ordinal (``SA SA HK`` is ``SA:2 HK:1``)."""
    out: list[FriendCall] = []
    for c in selection:
        if out and out[-1].card == c:
            out[-1] = FriendCall(c, out[-1].ordinal + 1)
        else:
            out.append(FriendCall(c, 1))
    return tuple(out)


def action_indexes(action: Action) -> list[int]:
    """The action indexes that choose ``action`` card by card, ``DONE`` last (a call: its
    card ``ordinal`` times, the calls in order)."""
    if isinstance(action, Call):
        return [c.card.index for c in action.calls for _ in range(c.ordinal)] + [DONE]
    cards = action.cards if isinstance(action, Declare | Bury | Play) else ()
    return [c.index for c in cards] + [DONE]
