"""The rollout API for search: a kernel state from a game state or a seat's view (with
sampled hands), cheap copies, play-outs with a random or pluggable policy, and the hand's
score by the rules core's own scoring (``kitty_bonus``, ``j_hook_width``, ``hand_outcome``).

>>> import random
>>> from shengji.rules.presets import load_preset
>>> from shengji.game import new_match, apply
>>> from shengji.bots.random_bot import random_action
>>> st, rng = new_match(load_preset("shuangsheng"), seed=5), random.Random(5)
>>> while st.phase != "play":
...     st, _ = apply(st, st.to_act, random_action(st, st.to_act, rng))
>>> ks = from_table(st)
>>> res = play_out(ks.copy(), rng=random.Random(1))
>>> res.points == res.trick_points + res.kitty_points * res.kitty_multiplier + res.penalties
True
>>> ks.sizes == [len(h) for h in st.hands]   # play_out worked on a copy
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from ..errors import ActionError, Code
from ..kernel.access import CoreKernel, core
from ..rules.cards import ALL_CARDS, Card, card_from_index, format_cards, points
from ..rules.options import RuleOptions
from ..rules.scoring import HandOutcome, score_hand, scoring_levels
from ..rules.seats import start_teams
from ..rules.trump import TrumpContext

#: An event as the game engine gives it (``shengji.game.Event``).
Event = dict[str, Any]


class PlayTable(Protocol):
    """What the kernel reads of a table in the play phase: a ``GameState`` or a seat's
    ``SeatView`` (the kernel imports neither: the game engine is built on the kernel)."""

    @property
    def phase(self) -> str: ...
    @property
    def options(self) -> RuleOptions: ...
    @property
    def ctx(self) -> TrumpContext: ...
    @property
    def banker(self) -> int | None: ...
    @property
    def leader(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def kitty(self) -> Sequence[Card] | None: ...
    @property
    def levels(self) -> tuple[int, ...]: ...
    @property
    def calls(self) -> Sequence[Any]: ...
    @property
    def trick_points(self) -> int: ...
    @property
    def penalties(self) -> int: ...
    @property
    def tricks(self) -> Sequence[Any]: ...
    @property
    def trick(self) -> Sequence[Any]: ...


if TYPE_CHECKING:
    from ..kernel._core import KState

#: A play-out policy: the cards the seat to act plays (``state.to_act``), from the state.
Policy = Callable[["KState", random.Random], list[int]]


@dataclass(frozen=True, slots=True)
class HandInfo:
    """What scoring needs besides the kernel state (shared by all copies)."""

    options: RuleOptions
    ctx: TrumpContext
    kitty: tuple[Card, ...]
    #: The levels :func:`shengji.rules.scoring.score_hand` reads (:func:`scoring_levels`).
    levels: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RolloutResult:
    """A finished hand: collectors' trick points, kitty points and multiplier (0 when the
    banker side took the last trick), throw penalties, the collectors' total and the
    outcome (levels, next banker) from :func:`shengji.rules.scoring.hand_outcome`."""

    trick_points: int
    kitty_points: int
    kitty_multiplier: int
    penalties: int
    points: int
    outcome: HandOutcome


def state_of(
    kernel: Kernel,
    table: PlayTable,
    hands: Sequence[Sequence[Card]] | None = None,
    kitty: Sequence[Card] | None = None,
    record: bool = False,
) -> KState:
    """A kernel state for a hand in the play phase (:meth:`Kernel.from_table`). A
    :class:`GameState` gives its own hands and kitty; a :class:`SeatView` needs ``hands``
    (the seat's own and sampled ones for the others) and, for the kitty bonus, a sampled
    ``kitty``. ``record`` keeps events for :func:`kernel_events`."""
    if table.phase != "play":
        raise ActionError(
            f"the kernel plays the play phase, not {table.phase!r}",
            params={"phase": table.phase},
        )
    if hands is None:
        hands = getattr(table, "hands", None)  # a GameState has every hand
        if hands is None:
            raise ActionError("a seat's view needs sampled hands for the kernel")
    if kitty is None:
        kitty = table.kitty if table.kitty is not None else ()
    banker = table.banker
    assert banker is not None
    ctx = table.ctx
    team = list(start_teams(table.options))
    s = cast("KState", kernel.core.KState(kernel.tables(ctx), banker, table.leader, team))
    for seat in range(s.seats):
        h = s.hands[seat]
        for c in hands[seat]:
            h[c.index] += 1
        s.sizes[seat] = len(hands[seat])
    restore_play(s, table)
    s.record = record
    levels = scoring_levels(table.options, table.levels, banker, s.team)
    s.info = HandInfo(table.options, ctx, tuple(kitty), levels)
    return s


def restore_play(s: KState, table: PlayTable) -> None:
    """Give the kernel play state ``s`` (hands already set) what ``table`` says of the
    play so far: the seat to act, points, penalties, the tricks and the trick in progress,
    and (找朋友) the friend calls, the copies of each played, the friends found and each
    thrower's failed-throw points."""
    s.to_act = table.to_act if table.to_act is not None else table.leader
    s.trick_points = table.trick_points
    s.penalties = table.penalties
    stake = getattr(table, "stake_penalties", (0, 0))
    s.stake_penalties = [stake[0], stake[1]]
    s.tricks = len(table.tricks)
    for t in table.tricks:
        s.seat_points[t.winner] += t.points
    if table.calls:
        s.set_calls([c.call.card.index for c in table.calls], [c.call.ordinal for c in table.calls])
        for t in table.tricks:
            for p in t.plays:
                s.count_called(p.seat, [c.index for c in p.cards])
        for c in table.calls:
            if c.seat is not None:
                s.team[c.seat] = s.team[s.banker]
        for p in table.trick:
            s.count_called(p.seat, [c.index for c in p.cards])
        if s.t.penalty_final:
            for t in table.tricks:
                _note_thrown(s, t.plays)
            _note_thrown(s, table.trick)
    if table.tricks:
        last = table.tricks[-1]
        s.last_lead = [c.index for c in last.plays[0].cards]
        s.last_win = [c.index for c in next(p for p in last.plays if p.seat == last.winner).cards]
        s.last_winner = last.winner
        s.last_points = last.points
    if table.trick:
        s.plays = [[c.index for c in p.cards] for p in table.trick]
        s.set_lead(s.plays[0])


def _note_thrown(s: KState, plays: Sequence[Any]) -> None:
    """The failed throws' penalty points of ``plays`` for each thrower (找朋友 with
    ``throw_penalty_side = final``)."""
    for p in plays:
        if p.attempted is not None and p.penalty:
            s.note_thrown(p.seat, abs(p.penalty))


def score(state: KState) -> RolloutResult:
    """The result of a finished kernel hand, by the rules core's scoring (as the game
    engine's end of hand)."""
    if not state.done:
        raise ActionError("the hand is not over", params={"phase": "play"})
    info = cast(HandInfo, state.info)
    opts, ctx = info.options, info.ctx
    banker = state.banker
    score = score_hand(
        opts,
        ctx,
        banker,
        info.levels,
        state.trick_points,
        state.penalties,
        info.kitty,
        [ALL_CARDS[i] for i in state.last_lead],
        state.last_winner,
        [card_from_index(i) for i in state.last_win],
        state.last_points,
        teams=state.team,
    )
    return RolloutResult(
        trick_points=state.trick_points,
        kitty_points=points(info.kitty),
        kitty_multiplier=score.kitty_multiplier,
        penalties=state.penalties,
        points=score.points,
        outcome=score.outcome,
    )


def kernel_events(state: KState, start: int = 0) -> list[Event]:
    """The recorded events (``record=True``) from the ``start``-th on, as the game
    engine's ``throw_failed``, ``play`` and ``trick`` events."""
    from ..kernel import _core  # not at import time: the core loads on first use

    out: list[Event] = []
    stake = cast(HandInfo, state.info).options.throw_penalty == "stake"
    for e in state.events[start:]:
        ev: dict[str, Any]
        if e.kind == _core.EV_PLAY:
            ev = {"type": "play", "seat": e.seat, "cards": _text(e.cards)}
        elif e.kind == _core.EV_THROW_FAILED:
            ev = {
                "type": "throw_failed",
                "seat": e.seat,
                "attempted": _text(e.attempted),
                "played": _text(e.cards),
                "blocked_by": e.blocked_by,
                "penalty": e.penalty,
                "stake": stake,
                "code": Code.THROW_FAILED,
            }
        else:
            ev = {
                "type": "trick",
                "winner": e.seat,
                "points": e.points,
                "collectors": e.collectors,
            }
        out.append(ev)
    return out


def _text(cards: list[int]) -> str:
    return format_cards(card_from_index(i) for i in cards)


class Kernel(CoreKernel):
    """The kernel API over one ``_core`` (compiled or pure): its tables
    (:class:`~shengji.kernel.access.CoreKernel`) and its rollouts."""

    def from_table(
        self,
        table: PlayTable,
        hands: Sequence[Sequence[Card]] | None = None,
        kitty: Sequence[Card] | None = None,
        record: bool = False,
    ) -> KState:
        """A kernel state for a hand in the play phase (:func:`state_of`)."""
        return state_of(self, table, hands, kitty, record)

    def play_out(
        self,
        state: KState,
        policy: Policy | None = None,
        rng: random.Random | None = None,
        throw_rate: float = 0.0,
    ) -> RolloutResult:
        """Play ``state`` (changed in place: pass a copy to keep it) to the end of the hand
        with ``policy``, or uniformly random legal plays (random leads attempt a throw with
        probability ``throw_rate``), and score it."""
        self.core.play_out(state, rng or random.Random(), throw_rate, policy)
        return score(state)

    def play_out_light(self, state: KState, rng: random.Random | None = None) -> RolloutResult:
        """:meth:`play_out` with the kernel's ``light_move`` policy for every seat (the
        search bot's rollouts: cheap, and closer to how people play than random plays)."""
        self.core.play_out_light(state, self.core.rng_from(rng or random.Random()))
        return score(state)


_DEFAULT: list[Kernel] = []


def default_kernel() -> Kernel:
    """The process-wide kernel, on the product's core (:func:`shengji.kernel.access.core`:
    compiled unless ``SHENGJI_PURE=1``)."""
    kernel_core = core()
    if not _DEFAULT or _DEFAULT[0].core is not kernel_core:
        _DEFAULT[:] = [Kernel(core=kernel_core)]
    return _DEFAULT[0]


def from_table(
    table: PlayTable,
    hands: Sequence[Sequence[Card]] | None = None,
    kitty: Sequence[Card] | None = None,
    record: bool = False,
) -> KState:
    """:meth:`Kernel.from_table` on the default kernel."""
    return default_kernel().from_table(table, hands, kitty, record)


def play_out(
    state: KState,
    policy: Policy | None = None,
    rng: random.Random | None = None,
    throw_rate: float = 0.0,
) -> RolloutResult:
    """:meth:`Kernel.play_out` on the default kernel."""
    return default_kernel().play_out(state, policy, rng, throw_rate)
