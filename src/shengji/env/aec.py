"""The PettingZoo AEC environment: agents ``seat_0`` .. ``seat_{n-1}`` (four, or the
preset's ``players`` in 找朋友) play a match of any preset, choosing every action card by
card (see :mod:`shengji.game.moves`).

Each step is one action index: a card kind (0..53) added to the acting seat's selection,
or ``DONE`` (54), which applies the selection to the game. The same agent keeps acting
until its action is done. When a hand ends, every agent is rewarded at once, in levels
(the side that went up gets ``+levels``, the other ``-levels``; in 找朋友 the sides as
the hand ended), and the next hand is dealt. The match ends (terminations) at
``match_over``; ``max_hands`` ends it earlier (truncations).

The match runs on the kernel (:class:`~shengji.engine.match.KMatch`): masks come from
the kernel's ``KDecision`` (:mod:`shengji.env.masks`) and observations from its
``KObserver`` (:class:`~shengji.bots.observation.KernelObserver`), both compiled with the
kernel and equal to what the object engine's ``moves.Decision`` and
``encode(seat_view(...))`` give for the same game. :attr:`raw_env.game`
is the same match as a :class:`~shengji.game.GameState`, rebuilt on request by applying the
match's decisions with :func:`shengji.game.apply`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..bots.observation import LAYOUT, KernelObserver, Layout, layout_of, scales
from ..engine.match import KMatch
from ..errors import Code, OptionError
from ..game.actions import Action, ActionError, Bury, Call, Continue, Declare, Pass, Play
from ..game.flow import apply, new_match
from ..game.moves import DONE, N_ACTIONS
from ..game.state import GameState
from ..kernel._core import ACT_BURY, ACT_CALL, ACT_DECLARE, ACT_PASS, PH_OVER, PH_REDEAL
from ..kernel.access import PHASE_NAMES
from ..rules.cards import ALL_CARDS, Card, format_cards, rank_text
from ..rules.friends import FriendCall, check_calls
from ..rules.options import RuleOptions
from ..rules.phases import Phase
from ..rules.presets import load_preset
from .masks import CALL, decision, mask_array

if TYPE_CHECKING:
    from ..kernel._core import KDecision

#: The agents of a four-seat table (``raw_env.possible_agents`` has one per seat).
AGENTS = ("seat_0", "seat_1", "seat_2", "seat_3")
Observation = dict[str, npt.NDArray[Any]]


def env(
    preset: str = "shuangsheng",
    render_mode: str | None = None,
    max_hands: int | None = None,
    overrides: dict[str, Any] | None = None,
) -> AECEnv:
    """The environment with the checks of PettingZoo's standard wrappers, as its classic
    games have them (:class:`Checked`): an action outside the mask ends the match with a
    reward of -1 for the agent that chose it (0 for the others), out-of-bounds actions are
    asserted, the order is enforced. :class:`raw_env` raises ``ILLEGAL_ACTION`` instead."""
    return Checked(raw_env(preset, render_mode, max_hands, overrides))


class Checked(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # untyped base
    """What ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(e,
    illegal_reward=-1)))`` does to ``e``, in one wrapper that reads the environment's
    attributes directly: the three, each forwarding every attribute by ``__getattr__``,
    cost more than a step of the environment (``tests/test_env.py`` plays both side by
    side, illegal moves and calls out of order included)."""

    def __init__(self, e: raw_env) -> None:
        super().__init__(e)
        self._raw = e
        self._prev_obs: Observation | None = None
        self._terminated = False

    # the attributes PettingZoo's loop reads at every step, without ``__getattr__``
    def _ready(self, name: str) -> raw_env:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return self._raw

    @property
    def agent_selection(self) -> str:
        """The agent to act (or a done agent to step with ``None``)."""
        return self._ready("agent_selection").agent_selection

    @property
    def agents(self) -> list[str]:
        """The agents still in the episode."""
        return self._ready("agents").agents

    @property
    def rewards(self) -> dict[str, float]:
        """Each agent's reward from the last step."""
        return self._ready("rewards").rewards

    @property
    def terminations(self) -> dict[str, bool]:
        """Whether each agent's episode ended with the match."""
        return self._ready("terminations").terminations

    @property
    def truncations(self) -> dict[str, bool]:
        """Whether each agent's episode was cut short (``max_hands``)."""
        return self._ready("truncations").truncations

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """Each agent's info."""
        return self._ready("infos").infos

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self._raw._cumulative_rewards

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match (see :meth:`raw_env.reset`)."""
        self._terminated = False
        self._prev_obs = None
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> Observation:
        """The agent's observation (see :meth:`raw_env.observe`)."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        obs = self._raw.observe(agent)
        if agent == self._raw.agent_selection:
            self._prev_obs = obs
        return obs

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Any]:
        """The agent to act's observation, reward so far, ends and info."""
        raw = self._ready("agent_selection")
        agent = raw.agent_selection
        obs = self.observe(agent) if observe else None
        return (
            obs,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Step the agent to act; an action outside its mask ends the match with -1 for it."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        raw = self._raw
        if not raw.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = raw.agent_selection
        done = raw.terminations[agent] or raw.truncations[agent]
        bounded = type(action) is int and 0 <= action < N_ACTIONS  # the common case, at once
        assert (action is None and done) or bounded or _ACTIONS.contains(action), (
            "action is not in action space"
        )
        prev = self._prev_obs
        if prev is None:
            prev = raw.observe(agent)
        self._prev_obs = None
        if self._terminated and done:
            raw._was_dead_step(action)
        elif not done and not prev["action_mask"][action]:
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.truncations, 0)
            raw.rewards[agent] = -1.0
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
        else:
            raw.step(action)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's naming and untyped base
    """A match of ``preset`` (rule ``overrides`` optional) between learning agents, one per
    seat: ``seat_0`` .. ``seat_{n-1}`` (:attr:`seats`)."""

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
        #: The observation layout of this table (:func:`~shengji.bots.observation.layout_of`).
        self.layout: Layout = layout_of(self.options)
        #: Seats at the table: 4, or the preset's ``players`` in 找朋友.
        self.seats = self.layout.seats
        self._agents = tuple(f"seat_{s}" for s in range(self.seats))
        self._seat_of = {agent: seat for seat, agent in enumerate(self._agents)}
        self.possible_agents = list(self._agents)
        self.agents: list[str] = []
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self._agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self._agents}
        self._match: KMatch | None = None
        self._observer: KernelObserver | None = None
        self._game_seed = 0
        #: Decisions of the hands before this one (``KHand.log`` entries) and a
        #: ``[_CONTINUE]`` between hands: what :attr:`game` replays.
        self._log: list[list[int]] = []
        self._game: GameState | None = None
        self._game_at = 0
        self.selection: list[Card] = []
        self._decision: KDecision | None = None
        self._rng = np.random.default_rng()
        self.hands_played = 0
        self._rewarded = False
        #: Observation vectors (empty selection) by seat, kept until the next decision.
        self._vectors: dict[int, npt.NDArray[np.float32]] = {}
        #: The acting seat's vector with its selection, kept up to date card by card.
        self._acting: npt.NDArray[np.float32] | None = None
        #: A selection part's entry for each count of a card (float32, as ``encode``).
        scale = scales(self.options)[_SELECTION]
        self._chosen = [np.float32(k) * scale for k in range(self.options.decks + 1)]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every agent: ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(55)``: 54 card kinds and ``DONE``."""
        return self.action_spaces[agent]

    @property
    def match(self) -> KMatch:
        """The match on the kernel (mutable: for reading, not for changing)."""
        if self._match is None:
            raise ActionError("call reset() first", code=Code.ILLEGAL_ACTION)
        return self._match

    @property
    def game(self) -> GameState:
        """The whole game state (every hand: for bots and referees, not for agents), the
        same match as :attr:`match`: built by applying its decisions with
        :func:`shengji.game.apply`, from where the last call left off."""
        m = self.match
        log = self._log
        current = m.hand.log
        total = len(log) + len(current)
        st = self._game
        if st is None:
            st = new_match(self.options, self._game_seed)
            self._game_at = 0
        at = self._game_at
        while at < total:
            st = _replay(st, log[at] if at < len(log) else current[at - len(log)])
            at += 1
        self._game, self._game_at = st, at
        return st

    @property
    def phase(self) -> Phase:
        """The game's phase now (as :attr:`game`'s, without building it)."""
        h = self.match.hand
        if h.phase == PH_OVER:
            return "match_over" if self.match.over else "hand_over"
        return PHASE_NAMES[h.phase]

    # -- PettingZoo API -------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; ``seed`` makes it (and every later deal) reproducible
        (``options`` is accepted for the API and not used: rules are chosen at creation)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**31 - 1))
        agents = self._agents
        self.agents = list(agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        self.hands_played = 0
        self._rewarded = False
        self._game_seed = game_seed
        self._match = KMatch(self.options, game_seed)
        self._observer = KernelObserver(self._match)
        self._log = []
        self._game = None
        self._advance()

    def observe(self, agent: str) -> Observation:
        """What ``agent``'s seat may see, its selection and (when it acts) its mask."""
        seat = self._seat_of[agent]
        d = self._decision
        if agent == self.agent_selection and d is not None:
            vec = self._acting
            if vec is None:
                vec = self._acting = self._vector(seat)
                for c in set(d.cards):
                    vec[_SELECTION + c] = self._chosen[d.cards.count(c)]
            return {"observation": vec.copy(), "action_mask": mask_array(d)}
        vec = self._vectors.get(seat)
        if vec is None:
            vec = self._vectors[seat] = self._vector(seat)
        return {"observation": vec.copy(), "action_mask": np.zeros(N_ACTIONS, dtype=np.int8)}

    def _vector(self, seat: int) -> npt.NDArray[np.float32]:
        """A new observation vector of ``seat`` with an empty selection."""
        if self._observer is None:
            raise ActionError("call reset() first", code=Code.ILLEGAL_ACTION)
        return self._observer.vector(seat)

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Add a card to the selection, or apply it with ``DONE``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self._decision
        assert d is not None
        if action is None or not 0 <= int(action) < N_ACTIONS or not d.mask[int(action)]:
            raise ActionError(
                f"action {action!r} is not allowed by the action mask of {agent}",
                params={"phase": self.phase},
            )
        index = int(action)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # rewards come only at the end of a hand: most steps skip this
            self._clear_rewards()
            self._rewarded = False
        if index == DONE:
            self._apply(d)
            if self._rewarded:
                self._accumulate_rewards()
        else:
            self.selection.append(ALL_CARDS[index])
            d.add(index)
            vec = self._acting
            if vec is not None:
                vec[_SELECTION + index] = self._chosen[d.cards.count(index)]
        if self.render_mode == "human":
            self.render()

    def call_at_once(self, calls: Sequence[FriendCall]) -> None:
        """The banker to act calls ``calls`` in one step (for bots and referees: a call of
        one card twice, ``SA:1 SA:2``, has no card-by-card steps, :mod:`shengji.game.moves`).
        Raises ``ILLEGAL_CALL`` when the calls are not allowed, ``ILLEGAL_ACTION`` outside
        the call phase or after a card was chosen."""
        d = self._decision
        if d is None or d.kind != CALL or d.cards:
            raise ActionError("no friend call to make now", params={"phase": self.phase})
        h = self.match.hand
        cards, ords = [c.card.index for c in calls], [c.ordinal for c in calls]
        if h.call_error(cards, ords):
            check_calls(self.game.ctx, tuple(calls))  # raises the worded CallError
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        self._cumulative_rewards[self.agent_selection] = 0.0
        h.call_friends(cards, ords)
        self._advance()

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self._match is None:
            return None
        st = self.game
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

    def _apply(self, d: KDecision) -> None:
        """Take the decision ``d`` with its selection, then run the match to the next one."""
        d.apply(self.match.hand)
        self._advance()

    def _advance(self) -> None:
        """Run what needs no decision (deals, redeals, the end of a hand and the next
        hand) until a seat must decide or the episode ends; then set up that decision."""
        m = self.match
        self._vectors = {}
        self._acting = None
        while True:
            h = m.hand
            h.advance()
            if h.phase == PH_REDEAL:
                self._log.extend(h.log)
                m.redeal()
                continue
            if h.phase != PH_OVER:
                break
            m.finish_hand()
            self._reward(m)
            self.hands_played += 1
            if m.over:
                self.terminations = dict.fromkeys(self.agents, True)
            elif self.max_hands is not None and self.hands_played >= self.max_hands:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self._log.extend(h.log)
                self._log.append([_CONTINUE])
                m.next_hand()
                continue
            break
        self.selection = []
        h = m.hand
        if h.phase == PH_OVER:
            self._decision = None
            return
        self._decision = decision(h, m.core)
        self.agent_selection = self._agents[h.to_act]

    def _reward(self, m: KMatch) -> None:
        """Every seat's reward for the hand just scored: ``+moved`` for the side that went
        up, ``-moved`` for the other (the sides as the hand ended: in 找朋友 the banker and
        the friends found against the rest)."""
        outcome = m.results[-1].outcome
        ks = m.hand.play
        assert ks is not None
        team = ks.team
        banker_team = team[outcome.banker_seat]
        up = banker_team if outcome.side == "banker" else 1 - banker_team
        moved = float(outcome.moved)
        for seat, agent in enumerate(self._agents):
            self.rewards[agent] = moved if team[seat] == up else -moved
        self._rewarded = True


#: The action space of every agent (``Discrete(55)``), for the bounds check.
_ACTIONS = spaces.Discrete(N_ACTIONS)
_SELECTION = dict(LAYOUT)["hand"]  # the ``selection`` part comes right after the hand
#: The ``continue`` between two hands in the replayed log.
_CONTINUE = -1


def _replay(st: GameState, entry: list[int]) -> GameState:
    """``st`` after one decision of a kernel log (``[kind, seat, card...]``)."""
    kind = entry[0]
    if kind == _CONTINUE:
        return apply(st, 0, Continue())[0]
    seat = entry[1]
    action: Action
    if kind == ACT_DECLARE:
        action = Declare((ALL_CARDS[entry[2]],) * entry[3])
    elif kind == ACT_PASS:
        action = Pass()
    elif kind == ACT_CALL:
        action = Call(tuple(FriendCall(ALL_CARDS[v >> 3], v & 7) for v in entry[2:]))
    else:
        cards = tuple(ALL_CARDS[c] for c in entry[2:])
        action = Bury(cards) if kind == ACT_BURY else Play(cards)
    return apply(st, seat, action)[0]
