"""The heuristic's last tricks: once every hand holds at most a few cards, each of its
candidate plays is solved exactly (double dummy, :class:`~shengji.bots.endgame.Solver`)
on a few deals of the hidden cards sampled from its view (:class:`~shengji.bots.belief.
Belief`), and the play worth the most levels on average is chosen.

A club player counts the last tricks out: who can still win the last trick (the kitty's
multiplier), which card to keep for it, whether to cash a winner now. Few cards are
left, so the solver is quick (a few hundred nodes a deal), and the decisions it takes
are a small share of a hand's: the heuristic's median decision time does not move.

The kernel, the belief and the solver are imported on the first call only: a Botzone
cold turn that is not an endgame turn stays small.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..game.views import SeatView
from ..rules.cards import Card

#: Solve once every hand holds at most this many cards.
LAST_CARDS = 3
#: Sampled deals per decision at most, and the solver nodes they may take together
#: (counted, not timed: the bot stays deterministic for a seed on any machine).
DEALS = 24
BUDGET = 24000
#: Solver nodes one sampled deal may take (all candidates); past it, the rule stands
#: on the deals solved so far.
NODES = 6000
#: What another play must gain over the rule of thumb's, in levels on average.
MARGIN = 0.02


@dataclass(frozen=True)
class Solved:
    """The best play found, its gain over the rule of thumb's, and the deals solved."""

    play: tuple[Card, ...]
    gain: float
    deals: int


def applies(view: SeatView) -> bool:
    """Whether the last tricks are few enough to solve: every hand at most
    :data:`LAST_CARDS` cards, and a four-seat table without friends to find."""
    sizes = view.hand_sizes
    return (
        bool(view.hand)
        and len(sizes) == 4
        and not view.options.friends
        and max(sizes) <= LAST_CARDS
    )


def solve_last_tricks(view: SeatView, cands: Sequence[tuple[Card, ...]], key: str) -> Solved | None:
    """Solve each candidate (the rule of thumb's choice first) on sampled deals; the best
    one when it beats the first by :data:`MARGIN` levels on average, else None (also when
    nothing could be sampled, the tree is too big, or the kernel is missing)."""
    if len(cands) < 2 or view.seat is None:
        return None
    try:
        from ..engine import default_kernel
        from .belief import KITTY, Belief
        from .endgame import Solver, TooBig
    except ImportError:  # pragma: no cover - a build without the kernel
        return None
    seat = view.seat
    kernel = default_kernel()
    belief = Belief(view)
    rng = random.Random(key)
    plays = [[c.index for c in play] for play in cands]
    totals = [0.0] * len(cands)
    deals = 0
    spent = 0
    n = len(view.hand_sizes)
    while deals < DEALS and spent < BUDGET:
        deal = belief.sample(rng)
        if deal is None:
            break
        hands = [view.hand if s == seat else deal.get(s, ()) for s in range(n)]
        kitty = belief.kitty if belief.kitty is not None else deal.get(KITTY, ())
        base = kernel.from_table(view, hands, kitty)
        solver = Solver(seat, node_limit=NODES)
        try:
            values = []
            for play in plays:
                ks = base.copy()
                ks.apply(list(play))
                values.append(solver.value(ks))
        except TooBig:
            break
        for i, v in enumerate(values):
            totals[i] += v
        deals += 1
        spent += solver.nodes
    if not deals:
        return None
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    gain = (totals[best] - totals[0]) / deals
    if best == 0 or gain < MARGIN:
        return None
    return Solved(cands[best], gain, deals)


def reason(solved: Solved) -> tuple[str, str]:
    """What the solved play does, in words (English, Chinese)."""
    return (
        f"count out the last tricks: played out exactly on {solved.deals} guesses at the "
        f"hidden cards, this play wins {solved.gain:+.2f} levels more on average",
        f"算清最后几轮: 按 {solved.deals} 种可能的暗牌逐一推算, 这样出平均多得 "
        f"{solved.gain:+.2f} 级",
    )
