"""``shengji loadtest``: whole hands played by simulated people over WebSockets.

Starts a server in a subprocess (or uses ``--url``), makes ``rooms`` rooms and seats one
scripted person in every seat (four; 找朋友: its 4 to 8). The server deals by itself, a
round every ``deal_seconds`` (the rooms' default pace); the people play as people do,
each ``think`` seconds (0.5 to 1.5 times it) after their turn comes: they may show
while the deal offers them shows, show or pass when the table asks them (uniformly among
their shows and passing), bury, call friends, play legal cards (a random legal follow, a
random lead of one unit) and press "next hand". They act only on what the state says:
their turn (``to_act``), the seats a finished hand waits for, or the shows offered.

Rooms start spread over about one hand's length (the ramp), so that when the measurement
begins the tables are at every stage of a hand, as on a server people use. Then for
``duration`` seconds it counts the actions the server accepted (by kind: ``deal`` for
shows during the deal, ``play``, ``other`` for the rest), the hands completed, the time
from a command to its broadcast reaching every player of the room, and the server's and
its own CPU (the deal's rounds cost the server broadcasts but are no one's actions). A
handshake that fails or times out, a connection the server closes, a command left
unanswered and any refusal but a table's ordinary race are errors: the report lists them
and the command exits non-zero. The race (a show that another show made illegal during
the deal, a command on a revision another replaced) is counted as overtaken, and the
person looks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
import os
import random
import statistics
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pydantic_core import from_json
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..bots.autoplay import choose_action
from ..errors import Code, ShengjiError
from ..game.dealing import DEAL_SECONDS
from ..rules.phases import DECLARING_PHASES
from ..rules.presets import load_preset
from ..server.launch import cpu_seconds, free_port, start_server

#: Seconds a WebSocket handshake may take before it counts as a failed connection.
HANDSHAKE_SECONDS = 10.0
#: Seconds a command may wait for its answer before it counts as unanswered.
ANSWER_SECONDS = 10.0
#: A knee: the rooms at which p99 latency crosses this (ms), or served actions fall
#: below :data:`SERVED_SHARE` of those offered.
KNEE_P99_MS = 100.0
SERVED_SHARE = 0.9


@dataclass
class Stats:
    """What the load generator measured (counted while ``measuring`` only)."""

    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    #: Actions the server accepted, by kind (``deal``, ``play``, ``other``).
    mix: Counter[str] = field(default_factory=Counter)
    hands: int = 0
    #: Refusals and failures, by code (connection failures as CONNECT_FAILED,
    #: HANDSHAKE_TIMEOUT, CLOSED_<close code>, NO_ANSWER), counted whenever they happen.
    errors: Counter[str] = field(default_factory=Counter)
    #: Commands refused because another change came first: ``STALE_REVISION``, or a show
    #: during the deal that another show made illegal (``ILLEGAL_DECLARATION``). A
    #: table's ordinary race, not an error: the player looks again.
    overtaken: int = 0
    #: How late the generator's own event loop ran a 10 ms timer, each time: a latency
    #: is the server's only while the generator keeps up.
    lags: list[float] = field(default_factory=list)

    @property
    def actions(self) -> int:
        """Accepted actions of every kind."""
        return sum(self.mix.values())


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
        """A player got revision ``rev``: once every player has it, the latency from the
        command that made it (if one did) is taken."""
        times = self.arrivals.setdefault(rev, [])
        times.append(time.perf_counter())
        if len(times) == self.seats:
            del self.arrivals[rev]
            sent = self.sent.pop(rev, None)
            if sent is not None and stats.measuring:
                stats.latencies.append(max(times) - sent)
        if len(self.arrivals) > 64:  # revisions some player never got (it left)
            for old in sorted(self.arrivals)[:-32]:
                del self.arrivals[old]
                self.sent.pop(old, None)


def action_kind(phase: str) -> str:
    """The kind an action counts as: ``deal`` (a show or pass while dealing), ``play``
    (a play), ``other`` (burying, calling, showing after the deal, "next hand")."""
    return phase if phase in ("deal", "play") else "other"


def person_action(msg: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """What a person does on their turn: uniformly one of the shows offered or passing
    while declaring, else a random legal action (:func:`choose_action`)."""
    if msg["view"]["phase"] in DECLARING_PHASES:
        shows = msg.get("shows") or []
        k = rng.randrange(len(shows) + 1)
        return {"type": "declare", "cards": shows[k]} if k < len(shows) else {"type": "pass"}
    return choose_action(msg, rng)


def _my_turn(msg: dict[str, Any], seat: int) -> bool:
    view = msg["view"]
    if view["phase"] == "hand_over":  # every person presses "next hand"
        return seat in (msg["room"].get("waiting") or [])
    return bool(view.get("to_act") == seat)


async def _player(
    url: str,
    room: RoomLoad,
    seat: int,
    stats: Stats,
    think: float,
    begin: float,
    stop: float,
) -> None:
    await asyncio.sleep(max(0.0, begin - time.perf_counter()))
    rng = random.Random(f"{url}:{seat}")
    try:
        ws = await connect(
            url,
            max_size=2**22,
            compression=None,
            ping_interval=None,
            open_timeout=HANDSHAKE_SECONDS,
        )
    except TimeoutError:
        stats.errors["HANDSHAKE_TIMEOUT"] += 1
        return
    except (OSError, InvalidHandshake):
        stats.errors["CONNECT_FAILED"] += 1
        return
    try:
        await _Person(ws, room, seat, stats, think, rng).run(stop)
    except ConnectionClosed as e:
        if time.perf_counter() < stop:
            code = e.rcvd.code if e.rcvd is not None else "LOST"
            stats.errors[f"CLOSED_{code}"] += 1
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)


class _Person:
    """One simulated person at a table: reads every message as it comes (one ``recv``
    each, no timer per message) and acts from timers the messages set, so that the
    generator spends its CPU on what a client must do and the latencies are the server's."""

    def __init__(
        self, ws: Any, room: RoomLoad, seat: int, stats: Stats, think: float, rng: random.Random
    ) -> None:
        self.ws = ws
        self.room = room
        self.seat = seat
        self.stats = stats
        self.think = think
        self.rng = rng
        self.ids = 0
        #: Request id -> (kind of the action, when it was sent, whether measuring then).
        self.pending: dict[str, tuple[str, float, bool]] = {}
        self.latest: dict[str, Any] | None = None
        self.joined = 0
        self.planned = -1  # the revision this player has decided to act on (-1: none)
        self.timer: asyncio.TimerHandle | None = None  # the action planned, when due
        self.awaiting: str | None = None  # the action sent and not yet answered
        self.offered: str | None = None  # the shows last offered outside this player's turn
        self.last_phase = ""
        self.sends: set[asyncio.Task[None]] = set()

    def send(self, cmd: dict[str, Any], rev: int = 0, kind: str = "") -> None:
        """Send ``cmd`` (in a task of its own: the reader never waits on a send)."""
        self.ids += 1
        rid = f"{self.seat}-{self.ids}"
        if kind:
            self.pending[rid] = (kind, time.perf_counter(), self.stats.measuring)
            self.awaiting = rid
        text = json.dumps({"v": 1, "id": rid, "rev": rev, **cmd})
        task = asyncio.ensure_future(self.ws.send(text))
        self.sends.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self.sends.discard(task)
        if not task.cancelled():
            task.exception()  # a closed connection: the reader meets it and counts it

    def plan(self, msg: dict[str, Any]) -> None:
        """Decide, from the table ``msg``, whether and when to act next."""
        view = msg.get("view")
        if self.awaiting is not None or self.timer is not None or not view:
            return  # one command at a time, as a person waits for the table to answer
        if view["phase"] == "match_over":
            return
        delay = None
        if _my_turn(msg, self.seat):
            if self.planned != msg["rev"]:
                self.planned = msg["rev"]
                delay = self.think * (0.5 + self.rng.random())
        elif (shows := msg.get("shows")) and view["phase"] in DECLARING_PHASES:
            # offered a show outside a turn (the deal runs by itself): decided once per
            # new set of shows, half the time, as a person who may wait for a better one
            key = " | ".join(shows)
            if key != self.offered:
                self.offered = key
                if self.rng.random() < 0.5:
                    self.planned = msg["rev"]
                    delay = self.think * (0.5 + self.rng.random())
        if delay is not None:
            self.timer = asyncio.get_running_loop().call_later(delay, self.act)

    def act(self) -> None:
        """The planned moment: act on the latest table, if the chance is still there."""
        self.timer = None
        seen = self.latest
        if seen is None or not seen.get("view") or seen["rev"] < self.planned:
            return
        if _my_turn(seen, self.seat):
            action = person_action(seen, self.rng)
        elif seen.get("shows") and seen["view"]["phase"] in DECLARING_PHASES:
            action = {"type": "declare", "cards": self.rng.choice(seen["shows"])}
        else:
            return  # the chance went by
        # players acting on one revision at once (after a hand): the first command sent
        # is the one that can have made the next revision
        self.room.sent.setdefault(seen["rev"] + 1, time.perf_counter())
        kind = action_kind(seen["view"]["phase"])
        self.send({"type": "act", "action": action}, seen["rev"], kind)

    def answered(self, msg: dict[str, Any]) -> None:
        """An ``ack`` or ``error``."""
        stats = self.stats
        rid = msg.get("id") or ""
        sent = self.pending.pop(rid, None)
        if sent is None:
            if msg["type"] == "error":
                stats.errors[msg["code"]] += 1
            return
        if msg["type"] == "ack":
            if sent[2] and stats.measuring:
                stats.mix[sent[0]] += 1
        elif msg["code"] == "STALE_REVISION" or (
            msg["code"] == "ILLEGAL_DECLARATION" and sent[0] == "deal"
        ):
            stats.overtaken += 1
            self.planned = -1  # look again at the table
        else:
            stats.errors[msg["code"]] += 1
            self.planned = -1
        if rid == self.awaiting:
            self.awaiting = None
            if self.latest is not None:
                self.plan(self.latest)

    def table(self, msg: dict[str, Any]) -> None:
        """A ``state``."""
        self.latest = msg
        self.room.arrived(msg["rev"], self.stats)
        if msg["room"]["status"] == "lobby":
            if self.joined == 0 and msg["you"]["seat"] == self.seat:
                self.joined = 1
                self.send({"type": "ready"}, msg["rev"])
            elif (
                self.seat == 0
                and self.joined == 1
                and all(s["ready"] for s in msg["room"]["seats"])
            ):
                self.joined = 2
                self.send({"type": "start"}, msg["rev"])
            return
        view = msg.get("view")
        if not view:
            return
        phase = view["phase"]
        if (
            self.seat == 0
            and phase == "hand_over"
            and self.last_phase != "hand_over"
            and self.stats.measuring
        ):
            self.stats.hands += 1
        self.last_phase = phase
        self.plan(msg)

    async def run(self, stop: float) -> None:
        """Join and play until ``stop`` (``time.perf_counter()``); then count the
        commands left unanswered."""
        join: dict[str, Any] = {"type": "join", "name": f"load{self.seat}", "seat": self.seat}
        if self.seat == 0:
            join["host_key"] = self.room.host_key
        self.send(join)
        try:
            async with asyncio.timeout(max(0.0, stop - time.perf_counter())):
                while True:
                    msg: dict[str, Any] = from_json(await self.ws.recv())
                    kind = msg["type"]
                    if kind in ("ack", "error"):
                        self.answered(msg)
                    elif kind == "state":
                        self.table(msg)
        except TimeoutError:
            pass
        finally:
            if self.timer is not None:
                self.timer.cancel()
        late = time.perf_counter() - ANSWER_SECONDS
        if unanswered := sum(1 for _, at, _ in self.pending.values() if at < late):
            self.stats.errors["NO_ANSWER"] += unanswered


