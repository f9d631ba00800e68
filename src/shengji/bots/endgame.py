"""Exact endgame solving for the search bot: the hand's value under best play by both
sides with every hand known (double dummy), by alpha-beta on the kernel's state.

Once few cards remain, a sampled deal can be solved exactly instead of played out at
random: the bot's side picks the plays that maximise the value (levels and collectors'
points, as :func:`shengji.bots.rollouts.hand_value` counts them), the other side the plays
that minimise it. Leads are the kernel's one-unit leads (no throws), follows every legal
follow (:meth:`KState.moves`). A transposition table keyed by the position at the start
of each trick (the hands, the leader, the points so far) merges orders of play that reach
the same position.

>>> import random
>>> from shengji.rules.presets import load_preset
>>> from shengji.game import new_match, apply
>>> from shengji.bots.random_bot import random_action
>>> from shengji.engine import from_table
>>> st, rng = new_match(load_preset("shuangsheng"), seed=5), random.Random(5)
>>> while st.phase != "play" or len(st.hands[0]) > 3:
...     st, _ = apply(st, st.to_act, random_action(st, st.to_act, rng))
>>> ks = from_table(st)
>>> Solver(seat=0).value(ks) == brute_force(ks, seat=0)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from ..engine.rollout import HandInfo, score

if TYPE_CHECKING:
    from ..kernel._core import KState

#: Weight of one collectors' point against one level (as the search bot's rollouts).
POINT_WEIGHT = 1 / 200


def final_value(state: KState, seat: int) -> float:
    """A finished kernel hand's worth to ``seat``'s team: levels gained (negative: levels
    the other team gained), plus the collectors' points / 200 as a tie-break."""
    res = score(state)
    o = res.outcome
    team = state.team[seat]
    bteam = state.team[state.banker]
    up = bteam if o.side == "banker" else 1 - bteam
    levels = o.moved if up == team else -o.moved
    pts = res.points if team != bteam else -res.points
    return levels + POINT_WEIGHT * pts


class Solver:
    """Alpha-beta over a kernel state for ``seat``'s team. ``finals`` caches the value of
    finished hands by what scoring reads; the transposition table lives as long as the
    solver (one sampled deal: the kitty is part of the value)."""

    def __init__(
        self,
        seat: int,
        node_limit: int | None = None,
        finals: dict[tuple[object, ...], float] | None = None,
    ) -> None:
        self.seat = seat
        self.team = -1
        self.nodes = 0
        #: Stop (raise :class:`TooBig`) after this many nodes.
        self.node_limit = node_limit
        #: Bounds (low, high) on the value of positions at the start of a trick.
        self.table: dict[tuple[object, ...], tuple[float, float]] = {}
        #: Values of finished hands (may be shared by the solvers of one search: the
        #: kitty is part of the key).
        self.finals: dict[tuple[object, ...], float] = {} if finals is None else finals

    def value(self, state: KState) -> float:
        """The value of ``state`` (not changed) under best play by both sides."""
        self.team = state.team[self.seat]
        return self._search(state.copy(), -math.inf, math.inf)

    def _final(self, s: KState) -> float:
        info = cast(HandInfo, s.info)
        key = (
            info.kitty,
            s.trick_points,
            s.penalties,
            s.last_winner,
            tuple(s.last_lead),
            tuple(s.last_win),
            s.last_points,
        )
        hit = self.finals.get(key)
        if hit is None:
            hit = self.finals[key] = final_value(s, self.seat)
        return hit

    def _search(self, s: KState, alpha: float, beta: float) -> float:
        """The value of ``s`` (consumed: the last move is played on it) within the
        window (alpha, beta)."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise TooBig
        if s.done:
            return self._final(s)
        key: tuple[object, ...] | None = None
        if not s.plays and s.sizes[0] > 1:
            h = s.hands
            key = (
                *(bytes(x) for x in h),
                s.to_act,
                s.trick_points,
                s.penalties,
            )
            hit = self.table.get(key)
            if hit is not None:
                lo, hi = hit
                if lo == hi or lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        maximise = s.team[s.to_act] == self.team
        best = -math.inf if maximise else math.inf
        moves = s.moves()
        if len(moves) > 2:
            moves = distinct_moves(s, moves)
        last = len(moves) - 1
        for i, move in enumerate(moves):
            child = s if i == last else s.copy()
            child.apply(move)
            v = self._search(child, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        if key is not None:
            # the bounds the result proves: exact inside (a0, b0), one-sided outside
            lo, hi = -math.inf, math.inf
            if best <= a0:
                hi = best
            elif best >= b0:
                lo = best
            else:
                lo = hi = best
            old = self.table.get(key)
            if old is not None:
                lo, hi = max(lo, old[0]), min(hi, old[1])
            self.table[key] = (lo, hi)
        return best


def distinct_moves(s: KState, moves: list[list[int]]) -> list[list[int]]:
    """``moves`` less those equivalent to an earlier one: a single card of the seat to
    act is interchangeable with another of the same effective suit and points when no
    other seat holds, and no play of the trick shows, a card ranking between them (or
    level with either), and the seat holds one of each: the positions after either play
    are the same up to a relabelling that no comparison, unit or score can tell apart."""
    t = s.t
    seat = s.to_act
    mine = s.hands[seat]
    table = [0] * 54  # the cards on the table count as another seat's
    for p in s.plays:
        for c in p:
            table[c] += 1
    others = [h for i, h in enumerate(s.hands) if i != seat]
    foreign = [sum(x) for x in zip(*others, table, strict=True)]
    key, pts, suit_of = t.key, t.pts, t.suit_of
    cls: dict[int, int] = {}
    for x in {suit_of[c] for m in moves for c in m}:
        run = -1  # the class of the run of interchangeable cards going on, if any
        run_pts = -1
        level = -1  # the key of the cards being walked
        level_mine: list[int] = []
        barrier = False  # another seat or the table holds a card of this key
        for c in [*t.suit_cards[x], -1]:
            if c < 0 or key[c] != level:
                if barrier:
                    run = -1
                for d in level_mine:
                    if barrier or mine[d] != 1:
                        cls[d] = 1000 + d
                        run = -1
                    elif run >= 0 and pts[d] == run_pts:
                        cls[d] = run
                    else:
                        run, run_pts = d, pts[d]
                        cls[d] = d
                if c < 0:
                    break
                level, level_mine, barrier = key[c], [], False
            if mine[c]:
                level_mine.append(c)
            if foreign[c]:
                barrier = True
    out = []
    seen: set[tuple[int, ...]] = set()
    for m in moves:
        sig = tuple(sorted(cls[c] for c in m))
        if sig not in seen:
            seen.add(sig)
            out.append(m)
    return out


class TooBig(Exception):
    """The solver went past its node limit."""


def brute_force(
    state: KState, seat: int, evaluate: Callable[[KState], float] | None = None
) -> float:
    """Plain minimax (no pruning, no table): what :class:`Solver` must equal (tests)."""
    team = state.team[seat]
    if state.done:
        return evaluate(state) if evaluate else final_value(state, seat)
    values = []
    for move in state.moves():
        child = state.copy()
        child.apply(move)
        values.append(brute_force(child, seat, evaluate))
    return max(values) if state.team[state.to_act] == team else min(values)
