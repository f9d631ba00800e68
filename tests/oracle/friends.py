"""找朋友 (Finding Friends, docs/rules.md §4.16) for the oracle's game flow, written from the
rule text (not from the product's kernel): seats and cards, the calls a banker may make,
friends found by counting the called copies in play order, the sides and the
collectors' points, and the end of a hand with every player's own level (climbing as
:mod:`oracle.scoring` does).

The calls, the states and the results are the product's value types
(:class:`~shengji.rules.friends.FriendCall`, :class:`~shengji.rules.scoring.HandOutcome`), so they
compare directly with the product's.

>>> from shengji.rules.presets import load_preset
>>> [(hand_size(o), kitty_size(o), calls_needed(o))
...  for o in (load_preset("zhaopengyou", {"players": n}) for n in (4, 5, 6, 7, 8))]
[(25, 8, 1), (20, 8, 1), (26, 6, 2), (22, 8, 2), (26, 8, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence

from shengji.game.state import Trick, TrickPlay
from shengji.rules.cards import Card, Suit
from shengji.rules.friends import CalledFriend, CallError, FriendCall
from shengji.rules.options import RuleOptions
from shengji.rules.scoring import HandOutcome

from .scoring import climb, level_change

#: §7: the kitty of four seats by the number of decks.
_FOUR_SEAT_KITTY = {1: 6, 2: 8, 3: 6, 4: 8}


# -- seats and cards --------------------------------------------------------------------------


def kitty_size(options: RuleOptions) -> int:
    """Four seats keep §7's kitty; more take the fewest cards, at least 5, that leave every
    player the same number."""
    n, total = options.players, 54 * options.decks
    if n == 4:
        return _FOUR_SEAT_KITTY[options.decks]
    k = 5
    while (total - k) % n:
        k += 1
    return k


def hand_size(options: RuleOptions) -> int:
    """Cards dealt to each seat."""
    return (54 * options.decks - kitty_size(options)) // options.players


def calls_needed(options: RuleOptions) -> int:
    """Friends the banker calls: ``friend_calls``, or one fewer than half the players."""
    if options.friend_calls is not None:
        return options.friend_calls
    return options.players // 2 - 1


# -- calling ----------------------------------------------------------------------------------


def callable_card(card: Card, level: int, trump: Suit | None, options: RuleOptions) -> bool:
    """Not a joker, not a level card, and not a trump outside the trump suit (a constant
    2 of another suit, or any constant 2 under no-trump); a trump-suit card may be called
    unless ``call_trump_suit`` is off."""
    if card.is_joker or card.rank == level:
        return False
    if trump is not None and card.suit == trump and not options.call_trump_suit:
        return False
    constant_two = options.constant_twos and level != 2 and card.rank == 2
    return not (constant_two and card.suit != trump)


def check_calls(
    options: RuleOptions, level: int, trump: Suit | None, calls: Sequence[FriendCall]
) -> None:
    """Raise ``ILLEGAL_CALL`` when the banker may not make ``calls``: the wrong number,
    a card that cannot be called, an ordinal outside 1..decks, or the same call twice."""
    need, decks = calls_needed(options), options.decks
    if len(calls) != need:
        text = f"call exactly {need} friend(s), not {len(calls)}"
        raise CallError(text, params={"reason": "count", "need": need, "got": len(calls)})
    seen: set[tuple[Card, int]] = set()
    for c in calls:  # call by call: its card, its ordinal, then whether it came before
        trump_suit = trump is not None and c.card.suit == trump and c.card.rank != level
        if trump_suit and not options.call_trump_suit:
            text = (
                f"{c.card.text} cannot be called: cards of the trump suit are not friends' "
                "cards at this table (call_trump_suit is off)"
            )
            raise CallError(text, params={"reason": "trump_suit", "card": c.card.text})
        if not callable_card(c.card, level, trump, options):
            text = (
                f"{c.card.text} cannot be called: jokers, level cards and other trumps "
                "outside the trump suit are never friends' cards"
            )
            raise CallError(text, params={"reason": "not_callable", "card": c.card.text})
        if not 1 <= c.ordinal <= decks:
            text = (
                f"{c.text}: the ordinal must be 1..{decks} (there are {decks} copies of each card)"
            )
            raise CallError(text, params={"reason": "ordinal", "call": c.text, "decks": decks})
        if (c.card, c.ordinal) in seen:
            raise CallError(
                "the same card and ordinal is called twice", params={"reason": "duplicate"}
            )
        seen.add((c.card, c.ordinal))


# -- sides ------------------------------------------------------------------------------------


def banker_side(banker: int, calls: Sequence[CalledFriend]) -> set[int]:
    """The seats known to be on the banker's side: the banker and the friends found."""
    return {banker} | {c.seat for c in calls if c.seat is not None}


