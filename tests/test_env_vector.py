"""The vector environment: each row of ``VectorEnv`` is what ``raw_env`` gives for the same
match and actions (observation, mask, seat to act, rewards, ends), tables are independent,
and a batch with one action outside its mask moves no table."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from shengji.env import DONE, VectorEnv, raw_env
from shengji.errors import ShengjiError


class _Seeds:
    """Stands in for a ``raw_env``'s generator: the match seeds to deal, in order."""

    def __init__(self, *seeds: int) -> None:
        self.seeds = list(seeds)

    def integers(self, _low: int, _high: int) -> int:
        return self.seeds.pop(0)


def _raw_for(v: VectorEnv, i: int, preset: str, overrides: Any) -> Any:
    raw = raw_env(preset, max_hands=v.max_hands, overrides=overrides)
    raw._rng = _Seeds(v._matches[i].seed)  # type: ignore[assignment]
    raw.reset()
    return raw


def _same_row(v: VectorEnv, obs: dict[str, Any], i: int, raw: Any) -> None:
    agent = raw.agent_selection
    want = raw.observe(agent)
    assert obs["seat"][i] == int(agent.split("_")[1])
    assert np.array_equal(obs["observation"][i], want["observation"]), np.flatnonzero(
        obs["observation"][i] != want["observation"]
    )
    assert np.array_equal(obs["action_mask"][i], want["action_mask"])


@pytest.mark.parametrize(
    ("preset", "overrides", "tables"),
    [("shuangsheng", None, 3), ("classic-3deck", None, 2), ("zhaopengyou", {"players": 6}, 2)],
)
def test_each_row_is_raw_envs_for_the_same_match(preset: str, overrides: Any, tables: int) -> None:
    """Tables stepped together, each beside a ``raw_env`` dealt the same match and given
    the same actions: the same rows, rewards and ends, through the end of hands, the
    matches cut at ``max_hands`` and the new matches started in their place."""
    v = VectorEnv(tables, preset, max_hands=2, overrides=overrides)
    obs, _ = v.reset(seed=5)
    raws = [_raw_for(v, i, preset, overrides) for i in range(tables)]
    rng = np.random.default_rng(5)
    ends = hands = 0
    while ends < tables + 1:
        for i, raw in enumerate(raws):
            _same_row(v, obs, i, raw)
        actions = v.sample(rng)
        obs, rewards, terminated, truncated, info = v.step(actions)
        for i, raw in enumerate(raws):
            raw.step(int(actions[i]))
            agents = raw.possible_agents
            if info["hand_over"][i]:
                hands += 1
                assert list(rewards[i]) == [raw.rewards[a] for a in agents]
            else:
                assert not rewards[i].any()
                assert actions[i] != DONE or not any(raw.rewards.values())
            assert truncated[i] == raw.truncations[agents[0]]
            assert terminated[i] == raw.terminations[agents[0]]
            if truncated[i] or terminated[i]:
                ends += 1
                raws[i] = _raw_for(v, i, preset, overrides)
    assert hands >= 2 * (tables + 1)


def test_an_action_outside_a_mask_moves_no_table() -> None:
    v = VectorEnv(4)
    obs, _ = v.reset(seed=1)
    rng = np.random.default_rng(1)
    actions = v.sample(rng)
    assert all(obs["action_mask"][i, a] for i, a in enumerate(actions))
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    before = {k: a.copy() for k, a in obs.items()}
    with pytest.raises(ShengjiError, match=r"ILLEGAL_ACTION: the action of table\(s\) \[2\]"):
        v.step(bad)
    for wrong in ([0, 1, 2], actions.astype(np.float64), [99, 0, 0, 0]):
        with pytest.raises(ShengjiError, match="ILLEGAL_ACTION"):
            v.step(wrong)
    again, *_ = v.step(actions)  # nothing moved: the same actions are still allowed
    for key in ("observation", "action_mask", "seat"):
        assert np.array_equal(before[key], obs[key])
    assert not np.array_equal(again["observation"], before["observation"])


def test_arrays_are_copies_unless_asked_otherwise() -> None:
    rng = np.random.default_rng(2)
    copied = VectorEnv(2)
    a, _ = copied.reset(seed=2)
    b, *_ = copied.step(copied.sample(rng))
    assert a["observation"] is not b["observation"]
    assert not np.shares_memory(a["observation"], b["observation"])
    shared = VectorEnv(2, copy=False)
    a, _ = shared.reset(seed=2)
    b, *_ = shared.step(shared.sample(rng))
    assert a["observation"] is b["observation"] and a["action_mask"] is b["action_mask"]


def test_bad_arguments() -> None:
    with pytest.raises(ShengjiError, match="BAD_OPTION_VALUE"):
        VectorEnv(0)
    with pytest.raises(ShengjiError, match="ILLEGAL_ACTION"):
        VectorEnv(2).step([DONE, DONE])  # before reset
