"""A bot that plays a Q-network trained with Deep Monte Carlo (``examples/train_dmc.py``).

The network maps an observation vector (:func:`shengji.bots.observation.encode` of the
bot's own :class:`~shengji.game.views.SeatView` and its selection so far) to one value per
action of the environment (54 card kinds and ``DONE``): the levels the bot's team is
expected to gain from the hand when it takes that action next. The bot chooses card by
card, the best value among the actions the move model allows
(:class:`shengji.game.moves.Decision`), exactly as an agent in the environment does. The model
is a ``.npz`` file of the layers' weights (``w0``, ``b0``, ``w1``, ...; ReLU between
them), so playing needs numpy only; training needs PyTorch (the ``train`` extra).

The bot keeps numpy's BLAS to one thread: importing this module sets
``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS`` to 1 (unless they
are set) when numpy is not imported yet in the process, for the network's matrix-vector
products are small and BLAS's other threads spin while they wait (a process that
imported numpy before sets them itself). Without numpy it raises ``MISSING_EXTRA``.

A model reads the observation layout it was trained on: the models of
``examples/train_dmc.py`` read the four-seat one (1044 entries), so they play tables of
four seats with fixed partnerships; a 找朋友 table (``friends``, 4 to 8 seats) is refused
with ``BAD_BOT_SPEC`` rather than played with the wrong inputs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

if "numpy" not in sys.modules:  # one BLAS thread (read when numpy starts; see below)
    for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_name, "1")
try:
    import numpy as np
    import numpy.typing as npt
except ImportError as _e:  # pragma: no cover - depends on what is installed
    from ..extras import extra_error

    raise extra_error("the dmc bot", "rl", _e.name or "numpy") from None

from ..errors import Code, ShengjiError
from ..game.actions import Action, Continue
from ..game.moves import DONE, Decision
from ..game.views import SeatView
from ..rules.cards import ALL_CARDS, Card

Weights = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]


def load_weights(path: str | Path) -> Weights:
    """The layers ``(w, b)`` of a model saved by ``examples/train_dmc.py``."""
    try:
        with np.load(path) as z:
            n = sum(1 for k in z.files if k.startswith("w"))
            return [
                (z[f"w{i}"].astype(np.float32), z[f"b{i}"].astype(np.float32)) for i in range(n)
            ]
    except (OSError, ValueError, KeyError) as e:
        raise ShengjiError(
            f"cannot load the DMC model {str(path)!r}: {e}",
            code=Code.BAD_BOT_SPEC,
            params={"bot": "dmc"},
        ) from e


def q_values(weights: Weights, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The network's values of the actions for one observation (or a batch of them)."""
    x = obs
    last = len(weights) - 1
    for i, (w, b) in enumerate(weights):
        x = x @ w + b
        if i < last:
            np.maximum(x, 0, out=x)
    return x


def best(q: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
    """The allowed action of highest value."""
    return int(np.flatnonzero(mask)[np.argmax(q[mask])])


_CACHE: dict[str, Weights] = {}


class DmcBot:
    """Plays the model at ``path`` from its own view (deterministic: the best value)."""

    name = "dmc"

    def __init__(self, seat: int, path: str) -> None:
        self.seat = seat
        weights = _CACHE.get(path)
        if weights is None:
            weights = _CACHE[path] = load_weights(path)
        self.weights = weights

    def check_table(self, view: SeatView) -> None:
        """Raise ``BAD_BOT_SPEC`` unless the model's input is this table's observation:
        the four-seat models refuse 找朋友 tables."""
        from .observation import layout_of

        size = layout_of(view.options).size
        inputs = self.weights[0][0].shape[0]
        if view.options.friends or size != inputs:
            table = (
                f"a 找朋友 table of {view.options.players} seats (an observation of {size})"
                if view.options.friends
                else f"this table (an observation of {size})"
            )
            raise ShengjiError(
                f"the DMC model reads an observation of {inputs} entries (four seats, fixed "
                f"partnerships): it cannot play {table}",
                code=Code.BAD_BOT_SPEC,
                params={"bot": "dmc", "inputs": inputs, "size": size},
            )

    def act(self, view: SeatView) -> Action:
        """Choose the action card by card."""
        from .observation import encode

        if view.phase == "hand_over":
            return Continue()
        self.check_table(view)
        d = Decision(view)
        selection: list[Card] = []
        while True:
            mask = np.array(d.mask(selection), dtype=np.bool_)
            q = q_values(self.weights, encode(view, selection))
            a = best(q, mask)
            if a == DONE:
                return d.action(selection)
            selection.append(ALL_CARDS[a])
