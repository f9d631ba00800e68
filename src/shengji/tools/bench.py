"""``shengji bench``: speed and memory figures, one per line as ``name: value unit``.

Benchmarks print figures; they are not tests. ``rules`` times the rules API on fixed
positions; ``kernel`` compares full random hands and mid-hand rollouts per CPU second on
the kernel (compiled and pure) and on the game engine (``apply`` on ``GameState``
objects); ``all`` (the default) adds ``simulate`` end to end and its start-up, the RL
environments (``env()``, ``raw_env``, ``VectorEnv``), memory per retained state,
heuristic-bot decisions per second, the search bot's rollouts per play decision at
100 ms and 1 s, and peak memory. Timed figures are CPU time, measured in rounds that run
every compared variant once in turn (interleaved: compiled and pure alternate), and each
line gives the median of the rounds with their range. The kernel's equality gates
against the oracle are tests (``tests/kernel/gate.py``).
"""

from __future__ import annotations

import functools
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

from ..bots.heuristic import HeuristicBot
from ..bots.random_bot import random_action
from ..engine import Kernel
from ..engine.match import KMatch, random_streams
from ..game.flow import apply, new_match
from ..game.legal import legal_actions
from ..game.state import GameState
from ..game.views import SeatView, seat_view
from ..rules.cards import Card, deck
from ..rules.follow import count_legal_follows, legal_follows, random_legal_follow
from ..rules.leads import unit_leads
from ..rules.presets import load_preset
from ..rules.tricks import trick_winner
from ..rules.trump import TrumpContext

Position = tuple[TrumpContext, tuple[Card, ...], tuple[Card, ...]]


def fixed_positions(preset: str = "shuangsheng", n: int = 200, seed: int = 7) -> list[Position]:
    """``n`` (context, lead, follower hand) positions from seeded deals: each lead is a
    random one-unit lead of one hand, the follower another hand."""
    opts = load_preset(preset)
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        cards = deck(opts.decks)
        rng.shuffle(cards)
        size = opts.hand_size
        ctx = TrumpContext(opts, rng.randrange(2, 15), rng.choice(["S", "H", "C", "D", "NT"]))
        leader, follower = tuple(cards[:size]), tuple(cards[size : 2 * size])
        leads = list(unit_leads(ctx, leader))
        structured = [ld for ld in leads if len(ld) > 1]
        pool = structured if structured and rng.random() < 0.6 else leads
        out.append((ctx, rng.choice(pool), follower))
    return out


def _best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    """Fastest of ``repeat`` runs: (seconds, units done)."""
    best = float("inf")
    units = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        units = fn()
        best = min(best, time.perf_counter() - t0)
    return best, units


def heuristic_decisions(preset: str, hands: int, seed: int = 0) -> tuple[int, float]:
    """Play ``hands`` hands with four heuristic bots; (decisions, CPU seconds spent
    deciding)."""
    opts = load_preset(preset)
    decisions, spent = 0, 0.0
    for i in range(hands):
        bots = [HeuristicBot(s, seed + i) for s in range(4)]
        st = new_match(opts, seed * 1_000_003 + i)
        while st.phase not in ("hand_over", "match_over"):
            seat = st.to_act
            assert seat is not None
            view = seat_view(st, seat)
            t0 = time.process_time()
            action = bots[seat].act(view)
            spent += time.process_time() - t0
            decisions += 1
            st, _ = apply(st, seat, action)
    return decisions, spent


