"""A strong bot: determinized search (PIMC) over the hidden cards, in the play phase.

For each play decision the bot takes the candidate plays the heuristic bot scores best,
then repeatedly deals the hidden cards at random consistently with everything its view
reveals (:class:`~shengji.bots.belief.Belief`), and plays the hand out from each
candidate with a fast policy. A candidate's value is the hand's outcome in levels for the
bot's team (the level table and kitty multiplier as :mod:`shengji.scoring` applies them),
with the collectors' points as a small tie-break. The same deals are used for every
candidate, and the heuristic's choice is kept unless another candidate is clearly better
on them. Other phases (declaring, burying) use the heuristic bot.

The budget is a wall-clock time (``search:100ms``, ``search:1s``) or a number of rollouts
(``search:2000it``); with a rollout budget the bot is deterministic for a given seed.

Rollouts go through :class:`Rollout`, which today plays :func:`shengji.game.apply` on a
:class:`~shengji.game.GameState` built from the view and the sampled hidden hands.
"""

from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass
from typing import Protocol

from ..actions import Action, Play
from ..cards import Card
from ..errors import Code, ShengjiError
from ..follow import random_legal_follow
from ..game import GameState, apply
from ..leads import unit_lead_list
from ..scoring import HandOutcome
from ..trump import TRUMP, TrumpContext
from ..units import Lead
from ..views import SeatView
from .belief import Belief
from .heuristic import HeuristicBot

#: Candidate plays searched per decision (the heuristic's best ones).
MAX_CANDIDATES = 6
#: How many standard errors better than the heuristic's choice a candidate must be.
MARGIN_SE = 1.0
#: Weight of one collectors' point against one level in a rollout's value.
POINT_WEIGHT = 1 / 200


@dataclass(frozen=True, slots=True)
class Budget:
    """How long to search: ``seconds`` of wall time or a number of ``rollouts``."""

    seconds: float | None = None
    rollouts: int | None = None

    @classmethod
    def parse(cls, text: str | None) -> Budget:
        """``"100ms"``, ``"1.5s"`` or ``"2000it"`` (None: 200 ms)."""
        if text is None or not text.strip():
            return cls(seconds=0.2)
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|it)\s*", text)
        if m is None or float(m.group(1)) <= 0:
            raise ShengjiError(
                f"bad search budget {text!r}: use e.g. 100ms, 1s or 2000it",
                code=Code.BAD_BOT_SPEC,
                params={"bot": "search"},
            )
        value, unit = float(m.group(1)), m.group(2)
        if unit == "it":
            return cls(rollouts=max(1, int(value)))
        return cls(seconds=value / 1000 if unit == "ms" else value)


@dataclass(frozen=True, slots=True)
class Finished:
    """What a played-out hand left: the banker, the collectors' points and the outcome."""

    banker: int
    points: int
    outcome: HandOutcome


def finished(st: GameState) -> Finished:
    """The last finished hand of a game state."""
    r = st.results[-1]
    return Finished(r.banker, r.points, r.outcome)


class Rollout(Protocol):
    """Plays a hand out from a full state (every hand known, play phase) to its result."""

    def finish(self, st: GameState, rng: random.Random) -> Finished:
        """The result of the current hand once it is played out."""
        ...


class ApplyRollout:
    """Rollouts through :func:`shengji.game.apply` with :func:`light_play` for every
    seat (each seat sees only its own hand and the table)."""

    def finish(self, st: GameState, rng: random.Random) -> Finished:
        """Play :func:`light_play` for every seat until the hand is over."""
        while st.phase == "play":
            seat = st.to_act
            assert seat is not None
            play = light_play(st.ctx, st.hands[seat], st, seat, rng)
            st, _ = apply(st, seat, Play(play))
        return finished(st)


