"""The search bot's rollout policy: a cheap, sensible play for the seat to act
(:func:`light_move`) and :func:`play_out_light`."""

from __future__ import annotations

from .cards import TRUMP, Tables, Unit
from .follow import is_legal_follow, random_follow
from .rng import KRng
from .state import KState
from .tricks import trick_winner
from .units import unit_leads


def light_move(s: KState, rng: KRng) -> list[int]:
    """A cheap, sensible play for the seat to act (``shengji.bots.search.light_play`` on
    ints): lead the longest unit (a pair or tractor) 60% of the time when there is one,
    else the highest or lowest single of a random suit; follow a single cheaply (points
    to a winning partner; the lowest card that wins when the trick holds points, when
    seats are still to play, or 30% of the time; else the lowest card, points last);
    follow a larger lead as :func:`light_follow` does."""
    t = s.t
    seat = s.to_act
    hand = s.hands[seat]
    if not s.plays:
        leads = unit_leads(t, hand)
        longest = 0
        for lead in leads:
            if len(lead) > longest:
                longest = len(lead)
        if longest >= 2 and rng.random() < 0.6:
            tops = [lead for lead in leads if len(lead) == longest]
            return tops[rng.below(len(tops))]
        suits: list[list[int]] = []
        for x in range(5):
            mine = [c for c in t.suit_cards[x] if hand[c]]
            if mine:
                suits.append(mine)
        mine = suits[rng.below(len(suits))]
        return [mine[0]] if rng.random() < 0.5 else [mine[-1]]
    if s.n != 1:
        best = s.best_play()
        losing = s.team[(s.leader + best) % s.seats] != s.team[seat]
        last = len(s.plays) == s.seats - 1
        return light_follow(t, s.units, s.n, hand, s.plays, losing, last, rng)
    x = s.units[0].suit
    key = t.key
    pts = t.pts
    options = [c for c in t.suit_cards[x] if hand[c]]
    if not options:
        options = [c for c in range(54) if hand[c]]
    best = s.best_play()
    winner = (s.leader + best) % s.seats
    if s.team[winner] == s.team[seat]:
        pick = options[0]
        for c in options:
            if pts[c] > pts[pick] or (pts[c] == pts[pick] and key[c] < key[pick]):
                pick = c
        return [pick]
    best_key = key[s.plays[best][0]]
    low_win = -1
    for c in options:
        wins = t.suit_of[c] in (x, TRUMP) and key[c] > best_key
        if wins and (low_win < 0 or key[c] < key[low_win]):
            low_win = c
    trick_pts = 0
    for p in s.plays:
        for c in p:
            trick_pts += pts[c]
    if low_win >= 0 and (trick_pts > 0 or len(s.plays) < s.seats - 1 or rng.random() < 0.3):
        return [low_win]
    pick = options[0]
    for c in options:
        if pts[c] < pts[pick] or (pts[c] == pts[pick] and key[c] < key[pick]):
            pick = c
    return [pick]


def light_follow(
    t: Tables,
    units: list[Unit],
    n: int,
    hand: list[int],
    plays: list[list[int]],
    losing: bool,
    last: bool,
    rng: KRng,
) -> list[int]:
    """:func:`light_move`'s follow of a lead of several cards (``plays``: the trick so
    far, the lead first): when the other side is winning (``losing``), take the trick with
    the lowest pair (or triple) of the led suit that beats a pair (triple) lead or, void
    in the led side suit, with the lowest trumps that do (a pair or triple lead) or the
    lowest trumps of the lead's shape (a throw without tractors), when the trick holds
    points, seats are still to play (not ``last``), or 30% of the time; otherwise, and
    when nothing takes it, a legal follow at random."""
    if losing:
        x = units[0].suit
        held = 0
        for c in t.suit_cards[x]:
            held += hand[c]
        play: list[int] = []
        one = len(units) == 1 and units[0].links == 1  # a pair (or triple) lead
        if held == 0 and x != TRUMP:
            if one:
                play = _lowest_winning(t, units, plays, hand, t.suit_cards[TRUMP])
            else:
                play = _lowest_of_shape(t, units, hand)
        elif one and held >= n:
            play = _lowest_winning(t, units, plays, hand, t.suit_cards[x])
        if (
            play
            and trick_winner(t, units, [*plays, play]) == len(plays)
            and is_legal_follow(t, units, n, hand, play)
        ):
            trick_pts = 0
            for p in plays:
                for c in p:
                    trick_pts += t.pts[c]
            if trick_pts > 0 or not last or rng.random() < 0.3:
                return play
    return random_follow(t, units, n, hand, rng)


def _lowest_winning(
    t: Tables, units: list[Unit], plays: list[list[int]], hand: list[int], order: list[int]
) -> list[int]:
    """The lowest ``width`` identical cards of ``order`` (highest first) in ``hand`` that
    win the trick of a one-unit lead; [] when none does."""
    width = units[0].width
    for i in range(len(order) - 1, -1, -1):
        c = order[i]
        if hand[c] >= width:
            play = [c] * width
            if trick_winner(t, units, [*plays, play]) == len(plays):
                return play
    return []


def _lowest_of_shape(t: Tables, units: list[Unit], hand: list[int]) -> list[int]:
    """The lowest trumps of ``hand`` in the shape of ``units`` (widest unit first) when
    no unit is a tractor; [] when a unit is one or the trumps cannot make the shape."""
    left = hand[:]
    trumps = t.suit_cards[TRUMP]
    out: list[int] = []
    widths = sorted([u.width for u in units if u.links == 1], reverse=True)
    if len(widths) != len(units):
        return []
    for width in widths:
        pick = -1
        for i in range(len(trumps) - 1, -1, -1):
            if left[trumps[i]] >= width:
                pick = trumps[i]
                break
        if pick < 0:
            return []
        left[pick] -= width
        for _ in range(width):
            out.append(pick)
    return out


def play_out_light(s: KState, rng: KRng) -> None:
    """Play ``s`` to the end of the hand with :func:`light_move` for every seat."""
    while not s.done:
        s.apply(light_move(s, rng))
