"""``shengji review``: marks only the reviewed seat's own plays, with a different
alternative worth at least the threshold, reproducibly under a rollout budget."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shengji.actions import action_from_json
from shengji.bots.heuristic_v1 import HeuristicV1Bot
from shengji.bots.search import Budget
from shengji.cli import main
from shengji.errors import ShengjiError
from shengji.players import run_match
from shengji.presets import load_preset
from shengji.record import save_record
from shengji.review import THRESHOLD, review


def _record() -> dict[str, Any]:
    players = [HeuristicV1Bot(s, 8) for s in range(4)]
    st, rec = run_match(load_preset("shuangsheng"), 8, players, stop_after_hand=True)
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
