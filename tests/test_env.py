"""The RL environments: PettingZoo API and seed tests, masks checked against the rules'
own lists of legal actions, rewards, observations and the single-seat Gymnasium wrapper."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from shengji.bots.observation import LAYOUT, OBS_SIZE, PHASES, SUIT_NAMES, layout_of
from shengji.env import (
    DONE,
    N_ACTIONS,
    SCALARS,
    Decision,
    SingleSeatEnv,
    action_indexes,
    env,
    part,
    raw_env,
)
from shengji.game.actions import Bury, Declare, Pass, Play
from shengji.game.legal import legal_actions
from shengji.game.views import seat_view
from shengji.rules.cards import Card, parse_cards
from shengji.rules.follow import count_legal_follows, legal_follows
from shengji.rules.friends import FriendCall, callable_cards


def _play(e: Any, seed: int, check: Any = None) -> dict[str, float]:
    """Play ``e`` to its end with uniformly random masked actions; returns each agent's
    total reward and calls ``check(raw, agent)`` before every live step."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        if check is not None:
            check(e.unwrapped, agent)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("preset", ["shuangsheng", "shuangkou", "classic-1deck"])
def test_pettingzoo_api(preset: str) -> None:
    api_test(env(preset=preset, max_hands=2), num_cycles=600)


def test_pettingzoo_seed() -> None:
    seed_test(lambda: env(max_hands=2), num_cycles=300)


def test_same_seed_same_match() -> None:
    a, b = raw_env(max_hands=1), raw_env(max_hands=1)
    assert _play(a, 11) == _play(b, 11)
    assert a.game.results == b.game.results


def test_every_phase_is_decided_card_by_card() -> None:
    seen: Counter[str] = Counter()

    def check(raw: Any, agent: str) -> None:
        seen[raw.game.phase] += 1

    _play(raw_env("shuangsheng", max_hands=3), 1, check)
    _play(raw_env("shuangsheng", max_hands=3), 5, check)
    assert set(seen) == {"deal", "before_kitty", "bury", "after_burial", "play"}
    # six burials of 8 cards and DONE, and one more after a counter-declaration (反主炒底)
    assert seen["bury"] == 7 * 9


def test_rewards_are_levels_and_zero_sum() -> None:
    raw = raw_env("shuangsheng", max_hands=3)
    totals = _play(raw, 4)
    expected = [0.0, 0.0]
    for r in raw.game.results:
        up = r.banker % 2 if r.outcome.side == "banker" else 1 - r.banker % 2
        expected[up] += r.outcome.moved
        expected[1 - up] -= r.outcome.moved
    assert [totals[f"seat_{s}"] for s in range(4)] == [expected[s % 2] for s in range(4)]
    assert len(raw.game.results) == 3 and raw.hands_played == 3


def _brute_mask(raw: Any, selection: list[Card]) -> list[bool] | None:
    """The mask from the rules' own list of legal actions, where that list is short."""
    st = raw.game
    seat = st.to_act
    if st.phase == "play" and st.trick:
        if count_legal_follows(st.ctx, st.lead, st.hands[seat]) > 3000:
            return None
        follows = legal_follows(st.ctx, st.lead, st.hands[seat])
        whole = [Counter(c.index for c in f) for f in follows]
    elif st.phase in ("deal", "before_kitty", "after_burial"):
        acts = list(legal_actions(st, seat))
        whole = [Counter(c.index for c in a.cards) for a in acts if isinstance(a, Declare)]
        whole.append(Counter())  # pass
    else:
        return None
    sel = Counter(c.index for c in selection)
    out = []
    for i in range(54):
        nxt = sel + Counter([i])
        out.append(any(all(w[k] >= n for k, n in nxt.items()) for w in whole))
    out.append(sel in whole)
    return out


def test_masks_match_the_legal_actions() -> None:
    checked = Counter[str]()

    def check(raw: Any, agent: str) -> None:
        brute = _brute_mask(raw, raw.selection)
        if brute is not None:
            assert list(raw.observe(agent)["action_mask"].astype(bool)) == brute
            checked[raw.game.phase] += 1

    for preset, seed in [("shuangsheng", 1), ("tuolaji", 2), ("classic-3deck", 3)]:
        _play(raw_env(preset, max_hands=1), seed, check)
    assert checked["play"] > 500 and checked["deal"] > 0


