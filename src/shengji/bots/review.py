"""``shengji review RECORD --seat N``: the plays of one seat that the search bot judges
clearly worse in expectation than an alternative.

Every play the seat made in the record is searched again from that seat's view (so only
what the seat could know is used): the play made and the heuristic's best alternatives
are rolled out on the same sampled deals, and a play is marked when an alternative is
worth more by at least ``threshold`` levels and by two standard errors. Each mark carries
a :class:`~shengji.bots.reasons.Reason`: what the better play does that the played one
does not (it wins the trick, the played one gave points away...), or the search's figures
when nothing specific is found (:mod:`shengji.bots.reasons`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import Code, ShengjiError
from ..game.actions import Action, Play
from ..game.record import replay
from ..game.state import GameState
from ..game.views import seat_view
from ..rules.cards import Card
from ..words.i18n import cards_label
from .reasons import Reason, hand_end, searched, trick_after, why
from .rollouts import KernelRollout, Rollout
from .search import Budget, SearchBot

#: Levels an alternative must gain, on average, for a play to be marked.
THRESHOLD = 0.2


@dataclass(frozen=True, slots=True)
class Mark:
    """A play worth clearly less than the search bot's alternative."""

    index: int  # the action's index in the record
    hand: int  # hand number (0 = first)
    trick: int  # trick number in the hand (1 = first)
    order: int  # place in the trick (1 = led it, 4 = played last)
    played: tuple[Card, ...]
    better: tuple[Card, ...]
    gain: float  # expected levels the alternative is worth more
    se: float  # standard error of ``gain``
    deals: int  # sampled deals behind the figures
    #: Why ``better`` is better (None: the search's figures, :attr:`why`).
    reason: Reason | None = None

    @property
    def why(self) -> Reason:
        """The mark's reason: :attr:`reason`, else the search's own figures."""
        return self.reason or searched(self.better, self.gain, self.deals)

    def text(self, lang: str = "en") -> str:
        """One line describing the mark, suits as symbols, the play placed by hand, trick
        and turn in the trick, then the reason when it is more than the figures
        (``lang``: ``en``, ``zh`` or ``both``)."""
        if lang == "both":
            return f"{self.text('en')} | {self.text('zh')}"
        line = self.line(lang)
        if self.why.code == "search":
            return line
        return f"{line}: {self.why.text(lang)}"

    def line(self, lang: str = "en") -> str:
        """The mark's line without its reason."""
        played = cards_label([c.text for c in self.played], lang)
        better = cards_label([c.text for c in self.better], lang)
        figures = f"{self.gain:+.2f} ± {self.se:.2f}"
        if lang == "zh":
            who = "首家出牌" if self.order == 1 else f"第 {self.order} 家出牌"
            return (
                f"第 {self.hand + 1} 局第 {self.trick} 轮{who}: 出了 {played}; "
                f"出 {better} 平均多得 {figures} 级 ({self.deals} 次抽样)"
            )
        who = "leading" if self.order == 1 else f"{ordinal(self.order)} to play"
        return (
            f"hand {self.hand + 1}, trick {self.trick}, {who}: played {played}; "
            f"{better} is worth {figures} levels more ({self.deals} sampled deals)"
        )


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


def review(
    rec: dict[str, Any],
    seat: int,
    budget: Budget | None = None,
    seed: int = 0,
    threshold: float = THRESHOLD,
    hand: int | None = None,
    rollout: Rollout | None = None,
) -> Iterator[Mark]:
    """The marked plays of ``seat`` in a record, in order (the record is re-played).

    ``hand``: only the plays of that hand (0 = first; None: every hand). ``rollout``: how
    sampled deals are played out (default: informed light plays on the kernel,
    ``KernelRollout(light=True)``; :class:`~shengji.bots.search.ApplyRollout` plays the
    same policy through the game engine, about four times slower).
    """
    if not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ShengjiError(f"seat must be 0..3, not {seat!r}", code=Code.BAD_SEAT)
    budget = budget or Budget(rollouts=300)
    states: list[tuple[int, GameState, Play]] = []
    before: list[GameState] = []

    def step(st: GameState, who: int | None, action: Action, _events: list[Any]) -> None:
        prev = before[-1]
        before.append(st)
        if (
            who == seat
            and isinstance(action, Play)
            and prev.phase == "play"
            and (hand is None or prev.hand_number == hand)
        ):
            states.append((len(before) - 1, prev, action))

    first = replay({**rec, "actions": []})
    before.append(first)
    replay(rec, step)
    for index, st, action in states:
        view = seat_view(st, seat)
        # informed rollouts by default: no clock here
        bot = SearchBot(seat, seed, budget, rollout or KernelRollout(light=True))
        bot.heuristic.act(view)
        cands = bot.candidates(action.cards)
        if len(cands) < 2:
            continue
        evals = bot.evaluate(view, cands)
        if not evals:
            continue
        best = evals[0]
        if best.play == action.cards or best.n < 2:
            continue
        if best.diff >= threshold and best.diff > 2 * best.diff_se:
            found = why(
                st,
                seat,
                action.cards,
                best.play,
                trick_after(before, index, st),
                hand_end(before, index, st),
            )
            yield Mark(
                index=index - 1,
                hand=st.hand_number,
                trick=len(st.tricks) + 1,
                order=len(st.trick) + 1,
                played=action.cards,
                better=best.play,
                gain=best.diff,
                se=best.diff_se,
                deals=best.n,
                reason=found or searched(best.play, best.diff, best.n),
            )
