"""The oracle's end of a hand with fixed partnerships (§6), written from docs/rules.md
§4.6-§4.10 and §4.13 rather than from the product: the kitty bonus (扣底), the level
tables as the rows the rule text gives, must-play levels, the J hook, who banks next,
the match end and the coins. 找朋友's end of a hand is :func:`oracle.friends.finish`
(it climbs with :func:`climb` and reads :func:`level_change`).

The results are the product's value types (:class:`~shengji.rules.scoring.HandOutcome`,
:class:`~shengji.rules.scoring.HandScore`, :class:`~shengji.rules.scoring.TableResult`), so the
oracle's game compares with the product's field by field.

>>> from shengji.rules.presets import load_preset
>>> o = hand_outcome(load_preset("shuangkou"), 0, (3, 3), 0)
>>> (o.side, o.gain, o.moved, o.banker_level, o.must_play_stop, o.next_banker)
('banker', 3, 2, 5, True, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from shengji.rules.cards import Card
from shengji.rules.options import RuleOptions
from shengji.rules.scoring import HandOutcome, HandScore, Side, TableResult
from shengji.rules.trump import TrumpContext

if TYPE_CHECKING:
    from shengji.rules.units import Lead, Shape


# -- the kitty bonus (§4.6) -------------------------------------------------------------------


def kitty_multiplier(options: RuleOptions, shape: Shape) -> int:
    """The multiplier a unit of ``shape`` (k links of width w) sets: ``doubling`` and
    ``widest`` 2·w^k, ``linear`` 2·w·k (and so ``all_cards``, 2 a card), ``card_count``
    its number of cards."""
    k, w = shape
    cards = k * w
    mode = options.kitty_multiplier
    if mode == "card_count":
        return cards
    return 2 * cards if mode in ("linear", "all_cards") else 2 * pow(w, k)


def kitty_bonus(options: RuleOptions, lead: Lead, kitty: Sequence[Card]) -> tuple[int, int]:
    """(multiplier, bonus points) of the kitty when the collectors take the last trick led
    by ``lead``: the lead's largest unit by (links, width) sets the multiplier;
    ``widest`` takes its widest unit, the longest of that width; ``card_count`` counts a
    throw twice; ``all_cards`` is two for every card led."""
    mode = options.kitty_multiplier
    shapes = [u.shape for u in lead.units]
    if mode == "all_cards":
        factor = 2 * len(lead.cards)
    elif mode == "widest":
        factor = kitty_multiplier(options, max(shapes, key=lambda sh: (sh[1], sh[0])))
    else:
        factor = kitty_multiplier(options, max(shapes))
        if mode == "card_count" and len(shapes) > 1:
            factor += factor
    return factor, factor * sum(c.pts for c in kitty)


# -- level tables (§4.7) ----------------------------------------------------------------------


class _Row(NamedTuple):
    """From ``low`` points on (up to the next row), ``side`` goes up ``gain``."""

    low: int
    side: Side
    gain: int


def _rows(*spec: tuple[int, str, int]) -> tuple[_Row, ...]:
    return tuple(_Row(low, "banker" if who == "B" else "collectors", up) for low, who, up in spec)


def _steps(step: int) -> tuple[_Row, ...]:
    """RULES' table in steps of ``step`` points: 0 B+3, then B+2, B+1, swap, C+1."""
    return _rows((0, "B", 3), (5, "B", 2), (step, "B", 1), (2 * step, "C", 0), (3 * step, "C", 1))


_CLASSIC = _rows((0, "B", 3), (5, "B", 2), (40, "B", 1), (80, "C", 1), (120, "C", 2))
_SUPER = _rows(
    (0, "B", 6),
    (5, "B", 5),
    (15, "B", 4),
    (25, "B", 3),
    (35, "B", 2),
    (40, "B", 1),
    (80, "C", 0),
    (120, "C", 1),
    (125, "C", 2),
    (165, "C", 3),
    (205, "C", 4),
    (245, "C", 5),
    (285, "C", 6),
)
_ONE_DECK = _rows((0, "B", 2), (5, "B", 1), (40, "C", 0), (80, "C", 1), (100, "C", 2))
_THREE_DECKS = _rows((0, "B", 3), (5, "B", 2), (60, "B", 1), (120, "C", 0), (180, "C", 1))
_SHUANGKOU = (*_steps(40)[:4], *_rows((120, "C", 1), (160, "C", 2), (240, "C", 3)))
_BOTZONE = _rows((0, "B", 3), (5, "B", 2), (40, "B", 1), (80, "C", 1), (120, "C", 2), (160, "C", 3))


