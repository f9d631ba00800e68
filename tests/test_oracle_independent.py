"""The oracle (``tests/oracle``) is an independent implementation of the rules, not a copy
of the product's: a copy would share the very bug it is there to catch.

Lines are compared *normalized*: each line stripped of surrounding white space, and blank
lines and comment-only lines (``# ...``) dropped; in the strict reading, lines of nothing
but brackets, colons, commas and quote marks (``)``, ``],``, a docstring's closing
quotes) are dropped too, so that a copy cannot hide behind a reformatted bracket; in the
plain reading they count. Everything else counts, imports, docstrings and error wording
included: a copied docstring is as much a sign of a copied function as a copied body.

- No run of ``RUN`` (6) normalized lines in a row of any module under ``tests/oracle`` is
  the same as a run of 6 normalized lines of any module under ``src/shengji`` (all of
  them, found with ``rglob``, so moving modules into packages changes nothing here), in
  either reading.
- The oracle's scoring (``tests/oracle/scoring.py``, written from the rule book) shares
  not even 3 strictly normalized lines in a row with ``src``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "shengji"
ORACLE = ROOT / "tests" / "oracle"
RUN = 6
SCORING_RUN = 3


def _lines(path: Path, strict: bool = True) -> list[str]:
    """The normalized lines of ``path`` (see the module's docstring)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if s and not s.startswith("#") and not (strict and s.strip("()[]{}:,\"' ") == ""):
            out.append(s)
    return out


def _windows(lines: list[str], run: int) -> set[tuple[str, ...]]:
    """Every run of ``run`` lines in a row of ``lines``."""
    return {tuple(lines[i : i + run]) for i in range(len(lines) - run + 1)}


def _runs(ours: list[str], theirs: list[str] | set[tuple[str, ...]], run: int = RUN) -> list[str]:
    """The first lines of the runs of ``run`` lines ``ours`` shares with ``theirs`` (lines,
    or their windows of ``run`` lines)."""
    seen = theirs if isinstance(theirs, set) else _windows(theirs, run)
    return [ours[i] for i in range(len(ours) - run + 1) if tuple(ours[i : i + run]) in seen]


def _product_windows(run: int, strict: bool = True) -> set[tuple[str, ...]]:
    seen: set[tuple[str, ...]] = set()
    for path in sorted(SRC.rglob("*.py")):
        seen |= _windows(_lines(path, strict), run)
    return seen


def _shared(run: int, oracle_files: list[Path], strict: bool = True) -> dict[str, list[str]]:
    """For each oracle file sharing runs of ``run`` lines with ``src``, their first lines."""
    product = _product_windows(run, strict)
    return {
        str(path.relative_to(ROOT)): runs
        for path in oracle_files
        if (runs := _runs(_lines(path, strict), product, run))
    }


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "plain"])
def test_the_oracle_shares_no_run_of_six_lines_with_the_product(strict: bool) -> None:
    oracle_files = sorted(ORACLE.rglob("*.py"))
    assert len(oracle_files) >= 8
    assert _shared(RUN, oracle_files, strict) == {}


def test_the_oracles_scoring_shares_no_run_of_three_lines_with_the_product() -> None:
    assert _shared(SCORING_RUN, [ORACLE / "scoring.py"]) == {}


def test_a_copied_function_is_found() -> None:
    product = _lines(SRC / "kernel" / "_core.py")
    assert _runs(product[100:120], product)
    assert _runs(product[100 : 100 + RUN], _product_windows(RUN))
    assert not _runs(product[100 : 100 + RUN - 1], _product_windows(RUN))


def test_normalizing_drops_only_blank_comment_and_bracket_lines(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text('def f(\n    x,\n):\n\n    # why\n    return (x)\n    """\n', encoding="utf-8")
    assert _lines(f) == ["def f(", "x,", "return (x)"]
    assert _lines(f, strict=False) == ["def f(", "x,", "):", "return (x)", '"""']
