"""The PettingZoo AEC environment: four agents ``seat_0`` .. ``seat_3`` play a match of any
preset, choosing every action card by card (see :mod:`shengji.moves`).

Each step is one action index: a card kind (0..53) added to the acting seat's selection,
or ``DONE`` (54), which applies the selection to the game (:func:`shengji.game.apply`).
The same agent keeps acting until its action is done. When a hand ends, every agent is
rewarded at once, in levels (the team that went up gets ``+levels``, the other
``-levels``), and the next hand is dealt. The match ends (terminations) at
``match_over``; ``max_hands`` ends it earlier (truncations).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..actions import Action, ActionError, Continue
from ..cards import ALL_CARDS, Card, format_cards, rank_text
from ..errors import Code, OptionError
from ..game import GameState, apply, new_match
from ..moves import DONE, N_ACTIONS, Decision
from ..options import RuleOptions
from ..presets import load_preset
from ..views import seat_view
from .observation import OBS_SIZE, encode

AGENTS = ("seat_0", "seat_1", "seat_2", "seat_3")
Observation = dict[str, npt.NDArray[Any]]


def env(
    preset: str = "shuangsheng",
    render_mode: str | None = None,
    max_hands: int | None = None,
    overrides: dict[str, Any] | None = None,
) -> AECEnv:
    """The environment with PettingZoo's standard wrappers, as its classic games have them:
    an action outside the mask ends the match with a reward of -1 for the agent that chose
    it (0 for the others), out-of-bounds actions are asserted, the order is enforced.
    :class:`raw_env` raises ``ILLEGAL_ACTION`` instead."""
    e: AECEnv = raw_env(preset, render_mode, max_hands, overrides)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's naming and untyped base
    """A match of ``preset`` (rule ``overrides`` optional) between four learning agents."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "shengji_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "shuangsheng",
        render_mode: str | None = None,
        max_hands: int | None = None,
        overrides: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}",
                code=Code.BAD_OPTION_VALUE,
            )
        self.options: RuleOptions = load_preset(preset, overrides)
        self.render_mode = render_mode
        self.max_hands = max_hands
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-1000.0, 1000.0, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(AGENTS, obs_space)
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in AGENTS}
        self._game: GameState | None = None
        self.selection: list[Card] = []
        self._decision: Decision | None = None
        self._mask = np.zeros(N_ACTIONS, dtype=np.int8)
        self._rng = np.random.default_rng()
        self.hands_played = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every agent: ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(55)``: 54 card kinds and ``DONE``."""
        return self.action_spaces[agent]

    @property
    def game(self) -> GameState:
        """The whole game state (every hand: for bots and referees, not for agents)."""
        if self._game is None:
            raise ActionError("call reset() first", code=Code.ILLEGAL_ACTION)
        return self._game

    # -- PettingZoo API -------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; ``seed`` makes it (and every later deal) reproducible
        (``options`` is accepted for the API and not used: rules are chosen at creation)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**31 - 1))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.hands_played = 0
        self._game = new_match(self.options, game_seed)
        self._new_decision()

    def observe(self, agent: str) -> Observation:
        """What ``agent``'s seat may see, its selection and (when it acts) its mask."""
        seat = AGENTS.index(agent)
        acting = agent == self.agent_selection and self._decision is not None
        obs = encode(seat_view(self.game, seat), self.selection if acting else ())
        mask = self._mask.copy() if acting else np.zeros(N_ACTIONS, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Add a card to the selection, or apply it with ``DONE``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._decision is not None
        if action is None or not 0 <= int(action) < N_ACTIONS or not self._mask[int(action)]:
            raise ActionError(
                f"action {action!r} is not allowed by the action mask of {agent}",
                params={"phase": self.game.phase},
            )
        index = int(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if index == DONE:
            self._apply(self._decision.action(self.selection))
        else:
            self.selection.append(ALL_CARDS[index])
            self._mask = np.array(self._decision.mask(self.selection), dtype=np.int8)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self._game is None:
            return None
        st = self._game
        trump = st.trump or "?"
        lines = [
            f"hand {st.hand_number + 1} 第{st.hand_number + 1}副 · {st.phase} · "
            f"level 级 {rank_text(st.level)} · trump 主 {trump} · "
            f"points 分 {st.trick_points}"
        ]
        for p in st.trick:
            lines.append(f"  seat {p.seat} 座位{p.seat}: {format_cards(p.cards)}")
        if st.to_act is not None:
            lines.append(
                f"seat {st.to_act} to act 轮到座位{st.to_act}: "
                f"{format_cards(st.ctx.sorted(st.hands[st.to_act]))}"
            )
            if self.selection:
                lines.append(f"  selected 已选: {format_cards(self.selection)}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # -- internals --------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        st = self.game
        assert st.to_act is not None
        st, _ = apply(st, st.to_act, action)
        if st.phase in ("hand_over", "match_over"):
            self._reward(st)
            self.hands_played += 1
            if st.phase == "match_over":
                self.terminations = dict.fromkeys(self.agents, True)
            elif self.max_hands is not None and self.hands_played >= self.max_hands:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                st, _ = apply(st, 0, Continue())
        self._game = st
        self._new_decision()

    def _reward(self, st: GameState) -> None:
        outcome = st.results[-1].outcome
        banker_team = outcome.banker_seat % 2
        up = banker_team if outcome.side == "banker" else 1 - banker_team
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] = float(outcome.moved if seat % 2 == up else -outcome.moved)

    def _new_decision(self) -> None:
        self.selection = []
        st = self.game
        if st.to_act is None or st.phase in ("hand_over", "match_over"):
            self._decision = None
            self._mask = np.zeros(N_ACTIONS, dtype=np.int8)
            return
        self._decision = Decision(seat_view(st, st.to_act))
        self._mask = np.array(self._decision.mask(()), dtype=np.int8)
        self.agent_selection = AGENTS[st.to_act]
