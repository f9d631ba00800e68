"""Reinforcement-learning environments (the ``rl`` extra: pettingzoo, gymnasium, numpy).

:func:`env` / :class:`raw_env` are a PettingZoo AEC environment of a whole match between
one agent per seat (four, or 4 to 8 in 找朋友), every action chosen card by card from
``Discrete(55)`` with an action mask; :class:`SingleSeatEnv` is a Gymnasium environment
of one seat against the project's bots; :class:`VectorEnv` steps many tables in one call,
their observations and masks as one numpy array. See ``docs/env.md``.

An adapter: it may import the bots (its opponents, and the observation encoding the
DMC bot shares), the game, the words, the rules, the kernel and ``shengji.errors``; not
server, tui or the tools (tests/test_architecture.py checks it).
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise ImportError(
        f"shengji.env needs the 'rl' extra ({e.name} is missing): pip install 'shengji[rl]'"
    ) from e

from ..bots.observation import LAYOUT, OBS_SIZE, SCALARS, Layout, encode, layout_of, part
from ..game.moves import DONE, N_ACTIONS, Decision, action_indexes
from .aec import AGENTS, env, raw_env
from .single import SingleSeatEnv
from .vector import VectorEnv

__all__ = [
    "AGENTS",
    "DONE",
    "LAYOUT",
    "N_ACTIONS",
    "OBS_SIZE",
    "SCALARS",
    "Decision",
    "Layout",
    "SingleSeatEnv",
    "VectorEnv",
    "action_indexes",
    "encode",
    "env",
    "layout_of",
    "part",
    "raw_env",
]
