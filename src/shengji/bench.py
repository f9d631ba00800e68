"""``shengji bench rules``: time legal-follow enumeration and trick-winner calls on a fixed
set of positions (figures to read, not a test)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

from .cards import Card, deck
from .follow import count_legal_follows, legal_follows, random_legal_follow
from .leads import unit_leads
from .presets import load_preset
from .tricks import trick_winner
from .trump import TrumpContext

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
    best = float("inf")
    calls = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        calls = fn()
        best = min(best, time.perf_counter() - t0)
    return best, calls


def bench_rules(repeat: int = 3) -> Iterator[str]:
    """Lines ``name: value unit`` for the rules-core hot paths."""
    for preset in ("shuangsheng", "classic-3deck"):
        positions = fixed_positions(preset)

        def enum_all(ps: list[Position] = positions) -> int:
            for ctx, lead, hand in ps:
                for _ in legal_follows(ctx, lead, hand):
                    pass
            return len(ps)

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
