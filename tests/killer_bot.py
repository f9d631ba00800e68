"""A bot program that kills the process that asks it to act (a simulation worker) the
first time, then plays as the random bot: ``python tests/killer_bot.py MARKER_FILE`` (the
marker says the kill happened). With ``always`` as the file name it kills every time."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path


def main(marker: str) -> int:
    if marker != "always" and Path(marker).exists():
        os.execv(sys.executable, [sys.executable, "-m", "shengji.tools.cli", "bot", "random"])
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(json.dumps({"type": "hello", "protocol": 1, "name": "killer"}), flush=True)
        elif msg["type"] == "game":
            print(json.dumps({"type": "ready"}), flush=True)
        elif msg["type"] == "act":
            if marker != "always":
                Path(marker).touch()
            os.kill(os.getppid(), signal.SIGKILL)
            return 1
        elif msg["type"] == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
