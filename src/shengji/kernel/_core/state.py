"""The play phase: :class:`KState`, a hand in play (hands as counts, the trick so far,
points, the moves and ``apply``), and :func:`play_out`."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from .cards import EV_PLAY, EV_THROW_FAILED, EV_TRICK, PENALTY_STAKE, KEvent, Tables, Unit
from .follow import count_follows, is_legal_follow, legal_follows, random_follow
from .rng import KRng, rng_from
from .tricks import check_throw, trick_winner
from .units import decompose, lead_units, random_lead, unit_leads


class KState:
    """A hand in the play phase, mutable: hands as counts, the trick so far, points.

    Seats are data: ``team[seat]`` is the seat's side (0 or 1), and a trick has one play
    per seat of ``len(team)``. Sides are fixed partnerships, or (找朋友, :meth:`set_calls`)
    the banker's side grows as called cards are played."""

    def __init__(self, t: Tables, banker: int, leader: int, team: list[int] | None = None) -> None:
        self.t = t
        self.team: list[int] = [0, 1, 0, 1] if team is None else team
        self.seats = len(self.team)
        self.hands: list[list[int]] = [[0] * 54 for _ in range(self.seats)]
        self.sizes: list[int] = [0] * self.seats
        self.banker = banker
        self.leader = leader
        self.to_act = leader
        self.plays: list[list[int]] = []
        self.units: list[Unit] = []
        self.n = 0
        self.trick_points = 0
        self.penalties = 0
        self.stake_penalties: list[int] = [0, 0]
        self.tricks = 0
        self.done = False
        self.last_lead: list[int] = []
        self.last_win: list[int] = []
        self.last_winner = -1
        #: The points of the cards in the last finished trick (whoever took them).
        self.last_points = 0
        self.record = False
        self.events: list[KEvent] = []
        self.blocked: list[int] = []
        self.info: object = None
        #: Points each seat took in its tricks (the collectors' total is its side's sum).
        self.seat_points: list[int] = [0] * self.seats
        #: 找朋友: the called cards and ordinals (empty: fixed partnerships), how many
        #: copies of each have been played, and the seat that played the called copy
        #: (-1: nobody yet). That seat joins the banker's side when its trick is complete.
        self.calls: list[int] = []
        self.call_ord: list[int] = []
        self.call_seen: list[int] = []
        self.call_by: list[int] = []
        #: 找朋友 with ``throw_penalty_side = final``: the points each seat's failed throws
        #: cost (empty until one fails); they count for the seat's side as the hand stands.
        self.thrown: list[int] = []

    def set_calls(self, cards: list[int], ordinals: list[int]) -> None:
        """Play 找朋友 with these calls: the banker alone on side 0 until friends are
        found (``team`` becomes this state's own list)."""
        self.team = [1] * self.seats
        self.team[self.banker] = 0
        self.calls = cards
        self.call_ord = ordinals
        self.call_seen = [0] * len(cards)
        self.call_by = [-1] * len(cards)

    def copy(self) -> KState:
        """An independent copy (events are not copied)."""
        friends = len(self.calls) > 0
        s = KState(self.t, self.banker, self.leader, list(self.team) if friends else self.team)
        s.seat_points = list(self.seat_points)
        if friends:
            s.calls = self.calls
            s.call_ord = self.call_ord
            s.call_seen = list(self.call_seen)
            s.call_by = list(self.call_by)
            if self.thrown:
                s.thrown = list(self.thrown)
        s.hands = [list(h) for h in self.hands]
        s.sizes = list(self.sizes)
        s.to_act = self.to_act
        s.plays = [list(p) for p in self.plays]
        s.units = self.units
        s.n = self.n
        s.trick_points = self.trick_points
        s.penalties = self.penalties
        s.stake_penalties = list(self.stake_penalties)
        s.tricks = self.tricks
        s.done = self.done
        s.last_lead = self.last_lead
        s.last_win = self.last_win
        s.last_winner = self.last_winner
        s.last_points = self.last_points
        s.blocked = list(self.blocked)
        s.info = self.info
        return s

    def set_lead(self, cards: list[int]) -> None:
        """Take ``cards`` (already in the trick) as the lead of the current trick."""
        self.units = lead_units(self.t, cards)
        self.n = len(cards)

    def moves(self) -> list[list[int]]:
        """The legal plays now: every one-unit lead, or every distinct legal follow."""
        hand = self.hands[self.to_act]
        if not self.plays:
            return unit_leads(self.t, hand)
        return legal_follows(self.t, self.units, self.n, hand)

    def count_moves(self) -> int:
        """How many :meth:`moves` there are (follows counted without listing them)."""
        hand = self.hands[self.to_act]
        if not self.plays:
            return len(unit_leads(self.t, hand))
        return count_follows(self.t, self.units, self.n, hand)

    def random_move(self, rng: Random, throw_rate: float) -> list[int]:
        """A uniform legal follow, or a random lead (see :func:`random_lead`)."""
        return self.random_move_k(rng_from(rng), throw_rate)

    def random_move_k(self, rng: KRng, throw_rate: float) -> list[int]:
        """:meth:`random_move` drawing from a kernel stream."""
        seat = self.to_act
        if not self.plays:
            return random_lead(self.t, self.hands[seat], self.sizes[seat], rng, throw_rate)
        return random_follow(self.t, self.units, self.n, self.hands[seat], rng)

    def is_legal(self, cards: list[int]) -> bool:
        """True if the seat to act may play ``cards`` now (a throw attempt counts as legal;
        :meth:`apply` resolves it)."""
        hand = self.hands[self.to_act]
        if not self.plays:
            cnt = [0] * 54
            for c in cards:
                cnt[c] += 1
                if cnt[c] > hand[c]:
                    return False
            return len(decompose(self.t, cards)) > 0
        return is_legal_follow(self.t, self.units, self.n, hand, cards)

    def apply(self, cards: list[int]) -> None:
        """Play ``cards`` for the seat to act (trusted: see :meth:`is_legal`); a throw is
        checked against the other hands and reduced to the forced unit when it fails."""
        t = self.t
        seat = self.to_act
        if not self.plays:
            units = lead_units(t, cards)
            blocked = -1
            if len(units) > 1:
                played, blocked = self._check_throw(seat, cards, units)
                if played:
                    cards = played
                    units = lead_units(t, cards)
            self.units = units
            self.n = len(cards)
            self.leader = seat
            self.blocked.append(blocked)
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
        self.sizes[seat] -= len(cards)
        self.plays.append(cards)
        if self.calls:
            self.count_called(seat, cards)
        if self.record:
            self.events.append(KEvent(EV_PLAY, seat, cards, [], -1, 0, 0, False))
        if len(self.plays) < self.seats:
            self.to_act = (seat + 1) % self.seats
            return
        self._finish_trick()

    def _check_throw(self, seat: int, cards: list[int], units: list[Unit]) -> tuple[list[int], int]:
        """(cards played instead, seat that beat them) for a multi-unit lead; no cards
        when the throw stands (:func:`check_throw`)."""
        t = self.t
        n = self.seats
        others = [self.hands[(seat + i) % n] for i in range(1, n)]
        res = check_throw(t, units, others, self.team[seat] == self.team[self.banker])
        if res is None:
            return [], -1
        self.penalties += res.penalty
        if self.calls and t.penalty_final and res.penalty:
            self.note_thrown(seat, abs(res.penalty))
        if t.penalty == PENALTY_STAKE:
            self.stake_penalties[self.team[seat]] += 1
        if self.record:
            self.events.append(
                KEvent(
                    EV_THROW_FAILED,
                    seat,
                    list(res.played),
                    list(cards),
                    (seat + res.first) % n,
                    res.penalty,
                    0,
                    False,
                )
            )
        return res.played, (seat + res.blocker) % n

    def note_thrown(self, seat: int, points: int) -> None:
        """找朋友 (``throw_penalty_side = final``): ``seat``'s failed throws cost ``points``
        more, counted for its side as the hand stands (:meth:`recount_penalties`)."""
        if not self.thrown:
            self.thrown = [0] * self.seats
        self.thrown[seat] += points

    def recount_penalties(self) -> None:
        """The collectors' penalty points from :attr:`thrown`: a banker-side seat's
        failed throws add, a collector's subtract."""
        tb = self.team[self.banker]
        total = 0
        for s in range(self.seats):
            pts = self.thrown[s]
            total += pts if self.team[s] == tb else -pts
        self.penalties = total

    def count_called(self, seat: int, cards: list[int]) -> None:
        """Count the called copies among ``cards`` played by ``seat`` (in play order)."""
        calls = self.calls
        for c in cards:
            for i in range(len(calls)):
                if calls[i] == c and self.call_by[i] < 0:
                    self.call_seen[i] += 1
                    if self.call_seen[i] == self.call_ord[i]:
                        self.call_by[i] = seat

    def best_play(self) -> int:
        """Index in :attr:`plays` (0 = the lead) of the play winning the trick so far
        (:func:`trick_winner`); -1 before the lead."""
        if not self.plays:
            return -1
        return trick_winner(self.t, self.units, self.plays)

    def _finish_trick(self) -> None:
        t = self.t
        plays = self.plays
        lead = plays[0]
        best = self.best_play()
        winner = (self.leader + best) % self.seats
        pts = 0
        pts_of = t.pts
        for p in plays:
            for c in p:
                pts += pts_of[c]
        self.seat_points[winner] += pts
        team = self.team
        if self.calls:
            # the seats that played a called copy in this trick join the banker's side,
            # with the points they took before; the collectors' total is recounted
            tb = team[self.banker]
            for s in self.call_by:
                if s >= 0:
                    team[s] = tb
            total = 0
            for s in range(self.seats):
                if team[s] != tb:
                    total += self.seat_points[s]
            self.trick_points = total
            if self.thrown:
                self.recount_penalties()
            collectors = team[winner] != tb
        else:
            collectors = team[winner] != team[self.banker]
            if collectors:
                self.trick_points += pts
        if self.record:
            self.events.append(KEvent(EV_TRICK, winner, [], [], -1, 0, pts, collectors))
        self.tricks += 1
        self.last_lead = lead
        self.last_win = plays[best]
        self.last_winner = winner
        self.last_points = pts
        self.plays = []
        self.leader = winner
        self.to_act = winner
        if self.sizes[0] == 0:
            self.done = True


Policy = Callable[[KState, Random], list[int]]


def play_out(s: KState, rng: Random, throw_rate: float, policy: Policy | None) -> None:
    """Play ``s`` to the end of the hand: uniform random legal plays (leads as
    :func:`random_lead`) or the plays ``policy(state, rng)`` returns."""
    if policy is None:
        fast = rng_from(rng)
        while not s.done:
            s.apply(s.random_move_k(fast, throw_rate))
    else:
        while not s.done:
            s.apply(policy(s, rng))
