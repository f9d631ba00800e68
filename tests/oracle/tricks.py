"""The oracle's trick winner, from the rule book's §5 ("Who wins").

A play may win only when all of its cards are of the led effective suit or all are trumps,
and when they can be grouped into the same units as the lead. Among the plays that may win,
trumps rank above the led suit, then the top of the largest unit decides; ties keep the
earlier play.

A trump pair beats the led pair, and a higher trump pair beats it in turn; two single
trumps never beat a pair (at level 5, spades trump):

>>> from shengji.rules.presets import load_preset as preset
>>> from shengji.rules.trump import TrumpContext as Ctx
>>> spades = Ctx(preset("tuolaji"), level=5, trump="S")
>>> plays = ["H10 H10", "S3 S3", "SA SK", "SA SA"]
>>> trick_winner(spades, [parse_cards(p) for p in plays])
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
    """The winning play's position in ``plays`` (the lead is position 0)."""
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
