"""The kernel driven with the rules' objects: whole matches (:mod:`.match`: ``KMatch``,
hands dealt from the match seed, scored, levels and coins carried) and the play-phase
rollout API for search (:mod:`.rollout`: ``Kernel``, ``default_kernel``, ``from_table``,
``play_out``, ``score``, ``kernel_events``), on cards, trump contexts, seats, deals and
scoring of the rules (docs/kernel.md). A layer above the rules: it may import the base
(``shengji.errors``), the kernel and the rules, nothing above them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded on first use: ``shengji.engine.match`` alone stays cheap
    from .rollout import (
        Kernel,
        RolloutResult,
        default_kernel,
        from_table,
        kernel_events,
        play_out,
        score,
    )

_LAZY = {
    "Kernel",
    "RolloutResult",
    "default_kernel",
    "from_table",
    "kernel_events",
    "play_out",
    "score",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'shengji.engine' has no attribute {name!r}")
    value = getattr(import_module(".rollout", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "Kernel",
    "RolloutResult",
    "default_kernel",
    "from_table",
    "kernel_events",
    "play_out",
    "score",
]
