"""The endgame solver: alpha-beta (with its transposition table and merged equivalent
cards) gives plain minimax's value on small positions of several presets, from a trick's
start and from the middle of one; the search bot solves its last tricks with
``:endgame``, legally and reproducibly."""

from __future__ import annotations

import random

import pytest

from shengji.bots.endgame import Solver, TooBig, brute_force, distinct_moves, final_value
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.random_bot import random_action
from shengji.bots.registry import make_player
from shengji.bots.search import ENDGAME_CARDS, SearchBot
from shengji.engine import from_table
from shengji.game.actions import Play
from shengji.game.flow import apply, new_match
from shengji.game.legal import legal_actions
from shengji.game.players import run_match
from shengji.game.state import GameState
from shengji.game.views import seat_view
from shengji.rules.presets import load_preset


def _late(preset: str, seed: int, cards: int, mid_trick: int = 0) -> GameState:
    """A play-phase state with at most ``cards`` in every hand, ``mid_trick`` plays into
    a trick (random plays, heuristic declaring and burying)."""
    st = new_match(load_preset(preset), seed)
    rng = random.Random(seed)
    heur = [HeuristicBot(s, seed) for s in range(4)]
    while st.phase != "play" or max(len(h) for h in st.hands) > cards or st.trick:
        assert st.phase == "play" or st.phase not in ("hand_over", "match_over")
        seat = st.to_act if st.to_act is not None else 0
        if st.phase == "play":
            action = random_action(st, seat, rng)
        else:
            action = heur[seat].act(seat_view(st, seat))
        st, _ = apply(st, seat, action)
    for _ in range(mid_trick):
        actor = st.to_act
        assert actor is not None
        st, _ = apply(st, actor, random_action(st, actor, rng))
    return st


@pytest.mark.parametrize("preset", ["shuangsheng", "classic-1deck", "tuolaji"])
@pytest.mark.parametrize("mid_trick", [0, 2])
def test_the_solver_equals_plain_minimax(preset: str, mid_trick: int) -> None:
    for seed in range(4):
        st = _late(preset, seed, 3, mid_trick)
        if st.phase != "play":
            continue
        ks = from_table(st)
        for seat in (0, 1):
            solver = Solver(seat)
            assert solver.value(ks) == pytest.approx(brute_force(ks, seat))
            assert solver.nodes > 0
        assert ks.sizes == [len(h) for h in st.hands]  # the state is not changed


def test_the_two_sides_values_are_opposite() -> None:
    ks = from_table(_late("shuangsheng", 7, 3))
    assert Solver(0).value(ks) == pytest.approx(-Solver(1).value(ks))


def test_a_finished_hand_is_its_score() -> None:
    ks = from_table(_late("shuangsheng", 2, 1))
    done = ks.copy()
    while not done.done:
        done.apply(done.moves()[0])
    assert Solver(3).value(done) == final_value(done, 3)


def test_the_node_limit() -> None:
    ks = from_table(_late("shuangsheng", 1, 3))
    with pytest.raises(TooBig):
        Solver(0, node_limit=3).value(ks)


def test_equivalent_cards_are_merged_only_when_nothing_lies_between() -> None:
    for seed in range(6):
        st = _late("shuangsheng", seed, 4)
        ks = from_table(st)
        moves = ks.moves()
        kept = distinct_moves(ks, moves)
        assert kept and all(m in moves for m in kept)
        # every merged single has a kept one of its suit and points, no other seat's card
        # ranking between them
        t = ks.t
        others = [ks.hands[s] for s in range(4) if s != ks.to_act]
        for m in moves:
            if m in kept or len(m) != 1:
                continue
            c = m[0]
            assert any(
                len(k) == 1
                and t.suit_of[k[0]] == t.suit_of[c]
                and t.pts[k[0]] == t.pts[c]
                and not any(
                    h[d]
                    for h in others
                    for d in range(54)
                    if t.suit_of[d] == t.suit_of[c]
                    and min(t.key[c], t.key[k[0]]) <= t.key[d] <= max(t.key[c], t.key[k[0]])
                )
                for k in kept
            )


def test_search_solves_its_last_tricks() -> None:
    bot = make_player("search:300it:endgame", 0, 0)
    assert isinstance(bot, SearchBot) and bot.endgame == ENDGAME_CARDS
    plain = make_player("search:300it", 0, 0)
    assert isinstance(plain, SearchBot) and plain.endgame == 0
    st = _late("shuangsheng", 3, ENDGAME_CARDS)
    seat = st.to_act
    assert seat is not None
    runs = []
    for _ in range(2):
        b = SearchBot(seat, 5, bot.budget, endgame=ENDGAME_CARDS)
        action = b.act(seat_view(st, seat))
        runs.append((action, [(e.play, e.mean, e.n) for e in b.evaluations]))
    assert runs[0] == runs[1]
    assert isinstance(runs[0][0], Play) and runs[0][0] in list(legal_actions(st, seat))


def test_endgame_search_plays_legal_hands() -> None:
    players = [make_player("search:40it:endgame" if s % 2 else "heuristic", s, 3) for s in range(4)]
    st, _ = run_match(load_preset("shuangsheng"), 3, players, stop_after_hand=True)
    assert st.phase in ("hand_over", "match_over") and len(st.results) == 1


def test_rollouts_with_a_solved_tail_play_legal_hands_reproducibly() -> None:
    bot = make_player("search:300it:tail", 0, 0)
    assert isinstance(bot, SearchBot) and bot.tail > 0
    players = [make_player("search:30it:tail" if s % 2 else "heuristic", s, 4) for s in range(4)]
    st, _ = run_match(load_preset("shuangsheng"), 4, players, stop_after_hand=True)
    assert st.phase in ("hand_over", "match_over") and len(st.results) == 1
    st = _late("shuangsheng", 5, 8)
    seat = st.to_act
    assert seat is not None
    runs = []
    for _ in range(2):
        b = SearchBot(seat, 5, bot.budget, tail=bot.tail)
        action = b.act(seat_view(st, seat))
        runs.append((action, [(e.play, e.mean, e.n) for e in b.evaluations]))
    assert runs[0] == runs[1]
    assert isinstance(runs[0][0], Play) and runs[0][0] in list(legal_actions(st, seat))
