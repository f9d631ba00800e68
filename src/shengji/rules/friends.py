"""找朋友 (Finding Friends): the banker's friend calls as small frozen values with a
notation that round-trips.

A call names a card that is not a trump-rank card or a joker, and an ordinal: ``SA:2`` is
"the 2nd ♠A played". Whoever plays that copy joins the banker's side once the trick is
complete (the banker may turn out to be their own friend, and a friend already found
may play another called card: the side then stays smaller).

>>> calls = parse_calls("SA:2 HK:1")
>>> calls
(FriendCall(card=SA, ordinal=2), FriendCall(card=HK, ordinal=1))
>>> format_calls(calls)
'SA:2 HK:1'

People read calls in their words: :func:`shengji.words.i18n.call_label`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import Code, ShengjiError
from ..kernel import access
from .cards import ALL_CARDS, Card, parse_card

if TYPE_CHECKING:
    from .trump import TrumpContext


class CallError(ShengjiError):
    """A friend call that is malformed or not allowed."""

    code: str = Code.ILLEGAL_CALL


@dataclass(frozen=True, slots=True)
class FriendCall:
    """The ``ordinal``-th copy of ``card`` to be played finds a friend."""

    card: Card
    ordinal: int

    @property
    def text(self) -> str:
        """Notation: ``SA:2``."""
        return f"{self.card.text}:{self.ordinal}"


@dataclass(frozen=True, slots=True)
class CalledFriend:
    """A call as the hand stands: who played the called copy, once that trick is
    complete (None: not found yet, or its copy is in the kitty)."""

    call: FriendCall
    seat: int | None = None


def parse_call(text: str) -> FriendCall:
    """``SA:2`` (or ``SA``: the 1st) as a :class:`FriendCall`."""
    raw = text.strip()
    card_text, _, ordinal = raw.partition(":")
    card = parse_card(card_text)
    if not ordinal:
        return FriendCall(card, 1)
    digits = ordinal.strip()
    # str.isdigit alone takes '²' (which int refuses) and other scripts' digits
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6:
        raise CallError(
            f"a friend call is a card and an ordinal, like SA:2 (the 2nd SA), not {raw!r}",
            params={"reason": "syntax"},
        )
    return FriendCall(card, int(ordinal))


def parse_calls(text: str | Iterable[str]) -> tuple[FriendCall, ...]:
    """Several calls, space-separated (``"SA:2 HK:1"``) or as a list of texts."""
    items = text.split() if isinstance(text, str) else list(text)
    return tuple(parse_call(t) for t in items)


def format_calls(calls: Iterable[FriendCall]) -> str:
    """The notation of several calls, space-separated."""
    return " ".join(c.text for c in calls)


def callable_cards(ctx: TrumpContext) -> list[Card]:
    """The cards (one of each) a banker may call in ``ctx``: not jokers, level cards or
    other trumps outside the trump suit (constant 2s), nor cards of the trump suit with
    ``call_trump_suit`` off, in card order."""
    core, t = access.core(), access.tables(ctx)
    trump = -1 if ctx.trump is None else int(ctx.trump)
    suit_ok = ctx.options.call_trump_suit
    return [c for c in ALL_CARDS[:52] if core.callable_card(t, ctx.level, trump, c.index, suit_ok)]


def check_calls(ctx: TrumpContext, calls: Sequence[FriendCall]) -> None:
    """Raise :class:`CallError` (``reason``: ``count``, ``not_callable``, ``trump_suit``,
    ``ordinal`` or ``duplicate``) when a banker may not make ``calls`` under ``ctx`` (its
    options say how many calls and decks)."""
    opts = ctx.options
    core, t = access.core(), access.tables(ctx)
    trump = -1 if ctx.trump is None else int(ctx.trump)
    cards, ords = [c.card.index for c in calls], [c.ordinal for c in calls]
    why = core.calls_error(
        t, ctx.level, trump, opts.calls, opts.decks, cards, ords, opts.call_trump_suit
    )
    if not why:
        return
    need, decks = opts.calls, opts.decks
    if why == "count":
        text = f"call exactly {need} friend(s), not {len(calls)}"
        raise CallError(text, params={"reason": why, "need": need, "got": len(calls)})
    if why == "duplicate":
        raise CallError("the same card and ordinal is called twice", params={"reason": why})
    allowed = set(callable_cards(ctx))
    bad_card = next((c for c in calls if c.card not in allowed), None)
    if why == "not_callable" and bad_card is not None:
        text = (
            f"{bad_card.card.text} cannot be called: jokers, level cards and other trumps "
            "outside the trump suit are never friends' cards"
        )
        if core.callable_card(t, ctx.level, trump, bad_card.card.index, True):
            text = (
                f"{bad_card.card.text} cannot be called: cards of the trump suit are not "
                "friends' cards at this table (call_trump_suit is off)"
            )
            why = "trump_suit"
        raise CallError(text, params={"reason": why, "card": bad_card.card.text})
    bad = next(c for c in calls if not 1 <= c.ordinal <= decks)
    text = f"{bad.text}: the ordinal must be 1..{decks} (there are {decks} copies of each card)"
    raise CallError(text, params={"reason": why, "call": bad.text, "decks": decks})
