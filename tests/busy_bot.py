"""The wire bot (``tests/wire_bot.py``) spending ``MS`` milliseconds of CPU on each
decision before it answers: ``python tests/busy_bot.py MS`` (tests of the decision times
``simulate`` reports)."""

from __future__ import annotations

import json
import random
import sys
import time

from wire_bot import choose


def main(ms: float) -> int:
    rng = random.Random(0)
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            answer: dict[str, object] = {"type": "hello", "protocol": 1, "name": "busy"}
        elif msg["type"] == "game":
            answer = {"type": "ready"}
        elif msg["type"] == "act":
            end = time.process_time() + ms / 1000
            while time.process_time() < end:
                pass
            answer = {"type": "action", "id": msg["id"], "action": choose(msg, rng)}
        elif msg["type"] == "quit":
            return 0
        else:
            continue
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(float(sys.argv[1])))
