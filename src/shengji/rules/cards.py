"""Cards, suits, ranks and decks, with the notation of the rule book (§1).

Cards are interned immutable values: there are exactly 54 of them and parsing always
returns the same object, so ``is`` and ``==`` agree and hashing is cheap.

>>> Card.parse("S10"), Card.parse("HJ"), Card.parse("BJ")
(S10, HJ, BJ)
>>> Card.parse("♥10") is Card.parse("HT")
True
>>> Card.parse("HJ").zh
'红桃J'
>>> format_cards(parse_cards("S10 S10 LJ"))
'S10 S10 LJ'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from ..errors import CardError, Code


class Suit(enum.IntEnum):
    """The four printed suits, in declaring priority order ``S > H > C > D`` (0 is highest)."""

    S = 0
    H = 1
    C = 2
    D = 3

    @property
    def symbol(self) -> str:
        """The suit symbol, e.g. ``♠``."""
        return "♠♥♣♦"[self.value]

    @property
    def zh(self) -> str:
        """The Chinese suit name, e.g. ``黑桃``."""
        return ("黑桃", "红桃", "梅花", "方块")[self.value]

    @property
    def en(self) -> str:
        """The English suit name, e.g. ``spades``."""
        return ("spades", "hearts", "clubs", "diamonds")[self.value]


SUITS: tuple[Suit, ...] = (Suit.S, Suit.H, Suit.C, Suit.D)

#: Ranks are integers 2..14 (11 = J, 12 = Q, 13 = K, 14 = A); jokers use 15 (LJ) and 16 (BJ).
RANKS: tuple[int, ...] = tuple(range(2, 15))
LITTLE_JOKER_RANK = 15
BIG_JOKER_RANK = 16

_RANK_TEXT = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10"}
_RANK_TEXT.update({11: "J", 12: "Q", 13: "K", 14: "A"})
_RANK_PARSE = {v: k for k, v in _RANK_TEXT.items()} | {"T": 10}
_SUIT_PARSE = {"S": Suit.S, "H": Suit.H, "C": Suit.C, "D": Suit.D}
_SUIT_PARSE |= {"♠": Suit.S, "♥": Suit.H, "♣": Suit.C, "♦": Suit.D}
_SUIT_PARSE |= {"♤": Suit.S, "♡": Suit.H, "♧": Suit.C, "♢": Suit.D}
_ZH_SUITS = {"黑桃": Suit.S, "红桃": Suit.H, "梅花": Suit.C, "方块": Suit.D, "方片": Suit.D}


def rank_text(rank: int) -> str:
    """Rank notation: ``rank_text(10) == '10'``, ``rank_text(11) == 'J'``."""
    try:
        return _RANK_TEXT[rank]
    except KeyError:
        raise CardError(f"{rank!r} is not a rank (2..14)", code=Code.BAD_LEVEL) from None


def parse_rank(text: str) -> int:
    """Parse a level rank such as ``"10"``, ``"T"``, ``"J"`` or ``"A"`` into 2..14."""
    t = str(text).strip().upper()
    if t in _RANK_PARSE:
        return _RANK_PARSE[t]
    raise CardError(f"{text!r} is not a level rank (2..10, J, Q, K, A)", code=Code.BAD_LEVEL)


class Card:
    """One of the 54 distinct cards; identical physical copies share one value.

    ``index`` is 0..51 for suited cards (``suit * 13 + rank - 2``), 52 for ``LJ`` and 53
    for ``BJ``.
    """

    __slots__ = ("index", "pts", "rank", "suit", "text")

    index: int
    suit: Suit | None
    rank: int
    text: str
    pts: int

    def __new__(cls, suit: Suit | None, rank: int) -> Card:  # pragma: no cover - via table
        raise TypeError("use Card.parse(text) or card_from_index(i)")

    @classmethod
    def _make(cls, index: int, suit: Suit | None, rank: int, text: str) -> Card:
        obj = object.__new__(cls)
        object.__setattr__(obj, "index", index)
        object.__setattr__(obj, "suit", suit)
        object.__setattr__(obj, "rank", rank)
        object.__setattr__(obj, "text", text)
        object.__setattr__(obj, "pts", 5 if rank == 5 else 10 if rank in (10, 13) else 0)
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def __lt__(self, other: Card) -> bool:
        """Display order only (suit S,H,C,D then rank, jokers last); trump order is in
        :class:`shengji.rules.trump.TrumpContext`."""
        return self.index < other.index

    @property
    def is_joker(self) -> bool:
        """True for ``LJ`` and ``BJ``."""
        return self.suit is None

    @property
    def points(self) -> int:
        """Card points: 5 for a five, 10 for a ten or a king, else 0."""
        return self.pts

    @property
    def symbol(self) -> str:
        """Text with a suit symbol, e.g. ``♠10``; jokers stay ``BJ``/``LJ``."""
        if self.suit is None:
            return self.text
        return self.suit.symbol + _RANK_TEXT[self.rank]

    @property
    def zh(self) -> str:
        """Chinese display name, e.g. ``黑桃A``, ``大王``."""
        if self.suit is None:
            return "大王" if self.rank == BIG_JOKER_RANK else "小王"
        return self.suit.zh + _RANK_TEXT[self.rank]

    @property
    def en(self) -> str:
        """English display name, e.g. ``ace of spades``, ``big joker``."""
        if self.suit is None:
            return "big joker" if self.rank == BIG_JOKER_RANK else "little joker"
        names = {11: "jack", 12: "queen", 13: "king", 14: "ace"}
        return f"{names.get(self.rank, str(self.rank))} of {self.suit.en}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse card text: ``S10``, ``HJ``, ``DA``, ``BJ``, ``LJ``; also ``T`` for ten and
        suit symbols (``♠10``). Raises :class:`~shengji.errors.CardError` (``BAD_CARD``)."""
        return parse_card(text)


