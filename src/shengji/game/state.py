"""The game's state: a whole table as an immutable value (:class:`GameState`, with its
tricks and plays), and what legal-action queries read of a table (:class:`Table`: a
state or a seat's view). The flow that makes states is :mod:`shengji.game.flow`; the
queries :mod:`shengji.game.legal`; the kernel match kept behind a state
:mod:`shengji.game.fold`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ..rules.cards import Card, rank_text
from ..rules.declaring import (
    DeclareState,
)
from ..rules.friends import CalledFriend
from ..rules.options import RuleOptions
from ..rules.phases import Phase
from ..rules.scoring import HandResult
from ..rules.seats import FIXED_TEAMS
from ..rules.trump import TrumpContext
from ..rules.units import Lead

if TYPE_CHECKING:
    pass

__all__ = [
    "Event",
    "GameState",
    "HandResult",
    "Table",
    "TableFacts",
    "Trick",
    "TrickPlay",
]

Event = dict[str, Any]  # the kernel's own alias is the same type


class TrickPlay(NamedTuple):
    """One seat's play in a trick; ``attempted`` is the whole throw when it failed,
    ``blocked_by`` then the first seat (after the thrower) that could beat the unit
    played instead, and ``penalty`` the change the failure made to the collectors'
    points (or, with ``throw_penalty = stake``, 0)."""

    seat: int
    cards: tuple[Card, ...]
    attempted: tuple[Card, ...] | None = None
    blocked_by: int | None = None
    penalty: int = 0


class Trick(NamedTuple):
    """A finished trick: plays in order (leader first), winner seat and its points."""

    plays: tuple[TrickPlay, ...]
    winner: int
    points: int


class TableFacts:
    """What the declarations and friend calls decide, for a game state and a seat's view
    alike."""

    __slots__ = ()
    options: RuleOptions
    declare: DeclareState
    calls: tuple[CalledFriend, ...]

    @property
    def banker(self) -> int | None:
        """The banker seat (None in a first hand before anyone declared)."""
        return self.declare.banker

    @property
    def trump(self) -> str | None:
        """``"S"``..``"NT"``, or None before trump is known."""
        return self.declare.trump_text

    def is_banker_side(self, seat: int) -> bool:
        """True if ``seat`` is known to be on the banker's side this hand (找朋友: the
        banker and the friends found so far)."""
        banker = self.declare.banker
        if banker is None:
            return False
        if self.options.friends:
            return seat == banker or any(c.seat == seat for c in self.calls)
        return FIXED_TEAMS[seat] == FIXED_TEAMS[banker]

    def side_of(self, seat: int) -> int | None:
        """``seat``'s side as far as the table knows: 0 the banker's, 1 the collectors',
        None not yet known (找朋友 before every call is answered, or no banker yet)."""
        banker = self.declare.banker
        if banker is None:
            return None
        if self.is_banker_side(seat):
            return 0
        if not self.options.friends:
            return 1
        if self.calls and all(c.seat is not None for c in self.calls):
            return 1
        return None

    @property
    def friends_found(self) -> tuple[int, ...]:
        """找朋友: the seats that joined the banker's side so far, in the order found."""
        out: list[int] = []
        banker = self.declare.banker
        for c in self.calls:
            if c.seat is not None and c.seat != banker and c.seat not in out:
                out.append(c.seat)
        return tuple(out)


