"""The search bot's rollouts: a candidate played out to the end of the hand from a sampled
deal, through the kernel (:class:`KernelRollout`, with the kernel's light policy or
random plays) or through the game's own :func:`~shengji.game.flow.apply`
(:class:`ApplyRollout` with :func:`light_play`), and a finished hand's value for a seat."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, Union, cast

from ..engine.rollout import HandInfo, score
from ..game.actions import Play
from ..game.flow import apply
from ..game.state import GameState
from ..kernel import access
from ..rules.cards import ALL_CARDS, Card
from ..rules.leads import unit_lead_list
from ..rules.scoring import HandOutcome
from ..rules.seats import FIXED_TEAMS
from ..rules.trump import TRUMP, TrumpContext
from ..rules.units import Lead
from .sides import partners

if TYPE_CHECKING:
    from ..kernel._core import KState


#: Where a candidate's rollout starts: a full game state, or a kernel state.
Start = Union[GameState, "KState"]


#: Weight of one collectors' point against one level in a rollout's value.
POINT_WEIGHT = 1 / 200


@dataclass(frozen=True, slots=True)
class Finished:
    """What a played-out hand left: the banker, the collectors' points and the outcome;
    in 找朋友, each seat's side as the hand ended (in a sampled deal the friends are
    whoever the deal gave the called copies)."""

    banker: int
    points: int
    outcome: HandOutcome
    team: tuple[int, ...] = ()


def finished(st: GameState) -> Finished:
    """The last finished hand of a game state."""
    r = st.results[-1]
    side = set(r.banker_side)
    team = tuple(0 if s in side else 1 for s in range(st.seats)) if side else ()
    return Finished(r.banker, r.points, r.outcome, team)


def _team_of(state: KState) -> tuple[int, ...]:
    """A finished kernel hand's sides (找朋友 only: fixed partnerships give ())."""
    return tuple(state.team) if state.calls else ()


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
    """Rollouts on the compiled play-phase kernel (:mod:`shengji.kernel`): uniformly
    random legal plays, or (``light``) the kernel's ``light_move`` policy for every seat
    (:func:`light_play` on ints)."""

    def __init__(self, light: bool = False) -> None:
        from ..engine import default_kernel

        self.kernel = default_kernel()
        self.light = light

    def finish(self, st: GameState, rng: random.Random) -> Finished:
        """Play the hand out on the kernel."""
        state = self.kernel.from_table(st)
        if self.light:
            res = self.kernel.play_out_light(state, rng)
        else:
            res = self.kernel.play_out(state, rng=rng)
        assert st.banker is not None
        return Finished(st.banker, res.points, res.outcome, _team_of(state))

    def finish_kernel(
        self,
        state: KState,
        rng: random.Random,
        cache: dict[tuple[object, ...], Finished] | None = None,
    ) -> Finished:
        """Play a kernel state (changed in place) out and score it; ``cache`` keeps the
        scores of finished hands by what scoring reads (one search's deals share it)."""
        core = self.kernel.core
        if self.light:
            core.play_out_light(state, core.rng_from(rng))
        else:
            core.play_out(state, rng, 0.0, None)
        if cache is None:
            res = score(state)
            return Finished(state.banker, res.points, res.outcome, _team_of(state))
        info = cast(HandInfo, state.info)
        key = (
            info.kitty,
            state.banker,
            state.trick_points,
            state.penalties,
            state.last_winner,
            tuple(state.last_lead),
            tuple(state.last_win),
            state.last_points,
            _team_of(state),
        )
        hit = cache.get(key)
        if hit is None:
            res = score(state)
            hit = cache[key] = Finished(state.banker, res.points, res.outcome, _team_of(state))
        return hit


def light_play(
    ctx: TrumpContext, hand: tuple[Card, ...], st: GameState, seat: int, rng: random.Random
) -> tuple[Card, ...]:
    """A cheap, sensible play: lead a unit (pairs and tractors often, else a high or low
    single); follow a single cheaply (give points to a winning partner, win with the
    lowest card that wins, else shed the lowest card, points last); follow larger leads
    as the kernel's ``light_follow`` does (when the other side is winning and the trick
    holds points, seats are still to play, or 30% of the time: take it with the lowest
    pair or triple that beats a pair or triple lead or, void, with the lowest trumps that
    do, or the lowest trumps of a throw's shape; else at random among the legal plays)."""
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
    if len(lead.cards) != 1:  # the kernel's rule (light_follow), on this state's cards
        core, t = access.core(), access.tables(ctx)
        plays = [access.ints(p.cards) for p in st.trick]
        units = core.lead_units(t, plays[0])
        winner = st.trick[core.trick_winner(t, units, plays)].seat
        losing = winner != seat and winner not in partners(st, seat)
        last = len(st.trick) == len(st.hands) - 1
        krng = core.rng_from(rng)
        follow = core.light_follow(
            t, units, len(lead.cards), access.counts(hand), plays, losing, last, krng
        )
        return tuple(ALL_CARDS[c] for c in follow)
    x = lead.suit
    in_suit = [c for c in hand if suit_of[c.index] == x]
    options = in_suit or list(hand)
    best_seat, best_key = _single_leader(ctx, st, lead)
    if best_seat in partners(st, seat):
        return (max(options, key=lambda c: (c.points, -key[c.index])),)
    winners = [c for c in options if suit_of[c.index] in (x, TRUMP) and key[c.index] > best_key]
    trick_pts = sum(c.points for p in st.trick for c in p.cards)
    if winners and (trick_pts or len(st.trick) < len(st.hands) - 1 or rng.random() < 0.3):
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
    teams = r.team or FIXED_TEAMS
    team = teams[seat]
    bteam = teams[r.banker]
    up = bteam if o.side == "banker" else 1 - bteam
    levels = o.moved if up == team else -o.moved
    pts = r.points if team != bteam else -r.points
    return levels + POINT_WEIGHT * pts


#: Candidates clearly worse than the leader (:func:`prune`): by this many standard errors
#: of the paired difference.
PRUNE_SE = 2.0


def prune(values: Sequence[Sequence[float]], active: list[int]) -> list[int]:
    """The ``active`` candidates (indexes into ``values``, each played out on the same
    deals so far) less those clearly worse than the leader: a paired difference to it
    below zero by more than :data:`PRUNE_SE` standard errors. The rule of thumb's play
    (index 0), against which an override is judged, always stays (the search bot's and
    the Normal bot's look ahead).

    >>> prune([[1, 0, 1, 0], [0, 0, 0, 0], [1, 0, 1, 1]], [0, 1, 2])
    [0, 2]
    """
    n = len(values[0])
    if n < 2:
        return active
    lead = max(active, key=lambda i: sum(values[i]))
    keep = []
    for i in active:
        if i in (0, lead):
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(values[i], values[lead], strict=True)]
        mean_d = sum(diffs) / n
        var = sum((d - mean_d) ** 2 for d in diffs) / (n - 1)
        if mean_d + PRUNE_SE * math.sqrt(var / n) >= 0:
            keep.append(i)
    return keep