def _build() -> tuple[tuple[Card, ...], dict[str, Card]]:
    cards: list[Card] = []
    for suit in SUITS:
        for rank in RANKS:
            text = suit.name + _RANK_TEXT[rank]
            cards.append(Card._make(len(cards), suit, rank, text))
    cards.append(Card._make(52, None, LITTLE_JOKER_RANK, "LJ"))
    cards.append(Card._make(53, None, BIG_JOKER_RANK, "BJ"))
    by_text = {c.text: c for c in cards}
    return tuple(cards), by_text


ALL_CARDS, _BY_TEXT = _build()
LITTLE_JOKER = ALL_CARDS[52]
BIG_JOKER = ALL_CARDS[53]
_ALIASES = {"BJ": BIG_JOKER, "LJ": LITTLE_JOKER, "RJ": BIG_JOKER, "大王": BIG_JOKER}
_ALIASES |= {"小王": LITTLE_JOKER}


def card_from_index(index: int) -> Card:
    """The card with this ``index`` (0..53)."""
    return ALL_CARDS[index]


def card(suit: Suit | str, rank: int | str) -> Card:
    """The suited card of this suit and rank: ``card("S", 10)`` is ``S10``."""
    s = suit if isinstance(suit, Suit) else _SUIT_PARSE.get(str(suit).strip().upper())
    if s is None:
        raise CardError(f"{suit!r} is not a suit (S, H, C, D)")
    r = parse_rank(rank) if isinstance(rank, str) else rank
    if isinstance(r, bool) or not isinstance(r, int) or not 2 <= r <= 14:
        raise CardError(f"{rank!r} is not a rank (2..10, J, Q, K, A)")
    return ALL_CARDS[s * 13 + r - 2]


def parse_card(text: str | Card) -> Card:
    """Parse one card; see :meth:`Card.parse`."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not card text")
    t = text.strip()
    hit = _BY_TEXT.get(t) or _ALIASES.get(t.upper())
    if hit is not None:
        return hit
    u = t.upper()
    if len(u) >= 2 and u[0] in _SUIT_PARSE and u[1:] in _RANK_PARSE:
        return card(_SUIT_PARSE[u[0]], _RANK_PARSE[u[1:]])
    if len(u) >= 3 and u[:2] in _ZH_SUITS and u[2:] in _RANK_PARSE:
        return card(_ZH_SUITS[u[:2]], _RANK_PARSE[u[2:]])
    raise CardError(
        f"{text!r} is not a card: write suit S/H/C/D then rank 2-10/J/Q/K/A (e.g. S10, HJ), "
        "or BJ/LJ for the big and little joker",
        params={"text": text},
    )


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse a list of cards from ``"S10 S10 LJ"`` (spaces or commas) or an iterable."""
    parts: list[str | Card] = (
        list(text.replace(",", " ").split()) if isinstance(text, str) else list(text)
    )
    return tuple(parse_card(p) for p in parts)


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Cards as notation text, in the given order."""
    return sep.join(c.text for c in cards)


def deck(decks: int = 2) -> list[Card]:
    """The cards of ``decks`` full decks (54 each), in a fixed order."""
    if not 1 <= decks <= 4:
        raise CardError(f"decks must be 1..4, not {decks}", code=Code.BAD_OPTION_VALUE)
    return [c for c in ALL_CARDS for _ in range(decks)]


def points(cards: Iterable[Card]) -> int:
    """Sum of card points (5s, 10s and kings)."""
    return sum([c.pts for c in cards])


def kitty_size(decks: int) -> int:
    """Kitty (底牌) size for this many decks (§7): 6, 8, 6, 8 for 1..4 decks."""
    return {1: 6, 2: 8, 3: 6, 4: 8}[decks]
