"""A compiled fast core for the play phase: int cards, count-array hands, precomputed
tables, move generation and a mutable state, with a rollout API for search (docs/kernel.md).

``_core`` is compiled with mypyc when the package is installed with a compiler at hand;
``SHENGJI_PURE=1`` (or :func:`load_core` with ``pure=True``) uses the same code as plain
Python. The rules core stays the reference: ``tests/kernel`` checks that both give the
same plays, failed throws, tricks and hand results.
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
