"""``shengji loadtest`` drives rooms of every size: one scripted player per seat."""

from __future__ import annotations

import ast

import pytest

from shengji.loadtest import run_loadtest, seats_of


def _figures(lines: list[str]) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in lines)


@pytest.mark.parametrize(("preset", "seats"), [("shuangsheng", 4), ("zhaopengyou", 6)])
def test_a_load_fills_every_seat_and_plays_without_errors(preset: str, seats: int) -> None:
    assert seats_of(preset) == seats
    figures = _figures(run_loadtest(rooms=2, duration=2.0, think=0.02, preset=preset))
    assert figures["clients"] == str(2 * seats)
    # players of a room act at once while declaring: a command sent on a revision another
    # one has just replaced is refused as stale, the one refusal a load may meet
    codes = figures["errors"].partition(" ")[2]
    assert set(ast.literal_eval(codes or "{}")) <= {"STALE_REVISION"}, figures["errors"]
    assert float(figures["actions/s"].split()[0]) > 0
    # a latency is taken when a broadcast has reached every player of its room
    assert int(figures["broadcasts measured"]) > 0
    assert f"latency p50 (command to broadcast at all {seats} players)" in figures