def test_lead_and_burial_masks() -> None:
    raw = raw_env("shuangsheng", max_hands=1)
    raw.reset(seed=3)
    while raw.game.phase != "bury":
        raw.step(DONE)  # pass until someone must bury
    burier = raw.game.to_act
    assert burier is not None
    hand = raw.game.hands[burier]
    mask = raw.observe(raw.agent_selection)["action_mask"]
    assert sorted(int(i) for i in np.flatnonzero(mask[:DONE])) == sorted({c.index for c in hand})
    assert not mask[DONE]
    for c in hand[: raw.game.options.kitty_size]:
        raw.step(c.index)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    assert list(np.flatnonzero(mask)) == [DONE]
    raw.step(DONE)
    while str(raw.game.phase) != "play":
        raw.step(DONE)
    st = raw.game
    assert st.to_act is not None
    view = seat_view(st, st.to_act)
    d = Decision(view)
    first = st.ctx.sorted(view.hand)[-1]
    allowed = d.allowed_cards([first])
    suit = st.ctx.suit_of[first.index]
    same_suit = {c.index for c in view.hand if st.ctx.suit_of[c.index] == suit}
    if view.hand.count(first) == 1:
        same_suit.discard(first.index)
    assert allowed == same_suit
    assert d.allows_done([first]) and not d.allows_done([])


def test_follow_mask_small_case() -> None:
    raw = raw_env("shuangsheng", max_hands=1)
    raw.reset(seed=0)
    while not (raw.game.phase == "play" and raw.game.trick):
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[-1]))
    assert raw.game.to_act is not None and raw.game.lead is not None
    d = Decision(seat_view(raw.game, raw.game.to_act))
    follows = list(legal_follows(raw.game.ctx, raw.game.lead, d.hand))
    assert d.allowed_cards([]) == {c.index for f in follows for c in f}
    for f in follows:
        assert d.allows_done(f)
        assert d.allowed_cards(f) == set()


def test_action_indexes_and_decision_actions() -> None:
    cards = parse_cards("S10 S10 LJ")
    assert action_indexes(Play(cards)) == [c.index for c in cards] + [DONE]
    assert action_indexes(Pass()) == [DONE]
    assert action_indexes(Bury(cards)) == [c.index for c in cards] + [DONE]


def test_observation_is_the_seat_view() -> None:
    raw = raw_env("shuangsheng", max_hands=1)
    raw.reset(seed=8)
    rng = random.Random(8)
    for _ in range(150):
        agent = raw.agent_selection
        seat = int(agent[-1])
        obs = raw.observe(agent)
        vec = obs["observation"] * raw.options.decks  # card counts are divided by the decks
        assert obs["observation"].min() >= 0 and obs["observation"].max() <= 1
        assert obs["action_mask"].shape == (N_ACTIONS,)
        held = Counter(c.index for c in raw.game.hands[seat])
        assert {i: int(n) for i, n in enumerate(part(vec, "hand")) if n} == dict(held)
        assert {i: int(n) for i, n in enumerate(part(vec, "selection")) if n} == dict(
            Counter(c.index for c in raw.selection)
        )
        played = part(vec, "played")
        for p in raw.game.trick:
            rel = (p.seat - seat) % 4
            for c in set(p.cards):
                assert played[rel, c.index] >= p.cards.count(c)
        other = raw.observe(f"seat_{(seat + 1) % 4}")
        assert not other["action_mask"].any()
        assert not part(other["observation"], "selection").any()
        raw.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))


def test_masked_out_action_is_refused() -> None:
    raw = raw_env(max_hands=1)
    raw.reset(seed=1)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(Exception, match="ILLEGAL_ACTION"):
        raw.step(bad)


def test_single_seat_env_against_bots() -> None:
    e = SingleSeatEnv("shuangsheng", seat=1, bots="random", max_hands=1)
    obs, info = e.reset(seed=5)
    assert e.reset(seed=5)[0]["observation"].tolist() == obs["observation"].tolist()
    rng = np.random.default_rng(5)
    total, steps, done = 0.0, 0, False
    while not done:
        assert e.aec.agent_selection == "seat_1"
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = e.step(action)
        assert e.observation_space.contains(obs)
        total += reward
        steps += 1
        done = term or trunc
    result = e.aec.game.results[-1]
    up = result.banker % 2 if result.outcome.side == "banker" else 1 - result.banker % 2
    assert total == (result.outcome.moved if up == 1 else -result.outcome.moved)
    assert steps > 25


def test_bad_arguments() -> None:
    with pytest.raises(Exception, match="BAD_OPTION_VALUE"):
        SingleSeatEnv(seat=4)
    with pytest.raises(Exception, match="UNKNOWN_BOT"):
        SingleSeatEnv(bots="nobody")
    with pytest.raises(Exception, match="BAD_OPTION_VALUE"):
        raw_env(render_mode="rgb")


