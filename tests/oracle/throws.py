"""The oracle's throws (甩牌), from §4: whether each unit of a throw stands against the
other three hands, which unit a failed throw must play, and what it costs.

A throw of the spade ace and a queen pair fails when another hand holds a king pair:
the queen pair is played alone.

>>> from shengji.rules.presets import load_preset as preset
>>> from shengji.rules.trump import TrumpContext as Ctx
>>> hearts = Ctx(preset("tuolaji"), level=2, trump="H")
>>> hands = [parse_cards(h) for h in ("C4", "SK SK D3", "H5")]
>>> verdict = check_throw(hearts, parse_cards("SA SQ SQ"), hands)
>>> verdict.valid, verdict.played, [by for _, by in verdict.beaten]
(False, (SQ, SQ), [2])
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
    """Whether ``hand`` can show a unit of the same shape in the same effective suit whose
    top is strictly higher (a part of a longer or wider unit will do)."""
    suit_of = ctx.suit_of
    counts = dict(Counter(c for c in hand if suit_of[c.index] == unit.suit))
    strength = ctx.strength
    for taken in placements(ctx, counts, unit.shape):
        return strength[taken[0].index] > unit.top  # placements come highest top first
    return False


def throw_penalty_points(options: RuleOptions, beaten: Sequence[Unit]) -> int:
    """The penalty's size in points (always >= 0) under the ``throw_penalty`` option."""
    mode = options.throw_penalty
    if mode == "per_card":
        # 10 per card beaten by a single, 20 by a pair, 20k by a k-link tractor: 10*w*k
        return sum(len(u.cards) * 10 * u.width * u.links for u in beaten)
    if mode == "flat_per_card":
        return sum(10 * len(u.cards) for u in beaten)
    if mode == "per_attempt":
        return 10
    return 0


Cards = Sequence[Card]


def check_throw(
    ctx: TrumpContext,
    lead: Cards | Lead,
    others: Sequence[Cards],
    thrower_is_banker_side: bool = False,
) -> ThrowResult:
    """The oracle's verdict on a lead; ``others`` are the other hands in turn order.

    One unit always stands. Otherwise every unit is tried against each other hand; when
    any is beaten, the thrower plays one of the beaten units: by default the kind ranked
    highest (longer tractor, shorter tractor, triple, pair, single) and the lowest unit of
    that kind; ``throw_forced = single`` plays one card, the last of the beaten unit with
    the lowest top; ``smallest`` the beaten unit with the fewest cards, lowest first.
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