def answered(
    calls: Sequence[CalledFriend], before: Sequence[Trick], trick: Sequence[TrickPlay]
) -> list[tuple[int, int]]:
    """The calls answered in ``trick`` (just complete), as (call index, seat): every copy
    played this hand is counted in play order, several in one play one after the other,
    the banker's own too; the ``ordinal``-th copy of the card answers the call."""
    out = []
    for i, c in enumerate(calls):
        if c.seat is not None:
            continue
        seen = sum(1 for t in before for p in t.plays for x in p.cards if x == c.call.card)
        for p in trick:
            for x in p.cards:
                if x == c.call.card:
                    seen += 1
                    if seen == c.call.ordinal:
                        out.append((i, p.seat))
        # (a call whose copy is not reached stays open: later tricks, or the kitty)
    return out


def penalties_for(tricks: Sequence[Trick], side: set[int]) -> int:
    """The failed throws' penalty points as a change to the collectors' points, each
    counted for the thrower's side as it is now (``throw_penalty_side = final``): a
    banker-side thrower's add, a collector's subtract."""
    total = 0
    for t in tricks:
        for p in t.plays:
            if p.attempted is not None:
                total += abs(p.penalty) if p.seat in side else -abs(p.penalty)
    return total


def collectors_points(tricks: Sequence[Trick], side: set[int]) -> int:
    """The points taken by the players not (yet) on the banker's side."""
    return sum(t.points for t in tricks if t.winner not in side)


# -- the end of a hand ------------------------------------------------------------------------


def first_after(seat: int, seats: int, among: set[int]) -> int:
    """The first seat after ``seat`` in play order that is in ``among`` (``seat`` itself
    when no other is)."""
    for i in range(1, seats + 1):
        s = (seat + i) % seats
        if s in among:
            return s
    return seat


def finish(
    options: RuleOptions,
    banker: int,
    side: set[int],
    points: int,
    last_trick_collectors: bool,
    levels: Sequence[int],
    progress: Sequence[int],
    hand: int,
) -> tuple[HandOutcome, tuple[int, ...], tuple[int, ...], tuple[int, ...], bool, int | None]:
    """Score a finished 找朋友 hand from the collectors' ``points``: the outcome, every
    player's new levels, the levels climbed in the match and in this hand, whether the
    match is over and its winning seat."""
    n = options.players
    res = level_change(options, points, last_trick_collectors)
    banker_won = res.side == "banker"
    # small_side_bonus: a winning banker's side that ended smaller than the banker and
    # its calls gains more
    short = len(side) < 1 + calls_needed(options)
    bonus = options.small_side_bonus if banker_won and short else 0
    gain = res.gain + bonus
    capped = options.max_gain is not None and gain > options.max_gain
    if capped:
        gain = options.max_gain or 0
    winners = side if banker_won else set(range(n)) - side
    new, total, now = list(levels), list(progress), [0] * n
    stops: dict[int, bool] = {}
    winner: int | None = None
    for i in range(n):  # in play order from the banker: the first to reach A wins
        s = (banker + i) % n
        if s not in winners:
            continue
        new[s], now[s], stops[s] = climb(options, levels[s], gain, banker_won)
        total[s] += now[s]
        passes = s == banker or options.friend_passes_ace  # a friend at A passes it too
        ends = (
            options.match_end == "defend_ace" and banker_won and passes and levels[s] == 14
        ) or (options.match_end == "reach_ace" and new[s] == 14 and now[s] > 0)
        if ends and winner is None:
            winner = s
    by_levels = winner
    over = winner is not None
    if not over and options.match_hands is not None and hand + 1 >= options.match_hands:
        over = True
        best = max(total)
        if total.count(best) == 1:
            winner = total.index(best)
    # The outcome speaks for two players as the fixed-partnership one does for two teams:
    # the banker, and the first collector after the banker (who banks next if the
    # collectors win).
    first_collector = first_after(banker, n, set(range(n)) - side)
    who = banker if banker_won else first_collector
    outcome = HandOutcome(
        points=points,
        side=res.side,
        gain=gain,
        moved=now[who],
        capped=capped,
        must_play_stop=stops[who],
        hook=None,
        banker_seat=banker,
        next_banker=first_after(banker, n, winners),
        old_banker_level=levels[banker],
        old_collector_level=levels[first_collector],
        banker_level=new[banker],
        collector_level=new[first_collector],
        winner=None if by_levels is None else ("banker" if by_levels in side else "collectors"),
        bonus=bonus,
    )
    return outcome, tuple(new), tuple(total), tuple(now), over, winner
