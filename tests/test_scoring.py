"""Kitty bonus, level tables, must-play levels, the J hook, rotation and the match end
(RULES.md §6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import C, ctx_for
from shengji.rules.presets import load_preset, preset_names
from shengji.rules.scoring import (
    HandOutcome,
    Side,
    TableResult,
    climb,
    hand_outcome,
    j_hook_width,
    kitty_bonus,
    kitty_multiplier,
    level_change,
    score_hand,
)
from shengji.rules.units import classify_lead

LINEAR = load_preset("shuangsheng")
DOUBLING = load_preset("classic-3deck")


@pytest.mark.parametrize(
    ("shape", "linear", "doubling"),
    [
        ((1, 1), 2, 2),
        ((1, 2), 4, 4),
        ((2, 2), 8, 8),
        ((3, 2), 12, 16),
        ((4, 2), 16, 32),
        ((5, 2), 20, 64),
        ((1, 3), None, 6),
        ((2, 3), None, 18),
        ((3, 3), None, 54),
    ],
)
def test_kitty_multiplier_tables(shape: tuple[int, int], linear: int | None, doubling: int) -> None:
    k, w = shape
    assert kitty_multiplier(DOUBLING, shape) == doubling
    if w == 2 and k > 1:
        assert doubling == 2 ** (k + 1)
        assert linear == 4 * k
    if w == 3:
        assert doubling == 2 * 3**k if k > 1 else doubling == 6
    if linear is not None:
        assert kitty_multiplier(LINEAR, shape) == linear


def test_kitty_bonus_uses_the_largest_unit_of_the_lead() -> None:
    ctx = ctx_for("classic", 2, "H")
    kitty = C("S5 S10 SK D3 D4 C6 C7 C8")  # 25 points
    assert kitty_bonus(ctx.options, classify_lead(ctx, C("SA")), kitty) == (2, 50)
    assert kitty_bonus(ctx.options, classify_lead(ctx, C("SA SA")), kitty) == (4, 100)
    assert kitty_bonus(ctx.options, classify_lead(ctx, C("S3 S3 S4 S4 S5 S5")), kitty) == (
        16,
        400,
    )
    # a throw counts its largest unit only
    assert kitty_bonus(ctx.options, classify_lead(ctx, C("SA SQ SQ S3")), kitty) == (4, 100)
    # two separate pairs thrown count as a pair, even if beaten by a tractor
    assert kitty_bonus(ctx.options, classify_lead(ctx, C("SA SA S9 S9")), kitty) == (4, 100)
    lin = ctx_for("shuangsheng", 2, "H")
    assert kitty_bonus(lin.options, classify_lead(lin, C("S3 S3 S4 S4 S5 S5")), kitty) == (
        12,
        300,
    )
    assert kitty_bonus(ctx.options, classify_lead(ctx, C("SA")), C("S3 S4")) == (2, 0)


# -- level tables -------------------------------------------------------------------------

B = "banker"
K = "collectors"

TABLES: dict[str, list[tuple[int, str, int]]] = {
    "tuolaji": [  # standard, 2 decks
        (-20, B, 3),
        (0, B, 3),
        (5, B, 2),
        (35, B, 2),
        (40, B, 1),
        (75, B, 1),
        (80, K, 0),
        (115, K, 0),
        (120, K, 1),
        (155, K, 1),
        (160, K, 2),
        (195, K, 2),
        (200, K, 3),
        (240, K, 4),
    ],
    "shuangsheng-super": [
        (0, B, 6),
        (5, B, 5),
        (10, B, 5),
        (15, B, 4),
        (20, B, 4),
        (25, B, 3),
        (30, B, 3),
        (35, B, 2),
        (40, B, 1),
        (75, B, 1),
        (80, K, 0),
        (115, K, 0),
        (120, K, 1),
        (125, K, 2),
        (160, K, 2),
        (165, K, 3),
        (200, K, 3),
        (205, K, 4),
        (240, K, 4),
        (245, K, 5),
        (280, K, 5),
        (285, K, 6),
        (400, K, 6),
    ],
    "classic": [
        (0, B, 3),
        (5, B, 2),
        (35, B, 2),
        (40, B, 1),
        (75, B, 1),
        (80, K, 1),
        (115, K, 1),
        (120, K, 2),
        (155, K, 2),
        (160, K, 3),
    ],
    "classic-1deck": [
        (0, B, 2),
        (5, B, 1),
        (35, B, 1),
        (40, K, 0),
        (75, K, 0),
        (80, K, 1),
        (95, K, 1),
        (100, K, 2),
    ],
    "classic-3deck": [
        (0, B, 3),
        (5, B, 2),
        (55, B, 2),
        (60, B, 1),
        (115, B, 1),
        (120, K, 0),
        (175, K, 0),
        (180, K, 1),
        (235, K, 1),
        (240, K, 2),
        (300, K, 3),
    ],
}


@pytest.mark.parametrize(
    ("preset", "points", "side", "gain"),
    [(p, pts, side, gain) for p, rows in TABLES.items() for pts, side, gain in rows],
)
def test_level_table_boundaries(preset: str, points: int, side: Side, gain: int) -> None:
    assert level_change(load_preset(preset), points) == TableResult(side, gain)


@pytest.mark.parametrize("decks", [1, 3, 4])
def test_standard_table_scales_with_decks(decks: int) -> None:
    """Project decision (scoring.level_change): ``standard`` steps are 20 points per deck."""
    opts = load_preset("tuolaji", {"decks": decks})
    step = 20 * decks
    assert level_change(opts, 0) == TableResult("banker", 3)
    assert level_change(opts, step - 5) == TableResult("banker", 2)
    assert level_change(opts, step) == TableResult("banker", 1)
    assert level_change(opts, 2 * step) == TableResult("collectors", 0)
    assert level_change(opts, 3 * step) == TableResult("collectors", 1)


@given(st.sampled_from(sorted(TABLES)), st.integers(-50, 600))
@settings(max_examples=200)
def test_level_tables_are_monotone(preset: str, points: int) -> None:
    """More points never help the banker side."""
    opts = load_preset(preset)

    def score(p: int) -> int:
        r = level_change(opts, p)
        return -r.gain if r.side == "banker" else r.gain

    assert score(points) <= score(points + 5)


# -- hand outcome -------------------------------------------------------------------------


def test_must_play_examples_from_the_rule_book() -> None:
    sk = load_preset("shuangkou")
    # banker at 3, 大光 (0 points) -> 5
    r = hand_outcome(sk, banker_seat=0, banker_level=3, collector_level=3, points=0)
    assert (r.banker_level, r.collector_level, r.next_banker) == (5, 3, 2)
    assert r.must_play_stop and r.gain == 3
    # banker at 9, 大光 -> 10
    r = hand_outcome(sk, banker_seat=1, banker_level=9, collector_level=4, points=0)
    assert (r.banker_level, r.collector_level, r.next_banker) == (10, 4, 3)
    assert r.must_play_stop
    # collectors at 5 scoring 200 -> take over at 5
    r = hand_outcome(sk, banker_seat=0, banker_level=8, collector_level=5, points=200)
    assert (r.banker_level, r.collector_level, r.next_banker) == (8, 5, 1)
    assert r.side == "collectors" and r.must_play_stop


@pytest.mark.parametrize(
    ("banker_level", "collector_level", "points", "new_b", "new_c"),
    [
        (10, 4, 5, 11, 4),  # banker at 10 may leave it, stops at J
        (11, 4, 40, 12, 4),  # J -> Q
        (12, 4, 0, 13, 4),  # Q + 3 stops at K
        (13, 6, 20, 14, 6),  # K -> A
        (8, 9, 160, 8, 10),  # collectors 9 + 2 stop at 10
        (8, 4, 240, 8, 5),  # collectors 4 + 3 stop at 5
        (8, 6, 240, 8, 9),  # collectors 6 + 3 -> 9 (no must-play level in between)
        (8, 10, 120, 8, 10),  # collectors at a must-play level never move past it
        (4, 3, 0, 5, 3),  # banker at 4 + 3 stops at 5
        (6, 3, 0, 9, 3),  # 6 + 3 -> 9
    ],
)
def test_must_play_levels(
    banker_level: int, collector_level: int, points: int, new_b: int, new_c: int
) -> None:
    r = hand_outcome(
        load_preset("shuangkou"),
        banker_seat=2,
        banker_level=banker_level,
        collector_level=collector_level,
        points=points,
    )
    assert (r.banker_level, r.collector_level) == (new_b, new_c)


def test_climb() -> None:
    sk = load_preset("shuangkou")
    assert climb(sk, 3, 3, as_winning_banker=True) == (5, 2, True)
    assert climb(sk, 3, 3, as_winning_banker=False) == (3, 0, True)
    assert climb(sk, 6, 2, as_winning_banker=False) == (8, 2, False)
    ss = load_preset("shuangsheng")
    assert climb(ss, 13, 3, as_winning_banker=True) == (3, 3, False)  # wrap: K A 2 3
    tl = load_preset("tuolaji")
    assert climb(tl, 13, 3, as_winning_banker=True) == (14, 1, False)  # A is the top


@pytest.mark.parametrize("seat", range(4))
def test_rotation(seat: int) -> None:
    opts = load_preset("tuolaji")
    up = hand_outcome(opts, banker_seat=seat, banker_level=5, collector_level=5, points=40)
    assert up.side == "banker" and up.next_banker == (seat + 2) % 4
    swap = hand_outcome(opts, banker_seat=seat, banker_level=5, collector_level=5, points=80)
    assert swap.side == "collectors" and swap.gain == 0
    assert swap.next_banker == (seat + 1) % 4
    assert (swap.banker_level, swap.collector_level) == (5, 5)
    over = hand_outcome(opts, banker_seat=seat, banker_level=5, collector_level=5, points=130)
    assert over.next_banker == (seat + 1) % 4 and over.collector_level == 6


def test_max_gain_caps() -> None:
    ss = load_preset("shuangsheng")
    r = hand_outcome(ss, banker_seat=0, banker_level=4, collector_level=6, points=280)
    assert r.capped and r.gain == 3 and r.collector_level == 9
    r = hand_outcome(ss, banker_seat=0, banker_level=4, collector_level=6, points=0)
    assert r.capped and r.banker_level == 7  # seed 000's B+6, capped at 3 in plain 双升
    r = hand_outcome(ss, banker_seat=0, banker_level=4, collector_level=6, points=35)
    assert not r.capped and r.banker_level == 6
    sup = load_preset("shuangsheng-super")
    r = hand_outcome(sup, banker_seat=0, banker_level=3, collector_level=6, points=0)
    assert r.banker_level == 9 and not r.capped
    tl = load_preset("tuolaji")
    r = hand_outcome(tl, banker_seat=0, banker_level=3, collector_level=3, points=280)
    assert not r.capped and r.collector_level == 8


def test_match_end() -> None:
    # reach_ace: the first team to reach A wins
    tl = load_preset("tuolaji")
    r = hand_outcome(tl, banker_seat=0, banker_level=12, collector_level=7, points=10)
    assert r.banker_level == 14 and r.winner == "banker"
    r = hand_outcome(tl, banker_seat=0, banker_level=10, collector_level=7, points=10)
    assert r.winner is None
    cl = load_preset("classic")
    r = hand_outcome(cl, banker_seat=1, banker_level=6, collector_level=13, points=80)
    assert r.collector_level == 14 and r.winner == "collectors"
    # defend_ace: only going up as banker at A wins
    sk = load_preset("shuangkou")
    r = hand_outcome(sk, banker_seat=0, banker_level=13, collector_level=6, points=20)
    assert r.banker_level == 14 and r.winner is None
    r = hand_outcome(sk, banker_seat=0, banker_level=14, collector_level=7, points=40)
    assert r.winner == "banker"
    r = hand_outcome(sk, banker_seat=2, banker_level=14, collector_level=7, points=85)
    assert r.winner is None and r.next_banker == 3
    # wrap: past A back to 2, no winner by levels
    ss = load_preset("shuangsheng")
    r = hand_outcome(ss, banker_seat=2, banker_level=12, collector_level=9, points=0)
    assert (r.banker_level, r.winner, r.next_banker) == (2, None, 0)


def _hooked(
    preset: str,
    banker_level: int,
    points: int,
    trick_points: int,
    *,
    last_trick_collectors: bool,
    hook_width: int | None = None,
) -> HandOutcome:
    return hand_outcome(
        load_preset(preset),
        banker_seat=0,
        banker_level=banker_level,
        collector_level=8,
        points=points,
        trick_points=trick_points,
        last_trick_collectors=last_trick_collectors,
        hook_width=hook_width,
    )


def test_j_hook() -> None:
    r = _hooked("shuangkou", 11, 105, 85, last_trick_collectors=True, hook_width=1)
    assert r.hook == 7 and r.banker_level == 7 and r.next_banker == 1 and r.collector_level == 8
    r = _hooked("shuangkou", 11, 150, 90, last_trick_collectors=True, hook_width=2)
    assert r.hook == 3 and r.banker_level == 3 and r.collector_level == 9
    # needs 80 from tricks before the kitty
    r = _hooked("shuangkou", 11, 95, 75, last_trick_collectors=True, hook_width=1)
    assert r.hook is None and r.banker_level == 11
    r = _hooked("shuangkou", 11, 95, 80, last_trick_collectors=True, hook_width=1)
    assert r.hook == 7
    # needs the collectors to win the last trick with a J on top
    r = _hooked("shuangkou", 11, 130, 90, last_trick_collectors=False, hook_width=1)
    assert r.hook is None
    r = _hooked("shuangkou", 11, 130, 90, last_trick_collectors=True)
    assert r.hook is None
    # only at level J, and only with j_hook on
    r = _hooked("shuangkou", 10, 105, 85, last_trick_collectors=True, hook_width=1)
    assert r.hook is None
    r = _hooked("tuolaji", 11, 105, 85, last_trick_collectors=True, hook_width=1)
    assert r.hook is None


def test_j_hook_width() -> None:
    ctx = ctx_for("shuangkou", "J", "H")
    assert j_hook_width(ctx, C("HJ")) == 1
    assert j_hook_width(ctx, C("SJ SJ")) == 2
    assert j_hook_width(ctx, C("SJ SJ HJ HJ")) == 2
    assert j_hook_width(ctx, C("BJ")) is None
    assert j_hook_width(ctx, C("HA")) is None
    assert j_hook_width(ctx, ()) is None
    assert j_hook_width(ctx_for("shuangkou", 10, "H"), C("HJ")) is None


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("points", [-10, 0, 5, 40, 80, 120, 200, 300])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explain_is_one_non_empty_line(preset: str, points: int, lang: str) -> None:
    r = hand_outcome(
        load_preset(preset), banker_seat=3, banker_level=5, collector_level=9, points=points
    )
    text = r.explain(lang)
    assert text.strip() and "\n" not in text
    assert str(points) in text
    if lang == "zh":
        assert "抓分方" in text and ("庄家" in text or "赢得比赛" in text)
    else:
        assert "Collectors scored" in text
        # the match's last hand names no next banker
        if r.winner is None:
            assert f"next banker seat {r.next_banker}" in text
        else:
            assert "next banker" not in text and "win" in text


def test_explain_mentions_the_reasons() -> None:
    sk = load_preset("shuangkou")
    r = hand_outcome(sk, banker_seat=0, banker_level=3, collector_level=3, points=0)
    assert r.explain("en") == (
        "Collectors scored 0: banker side goes up 2 (must-play 5 stops the climb) → 5; "
        "next banker seat 2."
    )
    assert "必打" in r.explain("zh")
    ss = load_preset("shuangsheng")
    r = hand_outcome(ss, banker_seat=0, banker_level=4, collector_level=6, points=280)
    assert "capped" in r.explain("en") and "封顶" in r.explain("zh")
    r = hand_outcome(
        sk,
        banker_seat=0,
        banker_level=11,
        collector_level=8,
        points=105,
        trick_points=85,
        last_trick_collectors=True,
        hook_width=1,
    )
    assert "J hook" in r.explain("en") and "钩底" in r.explain("zh")
    r = hand_outcome(sk, banker_seat=0, banker_level=14, collector_level=7, points=40)
    assert "wins the match" in r.explain("en") and "赢得比赛" in r.explain("zh")
    # the last hand names no next banker: there is no next hand
    assert "next banker" not in r.explain("en") and "下一局庄家" not in r.explain("zh")


# -- seed 001's 45-point passage and seed 002's table (issue 27) ----------------------------


def _score_45(trick_points: int, last_winner: int, last_points: int) -> tuple[int, str, int]:
    ctx = ctx_for("classic-1deck", 2, "H", level_table="classic-1deck-45")
    score = score_hand(
        ctx.options,
        ctx,
        banker=0,
        levels=(2, 2),
        trick_points=trick_points,
        penalties=0,
        kitty=C("SK S5 D10 C5 HK H5"),
        last_lead=classify_lead(ctx, C("S3")),
        last_winner=last_winner,
        last_winning_play=C("SA"),
        last_trick_points=last_points,
    )
    return score.points, score.outcome.side, score.outcome.gain


def test_the_45_point_passage_counts_neither_the_last_trick_nor_the_kitty() -> None:
    # collectors took 60, 20 of them in the last trick: 40 counted, and the last trick wins
    assert _score_45(60, last_winner=1, last_points=20) == (40, "collectors", 1)
    # 65 with 20 in the last trick: 45 counted and the last trick: two levels (打两级)
    assert _score_45(65, last_winner=1, last_points=20) == (45, "collectors", 2)
    # the banker side took the last trick (its points were never the collectors'): 40 is a draw
    assert _score_45(40, last_winner=2, last_points=15) == (40, "banker", 0)
    assert _score_45(35, last_winner=0, last_points=15) == (35, "banker", 1)
    assert _score_45(45, last_winner=0, last_points=15) == (45, "collectors", 1)


def test_a_draw_says_so() -> None:
    opts = load_preset("classic-1deck", {"level_table": "classic-1deck-45"})
    r = hand_outcome(opts, banker_seat=3, banker_level=6, collector_level=4, points=40)
    assert (r.banker_level, r.collector_level, r.next_banker, r.moved) == (6, 4, 1, 0)
    assert "draw" in r.explain("en") and "平局" in r.explain("zh")
    assert "→" not in r.explain("en")


@pytest.mark.parametrize(
    ("points", "side", "gain"),
    [
        (0, B, 3),
        (35, B, 2),
        (40, B, 1),
        (80, K, 0),
        (120, K, 1),
        (155, K, 1),
        (160, K, 2),
        (200, K, 2),
        (235, K, 2),
        (240, K, 3),
        (280, K, 4),
    ],
)
def test_shuangkou_has_its_own_table(points: int, side: Side, gain: int) -> None:
    assert level_change(load_preset("shuangkou"), points) == TableResult(side, gain)
    # the standard table goes up one more at 200 (what 双抠 played before)
    assert level_change(load_preset("tuolaji"), 200) == TableResult("collectors", 3)
