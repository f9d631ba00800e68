"""What one client may cost the server: sizes, rates and caps, each with a default that an
operator can change (``shengji serve --limit name=value``; docs/server.md)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import ipaddress
import re
import time
from collections import deque
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
    #: Open WebSocket connections from one address (an IPv4 address, an IPv6 /64).
    connections_per_ip: int = 64
    #: Open WebSocket connections of the whole process.
    connections_per_process: int = 20_000
    #: Frames (commands, pings, anything) that every connection of one address together
    #: has read per second, and their burst: beyond it the address's frames wait unread,
    #: so that no address takes more than its share of the event loop.
    ip_commands_per_second: float = 100.0
    ip_commands_burst: int = 300
    #: Reads of a room over HTTP (its summary, record, replays, review, hint) from one
    #: address: sustained rate and burst; one more is refused (429 ``RATE_LIMITED``).
    reads_per_second: float = 10.0
    reads_burst: int = 60
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


@functools.lru_cache(maxsize=65_536)
def address_group(host: str) -> str:
    """The network a client comes from, as every per-address limit counts it: an IPv4
    address (an IPv4-mapped IPv6 address as that IPv4 address), or the /64 of an IPv6
    address (one subscriber's network: a client given one can take any of its 2^64
    addresses). Anything else (a test client's name) is its own group.

    >>> address_group("2001:db8::1"), address_group("::ffff:192.0.2.7")
    ('2001:db8::/64', '192.0.2.7')
    """
    try:
        addr = ipaddress.ip_address(host.partition("%")[0])  # without an IPv6 zone
    except ValueError:
        return host
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(addr) >> 64 << 64, 64)))
    return str(addr)


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

    def wait(self) -> float:
        """Seconds until the next token (0 when there is one now)."""
        tokens = min(self.burst, self.tokens + (time.monotonic() - self.stamp) * self.rate)
        if tokens >= 1:
            return 0.0
        return (1 - tokens) / self.rate if self.rate > 0 else float("inf")


class FairShare:
    """An address's share of the event loop: ``rate`` frames a second (``burst`` at
    once), for every connection of the address together. A connection over it waits in
    a queue, first come first served; one timer for the whole queue lets the next one
    go as each token comes (a thousand waiting connections cost one wake-up a token,
    not one each).
    """

    __slots__ = ("_timer", "bucket", "waiters")

    def __init__(self, rate: float, burst: float) -> None:
        self.bucket = TokenBucket(rate, burst)
        self.waiters: deque[asyncio.Future[None]] = deque()
        self._timer: asyncio.TimerHandle | None = None

    def full(self) -> bool:
        """Whether nobody waits and the bucket has refilled (it can be forgotten)."""
        return not self.waiters and self.bucket.full()

    async def take(self) -> None:
        """Spend one frame of the share, waiting in turn when there is none now."""
        if not self.waiters and self.bucket.take():
            return
        waiter = asyncio.get_running_loop().create_future()
        self.waiters.append(waiter)
        if self._timer is None:
            self._schedule()
        await waiter

    def _schedule(self) -> None:
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(max(0.001, self.bucket.wait()), self._release)

    def _release(self) -> None:
        self._timer = None
        while self.waiters and (self.waiters[0].done() or self.bucket.take()):
            waiter = self.waiters.popleft()
            if not waiter.done():  # (a cancelled one: its connection closed)
                waiter.set_result(None)
        if self.waiters:
            self._schedule()


#: A JSON string (or one left open at the end of the text).
_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*(?:"|$)', re.DOTALL)
#: Braces read as brackets; every byte but those deleted (UTF-8 never uses ASCII bytes
#: inside other characters).
_AS_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_PAIR = re.compile(rb"\[\]")


def nested_deeper(raw: str | bytes, depth: int) -> bool:
    """Whether a JSON text nests brackets deeper than ``depth`` (strings skipped; an
    unclosed bracket counts as open to the end). Each pass removes the innermost pairs,
    one level, in C: a 16 KB frame of brackets costs some tens of microseconds, not the
    millisecond and a half of a loop over its characters.

    >>> nested_deeper('{"a": [[1], "]]]"]}', 3), nested_deeper('{"a": [[1]]}', 2)
    (False, True)
    """
    data = raw.encode() if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") <= depth:
        return False
    marks = _STRINGS.sub(b"", data).translate(_AS_BRACKETS, _NOT_BRACKETS)
    for _ in range(depth):
        marks, n = _PAIR.subn(b"", marks)
        if not n:
            break
    return bool(marks)
