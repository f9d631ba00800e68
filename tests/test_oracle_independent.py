"""The oracle's scoring (``tests/oracle/scoring.py``) is written from docs/rules.md, not
copied from the product: no three lines in a row of it are the same as three lines in a
row of any module under ``src/`` (blank lines, brackets and quote marks aside)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = 3


def _lines(path: Path) -> list[str]:
    """The lines of ``path`` that say something, stripped."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if s.strip("()[]{}:,\"' ") != "":
            out.append(s)
    return out


def _runs(ours: list[str], theirs: list[str]) -> list[str]:
    """The first lines of the runs of ``RUN`` lines ``ours`` shares with ``theirs``."""
    seen = {tuple(theirs[i : i + RUN]) for i in range(len(theirs) - RUN + 1)}
    return [ours[i] for i in range(len(ours) - RUN + 1) if tuple(ours[i : i + RUN]) in seen]


def test_the_oracles_scoring_shares_no_run_of_lines_with_the_product() -> None:
    ours = _lines(ROOT / "tests" / "oracle" / "scoring.py")
    shared = {
        str(path.relative_to(ROOT)): runs
        for path in sorted((ROOT / "src").rglob("*.py"))
        if (runs := _runs(ours, _lines(path)))
    }
    assert shared == {}


def test_a_copied_function_is_found() -> None:
    product = _lines(ROOT / "src" / "shengji" / "kernel" / "_core" / "hand.py")
    assert _runs(product[100:120], product)
