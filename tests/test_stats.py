"""Confidence intervals cover the truth about 95% of the time on known distributions."""

from __future__ import annotations

import math
import random

from shengji.bots.stats import ratio_ci, wilson


def test_wilson_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-4) and math.isclose(hi, 0.5962, abs_tol=1e-4)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and math.isclose(hi, 0.1611, abs_tol=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def _coverage(draw, truth: float, reps: int = 400, seed: int = 1) -> float:
    rng = random.Random(seed)
    hit = 0
    for _ in range(reps):
        nums, dens = draw(rng)
        _, lo, hi = ratio_ci(nums, dens)
        hit += lo <= truth <= hi
    return hit / reps


def test_proportion_interval_covers_about_95_percent() -> None:
    p = 0.3

    def draw(rng: random.Random) -> tuple[list[int], list[int]]:
        xs = [1 if rng.random() < p else 0 for _ in range(300)]
        return xs, [1] * len(xs)

    assert 0.92 <= _coverage(draw, p) <= 0.98


def test_mean_interval_covers_about_95_percent() -> None:
    mu = 85.0

    def draw(rng: random.Random) -> tuple[list[float], list[int]]:
        xs = [rng.gauss(mu, 40) for _ in range(200)]
        return xs, [1] * len(xs)

    assert 0.92 <= _coverage(draw, mu) <= 0.98


def test_clustered_ratio_interval_covers_about_95_percent() -> None:
    # units of 1..4 hands, each hand's level gain split between two teams with P(A) = 0.6
    def draw(rng: random.Random) -> tuple[list[int], list[int]]:
        nums, dens = [], []
        for _ in range(300):
            a = t = 0
            for _ in range(rng.randint(1, 4)):
                gain = rng.randint(1, 3)
                t += gain
                a += gain if rng.random() < 0.6 else 0
            nums.append(a)
            dens.append(t)
        return nums, dens

    assert 0.92 <= _coverage(draw, 0.6) <= 0.98


def test_degenerate_inputs() -> None:
    assert all(math.isnan(v) for v in ratio_ci([], []))
    assert all(math.isnan(v) for v in ratio_ci([1, 2], [0, 0]))
    est, lo, hi = ratio_ci([3], [4])
    assert est == 0.75 and math.isnan(lo) and math.isnan(hi)
