"""What a seat may do in a state: its legal actions (one per card combination, or per show)
and the shows it may make, for programs and the game's own checks."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..errors import ShengjiError
from ..rules.cards import Card
from ..rules.declaring import (
    DeclareState,
    apply_show,
)
from ..rules.follow import legal_follows
from ..rules.friends import FriendCall, callable_cards
from ..rules.leads import unit_leads
from ..rules.multisets import multiset_combinations
from ..rules.options import RuleOptions
from ..rules.phases import DECLARING_PHASES
from .actions import (
    Action,
    Bury,
    Call,
    Continue,
    Declare,
    Pass,
    Play,
)

if TYPE_CHECKING:
    pass
from .state import Table


def legal_shows(st: Table, seat: int, phase: str | None = None) -> list[tuple[Card, ...]]:
    """Every show (报主/反主/上保险) ``seat`` may make now from its hand."""
    ph = phase or st.phase
    if ph not in DECLARING_PHASES:
        return []
    counts = _show_counts(st.hand_of(seat), st.level)
    if not counts:
        return []
    return list(_shows_for(st.options, st.level, st.declare, seat, counts, ph))


def _show_counts(hand: Iterable[Card], level: int) -> tuple[tuple[Card, int], ...]:
    """The level cards and jokers of ``hand`` with their counts, in card order."""
    counts: dict[Card, int] = {}
    for c in hand:
        if c.rank == level or c.is_joker:
            counts[c] = counts.get(c, 0) + 1
    return tuple(sorted(counts.items(), key=lambda cn: cn[0].index))


@functools.lru_cache(maxsize=8192)
def _shows_for(
    options: RuleOptions,
    level: int,
    declare: DeclareState,
    seat: int,
    counts: tuple[tuple[Card, int], ...],
    phase: str,
) -> tuple[tuple[Card, ...], ...]:
    """The legal shows from these show cards (cached: the deal asks at every draw)."""
    out = []
    for c, n in counts:
        for k in range(2 if c.is_joker else 1, n + 1):
            cards = (c,) * k
            try:
                apply_show(options, level, declare, seat, cards, phase)  # type: ignore[arg-type]
            except ShengjiError:
                continue
            out.append(cards)
    out.sort(key=lambda cs: (len(cs), cs[0].index))
    return tuple(out)


def legal_actions(st: Table, seat: int) -> Iterator[Action]:
    """What ``seat`` may do now, lazily (burials and void follows can be millions).

    Declaring phases: every legal show, then ``Pass`` (during the deal every seat may show,
    and only the seat asked at its draw passes). Burial: every distinct set of
    kitty-size cards. Calling friends: every set of distinct calls. Play: every legal
    follow; for a lead, every one-unit lead (a throw, any other set of cards of one suit,
    may also be attempted: :func:`apply` checks it against the other hands and forces a
    unit when it fails). :mod:`shengji.game.moves`
    reaches every action, throws included, card by card from at most 55 moves a step.
    """
    if st.phase == "match_over":
        return
    if st.phase == "hand_over":
        yield Continue()
        return
    if st.to_act != seat:
        if st.phase == "deal":  # anyone shows at any moment of the deal
            for show in legal_shows(st, seat):
                yield Declare(show)
        return
    if st.phase in DECLARING_PHASES:
        for show in legal_shows(st, seat):
            yield Declare(show)
        yield Pass()
    elif st.phase == "bury":
        hand = st.ctx.sorted(st.hand_of(seat))
        for cards in multiset_combinations(hand, st.options.kitty_size):
            yield Bury(cards)
    elif st.phase == "call":
        choices = [
            FriendCall(c, k) for c in callable_cards(st.ctx) for k in range(1, st.options.decks + 1)
        ]
        for calls in itertools.combinations(choices, st.options.calls):
            if len({(c.card, c.ordinal) for c in calls}) == len(calls):
                yield Call(calls)
    elif st.trick:
        assert st.lead is not None
        for p in legal_follows(st.ctx, st.lead, st.hand_of(seat)):
            yield Play(p)
    else:
        for p in unit_leads(st.ctx, st.hand_of(seat)):
            yield Play(p)
