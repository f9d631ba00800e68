"""A bot written from docs/bot-protocol.md alone, as a bot in another language would be:
it never imports shengji and plays only what the ``act`` requests say is legal (a show or
pass, the first ``kitty_size`` cards of its hand, a one-unit lead, a legal follow)."""

from __future__ import annotations

import json
import random
import sys
from typing import Any


def choose(msg: dict[str, Any], rng: random.Random) -> dict[str, str]:
    """The action for one ``act`` request."""
    hand = str(msg["exact"]["hand"]).split()
    if "shows" in msg:
        return {"type": "pass", "cards": ""}
    if "kitty_size" in msg:
        return {"type": "bury", "cards": " ".join(hand[: int(msg["kitty_size"])])}
    if "leads" in msg:
        return {"type": "play", "cards": rng.choice(msg["leads"])}
    family = rng.choice(msg["follows"])
    pool = family["pool"].split()
    cards = family["fixed"].split() + rng.sample(pool, family["free"])
    return {"type": "play", "cards": " ".join(cards)}


def main() -> int:
    rng = random.Random(0)
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            answer: dict[str, object] = {"type": "hello", "protocol": 1, "name": "wire"}
        elif msg["type"] == "game":
            answer = {"type": "ready"}
        elif msg["type"] == "act":
            answer = {"type": "action", "id": msg["id"], "action": choose(msg, rng)}
        elif msg["type"] == "quit":
            return 0
        else:
            continue
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
