"""Distinct sub-multisets of a sorted hand (the burials a seat may choose).

>>> from shengji.rules.cards import parse_cards
>>> [" ".join(c.text for c in cs) for cs in multiset_combinations(parse_cards("S3 S3 S4"), 2)]
['S3 S3', 'S3 S4']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .cards import Card


def multiset_combinations(cards: Sequence[Card], k: int) -> Iterator[tuple[Card, ...]]:
    """Distinct k-card sub-multisets of ``cards`` (kept in the given order)."""
    groups: list[tuple[Card, int]] = []
    for c in cards:
        if groups and groups[-1][0] is c:
            groups[-1] = (c, groups[-1][1] + 1)
        else:
            groups.append((c, 1))
    yield from _multiset_rec(groups, 0, k, ())


def _multiset_rec(
    groups: list[tuple[Card, int]], i: int, k: int, acc: tuple[Card, ...]
) -> Iterator[tuple[Card, ...]]:
    if k == 0:
        yield acc
        return
    if i == len(groups):
        return
    c, n = groups[i]
    for m in range(min(n, k), -1, -1):
        yield from _multiset_rec(groups, i + 1, k - m, acc + (c,) * m)
