"""The engine at the bottom of the package: int cards, count-array hands, precomputed
tables, move generation, whole hands (``KHand``) and matches (:mod:`.match`), with a
rollout API for search (docs/kernel.md). The rules API (``shengji.rules.units``, ``follow``,
``leads``, ``throws``, ``tricks``) answers from it.

``_core`` is compiled with mypyc when the package is installed with a compiler at hand;
``SHENGJI_PURE=1`` (or :func:`load_core` with ``pure=True``) uses the same code as plain
Python. ``tests/kernel`` checks it against the oracle (``tests/oracle``, the object rules
core it was ported from).

The bottom layer: ``_core``, ``loader`` and ``access`` import nothing of the package
but ``shengji.errors``; ``match`` and ``rollout`` drive the kernel from the rules'
objects (cards, trump contexts, scoring), the known exception of
tests/test_architecture.py.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .loader import compiled, load_core

if TYPE_CHECKING:  # loaded on first use: the rules API imports ``access`` alone, cheaply
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
        raise AttributeError(f"module 'shengji.kernel' has no attribute {name!r}")
    value = getattr(import_module(".rollout", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "Kernel",
    "RolloutResult",
    "compiled",
    "default_kernel",
    "from_table",
    "kernel_events",
    "load_core",
    "play_out",
    "score",
]
