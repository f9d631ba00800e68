"""The move model of :mod:`shengji.game.moves` on the kernel's state: action masks of a
:class:`~shengji.kernel._core.KHand` for the seat to act, card by card.

The work is the kernel's :class:`~shengji.kernel._core.KDecision` (compiled with the rest
of the kernel), which allows exactly the cards and ``DONE`` that
``shengji.game.moves.Decision(seat_view(...)).mask(selection)`` allows for the same game and
selection (``tests/test_env_kernel.py`` compares them along random games of every preset),
worked out from the kernel's int cards and count arrays:

- declaring: a prefix of a legal show (``KHand.legal_shows``), ``DONE`` on a whole show
  or on nothing (pass);
- burying: any card still held until the kitty is full, ``DONE`` when it is;
- leading: any card still held of the effective suit of the first card, ``DONE`` on any
  selection (a unit, or a throw attempt that the kernel checks against the other hands);
- following: a card that keeps the selection inside some family of legal follows
  (``cores``: fixed cards plus ``free`` distinct cards of a pool), ``DONE`` once the
  selection has the lead's size (it is then one of those follows);
- calling friends (找朋友): each call is its card repeated ``ordinal`` times, a card other
  than the last call's starts the next call; a callable card (``KHand.callable_card``)
  not called yet while fewer than ``calls`` calls are chosen, the last call's card again
  up to the number of decks, ``DONE`` once exactly ``calls`` calls are chosen
  (``KDecision.calls``, ``KDecision.ordinals``).

The selection is kept by the decision: ``KDecision.add`` takes the next card and updates
``KDecision.mask`` (a list of 55 ints) in place; :func:`mask_array` gives it as numpy.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from ..kernel._core import KDecision, KHand

#: Kinds of a decision (``KDecision.kind``: the ``kind`` of ``shengji.game.moves.Decision``,
#: as ints, the kernel's ``DEC_*``).
DECLARE: Final = 0
BURY: Final = 1
LEAD: Final = 2
FOLLOW: Final = 3
CALL: Final = 4
KIND_NAMES: Final = ("declare", "bury", "lead", "follow", "call")

Mask = npt.NDArray[np.int8]


def decision(h: KHand, core: ModuleType | Any) -> KDecision:
    """The decision of the seat to act in ``h`` (on the kernel ``core`` that runs ``h``)."""
    d: KDecision = core.KDecision(h)
    return d


def mask_array(d: KDecision) -> Mask:
    """The mask of ``d`` now, as a new int8 array of 55."""
    return np.frombuffer(bytearray(d.mask), dtype=np.int8)


def kind_name(d: KDecision) -> str:
    """``declare``, ``bury``, ``lead``, ``follow`` or ``call`` (as
    ``moves.Decision.kind``)."""
    return KIND_NAMES[d.kind]
