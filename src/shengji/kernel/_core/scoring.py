"""Scoring: the kitty bonus, level tables, the J hook, the hand's outcome, levels and the
match end, per team or per player, and coins (§6)."""

from __future__ import annotations

from typing import Final

from .cards import Tables
from .units import lead_units

#: ``kitty_multiplier`` option values (``shengji.kernel.access.KITTY_MULTIPLIER``).
KM_LINEAR: Final = 0
KM_DOUBLING: Final = 1
KM_WIDEST: Final = 2
KM_CARD_COUNT: Final = 3
KM_ALL_CARDS: Final = 4
#: ``level_table`` option values.
LT_STANDARD: Final = 0
LT_SUPER: Final = 1
LT_CLASSIC: Final = 2
LT_CLASSIC_1DECK: Final = 3
LT_CLASSIC_3DECK: Final = 4
LT_CLASSIC_1DECK_45: Final = 5
LT_SHUANGKOU: Final = 6
LT_BOTZONE: Final = 7
LT_STANDARD_FIXED: Final = 8
#: ``match_end`` option values.
ME_DEFEND_ACE: Final = 0
ME_REACH_ACE: Final = 1
ME_WRAP: Final = 2
#: Sides of a hand's outcome (``shengji.rules.scoring.Side``); ``SIDE_NONE``: no winner yet.
SIDE_BANKER: Final = 0
SIDE_COLLECTORS: Final = 1
SIDE_NONE: Final = -1


class ScoreRules:
    """What scoring needs of the rule options, as ints (``shengji.kernel.access`` builds
    it): ``max_gain`` and ``match_hands`` -1 for none, ``must_play`` the must-play
    levels; 找朋友's ``calls`` (0: fixed partnerships), ``small_side_bonus`` and
    ``friend_passes_ace``."""

    def __init__(
        self,
        decks: int,
        kitty_multiplier: int,
        level_table: int,
        max_gain: int,
        must_play: list[int],
        j_hook: bool,
        match_end: int,
        match_hands: int,
        coins: bool,
        base_stake: int,
        stake_doubling: bool,
        calls: int,
        small_side_bonus: int,
        friend_passes_ace: bool,
    ) -> None:
        self.decks = decks
        self.kitty_multiplier = kitty_multiplier
        self.level_table = level_table
        self.max_gain = max_gain
        self.must_play = must_play
        self.j_hook = j_hook
        self.match_end = match_end
        self.match_hands = match_hands
        self.coins = coins
        self.base_stake = base_stake
        self.stake_doubling = stake_doubling
        self.calls = calls
        self.small_side_bonus = small_side_bonus
        self.friend_passes_ace = friend_passes_ace


def shape_multiplier(r: ScoreRules, links: int, width: int) -> int:
    """The kitty multiplier of a last trick won with a unit of ``links`` x ``width``:
    ``linear`` (and ``all_cards``, 2 per card) 2·w·k, ``card_count`` k·w, else
    (``doubling``, ``widest``) 2·w^k."""
    if r.kitty_multiplier == KM_LINEAR or r.kitty_multiplier == KM_ALL_CARDS:
        return 2 * width * links
    if r.kitty_multiplier == KM_CARD_COUNT:
        return links * width
    m: int = 2 * width**links
    return m


def kitty_multiplier(r: ScoreRules, links: list[int], widths: list[int]) -> int:
    """The multiplier set by a lead of units of ``links`` x ``widths`` (largest first):
    its largest unit, or (``widest``) its widest then longest; ``card_count`` doubles it
    for a throw; ``all_cards`` is 2 per card of the lead, a throw's every card counted."""
    if r.kitty_multiplier == KM_ALL_CARDS:
        cards = 0
        for i in range(len(links)):
            cards += links[i] * widths[i]
        return 2 * cards
    k, w = links[0], widths[0]
    if r.kitty_multiplier == KM_WIDEST:
        for i in range(len(links)):
            if (widths[i], links[i]) > (w, k):
                k, w = links[i], widths[i]
    m = shape_multiplier(r, k, w)
    if r.kitty_multiplier == KM_CARD_COUNT and len(links) > 1:
        m *= 2
    return m


