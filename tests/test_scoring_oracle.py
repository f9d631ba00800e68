"""The kernel's scoring, as ``shengji.rules.scoring`` answers it, against the oracle's (written
from docs/rules.md: ``tests/oracle/scoring.py`` and 找朋友's ``oracle.friends.finish``):
every level table at every number of decks, kitty bonuses of random leads under each
``kitty_multiplier``, fixed partnerships' outcomes and standings, and 找朋友's end of a
hand with ``small_side_bonus``, ``friend_passes_ace``, ``max_gain``, must-play levels and
the match ends, on random hands."""

from __future__ import annotations

import random
from typing import Any, get_args

import pytest

from oracle import friends as o_friends
from oracle import leads as o_leads
from oracle import scoring as oracle
from shengji.rules import scoring
from shengji.rules.cards import deck
from shengji.rules.options import KittyMultiplier, LevelTable
from shengji.rules.presets import load_preset
from shengji.rules.trump import TrumpContext
from shengji.rules.units import classify_lead


@pytest.mark.parametrize("table", get_args(LevelTable))
@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_level_tables_match_the_oracle(table: str, decks: int) -> None:
    opts = load_preset("tuolaji", {"decks": decks, "level_table": table})
    for pts in range(-40, 1000, 5):
        for last in (False, True):
            want = oracle.level_change(opts, pts, last)
            assert scoring.level_change(opts, pts, last) == want, (table, decks, pts, last)


def test_standard_fixed_differs_from_standard_past_two_decks() -> None:
    """The differential above is not blind to the table: with 3 decks ``standard`` takes
    over at 120 and ``standard-fixed`` at 80."""
    fixed = load_preset("tuolaji", {"decks": 3, "level_table": "standard-fixed"})
    scaled = load_preset("tuolaji", {"decks": 3})
    assert scoring.level_change(fixed, 80) == oracle.level_change(fixed, 80)
    assert scoring.level_change(fixed, 80).side == "collectors"
    assert scoring.level_change(scaled, 80).side == "banker"


@pytest.mark.parametrize("mode", get_args(KittyMultiplier))
@pytest.mark.parametrize("preset", ["tuolaji", "classic-3deck", "tuolaji-4deck"])
def test_kitty_bonuses_match_the_oracle(mode: str, preset: str) -> None:
    opts = load_preset(preset, {"kitty_multiplier": mode})
    rng = random.Random(f"{mode} {preset}")
    throws = 0
    for _ in range(150):
        cards = deck(opts.decks)
        rng.shuffle(cards)
        ctx = TrumpContext(opts, rng.randrange(2, 15), rng.choice(["S", "H", "C", "D", "NT"]))
        hand, kitty = cards[:40], cards[40:48]
        if rng.random() < 0.4:
            lead = classify_lead(ctx, rng.choice(o_leads.unit_lead_list(ctx, hand)))
        else:
            suit = ctx.suit_of[rng.choice(hand).index]
            same = [c for c in hand if ctx.suit_of[c.index] == suit]
            lead = classify_lead(ctx, rng.sample(same, rng.randint(1, min(len(same), 12))))
        throws += len(lead.units) > 1
        want = oracle.kitty_bonus(opts, lead, kitty)
        assert scoring.kitty_bonus(opts, lead, kitty) == want, (lead.codes, mode)
    assert throws > 50


#: Fixed partnerships: the level tables, caps, must-play levels, the J hook, match ends.
FIXED: list[tuple[str, dict[str, Any]]] = [
    ("tuolaji", {}),
    ("tuolaji", {"level_table": "standard-fixed", "decks": 3, "match_end": "defend_ace"}),
    ("shuangsheng", {"match_hands": 6}),
    ("shuangsheng-super", {}),
    ("shuangkou", {}),
    ("shuangkou", {"match_end": "reach_ace", "max_gain": 2}),
    ("classic-1deck", {"level_table": "classic-1deck-45"}),
    ("classic-3deck", {"match_end": "wrap", "match_hands": 3}),
    ("botzone", {}),
]


