"""The CPU time of Botzone turns, as Botzone runs the bot.

A *cold* turn is a new process answering one request (Botzone starts a bot once per turn
unless it keeps running): for each bot command (by default ``python -m shengji.tools.botzone``
and ``python -m shengji.tools.cli botzone``) the script runs it on a deal request, the first play
request and the last play request of a local hand (``shengji.tools.botzone.referee``), each
``--runs`` times, and prints the median and the least CPU time (user + system, of the
process and its children, from the operating system) beside that of ``python -c pass``.
It then runs one seat's whole hand in keep-running mode and prints its CPU time a turn.

    python scripts/botzone_cold_turn.py [--runs 21] [--command "python -m shengji.tools.botzone"]

Run it from the checkout (``src`` is put on ``PYTHONPATH``). Bytecode caches are used as
an installed package uses them; ``--no-bytecode`` measures without them (every module
compiled at every start).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shengji.tools.botzone import KEEP_RUNNING, referee  # noqa: E402


def cpu_ms(cmd: list[str], stdin: str, env: dict[str, str]) -> tuple[float, str]:
    """CPU milliseconds of one run of ``cmd`` and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"{shlex.join(cmd)} failed: {run.stderr.strip()[-500:]}")
    used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return 1000 * used, run.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each cold turn")
    parser.add_argument(
        "--command",
        action="append",
        help="a bot command (repeatable; default: python -m shengji.tools.botzone, and "
        "python -m shengji.tools.cli botzone)",
    )
    parser.add_argument("--no-bytecode", action="store_true", help="no .pyc caches")
    args = parser.parse_args()

    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    cache = tempfile.TemporaryDirectory()
    if args.no_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    else:  # caches of this run only: nothing written into the checkout
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache.name
    python = shlex.quote(sys.executable)
    commands = args.command or [f"{python} -m shengji.tools.botzone", f"{python} -m shengji.tools.cli botzone"]
    log = referee(4)["logs"][1]
    plays = [i for i, r in enumerate(log["requests"]) if r["stage"] == "play"]
    turns = {
        "deal (first request)": 0,
        "play (first trick)": plays[0],
        "play (last trick)": plays[-1],
    }
    print(f"CPU ms of a cold turn, median / least of {args.runs} runs")
    base = [cpu_ms([sys.executable, "-c", "pass"], "", env)[0] for _ in range(args.runs)]
    print(f"  {'python -c pass':22} {statistics.median(base):6.1f} / {min(base):6.1f}")
    for command in commands:
        bot = shlex.split(command)
        print(command)
        for label, i in turns.items():
            stdin = json.dumps(
                {"requests": log["requests"][: i + 1], "responses": log["responses"][:i]}
            )
            cpu_ms(bot, stdin, env)  # the bytecode caches are written here, not measured
            times = [cpu_ms(bot, stdin, env)[0] for _ in range(args.runs)]
            print(f"  {label:22} {statistics.median(times):6.1f} / {min(times):6.1f}")
        lines = [json.dumps({"requests": log["requests"][:1], "responses": []})]
        lines += [json.dumps(r) for r in log["requests"][1:]]
        used, out = cpu_ms([*bot, "--keep-running"], "\n".join(lines) + "\n", env)
        assert out.splitlines()[1::2] == [KEEP_RUNNING] * len(lines)
        first, _ = cpu_ms(bot, lines[0], env)
        print(
            f"  keep-running: {len(lines)} turns of one seat's hand in {used:.0f} ms CPU, "
            f"{(used - first) / (len(lines) - 1):.2f} ms a turn after the first"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
