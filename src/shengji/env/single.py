"""A Gymnasium single-agent environment: one seat learns, the other seats (three, or the
rest of a 找朋友 table) are the project's bots (:mod:`shengji.bots.registry`), each given
only its own seat's view.

The bots' actions go through the same card-by-card steps as the learner's, so every
reward of the learner's seat between two of its steps is summed into the reward of its
step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from ..bots.registry import make_player
from ..errors import Code, OptionError
from ..game.actions import Call
from ..game.moves import action_indexes
from ..game.players import Player
from ..game.views import seat_view
from .aec import Observation, raw_env


class SingleSeatEnv(gymnasium.Env[Observation, np.int64]):
    """Seat ``seat`` of a match of ``preset`` against ``bots`` (one spec for every other
    seat, or one spec per other seat in seat order after ``seat``: three at a four-seat
    table, ``players - 1`` in 找朋友); ``info["action_mask"]`` and ``obs["action_mask"]``
    give the legal actions."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"]}  # noqa: RUF012  (as in Env)

    def __init__(
        self,
        preset: str = "shuangsheng",
        seat: int = 0,
        bots: str | Sequence[str] = "heuristic",
        max_hands: int | None = 1,
        render_mode: str | None = None,
        overrides: dict[str, Any] | None = None,
    ) -> None:
        self.aec = raw_env(preset, render_mode, max_hands, overrides)
        n = self.aec.seats
        if seat not in range(n):
            raise OptionError(f"seat must be 0..{n - 1}, not {seat!r}", code=Code.BAD_OPTION_VALUE)
        specs = [bots] * (n - 1) if isinstance(bots, str) else list(bots)
        if len(specs) != n - 1:
            raise OptionError(f"give one bot spec or {n - 1}", code=Code.BAD_OPTION_VALUE)
        for spec in specs:
            make_player(spec, 0, 0)  # checks the spec now rather than at reset
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.specs = specs
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.bots: dict[int, Player] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new match and let the bots act until the learner's seat must."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**31 - 1))
        self.aec.reset(seed=seed)
        n = self.aec.seats
        others = [(self.seat + i) % n for i in range(1, n)]
        self.bots = {
            s: make_player(spec, s, seed + s) for s, spec in zip(others, self.specs, strict=True)
        }
        self._run_bots()
        obs = self.aec.observe(self.agent)
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """One card (or ``DONE``) for the learner, then the bots until it acts again or
        the match ends; the reward is the learner's, in levels. An action outside the mask
        ends the episode with a reward of -1 and ``info["illegal_action"]`` (as
        PettingZoo's classic games do); the game is left as it was."""
        obs = self.aec.observe(self.agent)
        index = int(action)
        if not 0 <= index < len(obs["action_mask"]) or not obs["action_mask"][index]:
            info = {"action_mask": obs["action_mask"], "illegal_action": True}
            return obs, -1.0, True, False, info
        self.aec.step(index)
        reward = self.aec.rewards[self.agent] + self._run_bots()
        obs = self.aec.observe(self.agent)
        terminated = self.aec.terminations[self.agent]
        truncated = self.aec.truncations[self.agent]
        return obs, reward, terminated, truncated, {"action_mask": obs["action_mask"]}

    def render(self) -> str | None:
        """The table as text (see :meth:`raw_env.render`)."""
        return self.aec.render()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The current action mask (for libraries that ask the environment for it)."""
        mask: npt.NDArray[np.int8] = self.aec.observe(self.agent)["action_mask"]
        return mask

    def _run_bots(self) -> float:
        """Let bots act while it is their turn; the learner's rewards meanwhile."""
        total = 0.0
        aec = self.aec
        while not (aec.terminations[self.agent] or aec.truncations[self.agent]):
            seat = aec.possible_agents.index(aec.agent_selection)
            if seat == self.seat:
                break
            action = self.bots[seat].act(seat_view(aec.game, seat))
            if isinstance(action, Call) and len({c.card for c in action.calls}) < len(
                action.calls
            ):  # one card called twice: no card-by-card steps reach it
                aec.call_at_once(action.calls)
                continue
            for index in action_indexes(action):
                aec.step(index)
                total += aec.rewards[self.agent]
        return total
