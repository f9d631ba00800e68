"""A seat's view never depends on what that seat may not know."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from shengji.bots.random_bot import random_action
from shengji.game.flow import apply, new_match
from shengji.game.state import GameState
from shengji.game.views import observe, redact_event
from shengji.rules.presets import load_preset


def swap_hidden(st: GameState, seat: int | None, rng: random.Random) -> GameState | None:
    """The same state with one card exchanged between two hands ``seat`` cannot see, or
    between such a hand and a kitty it has not seen."""
    others = [s for s in range(4) if s != seat]
    a, b = rng.sample(others, 2)
    hands = [list(h) for h in st.hands]
    seen_kitty = seat is not None and any(who == seat for who, _, _ in st.kitty_log)
    if st.kitty and not seen_kitty and hands[a] and rng.random() < 0.3:
        kitty = list(st.kitty)
        i, j = rng.randrange(len(kitty)), rng.randrange(len(hands[a]))
        kitty[i], hands[a][j] = hands[a][j], kitty[i]
        return dataclasses.replace(st, hands=tuple(tuple(h) for h in hands), kitty=tuple(kitty))
    if not hands[a] or not hands[b]:
        return None
    i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
    hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    return dataclasses.replace(st, hands=tuple(tuple(h) for h in hands))


@pytest.mark.parametrize("preset", ["shuangsheng", "shuangkou", "classic-3deck", "tuolaji"])
def test_views_reveal_nothing_hidden(preset: str) -> None:
    opts = load_preset(preset)
    rng = random.Random(4)
    for match_seed in range(3):
        st = new_match(opts, match_seed)
        steps = 0
        while st.phase != "match_over" and st.hand_number < 2:
            if steps % 5 == 0 and st.phase not in ("hand_over",):
                for seat in (0, 1, 2, 3, None):
                    view = observe(st, seat)
                    json.dumps(view)
                    if seat is not None:
                        assert sorted(view["hand"].split()) == sorted(
                            c.text for c in st.hands[seat]
                        )
                    else:
                        assert "hand" not in view and "seen_kitty" not in view
                    other = swap_hidden(st, seat, rng)
                    if other is not None:
                        assert observe(other, seat) == view, (preset, st.phase, seat)
            seat = st.to_act if st.to_act is not None else 0
            st, events = apply(st, seat, random_action(st, seat, rng))
            for ev in events:
                if "private" in ev:
                    owner = next(iter(ev["private"]))
                    for s in (0, 1, 2, 3, None):
                        red = redact_event(ev, s)
                        assert red is not None and "private" not in red
                        assert ("cards" in red) == (s == owner)
            steps += 1


def test_kitty_is_public_only_at_the_end() -> None:
    opts = load_preset("tuolaji")
    rng = random.Random(8)
    st = new_match(opts, 3)
    while st.phase != "hand_over":
        for seat in range(4):
            assert "kitty" not in observe(st, seat)
        seat = st.to_act if st.to_act is not None else 0
        st, _ = apply(st, seat, random_action(st, seat, rng))
    kitty = st.results[-1].kitty
    for viewer in (0, 1, 2, 3, None):
        assert sorted(observe(st, viewer)["kitty"].split()) == sorted(c.text for c in kitty)
    banker = st.results[-1].banker
    assert observe(st, banker)["seen_kitty"]
    assert not observe(st, (banker + 1) % 4)["seen_kitty"]


@pytest.mark.parametrize("preset", ["shuangsheng", "classic-3deck", "tuolaji"])
def test_view_names_the_winning_play_and_the_trumps(preset: str) -> None:
    """Clients decide no rule: the view says which play wins so far and which cards are
    trumps, exactly as the engine decides."""
    from shengji.rules.cards import deck
    from shengji.rules.tricks import trick_winner

    rng = random.Random(preset)
    st = new_match(load_preset(preset), 11)
    checked = 0
    while st.phase not in ("hand_over", "match_over"):
        seat = st.to_act if st.to_act is not None else 0
        st, _ = apply(st, seat, random_action(st, seat, rng))
        view = observe(st, (seat + 1) % 4)
        if st.trick:
            want = st.trick[trick_winner(st.ctx, [p.cards for p in st.trick], st.lead)].seat
            assert view["winning"] == want
            checked += 1
        else:
            assert view["winning"] is None
        assert set(view["trumps"].split()) == {c.text for c in deck(1) if st.ctx.is_trump(c)}
    assert checked > 20


@pytest.mark.parametrize("preset", ["shuangsheng", "classic-3deck"])
def test_a_view_is_the_shared_table_part_and_the_seats_own(preset: str) -> None:
    from shengji.game.views import own_view, table_view

    rng = random.Random(11)
    st = new_match(load_preset(preset), 5)
    states = 0
    while st.phase != "match_over" and states < 400:
        for seat in (None, 0, 1, 2, 3):
            assert observe(st, seat) == {"seat": seat, **table_view(st), **own_view(st, seat)}
        seat = st.to_act if st.to_act is not None else 0
        st, _ = apply(st, seat, random_action(st, seat, rng))
        states += 1
    assert states == 400 or st.phase == "match_over"
