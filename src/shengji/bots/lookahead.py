"""The Normal bot's look ahead: before the last tricks, the rule of thumb's best few plays
are each played out to the end of the hand on the same few deals of the hidden cards
sampled from the seat's view (:class:`~shengji.bots.belief.Belief`), by the kernel's light
policy (:class:`~shengji.bots.rollouts.KernelRollout`), and another play replaces the
rule of thumb's only when it is better on them by a margin.

It is the search bot's method (:mod:`shengji.bots.search`) on a small budget counted in
rollouts, not time (the bot stays deterministic for a seed on any machine), and it is
what the registered ``heuristic`` bot (the tables' Normal) does at fixed partnerships (at
a 找朋友 table its rollouts let a friend already found answer the second call); a bare
:class:`~shengji.bots.heuristic.HeuristicBot` (the rule of thumb inside the search bot,
the hints and the benchmarks) does not look ahead.

The kernel, the belief and the rollouts are imported on the first call only: a Botzone
cold turn that does not look ahead stays small (nor does this module load the words'
translations or the yardstick bot).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..game.views import SeatView
from ..rules.cards import Card

if TYPE_CHECKING:
    from .belief import Belief

#: A sampled deal of the hidden cards: holder (a seat, or the kitty) to cards.
Deal = Mapping[int, Sequence[Card]]

#: Candidate plays compared per decision (the rule of thumb's first).
CANDIDATES = 4
#: Rollouts per decision at most (all candidates together).
ROLLOUTS = 200
#: Sampled deals a comparison needs before it may override the rule of thumb.
MIN_DEALS = 24
#: Candidates clearly worse than the leader stop being played out after this many deals
#: (:func:`~shengji.bots.rollouts.prune`).
PRUNE_FIRST = 16
#: Another play overrides the rule of thumb's when better by this many levels on average
#: and this many standard errors of the paired difference.
GAIN = 0.02
GAIN_SE = 1.0
#: Rollouts a burial may take (all candidates together), and the margin another burial
#: needs over the rule of thumb's (a clear one, as the search bot asks).
BURY_ROLLOUTS = 360
BURY_GAIN = 0.05
BURY_SE = 2.0


@dataclass(frozen=True)
class Looked:
    """The play chosen, its gain over the rule of thumb's (levels), its standard error,
    and the deals it was played out on."""

    play: tuple[Card, ...]
    gain: float
    se: float
    deals: int


def distinct(
    first: tuple[Card, ...], scored: Sequence[tuple[float, tuple[Card, ...]]]
) -> list[tuple[Card, ...]]:
    """``first`` and the next best distinct plays of ``scored``, :data:`CANDIDATES` at most."""
    out = [first]
    seen = {tuple(sorted(c.index for c in first))}
    for _, play in scored:
        if len(out) >= CANDIDATES:
            break
        k = tuple(sorted(c.index for c in play))
        if k not in seen:
            seen.add(k)
            out.append(play)
    return out


def look_ahead(
    view: SeatView, cands: Sequence[tuple[Card, ...]], key: str, budget: int = ROLLOUTS
) -> Looked | None:
    """Play each candidate (the rule of thumb's first) out on the same sampled deals;
    the best one when it beats the first by :data:`GAIN` levels and :data:`GAIN_SE`
    standard errors on at least :data:`MIN_DEALS` deals, else None."""
    if len(cands) < 2 or view.seat is None:
        return None
    try:
        from .belief import KITTY
        from .rollouts import KernelRollout
    except ImportError:  # pragma: no cover - a build without the kernel
        return None
    seat = view.seat
    rollout = KernelRollout(light=True)
    kernel = rollout.kernel
    plays = [[c.index for c in play] for play in cands]
    n = len(view.hand_sizes)
    cache: dict[tuple[object, ...], Any] = {}

    def outcomes(belief: Belief, deal: Deal, active: Sequence[int], det: int) -> list[Any]:
        hands = [view.hand if s == seat else deal.get(s, ()) for s in range(n)]
        kitty = belief.kitty if belief.kitty is not None else deal.get(KITTY, ())
        base = kernel.from_table(view, hands, kitty)
        out = []
        for i in active:
            ks = base.copy()
            ks.apply(list(plays[i]))
            out.append(rollout.finish_kernel(ks, random.Random(det), cache))
        return out

    return _compare(view, cands, outcomes, key, budget, GAIN, GAIN_SE, free=False)


def bury(view: SeatView, chosen: tuple[Card, ...], key: str) -> Looked | None:
    """The heuristic's burial (``chosen``) and the search bot's variants of it
    (:func:`~shengji.bots.candidates.burial_candidates`) played out from the first lead
    on the same sampled deals of the other hands; the best variant when it beats
    ``chosen`` by :data:`BURY_GAIN` levels and :data:`BURY_SE` standard errors."""
    if view.seat is None:
        return None
    try:
        from .candidates import burial_candidates
        from .rollouts import KernelRollout
    except ImportError:  # pragma: no cover - a build without the kernel
        return None
    cands = [c.cards for c in burial_candidates(view, chosen)]
    if len(cands) < 2:
        return None
    rollout = KernelRollout(light=True)

    def outcomes(belief: Belief, deal: Deal, active: Sequence[int], det: int) -> list[Any]:
        return [
            rollout.finish(belief.after_burial(deal, cands[i]), random.Random(det)) for i in active
        ]

    return _compare(view, cands, outcomes, key, BURY_ROLLOUTS, BURY_GAIN, BURY_SE, free=True)


def _compare(
    view: SeatView,
    cands: Sequence[tuple[Card, ...]],
    outcomes: Callable[[Belief, Deal, Sequence[int], int], list[Any]],
    key: str,
    budget: int,
    gain: float,
    gain_se: float,
    free: bool,
) -> Looked | None:
    """Sample deals, play the active candidates out on each (``outcomes``: their
    finished hands, on the same rollout seed), within ``budget`` rollouts; the best
    candidate when it beats the first by ``gain`` levels and ``gain_se`` standard errors
    of the paired difference on at least :data:`MIN_DEALS` deals."""
    from .belief import Belief
    from .rollouts import hand_value, prune

    assert view.seat is not None
    seat = view.seat
    belief = Belief(view)
    sample = Belief.sample_free if free and belief.free else Belief.sample
    rng = random.Random(key)
    values: list[list[float]] = [[] for _ in cands]
    active = list(range(len(cands)))
    done = 0
    check = PRUNE_FIRST
    while done + len(active) <= budget:
        if len(values[0]) >= check:
            active = prune(values, active)
            check *= 2
        deal = sample(belief, rng)
        if deal is None:
            break
        det = rng.getrandbits(64)
        for i, r in zip(active, outcomes(belief, deal, active, det), strict=True):
            values[i].append(hand_value(r, seat))
        done += len(active)
    full = len(values[0])
    if full < MIN_DEALS:
        return None
    best: Looked | None = None
    for i in active:
        if i == 0 or len(values[i]) < full:
            continue
        diffs = [a - b for a, b in zip(values[i], values[0], strict=True)]
        mean = sum(diffs) / full
        var = sum((d - mean) ** 2 for d in diffs) / (full - 1)
        se = math.sqrt(var / full)
        if mean >= gain and mean > gain_se * se and (best is None or mean > best.gain):
            best = Looked(cands[i], mean, se, full)
    return best


def bury_reason(looked: Looked) -> tuple[str, str]:
    """Why the looked-ahead burial replaces the rule of thumb's (English, Chinese)."""
    cards = " ".join(c.symbol for c in looked.play)
    gain = f"{looked.gain:+.2f} ± {looked.se:.2f}"
    return (
        f"look ahead: bury {cards}; played out on {looked.deals} guesses at the other "
        f"hands, it wins {gain} levels more on average than the rule of thumb's burial",
        f"往后推演: 扣 {cards}; 按 {looked.deals} 种可能的别家手牌打到底, 比经验扣法"
        f"平均多得 {gain} 级",
    )


def reason(looked: Looked, rule: tuple[Card, ...]) -> tuple[str, str]:
    """Why the looked-ahead play replaces the rule of thumb's (English, Chinese)."""
    mine = " ".join(c.symbol for c in looked.play)
    theirs = " ".join(c.symbol for c in rule)
    gain = f"{looked.gain:+.2f} ± {looked.se:.2f}"
    return (
        f"look ahead: {mine} rather than {theirs}; played out on {looked.deals} guesses "
        f"at the hidden cards, it wins {gain} levels more on average",
        f"往后推演: 出 {mine} 而不是 {theirs}; 按 {looked.deals} 种可能的暗牌打到底, "
        f"平均多得 {gain} 级",
    )
