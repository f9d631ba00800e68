"""``shengji simulate``: many hands or matches between bots, with honest statistics.

Every deal is identified by its index; with ``mirror`` it is played twice, bot A on team
{0, 2} and then on team {1, 3}, with the same cards, so luck cancels. In 找朋友 (5 to 8
seats, sides found during the hand) bot A sits on the even seats and bot B on the odd ones
(swapped when mirrored), and the figures are per player: how often a player of each bot
went up, its share of the levels climbed and the levels per player and hand. Work is split over
processes by deal index and the results are put back in deal order, so the figures do not
depend on the number of workers.

This module runs the jobs (in this process, in worker processes or on Ray); the figures
of a run are :mod:`shengji.tools.tally`'s, its file and the pairing of two runs
:mod:`shengji.tools.runfiles`'.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import Code, ShengjiError
from ..rules.seats import FIXED_TEAMS

if TYPE_CHECKING:  # the rest is imported where it is used: random players need none of it
    from ..engine.match import Scored
    from ..game.actions import Action
    from ..game.players import Player
    from ..game.state import GameState, HandResult
    from ..game.views import SeatView
    from ..rules.options import RuleOptions

#: An external program named as a player (``exec:COMMAND``, :mod:`shengji.bots.external`).
EXEC = "exec:"


class HandFacts(NamedTuple):
    """One hand from bot A's point of view."""

    a_banker: bool  # A's team was the banker side
    a_up: bool  # A's team went up (or took over)
    levels: int  # levels climbed by the team that went up
    points: int  # collectors' points
    forfeit: bool = False  # a bot failed: not played out (see Forfeit)
    #: 找朋友: per seat, whether it went up, the levels it climbed, whether it collected.
    seat_up: tuple[bool, ...] = ()
    seat_levels: tuple[int, ...] = ()
    seat_collected: tuple[bool, ...] = ()


class Forfeit(NamedTuple):
    """A hand an external bot forfeited: it crashed, timed out or answered illegally.
    The other team is counted as winning it by :func:`forfeit_levels`; its points are
    left out of the mean collectors' points; with matches, the match is lost too."""

    deal: int
    mirrored: bool
    hand: int  # 1 = the first hand of the match
    seat: int
    bot: str
    code: str  # BOT_CRASHED, BOT_TIMEOUT, BOT_PROTOCOL or BOT_ILLEGAL
    reason: str

    def text(self) -> str:
        """One line for people."""
        where = f"deal {self.deal}{' (mirrored)' if self.mirrored else ''}, hand {self.hand}"
        return f"forfeit: {where}, seat {self.seat} ({self.bot}): {self.code}: {self.reason}"


@dataclass(frozen=True)
class Job:
    """One deal (or match) in one seating."""

    index: int
    mirrored: bool


#: (rollouts, sampled deals, stopped by the cap) of one searched decision
#: (:class:`shengji.bots.search.Effort`).
Effort = tuple[int, int, bool]


class JobResult(NamedTuple):
    """The hands one job played, and whether A won the match (matches only)."""

    job: Job
    hands: tuple[HandFacts, ...]
    a_won_match: bool | None
    decisions: int
    forfeit: Forfeit | None = None
    #: Seconds each decision of bot A's team, and of bot B's, took (wall time).
    times: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    #: CPU seconds of each decision, per team: the bot's own (an ``exec:`` program's
    #: process, measured where the system tells it: ``/proc`` on Linux), or empty where
    #: it could not be measured.
    cpu: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    #: Per team, what each searched decision got: (rollouts, sampled deals, whether the
    #: wall-clock cap stopped it), from a bot that tells it (``effort``: the search bot).
    efforts: tuple[tuple[Effort, ...], tuple[Effort, ...]] = ((), ())


class _Timed:
    """A player whose decisions are timed: wall time (the bot's own work only) and CPU
    time (this thread's for an in-process bot, the program's for an ``exec:`` bot, which
    tells it as ``last_cpu``: None when it cannot be measured); a searched decision's
    effort is kept too (a bot's ``effort``, when not None)."""

    def __init__(
        self, player: Player, times: list[float], cpu: list[float], efforts: list[Effort]
    ) -> None:
        self.player = player
        self.times = times
        self.cpu = cpu
        self.efforts = efforts
        self.external = hasattr(player, "last_cpu")

    def act(self, view: SeatView) -> Action:
        """The wrapped player's action; its times are recorded."""
        t0, c0 = time.perf_counter(), time.thread_time()
        action = self.player.act(view)
        self.times.append(time.perf_counter() - t0)
        if not self.external:
            self.cpu.append(time.thread_time() - c0)
        else:
            spent: float | None = getattr(self.player, "last_cpu", None)
            if spent is not None:
                self.cpu.append(spent)
        effort = getattr(self.player, "effort", None)
        if effort is not None:
            self.efforts.append((int(effort[0]), int(effort[1]), bool(effort[2])))
        return action


@dataclass
class Settings:
    """What to simulate."""

    options: RuleOptions
    players: tuple[str, str] = ("heuristic", "random")
    hands: int | None = None
    matches: int | None = None
    seed: int = 0
    mirror: bool = False
    records: str | None = None
    max_hands_per_match: int = 200
    #: Seconds an ``exec:`` bot has for each decision.
    bot_time: float = 5.0
    #: ``(name, value)`` options sent to every ``exec:`` bot.
    bot_options: tuple[tuple[str, str], ...] = ()

    def jobs(self) -> list[Job]:
        """Every job in deal order."""
        units = self.matches if self.matches is not None else self.hands or 0
        if self.mirror:
            deals = units if self.matches is not None else math.ceil(units / 2)
            return [Job(i, m) for i in range(deals) for m in (False, True)]
        return [Job(i, False) for i in range(units)]


def deal_seed(seed: int, index: int) -> int:
    """The match seed of deal ``index`` (independent of seating and workers)."""
    return seed * 1_000_003 + index


def seat_bots(settings: Settings, job: Job) -> list[str]:
    """The bot name at each seat: A on the even seats ({0, 2}) and B on the odd ones,
    swapped when mirrored."""
    a, b = settings.players
    return [a if is_a else b for is_a in a_seats(settings.options, job)]


def a_seats(options: RuleOptions, job: Job) -> list[bool]:
    """Whether bot A plays each seat (see :func:`seat_bots`)."""
    return [(seat % 2 == 1) == job.mirrored for seat in range(options.players)]


class _Seen:
    """The last state of a match being played, and how many actions led to it."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.actions = 0

    def __call__(self, state: GameState, _events: object) -> None:
        self.state = state
        self.actions += 1


def forfeit_levels(options: RuleOptions) -> int:
    """The levels a forfeited hand gives the other team: what a banker side climbs when
    the collectors score nothing (the biggest banker win), within ``max_gain``."""
    from ..rules.scoring import level_change

    gain = level_change(options, 0).gain
    return gain if options.max_gain is None else min(gain, options.max_gain)


def run_job(settings: Settings, job: Job) -> JobResult:
    """Play one job; deterministic for (settings, job). An ``exec:`` bot that fails
    forfeits the hand it was playing (and, with matches, the match). Random players
    without records play on the kernel alone (the same games, see ``RandomBot``)."""
    seed = deal_seed(settings.seed, job.index)
    if settings.players == ("random", "random") and not settings.records:
        return _run_random_job(settings, job, seed)
    from ..bots.external import BotFailure, BotLimits, ExternalBot, command_line_player
    from ..game.flow import new_match
    from ..game.players import run_match

    limits = BotLimits(decision=settings.bot_time)
    bot_options = dict(settings.bot_options)
    names = seat_bots(settings, job)
    players = [
        command_line_player(name, seat, seed, limits, bot_options)
        for seat, name in enumerate(names)
    ]
    a_team = 1 if job.mirrored else 0
    is_a = a_seats(settings.options, job)
    times: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    efforts: tuple[list[Effort], list[Effort]] = ([], [])
    teams = [0 if a else 1 for a in is_a]
    timed = [
        _Timed(p, times[teams[seat]], cpu[teams[seat]], efforts[teams[seat]])
        for seat, p in enumerate(players)
    ]
    seen = _Seen(new_match(settings.options, seed))
    forfeit: Forfeit | None = None
    rec = None
    try:
        st, rec = run_match(
            settings.options,
            seed,
            timed,
            stop_after_hand=settings.matches is None,
            max_hands=settings.max_hands_per_match,
            on_event=seen,
        )
    except ShengjiError as e:
        st = seen.state
        seat = st.to_act if st.to_act is not None else 0
        player = players[seat]
        if not isinstance(player, ExternalBot) or e.code == "UNKNOWN_BOT_OPTION":
            raise  # a bug of the engine or of an in-process bot, or a wrong option
        if not isinstance(e, BotFailure):
            player.refused(e)
        code = e.code if isinstance(e, BotFailure) else "BOT_ILLEGAL"
        reason = e.message if isinstance(e, BotFailure) else f"{e.code}: {e.message}"
        if isinstance(e, BotFailure) and e.stderr:
            reason += f"; its last words on stderr: {e.stderr.splitlines()[-1]}"
        hand = st.hand_number + 1
        forfeit = Forfeit(job.index, job.mirrored, hand, seat, names[seat], code, reason)
    finally:
        for p in players:
            if isinstance(p, ExternalBot):
                p.close()
    hands = hand_facts(st.results, a_team, is_a)
    if forfeit is not None:
        failed = forfeit.seat % 2
        banker = st.banker % 2 if st.banker is not None else failed
        levels = forfeit_levels(settings.options)
        n = settings.options.players
        # 找朋友: every other player goes up (whoever the friends were)
        up = tuple(s != forfeit.seat for s in range(n)) if settings.options.friends else ()
        hands.append(
            HandFacts(
                banker == a_team,
                failed != a_team,
                levels,
                0,
                forfeit=True,
                seat_up=up,
                seat_levels=tuple(levels if u else 0 for u in up),
            )
        )
    won = (
        None
        if settings.matches is None
        else (st.winner == a_team if st.winner is not None else None)
    )
    if forfeit is not None and settings.matches is not None:
        won = forfeit.seat % 2 != a_team
    if settings.records and rec is not None:
        from pathlib import Path

        from ..game.record import save_record

        path = (
            Path(settings.records) / f"deal{job.index:06d}{'-mirror' if job.mirrored else ''}.json"
        )
        save_record(rec.record(st), path)
    return JobResult(
        job,
        tuple(hands),
        won,
        seen.actions,
        forfeit,
        (tuple(times[0]), tuple(times[1])),
        (tuple(cpu[0]), tuple(cpu[1])),
        (tuple(efforts[0]), tuple(efforts[1])),
    )


def hand_facts(
    results: Sequence[HandResult], a_team: int, is_a: Sequence[bool] = ()
) -> list[HandFacts]:
    """Each finished hand from the point of view of bot A's team ``a_team`` (找朋友: A's
    seats ``is_a``, and each seat's own facts)."""
    out = []
    for r in results:
        o = r.outcome
        if r.banker_side:
            banker_side = set(r.banker_side)
            up = tuple((s in banker_side) == (o.side == "banker") for s in range(len(is_a)))
            out.append(
                HandFacts(
                    is_a[r.banker],
                    any(u and a for u, a in zip(up, is_a, strict=True)),
                    o.moved,
                    r.points,
                    seat_up=up,
                    seat_levels=r.climbed,
                    seat_collected=tuple(s not in banker_side for s in range(len(is_a))),
                )
            )
            continue
        bteam = FIXED_TEAMS[r.banker]
        up_team = bteam if o.side == "banker" else 1 - bteam
        out.append(HandFacts(bteam == a_team, up_team == a_team, o.moved, r.points))
    return out


def scored_facts(scored: Sequence[Scored], a_team: int, is_a: Sequence[bool]) -> list[HandFacts]:
    """:func:`hand_facts` of hands the kernel scored (``KMatch.scored``)."""
    out = []
    for sc in scored:
        o = sc.score.outcome
        banker_up = o.side == 0  # the kernel's SIDE_BANKER
        if sc.banker_side:
            side = set(sc.banker_side)
            up = tuple((s in side) == banker_up for s in range(len(is_a)))
            out.append(
                HandFacts(
                    is_a[o.banker_seat],
                    any(u and a for u, a in zip(up, is_a, strict=True)),
                    o.moved,
                    sc.score.points,
                    seat_up=up,
                    seat_levels=sc.climbed,
                    seat_collected=tuple(s not in side for s in range(len(is_a))),
                )
            )
            continue
        bteam = FIXED_TEAMS[o.banker_seat]
        up_team = bteam if banker_up else 1 - bteam
        out.append(HandFacts(bteam == a_team, up_team == a_team, o.moved, sc.score.points))
    return out


def _run_random_job(settings: Settings, job: Job, seed: int) -> JobResult:
    """:func:`run_job` for four random players, on :class:`~shengji.engine.match.KMatch`."""
    from ..engine.match import KMatch, random_streams

    m = KMatch(settings.options, seed)
    max_hands = 1 if settings.matches is None else settings.max_hands_per_match
    streams = random_streams(seed, settings.options.players)
    m.play_random(streams, max_hands=max_hands, results=False)  # scored in the kernel
    a_team = 1 if job.mirrored else 0
    hands = scored_facts(m.scored, a_team, a_seats(settings.options, job))
    won = None
    if settings.matches is not None and m.winner is not None:
        won = m.winner == a_team
    return JobResult(job, tuple(hands), won, m.decisions)


def _run_chunk(settings: Settings, jobs: list[Job]) -> list[JobResult]:
    """Jobs one after the other (a Ray task, or a worker process's task), external bots
    stopped at the end. A worker process whose parent is gone (the run was killed) stops
    before its next job instead of playing its task out for nobody."""
    import multiprocessing

    parent = multiprocessing.parent_process()
    out = []
    try:
        for job in jobs:
            if parent is not None and not parent.is_alive():
                close_bots()
                os._exit(1)  # nobody reads the pool's queues any more: exit outright
            out.append(run_job(settings, job))
        return out
    finally:
        close_bots()


def close_bots() -> None:
    """Stop the idle ``exec:`` bot processes of this process (if it started any)."""
    external = sys.modules.get("shengji.bots.external")
    if external is not None:
        external.POOL.close_all()


def check_ray_address(address: str | None, timeout: float = 5.0) -> None:
    """Fail at once with ``UNREACHABLE`` when nothing listens at a ``HOST:PORT`` (or
    ``ray://HOST:PORT``) cluster address: Ray itself keeps retrying for minutes.
    ``None``, ``auto`` and ``local`` are left to Ray.

    >>> try:
    ...     check_ray_address("127.0.0.1:1")
    ... except ShengjiError as e:
    ...     print(e.code)
    UNREACHABLE
    """
    if address is None or address in ("auto", "local"):
        return
    import socket

    where = address.removeprefix("ray://")
    host, sep, port = where.rpartition(":")
    if not sep or not (port.isascii() and port.isdigit()):
        raise ShengjiError(
            f"a Ray address is HOST:PORT, ray://HOST:PORT or auto, not {address!r}",
            code=Code.BAD_URL,
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ShengjiError(
            f"no Ray cluster answers at {where} ({e.strerror or e}): start one with "
            "`ray start --head`, or leave out --address for a local Ray",
            code=Code.UNREACHABLE,
        ) from None


def run_ray(
    settings: Settings,
    jobs: Sequence[Job],
    address: str | None = None,
    progress: Callable[[JobResult], None] | None = None,
    chunk: int = 8,
) -> list[JobResult]:
    """Run ``jobs`` as Ray tasks of ``chunk`` jobs each, on the cluster at ``address``
    (``"auto"``: the one this machine belongs to), on a Ray already started in this
    process, or on a new local one; results in any order (the caller sorts them)."""
    import ray  # type: ignore[import-not-found,unused-ignore]  # optional: this backend only

    started = not ray.is_initialized()
    if started:
        check_ray_address(address)
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(_run_chunk)
        settings_ref = ray.put(settings)
        pending = [
            task.remote(settings_ref, list(jobs[i : i + chunk])) for i in range(0, len(jobs), chunk)
        ]
        results: list[JobResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for res in ray.get(done[0]):
                results.append(res)
                if progress:
                    progress(res)
        return results
    finally:
        if started:
            ray.shutdown()


def check_bots_start(settings: Settings) -> None:
    """Start each ``exec:`` bot once (its handshake) before any hand is dealt: a command
    that cannot start, or does not speak the protocol, stops the run at once with its
    error (``BOT_CRASHED``, ``BOT_TIMEOUT``, ``BOT_PROTOCOL``) instead of forfeiting
    every hand. The process is kept for the first match."""
    commands = [n[len(EXEC) :] for n in dict.fromkeys(settings.players) if n.startswith(EXEC)]
    if not commands:
        return
    from ..bots.external import POOL, BotLimits

    limits = BotLimits(decision=settings.bot_time)
    for command in commands:
        POOL.release(POOL.acquire(command, limits))


def check_player(spec: str) -> str:
    """``spec`` unchanged if it names a registered bot, or is ``exec:`` and a command."""
    if spec.startswith(EXEC):
        from ..bots.external import check_command_line_spec

        return check_command_line_spec(spec)
    from ..bots.registry import check_spec, parse_spec

    if parse_spec(spec)[1] is None:
        return spec  # a bot without an argument: its name is all there is to check
    return check_spec(spec)  # makes the player: its argument is checked (a model file)


def run_jobs(
    settings: Settings,
    workers: int = 1,
    progress: Callable[[JobResult], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
    done: Collection[JobResult] = (),
) -> list[JobResult]:
    """Run every job (in ``workers`` processes, or as Ray tasks with ``backend="ray"``
    on the cluster at ``address``) and return the results in deal order; ``done``: the
    results of jobs already played (a run resumed from its ``--json`` file), kept."""
    for name in settings.players:
        check_player(name)
    if settings.records:
        from pathlib import Path

        Path(settings.records).mkdir(parents=True, exist_ok=True)
    finished = {(r.job.index, r.job.mirrored) for r in done}
    jobs = [j for j in settings.jobs() if (j.index, j.mirrored) not in finished]
    results: list[JobResult] = list(done)
    if not jobs:
        return sorted(results, key=lambda r: (r.job.index, r.job.mirrored))
    check_bots_start(settings)
    if workers > 1 or backend == "ray":
        close_bots()  # the probes' processes: the workers start their own
    if backend == "ray":
        results += run_ray(settings, jobs, address, progress)
    elif workers <= 1:
        try:
            for job in jobs:
                res = run_job(settings, job)
                results.append(res)
                if progress:
                    progress(res)
        finally:
            close_bots()
    else:
        results += run_processes(settings, jobs, workers, progress)
    results.sort(key=lambda r: (r.job.index, r.job.mirrored))
    return results


def run_processes(
    settings: Settings,
    jobs: Sequence[Job],
    workers: int,
    progress: Callable[[JobResult], None] | None = None,
    chunk: int | None = None,
) -> list[JobResult]:
    """Run ``jobs`` in ``workers`` processes, ``chunk`` jobs a task (by default up to 16,
    at least four tasks a worker: an external bot is started once a task); results in any
    order.
    A worker that dies (killed, out of memory) is detected at once: the hands it had not
    finished are played again in a new pool, once; if a worker dies again the run stops
    with ``WORKER_LOST``, naming the process and what stopped it."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    results: list[JobResult] = []
    todo = list(jobs)
    size = chunk or max(1, min(16, len(todo) // (4 * workers)))
    for attempt in range(2):
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
            tasks = [
                pool.submit(_run_chunk, settings, todo[i : i + size])
                for i in range(0, len(todo), size)
            ]
            seen = dict(getattr(pool, "_processes", None) or {})  # pid -> process
            try:
                for task in as_completed(tasks):
                    seen.update(getattr(pool, "_processes", None) or {})
                    for res in task.result():
                        results.append(res)
                        if progress:
                            progress(res)
                return results
            except BrokenProcessPool:
                seen.update(getattr(pool, "_processes", None) or {})
                lost = _lost(seen)
        done = {(r.job.index, r.job.mirrored) for r in results}
        todo = [j for j in todo if (j.index, j.mirrored) not in done]
        if attempt == 0:
            print(
                f"simulate: {lost} stopped; its {len(todo)} unfinished hands are played again",
                file=sys.stderr,
                flush=True,
            )
    raise ShengjiError(
        f"{lost} stopped, again: {len(results)} of {len(jobs)} hands were played",
        code=Code.WORKER_LOST,
        params={"done": len(results), "hands": len(jobs)},
    )


def _lost(processes: dict[int, Any]) -> str:
    """Which worker processes died and of what, in words (not those the broken pool
    itself ended with SIGTERM, unless there are no others)."""
    import signal

    ended = []
    for pid, proc in sorted(processes.items()):
        proc.join(timeout=1)
        if proc.exitcode:
            ended.append((pid, proc.exitcode))
    died = [(pid, code) for pid, code in ended if code != -signal.SIGTERM] or ended
    words = [
        f"worker process {pid} ({f'signal {-code}' if code < 0 else f'exit code {code}'})"
        for pid, code in died
    ]
    return ", ".join(words) or "a worker process"


def _fields(obj: Any) -> dict[str, Any]:
    return dict(obj._asdict())


class Progress:
    """A progress bar on stderr (rich, from the ``plot`` extra): deals done, hands/s and
    time left. Without rich installed there is no bar; the run is the same."""

    def __init__(self, total_jobs: int) -> None:
        self.hands = 0
        self.start = time.perf_counter()
        self.bar: Any = None
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress
        except ImportError:
            return
        self.bar = RichProgress(
            TextColumn("deals"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]:>7.1f} hands/s"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
        )
        self.task = self.bar.add_task("simulate", total=total_jobs, rate=0.0)

    def __enter__(self) -> Progress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def __call__(self, res: JobResult) -> None:
        self.hands += len(res.hands)
        rate = self.hands / max(time.perf_counter() - self.start, 1e-9)
        if self.bar is not None:
            self.bar.update(self.task, advance=1, rate=rate)
