"""The long equality gate as a command (``cd tests && python -m kernel.gate``); the timing
figures of ``shengji bench kernel`` are printed, not tested."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .gate import gate_tables


def test_the_long_gate_runs_as_a_command() -> None:
    n = len(gate_tables())
    tests = Path(__file__).parent.parent
    out = subprocess.run(
        [sys.executable, "-m", "kernel.gate", "--hands", str(n)],
        cwd=tests,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = out.stdout.splitlines()
    assert len(lines) == 3 * n + 1  # per table: play phases, matches, the engine
    assert sum(line.startswith("engine equality (") for line in lines) == n
    assert all(line.endswith(" 0 mismatches") for line in lines)
    assert lines[-1].startswith("kernel equality (all presets, ")
