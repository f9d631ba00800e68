"""How a deal's deck order comes from a match seed.

Two kinds of seed, told apart by size:

* a *research seed* (at most 64 bits) drives Python's Mersenne Twister from a versioned
  string, so ``seed=3`` gives the same deals on every machine, forever (simulations,
  tests, shared puzzles);
* a *secret seed* (more than 64 bits; servers use :func:`secret_seed`, 256 bits from the
  operating system's CSPRNG) keys HMAC-SHA256 as a deterministic random bit generator, so
  nothing a player sees (their own cards, in the order they were drawn) narrows it down.

>>> from shengji.rules.cards import deck
>>> a = shuffled(deck(1), 3, 0, 0)
>>> a == shuffled(deck(1), 3, 0, 0) and sorted(a) == sorted(deck(1))
True
>>> s = secret_seed()
>>> s.bit_length() > RESEARCH_SEED_BITS
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

RESEARCH_SEED_BITS = 64
SECRET_SEED_BITS = 256


def secret_seed() -> int:
    """A fresh 256-bit secret seed (top bit set so it is never read as a research seed)."""
    import secrets  # here and below: only secret seeds need them, and they cost start-up

    return secrets.randbits(SECRET_SEED_BITS) | (1 << (SECRET_SEED_BITS - 1))


def is_secret(seed: int) -> bool:
    """Whether ``seed`` is a secret seed (deals from the keyed generator)."""
    return seed.bit_length() > RESEARCH_SEED_BITS


def hand_seed(seed: int, hand_number: int, redeals: int) -> str:
    """The seed string of one research-seed deal (stable across machines and versions)."""
    return f"shengji:{seed}:{hand_number}:{redeals}"


class _KeyedStream:
    """HMAC-SHA256 in counter mode: a deterministic bit stream keyed by a secret."""

    def __init__(self, key: bytes, label: str) -> None:
        import hashlib
        import hmac

        self._mac = hmac.new(key, label.encode(), hashlib.sha256)
        self._counter = 0
        self._pool = 0
        self._bits = 0

    def bits(self, k: int) -> int:
        while self._bits < k:
            mac = self._mac.copy()
            mac.update(self._counter.to_bytes(8, "big"))
            self._counter += 1
            self._pool = (self._pool << 256) | int.from_bytes(mac.digest(), "big")
            self._bits += 256
        self._bits -= k
        out = self._pool >> self._bits
        self._pool &= (1 << self._bits) - 1
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        k = n.bit_length()
        while True:
            r = self.bits(k)
            if r < n:
                return r


def shuffled(cards: Sequence[T], seed: int, hand_number: int, redeals: int) -> list[T]:
    """``cards`` in the deal order of hand ``hand_number`` (after ``redeals`` redeals)."""
    out = list(cards)
    if not is_secret(seed):
        random.Random(hand_seed(seed, hand_number, redeals)).shuffle(out)
        return out
    key = seed.to_bytes((seed.bit_length() + 7) // 8, "big")
    stream = _KeyedStream(key, f"shengji-deal:{hand_number}:{redeals}")
    for i in range(len(out) - 1, 0, -1):  # Fisher–Yates
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def derived_seed(seed: int, label: str) -> int:
    """A research-size seed for something else in the match (bots' choices), derived one
    way from ``seed`` so it tells nothing about the deals."""
    if not is_secret(seed):
        return seed
    import hashlib
    import hmac

    key = seed.to_bytes((seed.bit_length() + 7) // 8, "big")
    return int.from_bytes(hmac.new(key, label.encode(), hashlib.sha256).digest()[:8], "big")
