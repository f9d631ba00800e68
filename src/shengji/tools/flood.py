"""``shengji loadtest --flood N``: many hostile sockets against one innocent player.

Starts a server with its default limits (or uses ``--url``), then opens ``sockets``
WebSockets from ``addresses`` loopback addresses (127.0.0.2, 127.0.0.3, …; Linux
routes all of 127.0.0.0/8 to loopback). Each address makes rooms where its host sits
with three bots and a 3 s turn timer (the rooms play by themselves), and its sockets
watch them and send frames as fast as the server reads them: pings, broken JSON,
JSON nested thousands deep, checks of friend calls with a Unicode digit, long chat
lines. Meanwhile one player from 127.0.0.1, in a room of its own, pings the server
every 50 ms from a process of its own (the flood's process is busy); the report is that
player's round-trip times, the frames the server answered, and the server's CPU.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import multiprocessing
import statistics
import tempfile
import time
from collections import Counter
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..errors import Code, ShengjiError
from ..server.launch import cpu_seconds, free_port, start_server

#: What each hostile socket sends, in turn (the deep one just under the size limit).
FRAMES = (
    '{"v":1,"id":"%s","type":"ping"}',
    '{"v":1,"id":"%s","type":"ping"',
    '{"v":1,"id":"%s","type":"chat","text":' + "[" * 7000 + "]" * 7000 + "}",
    '{"v":1,"id":"%s","type":"check","action":{"type":"call","calls":"SA:\u00b2 HA:1"}}',
    '{"v":1,"id":"%s","type":"chat","text":"' + "x" * 490 + '"}',
)


def _post(base: str, path: str, body: dict[str, Any], source: str) -> dict[str, Any]:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse()
        data: dict[str, Any] = json.loads(answer.read())
    except OSError as e:
        raise ShengjiError(f"cannot reach {base}: {e}", code=Code.UNREACHABLE) from None
    finally:
        conn.close()
    if answer.status != 200:
        raise ShengjiError(f"{base} refused a room: {data}", code=Code.SERVER_ERROR)
    return data


async def _request(ws: Any, cmd: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps({"v": 1, "rev": 0, **cmd}))
    while True:
        msg: dict[str, Any] = json.loads(await ws.recv())
        if msg.get("id") == cmd["id"]:
            return msg


async def _host(ws_base: str, room: dict[str, Any], source: str) -> Any:
    """Take the host's seat of a room of bots and start it (the turn timer plays it)."""
    ws = await connect(f"{ws_base}/ws/{room['id']}", local_addr=(source, 0), max_size=2**22)
    join = {"id": "j", "type": "join", "name": "host", "host_key": room["host_key"]}
    await _request(ws, join)
    await _request(ws, {"id": "r", "type": "ready"})
    await _request(ws, {"id": "s", "type": "start"})
    return ws


async def _hostile(url: str, source: str, stop: float, counts: Counter[str]) -> None:
    """One hostile socket: it sends as fast as the server reads, and when the server
    closes it (its request ids spent, too slow to read) it connects again."""
    n = 0
    while time.monotonic() < stop:
        try:
            ws = await connect(
                url, local_addr=(source, 0), max_size=2**22, open_timeout=30, ping_interval=None
            )
        except (OSError, InvalidHandshake, TimeoutError):
            counts["refused"] += 1
            await asyncio.sleep(1.0)
            continue
        counts["connections"] += 1

        async def drain(ws: Any = ws) -> None:
            async for _ in ws:
                counts["answers"] += 1

        reader = asyncio.create_task(drain())
        try:
            await ws.send(json.dumps({"v": 1, "id": "join", "type": "join", "spectate": True}))
            while time.monotonic() < stop:
                n += 1
                await ws.send(FRAMES[n % len(FRAMES)] % f"f{n}")
                counts["sent"] += 1
                if n % 50 == 0:
                    await asyncio.sleep(0)  # let the other sockets and the reader run
        except ConnectionClosed as e:
            counts[f"closed {e.rcvd.code if e.rcvd else 'lost'}"] += 1
        finally:
            reader.cancel()
            await ws.close()


