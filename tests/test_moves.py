"""The move model for programs (``shengji.game.moves``): finite card-by-card choices that reach
every action ``apply`` accepts, and only those."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import shengji
from shengji.bots.random_bot import random_action
from shengji.game.actions import Bury, Call, Continue, Play
from shengji.game.flow import apply, new_match
from shengji.game.moves import DONE, Decision, action_indexes, calls_of
from shengji.game.state import GameState
from shengji.game.views import seat_view
from shengji.rules.cards import ALL_CARDS, Card
from shengji.rules.friends import FriendCall, callable_cards
from shengji.rules.presets import load_preset, preset_names


def _reachable(d: Decision, indexes: list[int]) -> bool:
    """Whether choosing ``indexes`` (cards, then DONE) one by one is allowed throughout."""
    sel: list[Card] = []
    for i in indexes:
        if i == DONE:
            return d.allows_done(sel)
        if i not in d.allowed_cards(sel):
            return False
        sel.append(ALL_CARDS[i])
    return False


def _walk(d: Decision, rng: random.Random) -> list[int]:
    """A uniformly random card-by-card choice, DONE taken with probability 1/3 once allowed."""
    sel: list[Card] = []
    while True:
        allowed = sorted(d.allowed_cards(sel))
        if d.allows_done(sel) and (not allowed or rng.random() < 1 / 3):
            return [c.index for c in sel] + [DONE]
        assert allowed, f"stuck at {sel} in {d.kind}"
        sel.append(ALL_CARDS[rng.choice(allowed)])


def _decisions(preset: str, seed: int) -> list[tuple[GameState, int]]:
    st = new_match(load_preset(preset), seed)
    rng = random.Random(seed)
    out = []
    while st.phase not in ("hand_over", "match_over"):
        seat = st.to_act
        assert seat is not None
        out.append((st, seat))
        st, _ = apply(st, seat, random_action(st, seat, rng, throw_rate=0.3))
    return out


@pytest.mark.parametrize("preset", preset_names())
def test_every_chosen_action_is_reachable_and_every_walk_is_accepted(preset: str) -> None:
    rng = random.Random(7)
    throws = burials = 0
    for st, seat in _decisions(preset, 7) + _decisions(preset, 8):
        d = Decision(seat_view(st, seat))
        action = random_action(st, seat, rng, throw_rate=0.5)
        assert _reachable(d, action_indexes(action)), (d.kind, action)
        throws += isinstance(action, Play) and d.kind == "lead" and len(action.cards) > 2
        burials += isinstance(action, Bury)
        walked = d.action([ALL_CARDS[i] for i in _walk(d, rng)[:-1]])
        apply(st, seat, walked)  # accepted: raises otherwise
    assert burials >= 1 and throws >= 1


def test_a_card_not_completable_is_refused() -> None:
    st, seat = next((s, t) for s, t in _decisions("shuangsheng", 3) if s.trick)
    d = Decision(seat_view(st, seat))
    held = {c.index for c in st.hand_of(seat)}
    assert not d.allowed_cards([]) - held  # only held cards, never another's
    assert not d.allows_done([])  # a follow is never empty


def test_continue_is_the_one_action_without_a_decision() -> None:
    st = new_match(load_preset("classic-1deck"), 2)
    rng = random.Random(2)
    while st.phase != "hand_over":
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng))
    with pytest.raises(shengji.ActionError):
        Decision(seat_view(st, 0))
    assert action_indexes(Continue()) == [DONE]


def test_import_shengji_loads_the_game_flow_when_first_used() -> None:
    code = (
        "import sys, shengji\n"
        "assert 'shengji.game' not in sys.modules and 'importlib.metadata' not in sys.modules\n"
        "st = shengji.new_match(shengji.load_preset('shuangsheng'), seed=1)\n"
        "assert next(shengji.legal_actions(st, st.to_act)) is not None\n"
        "assert shengji.__version__ and 'shengji.game' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    for name in shengji.__all__:
        assert getattr(shengji, name) is not None


def _at_call(players: int, seed: int) -> GameState:
    st = new_match(load_preset("zhaopengyou", {"players": players}), seed)
    rng = random.Random(seed)
    while st.phase != "call":
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng))
    return st


@pytest.mark.parametrize("players", [5, 6, 8])
def test_friend_calls_are_chosen_card_by_card(players: int) -> None:
    """A call is its card ``ordinal`` times (``SA SA`` = ``SA:2``), calls one after another;
    ``DONE`` on exactly ``options.calls`` calls; every walk is a call ``apply`` accepts."""
    st = _at_call(players, players)
    opts = st.options
    d = Decision(seat_view(st, st.banker))
    assert d.kind == "call" and not d.allows_done([])
    callable_ = {c.index for c in callable_cards(st.ctx)}
    assert d.allowed_cards([]) == callable_
    first, second = sorted(callable_)[:2]
    a, b = ALL_CARDS[first], ALL_CARDS[second]
    assert first in d.allowed_cards([a] * (opts.decks - 1))
    assert first not in d.allowed_cards([a] * opts.decks)  # no ordinal past the decks
    sel = [a, a] + [b] * (opts.calls > 1)
    assert d.allows_done(sel) == (opts.calls == len(calls_of(sel)))
    assert d.action(sel) == Call(calls_of(sel))
    assert calls_of(sel)[0] == FriendCall(a, 2)
    # an earlier call's card does not start another call
    if opts.calls > 1:
        assert first not in d.allowed_cards([a, b])
    full = [ALL_CARDS[c] for c in sorted(callable_)[: opts.calls]]
    assert d.allowed_cards(full) == {full[-1].index} and d.allows_done(full)
    rng = random.Random(players)
    banker = st.banker
    assert banker is not None
    for _ in range(20):
        walked = d.action([ALL_CARDS[i] for i in _walk(d, rng)[:-1]])
        assert isinstance(walked, Call) and len(walked.calls) == opts.calls
        apply(st, banker, walked)  # accepted: raises otherwise
        chosen = random_action(st, banker, rng)
        assert _reachable(d, action_indexes(chosen)), chosen


def test_one_card_called_twice_is_the_call_not_reachable_card_by_card() -> None:
    st = _at_call(6, 3)
    d = Decision(seat_view(st, st.banker))
    card = callable_cards(st.ctx)[0]
    twice = Call((FriendCall(card, 1), FriendCall(card, 2)))
    assert st.banker is not None
    apply(st, st.banker, twice)  # legal
    assert action_indexes(twice) == [card.index] * 3 + [DONE]  # reads as one call, SA:3
    assert not _reachable(d, action_indexes(twice))
