"""Following (跟牌, §5), answered by the kernel: legality (with the reason worded for
people), the legal follows of a hand, their count and a uniform random legal follow.

The format rule is expressed as an ordered list of *requirements* per lead unit, from the
strictest to none (a 2-link Titanic: Titanic > two triples > tractor > triple + pair >
triple > two pairs > pair > nothing). The follower's requirement is, unit by unit (largest
first), the first one that its cards of the led suit can meet together with the units
before it; a legal follow meets the same requirement.

>>> from shengji.rules.presets import load_preset
>>> from shengji.rules.trump import TrumpContext
>>> ctx = TrumpContext(load_preset("shuangsheng"), level=2, trump="H")
>>> lead, hand = parse_cards("S9 S9 S10 S10"), parse_cards("SK SK S5 S5 S3 H4 D7 C8")
>>> is_legal_follow(ctx, lead, hand, parse_cards("SK SK S5 S5"))
True
>>> check_follow(ctx, lead, hand, parse_cards("SK SK S5 S3"))
Traceback (most recent call last):
...
shengji.errors.PlayError: MUST_FOLLOW_FORMAT: you hold 2 pairs in spades and must play them
>>> count_legal_follows(ctx, lead, hand)
1
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from ..errors import Code, PlayError
from ..kernel import access
from .cards import ALL_CARDS, Card, parse_cards  # noqa: F401  (parse_cards: doctests)
from .trump import TrumpContext
from .units import Lead, Shape, classify_lead, shape_name


def unit_requirements(shape: Shape, shorter: bool = False) -> list[list[Shape]]:
    """Requirements for following one lead unit, strictest first, ending with ``[]``.

    A k-link unit of width w: the unit itself; then its k links apart; then (for width
    >= 3) the k-link unit one narrower; then every list of k tuples of width <= w, best
    first (two triples > triple + pair > triple > two pairs > pair > none).
    ``shorter`` (``follow_shorter_tractor``): before each list with m tuples of width w,
    the same with a j-link tractor of width w in place of j of them (j from min(m, k-1)
    down to 2).
    """
    k, w = shape
    return [list(req) for req in access.core().unit_requirements(k, w, shorter)]


def follow_requirement(ctx: TrumpContext, lead: Lead, suit_cards: Sequence[Card]) -> list[Shape]:
    """The shapes a follower holding ``suit_cards`` (its cards of the led suit, at least as
    many as were led) must play, per the rule above."""
    core, t = access.core(), access.tables(ctx)
    cnt = access.counts(suit_cards)
    distinct = sorted({c.index for c in suit_cards})
    units = core.lead_units(t, access.ints(lead.cards))
    return list(core.follow_requirement(t, units, cnt, distinct))


# -- the reasons a follow is refused, in words ------------------------------------------


def wrong_count_error(need: int, got: int) -> PlayError:
    """WRONG_CARD_COUNT: a follow of ``got`` cards to a lead of ``need``."""
    one = "1 card" if need == 1 else f"{need} cards"
    return PlayError(
        f"the lead has {one}; a follow must have {need}, not {got}",
        code=Code.WRONG_CARD_COUNT,
        params={"need": need, "got": got, "kind": "follow"},
    )


def not_in_hand_error(missing: Sequence[Card]) -> PlayError:
    """CARDS_NOT_IN_HAND naming only the cards the hand lacks."""
    text = " ".join(c.text for c in missing)
    return PlayError(
        f"not in your hand: {text}", code=Code.CARDS_NOT_IN_HAND, params={"cards": text}
    )


def must_follow_suit_error(name: str, held: int, need: int) -> PlayError:
    """MUST_FOLLOW_SUIT: ``held`` cards of the led suit ``name`` (a letter or ``trump``)
    against a lead of ``need`` cards."""
    word = suit_word(name)
    one = word[:-1]
    if held >= need:
        if need == 1:
            msg = f"you hold {held} {word if held > 1 else one}; the card played must be a {one}"
        else:
            what = "both" if need == 2 else f"all {need}"
            msg = f"you hold {held} {word}; {what} cards played must be {word}"
    else:
        msg = (
            f"you must play all {held} of your {word} before other cards"
            if held > 1
            else f"you must play your {one} before other cards"
        )
    return PlayError(
        msg, code=Code.MUST_FOLLOW_SUIT, params={"suit": name, "held": held, "need": need}
    )


def must_follow_format_error(name: str, req: list[Shape], pair_lead: bool = False) -> PlayError:
    """MUST_FOLLOW_FORMAT: the follower holds the shapes ``req`` in the led suit (to a
    lead of one pair: "a pair ... and must play it")."""
    parts = Counter(req)
    words = []
    for shape, n in sorted(parts.items(), reverse=True):
        nm = shape_name(shape)
        words.append(f"{n} {nm}s" if n > 1 else f"a {nm}")
    required = [
        {"shape": shape_name(shape), "links": shape[0], "width": shape[1], "count": n}
        for shape, n in sorted(parts.items(), reverse=True)
    ]
    it = "it" if pair_lead else "them"
    return PlayError(
        f"you hold {' and '.join(words)} in {suit_word(name)} and must play {it}",
        code=Code.MUST_FOLLOW_FORMAT,
        params={"suit": name, "required": required},
    )


def suit_word(name: str) -> str:
    """``spades`` ... ``trumps`` for a suit letter or ``trump``."""
    return {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds", "trump": "trumps"}.get(
        name, name
    )


# -- legality -----------------------------------------------------------------------------


def _as_lead(ctx: TrumpContext, lead: Sequence[Card] | Lead) -> Lead:
    return lead if isinstance(lead, Lead) else classify_lead(ctx, lead)


def _kernel_lead(ctx: TrumpContext, lead: Sequence[Card] | Lead) -> tuple[Any, Any, int]:
    """The tables, the kernel units of the lead and its size."""
    core, t = access.core(), access.tables(ctx)
    cards = lead.cards if isinstance(lead, Lead) else tuple(lead)
    units = core.lead_units(t, access.ints(cards))
    if not units:
        classify_lead(ctx, cards)  # raises the lead's own error
    return t, units, len(cards)


def check_follow(
    ctx: TrumpContext, lead: Sequence[Card] | Lead, hand: Sequence[Card], play: Sequence[Card]
) -> None:
    """Raise :class:`~shengji.errors.PlayError` if ``play`` is not a legal follow from
    ``hand`` (which includes the play) to ``lead``; codes ``WRONG_CARD_COUNT``,
    ``CARDS_NOT_IN_HAND``, ``MUST_FOLLOW_SUIT``, ``MUST_FOLLOW_FORMAT``."""
    core = access.core()
    t, units, n = _kernel_lead(ctx, lead)
    fault = core.follow_fault(t, units, n, access.counts(hand), access.ints(play))
    why = fault[0]
    if why == core.FOLLOW_OK:
        return
    if why == core.FOLLOW_COUNT:
        raise wrong_count_error(n, len(play))
    if why == core.FOLLOW_NOT_HELD:
        raise not_in_hand_error([ALL_CARDS[c] for c in fault[1:]])
    name = ctx.suit_name(units[0].suit)
    if why == core.FOLLOW_SUIT:
        raise must_follow_suit_error(name, fault[1], n)
    req = [(fault[i], fault[i + 1]) for i in range(1, len(fault), 2)]
    pair_lead = n == 2 and units[0].width == 2
    raise must_follow_format_error(name, req, pair_lead)


def is_legal_follow(
    ctx: TrumpContext, lead: Sequence[Card] | Lead, hand: Sequence[Card], play: Sequence[Card]
) -> bool:
    """True if ``play`` is a legal follow (see :func:`check_follow`)."""
    t, units, n = _kernel_lead(ctx, lead)
    return bool(access.core().is_legal_follow(t, units, n, access.counts(hand), access.ints(play)))


# -- enumeration, counting and sampling ---------------------------------------------------


def _cores(ctx: TrumpContext, lead: Sequence[Card] | Lead, hand: Sequence[Card]) -> list[Any]:
    t, units, n = _kernel_lead(ctx, lead)
    return list(access.core().cores(t, units, n, access.counts(hand)))


def legal_follows(
    ctx: TrumpContext, lead: Sequence[Card] | Lead, hand: Sequence[Card]
) -> Iterator[tuple[Card, ...]]:
    """Every distinct legal follow (as a multiset, cards sorted), lazily."""
    from itertools import combinations

    for core in _cores(ctx, lead, hand):
        fixed = [ALL_CARDS[c] for c in core.fixed]
        pool = [ALL_CARDS[c] for c in core.pool]
        for extra in combinations(pool, core.free):
            yield ctx.sorted((*fixed, *extra))


def follow_families(
    ctx: TrumpContext, lead: Sequence[Card] | Lead, hand: Sequence[Card]
) -> list[tuple[tuple[Card, ...], tuple[Card, ...], int]]:
    """The legal follows as disjoint families ``(fixed, pool, free)``: ``fixed`` plus any
    ``free`` distinct cards of ``pool`` (how the RL environment's masks tell, card by card,
    whether a selection can still become a legal follow)."""
    return [
        (tuple(ALL_CARDS[c] for c in k.fixed), tuple(ALL_CARDS[c] for c in k.pool), k.free)
        for k in _cores(ctx, lead, hand)
    ]


def count_legal_follows(
    ctx: TrumpContext, lead: Sequence[Card] | Lead, hand: Sequence[Card]
) -> int:
    """The number of distinct legal follows, computed without listing them."""
    t, units, n = _kernel_lead(ctx, lead)
    return int(access.core().count_follows(t, units, n, access.counts(hand)))


def random_legal_follow(
    ctx: TrumpContext,
    lead: Sequence[Card] | Lead,
    hand: Sequence[Card],
    rng: random.Random | None = None,
) -> tuple[Card, ...]:
    """A legal follow drawn uniformly from all distinct legal follows (one kernel stream
    is drawn from ``rng`` per call)."""
    core = access.core()
    t, units, n = _kernel_lead(ctx, lead)
    krng = core.rng_from(rng or random.Random())
    cards = core.random_follow(t, units, n, access.counts(hand), krng)
    return tuple(ALL_CARDS[c] for c in cards)
