"""Throws (甩牌, §4): validity against the other hands, the forced unit and the penalty,
answered by the kernel.

>>> from shengji.rules.presets import load_preset
>>> from shengji.rules.trump import TrumpContext
>>> ctx = TrumpContext(load_preset("tuolaji"), level=2, trump="H")
>>> r = check_throw(ctx, parse_cards("S9 S8 S8 S4 S4"),
...                 [parse_cards("S3 D5"), parse_cards("SQ SQ"), parse_cards("S6 C4")])
>>> r.valid, r.played
(False, (S4, S4))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..kernel import access
from .cards import ALL_CARDS, Card, parse_cards  # noqa: F401  (parse_cards: doctests)
from .options import RuleOptions
from .trump import TrumpContext
from .units import Lead, Unit, classify_lead, kernel_unit


@dataclass(frozen=True, slots=True)
class ThrowResult:
    """Outcome of a lead: ``valid``; ``played`` (the whole lead, or the forced unit);
    ``beaten`` units with, for each, the index (1..3) of the first hand that beats it;
    ``penalty`` as a signed change to the collectors' points; ``stake`` True when the
    penalty is paid in coins instead (``throw_penalty = stake``)."""

    valid: bool
    played: tuple[Card, ...]
    beaten: tuple[tuple[Unit, int], ...]
    penalty: int
    stake: bool


def beats_unit(ctx: TrumpContext, unit: Unit, hand: Sequence[Card]) -> bool:
    """True if ``hand`` holds, in the unit's suit, the same shape ranking strictly higher
    (a longer or wider unit counts through the part of it that has the shape)."""
    core = access.core()
    return bool(core.beats_unit(access.tables(ctx), kernel_unit(unit), access.counts(hand)))


def throw_penalty_points(options: RuleOptions, beaten: Sequence[Unit]) -> int:
    """Points a failed throw costs its side (positive), by ``throw_penalty``."""
    units = [kernel_unit(u) for u in beaten]
    return int(access.core().throw_penalty_points(access.PENALTY[options.throw_penalty], units))


def check_throw(
    ctx: TrumpContext,
    lead: Sequence[Card] | Lead,
    others: Sequence[Sequence[Card]],
    thrower_is_banker_side: bool = False,
) -> ThrowResult:
    """Check a lead against the other hands (next player first).

    A single-unit lead is always valid. A failed throw plays the beaten unit of the highest
    priority kind (longer tractor > shorter tractor > triple > pair > single), the lowest
    of them; with ``throw_forced = single``, one card: the lowest card of the beaten unit
    with the lowest top.
    """
    ld = lead if isinstance(lead, Lead) else classify_lead(ctx, lead)
    if len(ld.units) == 1:
        return ThrowResult(True, ld.cards, (), 0, False)
    core, t = access.core(), access.tables(ctx)
    units = core.lead_units(t, access.ints(ld.cards))
    res = core.check_throw(t, units, [access.counts(h) for h in others], thrower_is_banker_side)
    if res is None:
        return ThrowResult(True, ld.cards, (), 0, False)
    beaten = tuple((ld.units[j], by) for j, by in zip(res.beaten, res.by, strict=True))
    played = tuple(ALL_CARDS[c] for c in res.played)
    stake = ctx.options.throw_penalty == "stake"
    return ThrowResult(False, played, beaten, res.penalty, stake)