def _pinger(url: str, start: float, stop: float, out: Any) -> None:
    """Ping every 50 ms from ``start`` to ``stop`` (monotonic) and send back the
    round-trip times (a process of its own: its clock is not the flood's)."""

    async def run() -> list[float]:
        times: list[float] = []
        async with connect(url, max_size=2**22) as ws:
            await _request(ws, {"id": "join", "type": "join", "name": "innocent"})
            n = 0
            while time.monotonic() < stop:
                n += 1
                t0 = time.perf_counter()
                await _request(ws, {"id": f"p{n}", "type": "ping"})
                if time.monotonic() >= start:
                    times.append(time.perf_counter() - t0)
                await asyncio.sleep(0.05)
        return times

    out.send(asyncio.run(run()))


async def _flood(
    base: str, sockets: int, addresses: int, warmup: float, duration: float, server_pid: int | None
) -> list[str]:
    ws_base = base.replace("http", "ws", 1)
    sources = [f"127.0.0.{2 + i}" for i in range(addresses)]
    hosts = []
    rooms: list[str] = []
    for i, source in enumerate(sources):  # two rooms of bots per address, watched by the flood
        for _ in range(2):
            room = await asyncio.to_thread(
                _post,
                base,
                "/api/rooms",
                {"preset": "classic-1deck", "turn_seconds": 3, "bots": [None, *["heuristic"] * 3]},
                source,
            )
            # the host from an address of its own: the flood's have their sockets to spend
            hosts.append(await _host(ws_base, room, f"127.0.1.{2 + i}"))
            rooms.append(room["id"])
    innocent = await asyncio.to_thread(
        _post, base, "/api/rooms", {"preset": "classic-1deck"}, "127.0.0.1"
    )
    now = time.monotonic()
    begin, stop = now + warmup, now + warmup + duration
    mp = multiprocessing.get_context("spawn")
    recv, send = mp.Pipe(duplex=False)
    pinger = mp.Process(
        target=_pinger, args=(f"{ws_base}/ws/{innocent['id']}", begin, stop, send), daemon=True
    )
    pinger.start()
    counts: Counter[str] = Counter()
    tasks = [
        asyncio.create_task(
            _hostile(
                f"{ws_base}/ws/{rooms[(i % addresses) * 2 + (i // addresses) % 2]}",
                sources[i % addresses],
                stop,
                counts,
            )
        )
        for i in range(sockets)
    ]
    await asyncio.sleep(max(0.0, begin - time.monotonic()))
    answers0 = counts["answers"]
    cpu0 = cpu_seconds(server_pid) if server_pid else None
    t0 = time.perf_counter()
    await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.perf_counter() - t0
    cpu1 = cpu_seconds(server_pid) if server_pid else None
    answered = counts["answers"] - answers0
    times = sorted(await asyncio.to_thread(recv.recv))
    pinger.join(10)
    for ws in hosts:
        await ws.close()
    closed = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k.startswith("closed"))
    out = [
        f"hostile sockets: {sockets} from {addresses} addresses, "
        f"{counts['connections']} connections made ({counts['refused']} refused; "
        f"{closed or 'none closed'})",
        f"hostile frames sent: {counts['sent']}, answered while measured: "
        f"{answered / elapsed:.0f}/s",
    ]
    if cpu0 is not None and cpu1 is not None:
        out.append(f"server CPU: {(cpu1 - cpu0) / elapsed * 100:.0f}% of a core")
    if times:
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        out += [
            f"innocent pings: {len(times)}",
            f"innocent ping p50: {statistics.median(times) * 1000:.1f} ms",
            f"innocent ping p99: {p99 * 1000:.1f} ms",
            f"innocent ping max: {times[-1] * 1000:.1f} ms",
        ]
    return out


def run_flood(
    sockets: int = 1000,
    addresses: int = 16,
    duration: float = 20.0,
    warmup: float = 10.0,
    url: str | None = None,
    limits: tuple[str, ...] = (),
) -> list[str]:
    """Flood a server (started here, with its default limits and ``limits``, unless
    ``url``) and return the report lines (``name: value``)."""
    proc = None
    if url is None:
        port = free_port()
        db = f"sqlite:///{tempfile.mkdtemp(prefix='shengji-flood-')}/flood.db"
        proc = start_server(
            port, db, limits=limits, args=("--bot-delay", "0.6", "--deal-seconds", "0.3")
        )
        url = f"http://127.0.0.1:{port}"
    try:
        return asyncio.run(
            _flood(
                url.rstrip("/"), sockets, addresses, warmup, duration, proc.pid if proc else None
            )
        )
    finally:
        if proc is not None:
            proc.kill()
            proc.wait(10)