def _create_room(base: str, preset: str) -> tuple[str, str]:
    body = json.dumps({"preset": preset, "overrides": {"match_hands": 1000}}).encode()
    req = urllib.request.Request(base + "/api/rooms", body, {"Content-Type": "application/json"})
    try:
        made = json.loads(urllib.request.urlopen(req, timeout=30).read())
    except urllib.error.HTTPError as e:
        detail = e.read()[:300].decode("utf-8", "replace")
        raise ShengjiError(
            f"{base} refused to make a room: HTTP {e.code} {detail}", code=Code.SERVER_ERROR
        ) from None
    except (urllib.error.URLError, OSError) as e:
        why = getattr(e, "reason", e)
        raise ShengjiError(f"cannot reach {base}: {why}", code=Code.UNREACHABLE) from None
    return str(made["id"]), str(made["host_key"])


def seats_of(preset: str) -> int:
    """How many players a room of ``preset`` seats (找朋友: 4 to 8)."""
    return load_preset(preset).players


def hand_seconds(preset: str, think: float, deal_seconds: float = DEAL_SECONDS) -> float:
    """About how long a hand lasts at ``think`` seconds a move: the deal's rounds at
    ``deal_seconds``, then one action per card played (most plays are single cards), with
    the burial and the declaring besides."""
    opts = load_preset(preset)
    cards = opts.decks * 54 - opts.kitty_size
    return deal_seconds * math.ceil(cards / opts.players) + think * (cards + 8)


