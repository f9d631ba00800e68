#!/usr/bin/env python3
"""Write ``tests/data/perft.json``: perft-style regression figures for the rules core.

Each position comes from a seeded deal (its own fixed seeds, independent of
``shengji.tools.bench``): a preset, a level and trump, a lead made by seat 0 (single, pair,
triple, tractor, Titanic or throw), the hand of one follower, and three legal follows.
For each the file records

- ``legal_follows``: ``count_legal_follows(ctx, lead, hand)``,
- ``unit_leads``: ``count_unit_leads(ctx, hand)`` (distinct one-unit leads of the hand),
- ``winner``: ``trick_winner(ctx, plays)`` for the stored four plays.

``tests/test_perft.py`` recomputes every figure. Before writing, this script cross-checks
the counts it can afford to against brute force (every distinct sub-multiset of the hand
tested with ``is_legal_follow``) and against the enumeration of ``legal_follows``.

Usage: ``python scripts/make_perft.py [--out tests/data/perft.json] [--check-only]``
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from helpers import sub_multiset_count  # noqa: E402  (tests/helpers.py)
from shengji.rules.cards import Card, deck, format_cards  # noqa: E402
from shengji.rules.follow import (  # noqa: E402
    count_legal_follows,
    is_legal_follow,
    legal_follows,
    random_legal_follow,
)
from shengji.rules.leads import count_unit_leads, unit_leads  # noqa: E402
from shengji.rules.presets import load_preset  # noqa: E402
from shengji.rules.tricks import trick_winner  # noqa: E402
from shengji.rules.trump import TrumpContext, trump_text  # noqa: E402
from shengji.rules.units import classify_lead  # noqa: E402

#: (preset, lead kinds of its positions in order). "void": a lead of 4 or more cards in a
#: suit that one of the other seats does not hold, and that seat as the follower;
#: "big-void": a lead of 6 or more cards and a follower made void in its suit.
PLAN: list[tuple[str, list[str]]] = [
    (
        "shuangsheng",
        ["single", "pair", "tractor", "throw", "long-tractor", "throw", "big-void", "void"],
    ),
    ("shuangkou", ["single", "pair", "tractor", "throw", "long-tractor", "throw", "pair", "void"]),
    (
        "classic-3deck",
        ["single", "pair", "triple", "long-tractor", "titanic", "throw", "big-void", "void"],
    ),
    ("tuolaji", ["single", "pair", "tractor", "throw", "long-tractor", "throw", "void", "void"]),
    ("classic-1deck", ["single", "throw", "single", "throw", "single", "throw", "throw", "void"]),
]

BRUTE_FORCE_LIMIT = 60_000  # distinct sub-multisets checked one by one
ENUMERATION_LIMIT = 200_000  # follows listed to compare with the count


def kind_of(ctx: TrumpContext, lead: Sequence[Card]) -> str:
    ld = classify_lead(ctx, lead)
    if ld.kind == "tractor" and ld.units[0].width == 3:
        return "titanic"
    return ld.kind


def make_throw(
    ctx: TrumpContext, hand: Sequence[Card], rng: random.Random
) -> tuple[Card, ...] | None:
    """A multi-unit set of one effective suit from ``hand``, favouring pairs."""
    by_suit: dict[int, Counter[Card]] = {}
    for c in hand:
        by_suit.setdefault(ctx.suit_of[c.index], Counter())[c] += 1
    suits = sorted(s for s, cs in by_suit.items() if sum(cs.values()) >= 3)
    rng.shuffle(suits)
    for s in suits:
        counts = by_suit[s]
        for _ in range(20):
            chosen: list[Card] = []
            for c in sorted(counts, key=lambda c: c.index):
                if rng.random() < 0.5:
                    chosen.extend([c] * (counts[c] if rng.random() < 0.7 else 1))
            chosen = chosen[: rng.choice([4, 6, 8])]
            if len(chosen) >= 3 and len(classify_lead(ctx, chosen).units) >= 2:
                return tuple(chosen)
    return None


def make_lead(
    ctx: TrumpContext, hand: Sequence[Card], kind: str, rng: random.Random
) -> tuple[Card, ...] | None:
    if kind == "throw":
        return make_throw(ctx, hand, rng)
    if kind == "long-tractor":  # three links or more
        leads = [ld for ld in unit_leads(ctx, hand) if kind_of(ctx, ld) == "tractor"]
        leads = [ld for ld in leads if classify_lead(ctx, ld).units[0].links >= 3]
        return rng.choice(leads) if leads else None
    leads = [ld for ld in unit_leads(ctx, hand) if kind_of(ctx, ld) == kind]
    if kind in ("tractor", "titanic") and leads:
        longest = max(len(ld) for ld in leads)
        leads = [ld for ld in leads if len(ld) >= longest - 2]  # favour long tractors
    return rng.choice(leads) if leads else None


def make_void_lead(
    ctx: TrumpContext, hands: Sequence[Sequence[Card]], rng: random.Random, most: int
) -> tuple[tuple[Card, ...], int] | None:
    """A lead of 4+ cards by seat 0 and a seat that holds at most ``most`` cards of its
    suit (the fewest found), or None."""
    candidates = [ld for ld in unit_leads(ctx, hands[0]) if len(ld) >= 4]
    for _ in range(5):
        throw = make_throw(ctx, hands[0], rng)
        if throw is not None and len(throw) >= 4:
            candidates.append(throw)
    best: tuple[int, tuple[Card, ...], int] | None = None
    for lead in candidates:
        suit = ctx.suit_of[lead[0].index]
        for seat in (1, 2, 3):
            held = sum(ctx.suit_of[c.index] == suit for c in hands[seat])
            if held <= most and (best is None or (held, -len(lead)) < (best[0], -len(best[1]))):
                best = (held, lead, seat)
    return None if best is None else (best[1], best[2])


def make_big_void(
    ctx: TrumpContext, hands: list[tuple[Card, ...]], rng: random.Random
) -> tuple[tuple[Card, ...], int] | None:
    """A lead of 6+ cards by seat 0, with seat 1 made void in its suit: seat 1's cards of
    that suit are swapped with other cards of seats 2 and 3 (still a full, legal deal)."""
    leads = [ld for ld in unit_leads(ctx, hands[0]) if len(ld) >= 6]
    for _ in range(10):
        throw = make_throw(ctx, hands[0], rng)
        if throw is not None and len(throw) >= 6:
            leads.append(throw)
    if not leads:
        return None
    lead = rng.choice(leads)
    suit = ctx.suit_of[lead[0].index]
    h1, h2, h3 = (list(h) for h in hands[1:])
    others = [(h, i) for h in (h2, h3) for i, c in enumerate(h) if ctx.suit_of[c.index] != suit]
    rng.shuffle(others)
    for i, c in enumerate(h1):
        if ctx.suit_of[c.index] == suit:
            if not others:
                return None
            h, j = others.pop()
            h1[i], h[j] = h[j], c
    hands[1:] = [tuple(h1), tuple(h2), tuple(h3)]
    return lead, 1


def brute_force_count(ctx: TrumpContext, lead: Sequence[Card], hand: Sequence[Card]) -> int:
    """Legal follows counted one distinct sub-multiset at a time."""
    keys = {tuple(sorted(c.index for c in combo)) for combo in combinations(hand, len(lead))}
    by_index = {c.index: c for c in hand}
    return sum(is_legal_follow(ctx, lead, hand, [by_index[i] for i in k]) for k in keys)


def position(preset: str, index: int, kind: str) -> dict[str, Any]:
    rng = random.Random(f"perft/{preset}/{index}/{kind}")
    opts = load_preset(preset)
    for _attempt in range(3000 if kind == "long-tractor" else 300):
        cards = deck(opts.decks)
        rng.shuffle(cards)
        n = opts.hand_size
        hands = [tuple(cards[i * n : (i + 1) * n]) for i in range(4)]
        level = rng.randrange(2, 15)
        trump = rng.choice(["S", "H", "C", "D", "NT"])
        ctx = TrumpContext(opts, level, trump)
        seat = 1
        if kind in ("void", "big-void"):
            found = (
                make_big_void(ctx, hands, rng)
                if kind == "big-void"
                else make_void_lead(ctx, hands, rng, 0 if _attempt < 100 else 2)
            )
            if found is None:
                continue
            lead, seat = found
        else:
            made = make_lead(ctx, hands[0], kind, rng)
            if made is None:
                continue
            lead = made
        plays = [lead] + [
            tuple(ctx.sorted(random_legal_follow(ctx, lead, hands[s], rng))) for s in (1, 2, 3)
        ]
        hand = ctx.sorted(hands[seat])
        return {
            "id": f"{preset}-{index}-{kind}",
            "preset": preset,
            "level": str(level) if level <= 10 else "JQKA"[level - 11],
            "trump": trump_text(ctx.trump),
            "kind": kind_of(ctx, lead),
            "lead": format_cards(lead),
            "follower_seat": seat,
            "hand": format_cards(hand),
            "plays": [format_cards(p) for p in plays],
            "legal_follows": count_legal_follows(ctx, lead, hand),
            "unit_leads": count_unit_leads(ctx, hand),
            "winner": trick_winner(ctx, plays),
        }
    raise RuntimeError(f"no {kind} lead found for {preset} #{index}")


def check(pos: dict[str, Any], ctx: TrumpContext) -> list[str]:
    """Independent cross-checks of one position's figures (where affordable)."""
    from shengji.rules.cards import parse_cards

    lead, hand = parse_cards(pos["lead"]), parse_cards(pos["hand"])
    count = pos["legal_follows"]
    notes = []
    if count <= ENUMERATION_LIMIT:
        listed = {tuple(sorted(c.index for c in p)) for p in legal_follows(ctx, lead, hand)}
        if len(listed) != count:
            notes.append(f"enumeration gives {len(listed)}, count {count}")
    if sub_multiset_count(hand, len(lead)) <= BRUTE_FORCE_LIMIT:
        brute = brute_force_count(ctx, lead, hand)
        if brute != count:
            notes.append(f"brute force gives {brute}, count {count}")
    suit = ctx.suit_of[lead[0].index]
    if not any(ctx.suit_of[c.index] == suit for c in hand):
        void = sub_multiset_count(hand, len(lead))
        if void != count:
            notes.append(f"void hand: {void} sub-multisets, count {count}")
    leads = list(unit_leads(ctx, hand))
    if len({tuple(sorted(c.index for c in ld)) for ld in leads}) != pos["unit_leads"]:
        notes.append("unit_leads repeats a lead")
    return notes


