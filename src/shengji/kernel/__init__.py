"""The engine at the bottom of the package: int cards, count-array hands, precomputed
tables, move generation, whole hands (``KHand``) and matches (:mod:`.match`), with a
rollout API for search (docs/kernel.md). The rules API (``shengji.units``, ``follow``,
``leads``, ``throws``, ``tricks``) answers from it.

``_core`` is compiled with mypyc when the package is installed with a compiler at hand;
``SHENGJI_PURE=1`` (or :func:`load_core` with ``pure=True``) uses the same code as plain
Python. ``tests/kernel`` checks it against the oracle (``tests/oracle``, the object rules
core it was ported from).
"""

from __future__ import annotations

from .loader import compiled, load_core
from .rollout import (
    Kernel,
    RolloutResult,
    default_kernel,
    from_table,
    kernel_events,
    play_out,
    score,
)

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
