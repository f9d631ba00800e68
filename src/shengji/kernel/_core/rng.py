"""Random streams: :class:`KRng`, the kernel's own xorshift stream, and
:func:`shuffle_ints`, :meth:`random.Random.shuffle` on ints."""

from __future__ import annotations

from random import Random


class KRng:
    """The kernel's own random stream (xorshift32, Marsaglia 2003): the few draws move
    generation needs, without a call into the interpreted :mod:`random` module for each
    (which took 38% of a compiled random play-out). Seeded from a :class:`random.Random`
    (:func:`rng_from`), so a seeded play-out is reproducible; not for cryptography."""

    def __init__(self, seed: int) -> None:
        s = seed & 0xFFFFFFFF
        self.s = s if s else 0x9E3779B9

    def next32(self) -> int:
        """The next 32 random bits."""
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x

    def random(self) -> float:
        """A float in [0, 1)."""
        return self.next32() / 4294967296.0

    def below(self, n: int) -> int:
        """An int in ``0..n-1`` (``n`` >= 1), uniform up to n / 2**32."""
        if n < 1 << 30:
            return (self.next32() * n) >> 32
        return ((self.next32() << 32) | self.next32()) % n

    def sample(self, population: list[int], k: int) -> list[int]:
        """``k`` items of ``population`` without replacement, in random order."""
        pool = list(population)
        m = len(pool)
        for i in range(k):
            j = i + self.below(m - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


def rng_from(rng: Random) -> KRng:
    """A kernel stream seeded by (and advancing) ``rng``."""
    return KRng(rng.getrandbits(32))


def shuffle_ints(cards: list[int], rng: Random) -> None:
    """Shuffle ``cards`` in place exactly as :meth:`random.Random.shuffle` does (the same
    draws from the same Mersenne Twister), without its interpreted loop."""
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = rng.getrandbits(k)
        while j >= n:
            j = rng.getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
