"""The oracle's order of the cards in one hand (§2, §3), written from the rule book as a
ladder of ranks per effective suit, independently of :class:`shengji.rules.trump.TrumpContext`
(whose tables the kernel is built from): ``tests/test_oracle_order.py`` checks that the
two agree on every card's effective suit, on which of two cards ranks higher, and on
which ranks join into tractors.

A ladder lists, high to low, the *steps* of an effective suit: the cards that rank equal
and whether a tuple of them joins a tuple of the step above into a tractor.

>>> from shengji.rules.presets import load_preset as preset
>>> trumps = ladders(preset("shuangkou"), 5, "H")["trump"]
>>> [(" ".join(sorted(c.text for c in s.cards)), s.joins_above) for s in trumps[:6]]
[('BJ', False), ('LJ', True), ('H5', True), ('C5 D5 S5', True), ('H2', True), ('C2 D2 S2', True)]
"""

from __future__ import annotations

from typing import NamedTuple

from shengji.rules.cards import Card, parse_cards
from shengji.rules.options import RuleOptions

_RANKS_HIGH_TO_LOW = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
_RANK_NUMBER = {"J": 11, "Q": 12, "K": 13, "A": 14}
_LETTERS = ("S", "H", "C", "D")


class Step(NamedTuple):
    """Cards of equal rank in one effective suit; ``joins_above``: a tuple of them and a
    tuple of the next higher step make a tractor."""

    cards: frozenset[Card]
    joins_above: bool


def _number(rank: str) -> int:
    return _RANK_NUMBER.get(rank) or int(rank)


def _cards(*texts: str) -> frozenset[Card]:
    return frozenset(c for t in texts for c in parse_cards(t))


def ladders(options: RuleOptions, level: int, trump: str | None) -> dict[str, list[Step]]:
    """Each effective suit's ladder, high to low: ``"trump"`` and the side suits by letter
    (``trump`` is ``"S"``, ``"H"``, ``"C"``, ``"D"`` or None for no-trump)."""
    twos = options.constant_twos and level != 2  # at level 2 the 2s are the level cards
    links = options.level_cards_link

    def plain(rank: str) -> bool:
        return _number(rank) != level and not (twos and rank == "2")

    def side(letter: str) -> list[Step]:
        return [Step(_cards(letter + r), True) for r in _RANKS_HIGH_TO_LOW if plain(r)]

    lvl = next(r for r in _RANKS_HIGH_TO_LOW if _number(r) == level)
    others = [x for x in _LETTERS if x != trump]
    top = [Step(_cards("BJ"), False), Step(_cards("LJ"), True)]
    for rank in [lvl, "2"] if twos else [lvl]:
        if trump is not None:
            top.append(Step(_cards(trump + rank), links))
        top.append(Step(_cards(*(x + rank for x in others)), links))
    # the step just under LJ (the trump suit's level card; under NT all level cards)
    top[2] = Step(top[2].cards, links and options.joker_links_level)
    out = {x: side(x) for x in others}
    trumps = top + (side(trump) if trump is not None else [])
    if trump is not None:  # the trump suit's top plain card joins the step above it
        i = len(top)
        trumps[i] = Step(trumps[i].cards, links)
    out["trump"] = trumps
    return out