def bench_rules(repeat: int = 3) -> Iterator[str]:
    """Lines for the rules-core hot paths on fixed positions."""
    for preset in ("shuangsheng", "classic-3deck"):
        positions = fixed_positions(preset)

        def enum_all(ps: list[Position] = positions) -> int:
            n = 0
            for ctx, lead, hand in ps:
                for _ in legal_follows(ctx, lead, hand):
                    pass
                n += 1
            return n

        def count_all(ps: list[Position] = positions) -> int:
            for ctx, lead, hand in ps:
                count_legal_follows(ctx, lead, hand)
            return len(ps)

        rng = random.Random(1)
        tricks = []
        for ctx, lead, hand in positions:
            plays = [lead] + [random_legal_follow(ctx, lead, hand, rng) for _ in range(3)]
            tricks.append((ctx, plays))

        def winners(ts: list[tuple[TrumpContext, list[tuple[Card, ...]]]] = tricks) -> int:
            for ctx, plays in ts:
                trick_winner(ctx, plays)
            return len(ts)

        def randoms(ps: list[Position] = positions) -> int:
            r = random.Random(2)
            for ctx, lead, hand in ps:
                random_legal_follow(ctx, lead, hand, r)
            return len(ps)

        for name, fn in (
            ("legal-follow enumeration", enum_all),
            ("legal-follow count", count_all),
            ("random legal follow", randoms),
            ("trick winner", winners),
        ):
            secs, calls = _best(fn, repeat)
            yield f"{name} ({preset}): {secs / calls * 1e6:.1f} µs/call"
        secs, calls = _best(enum_all, repeat)
        yield f"legal-follow enumerations/s ({preset}): {calls / secs:.0f} enumerations/s"


THROW_RATE = 0.3
"""Probability that a random lead tries a throw in the hand figures: about 25% of leads
are then throw attempts (the other tries find no multi-unit set in the suit drawn)."""


def to_play(st: GameState, rng: random.Random, throw_rate: float) -> GameState:
    """Deal, declare and bury with random actions until the play phase."""
    while st.phase != "play":
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng, throw_rate))
    return st


def engine_hands(preset: str, n: int, seed: int = 0) -> int:
    """Play ``n`` full hands (shuffle, deal, declare, kitty, tricks with throws, scoring)
    on the game engine (``apply``) with a random legal action at every turn (throw
    attempts at :data:`THROW_RATE`); returns ``n``."""
    opts = load_preset(preset)
    rng = random.Random(seed)
    for i in range(n):
        st = new_match(opts, seed * 1_000_003 + i)
        while st.phase not in ("hand_over", "match_over"):
            seat = st.to_act
            assert seat is not None
            st, _ = apply(st, seat, random_action(st, seat, rng, THROW_RATE))
    return n


def kernel_hands(kernel: Kernel, preset: str, n: int, seed: int = 0) -> int:
    """Full random hands on the kernel alone (:class:`~shengji.engine.match.KMatch`: deal
    with shows, declaring, burial, play and scoring), the random bot's policy; returns
    ``n``."""
    opts = load_preset(preset)
    for i in range(n):
        s = seed * 1_000_003 + i
        m = KMatch(opts, s, kernel=kernel)
        m.play_random(random_streams(s, kernel=kernel), max_hands=1, throw_rate=THROW_RATE)
    return n


def state_memory(preset: str = "shuangsheng", hands: int = 5) -> float:
    """Bytes each added :class:`~shengji.game.GameState` of a play history holds (all
    states of ``hands`` random hands kept, as a record's replay or a search tree would),
    measured with :mod:`tracemalloc`."""
    import gc
    import tracemalloc

    opts = load_preset(preset)
    rng = random.Random(0)
    gc.collect()
    tracemalloc.start()
    try:
        kept: list[GameState] = []
        base = 0
        for i in range(hands):
            st = to_play(new_match(opts, i), rng, THROW_RATE)
            if i == 0:
                base = tracemalloc.get_traced_memory()[0]
                kept.append(st)
            while st.phase == "play":
                seat = st.to_act
                assert seat is not None
                st, _ = apply(st, seat, random_action(st, seat, rng, THROW_RATE))
                kept.append(st)
        used = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    return used / max(1, len(kept) - 1)


def play_positions(preset: str, n: int, tricks: int, seed: int = 0) -> list[GameState]:
    """``n`` game states of random hands in the play phase after ``tricks`` tricks (and,
    when ``tricks`` > 0, one card of the next)."""
    opts = load_preset(preset)
    rng = random.Random(seed)
    out: list[GameState] = []
    for i in range(n):
        st = to_play(new_match(opts, seed * 1_000_003 + i), rng, THROW_RATE)
        while len(st.tricks) < tricks or (tricks and not st.trick):
            seat = st.to_act
            assert seat is not None
            st, _ = apply(st, seat, random_action(st, seat, rng, THROW_RATE))
        out.append(st)
    return out


