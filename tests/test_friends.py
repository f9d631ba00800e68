"""找朋友 (docs/rules.md §4.16): options, the call phase, friends found as called copies
are played, points carried, per-player levels, views, records and bots, for 4 to 8 seats.
The rulings themselves are in ``tests/conformance/friends.json``."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

from shengji.bots.heuristic import HeuristicBot, choose_calls
from shengji.bots.random_bot import RandomBot, random_action
from shengji.errors import OptionError, ShengjiError
from shengji.game.actions import Call, Continue, Play, action_from_json, action_to_json
from shengji.game.flow import apply, new_match
from shengji.game.players import run_match
from shengji.game.record import Recorder, RecordError, replay, verify
from shengji.game.state import GameState
from shengji.game.views import observe, seat_view
from shengji.rules.cards import Card, deck, parse_card, points
from shengji.rules.follow import legal_follows
from shengji.rules.friends import CallError, FriendCall, callable_cards, parse_calls
from shengji.rules.options import RuleOptions
from shengji.rules.presets import load_preset
from shengji.tools.simulate import Settings, deal_seed, run_jobs
from shengji.tools.tally import format_summary, summarise

SIZES = (4, 5, 6, 7, 8)


def _opts(n: int, **more: object) -> RuleOptions:
    return load_preset("zhaopengyou", {"players": n, **more})


def _to_call(n: int, seed: int) -> GameState:
    """A random match of ``n`` players played to its first ``call`` decision."""
    rng = random.Random(seed)
    st = new_match(_opts(n), seed)
    while st.phase != "call":
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng))
    return st


# -- options ---------------------------------------------------------------------------------


def test_more_than_four_players_need_friends() -> None:
    with pytest.raises(OptionError, match="friends"):
        load_preset("shuangsheng", {"players": 6})
    with pytest.raises(OptionError, match="at most 2"):
        _opts(6, friend_calls=3)
    with pytest.raises(OptionError, match="coins"):
        _opts(6, coins=True)
    with pytest.raises(OptionError, match="J hook"):
        _opts(6, j_hook=True)
    assert (_opts(8, decks=1).hand_size, _opts(8, decks=1).kitty_size) == (6, 6)
    with pytest.raises(OptionError, match="4..8"):
        _opts(9)


def test_players_set_the_decks_unless_the_decks_are_set_too() -> None:
    assert [_opts(n).decks for n in SIZES] == [2, 2, 3, 3, 4]
    assert _opts(5, decks=3).decks == 3
    for n in SIZES:
        o = _opts(n)
        assert o.hand_size * n + o.kitty_size == 54 * o.decks
        assert o.kitty_size >= 5
    assert RuleOptions(**_opts(7).to_dict()) == _opts(7)


# -- the call phase ---------------------------------------------------------------------------


def test_only_the_banker_calls_and_a_bad_call_changes_nothing() -> None:
    st = _to_call(6, 3)
    banker = st.banker
    assert banker is not None and st.to_act == banker
    good = choose_calls(seat_view(st, banker))
    other = (banker + 1) % 6
    with pytest.raises(ShengjiError) as e:
        apply(st, other, Call(good))
    assert e.value.code == "NOT_YOUR_TURN"
    with pytest.raises(ShengjiError) as e:
        apply(st, banker, Play(st.hands[banker][:1]))
    assert "call friends" in e.value.message
    level = st.level
    rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(level, str(level))
    bad = {
        "count": good[:1],
        "not_callable": (FriendCall(parse_card("BJ"), 1), good[1]),
        "ordinal": (FriendCall(good[0].card, 4), good[1]),
        "duplicate": (good[0], good[0]),
        "level": (FriendCall(parse_card(f"H{rank}"), 1), good[1]),
    }
    snapshot = (st.hands, st.phase, st.to_act, st.calls)
    for why, calls in bad.items():
        with pytest.raises(CallError) as e:
            apply(st, banker, Call(calls))
        assert e.value.code == "ILLEGAL_CALL", why
        assert (st.hands, st.phase, st.to_act, st.calls) == snapshot
    st2, events = apply(st, banker, Call(good))
    assert events[0] == {"type": "call", "seat": banker, "calls": " ".join(c.text for c in good)}
    assert st2.phase == "play" and [c.call for c in st2.calls] == list(good)
    assert all(c.seat is None for c in st2.calls)


def test_callable_cards_leave_out_jokers_level_cards_and_constant_twos() -> None:
    st = _to_call(5, 1)
    allowed = callable_cards(st.ctx)
    assert all(c.rank != st.level and not c.is_joker for c in allowed)
    o = load_preset("zhaopengyou", {"players": 5, "constant_twos": True})
    from shengji.rules.trump import trump_context

    ctx = trump_context(o, 7, None)
    assert all(c.rank not in (2, 7) for c in callable_cards(ctx))
    assert len(callable_cards(ctx)) == 52 - 8


def test_call_notation_round_trips_and_rejects_nonsense() -> None:
    calls = parse_calls("SA:2 H10:1 DK")
    assert [c.text for c in calls] == ["SA:2", "H10:1", "DK:1"]
    act = Call(calls)
    assert action_from_json(action_to_json(act)) == act
    for bad in ("SA:x", "SA:²", "SA:٣", "SA:１", "SA:" + "9" * 5000):  # ASCII digits only
        with pytest.raises(ShengjiError) as e:
            parse_calls(bad)
        assert e.value.code == "ILLEGAL_CALL" and e.value.params == {"reason": "syntax"}
    with pytest.raises(ShengjiError) as e:
        action_from_json({"type": "call"})
    assert "calls" in e.value.message
    with pytest.raises(ShengjiError) as e:
        action_from_json({"type": "call", "calls": "ZZ:1"})
    assert e.value.code == "BAD_CARD"


# -- whole hands -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_random_hands_keep_the_invariants_of_friends(n: int) -> None:
    """Cards conserved, the points of a deck total 100 each, every call answered by the
    seat of its ordinal-th copy when that trick ended, the collectors' points the points
    of the tricks won by the seats off the banker's side, per-player levels moved."""
    opts = _opts(n)
    for seed in range(4):
        rng = random.Random(seed)
        st = new_match(opts, seed)
        levels = st.levels
        while not st.results:
            seat = st.to_act
            assert seat is not None
            before = st
            st, events = apply(st, seat, random_action(st, seat, rng))
            for e in events:
                if e["type"] == "friend":
                    assert before.side_of(e["seat"]) in (None, 0)
                    assert st.side_of(e["seat"]) == 0
        r = st.results[0]
        played = Counter(c for t in st.tricks for p in t.plays for c in p.cards)
        assert played + Counter(st.kitty) == Counter(deck(opts.decks))
        assert sum(t.points for t in st.tricks) + r.kitty_points == 100 * opts.decks
        copies: Counter[object] = Counter()
        answered: dict[int, int] = {}
        for t in st.tricks:
            for p in t.plays:
                for c in p.cards:
                    copies[c] += 1
                    for i, call in enumerate(st.calls):
                        if call.call.card == c and copies[c] == call.call.ordinal:
                            answered[i] = p.seat
        assert [c.seat for c in st.calls] == [answered.get(i) for i in range(len(st.calls))]
        side = {r.banker, *(c.seat for c in st.calls if c.seat is not None)}
        assert set(r.banker_side) == side and r.banker_side[0] == r.banker
        assert r.trick_points == sum(t.points for t in st.tricks if t.winner not in side)
        up = side if r.outcome.side == "banker" else set(range(n)) - side
        assert len(st.levels) == n
        for s in range(n):
            moved = r.climbed[s]
            assert (moved > 0) <= (s in up)
            assert st.progress[s] == moved
            assert st.levels[s] == levels[s] + moved or st.levels[s] < levels[s]


