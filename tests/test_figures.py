"""Figures in the docs are written by the command that measured them, between markers."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from shengji.errors import ShengjiError
from shengji.figures import figures_block, write_figures

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