def test_render_ansi() -> None:
    raw = raw_env(render_mode="ansi", max_hands=1)
    raw.reset(seed=1)
    text = raw.render()
    assert text is not None and text.startswith("hand 1 第1副 · deal")


def test_a_throw_is_chosen_card_by_card() -> None:
    raw = raw_env("shuangsheng", max_hands=1)
    raw.reset(seed=6)
    while not (raw.game.phase == "play" and not raw.game.trick):
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[-1]))
    st = raw.game
    seat = st.to_act
    assert seat is not None
    by_suit: dict[int, list[Card]] = {}
    for c in dict.fromkeys(st.hands[seat]):
        by_suit.setdefault(st.ctx.suit_of[c.index], []).append(c)
    throw = max(by_suit.values(), key=len)[:3]  # three distinct cards of one suit
    for c in throw:
        raw.step(c.index)
    raw.step(DONE)
    first = raw.game.trick[0]
    assert first.seat == seat
    assert sorted(first.attempted or first.cards) == sorted(throw)
    assert len(first.cards) == (1 if first.attempted else 3)


@pytest.mark.parametrize("preset", ["shuangsheng", "classic-3deck"])
def test_gymnasium_check_env_passes(preset: str) -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(SingleSeatEnv(preset, bots="random"), skip_render_check=True)


def test_an_action_outside_the_mask_ends_the_episode_with_minus_one() -> None:
    e = SingleSeatEnv("shuangsheng", bots="random")
    obs, _ = e.reset(seed=3)
    before = e.aec.game
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = e.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert e.aec.game is before  # nothing applied
    _, reward, terminated, _, _ = e.step(99)  # out of range: the same
    assert (reward, terminated) == (-1.0, True)
    wrapped = env(max_hands=1)
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    bad = int(np.flatnonzero(wrapped.observe(agent)["action_mask"] == 0)[0])
    wrapped.step(bad)
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())


def test_tracked_features_follow_the_tricks() -> None:
    """Points won by each side, voids shown, trick position and cards still out, at every
    trick of a random hand, from each seat."""
    raw = raw_env("shuangsheng", max_hands=1)
    raw.reset(seed=11)
    rng = random.Random(11)
    scalars = {name: i for i, name in enumerate(SCALARS)}
    total = raw.options.total_points
    voids_seen = 0
    for _agent in raw.agent_iter():
        obs, _, term, trunc, _ = raw.last()
        if term or trunc:
            raw.step(None)
            continue
        st = raw.game
        if st.phase == "play" and not raw.selection:
            for seat in range(4):
                vec = raw.observe(f"seat_{seat}")["observation"]
                sc = part(vec, "scalars")
                own = sum(t.points for t in st.tricks if t.winner % 2 == seat % 2)
                other = sum(t.points for t in st.tricks) - own
                assert sc[scalars["points_own_team"]] == pytest.approx(own / total)
                assert sc[scalars["points_other_team"]] == pytest.approx(other / total)
                assert sc[scalars[f"trick_position_{len(st.trick)}"]] == 1
                for trick in st.tricks:
                    led = st.ctx.suit_of[trick.plays[0].cards[0].index]
                    for p in trick.plays[1:]:
                        if any(st.ctx.suit_of[c.index] != led for c in p.cards):
                            rel = (p.seat - seat) % 4
                            assert sc[scalars[f"void_{rel}_{SUIT_NAMES[led]}"]] == 1
                            voids_seen += 1
                d = raw.options.decks
                played = part(vec, "played").sum(axis=0) * d
                out = d - part(vec, "hand") * d - played
                assert np.allclose(part(vec, "out") * d, out)
                trumps = [i for i in range(54) if st.ctx.suit_of[i] == 4]
                want = out[trumps].sum() / (d * len(trumps))
                assert sc[scalars["out_T"]] == pytest.approx(want)
        raw.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    assert voids_seen > 0


# -- 找朋友: N seats and the call phase ---------------------------------------------------


def test_the_four_seat_layout_is_unchanged() -> None:
    """A trained model (examples/, ``dmc:``) reads this vector: its parts and scalars stay."""
    assert OBS_SIZE == 1044 and len(SCALARS) == 72
    assert LAYOUT == (
        ("hand", 54),
        ("selection", 54),
        ("played", 216),
        ("trick", 216),
        ("shown", 216),
        ("picked_up", 54),
        ("buried", 54),
        ("kitty", 54),
        ("out", 54),
        ("scalars", 72),
    )
    assert SCALARS[:7] == tuple(f"phase_{p}" for p in PHASES)
    assert SCALARS[30:33] == ("level", "own_team_level", "other_team_level")
    assert SCALARS[45:47] == ("points_own_team", "points_other_team")
    assert raw_env("shuangsheng").layout is layout_of(raw_env("classic").options)


