"""Throws (甩牌, §4): validity against the other hands, the forced unit and the penalty.

>>> from shengji.rules.presets import load_preset
>>> from shengji.rules.trump import TrumpContext
>>> ctx = TrumpContext(load_preset("tuolaji"), level=2, trump="H")
>>> r = check_throw(ctx, parse_cards("S9 S8 S8 S4 S4"),
...                 [parse_cards("S3 D5"), parse_cards("SQ SQ"), parse_cards("S6 C4")])
>>> r.valid, r.played
(False, (S4, S4))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from shengji.rules.cards import Card, parse_cards  # noqa: F401  (parse_cards is used by doctests)
from shengji.rules.options import RuleOptions
from shengji.rules.throws import ThrowResult  # the data type
from shengji.rules.trump import TrumpContext

from .units import Lead, Unit, classify_lead, placements


def beats_unit(ctx: TrumpContext, unit: Unit, hand: Sequence[Card]) -> bool:
    """True if ``hand`` holds, in the unit's suit, the same shape ranking strictly higher
    (a longer or wider unit counts through the part of it that has the shape)."""
    suit_of = ctx.suit_of
    counts = dict(Counter(c for c in hand if suit_of[c.index] == unit.suit))
    strength = ctx.strength
    for taken in placements(ctx, counts, unit.shape):
        return strength[taken[0].index] > unit.top  # placements come highest top first
    return False


def throw_penalty_points(options: RuleOptions, beaten: Sequence[Unit]) -> int:
    """Points a failed throw costs its side (positive), by ``throw_penalty``."""
    mode = options.throw_penalty
    if mode == "per_card":
        # 10 per card beaten by a single, 20 by a pair, 20k by a k-link tractor: 10*w*k
        return sum(len(u.cards) * 10 * u.width * u.links for u in beaten)
    if mode == "flat_per_card":
        return sum(10 * len(u.cards) for u in beaten)
    if mode == "per_attempt":
        return 10
    return 0


def check_throw(
    ctx: TrumpContext,
    lead: Sequence[Card] | Lead,
    others: Sequence[Sequence[Card]],
    thrower_is_banker_side: bool = False,
) -> ThrowResult:
    """Check a lead against the other three hands (next player first).

    A single-unit lead is always valid. A failed throw plays the beaten unit of the highest
    priority kind (longer tractor > shorter tractor > triple > pair > single), the lowest
    of them; with ``throw_forced = single``, one card: the lowest card of the beaten unit
    with the lowest top; with ``smallest``, the beaten unit of the fewest cards, the
    lowest of them.
    """
    ld = lead if isinstance(lead, Lead) else classify_lead(ctx, lead)
    if len(ld.units) == 1:
        return ThrowResult(True, ld.cards, (), 0, False)
    beaten: list[tuple[Unit, int]] = []
    for unit in ld.units:
        for i, hand in enumerate(others, start=1):
            if beats_unit(ctx, unit, hand):
                beaten.append((unit, i))
                break
    if not beaten:
        return ThrowResult(True, ld.cards, (), 0, False)
    tiebreak = ctx.tiebreak
    mode = ctx.options.throw_forced
    single = mode == "single"

    def order(u: Unit) -> tuple[int, ...]:
        if single:  # one card: the lowest card of the beaten unit with the lowest top
            return (u.top, tiebreak[u.cards[-1].index])
        if mode == "smallest":  # the fewest cards, then the lowest top
            return (len(u.cards), u.top, tiebreak[u.cards[0].index])
        return (-u.links, -u.width, u.top, tiebreak[u.cards[0].index])

    forced = min((u for u, _ in beaten), key=order)
    played = forced.cards[-1:] if single else forced.cards
    pts = throw_penalty_points(ctx.options, [u for u, _ in beaten])
    signed = pts if thrower_is_banker_side else -pts
    return ThrowResult(False, played, tuple(beaten), signed, ctx.options.throw_penalty == "stake")