def test_the_next_banker_is_the_first_winner_after_the_banker() -> None:
    for seed in range(6):
        st, _ = run_match(_opts(6), seed, [RandomBot(s, seed) for s in range(6)], max_hands=1)
        r = st.results[0]
        side = set(r.banker_side)
        winners = side if r.outcome.side == "banker" else set(range(6)) - side
        nxt = next((r.banker + i) % 6 for i in range(1, 7) if (r.banker + i) % 6 in winners)
        assert r.outcome.next_banker == nxt
        st2, _ = apply(st, 0, Continue())
        assert st2.declare.banker == nxt and st2.level == st.levels[nxt]


def test_views_show_the_calls_to_everyone_and_no_other_hand() -> None:
    st = _to_call(6, 5)
    banker = st.banker
    assert banker is not None
    st, _ = apply(st, banker, Call(choose_calls(seat_view(st, banker))))
    rng = random.Random(2)
    while not any(c.seat is not None for c in st.calls):
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng))
    for seat in (*range(6), None):
        v = observe(st, seat)
        assert [c["call"] for c in v["calls"]] == [c.call.text for c in st.calls]
        assert [c["seat"] for c in v["calls"]] == [c.seat for c in st.calls]
        assert v["sides"][banker] == 0 and v["players"] == 6
        assert len(v["levels"]) == 6
        if seat is not None:
            assert "hand" in v and all(k not in v for k in ("hands", "deck_order"))
    found = st.friends_found
    assert found and all(st.side_of(s) == 0 for s in found)