def _table(options: RuleOptions) -> tuple[tuple[_Row, ...], int | None]:
    """The rows of ``options.level_table`` and how many points make one more level past
    the last row (None: the table stops there)."""
    name = options.level_table
    fixed: dict[str, tuple[tuple[_Row, ...], int | None]] = {
        "standard-fixed": (_steps(40), 40),
        "classic": (_CLASSIC, 40),
        "super": (_SUPER, None),
        "classic-1deck": (_ONE_DECK, 20),
        "classic-3deck": (_THREE_DECKS, 60),
        "shuangkou": (_SHUANGKOU, 40),
        "botzone": (_BOTZONE, None),
    }
    if name in fixed:
        return fixed[name]
    step = 20 * options.decks  # ``standard`` grows with the decks
    return _steps(step), step


def level_change(options: RuleOptions, pts: int, last: bool = False) -> TableResult:
    """The row of the collectors' points ``pts`` (none below 0) in ``options.level_table``;
    ``last``: the collectors took the last trick (read by ``classic-1deck-45`` only, where
    45 points and the last trick each win a level for the collectors, 40 without the last
    trick is a draw and anything else a banker's level)."""
    p = pts if pts > 0 else 0
    if options.level_table == "classic-1deck-45":
        won = [p >= 45, last].count(True)
        if won:
            return TableResult("collectors", won)
        return TableResult("banker", int(p != 40))
    rows, further = _table(options)
    row = [r for r in rows if r.low <= p][-1]
    extra = 0
    if further is not None and row is rows[-1]:
        extra = (p - row.low) // further
    return TableResult(row.side, row.gain + extra)


# -- climbing, the J hook, the next banker, the match (§4.8-§4.10) ----------------------------


def climb(options: RuleOptions, start: int, gain: int, banker_won: bool) -> tuple[int, int, bool]:
    """Up to ``gain`` levels from ``start``: (level reached, levels moved, whether a
    must-play level stopped it). A must-play level stops the climb unless it is where a
    winning banker's side starts; A is the top unless ``wrap`` (A + 1 = 2)."""
    level, moved = start, 0
    while moved < gain:
        stays = level in options.must_play_levels and (level != start or not banker_won)
        if stays:
            return level, moved, True
        if level == 14 and options.match_end != "wrap":
            break
        level = 2 if level == 14 else level + 1
        moved += 1
    return level, moved, False


def hand_outcome(
    options: RuleOptions,
    banker: int,
    levels: tuple[int, int],
    points: int,
    trick_points: int | None = None,
    last: bool = False,
    hook: int | None = None,
) -> HandOutcome:
    """A fixed-partnership hand's outcome: ``levels`` are the banker's team's and the
    collectors', ``points`` the collectors' total; ``trick_points`` (``points`` if None)
    decide the J hook with ``last`` (the collectors took the last trick) and ``hook``
    (how many copies of the J topping the winning play, None for none)."""
    held_b, held_c = levels
    row = level_change(options, points, last)
    gain, capped = row.gain, False
    if options.max_gain is not None and row.gain > options.max_gain:
        gain, capped = options.max_gain, True
    new_b, new_c = held_b, held_c
    if row.side == "banker":
        new_b, moved, stop = climb(options, held_b, gain, True)
        after = (banker + 2) % 4  # the banker's partner
    else:
        new_c, moved, stop = climb(options, held_c, gain, False)
        after = (banker + 1) % 4  # the banker's 下家
    tp = points if trick_points is None else trick_points
    drop = None
    hooked = options.j_hook and held_b == 11 and last and bool(hook)
    if hooked and tp >= 40 * options.decks:
        drop = 3 if hook is not None and hook >= 2 else 7
        new_b = drop
    winner: Side | None = None
    if options.match_end == "defend_ace" and row.side == "banker" and held_b == 14:
        winner = "banker"
    if options.match_end == "reach_ace":
        if row.side == "banker" and new_b == 14:
            winner = "banker"
        if row.side == "collectors" and moved and new_c == 14:
            winner = "collectors"
    return HandOutcome(
        points=points,
        side=row.side,
        gain=gain,
        moved=moved,
        capped=capped,
        must_play_stop=stop,
        hook=drop,
        banker_seat=banker,
        next_banker=after,
        old_banker_level=held_b,
        old_collector_level=held_c,
        banker_level=new_b,
        collector_level=new_c,
        winner=winner,
    )


