"""Points, kitty bonus (扣底), level tables, must-play levels, the J hook, rotation and the
end of a match (§6): the kernel scores (``shengji.kernel._core``: ``score_hand``,
``level_change``, ``climb``, ``hand_outcome``, the standings, the coins); this module
gives those answers for :class:`~shengji.rules.options.RuleOptions` and
:class:`~shengji.rules.cards.Card` objects, and the result types (:class:`HandOutcome`, which
explains itself in both languages, :class:`HandResult`).

>>> from shengji.rules.presets import load_preset
>>> r = hand_outcome(load_preset("shuangkou"), banker_seat=0, banker_level=3,
...                  collector_level=3, points=0)
>>> r.next_banker, r.banker_level, r.collector_level
(2, 5, 3)
>>> r.explain("en")
'Collectors scored 0: banker side goes up 2 (must-play 5 stops the climb) → 5; next banker seat 2.'
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

from ..kernel import access
from .cards import Card, rank_text
from .options import RuleOptions
from .seats import FIXED_TEAMS
from .trump import TrumpContext

if TYPE_CHECKING:  # the rules API sits above scoring (the kernel scores with it)
    from ..kernel._core import KOutcome, ScoreRules
    from .units import Lead, Shape

Side = Literal["banker", "collectors"]


def kitty_multiplier(options: RuleOptions, shape: Shape) -> int:
    """Multiplier for a last trick won with a unit of ``shape`` = (links, width).

    ``linear``: single 2, pair 4, k-link tractor 4k (2·w·k); ``doubling`` and ``widest``:
    single 2, pair 4, k-link tractor 2^(k+1), triple 6, Titanic 2·3^k (2·w^k);
    ``all_cards``: 2 per card (of a one-unit lead, as ``linear``).
    """
    m: int = access.core().shape_multiplier(_rules(options), shape[0], shape[1])
    return m


def kitty_bonus(options: RuleOptions, lead: Lead, kitty: Sequence[Card]) -> tuple[int, int]:
    """``(multiplier, bonus)`` when the collectors win the last trick: the multiplier is set
    by the largest unit of the lead, the structure the winning play matched (``widest``:
    the widest unit, then the longest — seed 001's list: Titanic, triple, tractor, pair;
    ``all_cards``: 2 per card each player played, a throw's every card counted)."""
    links, widths = [u.links for u in lead.units], [u.width for u in lead.units]
    m: int = access.core().kitty_multiplier(_rules(options), links, widths)
    return m, sum(c.pts for c in kitty) * m


@dataclass(frozen=True, slots=True)
class TableResult:
    """Which side goes up and by how much; ``gain == 0`` for collectors means a swap."""

    side: Side
    gain: int


def level_change(
    options: RuleOptions, pts: int, last_trick_collectors: bool = False
) -> TableResult:
    """Look up the collectors' points (<= 0 counts as 0) in ``options.level_table``.

    ``standard`` thresholds scale with the decks (steps of 20 points per deck);
    ``standard-fixed`` is the same table in fixed 40-point steps whatever the decks.
    ``classic-1deck-45`` (seed 001's one-deck passage) also needs who won the last trick:
    45 points or the last trick wins the hand for the collectors, both win two levels;
    exactly 40 without the last trick is a draw (the banker side keeps the deal, no level
    changes). ``shuangkou`` is seed 002's table (fixed 40-point steps): as ``standard``
    with two decks up to 155, then 160-200 C+2 and one more per further 40.
    """
    side, gain = access.core().level_change(_rules(options), pts, last_trick_collectors)
    return TableResult(_SIDES[side], gain)


def climb(
    options: RuleOptions, start: int, gain: int, as_winning_banker: bool
) -> tuple[int, int, bool]:
    """Climb ``gain`` levels from ``start``: the new level, the levels actually moved and
    whether a must-play level stopped the climb. ``wrap`` goes past A back to 2; otherwise
    A is the top."""
    level, moved, stop = access.core().climb(_rules(options), start, gain, as_winning_banker)
    return level, moved, stop


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """The result of a hand: new levels of the two teams, the next banker, the match winner
    (None while it goes on) and the facts behind them for :meth:`explain`. ``gain`` is
    what the level table (and ``max_gain``) gives, ``moved`` the levels actually climbed."""

    points: int
    side: Side
    gain: int
    moved: int
    capped: bool
    must_play_stop: bool
    hook: int | None
    banker_seat: int
    next_banker: int
    old_banker_level: int
    old_collector_level: int
    banker_level: int
    collector_level: int
    winner: Side | None
    #: 找朋友 (``small_side_bonus``): levels a winning banker's side gained on top because
    #: it ended smaller than the banker and every friend called (included in ``gain``).
    bonus: int = 0

    def explain(self, lang: str = "en") -> str:
        """One line saying what happened and why, in ``en`` or ``zh``."""
        zh = lang == "zh"
        side_up = self.side == "banker"
        new = rank_text(self.banker_level if side_up else self.collector_level)
        if side_up and self.gain == 0:
            what = "平局, 不升级" if zh else "a draw (平局): no level change"
        elif side_up:
            what = f"庄家方升{self.moved}级" if zh else f"banker side goes up {self.moved}"
        elif self.gain == 0:
            what = "换庄, 抓分方上台 (不升级)" if zh else "collectors take over (no level change)"
        else:
            what = (
                f"抓分方上台并升{self.moved}级"
                if zh
                else f"collectors take over and go up {self.moved}"
            )
        notes = []
        if self.bonus:
            notes.append(
                f"庄家方人少, 多升{self.bonus}级"
                if zh
                else f"+{self.bonus} for a smaller banker side"
            )
        if self.capped:
            notes.append(f"封顶{self.gain}级" if zh else f"capped at {self.gain}")
        if self.must_play_stop:
            notes.append(f"必打级{new}停住" if zh else f"must-play {new} stops the climb")
        if notes:
            what += f" ({', '.join(notes)})"
        if self.gain:
            what += f" → {new}"
        if self.hook:
            hook = rank_text(self.hook)
            what += f"; 钩底, 庄家方降到{hook}" if zh else f"; J hook: banker side falls to {hook}"
        # the match's last hand has no next hand: its end is said instead of a next banker
        if zh:
            end = {"banker": "庄家方赢得比赛", "collectors": "抓分方赢得比赛"}
            then = end.get(self.winner or "", f"下一局庄家: {self.next_banker}号位")
            return f"抓分方得{self.points}分: {what}; {then}。"
        end = {"banker": "banker side wins the match", "collectors": "collectors win the match"}
        then = end.get(self.winner or "", f"next banker seat {self.next_banker}")
        return f"Collectors scored {self.points}: {what}; {then}."


def hand_outcome(
    options: RuleOptions,
    banker_seat: int,
    banker_level: int,
    collector_level: int,
    points: int,
    *,
    trick_points: int | None = None,
    last_trick_collectors: bool = False,
    hook_width: int | None = None,
    teams: Sequence[int] = FIXED_TEAMS,
) -> HandOutcome:
    """Apply the level table, ``max_gain``, must-play levels, the J hook, rotation and the
    match end to a finished hand.

    ``hook_width``: when the collectors won the last trick with a J as the top card of the
    winning play, 1 for a single J and 2 or more for a pair (or longer) of Js. ``teams``:
    each seat's side; the next banker is the winning side's first seat after the banker.
    找朋友's ``small_side_bonus`` adds to the gain of a winning banker's side that ended
    with fewer seats than the banker and its calls (before ``max_gain``).
    """
    o = access.core().hand_outcome(
        _rules(options),
        banker_seat,
        banker_level,
        collector_level,
        points,
        points if trick_points is None else trick_points,
        last_trick_collectors,
        hook_width or 0,
        list(teams),
    )
    return outcome_of(o)


def outcome_of(o: KOutcome) -> HandOutcome:
    """The kernel's outcome of a hand as a :class:`HandOutcome`."""
    return HandOutcome(
        points=o.points,
        side=_SIDES[o.side],
        gain=o.gain,
        moved=o.moved,
        capped=o.capped,
        must_play_stop=o.must_play_stop,
        hook=o.hook or None,
        banker_seat=o.banker_seat,
        next_banker=o.next_banker,
        old_banker_level=o.old_banker_level,
        old_collector_level=o.old_collector_level,
        banker_level=o.banker_level,
        collector_level=o.collector_level,
        winner=None if o.winner < 0 else _SIDES[o.winner],
        bonus=o.bonus,
    )


@dataclass(frozen=True, slots=True)
class HandScore:
    """The end of a hand in points: the kitty multiplier and bonus (0 unless the
    collectors won the last trick), the collectors' total and the level outcome."""

    kitty_multiplier: int
    kitty_bonus: int
    points: int
    outcome: HandOutcome


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a finished hand left on the score sheet."""

    number: int
    banker: int
    level: int
    trump: str
    trick_points: int
    kitty_points: int
    kitty_multiplier: int
    penalties: int
    points: int
    outcome: HandOutcome
    counters: int
    stake: int
    coins: tuple[int, int]
    kitty: tuple[Card, ...]
    #: 找朋友: the banker's side as the hand ended (the banker first; empty otherwise).
    banker_side: tuple[int, ...] = ()
    #: 找朋友: the levels each seat climbed in this hand (empty otherwise).
    climbed: tuple[int, ...] = ()


def scoring_levels(
    options: RuleOptions, levels: Sequence[int], banker: int, teams: Sequence[int]
) -> tuple[int, int]:
    """The levels :func:`score_hand` reads, by side: the teams' levels, or in 找朋友
    (every player's own level; the banker on side 0) the banker's and the first
    collector's after the banker (who banks next if the collectors win)."""
    if options.friends:
        first = access.core().next_on_side(banker, 1 - teams[banker], list(teams))
        return (levels[banker], levels[first])
    return (levels[0], levels[1])


def score_hand(
    options: RuleOptions,
    ctx: TrumpContext,
    banker: int,
    levels: tuple[int, int],
    trick_points: int,
    penalties: int,
    kitty: Sequence[Card],
    last_lead: Lead | Callable[[], Lead] | Sequence[Card],
    last_winner: int,
    last_winning_play: Sequence[Card],
    last_trick_points: int = 0,
    teams: Sequence[int] = FIXED_TEAMS,
) -> HandScore:
    """Score a finished hand: kitty bonus (扣底) when the collectors won the last trick,
    the J hook, the level table and the match end (the kernel's ``score_hand``).
    ``last_trick_points``: the points of the last trick's cards. ``last_lead``: the last
    trick's lead (its cards, a ``Lead``, or a function giving one).

    With ``level_table = "classic-1deck-45"`` the points of the last trick and the kitty
    do not count (seed 001: "除最后1手牌外"): winning that trick is a win of its own."""
    lead = last_lead() if callable(last_lead) else last_lead
    lead_cards = cast("Sequence[Card]", getattr(lead, "cards", lead))
    bteam = teams[banker]
    score = access.core().score_hand(
        _rules(options),
        access.tables(ctx),
        ctx.level,
        banker,
        levels[bteam],
        levels[1 - bteam],
        trick_points,
        penalties,
        [c.index for c in kitty],
        [c.index for c in lead_cards],
        last_winner,
        [c.index for c in last_winning_play],
        last_trick_points,
        list(teams),
    )
    return HandScore(
        score.kitty_multiplier, score.kitty_bonus, score.points, outcome_of(score.outcome)
    )


def team_standing(
    options: RuleOptions,
    banker_team: int,
    outcome: HandOutcome,
    progress: tuple[int, int],
    hand_number: int,
) -> tuple[tuple[int, int], tuple[int, int], bool, int | None]:
    """After hand ``hand_number`` (0-based): the teams' levels, the levels each has
    climbed in the match, whether the match is over and the winning team (None: none, or
    a ``match_hands`` match that ends level).

    >>> from shengji.rules.presets import load_preset
    >>> o = hand_outcome(load_preset("shuangsheng"), banker_seat=1, banker_level=2,
    ...                  collector_level=2, points=0)
    >>> team_standing(load_preset("shuangsheng"), 1, o, (0, 0), 9)
    ((2, 5), (0, 3), True, 1)
    """
    levels, climbed, over, winner = access.core().team_standing(
        _rules(options), banker_team, _kernel_outcome(outcome), list(progress), hand_number
    )
    return (
        (levels[0], levels[1]),
        (climbed[0], climbed[1]),
        over,
        None if winner < 0 else winner,
    )


def player_standing(
    options: RuleOptions,
    teams: Sequence[int],
    banker: int,
    outcome: HandOutcome,
    levels: Sequence[int],
    progress: Sequence[int],
    hand_number: int,
) -> tuple[tuple[int, ...], tuple[int, ...], bool, int | None]:
    """找朋友: every player has their own level. After hand ``hand_number`` (0-based),
    each player of the winning side (``teams`` as the hand ended) climbs the outcome's
    gain from their own level. With ``defend_ace`` the banker at A whose side wins passes
    A and wins the match; with ``friend_passes_ace`` a friend at A does too. Returns the
    players' levels, the levels each has climbed in the match, whether the match is over
    and the winning seat (the banker when the banker's side wins it, else the first
    winner after the banker; None while it goes on, or a ``match_hands`` match with no
    single leader).

    >>> from shengji.rules.presets import load_preset
    >>> opts = load_preset("zhaopengyou", {"players": 5})
    >>> o = hand_outcome(opts, banker_seat=0, banker_level=2, collector_level=2, points=0,
    ...                  teams=(0, 1, 0, 1, 1))
    >>> player_standing(opts, (0, 1, 0, 1, 1), 0, o, (2, 2, 2, 2, 4), (0, 0, 0, 0, 2), 0)
    ((5, 2, 5, 2, 4), (3, 0, 3, 0, 2), False, None)
    """
    new, climbed, over, winner = access.core().player_standing(
        _rules(options),
        list(teams),
        banker,
        _kernel_outcome(outcome),
        list(levels),
        list(progress),
        hand_number,
    )
    return tuple(new), tuple(climbed), over, None if winner < 0 else winner


def friends_standing(
    options: RuleOptions,
    teams: Sequence[int],
    banker: int,
    outcome: HandOutcome,
    levels: Sequence[int],
    progress: Sequence[int],
    hand_number: int,
) -> tuple[HandOutcome, tuple[int, ...], tuple[int, ...], bool, int | None]:
    """找朋友's end of a hand: :func:`player_standing`, and the outcome naming the side
    that won the match when a player other than the two it speaks for did so by levels
    (reaching A, or a friend passing A with ``friend_passes_ace``). Returns the outcome,
    the players' levels, the levels each climbed in the match, whether the match is over
    and the winning seat."""
    o = _kernel_outcome(outcome)
    new, climbed, over, winner = access.core().friends_standing(
        _rules(options), list(teams), banker, o, list(levels), list(progress), hand_number
    )
    side = None if o.winner < 0 else _SIDES[o.winner]
    if side != outcome.winner:
        outcome = dataclasses.replace(outcome, winner=side)
    return outcome, tuple(new), tuple(climbed), over, None if winner < 0 else winner


def hand_stake(options: RuleOptions, counters: int) -> int:
    """Coins a hand is played for (0 when ``coins`` is off): ``base_stake``, doubled per
    counter-declaration (反主) with ``stake_doubling``."""
    stake: int = access.core().hand_stake(_rules(options), counters)
    return stake


def settle_coins(
    options: RuleOptions, stake: int, winner_team: int, stake_penalties: tuple[int, int]
) -> tuple[int, int]:
    """The coin change of teams 0 and 1 after a hand: the losers pay ``stake`` to
    ``winner_team``, and each failed throw under ``throw_penalty = stake`` costs the
    thrower's team half of ``base_stake``, paid to the other team.

    >>> from shengji.rules.presets import load_preset
    >>> settle_coins(load_preset("shuangsheng"), 100, 1, (1, 0))
    (-150, 150)
    """
    change: tuple[int, int] = access.core().settle_coins(
        _rules(options), stake, winner_team, list(stake_penalties)
    )
    return change


def j_hook_width(ctx: TrumpContext, winning_play: Sequence[Card]) -> int | None:
    """For the J hook (钩底) at level J: when the highest card of the winning play is a J
    (a throw may hook, seed 002: 可以甩牌但必須J最大), how many of that J it holds (1 = a
    single J, 2 or more = a pair of Js); else None."""
    width: int = access.core().j_hook_width(
        access.tables(ctx), ctx.level, [c.index for c in winning_play]
    )
    return width or None


_SIDES: tuple[Side, Side] = ("banker", "collectors")


@functools.lru_cache(maxsize=256)
def _rules(options: RuleOptions) -> ScoreRules:
    """The kernel's scoring rules of ``options`` (kept per options)."""
    return access.score_rules(access.core(), options)


def _kernel_outcome(o: HandOutcome) -> Any:
    """A :class:`HandOutcome` as the kernel's ``KOutcome``."""
    return access.core().KOutcome(
        o.points,
        _SIDES.index(o.side),
        o.gain,
        o.moved,
        o.capped,
        o.must_play_stop,
        o.hook or 0,
        o.banker_seat,
        o.next_banker,
        o.old_banker_level,
        o.old_collector_level,
        o.banker_level,
        o.collector_level,
        -1 if o.winner is None else _SIDES.index(o.winner),
        o.bonus,
    )
