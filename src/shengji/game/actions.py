"""Actions a seat can take, as small frozen values with a JSON form.

The cards of an action are a tuple of :class:`~shengji.rules.cards.Card`, made from whatever
names them: notation (``Play("S10 S10")``, ``Declare("H2")``), a card, or cards and
card texts (``Bury([c1, "S3", ...])``); a ``Call`` takes notation too (``Call("SA:2")``).

>>> Play("S10 S10") == Play(parse_cards("S10 S10"))
True
>>> a = action_from_json({"type": "play", "cards": "S10 S10"})
>>> a, action_to_json(a)
(Play(cards=(S10, S10)), {'type': 'play', 'cards': 'S10 S10'})
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import ActionError as ActionError  # its home is shengji.errors
from ..errors import CardError, Code
from ..rules.cards import Card, format_cards, parse_cards
from ..rules.friends import FriendCall, format_calls, parse_calls

#: What an action's cards may be given as: notation, a card, or cards and card texts.
Cards = str | Card | Iterable[str | Card]


@dataclass(frozen=True, slots=True, init=False)
class Declare:
    """Show level cards or jokers to declare, reinforce or counter-declare (报主/反主)."""

    cards: tuple[Card, ...]

    def __init__(self, cards: Cards) -> None:
        object.__setattr__(self, "cards", as_cards(cards, type(self).__name__))


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to declare now."""


@dataclass(frozen=True, slots=True, init=False)
class Bury:
    """Bury the kitty (扣底): exactly as many cards as the kitty has."""

    cards: tuple[Card, ...]

    def __init__(self, cards: Cards) -> None:
        object.__setattr__(self, "cards", as_cards(cards, type(self).__name__))


@dataclass(frozen=True, slots=True, init=False)
class Play:
    """Lead or follow with these cards."""

    cards: tuple[Card, ...]

    def __init__(self, cards: Cards) -> None:
        object.__setattr__(self, "cards", as_cards(cards, type(self).__name__))


@dataclass(frozen=True, slots=True, init=False)
class Call:
    """找朋友: the banker calls friends after burying (``{"type": "call", "calls": "SA:2"}``)."""

    calls: tuple[FriendCall, ...]

    def __init__(self, calls: str | Iterable[FriendCall]) -> None:
        value = parse_calls(calls) if isinstance(calls, str) else tuple(calls)
        object.__setattr__(self, "calls", value)


@dataclass(frozen=True, slots=True)
class Continue:
    """Start the next hand after a hand's result."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The table deals on until ``dealt`` cards are out: the one action no seat takes
    (``apply(state, None, Deal(n))``), in a paced deal (``new_match(..., paced=True)``)
    whose pace the table keeps (``{"type": "deal", "dealt": 12}``)."""

    dealt: int


def as_cards(cards: Cards, name: str = "an action") -> tuple[Card, ...]:
    """``cards`` as a tuple of :class:`Card`: notation (``"S10 S10"``), a card, or cards
    and card texts (a tuple of cards is kept as it is); ``BAD_CARD`` for anything else."""
    if type(cards) is tuple and all(type(c) is Card for c in cards):
        return cards  # every item is a Card
    if isinstance(cards, Card):
        return (cards,)
    if not isinstance(cards, str | Iterable):
        raise CardError(
            f"{name} takes cards: notation like {name}('S10 S10'), a Card or cards, not {cards!r}"
        )
    return parse_cards(cards)


Action = Declare | Pass | Bury | Play | Call | Continue | Deal

_TYPES: dict[str, type[Action]] = {
    "declare": Declare,
    "pass": Pass,
    "bury": Bury,
    "play": Play,
    "call": Call,
    "continue": Continue,
    "deal": Deal,
}
_NAMES = {v: k for k, v in _TYPES.items()}
#: The classes of every action (``isinstance(x, ACTION_TYPES)``: ``x`` is an action).
ACTION_TYPES: tuple[type[Action], ...] = tuple(_TYPES.values())


def check_action(action: object) -> None:
    """Raise ``BAD_ACTION`` unless ``action`` is an action (what :func:`shengji.game.apply`
    takes): a string, a dict or anything else is named, with how to make an action of it."""
    if isinstance(action, ACTION_TYPES):
        return
    if isinstance(action, str):
        how = f"Play({action!r}) plays those cards, Declare({action!r}) shows them"
    elif isinstance(action, dict):
        how = "action_from_json reads an action's JSON form"
    else:
        how = "make one of Declare, Pass, Bury, Play, Call or Continue (Deal: the table's)"
    raise ActionError(
        f"not an action: {action!r} ({type(action).__name__}); {how}",
        code=Code.BAD_ACTION,
        params={"type": type(action).__name__},
    )


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON form: ``{"type": ..., "cards": "S10 S10"}`` (cards only where it has them)."""
    out: dict[str, Any] = {"type": _NAMES[type(action)]}
    if isinstance(action, Declare | Bury | Play):
        out["cards"] = format_cards(action.cards)
    elif isinstance(action, Call):
        out["calls"] = format_calls(action.calls)
    elif isinstance(action, Deal):
        out["dealt"] = action.dealt
    return out


def action_from_json(data: Any) -> Action:
    """Parse the JSON form; raises ActionError (or CardError) with a clear message."""
    if not isinstance(data, dict):
        raise ActionError(f"an action must be an object with a 'type', not {data!r}")
    kind = data.get("type")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionError(f"unknown action type {kind!r}; known: {', '.join(_TYPES)}")
    if cls is Pass:
        return Pass()
    if cls is Continue:
        return Continue()
    if cls is Deal:
        dealt = data.get("dealt")
        if not isinstance(dealt, int) or isinstance(dealt, bool) or dealt < 1:
            raise ActionError(f"a deal action needs 'dealt', a number of cards, not {dealt!r}")
        return Deal(dealt)
    if cls is Call:
        calls = data.get("calls")
        if not isinstance(calls, str | list) or not all(isinstance(c, str) for c in calls):
            raise ActionError(
                "a call action needs 'calls', like \"SA:2 HK:1\" (the 2nd SA, the 1st HK)",
                code=Code.ILLEGAL_CALL,
            )
        return Call(parse_calls(calls))
    cards = data.get("cards")
    if not isinstance(cards, str | list):
        raise ActionError(f"a {kind} action needs 'cards'")
    parsed = parse_cards(cards)
    if cls is Declare:
        return Declare(parsed)
    if cls is Bury:
        return Bury(parsed)
    return Play(parsed)
