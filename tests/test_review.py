"""``shengji review``: marks only the reviewed seat's own plays, with a different
alternative worth at least the threshold, reproducibly under a rollout budget."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shengji.bots.heuristic_v1 import HeuristicV1Bot
from shengji.bots.reasons import CODES
from shengji.bots.review import THRESHOLD, review
from shengji.bots.search import Budget
from shengji.errors import ShengjiError
from shengji.game.actions import action_from_json
from shengji.game.players import run_match
from shengji.game.record import save_record
from shengji.rules.cards import format_cards
from shengji.rules.presets import load_preset
from shengji.tools.cli import main


def _record() -> dict[str, Any]:
    # a hand where seat 1 made a play the review finds clearly worse at 200 rollouts
    players = [HeuristicV1Bot(s, 7) for s in range(4)]
    st, rec = run_match(load_preset("shuangsheng"), 7, players, stop_after_hand=True)
    return rec.record(st)


def test_review_marks_the_seats_own_plays_reproducibly() -> None:
    rec = _record()
    runs = [list(review(rec, 1, Budget(rollouts=200))) for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0]
    for mark in runs[0]:
        item = rec["actions"][mark.index]
        assert item["seat"] == 1
        assert action_from_json(item).cards == mark.played  # type: ignore[union-attr]
        assert mark.better != mark.played
        assert mark.gain >= THRESHOLD and mark.gain > 2 * mark.se
        assert mark.reason is not None and mark.reason.code in CODES


def test_review_rejects_a_bad_seat() -> None:
    with pytest.raises(ShengjiError) as e:
        list(review(_record(), 4))
    assert e.value.code == "BAD_SEAT"


def test_review_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    save_record(_record(), path)
    assert main(["review", str(path), "--seat", "1", "--budget", "200it", "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    marks = list(review(_record(), 1, Budget(rollouts=200)))
    assert out == [m.text("en") for m in marks] + [f"{len(marks)} play(s) marked"]


def test_review_of_one_hand_and_its_json() -> None:
    """``hand`` limits the review to that hand's plays; the server's JSON has the cards in
    notation, the replayer's view index and the line in both languages (suit symbols)."""
    from shengji.bots.random_bot import RandomBot
    from shengji.server.reviewing import hand_actions, review_hand

    options = load_preset("classic-1deck", {"match_hands": 2})
    from shengji.game.players import Player

    players: list[Player] = [RandomBot(0, 1), *(HeuristicV1Bot(s, 1) for s in (1, 2, 3))]
    st, recorder = run_match(options, 1, players)
    rec = recorder.record(st)
    everything = list(review(rec, 0, Budget(rollouts=60)))
    first = len(hand_actions(rec["actions"], 0))
    for hand in (0, 1):
        marks = list(review(rec, 0, Budget(rollouts=60), hand=hand))
        assert marks == [m for m in everything if m.hand == hand]
        assert all((m.index < first) == (hand == 0) for m in marks)
        short = {**rec, "actions": hand_actions(rec["actions"], hand)}
        assert [j["index"] for j in review_hand(short, 0, hand, 60)] == [m.index for m in marks]
    assert everything
    j = review_hand(rec, 0, everything[0].hand, 60)[0]
    assert j["view"] == j["index"] + 1 and j["played"] == format_cards(everything[0].played)
    assert "±" in j["text"]["en"] and "级" in j["text"]["zh"]
    # each mark says why: a reason code, its params and its words in both languages
    for m, jm in zip(everything, review_hand(rec, 0, everything[0].hand, 60), strict=False):
        assert jm["reason"]["code"] == m.why.code and jm["reason"]["params"] == m.why.args()
        assert jm["reason"]["text"]["zh"] == m.why.text("zh")
        assert not any(f"{s}{r}" in jm["reason"]["text"]["en"] for s in "SHCD" for r in "2345")
    assert not any(f"{s}{r}" in j["text"]["en"] for s in "SHCD" for r in "23456789JQKA")
    with pytest.raises(ShengjiError) as e:
        review_hand({**rec, "actions": hand_actions(rec["actions"], 0)[:-1]}, 0, 0, 60)
    assert e.value.code == "BAD_HAND"