@pytest.mark.parametrize(("preset", "overrides"), FIXED, ids=[str(v) for v in FIXED])
def test_fixed_partnership_outcomes_match_the_oracle(
    preset: str, overrides: dict[str, Any]
) -> None:
    opts = load_preset(preset, overrides)
    rng = random.Random(f"{preset} {overrides}")
    for _ in range(400):
        banker = rng.randrange(4)
        levels = (rng.choice([2, 3, 5, 10, 11, 12, 13, 14]), rng.randrange(2, 15))
        pts = 5 * rng.randrange(-10, 80)
        tp = max(0, pts - 5 * rng.randrange(0, 20))
        last = rng.random() < 0.5
        hook = rng.choice([0, 0, 1, 2, 3])
        got = scoring.hand_outcome(
            opts,
            banker_seat=banker,
            banker_level=levels[0],
            collector_level=levels[1],
            points=pts,
            trick_points=tp,
            last_trick_collectors=last,
            hook_width=hook or None,
        )
        want = oracle.hand_outcome(opts, banker, levels, pts, tp, last, hook or None)
        assert got == want
        progress = (rng.randrange(6), rng.randrange(6))
        number = rng.randrange(8)
        team = banker % 2
        want_standing = oracle.team_standing(opts, team, want, progress, number)
        assert scoring.team_standing(opts, team, got, progress, number) == want_standing


#: 找朋友: the small side's bonus, a friend passing A, caps, must-play levels, match ends.
FRIENDS: list[dict[str, Any]] = [
    {"players": 5, "small_side_bonus": 1},
    {"players": 6, "small_side_bonus": 2, "max_gain": 3},
    {"players": 8, "small_side_bonus": 3, "friend_calls": 2},
    {"players": 5, "friend_passes_ace": True},
    {"players": 7, "friend_passes_ace": True, "small_side_bonus": 1},
    {"players": 6, "match_end": "reach_ace", "small_side_bonus": 1},
    {"players": 5, "match_end": "reach_ace", "start_level": "A"},
    {"players": 6, "must_play_levels": ["5", "10", "K"], "small_side_bonus": 2},
    {"players": 5, "match_hands": 4, "match_end": "wrap", "small_side_bonus": 1},
    {"players": 6, "decks": 4, "level_table": "standard-fixed", "friend_passes_ace": True},
]


@pytest.mark.parametrize("overrides", FRIENDS, ids=[str(v) for v in FRIENDS])
def test_friends_ends_of_hands_match_the_oracle(overrides: dict[str, Any]) -> None:
    opts = load_preset("zhaopengyou", overrides)
    n = opts.players
    rng = random.Random(str(overrides))
    # under reach_ace nobody is at A while the match goes on (reaching it ends the
    # match), unless the match starts there
    top = 13 if opts.match_end == "reach_ace" and opts.start_level != 14 else 14
    bonuses = passes = 0
    for _ in range(600):
        banker = rng.randrange(n)
        others = [s for s in range(n) if s != banker]
        side = {banker, *rng.sample(others, rng.randint(0, opts.calls))}
        teams = [0 if s in side else 1 for s in range(n)]
        levels = [rng.choice([2, 5, 10, 12, 13, top, top]) for _ in range(n)]
        progress = [rng.randrange(5) for _ in range(n)]
        number = rng.randrange(6)
        pts = 5 * rng.randrange(-10, 70)
        last = rng.random() < 0.5
        own = scoring.scoring_levels(opts, levels, banker, teams)
        outcome = scoring.hand_outcome(
            opts,
            banker_seat=banker,
            banker_level=own[0],
            collector_level=own[1],
            points=pts,
            last_trick_collectors=last,
            teams=teams,
        )
        got = scoring.friends_standing(opts, teams, banker, outcome, levels, progress, number)
        want = o_friends.finish(opts, banker, side, pts, last, levels, progress, number)
        expect = (want[0], want[1], want[2], want[4], want[5])
        assert got == expect, (banker, sorted(side), levels, pts, last)
        bonuses += got[0].bonus > 0
        passes += got[4] is not None and got[4] != banker and got[0].winner == "banker"
    if opts.small_side_bonus:
        assert bonuses > 0
    if opts.friend_passes_ace:
        assert passes > 0
