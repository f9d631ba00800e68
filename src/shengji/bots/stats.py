"""Estimates with 95% confidence intervals for simulation results.

Simulated hands come in clusters (the two seatings of a mirrored deal, the hands of one
match), so every figure is a ratio of sums over independent units, and its interval comes
from the ratio estimator's linearised variance (the delta method), which stays honest for
clustered data. :func:`wilson` is the interval for plain independent yes/no trials.

>>> round(wilson(50, 100)[0], 3), round(wilson(50, 100)[1], 3)
(0.404, 0.596)
>>> est, lo, hi = ratio_ci([1, 0, 1, 1], [1, 1, 1, 1])
>>> est
0.75
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T", int, float)

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (``(0, 1)`` when ``n == 0``)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def ratio_ci(
    nums: Sequence[float], dens: Sequence[float], z: float = Z95
) -> tuple[float, float, float]:
    """``(estimate, low, high)`` of ``sum(nums) / sum(dens)`` over independent units.

    With one unit per observation and ``dens`` all 1 this is the mean with a normal
    interval. Returns ``(nan, nan, nan)`` when the denominators sum to 0.
    """
    n = len(nums)
    total = sum(dens)
    if n == 0 or total == 0:
        return (math.nan, math.nan, math.nan)
    r = sum(nums) / total
    if n < 2:
        return (r, math.nan, math.nan)
    mean_den = total / n
    resid = sum((a - r * d) ** 2 for a, d in zip(nums, dens, strict=True))
    se = math.sqrt(resid / (n * (n - 1))) / mean_den
    return (r, r - z * se, r + z * se)


def paired_ratio_diff(
    nums: Sequence[float],
    dens: Sequence[float],
    other_nums: Sequence[float],
    other_dens: Sequence[float],
    z: float = Z95,
) -> tuple[float, float, float]:
    """``(estimate, low, high)`` of ``sum(nums) / sum(dens) - sum(other_nums) /
    sum(other_dens)`` where unit ``i`` of both is the same (the same deal played by two
    bots): each ratio is linearised per unit and the interval comes from the variance of
    the per-unit differences, so what the units share (how strong a deal is) cancels.

    >>> est, lo, hi = paired_ratio_diff([3, 2, 4, 1], [4, 4, 4, 4], [2, 2, 3, 0], [4, 4, 4, 4])
    >>> est, round(lo, 3), round(hi, 3)
    (0.1875, 0.065, 0.31)
    """
    n = len(nums)
    if n != len(other_nums) or n < 2:
        return (math.nan, math.nan, math.nan)
    total, other_total = sum(dens), sum(other_dens)
    if total == 0 or other_total == 0:
        return (math.nan, math.nan, math.nan)
    r, q = sum(nums) / total, sum(other_nums) / other_total
    zs = [
        (a - r * d) / (total / n) - (b - q * e) / (other_total / n)
        for a, d, b, e in zip(nums, dens, other_nums, other_dens, strict=True)
    ]
    mean = sum(zs) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in zs) / (n * (n - 1)))
    return (r - q, r - q - z * se, r - q + z * se)


def percentile(ordered: Sequence[T], q: float) -> T:
    """The ``q`` quantile of sorted values (nearest rank).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    (2.0, 4.0)
    """
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]
