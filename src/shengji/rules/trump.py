"""The trump context of a hand: effective suits, the total order and tractor adjacency (§2, §3).

A :class:`TrumpContext` is built once per (options, level, trump) and answers, for each of
the 54 cards, its *effective suit* (``TRUMP`` or the printed suit) and its *strength* inside
that effective suit. Strengths are dense integers: cards that rank equal (off-suit level
cards, constant 2s of non-trump suits, all level cards under NT) share a strength, and two
strengths that differ by exactly 1 are adjacent for tractors. The level rank (and constant
2s) are removed from the side suits, so at level 6 ``C5`` and ``C7`` are adjacent, and the
trump chain continues above the trump suit's ace as §3 describes. Without
``joker_links_level`` a gap separates ``LJ`` from the trump-suit level card.

>>> from shengji.rules.presets import load_preset
>>> ctx = TrumpContext(load_preset("shuangsheng"), level=6, trump="S")
>>> ctx.is_trump(Card.parse("H6")), ctx.is_trump(Card.parse("H5"))
(True, False)
>>> ctx.adjacent(Card.parse("C5"), Card.parse("C7"))
True
>>> ctx.sorted(parse_cards("BJ S3 H6 S6 SA D4 C5"))
(BJ, S6, H6, SA, S3, C5, D4)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from ..errors import CardError, Code
from .cards import ALL_CARDS, SUITS, Card, Suit, parse_cards, parse_rank, rank_text  # noqa: F401
from .options import RuleOptions

#: Effective-suit number of trumps; side suits use their Suit value 0..3.
TRUMP = 4

_SUIT_NAMES = {"S": Suit.S, "H": Suit.H, "C": Suit.C, "D": Suit.D}


def parse_trump(text: str | Suit | None) -> Suit | None:
    """Parse ``"S"``, ``"H"``, ``"C"``, ``"D"`` (or a symbol) or ``"NT"``/None (无主)."""
    if text is None or isinstance(text, Suit):
        return text
    t = str(text).strip().upper()
    if t in ("NT", "NOTRUMP", "NO_TRUMP", "无主"):
        return None
    sym = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}
    t = sym.get(t, t)
    if t in _SUIT_NAMES:
        return _SUIT_NAMES[t]
    raise CardError(f"{text!r} is not a trump: use S, H, C, D or NT", code=Code.BAD_TRUMP)


def trump_text(trump: Suit | None) -> str:
    """``"S"``... or ``"NT"``."""
    return "NT" if trump is None else trump.name


class TrumpContext:
    """Order and suits of all cards for one hand: options, level rank and trump suit (or NT).

    Attributes indexed by ``Card.index``: ``suit_of`` (effective suit, ``TRUMP`` = 4),
    ``strength`` (dense order inside the effective suit; equal cards share it), ``key``
    (a global sort key: trumps above side suits) and ``tiebreak`` (suit priority S>H>C>D,
    used only to choose among equal cards).
    """

    __slots__ = (
        "kernel_tables",
        "key",
        "level",
        "options",
        "strength",
        "suit_of",
        "tiebreak",
        "trump",
    )

    def __init__(self, options: RuleOptions, level: int | str, trump: Suit | str | None) -> None:
        self.options = options
        self.level = level if isinstance(level, int) else parse_rank(level)
        if not 2 <= self.level <= 14:
            raise CardError(f"{level!r} is not a level rank", code=Code.BAD_LEVEL)
        self.trump = parse_trump(trump)
        suit_of = [0] * 54
        strength = [0] * 54
        ct = options.constant_twos and self.level != 2
        t = self.trump

        def plain(rank: int) -> bool:
            return rank != self.level and not (ct and rank == 2)

        plain_ranks = [r for r in range(2, 15) if plain(r)]
        for s in SUITS:
            for i, r in enumerate(plain_ranks):
                c = s * 13 + r - 2
                suit_of[c] = TRUMP if s == t else s
                strength[c] = i
        # without level_cards_link, gaps keep level cards and constant 2s out of tractors
        gap = 0 if options.level_cards_link else 1
        n = (len(plain_ranks) if t is not None else 0) + gap
        if ct:
            for s in SUITS:
                c = s * 13
                suit_of[c] = TRUMP
                strength[c] = n + 1 + gap if s == t else n
            n += 2 + 2 * gap if t is not None else 1 + gap
        for s in SUITS:
            c = s * 13 + self.level - 2
            suit_of[c] = TRUMP
            strength[c] = n + 1 + gap if s == t else n
        n += 2 + gap if t is not None else 1
        if gap or not options.joker_links_level:
            n += 1  # a gap: LJ is not adjacent to the trump-suit level card
        suit_of[52] = suit_of[53] = TRUMP
        strength[52] = n
        strength[53] = n + 1
        self.suit_of: tuple[int, ...] = tuple(suit_of)
        self.strength: tuple[int, ...] = tuple(strength)
        self.key: tuple[int, ...] = tuple(
            (100 if suit_of[i] == TRUMP else (3 - suit_of[i]) * 20) + strength[i] for i in range(54)
        )
        self.tiebreak: tuple[int, ...] = tuple(
            4 if c.suit is None else 3 - c.suit for c in ALL_CARDS
        )
        #: The kernel's tables of this context, built on first use (``shengji.rules``).
        self.kernel_tables: object = None

    def __reduce__(self) -> tuple[object, tuple[RuleOptions, int, Suit | None]]:
        """Pickled as its arguments (the kernel's tables are rebuilt where it lands)."""
        return (trump_context, (self.options, self.level, self.trump))

    def __repr__(self) -> str:
        return (
            f"TrumpContext({self.options.name!r}, level={rank_text(self.level)}, "
            f"trump={trump_text(self.trump)})"
        )

    # -- queries ------------------------------------------------------------------------
    def is_trump(self, card: Card) -> bool:
        """True if the card is a trump (主牌) in this hand."""
        return self.suit_of[card.index] == TRUMP

    def effective_suit(self, card: Card) -> int:
        """``TRUMP`` (4) or the printed suit's value 0..3."""
        return self.suit_of[card.index]

    def compare(self, a: Card, b: Card) -> int:
        """Within one effective suit: -1, 0, 1 as ``a`` ranks below, equal to, above ``b``.
        Cards of different effective suits compare by :attr:`key` (trumps highest)."""
        ka, kb = self.key[a.index], self.key[b.index]
        return (ka > kb) - (ka < kb)

    def adjacent(self, lower: Card, upper: Card) -> bool:
        """True if a pair of ``upper`` sits directly above a pair of ``lower`` in a tractor."""
        i, j = lower.index, upper.index
        return self.suit_of[i] == self.suit_of[j] and self.strength[j] == self.strength[i] + 1

    def sort_key(self, card: Card) -> tuple[int, int]:
        """Sort key for hands: trumps first, then suits S H C D, high to low within each."""
        return (-self.key[card.index], -self.tiebreak[card.index])

    def sorted(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        """Cards sorted high to low in this hand's order (trumps first)."""
        return tuple(sorted(cards, key=self.sort_key))

    def suit_name(self, effective_suit: int) -> str:
        """Human name of an effective suit: ``trump`` or the suit letter."""
        return "trump" if effective_suit == TRUMP else Suit(effective_suit).name


@functools.lru_cache(maxsize=512)
def trump_context(options: RuleOptions, level: int, trump: Suit | None) -> TrumpContext:
    """A cached :class:`TrumpContext` (contexts are immutable and shared)."""
    return TrumpContext(options, level, trump)
