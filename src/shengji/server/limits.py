"""What one client may cost the server: sizes, rates and caps, each with a default that an
operator can change (``shengji serve --limit name=value``; docs/server.md)."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, fields

from ..errors import Code, ShengjiError


@dataclass(frozen=True)
class Limits:
    """Every server limit. Sizes are bytes of UTF-8, rates are per second."""

    #: A WebSocket frame (the server reads no more than this).
    message_bytes: int = 16_384
    #: Deepest nesting of a JSON message.
    json_depth: int = 8
    #: A player's name.
    name_bytes: int = 96
    #: A chat line.
    chat_bytes: int = 1_500
    #: Commands a connection may send: sustained rate and burst.
    commands_per_second: float = 20.0
    commands_burst: int = 60
    #: Chat lines a connection may send: sustained rate and burst.
    chat_per_second: float = 0.5
    chat_burst: int = 5
    #: Rooms one address may create: sustained rate (per hour) and burst.
    rooms_per_hour: float = 30.0
    rooms_burst: int = 10
    #: Lobby writes (join, sit, ready, set_bot, kick, randomize, start, set_public, chat)
    #: from one address, all its connections together: sustained rate and burst.
    lobby_per_second: float = 2.0
    lobby_burst: int = 30
    #: Open WebSocket connections from one address.
    connections_per_ip: int = 64
    #: Spectators connected to one room at once.
    spectators_per_room: int = 40
    #: Spectator tokens a room remembers (the oldest not connected are forgotten first).
    spectator_tokens: int = 200
    #: Request ids one connection may use (each once); then it is closed (4010) and
    #: reconnects with its token.
    request_ids: int = 4096
    #: Messages queued for one connection before it is dropped as too slow to read.
    send_queue: int = 64
    #: Seconds the score sheet waits for every connected person to press "next hand".
    next_seconds: float = 60.0
    #: Seconds one seated person's open hand review may hold the next hand, in all, per
    #: hand (the score sheet's countdown is paused meanwhile).
    review_hold_seconds: float = 120.0
    #: Seconds a room with no connection stays in memory before it is unloaded.
    idle_seconds: float = 120.0
    #: Seconds between full garbage collections (young objects are collected every 5 s).
    full_gc_seconds: float = 600.0
    #: Rollouts per searched play of a hand review (``GET /api/rooms/{id}/review``).
    review_rollouts: int = 300
    #: Hand reviews running or waiting at once (one worker process runs them in turn).
    review_queue: int = 4
    #: Milliseconds the search bot thinks for a hint (``POST /api/rooms/{id}/hint``).
    hint_ms: int = 800  # bots.registry.HINT_MS
    #: Hints being computed or waiting at once (one more worker process, in turn).
    hint_queue: int = 4
    #: Replays (``GET /api/rooms/{id}/replay/views``) being made or waiting at once.
    replay_queue: int = 4
    #: An HTTP request body (``POST /api/rooms`` sends a few KB); a bigger one gets 413.
    body_bytes: int = 32_768
    #: Seconds for each HTTP request's head, and then its body, to arrive (slowloris).
    request_seconds: float = 10.0
    #: Open HTTP connections from one address (WebSockets count in ``connections_per_ip``).
    http_connections_per_ip: int = 64

    def with_overrides(self, pairs: list[str]) -> Limits:
        """A copy with ``name=value`` overrides (raises ``BAD_OPTION`` for bad ones)."""
        known = {f.name: f for f in fields(self)}
        changes: dict[str, float | int] = {}
        for pair in pairs:
            name, sep, value = pair.partition("=")
            name = name.strip().replace("-", "_")
            if not sep or name not in known:
                raise ShengjiError(
                    f"unknown limit {name!r}: one of {', '.join(known)}", code=Code.BAD_OPTION
                )
            try:
                number = float(value)
            except ValueError:
                raise ShengjiError(
                    f"limit {name} must be a number, not {value!r}", code=Code.BAD_OPTION
                ) from None
            if number < 0:
                raise ShengjiError(f"limit {name} must not be negative", code=Code.BAD_OPTION)
            changes[name] = int(number) if known[name].type in ("int", int) else number
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


class TokenBucket:
    """A rate limit: ``burst`` at once, refilled at ``rate`` per second."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def full(self) -> bool:
        """Whether the bucket has refilled to its burst."""
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def json_depth(raw: str) -> int:
    """The deepest nesting of brackets in a JSON text (strings skipped)."""
    if raw.count("[") + raw.count("{") <= 1:
        return 1
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest
