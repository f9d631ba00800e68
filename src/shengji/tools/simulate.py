"""``shengji simulate``: many hands or matches between bots, with honest statistics.

Every deal is identified by its index; with ``mirror`` it is played twice, bot A on team
{0, 2} and then on team {1, 3}, with the same cards, so luck cancels. In 找朋友 (5 to 8
seats, sides found during the hand) bot A sits on the even seats and bot B on the odd ones
(swapped when mirrored), and the figures are per player: how often a player of each bot
went up, its share of the levels climbed and the levels per player and hand. Work is split over
processes by deal index and the results are put back in deal order, so the figures do not
depend on the number of workers.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..bots.stats import paired_ratio_diff, percentile, ratio_ci
from ..errors import Code, ShengjiError
from ..rules.seats import FIXED_TEAMS

if TYPE_CHECKING:  # the rest is imported where it is used: random players need none of it
    from ..game.actions import Action
    from ..game.players import Player
    from ..game.state import GameState, HandResult
    from ..game.views import SeatView
    from ..kernel.match import Scored
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
    from ..game.players import run_match
    from ..game.state import new_match

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
    """:func:`run_job` for four random players, on :class:`~shengji.kernel.match.KMatch`."""
    from ..kernel.match import KMatch, random_streams

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


@dataclass
class TeamFigures:
    """The figures of one bot's team, each with a 95% interval."""

    bot: str
    win_rate: float
    win_rate_ci: tuple[float, float]
    level_rate: float
    level_rate_ci: tuple[float, float]
    mean_points: float
    mean_points_ci: tuple[float, float]
    match_win_rate: float | None = None
    match_win_rate_ci: tuple[float, float] | None = None
    #: 找朋友: levels climbed per player and hand.
    levels_per_hand: float | None = None
    levels_per_hand_ci: tuple[float, float] | None = None


@dataclass
class Summary:
    """What a simulation measured."""

    preset: str
    players: tuple[str, str]
    mirror: bool
    hands: int
    matches: int | None
    seed: int
    decks: int = 2
    teams: list[TeamFigures] = field(default_factory=list)
    forfeits: list[Forfeit] = field(default_factory=list)
    #: Per team ("A", "B"): decision time in ms, median and 99th percentile (wall time:
    #: the one figure that differs between runs of the same seed).
    decision_ms: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: Per team: the CPU time of a decision in ms, median and 99th percentile (the bot's
    #: own: an ``exec:`` program's process where the system tells it; a team whose
    #: decisions were not measured is left out).
    decision_cpu_ms: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: Per team whose bot searched (``effort``): its searched decisions, how many the
    #: wall-clock cap stopped, and the rollouts and sampled deals a decision got, p10 and
    #: p50 (:func:`shengji.bots.search.effort_figures`).
    search: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: 找朋友: the seats at the table (figures are per player); 0 for fixed partnerships.
    players_at_table: int = 0
    #: 找朋友: the hands whose banker's side ended with all its seats (the banker and a
    #: friend per call), and the hands played out (forfeits left out).
    full_sides: tuple[int, int] = (0, 0)
    #: The rule options played (:meth:`RuleOptions.to_dict`): a paired comparison needs
    #: the same ones.
    rules: dict[str, Any] = field(default_factory=dict)
    #: Per deal (both seatings when mirrored; a match with --matches): its index, bot A's
    #: levels (找朋友: A's players' levels), every level climbed, A's hands won (找朋友:
    #: A's players that went up) and the hands (player-hands): what a paired comparison of
    #: two runs on the same deals reads (:func:`paired_level_rate`).
    deals: list[dict[str, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON-ready data."""
        return {
            "preset": self.preset,
            "players_at_table": self.players_at_table,
            "players": list(self.players),
            "mirror": self.mirror,
            "hands": self.hands,
            "matches": self.matches,
            "seed": self.seed,
            "decks": self.decks,
            "teams": [
                {k: (list(v) if isinstance(v, tuple) else v) for k, v in t.__dict__.items()}
                for t in self.teams
            ],
            "forfeits": [_fields(x) for x in self.forfeits],
            "decision_cpu_ms": {
                team: {"p50": p50, "p99": p99} for team, (p50, p99) in self.decision_cpu_ms.items()
            },
            "decision_ms": {
                team: {"p50": p50, "p99": p99} for team, (p50, p99) in self.decision_ms.items()
            },
            "search": self.search,
            "rules": self.rules,
            "deals": self.deals,
            **(
                {"full_sides": {"full": self.full_sides[0], "hands": self.full_sides[1]}}
                if self.players_at_table
                else {}
            ),
        }


def _units(results: Sequence[JobResult], mirror: bool) -> Iterator[list[JobResult]]:
    """Independent units: both seatings of a mirrored deal together, else one job each."""
    if not mirror:
        for r in results:
            yield [r]
        return
    by_index: dict[int, list[JobResult]] = {}
    for r in results:
        by_index.setdefault(r.job.index, []).append(r)
    yield from by_index.values()


def summarise(settings: Settings, results: Sequence[JobResult]) -> Summary:
    """Win rate, level rate and mean collectors' points per team, with intervals."""
    units = list(_units(results, settings.mirror))
    summary = Summary(
        preset=settings.options.name,
        players=settings.players,
        mirror=settings.mirror,
        hands=sum(len(r.hands) for r in results),
        matches=settings.matches,
        seed=settings.seed,
        decks=settings.options.decks,
        forfeits=[r.forfeit for r in results if r.forfeit is not None],
        players_at_table=settings.options.players if settings.options.friends else 0,
        rules=settings.options.to_dict(),
    )
    if settings.options.friends:
        _per_player(settings, units, summary)
        summary.full_sides = full_sides(results, 1 + settings.options.calls)
        return summary
    for team_is_a, bot in ((True, settings.players[0]), (False, settings.players[1])):
        wins, n_hands, lv, lv_all, pts, n_coll = [], [], [], [], [], []
        m_won, m_n = [], []
        for unit in units:
            hands = [h for r in unit for h in r.hands]
            wins.append(sum(1 for h in hands if h.a_up == team_is_a))
            n_hands.append(len(hands))
            lv.append(sum(h.levels for h in hands if h.a_up == team_is_a))
            lv_all.append(sum(h.levels for h in hands))
            collecting = [h for h in hands if h.a_banker != team_is_a and not h.forfeit]
            pts.append(sum(h.points for h in collecting))
            n_coll.append(len(collecting))
            decided = [r.a_won_match for r in unit if r.a_won_match is not None]
            m_won.append(sum(1 for w in decided if w == team_is_a))
            m_n.append(len(decided))
        w = _clip(ratio_ci(wins, n_hands))
        level = _clip(ratio_ci(lv, lv_all))
        mp = ratio_ci(pts, n_coll)
        fig = TeamFigures(
            bot, w[0], (w[1], w[2]), level[0], (level[1], level[2]), mp[0], (mp[1], mp[2])
        )
        if team_is_a:
            summary.deals = [
                {"deal": u[0].job.index, "a_levels": a, "levels": b, "a_wins": c, "hands": d}
                for u, a, b, c, d in zip(units, lv, lv_all, wins, n_hands, strict=True)
            ]
        if settings.matches is not None:
            mw = _clip(ratio_ci(m_won, m_n))
            fig.match_win_rate, fig.match_win_rate_ci = mw[0], (mw[1], mw[2])
        _decision_times(summary, results, team_is_a)
        summary.teams.append(fig)
    return summary


def _per_player(settings: Settings, units: list[list[JobResult]], summary: Summary) -> None:
    """找朋友's figures per bot, over player-hands: how often its players went up, their
    share of the levels climbed, levels per player-hand and the collectors' points when
    its players collected."""
    for team_is_a, bot in ((True, settings.players[0]), (False, settings.players[1])):
        ups: list[int] = []
        n: list[int] = []
        lv: list[int] = []
        lv_all: list[int] = []
        pts: list[int] = []
        n_coll: list[int] = []
        for unit in units:
            u = [0, 0, 0, 0, 0, 0]
            for r in unit:
                mine = [a == team_is_a for a in a_seats(settings.options, r.job)]
                for h in r.hands:
                    for s, is_mine in enumerate(mine):
                        u[3] += h.seat_levels[s] if h.seat_levels else 0
                        if not is_mine:
                            continue
                        u[0] += h.seat_up[s]
                        u[1] += 1
                        u[2] += h.seat_levels[s] if h.seat_levels else 0
                        if h.seat_collected and h.seat_collected[s] and not h.forfeit:
                            u[4] += h.points
                            u[5] += 1
            for lst, v in zip((ups, n, lv, lv_all, pts, n_coll), u, strict=True):
                lst.append(v)
        if team_is_a:
            summary.deals = [
                {"deal": u[0].job.index, "a_levels": a, "levels": b, "a_wins": c, "hands": d}
                for u, a, b, c, d in zip(units, lv, lv_all, ups, n, strict=True)
            ]
        w = _clip(ratio_ci(ups, n))
        share = _clip(ratio_ci(lv, lv_all))
        per = ratio_ci(lv, n)
        mp = ratio_ci(pts, n_coll)
        fig = TeamFigures(
            bot, w[0], (w[1], w[2]), share[0], (share[1], share[2]), mp[0], (mp[1], mp[2])
        )
        fig.levels_per_hand, fig.levels_per_hand_ci = per[0], (per[1], per[2])
        results = [r for unit in units for r in unit]
        _decision_times(summary, results, team_is_a)
        summary.teams.append(fig)


def full_sides(results: Sequence[JobResult], seats: int) -> tuple[int, int]:
    """找朋友: how many hands' banker's side ended with ``seats`` seats (the banker and a
    friend per call: no call answered by a seat already on the side, none left in the
    kitty), of the hands played out."""
    sides = [
        sum(1 for collected in h.seat_collected if not collected)
        for r in results
        for h in r.hands
        if h.seat_collected and not h.forfeit
    ]
    return sum(1 for n in sides if n == seats), len(sides)


def _decision_times(summary: Summary, results: Sequence[JobResult], team_is_a: bool) -> None:
    """The team's decision times (wall and CPU, median and 99th percentile, in ms), and
    what its searched decisions got."""
    team = 0 if team_is_a else 1
    name = "A" if team_is_a else "B"
    for attr, into in (("times", summary.decision_ms), ("cpu", summary.decision_cpu_ms)):
        values = sorted(t for r in results for t in getattr(r, attr)[team])
        if values:
            into[name] = (1e3 * percentile(values, 0.5), 1e3 * percentile(values, 0.99))
    efforts = [e for r in results for e in r.efforts[team]]
    if efforts:
        from ..bots.search import effort_figures

        summary.search[name] = effort_figures(efforts)


def _clip(est: tuple[float, float, float]) -> tuple[float, float, float]:
    """A proportion's interval clipped to [0, 1]."""
    r, lo, hi = est
    return (r, max(0.0, lo), min(1.0, hi))


def collector_points(results: Sequence[JobResult]) -> tuple[list[int], list[int]]:
    """Collectors' points when bot A's team collected, and when bot B's did."""
    a: list[int] = []
    b: list[int] = []
    for r in results:
        for h in r.hands:
            if not h.forfeit:
                (b if h.a_banker else a).append(h.points)
    return a, b


def plot_points(summary: Summary, results: Sequence[JobResult], path: str) -> None:
    """Histogram of collectors' points per team (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    a, b = collector_points(results)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    top = max([*a, *b, 80]) + 10
    bins = list(range(0, top + 10, 10))
    ax.hist([a, b], bins=bins, label=[f"A: {summary.players[0]}", f"B: {summary.players[1]}"])
    ax.axvline(40 * summary.decks, color="grey", linestyle="--", linewidth=1)  # take over
    ax.set_xlabel("collectors' points when this team collects")
    ax.set_ylabel("hands")
    ax.set_title(
        f"{summary.preset}: {summary.players[0]} vs {summary.players[1]} ({summary.hands} hands)"
    )
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def format_summary(summary: Summary) -> str:
    """A plain text table of the figures."""

    def pct(v: float, ci: tuple[float, float]) -> str:
        return f"{100 * v:5.1f}%  [{100 * ci[0]:5.1f}, {100 * ci[1]:5.1f}]"

    w = max(10, *(len(p) for p in summary.players))  # exec: specs are long
    if summary.players_at_table:
        return _format_per_player(summary, pct, w)
    lines = [
        f"{summary.preset}: {summary.players[0]} (A) vs {summary.players[1]} (B), "
        f"{summary.hands} hands{', mirrored' if summary.mirror else ''}, seed {summary.seed}",
        f"{'team':6} {'bot':{w}} {'hand win rate':26} {'level rate':26} {'mean collectors pts':24}",
    ]
    for name, t in zip("AB", summary.teams, strict=True):
        lines.append(
            f"{name:6} {t.bot:{w}} {pct(t.win_rate, t.win_rate_ci):26} "
            f"{pct(t.level_rate, t.level_rate_ci):26} "
            f"{t.mean_points:6.1f} [{t.mean_points_ci[0]:6.1f}, {t.mean_points_ci[1]:6.1f}]"
        )
        if t.match_win_rate is not None and t.match_win_rate_ci is not None:
            lines[-1] += f"  matches {pct(t.match_win_rate, t.match_win_rate_ci)}"
    lines.append("95% confidence intervals in brackets (ratio estimator over independent deals).")
    lines += _timing_lines(summary)
    lines += [f.text() for f in summary.forfeits]
    if summary.forfeits:
        lines.append(
            f"{len(summary.forfeits)} hand(s) forfeited: each counted as won by the other team "
            "by the most levels a banker side wins, left out of the mean points"
        )
    return "\n".join(lines)


def _timing_lines(summary: Summary) -> list[str]:
    """The decision times, wall and CPU, p50 / p99 per team; the rollouts and deals of
    searched decisions, p10 / p50."""
    lines = []
    for what, times in (("time", summary.decision_ms), ("CPU time", summary.decision_cpu_ms)):
        timed = [f"{team} {p50:.2f} / {p99:.2f} ms" for team, (p50, p99) in times.items()]
        if timed:
            lines.append(f"decision {what} p50 / p99: {', '.join(timed)}")
    for team, f in summary.search.items():
        r, d = f["rollouts"], f["deals"]
        lines.append(
            f"search {team} per decision p10 / p50: {r['p10']} / {r['p50']} rollouts, "
            f"{d['p10']} / {d['p50']} sampled deals; {f['capped']} of {f['decisions']} "
            "decisions stopped by the wall-clock cap"
        )
    return lines


def _format_per_player(summary: Summary, pct: Callable[..., str], w: int) -> str:
    """:func:`format_summary` for 找朋友: per player, not per team."""
    lines = [
        f"{summary.preset} ({summary.players_at_table} players, 找朋友): {summary.players[0]} "
        f"(A, even seats) vs {summary.players[1]} (B, odd seats), {summary.hands} hands"
        f"{', mirrored' if summary.mirror else ''}, seed {summary.seed}",
        f"{'bot':6} {'name':{w}} {'player went up':26} {'share of levels':26} "
        f"{'levels per player-hand':24}",
    ]
    for name, t in zip("AB", summary.teams, strict=True):
        per, ci = t.levels_per_hand or 0.0, t.levels_per_hand_ci or (0.0, 0.0)
        lines.append(
            f"{name:6} {t.bot:{w}} {pct(t.win_rate, t.win_rate_ci):26} "
            f"{pct(t.level_rate, t.level_rate_ci):26} {per:5.2f} [{ci[0]:5.2f}, {ci[1]:5.2f}]"
        )
    lines.append("95% confidence intervals in brackets (ratio estimator over independent deals).")
    full, played = summary.full_sides
    if played:
        lines.append(
            f"banker's side at full strength: {full} of {played} hands ({100 * full / played:.1f}%)"
        )
    lines += _timing_lines(summary)
    lines += [f.text() for f in summary.forfeits]
    return "\n".join(lines)


#: What two runs must share for a paired comparison: the same deals, played the same way.
PAIRED_KEYS = ("rules", "mirror", "matches", "seed")


def read_run(path: str, flag: str = "--paired-with") -> dict[str, Any]:
    """A run's figures written by ``--json`` with its per-deal figures (the figures line
    of a run file, or a file of the figures alone as earlier versions wrote it); a
    :class:`ValueError` names ``flag`` and says what is wrong with the file."""
    import json
    from pathlib import Path

    try:
        text = Path(path).read_text(encoding="utf-8")
        lines = text.splitlines()
        run: Any = None
        if lines and lines[0].startswith("{") and f'"{RUN_FORMAT}"' in lines[0]:
            for line in reversed(lines):
                if line.startswith('{"figures"'):
                    run = json.loads(line)["figures"]
                    break
            else:
                raise ValueError("the run is not finished: the same command again finishes it")
        else:
            run = json.loads(text)
        if not isinstance(run, dict):
            raise TypeError("not a JSON object")
        missing = [k for k in (*PAIRED_KEYS, "deals", "players", "teams") if k not in run]
        if missing or not isinstance(run["deals"], list) or not run["deals"]:
            raise KeyError((missing or ["deals"])[0])
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(
            f"{flag} {path}: not the figures of a simulation written by --json "
            f"with its per-deal figures ({e.__class__.__name__}: {e})"
        ) from e
    return dict(run)


def other_deals(there: dict[str, Any], here: dict[str, Any]) -> str | None:
    """Why two runs did not play the same deals under the same rules (None: they did)."""
    differ = [
        _difference(k, there[k], list(v) if isinstance(v, tuple) else v)
        for k, v in ((k, here[k]) for k in PAIRED_KEYS)
        if there[k] != (list(v) if isinstance(v, tuple) else v)
    ]
    return "; ".join(differ) or None


def read_pairing(path: str, settings: Settings) -> dict[str, Any]:
    """The figures of an earlier run (``--json``) to compare this one with deal by deal;
    a :class:`ValueError` says why they cannot be: not such a file, no per-deal figures,
    or other deals."""
    other = read_run(path)
    ours = {
        "rules": settings.options.to_dict(),
        "mirror": settings.mirror,
        "matches": settings.matches,
        "seed": settings.seed,
    }
    why = other_deals(other, ours)
    if why:
        raise ValueError(f"--paired-with {path}: other deals ({why})")
    return other


def _difference(key: str, there: Any, here: Any) -> str:
    """What differs between two runs, in words (the rules: the options that differ)."""
    if key == "rules" and isinstance(there, dict) and isinstance(here, dict):
        names = sorted(k for k in here if there.get(k) != here[k])
        return "rules " + ", ".join(f"{k} {there.get(k)!r} there, {here[k]!r} here" for k in names)
    return f"{key} {there!r} there, {here!r} here"


def paired_deals(
    here: Sequence[dict[str, int]], there: Sequence[dict[str, int]]
) -> tuple[float, float, float, int]:
    """Bot A's level rate over ``here``'s deals minus over ``there``'s, on the deals both
    played, with its 95% interval from the per-deal differences, and how many deals; a
    :class:`ValueError` when they share fewer than two deals."""
    theirs = {d["deal"]: d for d in there}
    both = [d for d in here if d["deal"] in theirs]
    if len(both) < 2:
        raise ValueError(f"{len(both)} deal(s) in common: a paired comparison needs two")
    est, lo, hi = paired_ratio_diff(
        [d["a_levels"] for d in both],
        [d["levels"] for d in both],
        [theirs[d["deal"]]["a_levels"] for d in both],
        [theirs[d["deal"]]["levels"] for d in both],
    )
    return est, lo, hi, len(both)


def paired_level_rate(summary: Summary, other: dict[str, Any]) -> tuple[float, float, float, int]:
    """Bot A's level rate here minus in ``other`` (a run's JSON on the same deals), with
    its 95% interval from the per-deal differences, and how many deals both played."""
    return paired_deals(summary.deals, other["deals"])


def compare_runs(path: str, base: str) -> str:
    """``shengji compare RUN.json BASE.json``: bot A's level rate in each of two runs on
    the same deals (side by side, say: one a core) and the paired difference, in one line;
    a :class:`ValueError` says why they cannot be compared."""
    run, other = read_run(path, "compare"), read_run(base, "compare")
    why = other_deals(other, run)
    if why:
        raise ValueError(f"compare {path} {base}: other deals ({why})")
    est, lo, hi, n = paired_deals(run["deals"], other["deals"])

    def said(r: dict[str, Any], p: str) -> str:
        a, b = r["players"]
        return f"{100 * r['teams'][0]['level_rate']:.1f}% in {p} ({a} vs {b})"

    return (
        f"A's level rate {said(run, path)}, {said(other, base)}; on the same {n} deals: "
        f"{100 * est:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"
    )


#: The ``format`` of a run's ``--json`` file (:class:`RunFile`).
RUN_FORMAT = "shengji-simulate"


class RunFile:
    """A run's ``--json`` file, written as the run goes: JSON Lines, the run's settings
    first, then one line per deal (or match) as soon as it is played (``job``), and when
    the run is done its figures (``figures``: :meth:`Summary.to_json`). A run stopped
    before its end (killed, a machine gone) is continued by the same command: the deals
    in the file are kept and the others played (the results are those of a run that was
    never stopped: every deal is played from its own seed)."""

    def __init__(self, path: str, settings: Settings) -> None:
        self.path = path
        self.settings = settings
        self.header: dict[str, Any] = {
            "format": RUN_FORMAT,
            "version": 1,
            "settings": run_settings(settings),
        }
        self._out: Any = None

    def resume(self) -> list[JobResult]:
        """The results already in the file (none when there is no file), after checking
        that it is a run of these settings (``ValueError`` saying why not); the file is
        left with its settings and those results, to be added to."""
        import json
        from pathlib import Path

        p = Path(self.path)
        done: list[JobResult] = []
        if p.exists() and p.stat().st_size:
            lines = p.read_text(encoding="utf-8").splitlines()
            try:
                header = json.loads(lines[0])
            except ValueError:
                header = None
            if not isinstance(header, dict) or header.get("format") != RUN_FORMAT:
                raise ValueError(f"--json {self.path}: not a run file of shengji simulate")
            if header != json.loads(json.dumps(self.header)):
                raise ValueError(
                    f"--json {self.path} holds a run of other settings "
                    f"({_settings_difference(header.get('settings'), self.header['settings'])}): "
                    "give another file, or the same arguments to continue that run"
                )
            for line in lines[1:]:
                try:
                    item = json.loads(line)
                except ValueError:  # the line being written when the run was stopped
                    break
                if isinstance(item, dict) and "job" in item:
                    done.append(job_from_json(item["job"]))
        with p.open("w", encoding="utf-8") as f:
            f.write(_line(self.header))
            for res in done:
                f.write(_line({"job": job_to_json(res)}))
        self._out = p.open("a", encoding="utf-8")
        return done

    def add(self, res: JobResult) -> None:
        """Write the result of one job (at once: a run stopped after it keeps it)."""
        self._out.write(_line({"job": job_to_json(res)}))
        self._out.flush()

    def finish(self, summary: Summary) -> None:
        """Write the run's figures; the file is complete."""
        self._out.write(_line({"figures": summary.to_json()}))
        self.close()

    def close(self) -> None:
        """Close the file (what is in it stays)."""
        if self._out is not None:
            self._out.close()
            self._out = None


def run_settings(settings: Settings) -> dict[str, Any]:
    """What decides a run's results (a continued run must have the same)."""
    return {
        "rules": settings.options.to_dict(),
        "players": list(settings.players),
        "hands": settings.hands,
        "matches": settings.matches,
        "seed": settings.seed,
        "mirror": settings.mirror,
        "max_hands_per_match": settings.max_hands_per_match,
        "bot_time": settings.bot_time,
        "bot_options": [list(o) for o in settings.bot_options],
    }


def _settings_difference(there: Any, here: dict[str, Any]) -> str:
    if not isinstance(there, dict):
        return "no settings there"
    return "; ".join(_difference(k, there.get(k), v) for k, v in here.items() if there.get(k) != v)


def _line(item: dict[str, Any]) -> str:
    import json

    return json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n"


def job_to_json(res: JobResult) -> dict[str, Any]:
    """One job's result as JSON-ready data (:func:`job_from_json` reads it back)."""
    return {
        "deal": res.job.index,
        "mirrored": res.job.mirrored,
        "hands": [
            {k: (list(v) if isinstance(v, tuple) else v) for k, v in _fields(h).items()}
            for h in res.hands
        ],
        "a_won_match": res.a_won_match,
        "decisions": res.decisions,
        "forfeit": None if res.forfeit is None else _fields(res.forfeit),
        "times": [list(res.times[0]), list(res.times[1])],
        "cpu": [list(res.cpu[0]), list(res.cpu[1])],
        "efforts": [[list(e) for e in res.efforts[0]], [list(e) for e in res.efforts[1]]],
    }


def job_from_json(data: dict[str, Any]) -> JobResult:
    """A job's result from :func:`job_to_json`'s data."""
    job = Job(int(data["deal"]), bool(data["mirrored"]))
    hands = tuple(HandFacts(**_tuples(h)) for h in data["hands"])
    forfeit = None if data["forfeit"] is None else Forfeit(**data["forfeit"])
    times, cpu = data["times"], data["cpu"]
    efforts = data.get("efforts", [[], []])  # runs written before efforts were kept
    return JobResult(
        job,
        hands,
        data["a_won_match"],
        int(data["decisions"]),
        forfeit,
        (tuple(times[0]), tuple(times[1])),
        (tuple(cpu[0]), tuple(cpu[1])),
        (_efforts(efforts[0]), _efforts(efforts[1])),
    )


def _efforts(data: list[list[Any]]) -> tuple[Effort, ...]:
    return tuple((int(r), int(d), bool(c)) for r, d, c in data)


def _tuples(data: dict[str, Any]) -> dict[str, Any]:
    return {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items()}


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