def level_change(r: ScoreRules, pts: int, last_collectors: bool) -> tuple[int, int]:
    """``(side, gain)``: which side goes up and by how much for the collectors' points
    ``pts`` (<= 0 counts as 0) in the rules' level table (``shengji.rules.scoring.level_change``
    says each table); ``gain`` 0 for the collectors is a swap."""
    p = max(0, pts)
    table = r.level_table
    if table == LT_BOTZONE:
        if p < 80:
            return SIDE_BANKER, 3 if p == 0 else 2 if p < 40 else 1
        return SIDE_COLLECTORS, min(3, 1 + (p - 80) // 40)
    if table == LT_CLASSIC_1DECK_45:
        wins = (1 if p >= 45 else 0) + (1 if last_collectors else 0)
        if wins:
            return SIDE_COLLECTORS, wins
        return SIDE_BANKER, 0 if p == 40 else 1
    if table == LT_SHUANGKOU:
        if p < 80:
            return SIDE_BANKER, 3 if p == 0 else 2 if p < 40 else 1
        if p < 160:
            return SIDE_COLLECTORS, (p - 80) // 40
        return SIDE_COLLECTORS, 2 + max(0, p - 200) // 40
    if table == LT_SUPER:
        if p == 0:
            return SIDE_BANKER, 6
        if p < 40:
            return (SIDE_BANKER, 5 - (p - 5) // 10) if p < 35 else (SIDE_BANKER, 2)
        if p < 80:
            return SIDE_BANKER, 1
        if p < 120:
            return SIDE_COLLECTORS, 0
        if p == 120:
            return SIDE_COLLECTORS, 1
        return SIDE_COLLECTORS, min(6, 2 + (p - 125) // 40)
    if table == LT_CLASSIC_1DECK:
        if p == 0:
            return SIDE_BANKER, 2
        if p < 40:
            return SIDE_BANKER, 1
        if p < 80:
            return SIDE_COLLECTORS, 0
        return SIDE_COLLECTORS, 1 + (p - 80) // 20
    if table == LT_CLASSIC_3DECK:
        if p == 0:
            return SIDE_BANKER, 3
        if p < 60:
            return SIDE_BANKER, 2
        if p < 120:
            return SIDE_BANKER, 1
        if p < 180:
            return SIDE_COLLECTORS, 0
        return SIDE_COLLECTORS, 1 + (p - 180) // 60
    # ``standard`` in steps of 20 points a deck; ``standard-fixed`` and ``classic`` in
    # fixed 40-point steps
    step = 20 * r.decks if table == LT_STANDARD else 40
    if p == 0:
        return SIDE_BANKER, 3
    if p < step:
        return SIDE_BANKER, 2
    if p < 2 * step:
        return SIDE_BANKER, 1
    if table == LT_CLASSIC:
        return SIDE_COLLECTORS, 1 + (p - 2 * step) // step
    return SIDE_COLLECTORS, (p - 2 * step) // step


def climb(r: ScoreRules, start: int, gain: int, as_winning_banker: bool) -> tuple[int, int, bool]:
    """Climb ``gain`` levels from ``start``: the new level, the levels moved and whether a
    must-play level stopped the climb (``wrap`` goes past A back to 2)."""
    level = start
    moved = 0
    for _ in range(gain):
        if level in r.must_play and not (as_winning_banker and level == start):
            return level, moved, True
        if level == 14:
            if r.match_end != ME_WRAP:
                break
            level = 2
        else:
            level += 1
        moved += 1
    return level, moved, False


def next_on_side(seat: int, team: int, teams: list[int]) -> int:
    """The first seat after ``seat`` on ``team`` (``seat`` itself when no other is)."""
    n = len(teams)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if teams[s] == team:
            return s
    return seat


class KOutcome:
    """A hand's outcome (``shengji.rules.scoring.HandOutcome`` as ints): ``side`` and
    ``winner`` are ``SIDE_*`` (``winner`` ``SIDE_NONE`` while the match goes on), ``hook``
    the level the J hook drops the banker side to (0: none), ``bonus`` the levels of
    ``small_side_bonus`` included in ``gain``."""

    def __init__(
        self,
        points: int,
        side: int,
        gain: int,
        moved: int,
        capped: bool,
        must_play_stop: bool,
        hook: int,
        banker_seat: int,
        next_banker: int,
        old_banker_level: int,
        old_collector_level: int,
        banker_level: int,
        collector_level: int,
        winner: int,
        bonus: int,
    ) -> None:
        self.points = points
        self.side = side
        self.gain = gain
        self.moved = moved
        self.capped = capped
        self.must_play_stop = must_play_stop
        self.hook = hook
        self.banker_seat = banker_seat
        self.next_banker = next_banker
        self.old_banker_level = old_banker_level
        self.old_collector_level = old_collector_level
        self.banker_level = banker_level
        self.collector_level = collector_level
        self.winner = winner
        self.bonus = bonus


def hand_outcome(
    r: ScoreRules,
    banker_seat: int,
    banker_level: int,
    collector_level: int,
    points: int,
    trick_points: int,
    last_collectors: bool,
    hook_width: int,
    teams: list[int],
) -> KOutcome:
    """The level table, ``max_gain``, must-play levels, the J hook (``hook_width``: 0
    for none, 1 a single J, 2 or more a pair), rotation and the match end applied to a
    finished hand (``shengji.rules.scoring.hand_outcome``); 找朋友's ``small_side_bonus`` adds
    to the gain of a winning banker's side smaller than the banker and its calls."""
    side, gain = level_change(r, points, last_collectors)
    bonus = 0
    if r.small_side_bonus and side == SIDE_BANKER:
        bteam, size = teams[banker_seat], 0
        for team in teams:
            if team == bteam:
                size += 1
        if size < 1 + r.calls:
            bonus = r.small_side_bonus
            gain += bonus
    capped = r.max_gain >= 0 and gain > r.max_gain
    if capped:
        gain = r.max_gain
    new_b, new_c = banker_level, collector_level
    bteam = teams[banker_seat]
    if side == SIDE_BANKER:
        new_b, moved, stop = climb(r, banker_level, gain, True)
        next_banker = next_on_side(banker_seat, bteam, teams)
    else:
        new_c, moved, stop = climb(r, collector_level, gain, False)
        next_banker = next_on_side(banker_seat, 1 - bteam, teams)
    hook = 0
    if (
        r.j_hook
        and banker_level == 11
        and last_collectors
        and hook_width
        and trick_points >= 40 * r.decks
    ):
        hook = 7 if hook_width == 1 else 3
        new_b = hook
    winner = SIDE_NONE
    if r.match_end == ME_DEFEND_ACE:
        if side == SIDE_BANKER and banker_level == 14:
            winner = SIDE_BANKER
    elif r.match_end == ME_REACH_ACE:
        if side == SIDE_BANKER and new_b == 14:
            winner = SIDE_BANKER
        elif side == SIDE_COLLECTORS and new_c == 14 and moved > 0:
            winner = SIDE_COLLECTORS
    return KOutcome(
        points,
        side,
        gain,
        moved,
        capped,
        stop,
        hook,
        banker_seat,
        next_banker,
        banker_level,
        collector_level,
        new_b,
        new_c,
        winner,
        bonus,
    )


def j_hook_width(t: Tables, level: int, play: list[int]) -> int:
    """For the J hook at level J: when the highest card of the winning ``play`` is a J,
    how many of that J it holds; else 0."""
    if level != 11 or not play:
        return 0
    key, tiebreak = t.key, t.tiebreak
    top = play[0]
    for c in play:
        if (key[c], tiebreak[c]) > (key[top], tiebreak[top]):
            top = c
    if top >= 52 or top % 13 != 9:
        return 0
    return play.count(top)


class KScore:
    """A finished hand in points: the kitty multiplier and bonus (0 unless the collectors
    won the last trick), the collectors' total and the outcome."""

    def __init__(
        self, kitty_multiplier: int, kitty_bonus: int, points: int, outcome: KOutcome
    ) -> None:
        self.kitty_multiplier = kitty_multiplier
        self.kitty_bonus = kitty_bonus
        self.points = points
        self.outcome = outcome


def score_hand(
    r: ScoreRules,
    t: Tables,
    level: int,
    banker: int,
    banker_level: int,
    collector_level: int,
    trick_points: int,
    penalties: int,
    kitty: list[int],
    last_lead: list[int],
    last_winner: int,
    last_win: list[int],
    last_points: int,
    teams: list[int],
) -> KScore:
    """Score a finished hand (``shengji.rules.scoring.score_hand``): the kitty bonus when the
    collectors won the last trick, the J hook, the level table and the match end; with
    ``classic-1deck-45`` the last trick's points and the kitty do not count."""
    collectors_last = teams[last_winner] != teams[banker]
    mult, bonus, width = 0, 0, 0
    if collectors_last:
        units = lead_units(t, last_lead)
        mult = kitty_multiplier(r, [u.links for u in units], [u.width for u in units])
        pts = 0
        for c in kitty:
            pts += t.pts[c]
        bonus = pts * mult
        width = j_hook_width(t, level, last_win)
    total = trick_points + bonus + penalties
    if r.level_table == LT_CLASSIC_1DECK_45:
        total = trick_points - (last_points if collectors_last else 0) + penalties
    outcome = hand_outcome(
        r,
        banker,
        banker_level,
        collector_level,
        total,
        trick_points,
        collectors_last,
        width,
        teams,
    )
    return KScore(mult, bonus, total, outcome)


def team_standing(
    r: ScoreRules, banker_team: int, o: KOutcome, progress: list[int], hand_number: int
) -> tuple[list[int], list[int], bool, int]:
    """After hand ``hand_number`` (0-based): the teams' levels, the levels each climbed
    in the match, whether the match is over and the winning team (-1: none)."""
    levels = [0, 0]
    levels[banker_team] = o.banker_level
    levels[1 - banker_team] = o.collector_level
    climbed = list(progress)
    up = banker_team if o.side == SIDE_BANKER else 1 - banker_team
    climbed[up] += o.moved
    winner = -1
    if o.winner != SIDE_NONE:
        winner = banker_team if o.winner == SIDE_BANKER else 1 - banker_team
    over = winner >= 0
    if not over and r.match_hands >= 0 and hand_number + 1 >= r.match_hands:
        over = True
        if climbed[0] != climbed[1]:
            winner = 0 if climbed[0] > climbed[1] else 1
    return levels, climbed, over, winner


def player_standing(
    r: ScoreRules,
    teams: list[int],
    banker: int,
    o: KOutcome,
    levels: list[int],
    progress: list[int],
    hand_number: int,
) -> tuple[list[int], list[int], bool, int]:
    """找朋友 (every player's own level): after hand ``hand_number``, each player of the
    winning side climbs the outcome's gain from their own level; the players' levels,
    the levels each climbed in the match, whether it is over and the winning seat (-1:
    none). With ``defend_ace`` the banker at A whose side wins passes A, and with
    ``friend_passes_ace`` a friend at A does too."""
    new, climbed, over, winner, _ = _player_standing(
        r, teams, banker, o, levels, progress, hand_number
    )
    return new, climbed, over, winner


def _player_standing(
    r: ScoreRules,
    teams: list[int],
    banker: int,
    o: KOutcome,
    levels: list[int],
    progress: list[int],
    hand_number: int,
) -> tuple[list[int], list[int], bool, int, int]:
    """:func:`player_standing`, and the seat that won the match by levels (-1: none; the
    winner may also be the one that climbed most in a match of ``match_hands``)."""
    n = len(teams)
    bteam = teams[banker]
    up = bteam if o.side == SIDE_BANKER else 1 - bteam
    new, climbed = list(levels), list(progress)
    winner = -1
    for i in range(n):
        s = (banker + i) % n
        if teams[s] != up:
            continue
        start = levels[s]
        new[s], moved, _ = climb(r, start, o.gain, o.side == SIDE_BANKER)
        climbed[s] += moved
        passes = s == banker or r.friend_passes_ace
        done = (
            r.match_end == ME_DEFEND_ACE and o.side == SIDE_BANKER and passes and start == 14
        ) or (r.match_end == ME_REACH_ACE and new[s] == 14 and moved > 0)
        if done and winner < 0:
            winner = s
    by_levels = winner
    over = winner >= 0
    if not over and r.match_hands >= 0 and hand_number + 1 >= r.match_hands:
        over = True
        best = max(climbed)
        if climbed.count(best) == 1:
            winner = climbed.index(best)
    return new, climbed, over, winner, by_levels


def friends_standing(
    r: ScoreRules,
    teams: list[int],
    banker: int,
    o: KOutcome,
    levels: list[int],
    progress: list[int],
    hand_number: int,
) -> tuple[list[int], list[int], bool, int]:
    """找朋友's end of a hand: :func:`player_standing`, and ``o.winner`` set to the side of
    the player who won the match by levels (reaching A, or passing A as the banker, or as
    a friend with ``friend_passes_ace``), ``SIDE_NONE`` when nobody did: the outcome
    speaks for two players only, and either may be at A without ending the match."""
    new, climbed, over, winner, by_levels = _player_standing(
        r, teams, banker, o, levels, progress, hand_number
    )
    o.winner = SIDE_NONE
    if by_levels >= 0:
        o.winner = SIDE_BANKER if teams[by_levels] == teams[banker] else SIDE_COLLECTORS
    return new, climbed, over, winner


def hand_stake(r: ScoreRules, counters: int) -> int:
    """Coins a hand is played for (0 without coins), doubled per counter-declaration with
    ``stake_doubling``."""
    if not r.coins:
        return 0
    return r.base_stake * (2**counters if r.stake_doubling else 1)


def settle_coins(
    r: ScoreRules, stake: int, winner_team: int, penalties: list[int]
) -> tuple[int, int]:
    """The coin change of teams 0 and 1: the losers pay ``stake`` to ``winner_team``, and
    each failed throw under ``throw_penalty = stake`` costs the thrower's team half of
    ``base_stake``, paid to the other team."""
    if not r.coins:
        return 0, 0
    change = [0, 0]
    change[winner_team] += stake
    change[1 - winner_team] -= stake
    for team in range(2):
        half = penalties[team] * r.base_stake // 2
        change[team] -= half
        change[1 - team] += half
    return change[0], change[1]
