"""``shengji bench``: speed and memory figures, one per line as ``name: value unit``.

Benchmarks print figures; they are not tests. ``rules`` times the rules core on fixed
positions; ``all`` (the default) adds full random hands, legal-follow enumerations and
heuristic-bot decisions per second, and peak memory.
"""

from __future__ import annotations

import random
import resource
import sys
import time
from collections.abc import Callable, Iterator

from .bots.heuristic import HeuristicBot
from .bots.random_bot import random_action
from .cards import Card, deck
from .follow import count_legal_follows, legal_follows, random_legal_follow
from .game import apply, new_match
from .leads import unit_leads
from .presets import load_preset
from .tricks import trick_winner
from .trump import TrumpContext
from .views import seat_view

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


def random_hands(preset: str, n: int, seed: int = 0) -> int:
    """Play ``n`` full hands (shuffle, deal, declare, kitty, tricks with throws, scoring)
    with a uniformly random legal action at every turn; returns ``n``."""
    opts = load_preset(preset)
    rng = random.Random(seed)
    for i in range(n):
        st = new_match(opts, seed * 1_000_003 + i)
        while st.phase not in ("hand_over", "match_over"):
            seat = st.to_act
            assert seat is not None
            st, _ = apply(st, seat, random_action(st, seat, rng))
    return n


def heuristic_decisions(preset: str, hands: int, seed: int = 0) -> tuple[int, float]:
    """Play ``hands`` hands with four heuristic bots; (decisions, seconds spent deciding)."""
    opts = load_preset(preset)
    decisions, spent = 0, 0.0
    for i in range(hands):
        bots = [HeuristicBot(s, seed + i) for s in range(4)]
        st = new_match(opts, seed * 1_000_003 + i)
        while st.phase not in ("hand_over", "match_over"):
            seat = st.to_act
            assert seat is not None
            view = seat_view(st, seat)
            t0 = time.perf_counter()
            action = bots[seat].act(view)
            spent += time.perf_counter() - t0
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


def bench_all(hands: int = 300, repeat: int = 3) -> Iterator[str]:
    """Every figure of ``shengji bench``."""
    for preset in ("shuangsheng", "classic-3deck"):
        n = hands if preset == "shuangsheng" else max(1, hands // 2)
        secs, done = _best(lambda p=preset, k=n: random_hands(p, k), repeat)  # type: ignore[misc]
        yield f"random full hands/s ({preset}, 1 core): {done / secs:.0f} hands/s"
    yield from bench_rules(repeat)
    for preset in ("shuangsheng", "classic-3deck"):
        decisions, spent = heuristic_decisions(preset, 20 if preset == "shuangsheng" else 10)
        yield f"heuristic bot decisions/s ({preset}): {decisions / spent:.0f} decisions/s"
        yield f"heuristic bot mean decision time ({preset}): {spent / decisions * 1e3:.2f} ms"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB elsewhere
    yield f"peak memory: {peak * scale / 2**20:.0f} MiB"