class KernelRollout:
    """Rollouts on the compiled play-phase kernel (:mod:`shengji.kernel`) with uniformly
    random legal plays: about fifteen times as many as :class:`ApplyRollout` per second."""

    def __init__(self) -> None:
        from ..kernel import default_kernel

        self.kernel = default_kernel()

    def finish(self, st: GameState, rng: random.Random) -> Finished:
        """Play the hand out at random on the kernel."""
        res = self.kernel.play_out(self.kernel.from_table(st), rng=rng)
        assert st.banker is not None
        return Finished(st.banker, res.points, res.outcome)


def light_play(
    ctx: TrumpContext, hand: tuple[Card, ...], st: GameState, seat: int, rng: random.Random
) -> tuple[Card, ...]:
    """A cheap, sensible play: lead a unit (pairs and tractors often, else a high or low
    single); follow a single cheaply (give points to a winning partner, win with the
    lowest card that wins, else shed the lowest card, points last); follow larger leads
    at random among the legal plays."""
    key, suit_of = ctx.key, ctx.suit_of
    if not st.trick:
        leads = unit_lead_list(ctx, hand)
        longest = max(len(lead) for lead in leads)
        if longest >= 2 and rng.random() < 0.6:
            return rng.choice([lead for lead in leads if len(lead) == longest])
        singles = [lead[0] for lead in leads if len(lead) == 1]
        suits = sorted({suit_of[c.index] for c in singles})
        x = rng.choice(suits)
        mine = [c for c in singles if suit_of[c.index] == x]
        return (mine[0],) if rng.random() < 0.5 else (mine[-1],)
    lead = st.lead
    assert lead is not None
    if len(lead.cards) != 1:
        return random_legal_follow(ctx, lead, hand, rng)
    x = lead.suit
    in_suit = [c for c in hand if suit_of[c.index] == x]
    options = in_suit or list(hand)
    best_seat, best_key = _single_leader(ctx, st, lead)
    if best_seat % 2 == seat % 2:
        return (max(options, key=lambda c: (c.points, -key[c.index])),)
    winners = [c for c in options if suit_of[c.index] in (x, TRUMP) and key[c.index] > best_key]
    trick_pts = sum(c.points for p in st.trick for c in p.cards)
    if winners and (trick_pts or len(st.trick) < 3 or rng.random() < 0.3):
        return (min(winners, key=lambda c: key[c.index]),)
    return (min(options, key=lambda c: (c.points, key[c.index])),)


def _single_leader(ctx: TrumpContext, st: GameState, lead: Lead) -> tuple[int, int]:
    """Seat and card key of the play winning a one-card trick so far."""
    key, suit_of = ctx.key, ctx.suit_of
    x = lead.suit
    best = st.trick[0]
    best_key = key[best.cards[0].index]
    for p in st.trick[1:]:
        c = p.cards[0]
        if suit_of[c.index] in (x, TRUMP) and key[c.index] > best_key:
            best, best_key = p, key[c.index]
    return best.seat, best_key


def hand_value(r: Finished, seat: int) -> float:
    """The finished hand's worth to ``seat``'s team: levels gained (negative: levels the
    other team gained), plus the collectors' points as a tie-break."""
    o = r.outcome
    team = seat % 2
    bteam = r.banker % 2
    up = bteam if o.side == "banker" else 1 - bteam
    levels = o.moved if up == team else -o.moved
    pts = r.points if team != bteam else -r.points
    return levels + POINT_WEIGHT * pts


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Search figures for one candidate play: mean value and its paired difference to
    the heuristic's choice over the same deals."""

    play: tuple[Card, ...]
    mean: float
    diff: float
    diff_se: float
    n: int


def make_search_bot(seat: int, seed: int, arg: str | None) -> SearchBot:
    """A search bot from its spec argument: a budget (``100ms``, ``1s``, ``2000it``),
    optionally followed by the rollouts: ``:kernel`` (the default: random plays on the
    compiled kernel, about 15 times cheaper) or ``:apply`` (a light greedy policy on the
    game engine)."""
    text, _, rollout = (arg or "").partition(":")
    if rollout not in ("", "kernel", "apply"):
        raise ShengjiError(
            f"bad search rollout {rollout!r}: 'kernel' or 'apply'",
            code=Code.BAD_BOT_SPEC,
            params={"bot": "search"},
        )
    budget = Budget.parse(text or None)
    return SearchBot(seat, seed, budget, ApplyRollout() if rollout == "apply" else None)


