"""Many tables stepped in one call: :class:`VectorEnv`, for PPO / DMC style training that
wants observations and masks as one numpy array.

Each of ``num_envs`` tables plays a match of the preset on the kernel, as :class:`raw_env
<shengji.env.aec.raw_env>` does, card by card (the move model of :mod:`shengji.game.moves`):
row ``i`` of the arrays is the decision of the seat to act at table ``i``
(``obs["seat"][i]``), its observation (the layout of :mod:`shengji.bots.observation`, equal
to ``raw_env``'s for that seat) and its mask. ``step(actions)`` takes one action per table
(a card kind 0..53, or ``DONE``). A table whose hand ends gets every seat's reward in
levels (``rewards[i, seat]``, as ``raw_env``) and deals the next hand at once; a table
whose match ends (or reaches ``max_hands``) starts a new match in the same step, so every
row is always a decision to take.

>>> import numpy as np
>>> from shengji.env.vector import VectorEnv
>>> v = VectorEnv(8, max_hands=1)
>>> obs, info = v.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape, obs["seat"].shape
((8, 1044), (8, 55), (8,))
>>> rng = np.random.default_rng(0)
>>> hands = 0
>>> while hands < 8:
...     actions = v.sample(rng)   # a uniformly random allowed action per table
...     obs, rewards, terminated, truncated, info = v.step(actions)
...     hands += int(info["hand_over"].sum())
>>> rewards.shape, bool(truncated.any() or hands >= 8)
((8, 4), True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from ..bots.observation import Layout, _floats, layout_of, positions, scales
from ..engine.match import KMatch
from ..errors import Code, OptionError
from ..game.actions import ActionError
from ..game.moves import N_ACTIONS
from ..kernel._core import PH_OVER, PH_REDEAL
from ..rules.options import RuleOptions
from ..rules.presets import load_preset

if TYPE_CHECKING:
    from ..kernel._core import KTable

Observations = dict[str, npt.NDArray[Any]]


class VectorEnv:
    """``num_envs`` tables of ``preset`` (rule ``overrides`` optional), each a match
    between the learning agents of its seats, stepped together.

    ``reset(seed)`` and ``step(actions)`` return ``obs``: ``observation`` (float32,
    ``(num_envs, layout.size)``), ``action_mask`` (int8, ``(num_envs, 55)``) and ``seat``
    (int64, ``(num_envs,)``: whose decision each row is); ``step`` also returns
    ``rewards`` (float32, ``(num_envs, seats)``: every seat's reward in levels, at the
    step that ended a hand), ``terminated`` and ``truncated`` (the match of the table
    ended, or ``max_hands`` were played: the table has started a new match, whose first
    decision is its row now) and ``info["hand_over"]`` (a hand of the table ended at this
    step). The arrays are copies unless ``copy=False`` (then they are the environment's
    own, overwritten by the next step)."""

    def __init__(
        self,
        num_envs: int,
        preset: str = "shuangsheng",
        max_hands: int | None = None,
        overrides: dict[str, Any] | None = None,
        copy: bool = True,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise OptionError(
                f"num_envs must be a positive int, not {num_envs!r}", code=Code.BAD_OPTION_VALUE
            )
        self.num_envs = n = num_envs
        self.options: RuleOptions = load_preset(preset, overrides)
        self.max_hands = max_hands
        self.copy = copy
        #: The observation layout (:func:`~shengji.bots.observation.layout_of`).
        self.layout: Layout = layout_of(self.options)
        #: Seats at each table: 4, or the preset's ``players`` in 找朋友.
        self.seats = self.layout.seats
        size = self.layout.size
        self._obs = np.zeros((n, size), dtype=np.float32)
        self._mask_bytes = bytearray(n * N_ACTIONS)
        self._masks = np.frombuffer(self._mask_bytes, dtype=np.int8).reshape(n, N_ACTIONS)
        self._seat_bytes = bytearray(n)
        self._seat = np.frombuffer(self._seat_bytes, dtype=np.int8)
        self._rewards = np.zeros((n, self.seats), dtype=np.float32)
        self._matches: list[KMatch] = []
        self._tables: list[KTable] = []
        #: Hands played in each table's current match.
        self.hands_played = np.zeros(n, dtype=np.int64)
        self._rng = np.random.default_rng()

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        """Deal a new match at every table; ``seed`` makes them (and every later deal)
        reproducible (``options`` is accepted as Gymnasium's and not used)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._matches = []
        self._tables = []
        lay = self.layout
        at = positions(lay)
        scale = scales(self.options).tolist()
        obs = _floats(self._obs.reshape(-1))
        for i in range(self.num_envs):
            m = self._new_match()
            self._matches.append(m)
            observer = m.core.KObserver(lay.seats, lay.friends, at, scale)
            table = m.core.KTable(observer, i, obs, self._mask_bytes, self._seat_bytes)
            self._tables.append(table)
            self._next_decision(i)
        self.hands_played[:] = 0
        return self._out(), {}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observations,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One action per table (allowed by its row of the mask: a card, or ``DONE``).
        Raises ``ILLEGAL_ACTION`` naming the tables whose action is not allowed; then no
        table has moved."""
        if not self._tables:
            raise ActionError("call reset() first", code=Code.ILLEGAL_ACTION)
        acts = np.asarray(actions)
        n = self.num_envs
        if acts.shape != (n,) or acts.dtype.kind not in "iu":
            raise ActionError(
                f"actions must be {n} ints, one a table, not {acts.shape} {acts.dtype}"
            )
        inside = (acts >= 0) & (acts < N_ACTIONS)
        allowed = inside.copy()
        allowed[inside] = self._masks[np.flatnonzero(inside), acts[inside]] != 0
        if not allowed.all():
            bad = np.flatnonzero(~allowed)
            raise ActionError(
                f"the action of table(s) {bad[:8].tolist()} is not allowed by its mask "
                f"(actions {acts[bad[:8]].tolist()})",
                params={"tables": bad.tolist()},
            )
        self._rewards.fill(0.0)
        terminated = np.zeros(n, dtype=np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        hand_over = np.zeros(n, dtype=np.bool_)
        core = self._matches[0].core
        stopped = core.step_tables(self._tables, acts.tolist())
        for i in stopped:
            m = self._matches[i]
            if m.hand.phase == PH_OVER:
                hand_over[i] = True
                m.finish_hand()
                self._reward(i, m)
                self.hands_played[i] += 1
                if m.over:
                    terminated[i] = True
                elif self.max_hands is not None and self.hands_played[i] >= self.max_hands:
                    truncated[i] = True
                else:
                    m.next_hand()
                if terminated[i] or truncated[i]:
                    self._matches[i] = self._new_match()
                    self.hands_played[i] = 0
            self._next_decision(i)
        rewards = self._rewards.copy() if self.copy else self._rewards
        return self._out(), rewards, terminated, truncated, {"hand_over": hand_over}

    def sample(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random allowed action for each table (from ``rng``)."""
        rng = rng or self._rng
        masks = self._masks
        counts = masks.sum(axis=1, dtype=np.int64)
        pick = (rng.random(self.num_envs) * counts).astype(np.int64)
        ranks = np.cumsum(masks, axis=1, dtype=np.int64)
        return cast(npt.NDArray[np.int64], (ranks <= pick[:, None]).sum(axis=1, dtype=np.int64))

    def close(self) -> None:
        """Nothing to release."""

    # -- internals --------------------------------------------------------------------------

    def _new_match(self) -> KMatch:
        m = KMatch(self.options, int(self._rng.integers(0, 2**31 - 1)))
        m.hand.record = True  # the observer reads the hand's play events
        return m

    def _next_decision(self, i: int) -> None:
        """Run table ``i``'s match on to the next decision (deals, redeals, a new hand)
        and write its row."""
        m = self._matches[i]
        while True:
            h = m.hand
            h.advance()
            if h.phase == PH_REDEAL:
                m.redeal()
                continue
            break
        self._tables[i].decide(h, list(m.levels), m.hand_number)

    def _reward(self, i: int, m: KMatch) -> None:
        """Every seat's reward for the hand just scored at table ``i`` (as ``raw_env``)."""
        outcome = m.results[-1].outcome
        ks = m.hand.play
        assert ks is not None
        team = ks.team
        banker_team = team[outcome.banker_seat]
        up = banker_team if outcome.side == "banker" else 1 - banker_team
        moved = float(outcome.moved)
        row = self._rewards[i]
        for seat in range(self.seats):
            row[seat] = moved if team[seat] == up else -moved

    def _out(self) -> Observations:
        if self.copy:
            return {
                "observation": self._obs.copy(),
                "action_mask": self._masks.copy(),
                "seat": self._seat.astype(np.int64),
            }
        return {
            "observation": self._obs,
            "action_mask": self._masks,
            "seat": self._seat.astype(np.int64),
        }
