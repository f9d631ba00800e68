"""One list of codes (:class:`shengji.errors.Code`): every refusal uses a member, every
member is worded in both languages and documented in docs/errors.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shengji.errors import CODES, Code, ShengjiError
from shengji.server.protocol import ProtocolError
from shengji.server.room_settings import RoomError
from shengji.words.i18n import CATALOGUE, code_table

ROOT = Path(__file__).parents[1]
SRC = ROOT / "src" / "shengji"


def test_no_code_is_written_as_a_bare_string() -> None:
    bare = re.compile(
        r'code\s*=\s*"[A-Z_]+"|(?:RoomError|ProtocolError)\(\s*"[A-Z_]+"|"code":\s*"[A-Z_]+"'
    )
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in SRC.rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if bare.search(line)
    ]
    assert not found, f"use shengji.errors.Code, not a string: {found}"


def test_every_code_is_worded_in_both_languages_and_documented() -> None:
    doc = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    assert doc.endswith(code_table()), "docs/errors.md is stale: scripts/make_error_docs.py"
    for code in Code:
        entry = CATALOGUE[f"err.{code}"]
        assert entry["en"] and entry["zh"] and code.meaning
        assert f"| `{code}` |" in doc
    assert {c.value: c.meaning for c in Code} == CODES


@pytest.mark.parametrize(
    "error",
    [
        ShengjiError("x", code=Code.BAD_CARD),
        RoomError(Code.NOT_SEATED, "spectators cannot play"),
        ProtocolError(Code.BAD_MESSAGE, "not JSON"),
    ],
)
def test_one_hierarchy(error: ShengjiError) -> None:
    assert isinstance(error, ShengjiError) and error.code in CODES
    assert str(error).startswith(f"{error.code}: ")