def test_a_branch_and_a_pickle_rebuild_the_calls_and_answer_the_same() -> None:
    st = _to_call(8, 2)
    banker = st.banker
    assert banker is not None
    st, _ = apply(st, banker, Call(choose_calls(seat_view(st, banker))))
    rng = random.Random(9)
    line = []
    while st.phase == "play":
        seat = st.to_act
        assert seat is not None
        action = random_action(st, seat, rng)
        line.append((st, seat, action))
        st, _ = apply(st, seat, action)
    for old, seat, action in line[::3]:
        first = apply(old, seat, action)
        again = apply(pickle.loads(pickle.dumps(old)), seat, action)
        assert again == first


@pytest.mark.parametrize("n", (5, 6, 8))
def test_records_replay_and_verify_the_calls(n: int) -> None:
    opts = _opts(n)
    players = [HeuristicBot(s, 1) if s % 2 else RandomBot(s, 1) for s in range(n)]
    st, rec = run_match(opts, 1, players, max_hands=2)
    doc = rec.record(st)
    assert any(a["type"] == "call" for a in doc["actions"])
    assert all("banker_side" in h for h in doc["hands"])
    assert verify(doc) == st
    assert replay(doc) == st
    bad = dict(doc, actions=[dict(a) for a in doc["actions"]])
    i = next(i for i, a in enumerate(bad["actions"]) if a["type"] == "call")
    bad["actions"][i]["calls"] = "BJ:1"
    with pytest.raises(RecordError) as e:
        verify(bad)
    assert e.value.index == i and "ILLEGAL_CALL" in e.value.message
    changed = dict(doc, hands=[dict(h) for h in doc["hands"]])
    changed["hands"][0]["banker_side"] = list(reversed(changed["hands"][0]["banker_side"]))
    with pytest.raises(RecordError, match="banker_side"):
        verify(changed)


def test_a_recorder_of_a_friends_match_round_trips() -> None:
    opts = _opts(7)
    st, rec = run_match(opts, 4, [RandomBot(s, 4) for s in range(7)], max_hands=1)
    again = Recorder(opts, 4)
    for seat, action in rec.actions:
        again.add(seat, action)
    assert again.record(st) == rec.record(st)


def test_heuristic_calls_are_legal_aces_it_does_not_hold() -> None:
    for seed in range(8):
        st = _to_call(6, seed)
        banker = st.banker
        assert banker is not None
        calls = choose_calls(seat_view(st, banker))
        apply(st, banker, Call(calls))  # legal
        hand = Counter(st.hands[banker])
        top = 14 if st.level != 14 else 13
        for c in calls:
            assert c.ordinal == hand[c.card] + 1
            if not st.ctx.is_trump(c.card):
                assert c.card.rank >= top - 1


def test_simulate_reports_per_player_figures() -> None:
    s = Settings(_opts(6), ("heuristic", "random"), hands=12, mirror=True)
    summary = summarise(s, run_jobs(s))
    assert summary.players_at_table == 6
    a, b = summary.teams
    assert a.levels_per_hand is not None and b.levels_per_hand is not None
    assert 0.0 <= a.level_rate <= 1.0 and abs(a.level_rate + b.level_rate - 1.0) < 1e-9
    assert points(deck(1)) == 100


def _needless_answer(st: GameState, seat: int, play: tuple[Card, ...]) -> bool:
    """``play`` by ``seat``, already on the banker's side, answers a call nobody has
    answered yet, while a copy it does not hold could still answer it and it had a legal
    play without the called card."""
    if not st.is_banker_side(seat):
        return False
    played = Counter(c for t in st.tricks for p in t.plays for c in p.cards)
    played.update(c for p in st.trick for c in p.cards)
    hand = st.hands[seat]
    for called in st.calls:
        card, ordinal = called.call.card, called.call.ordinal
        n = played[card]
        if called.seat is not None or not n < ordinal <= n + play.count(card):
            continue
        buried = st.kitty.count(card) if seat == st.banker else 0
        if st.options.decks - n - hand.count(card) - buried == 0:
            continue  # every copy left is its own: the call is its, whenever it plays
        if not st.trick:
            return any(c != card for c in hand)
        assert st.lead is not None
        return any(card not in f for f in legal_follows(st.ctx, st.lead, hand))
    return False


