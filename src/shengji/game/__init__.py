"""The game: the state machine of a whole match over the kernel (``state``: ``GameState``;
``flow``: ``new_match``, ``apply``; ``legal``: ``legal_actions``; ``fold``: the
kernel's changes folded into states), its actions (``actions``), the one redaction function
(``views``), every action card by card for programs (``moves``), records, replay and
verification (``record``), dealing one card at a time (``dealing``), the player protocol
(``players``) and the narration of a hand (``narrate``). The game may import the words,
the rules, the kernel and ``shengji.errors``; nothing of bots, env, server, tui or the
tools (tests/test_architecture.py checks it).

``shengji.game``'s own names are the state's, the flow's and the queries'
(``from shengji.game import new_match``), loaded on first use: importing one game module
does not load the others.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .flow import apply, new_match, stack_deck
    from .legal import legal_actions, legal_shows
    from .state import Event, GameState, HandResult, Table, TableFacts, Trick, TrickPlay

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

_HOME = {"apply": "flow", "new_match": "flow", "stack_deck": "flow"}
_HOME |= {"legal_actions": "legal", "legal_shows": "legal"}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'shengji.game' has no attribute {name!r}")
    value = getattr(import_module(f".{_HOME.get(name, 'state')}", __name__), name)
    globals()[name] = value
    return value
