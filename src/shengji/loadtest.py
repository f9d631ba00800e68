"""``shengji loadtest``: many simulated players over WebSockets on loopback.

Starts a server in a subprocess (or uses ``--url``), fills ``rooms`` rooms with one
scripted player per seat of the preset (four; 找朋友: its 4 to 8), lets them play for
``duration`` seconds, each acting ``think`` seconds after its turn comes, and prints
actions/s and the latency from a command to its broadcast reaching every player of the
room (p50, p99, max).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import statistics
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from pydantic_core import from_json
from websockets.asyncio.client import connect

from .autoplay import choose_action
from .presets import load_preset
from .server.launch import cpu_seconds, free_port, start_server


@dataclass
class Stats:
    """What the load generator measured."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    #: How late the generator's own event loop ran a 10 ms timer, each time: a latency
    #: is the server's only while the generator keeps up.
    lags: list[float] = field(default_factory=list)


async def _probe_lag(stats: Stats, every: float = 0.01) -> None:
    """Record the generator's event-loop lag until cancelled."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(every)
        stats.lags.append(loop.time() - start - every)


class RoomLoad:
    """The players of one room (one per seat) and the arrival times of each revision."""

    def __init__(self, host_key: str, seats: int = 4) -> None:
        self.host_key = host_key
        self.seats = seats
        self.arrivals: dict[int, list[float]] = {}
        self.sent: dict[int, float] = {}

    def arrived(self, rev: int, stats: Stats) -> None:
        times = self.arrivals.setdefault(rev, [])
        times.append(time.perf_counter())
        if len(times) == self.seats and rev in self.sent:
            stats.latencies.append(max(times) - self.sent.pop(rev))
            del self.arrivals[rev]


async def _player(
    url: str,
    room: RoomLoad,
    seat: int,
    stats: Stats,
    think: float,
    stop: float,
    start: asyncio.Event,
) -> None:
    rng = random.Random(f"{url}:{seat}")
    async with connect(url, max_size=2**22, compression=None, ping_interval=None) as ws:
        ids = 0

        async def send(cmd: dict[str, Any], rev: int = 0) -> None:
            nonlocal ids
            ids += 1
            await ws.send(json.dumps({"v": 1, "id": f"{seat}-{ids}", "rev": rev, **cmd}))

        join = {"type": "join", "name": f"load{seat}", "seat": seat}
        if seat == 0:
            join["host_key"] = room.host_key
        await send(join)
        state: dict[str, Any] | None = None
        joined = 0
        acting_rev = -1
        while time.perf_counter() < stop:
            try:
                raw = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.05, stop - time.perf_counter())
                )
            except TimeoutError:
                break
            msg = from_json(raw)
            if msg["type"] == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                if msg["code"] == "STALE_REVISION":
                    stats.actions -= 1  # another player's command made that revision
                continue
            if msg["type"] != "state":
                continue
            state = msg
            room.arrived(msg["rev"], stats)
            if msg["room"]["status"] == "lobby":
                if joined == 0 and msg["you"]["seat"] == seat:
                    joined = 1
                    await send({"type": "ready"}, msg["rev"])
                elif seat == 0 and all(s["ready"] for s in msg["room"]["seats"]) and joined == 1:
                    joined = 2
                    await send({"type": "start"}, msg["rev"])
                if all(s["kind"] != "empty" for s in msg["room"]["seats"]):
                    start.set()
                continue
            view = msg.get("view")
            if not view or view["phase"] == "match_over":
                continue
            if view["phase"] == "hand_over":  # every person presses "next hand"
                mine = seat in msg["room"]["waiting"]
            else:
                mine = view["to_act"] == seat
            if mine and acting_rev != msg["rev"]:
                acting_rev = msg["rev"]
                await asyncio.sleep(think * (0.5 + rng.random()))
                if state is not msg:
                    continue
                action = choose_action(msg, rng)
                # players acting on one revision at once (declaring): the first command
                # sent is the one that can have made the next revision
                room.sent.setdefault(msg["rev"] + 1, time.perf_counter())
                await send({"type": "act", "action": action}, msg["rev"])
                stats.actions += 1


def _create_room(base: str, preset: str) -> tuple[str, str]:
    body = json.dumps({"preset": preset, "overrides": {"match_hands": 1000}}).encode()
    req = urllib.request.Request(base + "/api/rooms", body, {"Content-Type": "application/json"})
    made = json.loads(urllib.request.urlopen(req, timeout=30).read())
    return str(made["id"]), str(made["host_key"])


def seats_of(preset: str) -> int:
    """How many players a room of ``preset`` seats (找朋友: 4 to 8)."""
    return load_preset(preset).players


#: Server limits for a load test: one address makes every room and connection.
LOAD_LIMITS = (
    "rooms_burst=1000000",
    "connections_per_ip=1000000",
    "http_connections_per_ip=1000000",
    "commands_burst=1000000",
    "lobby_burst=1000000",
)


async def _run(
    base: str, rooms: int, duration: float, think: float, preset: str, server_pid: int | None
) -> tuple[Stats, float, float | None, float]:
    ids = [_create_room(base, preset) for _ in range(rooms)]
    seats = seats_of(preset)
    ws_base = base.replace("http", "ws", 1)
    stats = Stats()
    # Every room starts at once, so hands begin and end in step across rooms for a while:
    # measure once the tables have drifted apart, as they are on a server people use.
    warmup = min(60.0, 5 + rooms * 0.05)
    stop = time.perf_counter() + warmup + duration + 30
    tasks = []
    loads = []
    for rid, key in ids:
        room = RoomLoad(key, seats)
        loads.append(room)
        started = asyncio.Event()
        for seat in range(seats):
            tasks.append(
                asyncio.create_task(
                    _player(f"{ws_base}/ws/{rid}", room, seat, stats, think, stop, started)
                )
            )
    await asyncio.sleep(warmup)  # let every room fill, start and drift apart
    # the generator's own full collections would show up as server latency: none while
    # measuring (the process is short-lived)
    gc.collect()
    gc.freeze()
    gc.disable()
    await asyncio.sleep(1.0)  # the collection stalled this process: not the server's latency
    stats.latencies.clear()
    stats.actions = 0
    probe = asyncio.create_task(_probe_lag(stats))
    server_cpu0 = cpu_seconds(server_pid) if server_pid else None
    own0 = sum(os.times()[:2])
    t0 = time.perf_counter()
    measured_stop = t0 + duration
    while time.perf_counter() < measured_stop:
        await asyncio.sleep(0.2)
    elapsed = time.perf_counter() - t0
    probe.cancel()
    server_cpu1 = cpu_seconds(server_pid) if server_pid else None
    server_cpu = (
        server_cpu1 - server_cpu0 if server_cpu0 is not None and server_cpu1 is not None else None
    )
    own_cpu = sum(os.times()[:2]) - own0
    gc.enable()
    gc.unfreeze()
    snapshot = Stats(list(stats.latencies), stats.actions, dict(stats.errors), list(stats.lags))
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return snapshot, elapsed, server_cpu, own_cpu


def run_loadtest(
    rooms: int = 200,
    duration: float = 20.0,
    think: float = 1.0,
    url: str | None = None,
    preset: str = "shuangsheng",
    db: str | None = None,
) -> list[str]:
    """Run the load and return the report lines (``name: value unit``). Without ``url``
    a server is started on loopback over ``db`` (default: a fresh SQLite file)."""
    proc = None
    if url is None:
        port = free_port()
        db = db or f"sqlite:///{tempfile.mkdtemp(prefix='shengji-load-')}/load.db"
        proc = start_server(port, db, limits=LOAD_LIMITS)
        url = f"http://127.0.0.1:{port}"
    try:
        stats, elapsed, server_cpu, own_cpu = asyncio.run(
            _run(url, rooms, duration, think, preset, proc.pid if proc else None)
        )
    finally:
        if proc is not None:
            proc.kill()
            proc.wait(10)
    lat = sorted(stats.latencies)
    out = [
        f"rooms: {rooms}",
        f"clients: {rooms * seats_of(preset)}",
        f"actions/s: {stats.actions / elapsed:.1f} actions/s",
        f"broadcasts measured: {len(lat)}",
    ]
    if lat:
        p50 = statistics.median(lat)
        p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
        out += [
            f"latency p50 (command to broadcast at all {seats_of(preset)} players): "
            f"{p50 * 1000:.1f} ms",
            f"latency p99: {p99 * 1000:.1f} ms",
            f"latency max: {lat[-1] * 1000:.1f} ms",
        ]
    per = max(1, stats.actions)
    if server_cpu is not None:
        out.append(
            f"server CPU: {server_cpu / elapsed * 100:.0f}% of a core, "
            f"{server_cpu * 1000 / per:.2f} ms per action"
        )
    out.append(
        f"load generator CPU: {own_cpu / elapsed * 100:.0f}% of a core, "
        f"{own_cpu * 1000 / per:.2f} ms per action"
    )
    if stats.lags:
        lags = sorted(stats.lags)
        out.append(
            f"load generator lag p99: {lags[int(0.99 * (len(lags) - 1))] * 1000:.1f} ms, "
            f"max {lags[-1] * 1000:.1f} ms (latencies above it are the generator's own)"
        )
    out.append(f"errors: {sum(stats.errors.values())} {stats.errors or ''}".rstrip())
    return out