#: Server limits for a load test: one address makes every room and connection.
LOAD_LIMITS = (
    "rooms_burst=1000000",
    "connections_per_ip=1000000",
    "connections_per_process=1000000",
    "http_connections_per_ip=1000000",
    "commands_burst=1000000",
    "lobby_burst=1000000",
    "ip_commands_burst=1000000",
    "reads_burst=1000000",
)


@dataclass
class Measured:
    """One load test's figures."""

    rooms: int
    clients: int
    seconds: float
    stats: Stats
    server_cpu: float | None
    own_cpu: float
    #: Where the server and the generator ran (:func:`pin_apart`; None: CPUs shared).
    placed: str | None = None

    @property
    def actions_per_s(self) -> float:
        """Accepted actions per second."""
        return self.stats.actions / self.seconds

    def percentile(self, q: float) -> float | None:
        """The ``q`` quantile of the latencies, in ms (None: none measured)."""
        lat = sorted(self.stats.latencies)
        if not lat:
            return None
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000

    @property
    def errors(self) -> int:
        """Errors of every kind."""
        return sum(self.stats.errors.values())

    def mix(self) -> dict[str, float]:
        """The share of each kind among the accepted actions."""
        n = max(1, self.stats.actions)
        return {k: round(self.stats.mix[k] / n, 4) for k in ("deal", "play", "other")}

    def figures(self) -> dict[str, Any]:
        """The figures as ``--json`` writes them."""
        per = max(1, self.stats.actions)
        p50 = statistics.median(self.stats.latencies) * 1000 if self.stats.latencies else None
        return {
            "rooms": self.rooms,
            "clients": self.clients,
            "seconds": round(self.seconds, 1),
            "actions_per_s": round(self.actions_per_s, 1),
            "p50_ms": None if p50 is None else round(p50, 1),
            "p99_ms": _round(self.percentile(0.99)),
            "max_ms": _round(self.percentile(1.0)),
            "server_cpu_ms_per_action": (
                None if self.server_cpu is None else round(self.server_cpu * 1000 / per, 3)
            ),
            "generator_cpu_ms_per_action": round(self.own_cpu * 1000 / per, 3),
            "errors": self.errors,
            "error_codes": dict(self.stats.errors),
            "overtaken": self.stats.overtaken,
            "hands_completed": self.stats.hands,
            "mix": self.mix(),
            "cpus": self.placed or "shared",
        }

    def lines(self, seats: int) -> list[str]:
        """The report, one ``name: value`` line each."""
        f = self.figures()
        mix = f["mix"]
        out = [
            f"rooms: {self.rooms}",
            f"clients: {self.clients}",
            f"actions/s: {f['actions_per_s']} actions/s",
            f"action mix: play {mix['play']:.1%}, deal {mix['deal']:.1%}, "
            f"other {mix['other']:.1%} (of {self.stats.actions} actions in {self.seconds:.0f} s)",
            f"hands completed: {self.stats.hands}",
            f"broadcasts measured: {len(self.stats.latencies)}",
        ]
        if f["p50_ms"] is not None:
            out += [
                f"latency p50 (command to broadcast at all {seats} players): {f['p50_ms']} ms",
                f"latency p99: {f['p99_ms']} ms",
                f"latency max: {f['max_ms']} ms",
            ]
        if self.server_cpu is not None:
            out.append(
                f"server CPU: {self.server_cpu / self.seconds * 100:.0f}% of a core, "
                f"{f['server_cpu_ms_per_action']:.2f} ms per action"
            )
        out.append(
            f"load generator CPU: {self.own_cpu / self.seconds * 100:.0f}% of a core, "
            f"{f['generator_cpu_ms_per_action']:.2f} ms per action"
        )
        if self.stats.lags:
            lags = sorted(self.stats.lags)
            out.append(
                f"load generator lag p99: {lags[int(0.99 * (len(lags) - 1))] * 1000:.1f} ms, "
                f"max {lags[-1] * 1000:.1f} ms (latencies above it are the generator's own)"
            )
        out.append(f"CPUs: {self.placed or 'shared by the server and the load generator'}")
        out.append(f"overtaken (refused, looked again): {self.stats.overtaken}")
        codes = ", ".join(f"{k} {v}" for k, v in sorted(self.stats.errors.items()))
        out.append(f"errors: {self.errors}" + (f" ({codes})" if codes else ""))
        return out


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


