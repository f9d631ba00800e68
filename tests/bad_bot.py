"""A bot program that breaks the bot protocol on purpose (tests of external bots):
``python tests/bad_bot.py crash|hang|illegal|garbage``."""

from __future__ import annotations

import json
import sys
import time


def main(mode: str) -> int:
    """Answer the handshake, then fail at the first request to act as ``mode`` says."""
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            answer: dict[str, object] = {"type": "hello", "protocol": 1, "name": f"bad-{mode}"}
        elif msg["type"] == "game":
            answer = {"type": "ready"}
        elif msg["type"] == "act":
            if mode == "crash":
                print("boom: the bot fell over", file=sys.stderr, flush=True)
                return 3
            if mode == "hang":
                time.sleep(3600)
            if mode == "garbage":
                print("this is not JSON", flush=True)
                continue
            # illegal: a play while trumps are being declared (and cards it may not hold)
            answer = {"type": "action", "id": msg["id"], "action": {"type": "play", "cards": "BJ"}}
        elif msg["type"] == "quit":
            return 0
        else:
            continue  # "refused": wait for the next game
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
