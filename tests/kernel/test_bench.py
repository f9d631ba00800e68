"""``shengji bench kernel-check``: the equality gate as a command (the timing figures of
``shengji bench kernel`` are printed, not tested)."""

from __future__ import annotations

import pytest

from shengji.cli import main
from shengji.presets import preset_names


def test_kernel_check_command(capsys: pytest.CaptureFixture[str]) -> None:
    n = len(preset_names())
    assert main(["bench", "kernel-check", "--hands", str(n)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == n + 1
    assert all(line.endswith(" 0 mismatches") for line in lines)
    assert lines[-1].startswith("kernel equality (all presets, ")
    assert f": {n} hands, " in lines[-1]