async def _run(
    base: str,
    rooms: int,
    duration: float,
    think: float,
    preset: str,
    server_pid: int | None,
    ramp: float,
) -> Measured:
    ids = [_create_room(base, preset) for _ in range(rooms)]
    seats = seats_of(preset)
    ws_base = base.replace("http", "ws", 1)
    stats = Stats()
    t_start = time.perf_counter()
    # Rooms start spread over the ramp (about a hand): when the measurement begins the
    # tables are at every stage of a hand, and the server never meets every handshake at once.
    settle = max(2.0, 3 * think)
    measure_at = t_start + ramp + settle
    stop = measure_at + duration
    tasks = []
    for i, (rid, key) in enumerate(ids):
        room = RoomLoad(key, seats)
        begin = t_start + ramp * i / rooms
        for seat in range(seats):
            tasks.append(
                asyncio.create_task(
                    _player(f"{ws_base}/ws/{rid}", room, seat, stats, think, begin, stop + 5)
                )
            )
    await asyncio.sleep(max(0.0, measure_at - time.perf_counter()))
    # the generator's own full collections would show up as server latency: none while
    # measuring (the process is short-lived)
    gc.collect()
    gc.freeze()
    gc.disable()
    await asyncio.sleep(0.5)  # the collection stalled this process: not the server's latency
    probe = asyncio.create_task(_probe_lag(stats))
    server_cpu0 = cpu_seconds(server_pid) if server_pid else None
    own0 = sum(os.times()[:2])
    t0 = time.perf_counter()
    stats.measuring = True
    await asyncio.sleep(duration)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    probe.cancel()
    server_cpu1 = cpu_seconds(server_pid) if server_pid else None
    server_cpu = (
        server_cpu1 - server_cpu0 if server_cpu0 is not None and server_cpu1 is not None else None
    )
    own_cpu = sum(os.times()[:2]) - own0
    gc.enable()
    gc.unfreeze()
    snapshot = Stats(
        latencies=list(stats.latencies),
        mix=Counter(stats.mix),
        hands=stats.hands,
        errors=Counter(stats.errors),
        overtaken=stats.overtaken,
        lags=list(stats.lags),
    )
    # the players end by themselves a little after the window: unanswered commands and
    # connections closed meanwhile are counted
    await asyncio.gather(*tasks, return_exceptions=True)
    snapshot.errors = Counter(stats.errors)
    return Measured(rooms, rooms * seats, elapsed, snapshot, server_cpu, own_cpu)


