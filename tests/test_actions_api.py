"""The library API as a program meets it: actions from notation, a clear error for what is
not an action, ``is_over``/``result``, the table as text, and records from ``shengji``."""

from __future__ import annotations

import random

import pytest

import shengji
from shengji.bots.random_bot import random_action
from shengji.errors import CardError
from shengji.game.actions import ActionError, Bury, Call, Declare, Play
from shengji.game.flow import apply, new_match
from shengji.game.state import GameState
from shengji.rules.cards import format_cards, parse_card, parse_cards
from shengji.rules.friends import FriendCall
from shengji.rules.presets import load_preset
from shengji.words.i18n import error_text


def _to(st: GameState, done: object, seed: int = 1) -> GameState:
    rng = random.Random(seed)
    while not done(st):  # type: ignore[operator]
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng))
    return st


def test_actions_take_their_cards_in_notation_or_as_cards() -> None:
    s10 = parse_card("S10")
    assert Play("S10 S10") == Play((s10, s10)) == Play(["S10", s10])
    assert Play("S10 S10").cards == (s10, s10)
    assert Play(s10).cards == (s10,)
    assert Declare("H2").cards == (parse_card("H2"),)
    assert Bury(["S3", "S4"]).cards == parse_cards("S3 S4")
    assert Call("SA:2").calls == (FriendCall(parse_card("SA"), 2),)
    assert Call([FriendCall(parse_card("SA"), 1)]).calls == (FriendCall(parse_card("SA"), 1),)
    with pytest.raises(CardError, match="BAD_CARD"):
        Play("X99")
    with pytest.raises(CardError, match="Play takes cards: notation like Play"):
        Play(42)  # type: ignore[arg-type]


def test_a_play_in_notation_is_applied_as_its_cards() -> None:
    """``Play("...")`` used to keep the string and fail when applied (AttributeError)."""
    st = _to(new_match(load_preset("shuangsheng"), 3), lambda s: s.phase == "play" and s.trick)
    seat = st.to_act
    assert seat is not None
    cards = random_action(st, seat, random.Random(2))
    assert isinstance(cards, Play)
    by_text, _ = apply(st, seat, Play(format_cards(cards.cards)))
    by_cards, _ = apply(st, seat, cards)
    assert by_text.trick == by_cards.trick and by_text.hands == by_cards.hands


@pytest.mark.parametrize(
    ("thing", "hint"),
    [
        ("S10 S10", "Play('S10 S10') plays those cards"),
        ({"type": "pass"}, "action_from_json reads an action's JSON form"),
        (None, "make one of Declare, Pass, Bury, Play, Call or Continue"),
        (54, "make one of"),
    ],
)
def test_anything_but_an_action_is_bad_action(thing: object, hint: str) -> None:
    st = new_match(load_preset("shuangsheng"), 1)
    seat = st.to_act
    assert seat is not None
    with pytest.raises(ActionError) as err:
        apply(st, seat, thing)  # type: ignore[arg-type]
    assert err.value.code == "BAD_ACTION"
    assert f"not an action: {thing!r}" in err.value.message and hint in err.value.message
    assert error_text("BAD_ACTION", err.value.params, err.value.message, "zh").startswith("这不是")


def test_is_over_and_result() -> None:
    st = new_match(load_preset("shuangsheng", {"match_hands": 2}), 5)
    assert not st.is_over() and st.result() is None
    st = _to(st, lambda s: s.phase == "hand_over")
    assert not st.is_over() and st.result() is st.results[0]
    st, _ = apply(st, 0, shengji.Continue())
    st = _to(st, lambda s: s.phase == "match_over")
    assert st.is_over() and st.result() is st.results[1] and len(st.results) == 2


def test_the_table_as_text() -> None:
    st = _to(new_match(load_preset("shuangsheng"), 3), lambda s: s.phase == "play" and s.trick)
    lines = str(st).splitlines()
    assert lines[0].startswith("shuangsheng · hand 1 · playing · level 2 · trump ")
    assert lines[1] == "collectors' points 0 · levels: seats 0 and 2 at 2 · seats 1 and 3 at 2"
    for seat, hand in enumerate(st.hands):
        line = lines[2 + seat]
        assert line.startswith(f"seat {seat}")
        assert line.split(": ")[1] == " ".join(c.symbol for c in st.ctx.sorted(hand))
    assert any(s in lines[2] for s in "♠♥♣♦")
    assert f"seat {st.banker} (banker): " in str(st)
    assert lines[-2].startswith(f"trick: seat {st.trick[0].seat} ")
    assert lines[-1] == f"to act: seat {st.to_act}"
    zh = st.text("zh")
    assert "第1副" in zh and f"轮到 {st.to_act}号位" in zh and "庄家" in zh


def test_import_shengji_gives_the_records() -> None:
    from shengji.game import record

    for name in ("Recorder", "save_record", "load_record", "make_record", "verify"):
        assert getattr(shengji, name) is getattr(record, name)
        assert name in shengji.__all__
