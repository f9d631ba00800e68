"""A bot program that kills the process that started it (a simulation worker) the first
time it runs, then plays as the random bot: ``python tests/killer_bot.py MARKER_FILE``
(the marker says the kill happened). With ``always`` as the file name it kills every time."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path


def main(marker: str) -> int:
    if marker == "always" or not Path(marker).exists():
        if marker != "always":
            Path(marker).touch()
        os.kill(os.getppid(), signal.SIGKILL)
        return 1
    os.execv(sys.executable, [sys.executable, "-m", "shengji.cli", "bot", "random"])
    return 0  # pragma: no cover - execv does not return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
