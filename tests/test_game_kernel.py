"""The game engine is a facade over the kernel's match (:class:`~shengji.engine.match.KMatch`):
the newest state of a line of play keeps its kernel match, and any other state (an older
one applied to again, a copy, a pickled one, a state built by a bot) rebuilds it from its
fields. Whichever path a state takes, ``apply`` must answer the same."""

from __future__ import annotations

import pickle
import random

import pytest

from shengji.bots.random_bot import random_action
from shengji.errors import ShengjiError
from shengji.game.actions import Action, Play
from shengji.game.flow import apply, new_match
from shengji.game.state import GameState
from shengji.rules.immutable import evolve
from shengji.rules.presets import load_preset, preset_names


def _outcome(st: GameState, seat: int, action: Action) -> object:
    try:
        new, events = apply(st, seat, action)
    except ShengjiError as e:
        return (e.code, str(e), e.params)
    return new, events


def _line(preset: str, seed: int, hands: int = 2) -> list[tuple[GameState, int, Action]]:
    """The states, seats and actions of a random match (``hands`` hands)."""
    opts = load_preset(preset)
    rng = random.Random(seed)
    st = new_match(opts, seed)
    out = []
    while st.phase != "match_over" and len(st.results) < hands:
        seat = 0 if st.phase == "hand_over" else st.to_act
        assert seat is not None
        action = random_action(st, seat, rng, 0.25)
        out.append((st, seat, action))
        st, _ = apply(st, seat, action)
    return out


@pytest.mark.parametrize("preset", preset_names())
def test_a_branch_rebuilds_the_kernel_and_answers_the_same(preset: str) -> None:
    """Every state of two random hands applied to twice: the second answer comes from a
    kernel match rebuilt from the state's fields, and must equal the first."""
    for seed in range(3):
        for st, seat, action in _line(preset, seed):
            first = _outcome(st, seat, action)
            again = _outcome(st, seat, action)
            assert again == first, (preset, seed, st.phase, action)


@pytest.mark.parametrize("preset", ["shuangsheng", "shuangkou", "classic-3deck"])
def test_an_error_leaves_the_state_and_its_kernel_as_they_were(preset: str) -> None:
    """A refused action changes nothing: the same state then accepts a legal action and
    goes on exactly as a state never refused."""
    probes = random.Random(7)
    for st, seat, action in _line(preset, 11):
        want = _outcome(st, seat, action)
        if st.phase == "play":
            hand = st.hands[seat]
            wrong = Play(tuple(probes.sample(hand, min(len(hand), 3))))
            _outcome(st, seat, wrong)
            _outcome(st, seat, Play(()))
        assert _outcome(st, seat, action) == want


def test_copies_and_pickles_do_not_share_a_kernel() -> None:
    """A copy made by ``evolve`` or by pickling rebuilds its own kernel match: changing
    the copy cannot move the original."""
    line = _line("shuangsheng", 4, hands=1)
    st, seat, action = next(x for x in line if x[0].phase == "play" and len(x[0].tricks) == 3)
    want = _outcome(st, seat, action)
    copy = evolve(st)
    assert _outcome(copy, seat, action) == want
    thawed = pickle.loads(pickle.dumps(st))
    assert thawed == st
    assert _outcome(thawed, seat, action) == want
    assert _outcome(st, seat, action) == want


def test_only_the_newest_state_keeps_a_kernel() -> None:
    """A history keeps one kernel match, on its newest state (memory per retained state
    stays that of the immutable fields)."""
    line = _line("shuangsheng", 2, hands=1)
    st, seat, action = line[-1]
    last, _ = apply(st, seat, action)
    history = [x[0] for x in line] + [last]
    assert [s for s in history if "_kernel" in s.__dict__] == [last]
