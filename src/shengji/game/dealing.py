"""The deal that runs by itself: a table of people plays paced deals
(``new_match(..., paced=True)``), dealt a round at a time (one card to every seat) at a
steady pace, with nobody asked at the draws and every seat free to show (亮主) at any
moment. :class:`DealClock` keeps that pace and the bots' part in it: a bot is asked when
a card reaches it and it holds a show, and a show it decides on is made ``delay`` seconds
later (a person at the table has as long to get there first), if it is still legal then.

The web server's rooms and the terminal's table against bots both deal with it; neither
ever waits on a person during the deal: saying nothing is not showing.

>>> from shengji import load_preset
>>> from shengji.game import apply, new_match
>>> st = new_match(load_preset("shuangsheng"), seed=4, paced=True)
>>> clock = DealClock(seconds=0.3, delay=0.6)
>>> clock.start(st, now=100.0)
>>> clock.due_round(100.1), clock.due_round(100.3)
(False, True)
>>> st, _ = apply(st, None, clock.next_deal(st))
>>> st.dealt, [len(h) for h in st.hands]
(4, [1, 1, 1, 1])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..rules.cards import Card
from .actions import Action, Deal, Declare
from .legal import legal_shows
from .state import GameState

DEAL_SECONDS = 0.3
"""Default seconds between two rounds of a paced deal (a 4-seat, 2-deck deal: 7.5 s)."""

DEAL_SECONDS_RANGE = (0.0, 2.0)
"""The pace a table may set (0: as fast as the table can deal, for tests and bots)."""

DECLARE_SECONDS = 10.0
"""Default seconds a person has to show in the round before the kitty, or to counter
after the burial (反主/炒底), before the silence is taken as not showing."""


def deal_total(st: GameState) -> int:
    """How many cards the deal hands out (the kitty stays)."""
    return len(st.deck_order) - len(st.kitty)


def is_dealing(st: GameState | None) -> bool:
    """Whether ``st`` is a paced deal that the table deals on."""
    return st is not None and st.paced and st.phase == "deal"


@dataclass
class DealClock:
    """The pace of paced deals, and the bots' shows on their way."""

    #: Seconds between two rounds of the deal.
    seconds: float = DEAL_SECONDS
    #: Seconds between a bot's decision to show and its show.
    delay: float = 0.6
    #: When the next round is due (the caller's clock: ``time.monotonic()``).
    next_round: float = 0.0
    #: The deal in progress: (hand number, redeals) of the state it was started for.
    deal: tuple[int, int] | None = None
    #: Each seat's card count when its bot was last asked.
    asked: dict[int, int] = field(default_factory=dict)
    #: Bots' shows on their way: seat -> (when, cards).
    pending: dict[int, tuple[float, tuple[Card, ...]]] = field(default_factory=dict)

    def start(self, st: GameState, now: float) -> None:
        """A new deal (a new hand, or a redeal): the first round is due ``seconds`` later."""
        self.deal = (st.hand_number, st.redeals)
        self.next_round = now + self.seconds
        self.asked.clear()
        self.pending.clear()

    def follow(self, st: GameState, now: float) -> None:
        """Start the clock when ``st`` is a deal it has not seen."""
        if (st.hand_number, st.redeals) != self.deal:
            self.start(st, now)

    def due_round(self, now: float) -> bool:
        """Whether the next round is due."""
        return now >= self.next_round - 1e-9

    def next_deal(self, st: GameState) -> Deal:
        """The table's next round: one card to every seat (fewer at the very end)."""
        return Deal(min(st.dealt + st.seats, deal_total(st)))

    def dealt(self, now: float) -> None:
        """A round was dealt at ``now``: the next is due ``seconds`` later."""
        self.next_round = max(self.next_round + self.seconds, now)

    def to_ask(self, st: GameState, seats: Iterable[int]) -> list[int]:
        """Of the bots' ``seats``, those to ask now: each holds a show, has no show on its
        way and was not asked since its last card."""
        out = []
        for seat in seats:
            held = len(st.hands[seat])
            if seat in self.pending or self.asked.get(seat) == held:
                continue
            self.asked[seat] = held
            if legal_shows(st, seat):
                out.append(seat)
        return out

    def decided(self, seat: int, action: Action, now: float) -> None:
        """A bot's answer: a show is made ``delay`` seconds from ``now``; anything else
        is not showing."""
        if isinstance(action, Declare):
            self.pending[seat] = (now + self.delay, action.cards)

    def due_shows(self, st: GameState, now: float) -> list[tuple[int, Declare]]:
        """The bots' shows whose time has come and that are still legal (the others are
        dropped: the bot is asked again at its next card)."""
        out = []
        for seat, (when, cards) in sorted(self.pending.items(), key=lambda kv: kv[1][0]):
            if when > now + 1e-9:
                continue
            del self.pending[seat]
            if cards in legal_shows(st, seat):
                out.append((seat, Declare(cards)))
        return out

    def wait(self, now: float) -> float:
        """Seconds until the next thing to do: a round, or a bot's show."""
        due = min([self.next_round, *(when for when, _ in self.pending.values())])
        return max(0.0, due - now)