def engine_rollouts(
    positions: list[GameState], per: int, throw_rate: float = 0.0, seed: int = 0
) -> int:
    """Random play-outs of each position on the game engine (throw attempts at
    ``throw_rate``), ``per`` from each."""
    rng = random.Random(seed)
    for st0 in positions:
        for _ in range(per):
            st = st0
            while st.phase == "play":
                seat = st.to_act
                assert seat is not None
                st, _ = apply(st, seat, random_action(st, seat, rng, throw_rate))
    return len(positions) * per


def kernel_rollouts(
    kernel: Kernel, positions: list[GameState], per: int, throw_rate: float = 0.0, seed: int = 0
) -> int:
    """Random play-outs of each position on the kernel, ``per`` from each: one kernel
    state per position, copied for each play-out, and the hand's score."""
    rng = random.Random(seed)
    for st in positions:
        ks = kernel.from_table(st)
        for _ in range(per):
            kernel.play_out(ks.copy(), rng=rng, throw_rate=throw_rate)
    return len(positions) * per


def interleaved(runs: dict[str, Callable[[], int]], repeat: int) -> dict[str, list[float]]:
    """Rates (units per CPU second) of each run, ``repeat`` rounds, runs interleaved:
    every round runs each once, in turn."""
    return interleaved_figures({name: _rate_of(fn) for name, fn in runs.items()}, repeat)


def _rate_of(fn: Callable[[], int]) -> Callable[[], float]:
    def rate() -> float:
        t0 = time.process_time()
        units = fn()
        return units / max(time.process_time() - t0, 1e-9)

    return rate


def interleaved_figures(
    runs: dict[str, Callable[[], float | None]], repeat: int
) -> dict[str, list[float]]:
    """The figure each run measures, ``repeat`` rounds, each round running every run once
    in turn (so a change of the machine's load falls on all of them alike); a run that
    measures nothing (None) is left out."""
    out: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, fn in runs.items():
            value = fn()
            if value is not None:
                out[name].append(value)
    return {name: values for name, values in out.items() if values}


def _rate_lines(
    title: str, unit: str, rates: dict[str, list[float]], digits: int = 0
) -> Iterator[str]:
    """One line per engine: the median of its rounds, with their range."""
    runs = "interleaved rounds" if len(rates) > 1 else "rounds"
    for name, rs in rates.items():
        yield (
            f"{title}: {statistics.median(rs):.{digits}f} {unit} [{name}; median of "
            f"{len(rs)} {runs}, range {min(rs):.{digits}f}-{max(rs):.{digits}f}]"
        )


def _engines() -> list[tuple[str, Kernel]]:
    fast = Kernel()
    if fast.is_compiled:
        return [("kernel, compiled", fast), ("kernel, pure Python", Kernel(pure=True))]
    return [("kernel, pure Python (not compiled)", fast)]


ENGINE = "game engine"
"""The game engine as it runs: ``apply`` over ``GameState`` objects (its rules questions
answered by the kernel)."""


