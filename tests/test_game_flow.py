"""Game flow: random hands under every preset keep the invariants; replays reproduce."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from shengji.bots.random_bot import random_action
from shengji.errors import ShengjiError
from shengji.game.actions import Bury, Call, Continue, Declare, Pass, Play
from shengji.game.flow import apply, new_match
from shengji.game.legal import legal_actions
from shengji.game.record import Recorder, replay
from shengji.game.state import GameState
from shengji.rules.cards import Card, deck, points
from shengji.rules.follow import count_legal_follows
from shengji.rules.friends import FriendCall, callable_cards
from shengji.rules.presets import load_preset, preset_names

HANDS_PER_PRESET = int(os.environ.get("SHENGJI_SOAK_HANDS", "300"))


def all_cards_in_play(st: GameState) -> Counter[Card]:
    """Every card the hand accounts for: hands, kitty, cards played, cards not yet dealt."""
    seen: Counter[Card] = Counter()
    for h in st.hands:
        seen.update(h)
    seen.update(st.kitty)
    for t in st.tricks:
        for p in t.plays:
            seen.update(p.cards)
    for p in st.trick:
        seen.update(p.cards)
    seen.update(st.deck_order[st.dealt : st.seats * st.options.hand_size])
    return seen


def in_legal_actions(st: GameState, seat: int, action: object) -> bool:
    """Whether ``action`` is among ``legal_actions`` (cards compared as multisets).

    Burials (millions of choices) and very large follow sets are not enumerated.
    """
    if isinstance(action, Play) and not st.trick:
        return True  # throws are attempts checked by apply; one-unit leads are listed
    if isinstance(action, Bury):
        return len(action.cards) == st.options.kitty_size
    if isinstance(action, Call):  # up to 10^5 sets: each call is checked on its own
        decks = st.options.decks
        choices = {FriendCall(c, k) for c in callable_cards(st.ctx) for k in range(1, decks + 1)}
        calls = set(action.calls)
        return len(calls) == len(action.calls) == st.options.calls and calls <= choices
    if isinstance(action, Play):
        assert st.lead is not None
        if count_legal_follows(st.ctx, st.lead, st.hands[seat]) > 2000:
            return True
    want = Counter(getattr(action, "cards", ()))
    for a in legal_actions(st, seat):
        if type(a) is type(action) and Counter(getattr(a, "cards", ())) == want:
            return True
    return False


def play_hands(preset: str, n_hands: int, seed: int, check_legal_every: int = 7):
    """Play ``n_hands`` hands (several matches if needed), checking invariants."""
    opts = load_preset(preset)
    full = Counter(deck(opts.decks))
    rng = random.Random(seed)
    hands_done = 0
    match_seed = seed
    while hands_done < n_hands:
        st = new_match(opts, match_seed)
        rec = Recorder(opts, match_seed)
        states = [st]
        steps = 0
        while st.phase != "match_over" and hands_done < n_hands:
            seat = st.to_act if st.to_act is not None else rng.randrange(st.seats)
            action = random_action(st, seat, rng)
            if steps % check_legal_every == 0:
                assert in_legal_actions(st, seat, action), (preset, st.phase, action)
            before = st
            st, events = apply(st, seat, action)
            assert before is not st
            rec.add(seat, action)
            states.append(st)
            steps += 1
            assert steps < 5000 * (hands_done + 1), "a hand did not terminate"
            if st.phase not in ("hand_over", "match_over"):
                assert all_cards_in_play(st) == full
            if any(e["type"] == "hand_over" for e in events):
                hands_done += 1
                last = st.results[-1]
                assert all(not h for h in st.hands)
                played = Counter(c for t in st.tricks for p in t.plays for c in p.cards)
                assert played + Counter(st.kitty) == full
                total = sum(t.points for t in st.tricks)
                assert total == points(played.elements())
                assert total + last.kitty_points == 100 * opts.decks
                side = set(last.banker_side) or {
                    s for s in (0, 1, 2, 3) if s % 2 == last.banker % 2
                }
                collected = sum(t.points for t in st.tricks if t.winner not in side)
                assert collected == last.trick_points
        # replaying the record reproduces every state exactly
        replayed = [new_match(opts, match_seed)]
        replay(rec.record(st), lambda s, *_, out=replayed: out.append(s))
        assert replayed == states
        match_seed += 1000


@pytest.mark.parametrize("preset", preset_names())
def test_random_hands_keep_invariants_and_replay(preset: str) -> None:
    play_hands(preset, HANDS_PER_PRESET, seed=11)


def test_apply_rejects_without_changing_state() -> None:
    opts = load_preset("shuangsheng")
    st = new_match(opts, 5)
    seat = st.to_act
    assert seat is not None
    other = (seat + 1) % 4
    with pytest.raises(ShengjiError) as e:
        apply(st, other, Pass())
    assert e.value.code == "NOT_YOUR_TURN"
    with pytest.raises(ShengjiError) as e:
        apply(st, seat, Play(st.hands[seat][:1]))
    assert "declare" in e.value.message
    with pytest.raises(ShengjiError) as e:
        apply(st, 7, Pass())
    assert e.value.code == "BAD_SEAT"
    snapshot = (st.hands, st.phase, st.to_act, st.declare)
    with pytest.raises(ShengjiError):
        apply(st, seat, Declare(tuple(deck(1)[:1] * 2)))
    assert (st.hands, st.phase, st.to_act, st.declare) == snapshot


def test_bury_and_play_errors_have_codes() -> None:
    opts = load_preset("tuolaji")
    rng = random.Random(3)
    st = new_match(opts, 9)
    while st.phase != "bury":
        seat = st.to_act if st.to_act is not None else 0
        st, _ = apply(st, seat, random_action(st, seat, rng))
    b = st.to_act
    assert b is not None
    with pytest.raises(ShengjiError) as e:
        apply(st, b, Bury(st.hands[b][:3]))
    assert e.value.code == "WRONG_CARD_COUNT"
    hand = st.hands[b]
    missing = next(c for c in deck(1) if c not in hand)
    with pytest.raises(ShengjiError) as e:
        apply(st, b, Bury((missing, *hand[: opts.kitty_size - 1])))
    assert e.value.code == "CARDS_NOT_IN_HAND"
    st, _ = apply(st, b, Bury(hand[: opts.kitty_size]))
    assert st.phase == "play" and st.to_act == b
    # a lead of two suits is refused with MIXED_SUITS
    ctx = st.ctx
    h = st.hands[b]
    a = h[0]
    other = next((c for c in h if ctx.suit_of[c.index] != ctx.suit_of[a.index]), None)
    if other is not None:
        with pytest.raises(ShengjiError) as e:
            apply(st, b, Play((a, other)))
        assert e.value.code == "MIXED_SUITS"


def test_hand_over_needs_continue() -> None:
    opts = load_preset("classic")
    rng = random.Random(1)
    st = new_match(opts, 2)
    while st.phase != "hand_over":
        seat = st.to_act if st.to_act is not None else 0
        st, _ = apply(st, seat, random_action(st, seat, rng))
    assert list(legal_actions(st, 2)) == [Continue()]
    with pytest.raises(ShengjiError):
        apply(st, 0, Pass())
    st2, events = apply(st, 3, Continue())
    assert st2.hand_number == 1 and events[0]["type"] == "new_hand"
    assert st2.banker == st.results[-1].outcome.next_banker


def test_same_seed_same_game() -> None:
    opts = load_preset("shuangkou")
    a = new_match(opts, 42)
    b = new_match(opts, 42)
    c = new_match(opts, 43)
    assert a.deck_order == b.deck_order and a == b
    assert a.deck_order != c.deck_order
