"""Who wins a trick (§5).

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

from shengji.errors import Code, PlayError
from shengji.rules.cards import Card, parse_cards  # noqa: F401  (parse_cards is used by doctests)
from shengji.rules.trump import TRUMP, TrumpContext

from .units import Lead, best_top, classify_lead, effective_suit_of


def play_rank(ctx: TrumpContext, lead: Lead, play: Sequence[Card]) -> tuple[int, int] | None:
    """``(is_trump, top)`` of a play that can win against ``lead``, else None."""
    suit = effective_suit_of(ctx, play)
    if suit is None or (suit != lead.suit and suit != TRUMP):
        return None
    top = best_top(ctx, play, lead.shapes)
    if top is None:
        return None
    return (1 if suit == TRUMP else 0, top)


def _single_winner(ctx: TrumpContext, x: int, plays: Sequence[Sequence[Card]]) -> int:
    """Fast path of :func:`trick_winner` for one-card tricks."""
    suit_of, key = ctx.suit_of, ctx.key
    best, best_key = 0, key[plays[0][0].index]
    for i in range(1, len(plays)):
        if len(plays[i]) != 1:
            raise PlayError(
                f"play {i} has {len(plays[i])} card(s), the lead 1", code=Code.WRONG_CARD_COUNT
            )
        c = plays[i][0]
        s = suit_of[c.index]
        if s in (x, TRUMP) and key[c.index] > best_key:
            best, best_key = i, key[c.index]
    return best


def trick_winner(
    ctx: TrumpContext, plays: Sequence[Sequence[Card]], lead: Lead | None = None
) -> int:
    """Index (0 = leader) of the play that wins; ``plays`` in play order, leader first."""
    if not plays or not plays[0]:
        raise PlayError("a trick needs a lead", code=Code.EMPTY_PLAY)
    ld = lead or classify_lead(ctx, plays[0])
    n = len(ld.cards)
    if n == 1:
        return _single_winner(ctx, ld.suit, plays)
    best = 0
    best_rank = play_rank(ctx, ld, ld.cards)
    for i in range(1, len(plays)):
        if len(plays[i]) != n:
            raise PlayError(
                f"play {i} has {len(plays[i])} card(s), the lead {n}", code=Code.WRONG_CARD_COUNT
            )
        r = play_rank(ctx, ld, plays[i])
        if r is not None and (best_rank is None or r > best_rank):
            best, best_rank = i, r
    return best
