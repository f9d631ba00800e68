"""Figures in the docs are written by the command that measured them, between markers."""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

import pytest

from shengji.errors import ShengjiError
from shengji.tools.cli import main
from shengji.tools.figures import figures_block, write_figures

ROOT = Path(__file__).resolve().parents[1]


def test_a_block_is_replaced_between_its_markers(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("before\n<!-- figures:x -->\nold\n<!-- /figures:x -->\nafter\n")
    block = figures_block("shengji x --n 1", ["a: 1", "b: 2"], datetime.date(2026, 1, 2))
    write_figures(doc, "x", block)
    text = doc.read_text()
    assert text.startswith("before\n<!-- figures:x -->\n`shengji x --n 1` on ")
    assert "2026-01-02:\n\n    a: 1\n    b: 2\n<!-- /figures:x -->\nafter\n" in text
    assert "old" not in text and "cores" in text
    assert re.search(r"cores.*, load average \d+\.\d, 2026-01-02:", text)  # how busy it was
    write_figures(doc, "x", block)  # again: the same text, nothing piles up
    assert doc.read_text() == text


def test_a_document_without_the_block_is_left_alone(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("no markers\n")
    with pytest.raises(ShengjiError) as e:
        write_figures(doc, "x", "figures\n")
    assert e.value.code == "BAD_OPTION" and doc.read_text() == "no markers\n"


@pytest.mark.parametrize("doc", ["README.md", "docs/server.md"])
def test_the_docs_hold_the_loadtest_block(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert text.count("<!-- figures:loadtest -->") == 1
    assert text.count("<!-- /figures:loadtest -->") == 1


@pytest.mark.parametrize(
    ("doc", "name"),
    [("README.md", "bench-all"), ("docs/kernel.md", "bench-all"), ("docs/env.md", "bench-env")],
)
def test_the_docs_hold_the_bench_blocks(doc: str, name: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert text.count(f"<!-- figures:{name} -->") == 1
    block = text.split(f"<!-- figures:{name} -->")[1].split(f"<!-- /figures:{name} -->")[0]
    assert "`shengji bench all " in block and "cores" in block
    for row in ("PettingZoo env() (", "PettingZoo raw_env (", "VectorEnv ("):
        assert row in block
    if name == "bench-all":
        assert "hands/s [kernel, compiled" in block or "hands/s [kernel, pure" in block
        assert "simulate end to end" in block and "memory per retained game state" in block
        assert "simulate start-up" in block


def test_bench_writes_what_it_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import shengji.tools.bench

    lines = [
        "simulate end to end (x): 1 hands per CPU-s [kernel]",
        "play phases/s (y): 2 hands/s",
        "VectorEnv (z): 3 steps per CPU-s [kernel]",
    ]
    monkeypatch.setattr(shengji.tools.bench, "bench_all", lambda hands, repeat: iter(lines))
    (tmp_path / "docs").mkdir()
    empty = "# k\n<!-- figures:bench-all -->\n<!-- /figures:bench-all -->\n"
    for name in ("README.md", "docs/kernel.md"):
        (tmp_path / name).write_text(empty)
    (tmp_path / "docs/env.md").write_text(empty.replace("bench-all", "bench-env"))
    monkeypatch.chdir(tmp_path)
    assert main(["bench", "all", "--hands", "3", "--repeat", "1", "--write-docs"]) == 0
    printed = [
        x for x in capsys.readouterr().out.splitlines() if x.startswith(("sim", "play", "Vec"))
    ]
    assert printed == lines
    for name in ("README.md", "docs/kernel.md"):  # one command writes the three documents
        text = (tmp_path / name).read_text()
        assert all(f"    {line}\n" in text for line in printed)
        assert "`shengji bench all --hands 3 --repeat 1` on " in text
    env = (tmp_path / "docs/env.md").read_text()  # the environment's rows alone
    assert f"    {lines[2]}\n" in env and "simulate" not in env.split("`")[2]
    assert main(["bench", "rules", "--write-docs"]) == 2  # no document holds those
    assert main(["bench", "kernel", "--write-docs"]) == 2


def test_the_programs_figures_measure_something() -> None:
    from shengji.tools.bench import (
        env_rate,
        interleaved_figures,
        simulate_rate,
        simulate_startup,
        vector_rate,
    )

    assert simulate_rate(hands=20) > 0
    assert 0 < simulate_startup() < 10
    for rate in (env_rate(steps=300), env_rate(steps=300, wrapped=True), vector_rate(640, 8)):
        assert rate is None or rate > 0
    assert interleaved_figures({"a": lambda: 1.0, "none": lambda: None}, 2) == {"a": [1.0, 1.0]}


def _block(doc: str, name: str) -> list[str]:
    text = (ROOT / doc).read_text(encoding="utf-8")
    inner = text.split(f"<!-- figures:{name} -->")[1].split(f"<!-- /figures:{name} -->")[0]
    return [line.strip() for line in inner.splitlines()[1:] if line.startswith("    ")]


def test_the_documented_simulate_table_is_in_the_format_simulate_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = _block("README.md", "simulate")
    assert main(["simulate", "--players", "heuristic,random", "--hands", "2", "--quiet"]) == 0
    printed = [line.strip() for line in capsys.readouterr().out.splitlines()]
    header = next(line for line in printed if line.startswith("team "))
    assert header in doc
    assert [line.split()[0] for line in doc[1:4]] == ["team", "A", "B"]


def test_the_documented_kernel_figures_are_the_lines_bench_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def titles(lines: list[str]) -> set[str]:  # the engines differ where nothing compiled
        return {line.split(": ")[0] for line in lines}

    doc = _block("docs/kernel.md", "bench-all")
    assert main(["bench", "kernel", "--hands", "2", "--repeat", "1"]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line]
    assert titles(printed) <= titles(doc)
    assert all(line.split(": ")[1].split()[1] in ("hands/s", "rollouts/s") for line in printed)


def test_bench_rounds_run_every_variant_in_turn() -> None:
    """Interleaved: each round runs every compared variant once, in turn (compiled and
    pure alternate), so a change of load falls on all of them alike."""
    from shengji.tools.bench import interleaved_figures

    order: list[str] = []

    def run(name: str, value: float) -> Any:
        def measure() -> float:
            order.append(name)
            return value

        return measure

    figures = interleaved_figures({"compiled": run("compiled", 2.0), "pure": run("pure", 1.0)}, 3)
    assert order == ["compiled", "pure"] * 3
    assert figures == {"compiled": [2.0] * 3, "pure": [1.0] * 3}