@pytest.mark.parametrize("players", [5, 6, 8])
def test_pettingzoo_api_zhaopengyou(players: int) -> None:
    e = env("zhaopengyou", max_hands=1, overrides={"players": players})
    assert e.possible_agents == [f"seat_{s}" for s in range(players)]
    api_test(e, num_cycles=400)


@pytest.mark.parametrize("players", [5, 6, 8])
def test_gymnasium_check_env_zhaopengyou(players: int) -> None:
    from gymnasium.utils.env_checker import check_env

    e = SingleSeatEnv(
        "zhaopengyou", seat=players - 1, bots="random", overrides={"players": players}
    )
    space: Any = e.observation_space
    assert space["observation"].shape == (layout_of(e.aec.options).size,)
    check_env(e, skip_render_check=True)


def test_zhaopengyou_rewards_go_to_the_sides_as_the_hand_ended() -> None:
    """The side that went up (the banker and the friends found, or the rest) gets
    ``+moved`` each, the other ``-moved`` each."""
    raw = raw_env("zhaopengyou", max_hands=3, overrides={"players": 5})
    totals = _play(raw, 2)
    expected = [0.0] * 5
    for r in raw.game.results:
        winners = (
            set(r.banker_side) if r.outcome.side == "banker" else set(range(5)) - set(r.banker_side)
        )
        for s in range(5):
            expected[s] += r.outcome.moved if s in winners else -r.outcome.moved
    assert [totals[f"seat_{s}"] for s in range(5)] == expected
    assert raw.hands_played == 3


def test_the_call_phase_is_played_card_by_card_and_observed() -> None:
    """The banker chooses its calls card by card; every seat then sees the called cards
    and ordinals, who answered each once its trick is complete, and the sides known."""
    raw = raw_env("zhaopengyou", max_hands=1, overrides={"players": 6})
    raw.reset(seed=4)
    rng = np.random.default_rng(4)
    lay = raw.layout
    at = {name: i for i, name in enumerate(lay.scalars)}
    answered_seen = 0
    for agent in raw.agent_iter():
        obs, _, term, trunc, _ = raw.last()
        if term or trunc:
            raw.step(None)
            continue
        st = raw.game
        if st.phase == "call" and not raw.selection:
            assert agent == f"seat_{st.banker}"
            assert part(obs["observation"], "scalars", lay)[at["phase_call"]] == 1
            d = Decision(seat_view(st, st.banker))
            assert d.kind == "call"
            assert list(obs["action_mask"].astype(bool)) == d.mask([])
        if st.phase == "play" and not raw.selection:
            for seat in range(6):
                vec = raw.observe(f"seat_{seat}")["observation"]
                called, sc = part(vec, "called", lay), part(vec, "scalars", lay)
                for j, c in enumerate(st.calls):
                    assert list(np.flatnonzero(called[j])) == [c.call.card.index]
                    ordinal = sc[at[f"call_{j}_ordinal"]] * raw.options.decks
                    assert ordinal == pytest.approx(c.call.ordinal)
                    assert sc[at[f"call_{j}_answered"]] == (c.seat is not None)
                    if c.seat is not None:
                        assert sc[at[f"call_{j}_by_{(c.seat - seat) % 6}"]] == 1
                        answered_seen += 1
                for i in range(6):
                    side = st.side_of((seat + i) % 6)
                    got = (sc[at[f"side_{i}_banker"]], sc[at[f"side_{i}_collectors"]])
                    assert got == ((side == 0), (side == 1))
                levels = [sc[at[f"level_{i}"]] * 14 for i in range(6)]
                assert levels == pytest.approx([st.levels[(seat + i) % 6] for i in range(6)])
        raw.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(raw.game.calls) == raw.options.calls and answered_seen > 0