def bench_kernel(hands: int = 300, repeat: int = 3) -> Iterator[str]:
    """Full random hands, play phases alone and mid-hand rollouts: the kernel against the
    game engine (``apply``)."""
    engines = _engines()
    for preset in ("shuangsheng", "classic-3deck"):
        n = hands if preset == "shuangsheng" else max(1, hands // 2)
        runs: dict[str, Callable[[], int]] = {
            ENGINE: lambda p=preset, k=n: engine_hands(p, k),  # type: ignore[misc]
        }
        for name, kern in engines:
            runs[name] = lambda p=preset, k=n, e=kern: kernel_hands(e, p, k)  # type: ignore[misc]
        title = f"random full hands/s ({preset}, 1 core, 25% throw leads)"
        yield from _rate_lines(title, "hands/s", interleaved(runs, repeat))
    starts = play_positions("shuangsheng", hands, 0)
    runs = {
        ENGINE: lambda: engine_rollouts(starts, 1, THROW_RATE),
    }
    for name, kern in engines:
        runs[name] = lambda e=kern: kernel_rollouts(e, starts, 1, THROW_RATE)  # type: ignore[misc]
    title = "play phases/s (shuangsheng, 1 core, 25% throw leads, first lead on)"
    yield from _rate_lines(title, "hands/s", interleaved(runs, repeat))
    positions = play_positions("shuangsheng", 20, 12)
    per = max(1, hands // 20)
    runs = {
        ENGINE: lambda: engine_rollouts(positions, max(1, per // 4)),
    }
    for name, kern in engines:
        runs[name] = lambda e=kern: kernel_rollouts(e, positions, per)  # type: ignore[misc]
    title = "rollouts/s (shuangsheng, from mid-hand, random legal plays, scored)"
    yield from _rate_lines(title, "rollouts/s", interleaved(runs, repeat))


def _child_env(pure: bool) -> dict[str, str]:
    """The environment of a measured command: the compiled kernel or (``pure``) the plain
    Python one, and compiled bytecode cached as a user's Python caches it."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["SHENGJI_PURE"] = "1" if pure else "0"
    return env


def _child_cpu(cmd: list[str], pure: bool) -> float:
    """CPU seconds (user and system) of the command ``cmd`` run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, capture_output=True, env=_child_env(pure))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _simulate_cmd(hands: int) -> list[str]:
    cmd = [sys.executable, "-m", "shengji.tools.cli", "simulate", "--preset", "shuangsheng"]
    return [*cmd, "--players", "random,random", "--hands", str(hands), "--workers", "1", "--quiet"]


def simulate_rate(hands: int = 4000, pure: bool = False) -> float:
    """``shengji simulate --preset shuangsheng --players random,random --hands N
    --workers 1 --quiet`` run as a command: hands per CPU-second, start-up included;
    ``pure``: with ``SHENGJI_PURE=1`` (the kernel as plain Python)."""
    return hands / _child_cpu(_simulate_cmd(hands), pure)


def simulate_startup(pure: bool = False) -> float:
    """CPU seconds of ``simulate`` with random players and one hand: its start-up (the
    interpreter, the imports, the tables) and a hand."""
    return _child_cpu(_simulate_cmd(1), pure)


def env_rate(
    steps: int = 20_000, preset: str = "shuangsheng", wrapped: bool = False
) -> float | None:
    """Uniformly random masked steps per CPU-second of the PettingZoo environment:
    ``raw_env``, or (``wrapped``) ``env()`` with PettingZoo's checks (None without the
    ``rl`` extra). A step is ``last()`` (the observation and its mask), an allowed
    action drawn uniformly, and ``step``."""
    try:
        import numpy as np

        from ..env import env, raw_env
    except ImportError:
        return None
    e = env(preset) if wrapped else raw_env(preset)
    draw = random.Random(0).randrange
    done = 0
    t0 = time.process_time()
    while done < steps:
        e.reset(seed=done)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            allowed = np.flatnonzero(obs["action_mask"])
            e.step(int(allowed[draw(len(allowed))]))
            done += 1
            if done >= steps:
                break
    return done / (time.process_time() - t0)


def vector_rate(
    steps: int = 200_000, tables: int = 64, preset: str = "shuangsheng"
) -> float | None:
    """Steps per CPU-second of :class:`~shengji.env.vector.VectorEnv` with ``tables``
    tables, a uniformly random allowed action at each (``VectorEnv.sample``) every call;
    each table's action counts as a step (None without the ``rl`` extra)."""
    try:
        import numpy as np

        from ..env import VectorEnv
    except ImportError:
        return None
    v = VectorEnv(tables, preset)
    v.reset(seed=0)
    rng = np.random.default_rng(0)
    done = 0
    t0 = time.process_time()
    while done < steps:
        v.step(v.sample(rng))
        done += tables
    return done / (time.process_time() - t0)


def measured_in_child(call: str, pure: bool) -> float | None:
    """The figure ``shengji.tools.bench.CALL`` returns, measured in a fresh process on the
    compiled kernel or (``pure``) with ``SHENGJI_PURE=1``."""
    code = f"from shengji.tools.bench import *; print({call})"
    out = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        capture_output=True,
        text=True,
        env=_child_env(pure),
    )
    value = out.stdout.strip().splitlines()[-1]
    return None if value == "None" else float(value)


#: The environment rows (``docs/env.md`` quotes them): title, the call that measures it.
ENV_ROWS = (
    (
        "PettingZoo env() (shuangsheng, with PettingZoo's checks, uniformly random masked actions)",
        "env_rate(20_000, wrapped=True)",
    ),
    ("PettingZoo raw_env (shuangsheng, uniformly random masked actions)", "env_rate(20_000)"),
    ("VectorEnv (shuangsheng, 64 tables, uniformly random masked actions)", "vector_rate()"),
)
ENV_SIX = (
    "PettingZoo raw_env (zhaopengyou, 6 seats, uniformly random masked actions)",
    "env_rate(20_000, 'zhaopengyou')",
)


def bench_programs(repeat: int = 3) -> Iterator[str]:
    """What users run end to end, each figure measured in fresh processes, every round
    running each of them once in turn (compiled and pure alternated): ``simulate`` with
    random players and its start-up, the RL environments (``env()``, ``raw_env``,
    ``VectorEnv``, and 找朋友 at six seats compiled); memory per retained state."""
    paths = [(name, kern.is_compiled) for name, kern in _engines()]
    simulate_startup()  # bytecode cached, as a user's Python has it
    runs: dict[str, Callable[[], float | None]] = {}
    rows: list[tuple[str, str, str, int]] = []  # (title, unit, run key, digits)
    sim = "simulate end to end (shuangsheng, random,random, 4000 hands, 1 worker, with start-up)"
    start = "simulate start-up (random,random, --quiet, one hand, whole process)"
    for name, comp in paths:
        runs[f"{sim}|{name}"] = functools.partial(simulate_rate, 4000, not comp)
        rows.append((sim, "hands per CPU-s", name, 0))
    for name, comp in paths[:1]:
        runs[f"{start}|{name}"] = functools.partial(simulate_startup, not comp)
        rows.append((start, "CPU-s", name, 3))
    for title, call in (*ENV_ROWS, ENV_SIX):
        for name, comp in paths if (title, call) != ENV_SIX else paths[:1]:
            runs[f"{title}|{name}"] = functools.partial(measured_in_child, call, not comp)
            rows.append((title, "steps per CPU-s", name, 0))
    figures = interleaved_figures(runs, repeat)
    done: set[str] = set()
    for title, unit, _name, digits in rows:
        if title in done:
            continue
        done.add(title)
        mine = {k.split("|")[1]: v for k, v in figures.items() if k.split("|")[0] == title}
        if mine:
            yield from _rate_lines(title, unit, mine, digits)
        else:
            yield f"{title}: not measured (install the rl extra)"
    size = state_memory()
    yield f"memory per retained game state (shuangsheng play history): {size / 1024:.2f} KB"


def search_views(n: int = 24, seed: int = 3) -> list[SeatView]:
    """Play decisions of heuristic shuangsheng hands with at least two candidate plays,
    spread over the hands (every fifth play)."""
    opts = load_preset("shuangsheng")
    out: list[SeatView] = []
    hand = 0
    while len(out) < n:
        st = new_match(opts, seed * 1_000_003 + hand)
        hand += 1
        bots = [HeuristicBot(s, hand) for s in range(opts.players)]
        plays = 0
        while st.phase not in ("hand_over", "match_over") and len(out) < n:
            seat = st.to_act
            assert seat is not None
            view = seat_view(st, seat)
            if st.phase == "play":
                plays += 1
                if plays % 5 == 3 and count_legal(st, seat) > 1:
                    out.append(view)
            st, _ = apply(st, seat, bots[seat].act(view))
    return out


def count_legal(st: GameState, seat: int) -> int:
    """How many legal actions ``seat`` has (at most 2 counted)."""
    count = 0
    for _ in legal_actions(st, seat):
        count += 1
        if count > 1:
            break
    return count


def search_rollouts(spec: str, views: list[SeatView]) -> list[int]:
    """Rollouts (each candidate's sampled deals, summed) of the search bot ``spec`` at
    each play decision of ``views``."""
    from ..bots.registry import make_player
    from ..bots.search import SearchBot

    out = []
    for view in views:
        assert view.seat is not None
        bot = make_player(spec, view.seat, 1)
        assert isinstance(bot, SearchBot)
        bot.act(view)
        out.append(sum(e.n for e in bot.evaluations))
    return out


def bench_search(
    specs: tuple[str, ...] = ("search:100ms:random", "search:100ms", "search:1s"),
) -> Iterator[str]:
    """Rollouts per play decision of the search bot at a time budget (wall time: the
    machine's load shows here)."""
    views = search_views()
    for spec in specs:
        counts = sorted(search_rollouts(spec, views))
        yield (
            f"{spec} rollouts per play decision (shuangsheng, {len(counts)} decisions of "
            f"heuristic hands): median {statistics.median(counts):.0f}, "
            f"range {counts[0]}-{counts[-1]}"
        )


def bench_all(hands: int = 300, repeat: int = 3) -> Iterator[str]:
    """Every figure of ``shengji bench``."""
    yield from bench_programs(repeat)
    yield from bench_kernel(hands, repeat)
    yield from bench_rules(repeat)
    yield from bench_search()
    for preset in ("shuangsheng", "classic-3deck"):
        hands_n = 20 if preset == "shuangsheng" else 10
        rates = []
        for _ in range(repeat):
            decisions, spent = heuristic_decisions(preset, hands_n)
            rates.append(decisions / spent)
        title = f"heuristic bot decisions/s ({preset})"
        yield from _rate_lines(title, "decisions/s", {ENGINE: rates})
        mean = 1e3 / statistics.median(rates)
        yield f"heuristic bot mean decision time ({preset}): {mean:.2f} ms"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB elsewhere
    yield f"peak memory: {peak * scale / 2**20:.0f} MiB"


BENCHMARKS = ("all", "rules", "kernel")


#: Where ``--write-docs`` writes each benchmark's figures: (document, block, which lines;
#: None for every line).
DOCS: dict[str, tuple[tuple[str, str, tuple[str, ...] | None], ...]] = {
    "all": (
        ("README.md", "bench-all", None),
        ("docs/kernel.md", "bench-all", None),
        ("docs/env.md", "bench-env", ("PettingZoo ", "VectorEnv ")),
    )
}


def run(what: str, hands: int, repeat: int, write_docs: bool = False) -> int:
    """``shengji bench WHAT``: print the figures one per line; 2 for an unknown name.
    ``write_docs``: also write them into the documents of :data:`DOCS` (run from the
    checkout)."""
    if what not in BENCHMARKS:
        print(f"unknown benchmark {what!r}; available: {', '.join(BENCHMARKS)}", file=sys.stderr)
        return 2
    if what == "rules":
        lines = bench_rules(repeat)
    elif what == "kernel":
        lines = bench_kernel(hands, repeat)
    else:
        lines = bench_all(hands, repeat)
    if write_docs and what not in DOCS:
        print(f"--write-docs: only for {' or '.join(DOCS)}", file=sys.stderr)
        return 2
    printed = []
    for line in lines:
        print(line, flush=True)
        printed.append(line)
    if write_docs:
        from .figures import figures_block, write_figures

        command = f"shengji bench {what} --hands {hands} --repeat {repeat}"
        for doc, block, starts in DOCS[what]:
            chosen = printed if starts is None else [x for x in printed if x.startswith(starts)]
            write_figures(doc, block, figures_block(command, chosen))
            print(f"written into {doc}", flush=True)
    return 0