@dataclass(frozen=True, kw_only=True)
class GameState(TableFacts):
    """The whole state of a match and of its current hand. Immutable.

    The fields are grouped by the phase that writes them; a new hand (``_fresh_hand``)
    resets every group below "the match".
    """

    # -- the match: every phase --
    options: RuleOptions
    seed: int
    phase: Phase
    #: Levels by holder (:func:`shengji.rules.seats.level_holder`): per team, or per player.
    levels: tuple[int, ...]
    progress: tuple[int, ...]
    coins: tuple[int, int]
    hand_number: int
    results: tuple[HandResult, ...]
    #: The team that won the match (``match_over``).
    winner: int | None = None
    #: Fixed deck orders for the first hands (scripted deals); empty for seeded shuffles.
    stacked: tuple[tuple[Card, ...], ...] = ()
    #: Paced deals: nobody is asked at the draws; the table deals on (:class:`Deal`) at its
    #: own pace and any seat shows whenever it holds a show.
    paced: bool = False
    # -- this hand, dealing (``deal``): the shuffle and who holds what --
    redeals: int
    start_seat: int
    deck_order: tuple[Card, ...]
    dealt: int
    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    level: int
    #: The trump context of the hand (trump taken as NT while undecided, for sorting).
    ctx: TrumpContext = dataclasses.field(default=None, compare=False)  # type: ignore[assignment]
    # -- declaring (``deal`` shows, the declaring windows, counter-declaring) --
    declare: DeclareState
    to_act: int | None
    window_order: tuple[int, ...] = ()
    window_pos: int = 0
    passes: int = 0
    # -- the kitty (``bury`` and the rounds of 炒底/反底) --
    buried_by: tuple[int, ...] = ()
    kitty_log: tuple[tuple[int, str, tuple[Card, ...]], ...] = ()
    # -- 找朋友 (``call``): the banker's calls and who answered them --
    calls: tuple[CalledFriend, ...] = ()
    # -- play (``play``, through the end of the hand) --
    leader: int = 0
    trick: tuple[TrickPlay, ...] = ()
    lead: Lead | None = None
    tricks: tuple[Trick, ...] = ()
    trick_points: int = 0
    penalties: int = 0
    stake_penalties: tuple[int, int] = (0, 0)

    # -- derived --------------------------------------------------------------------------
    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds."""
        return self.hands[seat]

    @property
    def seats(self) -> int:
        """How many seats play this hand."""
        return len(self.hands)

    def is_over(self) -> bool:
        """True when the match is over (``match_over``: no seat has anything to do). A
        hand is over at ``phase == "hand_over"`` (``Continue`` deals the next)."""
        return self.phase == "match_over"

    def result(self) -> HandResult | None:
        """The result of the last finished hand (the score sheet's last line: points,
        outcome, the levels it moved), None before the first hand ends; at the end of
        the match it is the last hand's, and :attr:`winner` the winning team (or seat in
        找朋友)."""
        return self.results[-1] if self.results else None

    def text(self, lang: str = "en") -> str:
        """The table as lines of text in ``lang`` (``en`` or ``zh``), suits as symbols: the
        rules, hand, phase, level, trump and banker; the collectors' points and the
        levels; every seat's hand (all of them: a state is the whole table, a seat sees
        its own with :func:`shengji.game.views.seat_view`), sorted as the trump orders them;
        the trick in progress; whose turn it is (``str(state)`` is the English text)."""
        from ..words.i18n import t, trump_label

        def seat(s: int) -> str:
            return t("seat.n", lang, n=s)

        def cards(cs: Iterable[Card]) -> str:
            return " ".join(c.symbol for c in cs) or "-"

        banker = self.declare.banker
        head = t(
            "state.head",
            lang,
            rules=self.options.name,
            hand=self.hand_number + 1,
            phase=t(f"phase.{self.phase}", lang),
            level=rank_text(self.level),
            trump=trump_label(self.trump, lang),
            banker="-" if banker is None else seat(banker),
        )
        levels = " · ".join(
            t(
                "state.level",
                lang,
                who=seat(i) if self.options.friends else t("state.team", lang, a=i, b=i + 2),
                level=rank_text(v),
            )
            for i, v in enumerate(self.levels)
        )
        lines = [head, t("state.points", lang, points=self.trick_points, levels=levels)]
        for s, hand in enumerate(self.hands):
            mark = t("state.banker", lang) if s == banker else ""
            lines.append(f"{seat(s)}{mark}: {cards(self.ctx.sorted(hand))}")
        if self.trick:
            plays = " → ".join(f"{seat(p.seat)} {cards(p.cards)}" for p in self.trick)
            lines.append(t("state.trick", lang, plays=plays))
        if self.to_act is not None:
            lines.append(t("state.to_act", lang, seat=seat(self.to_act)))
        elif self.phase == "hand_over":
            lines.append(t("state.next_hand", lang))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its kernel match (rebuilt from the fields when needed)."""
        state = dict(self.__dict__)
        state.pop(_KERNEL, None)
        return state


class Table(Protocol):
    """What legal-action queries read: a :class:`GameState`, or a seat's
    :class:`~shengji.game.views.SeatView` (which can only give its own hand)."""

    @property
    def options(self) -> RuleOptions: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def level(self) -> int: ...
    @property
    def declare(self) -> DeclareState: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def ctx(self) -> TrumpContext: ...
    @property
    def trick(self) -> tuple[TrickPlay, ...]: ...
    @property
    def lead(self) -> Lead | None: ...
    def hand_of(self, seat: int) -> tuple[Card, ...]: ...


#: Where a state keeps its kernel match: ``(id(state), match)``, so that a copy of the
#: state's ``__dict__`` (``evolve``) does not take it along.
_KERNEL = "_kernel"
