"""The ``shengji`` command line: ``conformance`` and ``rules`` (and a smoke run of ``demo``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shengji.tools.cli import main
from shengji.tools.conformance import load_cases, run_case, run_files

CASES_DIR = Path(__file__).parent / "conformance"
CASE_FILES = sorted(CASES_DIR.glob("*.json"))


def test_conformance_suite_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(CASE_FILES) == 13
    code = main(["conformance", *map(str, CASE_FILES)])
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == "352 passed, 0 failed"
    assert "FAIL" not in out
    assert code == 0


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.name)
def test_each_case_file_passes(path: Path) -> None:
    results = run_files([path])
    assert results
    failed = [(r.id, r.expected, r.got) for r in results if not r.passed]
    assert not failed
    ids = [r.id for r in results]
    assert len(ids) == len(set(ids))


def _write(tmp_path: Path, cases: list[Any], name: str = "cases.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps({"cases": cases}, ensure_ascii=False), encoding="utf-8")
    return p


GOOD = {
    "id": "good",
    "preset": "tuolaji",
    "level": "2",
    "trump": "H",
    "question": "winner",
    "plays": [["SA"], ["H3"], ["SK"], ["H4"]],
    "expect": {"winner": 3},
}


def _case(**changes: Any) -> dict[str, Any]:
    case = dict(GOOD)
    for k, v in changes.items():
        if v is None:
            case.pop(k, None)
        else:
            case[k] = v
    return case


BAD_CASES = {
    "unknown-question": _case(id="unknown-question", question="who-deals"),
    "unknown-preset": _case(id="unknown-preset", preset="bridge"),
    "unknown-option": _case(id="unknown-option", options={"no_such_option": True}),
    "bad-option-value": _case(id="bad-option-value", options={"decks": 9}),
    "missing-plays": _case(id="missing-plays", plays=None),
    "missing-level": _case(id="missing-level", level=None),
    "missing-preset": _case(id="missing-preset", preset=None),
    "bad-card": _case(id="bad-card", plays=[["S1"], ["H3"], ["SK"], ["H4"]]),
    "cards-not-text": _case(id="cards-not-text", plays=[[5], ["H3"], ["SK"], ["H4"]]),
    "plays-not-list": _case(id="plays-not-list", plays=7),
    "bad-level": _case(id="bad-level", level="Z"),
    "bad-trump": _case(id="bad-trump", trump="X"),
    "no-expect": _case(id="no-expect", expect=None),
    "wrong-answer": _case(id="wrong-answer", expect={"winner": 1}),
    "wrong-type": _case(id="wrong-type", expect={"winner": "3"}),
    "unknown-expect-key": _case(id="unknown-expect-key", expect={"loser": 0}),
    "bad-phase": {
        "id": "bad-phase",
        "preset": "tuolaji",
        "level": "2",
        "question": "declare",
        "first_hand": True,
        "phase": "lunch",
        "history": [],
        "attempt": {"seat": 0, "cards": ["H2"]},
        "expect": {"legal": True},
    },
    "bad-thrower-side": {
        "id": "bad-thrower-side",
        "preset": "tuolaji",
        "level": "2",
        "trump": "H",
        "question": "throw",
        "lead": ["SA", "SK"],
        "others": [[], [], []],
        "thrower_side": "dealer",
        "expect": {"valid": True},
    },
}


@pytest.mark.parametrize("name", sorted(BAD_CASES))
def test_bad_case_counts_as_failed(name: str) -> None:
    r = run_case(BAD_CASES[name])
    assert not r.passed


def test_bad_cases_fail_without_crashing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [GOOD, *BAD_CASES.values(), "not a case", 42]
    p = _write(tmp_path, cases)
    code = main(["conformance", str(p)])
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert lines[-1] == f"1 passed, {len(cases) - 1} failed"
    assert code == 1
    for name in BAD_CASES:
        assert any(line.startswith(f"FAIL {name} ") for line in lines), name
    assert sum(line.startswith("FAIL") for line in lines) == len(cases) - 1


def test_the_four_named_failures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = ["unknown-question", "unknown-preset", "unknown-option", "missing-plays"]
    p = _write(tmp_path, [BAD_CASES[n] for n in names])
    assert main(["conformance", str(p)]) == 1
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == "0 passed, 4 failed"
    assert "unknown question 'who-deals'" in out
    assert "UNKNOWN_PRESET" in out
    assert "UNKNOWN_OPTION" in out


def test_malformed_last_trick_counts_as_failed(tmp_path: Path) -> None:
    case = {
        "id": "bad-last-trick",
        "preset": "shuangkou",
        "question": "outcome",
        "banker_seat": 0,
        "banker_level": "J",
        "collector_level": "8",
        "points": 100,
        "last_trick": ["HJ"],
        "expect": {"next_banker": 1},
    }
    assert not run_case(case).passed


def test_several_files_add_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _write(tmp_path, [GOOD], "a.json")
    b = _write(tmp_path, [GOOD, BAD_CASES["wrong-answer"]], "b.json")
    assert main(["conformance", str(a), str(b)]) == 1
    assert capsys.readouterr().out.strip().splitlines()[-1] == "2 passed, 1 failed"
    assert main(["conformance", str(a)]) == 0
    assert capsys.readouterr().out.strip() == "1 passed, 0 failed"


def test_empty_case_file_is_not_a_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = _write(tmp_path, [])
    assert main(["conformance", str(p)]) == 1
    assert capsys.readouterr().out.strip() == "0 passed, 0 failed"


@pytest.mark.parametrize(
    "content",
    ["this is not json", "{", '{"cases": 3}', "[1, 2]", '{"tests": []}', ""],
)
def test_bad_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    p = tmp_path / "bad.json"
    p.write_text(content, encoding="utf-8")
    code = main(["conformance", str(p)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.startswith("error: BAD_CONFORMANCE_CASE")
    assert str(p) in captured.err
    assert "Traceback" not in captured.err + captured.out


def test_missing_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_binary_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "bin.json"
    p.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["conformance", str(p)]) == 2


def test_load_cases_replaces_non_objects(tmp_path: Path) -> None:
    p = _write(tmp_path, [GOOD, 3])
    cases = load_cases(p)
    assert cases[0] == GOOD
    assert cases[1]["question"] == "?"


# -- rules --------------------------------------------------------------------------------


def test_rules_shuangkou_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "shuangkou"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("preset shuangkou: ")
    rows = {line.split()[0]: line for line in out.splitlines()[1:] if line.strip()}
    assert "must_play_levels" in rows
    assert "3 5 10 J K A" in rows["must_play_levels"]
    assert rows["constant_twos"].split()[2] == "true"
    assert rows["decks"].split()[2] == "2"
    assert rows["throw_penalty"].split()[2] == "per_card"
    for option in ("start_level", "kitty_multiplier", "level_table", "j_hook", "match_end"):
        assert option in rows


def test_rules_default_preset_and_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--set", "decks=3", "--set", "j_hook=true"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("preset shuangsheng")
    rows = {line.split()[0]: line for line in out.splitlines()[1:] if line.strip()}
    assert rows["decks"].split()[2] == "3"
    assert rows["j_hook"].split()[2] == "true"


def test_rules_options_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "house.toml"
    p.write_text('throw_penalty = "per_attempt"\ndecks = 3\n', encoding="utf-8")
    assert main(["rules", "tuolaji", "--options", str(p), "--set", "decks=4"]) == 0
    rows = {
        line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:] if line.strip()
    }
    assert rows["throw_penalty"].split()[2] == "per_attempt"
    assert rows["decks"].split()[2] == "4"  # --set wins over the file


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["rules", "--set", "decks=9"], "BAD_OPTION_VALUE"),
        (["rules", "--set", "no_such=1"], "UNKNOWN_OPTION"),
        (["rules", "--set", "decks"], "BAD_OPTION_VALUE"),
        (["rules", "bridge"], "UNKNOWN_PRESET"),
        (["rules", "--options", "/nonexistent/house.toml"], "BAD_OPTION_VALUE"),
    ],
)
def test_rules_errors_exit_2(
    args: list[str], code: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {code}: ")
    assert "Traceback" not in err


@pytest.mark.parametrize("content", [b"\xff\xfe", b"options = 5\n"])
def test_rules_bad_options_file_exit_2(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "house.toml"
    p.write_bytes(content)
    assert main(["rules", "--options", str(p)]) == 2


def test_rules_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--list"]) == 0
    out = capsys.readouterr().out
    names = [line.split()[0] for line in out.splitlines()]
    assert names == [
        "botzone",
        "classic",
        "classic-1deck",
        "classic-3deck",
        "shuangkou",
        "shuangsheng",
        "shuangsheng-super",
        "tuolaji",
        "tuolaji-4deck",
        "zhaopengyou",
    ]


def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--preset", "classic-3deck", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.strip()  # the demo's content changes with the game; only a smoke test


def test_unknown_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "nothing"]) == 2
    assert "unknown benchmark" in capsys.readouterr().err


def test_usage_errors_exit_via_argparse() -> None:
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2
    with pytest.raises(SystemExit):
        main(["conformance"])
