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
    port: int,
    db: str,
    timeout: float = 30.0,
    limits: Sequence[str] = (),
    bots: Sequence[str] = (),
    args: Sequence[str] = (),
) -> subprocess.Popen[bytes]:
    """``shengji serve`` in a subprocess (bots without delay, deals at once), once it
    answers HTTP;
    ``limits`` are ``name=value`` server limits, ``bots`` ``NAME=CMD`` external bots,
    ``args`` more options of ``serve``."""
    cmd = [
        sys.executable,
        "-m",
        "shengji.tools.cli",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--log-level",
        "warning",
        "--bot-delay",
        "0",
        "--deal-seconds",
        "0",
    ]
    for limit in limits:
        cmd += ["--limit", limit]
    for bot in bots:
        cmd += ["--bot", bot]
    cmd += args
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


class ServerProcess:
    """``shengji serve`` on a free loopback port over ``db``, that can be killed and
    started again (tests and tools)."""

    def __init__(self, db: str, limits: Sequence[str] = (), args: Sequence[str] = ()) -> None:
        self.port = free_port()
        self.db = db
        self.limits = tuple(limits)
        self.args = tuple(args)
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = start_server(
            self.port, db, limits=limits, args=args
        )

    def kill(self) -> None:
        """Stop the process at once (SIGKILL)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def restart(self) -> None:
        """Kill and start again on the same port and database."""
        self.kill()
        self.proc = start_server(self.port, self.db, limits=self.limits, args=self.args)