def test_a_call_of_one_card_twice_is_made_at_once() -> None:
    """Bots may call ``SA:1 SA:2``, which has no card-by-card steps: ``call_at_once``."""
    raw = raw_env("zhaopengyou", max_hands=1, overrides={"players": 6})
    raw.reset(seed=1)
    with pytest.raises(Exception, match="ILLEGAL_ACTION"):
        raw.call_at_once(())
    while raw.phase != "call":
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[-1]))
    card = callable_cards(raw.game.ctx)[0]
    with pytest.raises(Exception, match="ILLEGAL_CALL"):
        raw.call_at_once((FriendCall(card, 1), FriendCall(card, 1)))
    raw.call_at_once((FriendCall(card, 1), FriendCall(card, 2)))
    assert str(raw.phase) == "play"
    assert [c.call.text for c in raw.game.calls] == [f"{card.text}:1", f"{card.text}:2"]


def test_single_seat_env_at_a_six_seat_table_against_heuristic_bots() -> None:
    e = SingleSeatEnv("zhaopengyou", seat=2, bots="heuristic", overrides={"players": 6})
    obs, info = e.reset(seed=7)
    rng = np.random.default_rng(7)
    done, total = False, 0.0
    while not done:
        assert e.aec.agent_selection == "seat_2"
        obs, reward, term, trunc, info = e.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        total += reward
        done = term or trunc
    r = e.aec.game.results[-1]
    won = (2 in r.banker_side) == (r.outcome.side == "banker")
    assert total == (r.outcome.moved if won else -r.outcome.moved)
    with pytest.raises(Exception, match="BAD_OPTION_VALUE"):
        SingleSeatEnv("zhaopengyou", seat=6, overrides={"players": 6})
    with pytest.raises(Exception, match="BAD_OPTION_VALUE"):
        SingleSeatEnv("zhaopengyou", bots=["random"] * 3, overrides={"players": 6})


# -- env(): the checks of PettingZoo's standard wrappers, in one ---------------------------


def _standard_chain(max_hands: int) -> Any:
    """``raw_env`` in PettingZoo's own three wrappers, as ``env()`` used to build it."""
    from pettingzoo.utils import wrappers

    e = wrappers.TerminateIllegalWrapper(raw_env(max_hands=max_hands), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(e))


def _outcome(call: Any, *args: Any) -> Any:
    try:
        return ("ok", call(*args))
    except Exception as e:  # the kind of error is what must agree
        return (type(e).__name__,)


def _same_last(a: Any, b: Any) -> None:
    (oa, *ra), (ob, *rb) = a.last(), b.last()
    assert ra == rb
    assert np.array_equal(oa["observation"], ob["observation"])
    assert np.array_equal(oa["action_mask"], ob["action_mask"])


@pytest.mark.parametrize("seed", range(4))
def test_env_checks_as_pettingzoos_standard_wrappers_do(seed: int) -> None:
    """Calls out of order, actions out of bounds, outside the mask (which end the match
    with -1) and steps of done agents: ``env()`` answers each as the chain of PettingZoo's
    wrappers does, with the same observations, rewards and ends."""
    ours, theirs = env(max_hands=1), _standard_chain(1)
    for e in (ours, theirs):
        assert e.unwrapped is not e
    for probe in (
        lambda e: e.step(0),
        lambda e: e.observe("seat_0"),
        lambda e: e.agent_selection,
        lambda e: e.rewards,
        lambda e: e.last(),
    ):
        assert _outcome(probe, ours) == _outcome(probe, theirs)
    rng = random.Random(seed)
    for e in (ours, theirs):
        e.reset(seed=seed)
    illegal_at = 60 + 40 * seed if seed % 2 else -1  # odd seeds: the match ends there
    lost = False
    for step in range(3000):
        assert ours.agents == theirs.agents and ours.agent_selection == theirs.agent_selection
        if not ours.agents:
            break
        _same_last(ours, theirs)
        obs, _, term, trunc, _ = ours.last()
        mask = obs["action_mask"]
        r = rng.random()
        action: Any
        if term or trunc:
            action = None if r < 0.9 else 3
        elif step == illegal_at:
            action = int(rng.choice(np.flatnonzero(mask == 0)))
        elif r < 0.01:
            action = rng.choice([None, 55, -1, 2.0, np.int64(54)])
        else:
            action = np.int64(rng.choice(list(np.flatnonzero(mask))))
        assert _outcome(ours.step, action) == _outcome(theirs.step, action)
        assert ours.rewards == theirs.rewards
        assert ours.terminations == theirs.terminations
        assert ours.unwrapped._cumulative_rewards == theirs.unwrapped._cumulative_rewards
        if step == illegal_at:  # the agent that chose outside the mask lost the match
            assert sorted(ours.rewards.values()) == [-1.0, 0.0, 0.0, 0.0]
            lost = True
    assert not ours.agents
    assert _outcome(ours.step, None) == _outcome(theirs.step, None)
    assert lost == (illegal_at >= 0)
