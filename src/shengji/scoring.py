"""Points, kitty bonus (扣底), level tables, must-play levels, the J hook, rotation and the
end of a match (§6).

>>> from shengji.presets import load_preset
>>> r = hand_outcome(load_preset("shuangkou"), banker_seat=0, banker_level=3,
...                  collector_level=3, points=0)
>>> r.next_banker, r.banker_level, r.collector_level
(2, 5, 3)
>>> r.explain("en")
'Collectors scored 0: banker side goes up 2 (must-play 5 stops the climb) → 5; next banker seat 2.'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .cards import Card, points, rank_text
from .options import RuleOptions
from .seats import FIXED_TEAMS, next_on_side
from .trump import TrumpContext

if TYPE_CHECKING:  # the rules API sits above scoring (the kernel scores with it)
    from .units import Lead, Shape

Side = Literal["banker", "collectors"]


def kitty_multiplier(options: RuleOptions, shape: Shape) -> int:
    """Multiplier for a last trick won with a unit of ``shape`` = (links, width).

    ``linear``: single 2, pair 4, k-link tractor 4k (2·w·k); ``doubling`` and ``widest``:
    single 2, pair 4, k-link tractor 2^(k+1), triple 6, Titanic 2·3^k (2·w^k);
    ``all_cards``: 2 per card (of a one-unit lead, as ``linear``).
    """
    k, w = shape
    if options.kitty_multiplier in ("linear", "all_cards"):
        return 2 * w * k
    if options.kitty_multiplier == "card_count":
        return k * w
    return int(2 * w**k)


def kitty_bonus(options: RuleOptions, lead: Lead, kitty: Sequence[Card]) -> tuple[int, int]:
    """``(multiplier, bonus)`` when the collectors win the last trick: the multiplier is set
    by the largest unit of the lead, the structure the winning play matched (``widest``:
    the widest unit, then the longest — seed 001's list: Titanic, triple, tractor, pair;
    ``all_cards``: 2 per card each player played, a throw's every card counted)."""
    if options.kitty_multiplier == "all_cards":
        m = 2 * len(lead.cards)
        return m, points(kitty) * m
    if options.kitty_multiplier == "widest":
        shape = max(lead.shapes, key=lambda sh: (sh[1], sh[0]))
    else:
        shape = lead.units[0].shape
    m = kitty_multiplier(options, shape)
    if options.kitty_multiplier == "card_count" and len(lead.units) > 1:
        m *= 2  # card_count (Botzone): a throw counts twice its largest unit's cards
    return m, points(kitty) * m


# -- level tables -----------------------------------------------------------------------


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
    p = max(0, pts)
    table = options.level_table
    if table == "botzone":
        if p < 80:
            return TableResult("banker", 3 if p == 0 else 2 if p < 40 else 1)
        return TableResult("collectors", min(3, 1 + (p - 80) // 40))
    if table == "classic-1deck-45":
        wins = (p >= 45) + last_trick_collectors
        if wins:
            return TableResult("collectors", wins)
        return TableResult("banker", 0 if p == 40 else 1)  # 40: a draw (平局)
    if table == "shuangkou":  # seed 002's rows: "160 – 200 閑傢贏,閑傢最多升2級"
        if p < 80:
            return TableResult("banker", 3 if p == 0 else 2 if p < 40 else 1)
        if p < 160:
            return TableResult("collectors", (p - 80) // 40)
        return TableResult("collectors", 2 + max(0, p - 200) // 40)
    if table == "super":
        if p == 0:
            return TableResult("banker", 6)
        if p < 40:
            return TableResult("banker", 5 - (p - 5) // 10) if p < 35 else TableResult("banker", 2)
        if p < 80:
            return TableResult("banker", 1)
        if p < 120:
            return TableResult("collectors", 0)
        if p == 120:
            return TableResult("collectors", 1)
        return TableResult("collectors", min(6, 2 + (p - 125) // 40))
    if table == "classic-1deck":
        if p == 0:
            return TableResult("banker", 2)
        if p < 40:
            return TableResult("banker", 1)
        if p < 80:
            return TableResult("collectors", 0)
        return TableResult("collectors", 1 + (p - 80) // 20)
    if table == "classic-3deck":
        if p == 0:
            return TableResult("banker", 3)
        if p < 60:
            return TableResult("banker", 2)
        if p < 120:
            return TableResult("banker", 1)
        if p < 180:
            return TableResult("collectors", 0)
        return TableResult("collectors", 1 + (p - 180) // 60)
    step = 20 * options.decks if table == "standard" else 40
    if p == 0:
        return TableResult("banker", 3)
    if p < step:
        return TableResult("banker", 2)
    if p < 2 * step:
        return TableResult("banker", 1)
    if table == "classic":
        return TableResult("collectors", 1 + (p - 2 * step) // step)
    return TableResult("collectors", (p - 2 * step) // step)


def climb(
    options: RuleOptions, start: int, gain: int, as_winning_banker: bool
) -> tuple[int, int, bool]:
    """Climb ``gain`` levels from ``start``: the new level, the levels actually moved and
    whether a must-play level stopped the climb. ``wrap`` goes past A back to 2; otherwise
    A is the top."""
    must = options.must_play_levels
    level = start
    moved = 0
    for _ in range(gain):
        if level in must and not (as_winning_banker and level == start):
            return level, moved, True
        if level == 14:
            if options.match_end != "wrap":
                break
            level = 2
        else:
            level += 1
        moved += 1
    return level, moved, False


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
        if zh:
            end = {"banker": "; 庄家方赢得比赛", "collectors": "; 抓分方赢得比赛"}
            return (
                f"抓分方得{self.points}分: {what}; 下一局庄家: {self.next_banker}号位"
                f"{end.get(self.winner or '', '')}。"
            )
        end = {"banker": "; banker side wins the match", "collectors": "; collectors win the match"}
        return (
            f"Collectors scored {self.points}: {what}; next banker seat "
            f"{self.next_banker}{end.get(self.winner or '', '')}."
        )


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
    res = level_change(options, points, last_trick_collectors)
    bonus = 0
    if options.small_side_bonus and res.side == "banker":
        side = sum(1 for t in teams if t == teams[banker_seat])
        if side < 1 + options.calls:
            bonus = options.small_side_bonus
    gain = res.gain + bonus
    capped = options.max_gain is not None and gain > options.max_gain
    if capped:
        gain = options.max_gain or 0
    new_b, new_c = banker_level, collector_level
    bteam = teams[banker_seat]
    if res.side == "banker":
        new_b, moved, stop = climb(options, banker_level, gain, as_winning_banker=True)
        next_banker = next_on_side(banker_seat, bteam, teams)
    else:
        new_c, moved, stop = climb(options, collector_level, gain, as_winning_banker=False)
        next_banker = next_on_side(banker_seat, 1 - bteam, teams)
    hook = None
    tp = points if trick_points is None else trick_points
    if (
        options.j_hook
        and banker_level == 11
        and last_trick_collectors
        and hook_width
        and tp >= 40 * options.decks
    ):
        hook = 7 if hook_width == 1 else 3
        new_b = hook
    winner: Side | None = None
    if options.match_end == "defend_ace":
        if res.side == "banker" and banker_level == 14:
            winner = "banker"
    elif options.match_end == "reach_ace":
        if res.side == "banker" and new_b == 14:
            winner = "banker"
        elif res.side == "collectors" and new_c == 14 and moved > 0:
            winner = "collectors"
    return HandOutcome(
        points=points,
        side=res.side,
        gain=gain,
        moved=moved,
        capped=capped,
        must_play_stop=stop,
        hook=hook,
        banker_seat=banker_seat,
        next_banker=next_banker,
        old_banker_level=banker_level,
        old_collector_level=collector_level,
        banker_level=new_b,
        collector_level=new_c,
        winner=winner,
        bonus=bonus,
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
        return (levels[banker], levels[next_on_side(banker, 1 - teams[banker], teams)])
    return (levels[0], levels[1])


def score_hand(
    options: RuleOptions,
    ctx: TrumpContext,
    banker: int,
    levels: tuple[int, int],
    trick_points: int,
    penalties: int,
    kitty: Sequence[Card],
    last_lead: Lead | Callable[[], Lead],
    last_winner: int,
    last_winning_play: Sequence[Card],
    last_trick_points: int = 0,
    teams: Sequence[int] = FIXED_TEAMS,
) -> HandScore:
    """Score a finished hand: kitty bonus (扣底) when the collectors won the last trick,
    the J hook, the level table and the match end (the game and the kernel both end a
    hand here). ``last_trick_points``: the points of the last trick's cards. ``last_lead``:
    the last trick's lead, or a function giving it (asked only when the collectors won
    the last trick: a rollout then classifies no lead it does not need).

    With ``level_table = "classic-1deck-45"`` the points of the last trick and the kitty
    do not count (seed 001: "除最后1手牌外"): winning that trick is a win of its own."""
    collectors_last = teams[last_winner] != teams[banker]
    mult, bonus = 0, 0
    width = None
    if collectors_last:
        lead = last_lead() if callable(last_lead) else last_lead
        mult, bonus = kitty_bonus(options, lead, kitty)
        width = j_hook_width(ctx, last_winning_play)
    total = trick_points + bonus + penalties
    if options.level_table == "classic-1deck-45":
        total = trick_points - (last_trick_points if collectors_last else 0) + penalties
    bteam = teams[banker]
    outcome = hand_outcome(
        options,
        banker_seat=banker,
        banker_level=levels[bteam],
        collector_level=levels[1 - bteam],
        points=total,
        trick_points=trick_points,
        last_trick_collectors=collectors_last,
        hook_width=width,
        teams=teams,
    )
    return HandScore(mult, bonus, total, outcome)


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

    >>> from shengji.presets import load_preset
    >>> o = hand_outcome(load_preset("shuangsheng"), banker_seat=1, banker_level=2,
    ...                  collector_level=2, points=0)
    >>> team_standing(load_preset("shuangsheng"), 1, o, (0, 0), 9)
    ((2, 5), (0, 3), True, 1)
    """
    levels = [0, 0]
    levels[banker_team], levels[1 - banker_team] = outcome.banker_level, outcome.collector_level
    climbed = list(progress)
    climbed[banker_team if outcome.side == "banker" else 1 - banker_team] += outcome.moved
    winner: int | None = None
    if outcome.winner is not None:
        winner = banker_team if outcome.winner == "banker" else 1 - banker_team
    over = winner is not None
    if not over and options.match_hands is not None and hand_number + 1 >= options.match_hands:
        over = True
        if climbed[0] != climbed[1]:
            winner = 0 if climbed[0] > climbed[1] else 1
    return (levels[0], levels[1]), (climbed[0], climbed[1]), over, winner


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
    and the winning seat (the banker when the
    banker's side wins it, else the first winner after the banker; None while it goes on,
    or a ``match_hands`` match with no single leader).

    >>> from shengji.presets import load_preset
    >>> opts = load_preset("zhaopengyou", {"players": 5})
    >>> o = hand_outcome(opts, banker_seat=0, banker_level=2, collector_level=2, points=0,
    ...                  teams=(0, 1, 0, 1, 1))
    >>> player_standing(opts, (0, 1, 0, 1, 1), 0, o, (2, 2, 2, 2, 4), (0, 0, 0, 0, 2), 0)
    ((5, 2, 5, 2, 4), (3, 0, 3, 0, 2), False, None)
    """
    n = len(teams)
    bteam = teams[banker]
    up = bteam if outcome.side == "banker" else 1 - bteam
    new, climbed = list(levels), list(progress)
    winner: int | None = None
    for i in range(n):
        s = (banker + i) % n
        if teams[s] != up:
            continue
        start = levels[s]
        new[s], moved, _ = climb(options, start, outcome.gain, outcome.side == "banker")
        climbed[s] += moved
        done = (
            options.match_end == "defend_ace"
            and outcome.side == "banker"
            and (s == banker or options.friend_passes_ace)
            and start == 14
        ) or (options.match_end == "reach_ace" and new[s] == 14 and moved > 0)
        if done and winner is None:
            winner = s
    over = winner is not None
    if not over and options.match_hands is not None and hand_number + 1 >= options.match_hands:
        over = True
        best = max(climbed)
        if climbed.count(best) == 1:
            winner = climbed.index(best)
    return tuple(new), tuple(climbed), over, winner


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
    new, climbed, over, winner = player_standing(
        options, teams, banker, outcome, levels, progress, hand_number
    )
    if winner is not None and outcome.winner is None:
        bteam = teams[banker]
        reached = options.match_end == "reach_ace" and new[winner] == 14
        passed = (
            options.match_end == "defend_ace"
            and options.friend_passes_ace
            and outcome.side == "banker"
            and teams[winner] == bteam
            and levels[winner] == 14
        )
        if reached or passed:
            won: Side = "banker" if teams[winner] == bteam else "collectors"
            outcome = dataclasses.replace(outcome, winner=won)
    return outcome, new, climbed, over, winner


def hand_stake(options: RuleOptions, counters: int) -> int:
    """Coins a hand is played for (0 when ``coins`` is off): ``base_stake``, doubled per
    counter-declaration (反主) with ``stake_doubling``."""
    if not options.coins:
        return 0
    return options.base_stake * (2**counters if options.stake_doubling else 1)


def settle_coins(
    options: RuleOptions, stake: int, winner_team: int, stake_penalties: tuple[int, int]
) -> tuple[int, int]:
    """The coin change of teams 0 and 1 after a hand: the losers pay ``stake`` to
    ``winner_team``, and each failed throw under ``throw_penalty = stake`` costs the
    thrower's team half of ``base_stake``, paid to the other team.

    >>> from shengji.presets import load_preset
    >>> settle_coins(load_preset("shuangsheng"), 100, 1, (1, 0))
    (-150, 150)
    """
    if not options.coins:
        return (0, 0)
    change = [0, 0]
    change[winner_team] += stake
    change[1 - winner_team] -= stake
    for team in (0, 1):
        half = stake_penalties[team] * options.base_stake // 2
        change[team] -= half
        change[1 - team] += half
    return change[0], change[1]


def j_hook_width(ctx: TrumpContext, winning_play: Sequence[Card]) -> int | None:
    """For the J hook (钩底) at level J: when the highest card of the winning play is a J
    (a throw may hook, seed 002: 可以甩牌但必須J最大), how many of that J it holds (1 = a
    single J, 2 or more = a pair of Js); else None."""
    if ctx.level != 11 or not winning_play:
        return None
    key = ctx.key
    top = max(winning_play, key=lambda c: (key[c.index], ctx.tiebreak[c.index]))
    if top.rank != 11 or top.is_joker:
        return None
    return sum(1 for c in winning_play if c is top)