def run_loadtest(
    rooms: int = 200,
    duration: float = 30.0,
    think: float = 1.0,
    url: str | None = None,
    preset: str = "shuangsheng",
    db: str | None = None,
    ramp: float | None = None,
    deal_seconds: float = DEAL_SECONDS,
    pin: bool = True,
) -> Measured:
    """Run the load once and return what was measured. Without ``url`` a server is
    started on loopback over ``db`` (default: a fresh SQLite file), dealing a round every
    ``deal_seconds`` (the rooms' default pace), on a CPU of its own when ``pin`` and
    there are two (:func:`pin_apart`); ``ramp`` is the seconds over which the rooms start
    (default: about a hand, :func:`hand_seconds`). Raises ``UNREACHABLE`` when the server
    cannot be reached."""
    proc = None
    own_cpus = _affinity(0)
    placed = None
    if url is None:
        port = free_port()
        db = db or f"sqlite:///{tempfile.mkdtemp(prefix='shengji-load-')}/load.db"
        pace = ("--deal-seconds", f"{deal_seconds:g}")
        proc = start_server(port, db, limits=LOAD_LIMITS, args=pace)
        url = f"http://127.0.0.1:{port}"
        if pin:
            placed = pin_apart(proc.pid)
    ramp = hand_seconds(preset, think, deal_seconds) if ramp is None else ramp
    try:
        measured = asyncio.run(
            _run(url.rstrip("/"), rooms, duration, think, preset, proc.pid if proc else None, ramp)
        )
        measured.placed = placed
        return measured
    finally:
        if own_cpus is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(0, own_cpus)
        if proc is not None:
            proc.kill()
            proc.wait(10)


