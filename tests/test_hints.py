"""Hints and the reasons bots give (issue: trustworthy hints): an override of the rule of
thumb needs enough sampled deals and a clear paired margin; reasons name both plays with
the gain and its ±; ``shengji hint RECORD --at N`` reproduces a hint; reviews write cards
with suit symbols and place a play by trick and turn."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from shengji.bots.candidates import MARGIN_SE, MIN_DEALS, MIN_GAIN, Evaluation, override_reason
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.hints import hint_at
from shengji.bots.registry import hint_bot
from shengji.bots.review import Mark
from shengji.bots.search import Budget, SearchBot
from shengji.errors import ShengjiError
from shengji.game.actions import Play
from shengji.game.flow import apply, new_match
from shengji.game.players import run_match
from shengji.game.record import save_record
from shengji.game.state import GameState
from shengji.game.views import seat_view
from shengji.rules.cards import parse_cards
from shengji.rules.presets import load_preset
from shengji.tools.cli import main


def _record(seed: int = 5) -> dict[str, Any]:
    players = [HeuristicBot(s, seed) for s in range(4)]
    st, rec = run_match(load_preset("shuangsheng"), seed, players, stop_after_hand=True)
    return rec.record(st)


def _follow_state(seed: int = 5) -> GameState:
    """A state in the play phase where a seat follows (a lead is on the table)."""
    st = new_match(load_preset("shuangsheng"), seed)
    bots = [HeuristicBot(s, seed) for s in range(4)]
    while not (st.phase == "play" and st.trick and len(st.tricks) >= 3):
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, bots[seat].act(seat_view(st, seat)))
    return st


@pytest.mark.parametrize(
    ("diff", "se", "n", "clear"),
    [
        (0.3, 0.05, MIN_DEALS, True),
        (0.3, 0.05, MIN_DEALS - 1, False),  # too few deals: the rule of thumb stands
        (0.3, 0.3 / MARGIN_SE, 200, False),  # not by the margin of standard errors
        (MIN_GAIN / 2, 0.001, 500, False),  # a hair, however sure
    ],
)
def test_an_override_needs_deals_and_a_clear_margin(
    diff: float, se: float, n: int, clear: bool
) -> None:
    assert Evaluation(parse_cards("S3"), 0.0, diff, se, n).clearly_better is clear


def test_an_override_names_both_plays_with_gain_and_error_in_both_languages() -> None:
    st = _follow_state()
    seat = st.to_act
    assert seat is not None
    view = seat_view(st, seat)
    bot = HeuristicBot(seat, 1)
    chosen = bot.act(view)
    assert isinstance(chosen, Play)
    other = next(p for _, p in bot.scored if p != chosen.cards)
    en, zh = override_reason(view, chosen.cards, Evaluation(other, 0.1, 0.25, 0.05, 120))
    mine = " ".join(("♠♥♣♦"["SHCD".index(c.text[0])] + c.text[1:]) for c in chosen.cards)
    assert "rather than the rule of thumb's" in en and mine in en
    assert "+0.25 ± 0.05 levels in 120 sampled deals" in en
    assert "而不是经验打法的" in zh and "+0.25 ± 0.05" in zh and "120 次抽样" in zh
    assert " S" not in en and " H" not in en  # suits as symbols, not letters


def test_a_kept_play_says_how_many_others_were_searched() -> None:
    bot = SearchBot(0, 1, Budget(rollouts=10))
    bot.reason = ("lead low", "出小牌")
    bot.evaluations = [Evaluation(parse_cards("S3"), 0, 0, 0, 40)] * 2
    assert bot.explained()[0].endswith(
        "(search: the other play is not clearly better in 40 sampled deals)"
    )
    assert "另一种出法并不明显更好" in bot.explained()[1]
    bot.evaluations = [Evaluation(parse_cards("S3"), 0, 0, 0, 40)] * 4
    assert "none of the 3 other plays is clearly better" in bot.explained()[0]
    assert "其余 3 种出法都不明显更好" in bot.explained()[1]


def test_the_hint_command_reproduces_a_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = _record()
    path = tmp_path / "m.json"
    save_record(rec, path)
    at = next(i for i, a in enumerate(rec["actions"]) if a["type"] == "play") + 9
    args = ["hint", str(path), "--at", str(at), "--budget", "60it", "--seed", "2"]
    assert main([*args, "--lang", "both"]) == 0
    en, zh = capsys.readouterr().out.splitlines()
    assert en.startswith("play ") and " · " in en
    assert zh.startswith("出 ") and " · " in zh
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines() == [en]  # the same hint again
    same = hint_at(rec, at, hint_bot("60it"), 2)
    assert en == f"{same['said']['en']} · {same['why']['en']}"


def test_the_hint_command_refuses_positions_outside_the_record() -> None:
    rec = _record()
    with pytest.raises(ShengjiError) as e:
        hint_at(rec, len(rec["actions"]) + 1)
    assert e.value.code == "BAD_RECORD" and "the record holds" in e.value.message
    with pytest.raises(ShengjiError) as e:
        hint_at(rec, len(rec["actions"]))  # the hand is over: nobody decides
    assert e.value.code == "NOT_YOUR_TURN"


def test_three_seeds_agree_on_the_card_at_almost_every_position() -> None:
    """The same position asked with sampling seeds 1, 2, 3 gives one card choice (a
    rollout budget here, so the test does not depend on the machine's speed)."""
    rec = _record(11)
    plays = [i for i, a in enumerate(rec["actions"]) if a["type"] == "play"]
    positions = random.Random(3).sample(plays, 8)
    agree = 0
    for at in positions:
        spec = hint_bot("150it")
        cards = {hint_at(rec, at, spec, seed)["action"]["cards"] for seed in (1, 2, 3)}
        agree += len(cards) == 1
    assert agree >= 7


@pytest.mark.parametrize(
    ("order", "en", "zh"),
    [
        (1, "hand 2, trick 7, leading: played ♦Q;", "第 2 局第 7 轮首家出牌: 出了 ♦Q;"),
        (3, "hand 2, trick 7, 3rd to play: played ♦Q;", "第 2 局第 7 轮第 3 家出牌: 出了 ♦Q;"),
    ],
)
def test_a_review_mark_reads_like_a_hint(order: int, en: str, zh: str) -> None:
    mark = Mark(143, 1, 7, order, parse_cards("DQ"), parse_cards("C4 C4"), 0.31, 0.08, 60)
    assert mark.text("en").startswith(en) and "♣4 ♣4 is worth +0.31 ± 0.08" in mark.text("en")
    assert mark.text("zh").startswith(zh) and "出 ♣4 ♣4 平均多得" in mark.text("zh")
    assert "143" not in mark.text("both")
