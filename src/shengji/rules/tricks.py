"""Who wins a trick (§5), answered by the kernel.

Only a play entirely in the led suit or entirely trump can win, and only if its cards group
into the lead's units; it is then compared by the top of its largest unit. A trump play
beats any side-suit play; a later equal play never beats an earlier one.

>>> from shengji.rules.presets import load_preset
>>> from shengji.rules.trump import TrumpContext
>>> ctx = TrumpContext(load_preset("tuolaji"), level=2, trump="H")
>>> trick_winner(ctx, [parse_cards("SA"), parse_cards("H3"), parse_cards("SK"), parse_cards("H4")])
3
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import Code, PlayError
from ..kernel import access
from .cards import Card, parse_cards  # noqa: F401  (parse_cards is used by doctests)
from .trump import TrumpContext
from .units import Lead


def trick_winner(
    ctx: TrumpContext, plays: Sequence[Sequence[Card]], lead: Lead | None = None
) -> int:
    """Index (0 = leader) of the play that wins; ``plays`` in play order, leader first
    (``lead``, when given, is the classified first play)."""
    if not plays or not plays[0]:
        raise PlayError("a trick needs a lead", code=Code.EMPTY_PLAY)
    core, t = access.core(), access.tables(ctx)
    ints = [access.ints(p) for p in plays]
    units = core.lead_units(t, ints[0] if lead is None else access.ints(lead.cards))
    if not units:
        raise PlayError("cards of several effective suits do not form units", code=Code.MIXED_SUITS)
    n = len(ints[0])
    for i in range(1, len(plays)):
        if len(plays[i]) != n:
            raise PlayError(
                f"play {i} has {len(plays[i])} card(s), the lead {n}", code=Code.WRONG_CARD_COUNT
            )
    return int(core.trick_winner(t, units, ints))