def _affinity(pid: int) -> set[int] | None:
    """The CPUs ``pid`` (0: this process) may run on (None where the OS does not say)."""
    try:
        return set(os.sched_getaffinity(pid))
    except (AttributeError, OSError):
        return None


def pin_apart(server_pid: int) -> str | None:
    """Give the server a CPU of its own and this process (the load generator, which
    stands for thousands of clients on other machines) the others, so that the generator
    never takes the server's core; what was done, or None where it cannot be (fewer than
    two CPUs, or no affinity on this OS)."""
    cpus = _affinity(0)
    if cpus is None or len(cpus) < 2:
        return None
    server, *rest = sorted(cpus)
    try:
        os.sched_setaffinity(server_pid, {server})
        os.sched_setaffinity(0, set(rest))
    except OSError:
        return None
    others = ", ".join(str(c) for c in rest)
    return f"server on CPU {server}, load generator on CPU {others}"


@dataclass
class Knee:
    """Load tests at growing numbers of rooms, and the first at which the server no
    longer keeps up (None: it kept up at every step)."""

    steps: list[Measured]
    offered_per_room: float
    knee: int | None
    why: str

    def lines(self) -> list[str]:
        """One line per step, then the knee."""
        out = []
        for m in self.steps:
            offered = m.rooms * self.offered_per_room
            p99 = m.percentile(0.99)
            f = m.figures()
            cpu = f["server_cpu_ms_per_action"]
            out.append(
                f"{m.rooms} rooms: {m.actions_per_s:.1f} actions/s of {offered:.1f} offered "
                f"({m.actions_per_s / offered:.0%}), p99 "
                f"{'-' if p99 is None else f'{p99:.1f} ms'}, CPU per action: server "
                f"{'-' if cpu is None else f'{cpu:.2f} ms'}, generator "
                f"{f['generator_cpu_ms_per_action']:.2f} ms, errors {m.errors}"
            )
        out.append(f"knee: {self.knee} rooms ({self.why})" if self.knee else f"knee: {self.why}")
        return out

    def figures(self) -> dict[str, Any]:
        """What ``--json`` writes for a knee search."""
        return {
            "steps": [m.figures() for m in self.steps],
            "offered_per_room": round(self.offered_per_room, 4),
            "knee": self.knee,
            "why": self.why,
        }


def find_knee(steps: list[int], **kwargs: Any) -> Knee:
    """Run :func:`run_loadtest` at each number of rooms in ``steps`` (the first, light,
    step sets the actions a room offers when the server answers at once) until p99
    latency crosses :data:`KNEE_P99_MS` or the actions served fall below
    :data:`SERVED_SHARE` of those offered."""
    done: list[Measured] = []
    offered = math.nan
    for rooms in steps:
        m = run_loadtest(rooms=rooms, **kwargs)
        done.append(m)
        if len(done) == 1:
            offered = m.actions_per_s / rooms
        p99 = m.percentile(0.99)
        if p99 is not None and p99 > KNEE_P99_MS:
            return Knee(done, offered, rooms, f"p99 {p99:.0f} ms > {KNEE_P99_MS:g} ms")
        if m.actions_per_s < SERVED_SHARE * offered * rooms:
            share = m.actions_per_s / (offered * rooms)
            return Knee(done, offered, rooms, f"served {share:.0%} of the actions offered")
    return Knee(done, offered, None, f"none up to {steps[-1]} rooms")
