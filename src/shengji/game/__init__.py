"""The game: the state machine of a whole match over the kernel (``state``: ``GameState``,
``new_match``, ``apply``), its actions (``actions``), the one redaction function
(``views``), every action card by card for programs (``moves``), records, replay and
verification (``record``), dealing one card at a time (``dealing``), the player protocol
(``players``) and the narration of a hand (``narrate``). The game may import the words,
the rules, the kernel and ``shengji.errors``; nothing of bots, env, server, tui or the
tools (tests/test_architecture.py checks it).

``shengji.game``'s own names are the state's (``from shengji.game import new_match``),
loaded on first use: importing one game module does not load the others.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import (
        Event,
        GameState,
        HandResult,
        Table,
        TableFacts,
        Trick,
        TrickPlay,
        apply,
        legal_actions,
        legal_shows,
        new_match,
        stack_deck,
    )

__all__ = [
    "Event",
    "GameState",
    "HandResult",
    "Table",
    "TableFacts",
    "Trick",
    "TrickPlay",
    "apply",
    "legal_actions",
    "legal_shows",
    "new_match",
    "stack_deck",
]

_STATE = set(__all__)


def __getattr__(name: str) -> Any:
    if name not in _STATE:
        raise AttributeError(f"module 'shengji.game' has no attribute {name!r}")
    value = getattr(import_module(".state", __name__), name)
    globals()[name] = value
    return value