class SearchBot:
    """Determinized search in the play phase, the heuristic bot elsewhere."""

    name = "search"

    def __init__(
        self,
        seat: int = 0,
        seed: int = 0,
        budget: Budget | None = None,
        rollout: Rollout | None = None,
    ) -> None:
        self.seat = seat
        self.seed = seed
        self.budget = budget or Budget.parse(None)
        self.rollout: Rollout = rollout or KernelRollout()
        self.heuristic = HeuristicBot(seat, seed)
        #: Why the last action was chosen: (English, Chinese).
        self.reason: tuple[str, str] = ("", "")
        #: The candidates of the last searched decision, best first.
        self.evaluations: list[Evaluation] = []

    def act(self, view: SeatView) -> Action:
        """Choose an action for the view's seat."""
        action = self.heuristic.act(view)
        self.reason = self.heuristic.reason
        self.evaluations = []
        if view.phase != "play" or not isinstance(action, Play):
            return action
        cands = self.candidates(action.cards)
        if len(cands) < 2:
            return action
        evals = self.evaluate(view, cands)
        if not evals:
            return action
        self.evaluations = evals
        best = evals[0]
        if best.play != action.cards and best.diff > MARGIN_SE * best.diff_se:
            self.reason = (
                f"search: worth {best.diff:+.2f} levels over the rule of thumb "
                f"in {best.n} sampled deals",
                f"搜索: 在 {best.n} 次抽样中比经验打法多 {best.diff:+.2f} 级",
            )
            return Play(best.play)
        return action

    def candidates(self, chosen: tuple[Card, ...]) -> list[tuple[Card, ...]]:
        """The heuristic's choice and its next best plays (distinct)."""
        out = [chosen]
        seen = {tuple(sorted(c.index for c in chosen))}
        for _, play in self.heuristic.scored:
            k = tuple(sorted(c.index for c in play))
            if k not in seen:
                seen.add(k)
                out.append(play)
            if len(out) >= MAX_CANDIDATES:
                break
        return out

    def evaluate(self, view: SeatView, cands: list[tuple[Card, ...]]) -> list[Evaluation]:
        """Roll every candidate out on the same sampled deals within the budget; the
        candidates by paired difference to the first one, best first."""
        assert view.seat is not None
        seat = view.seat
        belief = Belief(view)
        rng = random.Random(
            f"search:{self.seed}:{seat}:{view.hand_number}:{len(view.tricks)}:{len(view.trick)}"
        )
        budget = self.budget
        deadline = math.inf
        if budget.seconds is not None:
            deadline = time.perf_counter() + budget.seconds
        limit = budget.rollouts
        values: list[list[float]] = [[] for _ in cands]
        done = 0
        while True:
            if limit is not None and done + len(cands) > limit and done:
                break
            if done and time.perf_counter() >= deadline:
                break
            deal = belief.sample(rng)
            if deal is None:
                break
            base = belief.state(deal)
            det_seed = rng.getrandbits(64)
            for i, play in enumerate(cands):
                st, _ = apply(base, seat, Play(play))
                r = (
                    self.rollout.finish(st, random.Random(det_seed))
                    if st.phase == "play"
                    else finished(st)
                )
                values[i].append(hand_value(r, seat))
            done += len(cands)
        n = len(values[0])
        if n == 0:
            return []
        out = []
        for play, vs in zip(cands, values, strict=True):
            diffs = [a - b for a, b in zip(vs, values[0], strict=True)]
            mean_d = sum(diffs) / n
            var = sum((d - mean_d) ** 2 for d in diffs) / (n - 1) if n > 1 else math.inf
            out.append(Evaluation(play, sum(vs) / n, mean_d, math.sqrt(var / n), n))
        out.sort(key=lambda e: -e.diff)
        return out
