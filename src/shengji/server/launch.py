"""Starting a server process on loopback (used by ``shengji loadtest`` and the tests)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    port: int, db: str, timeout: float = 30.0, limits: Sequence[str] = ()
) -> subprocess.Popen[bytes]:
    """``shengji serve`` in a subprocess (bots without delay), once it answers HTTP;
    ``limits`` are ``name=value`` server limits."""
    cmd = [
        sys.executable,
        "-m",
        "shengji.cli",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--log-level",
        "warning",
        "--bot-delay",
        "0",
    ]
    for limit in limits:
        cmd += ["--limit", limit]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/presets", timeout=1)
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds a process has used (Linux ``/proc``; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None
