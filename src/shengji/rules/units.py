"""Units (牌型) and the decomposition of a lead (§3), answered by the kernel.

A unit has ``links`` (k) and ``width`` (w): a single is 1x1, a pair 1x2, a triple 1x3, a
tractor of k pairs kx2 and a Titanic of k triples kx3 (with 4 decks, four identical cards
make a 1x4 "quad"; see docs/rules.md). Units order by ``(links, width)``: longer tractor >
shorter tractor > triple > pair > single.

>>> from shengji.rules.presets import load_preset
>>> from shengji.rules.trump import TrumpContext
>>> ctx = TrumpContext(load_preset("classic-3deck"), level=2, trump="H")
>>> lead = classify_lead(ctx, parse_cards("S9 S9 S10 S10 SJ SJ SJ"))
>>> lead.kind, lead.codes
('throw', ('tractor:2x2', 'triple'))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..errors import Code, PlayError
from ..kernel import access
from .cards import ALL_CARDS, Card, parse_cards  # noqa: F401  (parse_cards: doctests)
from .trump import TrumpContext

Shape = tuple[int, int]
"""(links, width) of a unit."""


class Unit(NamedTuple):
    """One unit of a play: ``links`` x ``width`` identical-card tuples, top link ``top``."""

    links: int
    width: int
    top: int
    suit: int
    cards: tuple[Card, ...]

    @property
    def shape(self) -> Shape:
        """``(links, width)``."""
        return (self.links, self.width)

    @property
    def code(self) -> str:
        """``single``, ``pair``, ``triple``, ``quad`` or ``tractor:KxW``."""
        return shape_code(self.shape)

    def __repr__(self) -> str:
        return f"<{self.code} {' '.join(c.text for c in self.cards)}>"


def shape_code(shape: Shape) -> str:
    """Conformance code of a shape: ``(1, 2)`` is ``pair``, ``(3, 2)`` is ``tractor:3x2``."""
    k, w = shape
    if k == 1:
        return {1: "single", 2: "pair", 3: "triple", 4: "quad"}[w]
    return f"tractor:{k}x{w}"


def shape_name(shape: Shape, lang: str = "en") -> str:
    """Readable name of a shape in ``en`` or ``zh``."""
    k, w = shape
    if lang == "zh":
        if k == 1:
            return {1: "单张", 2: "对子", 3: "三张", 4: "四张"}[w]
        return f"{k}连{'对' if w == 2 else '三张' if w == 3 else '四张'}拖拉机"
    if k == 1:
        return {1: "single", 2: "pair", 3: "triple", 4: "quad"}[w]
    return f"{k}-link {'tractor' if w == 2 else 'Titanic' if w == 3 else 'quad tractor'}"


class Lead(NamedTuple):
    """A classified lead: ``kind`` is single/pair/triple/quad/tractor/throw, ``units`` are
    sorted largest first, ``suit`` is the effective suit."""

    kind: str
    suit: int
    units: tuple[Unit, ...]
    cards: tuple[Card, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        """Unit codes, largest first."""
        return tuple(u.code for u in self.units)

    @property
    def shapes(self) -> tuple[Shape, ...]:
        """Unit shapes, largest first."""
        return tuple(u.shape for u in self.units)


def unit_sort_key(u: Unit) -> tuple[int, int, int]:
    """Largest first: links, then width, then top."""
    return (u.links, u.width, u.top)


def unit_of(k: Any) -> Unit:
    """A kernel unit as a :class:`Unit` (its cards each ``width`` times, top link first)."""
    cards = tuple(ALL_CARDS[c] for c in k.cards for _ in range(k.width))
    return Unit(k.links, k.width, k.top, k.suit, cards)


def kernel_unit(u: Unit) -> Any:
    """A :class:`Unit` as the kernel's (one card per link)."""
    return access.core().Unit(
        u.links, u.width, u.top, u.suit, [c.index for c in u.cards[:: u.width]]
    )


def decompose(ctx: TrumpContext, cards: Sequence[Card]) -> tuple[Unit, ...]:
    """Split cards of one effective suit into units, largest first (§3).

    Identical cards stay together; tuples of equal width at adjacent strengths join into
    tractors, longest run first (ties: the higher), one card per strength, preferring the
    higher suit among equal cards; this repeats on what is left.
    """
    units = access.core().decompose(access.tables(ctx), access.ints(cards))
    if not units:
        raise PlayError("cards of several effective suits do not form units", code=Code.MIXED_SUITS)
    return tuple(unit_of(u) for u in units)


def classify_lead(ctx: TrumpContext, cards: Iterable[Card]) -> Lead:
    """Classify a lead: one unit (single/pair/triple/quad/tractor) or a ``throw``.
    Raises PlayError ``MIXED_SUITS`` if the cards are not of one effective suit and
    ``EMPTY_PLAY`` for no cards."""
    cs = tuple(cards)
    if not cs:
        raise PlayError("a lead needs at least one card", code=Code.EMPTY_PLAY)
    if len(cs) == 1:
        i = cs[0].index
        suit = ctx.suit_of[i]
        return Lead("single", suit, (Unit(1, 1, ctx.strength[i], suit, cs),), cs)
    units = decompose(ctx, cs)
    if len(units) == 1:
        u = units[0]
        kind = "tractor" if u.links > 1 else shape_code(u.shape)
    else:
        kind = "throw"
    return Lead(kind, units[0].suit, units, cs)


def lead_kind(ctx: TrumpContext, cards: Iterable[Card]) -> str:
    """Like :func:`classify_lead` but returns ``"invalid"`` for cards of several suits."""
    try:
        return classify_lead(ctx, cards).kind
    except PlayError:
        return "invalid"


def kernel_units(ctx: TrumpContext, lead: Lead) -> list[Any]:
    """The kernel's units of a classified lead."""
    return list(access.core().lead_units(access.tables(ctx), access.ints(lead.cards)))