def test_a_friend_on_the_banker_side_does_not_answer_another_call_when_it_need_not() -> None:
    """Heuristic self-play at six seats (two calls): a seat already on the banker's side
    never plays a called copy that answers the other call while it had a play without
    it (the side would end 2 against 4)."""
    opts = _opts(6)
    chances = 0
    for seed in range(6):
        st = new_match(opts, seed)
        bots = [HeuristicBot(s, seed) for s in range(6)]
        while st.phase != "hand_over":
            seat = st.to_act
            assert seat is not None
            action = bots[seat].act(seat_view(st, seat))
            if isinstance(action, Play) and st.is_banker_side(seat):
                chances += any(c.seat is None and c.call.card in st.hands[seat] for c in st.calls)
                assert not _needless_answer(st, seat, action.cards), (seed, seat, action)
            st, _ = apply(st, seat, action)
    assert chances >= 5  # the rule was put to the test


def _holder_with_a_choice(seed: int) -> tuple[GameState, int, Card] | None:
    """Six-seat heuristic self-play to the first turn of a seat on no side yet that
    answers an open call with a called copy though it has a legal play without it (and
    another copy could still answer)."""
    st = new_match(_opts(6), seed)
    bots = [HeuristicBot(s, seed) for s in range(6)]
    while st.phase != "hand_over":
        seat = st.to_act
        assert seat is not None
        if st.phase == "play" and st.side_of(seat) is None:
            hand = st.hands[seat]
            played = Counter(c for t in st.tricks for p in t.plays for c in p.cards)
            played.update(c for p in st.trick for c in p.cards)
            for called in st.calls:
                card = called.call.card
                if called.seat is not None or card not in hand:
                    continue
                if played[card] + 1 != called.call.ordinal:
                    continue  # its copy would not be the one that answers
                if st.options.decks - played[card] - hand.count(card) == 0:
                    continue  # every copy left is its own
                if st.trick:
                    assert st.lead is not None
                    choice = any(card not in f for f in legal_follows(st.ctx, st.lead, hand))
                else:
                    choice = len(set(hand)) > 1
                if choice:
                    action = HeuristicBot(seat, seed).act(seat_view(st, seat))
                    if isinstance(action, Play) and card in action.cards:
                        return st, seat, card
        st, _ = apply(st, seat, bots[seat].act(seat_view(st, seat)))
    return None


def test_a_holder_does_not_join_a_banker_side_that_has_lost() -> None:
    """A seat on no side yet that holds a called copy: joining is free while the hand is
    open, but once the collectors' points win the hand whatever the unknown seats turn
    out to be, answering the call would only join the losers, and it plays another card."""
    from dataclasses import replace

    from shengji.bots.heuristic import Knowledge, banker_side_lost

    found = 0
    for seed in range(60):
        at = _holder_with_a_choice(seed)
        if at is None:
            continue
        st, seat, play = at
        view = seat_view(st, seat)
        lost = replace(view, trick_points=view.trick_points + 200)
        assert banker_side_lost(lost)
        called = {c.call.card for c in st.calls if c.seat is None}
        assert Knowledge(lost).needless_answers((play,)) == 1
        if not banker_side_lost(view):
            assert Knowledge(view).needless_answers((play,)) == 0
        action = HeuristicBot(seat, seed).act(lost)
        assert isinstance(action, Play) and not any(c in called for c in action.cards), (
            seed,
            action,
        )
        found += 1
        if found >= 4:
            break
    assert found >= 4


def test_simulate_counts_the_hands_whose_banker_side_ended_full() -> None:
    """The share of hands whose banker's side ended with the banker and a friend per call
    (the figure of docs/bots.md), as the games themselves end."""
    opts = _opts(6)
    s = Settings(opts, ("heuristic", "heuristic"), hands=4, seed=2)
    summary = summarise(s, run_jobs(s))
    full = 0
    for i in range(4):
        seed = deal_seed(2, i)
        st, _ = run_match(
            opts, seed, [HeuristicBot(p, seed) for p in range(6)], stop_after_hand=True
        )
        full += len(st.results[-1].banker_side) == 1 + opts.calls
    assert summary.full_sides == (full, 4)
    assert summary.to_json()["full_sides"] == {"full": full, "hands": 4}
    text = format_summary(summary)
    assert f"banker's side at full strength: {full} of 4 hands" in text