def j_hook_width(ctx: TrumpContext, winning_play: Sequence[Card]) -> int | None:
    """At level J: the copies of the play's highest card when that card is a J (1 hooks
    to 7, 2 or more to 3); None otherwise, or at another level."""
    if ctx.level != 11 or not winning_play:
        return None
    rank = {c: (ctx.key[c.index], ctx.tiebreak[c.index]) for c in winning_play}
    top = max(rank, key=lambda c: rank[c])
    if top.is_joker or top.rank != 11:
        return None
    return list(winning_play).count(top)


def score_hand(
    opts: RuleOptions,
    tc: TrumpContext,
    banker: int,
    team_levels: tuple[int, int],
    taken: int,
    penalty_points: int,
    kitty_cards: Sequence[Card],
    lead: Lead,
    taker: int,
    winning_cards: Sequence[Card],
    last_points: int,
) -> HandScore:
    """A finished fixed-partnership hand: the collectors' ``taken`` trick points, the
    throw ``penalty_points``, and the kitty times its multiplier when they took the last
    trick (``taker`` won it with ``winning_cards`` over ``lead``). ``classic-1deck-45``
    counts neither the kitty nor the last trick's ``last_points``."""
    theirs = taker % 2 != banker % 2
    mult = bonus = 0
    hook = None
    if theirs:
        mult, bonus = kitty_bonus(opts, lead, kitty_cards)
        hook = j_hook_width(tc, winning_cards)
    if opts.level_table == "classic-1deck-45":
        total = taken + penalty_points - (last_points if theirs else 0)
    else:
        total = taken + penalty_points + bonus
    mine = banker % 2
    outcome = hand_outcome(
        opts, banker, (team_levels[mine], team_levels[1 - mine]), total, taken, theirs, hook
    )
    return HandScore(mult, bonus, total, outcome)


def team_standing(
    opts: RuleOptions, banker_team: int, outcome: HandOutcome, progress: tuple[int, int], hand: int
) -> tuple[tuple[int, int], tuple[int, int], bool, int | None]:
    """The teams' levels and levels climbed after hand number ``hand`` (from 0), whether
    the match is over and the winning team: the outcome's, or at ``match_hands`` the team
    that climbed more (None when both climbed as much)."""
    other = 1 - banker_team
    levels = {banker_team: outcome.banker_level, other: outcome.collector_level}
    up = banker_team if outcome.side == "banker" else other
    climbed = {t: progress[t] + (outcome.moved if t == up else 0) for t in (0, 1)}
    sides = {"banker": banker_team, "collectors": other}
    winner = None if outcome.winner is None else sides[outcome.winner]
    limit = opts.match_hands
    if winner is None and limit is not None and hand + 1 >= limit:
        if climbed[0] == climbed[1]:
            return (levels[0], levels[1]), (climbed[0], climbed[1]), True, None
        winner = max((0, 1), key=lambda t: climbed[t])
    return (levels[0], levels[1]), (climbed[0], climbed[1]), winner is not None, winner


# -- coins (§4.13) ----------------------------------------------------------------------------


def hand_stake(options: RuleOptions, counters: int) -> int:
    """The coins a hand is played for: none without ``coins``, else ``base_stake``, twice
    as much for every counter-declaration under ``stake_doubling``."""
    if not options.coins:
        return 0
    doublings = counters if options.stake_doubling else 0
    return options.base_stake << doublings


def settle_coins(
    opts: RuleOptions, stake: int, winners: int, thrown: tuple[int, int]
) -> tuple[int, int]:
    """Teams 0 and 1's coins after a hand: the losing team pays ``stake`` to the
    ``winners``, and a team pays the other half of ``base_stake`` for each of its
    failed throws (``thrown``) under ``throw_penalty = stake``: with a stake of 400 and
    one failed throw on each side, the winners of team 0 get 400.

    >>> from shengji.rules.presets import load_preset
    >>> settle_coins(load_preset("shuangsheng-super"), 400, 0, (1, 1))
    (400, -400)
    """
    if not opts.coins:
        return (0, 0)
    owed = [n * opts.base_stake // 2 for n in thrown]
    zero = (stake if winners == 0 else -stake) - owed[0] + owed[1]
    return zero, -zero
