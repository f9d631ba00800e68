"""Records replay exactly; verify accepts real records and names the first bad action."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from shengji.game.record import RecordError, replay, verify
from shengji.rules.cards import ALL_CARDS
from shengji.rules.presets import load_preset
from shengji.tools.cli import main
from shengji.tools.demo import play_match


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    _, rec = play_match(load_preset("shuangkou", {"match_hands": 2}), seed=7, max_hands=2)
    return rec


def _first_follow(rec: dict[str, Any]) -> int:
    """Index of the first play that follows (not a lead)."""
    plays = 0
    for i, a in enumerate(rec["actions"]):
        if a["type"] == "play":
            plays += 1
            if plays % 4 == 2:
                return i
    raise AssertionError("no follow")


def test_demo_records_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for preset in ("shuangsheng", "classic-1deck", "classic-3deck", "tuolaji"):
        path = tmp_path / f"{preset}.json"
        assert (
            main(
                [
                    "demo",
                    "--preset",
                    preset,
                    "--seed",
                    "3",
                    "--quiet",
                    "--max-hands",
                    "3",
                    "--record",
                    str(path),
                ]
            )
            == 0
        )
        assert main(["verify", str(path)]) == 0
        assert "OK" in capsys.readouterr().out
        assert main(["replay", str(path), "--lang", "zh"]) == 0
        assert "第1局" in capsys.readouterr().out


def test_record_matches_schema_shape(record: dict[str, Any]) -> None:
    schema = json.loads(Path(__file__).parents[1].joinpath("docs/record.schema.json").read_text())
    assert set(schema["required"]) <= set(record)
    assert set(record["rules"]) == set(schema["properties"]["rules"]["properties"])
    jsonschema.validate(record, schema)
    verify(record)


def test_changed_card_is_rejected(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    i = _first_follow(bad)
    cards = bad["actions"][i]["cards"].split()
    held = {c.text for c in ALL_CARDS} - set(cards)
    cards[0] = sorted(held)[0]
    bad["actions"][i]["cards"] = " ".join(cards)
    with pytest.raises(RecordError) as e:
        verify(bad)
    assert e.value.index is not None and e.value.index <= i
    assert f"action #{e.value.index}" in str(e.value)


def test_illegal_play_is_rejected(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    i = _first_follow(bad)
    bad["actions"][i]["seat"] = (bad["actions"][i]["seat"] + 1) % 4
    with pytest.raises(RecordError) as e:
        verify(bad)
    assert e.value.index == i and "NOT_YOUR_TURN" in str(e.value)


def test_truncated_record_is_rejected(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    n = len(bad["actions"])
    bad["actions"] = bad["actions"][: n - 5]
    with pytest.raises(RecordError) as e:
        verify(bad)
    assert e.value.code == "TRUNCATED_RECORD" and e.value.index == n - 5


def test_wrong_version_and_altered_result_are_rejected(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["version"] = 99
    with pytest.raises(RecordError) as e:
        verify(bad)
    assert e.value.code == "BAD_RECORD_VERSION"
    bad = copy.deepcopy(record)
    bad["hands"][0]["points"] += 5
    with pytest.raises(RecordError) as e:
        verify(bad)
    assert "points" in str(e.value)


def test_cli_verify_reports_index(tmp_path: Path, record: dict[str, Any], capsys) -> None:
    bad = copy.deepcopy(record)
    i = _first_follow(bad)
    bad["actions"][i]["seat"] = (bad["actions"][i]["seat"] + 1) % 4
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"action index {i}" in err
    path.write_text("{not json")
    assert main(["verify", str(path)]) == 1
    assert "not JSON" in capsys.readouterr().err


def test_replay_reproduces_states(record: dict[str, Any]) -> None:
    seen = []
    final = replay(record, lambda st, *_: seen.append(st))
    assert len(seen) == len(record["actions"]) and seen[-1] is final
