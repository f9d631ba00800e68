"""The engine at the bottom of the package: int cards, count-array hands, precomputed
tables, move generation and whole hands (``KHand``) (docs/kernel.md). The rules API
(``shengji.rules.units``, ``follow``, ``leads``, ``throws``, ``tricks``) answers from it.

``_core`` is compiled with mypyc when the package is installed with a compiler at hand;
``SHENGJI_PURE=1`` (or :func:`load_core` with ``pure=True``) uses the same code as plain
Python. ``tests/kernel`` checks it against the oracle (``tests/oracle``, the object rules
core it was ported from).

The bottom layer: ``_core``, ``loader`` and ``access`` import nothing of the package but
``shengji.errors``. The kernel driven with the rules' objects (whole matches and the
rollout API for search: ``Kernel``, ``from_table``, ``play_out``, ``score``...) is a layer
above the rules, :mod:`shengji.engine`.
"""

from __future__ import annotations

from .loader import compiled, load_core

__all__ = ["compiled", "load_core"]
