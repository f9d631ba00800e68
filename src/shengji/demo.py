"""A short text demo of the rules core: a preset's options, a dealt hand sorted in trump
order, the leads it can make and a sample trick (the game flow replaces this later)."""

from __future__ import annotations

import random

from .cards import deck, format_cards
from .follow import count_legal_follows, random_legal_follow
from .leads import unit_leads
from .options import RuleOptions
from .tricks import trick_winner
from .trump import TrumpContext
from .units import classify_lead


def run_demo(opts: RuleOptions, seed: int = 1) -> str:
    """Deal one hand with ``seed`` and show what the rules core says about it."""
    rng = random.Random(seed)
    cards = deck(opts.decks)
    rng.shuffle(cards)
    n = opts.hand_size
    hands = [cards[i * n : (i + 1) * n] for i in range(4)]
    level = opts.start_level
    trump = rng.choice(["S", "H", "C", "D", "NT"])
    ctx = TrumpContext(opts, level, trump)
    out = [f"{ctx!r}", f"kitty: {format_cards(cards[4 * n :])}", ""]
    for seat, hand in enumerate(hands):
        out.append(f"seat {seat}: {format_cards(ctx.sorted(hand))}")
    leads = list(unit_leads(ctx, hands[0]))
    structured = [ld for ld in leads if len(ld) > 1]
    out.append("")
    out.append(f"seat 0 can lead {len(leads)} one-unit leads; those with structure:")
    for ld in structured[:8]:
        k = classify_lead(ctx, ld)
        out.append(f"  {format_cards(ld):24} {k.kind:8} {' + '.join(k.codes)}")
    lead = structured[0] if structured else leads[0]
    plays = [lead]
    out.append("")
    out.append(f"a trick led by seat 0 with {format_cards(lead)}:")
    for seat in (1, 2, 3):
        cnt = count_legal_follows(ctx, lead, hands[seat])
        play = random_legal_follow(ctx, lead, hands[seat], rng)
        plays.append(play)
        out.append(f"  seat {seat}: {format_cards(ctx.sorted(play)):24} ({cnt} legal follows)")
    out.append(f"  winner: seat {trick_winner(ctx, plays)}")
    return "\n".join(out)