def build() -> list[dict[str, Any]]:
    out = []
    for preset, kinds in PLAN:
        for i, kind in enumerate(kinds):
            out.append(position(preset, i, kind))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "tests" / "data" / "perft.json"))
    ap.add_argument("--check-only", action="store_true", help="build and check, write nothing")
    args = ap.parse_args(argv)
    positions = build()
    bad = 0
    for pos in positions:
        ctx = TrumpContext(load_preset(pos["preset"]), pos["level"], pos["trump"])
        notes = check(pos, ctx)
        brute = sub_multiset_count(pos["hand"].split(), len(pos["lead"].split())) <= (
            BRUTE_FORCE_LIMIT
        )
        print(
            f"{pos['id']:28} {pos['kind']:8} lead {len(pos['lead'].split()):2} "
            f"follows {pos['legal_follows']:>10}{' (brute-forced)' if brute else ' ' * 15} "
            f"leads {pos['unit_leads']:>4} winner {pos['winner']} (the engine's answer)"
        )
        for note in notes:
            bad += 1
            print(f"  MISMATCH: {note}")
    if bad:
        print(f"{bad} mismatches: not writing", file=sys.stderr)
        return 1
    if not args.check_only:
        doc = {
            "about": "perft-style regression figures; regenerate with scripts/make_perft.py",
            "positions": positions,
        }
        path = Path(args.out)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(doc, ensure_ascii=False, indent=1)
        path.write_text(text + "\n", encoding="utf-8")
        print(f"wrote {len(positions)} positions to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
