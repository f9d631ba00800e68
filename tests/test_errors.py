"""Every error code the engine can raise is listed, with a description, in errors.CODES."""

from __future__ import annotations

import re
from pathlib import Path

from shengji.errors import CODES

SRC = Path(__file__).parents[1] / "src" / "shengji"


def test_every_raised_code_is_listed() -> None:
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'code\s*=\s*"([A-Z_]+)"', text))
        found |= set(re.findall(r'(?:RoomError|ProtocolError)\(\s*"([A-Z_]+)"', text))
        found |= set(re.findall(r'"code": "([A-Z_]+)"', text))
    assert found, "no codes found: the scan is broken"
    missing = sorted(found - set(CODES))
    assert not missing, f"codes raised but not listed in errors.CODES: {missing}"
    assert all(desc for desc in CODES.values())
