"""Declaring (报主/亮主), reinforcing and counter-declaring per `declaring` style (RULES.md §7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from helpers import C
from shengji.errors import DeclarationError
from shengji.rules.cards import Card
from shengji.rules.declaring import (
    DeclareState,
    apply_show,
    flipped_state,
    kitty_card_trump,
    parse_show,
    replay_shows,
    start_state,
)
from shengji.rules.options import RuleOptions
from shengji.rules.phases import DeclaringPhase
from shengji.rules.presets import load_preset

# A scenario step: (seat, cards, phase, expected) where expected is None for an illegal
# show, else a dict of state attributes after it (trump_text, banker, counters, ...).
Step = tuple[int, str, DeclaringPhase, dict[str, Any] | None]


def run(opts: RuleOptions, level: int, state: DeclareState, steps: Sequence[Step]) -> DeclareState:
    accepted: list[tuple[int, tuple[Card, ...]]] = list(state.shows)
    for seat, cards, phase, expected in steps:
        if expected is None:
            with pytest.raises(DeclarationError) as exc:
                apply_show(opts, level, state, seat, C(cards), phase)
            assert exc.value.code == "ILLEGAL_DECLARATION"
            assert exc.value.message.strip()
            continue
        state = apply_show(opts, level, state, seat, C(cards), phase)
        accepted.append((seat, C(cards)))
        for attr, value in expected.items():
            assert getattr(state, attr) == value, (seat, cards, attr)
    assert list(state.shows) == accepted
    return state


def replayed(opts: RuleOptions, level: int, first: bool, banker: int | None, st: DeclareState):
    return replay_shows(opts, level, first, banker, [(s, c) for s, c in st.shows])


# -- shuangsheng (seeds 000/004) ----------------------------------------------------------


def test_shuangsheng_first_hand() -> None:
    opts = load_preset("shuangsheng")
    st = start_state(first_hand=True, banker=None)
    assert st.trump_text is None and st.banker is None and not st.declared
    st = run(
        opts,
        2,
        st,
        [
            (0, "BJ", "deal", None),  # a single joker never declares
            (0, "LJ LJ", "deal", None),  # jokers cannot make the first declaration here
            (0, "H3", "deal", None),  # not a level card
            (0, "H2 D2", "deal", None),  # two suits are no pair
            (2, "H2", "deal", {"trump_text": "H", "banker": 2, "counters": 0, "holder": 2}),
            (1, "S2", "deal", None),  # a second single is too late (抢报)
            (2, "H2 H2", "deal", {"trump_text": "H", "banker": 2, "rung": 2, "locked": True}),
            (1, "C2 C2", "before_kitty", None),  # lower than a backed H pair
            (2, "S2 S2", "before_kitty", None),  # the holder cannot counter itself
            (1, "S2 S2", "before_kitty", {"trump_text": "S", "banker": 1, "counters": 1}),
            (3, "H2 H2", "before_kitty", None),  # H is below S
            # the first declarer may counter once someone else has (反主反打: banker too)
            (2, "LJ LJ", "before_kitty", {"trump_text": "NT", "banker": 2, "counters": 2}),
            (0, "BJ BJ", "before_kitty", {"trump_text": "NT", "banker": 0, "counters": 3}),
            (1, "LJ LJ", "before_kitty", None),
            (1, "S2 S2", "after_burial", None),  # first hand: no 反主 once the kitty is taken
        ],
    )
    assert st.first_declarer == 2
    # coins: the stake doubles with each 反主
    assert opts.base_stake * 2**st.counters == 8 * opts.base_stake
    again = replayed(opts, 2, True, None, st)
    assert (again.trump_text, again.banker, again.counters) == ("NT", 0, 3)


def test_shuangsheng_any_pair_beats_an_unbacked_single() -> None:
    opts = load_preset("shuangsheng")
    st = start_state(first_hand=True, banker=None)
    run(
        opts,
        2,
        st,
        [
            (1, "S2", "deal", {"banker": 1}),
            (3, "D2 D2", "before_kitty", {"trump_text": "D", "banker": 3, "counters": 1}),
        ],
    )


def test_shuangsheng_later_hand_chaodi() -> None:
    opts = load_preset("shuangsheng")
    st = start_state(first_hand=False, banker=0)
    st = run(
        opts,
        5,
        st,
        [
            (1, "C5", "deal", {"trump_text": "C", "banker": 0}),
            (3, "S5 S5", "deal", None),  # later hands: 反主炒底 only after the burial
            (3, "S5 S5", "before_kitty", None),
            (1, "C5 C5", "deal", {"trump_text": "C", "rung": 2}),  # 上保险
            (3, "D5 D5", "after_burial", None),  # below the backed C pair
            (3, "S5 S5", "after_burial", {"trump_text": "S", "banker": 0, "counters": 1}),
            (1, "LJ LJ", "after_burial", {"trump_text": "NT", "banker": 0, "counters": 2}),
            (2, "BJ BJ", "after_burial", {"trump_text": "NT", "banker": 0, "counters": 3}),
        ],
    )
    again = replayed(opts, 5, False, 0, st)
    assert (again.trump_text, again.banker, again.counters) == ("NT", 0, 3)


def test_reinforcement_too_late_after_burial() -> None:
    opts = load_preset("shuangsheng")
    st = start_state(first_hand=False, banker=0)
    run(opts, 5, st, [(1, "C5", "deal", {}), (1, "C5 C5", "after_burial", None)])


# -- shuangkou (seed 002) -----------------------------------------------------------------


def test_shuangkou_first_hand_and_fandi() -> None:
    opts = load_preset("shuangkou")
    st = start_state(first_hand=True, banker=None)
    st = run(
        opts,
        3,
        st,
        [
            (1, "H2", "deal", None),  # 2s are trumps but never declare
            (1, "H3", "deal", {"trump_text": "H", "banker": 1}),
            (2, "C3", "deal", None),
            (2, "C3 C3", "deal", {"trump_text": "C", "banker": 2, "counters": 1}),
            (3, "D3 D3", "deal", None),
            (3, "S3 S3", "deal", {"trump_text": "S", "banker": 3, "counters": 2}),
            # 反底 after burying: banker unchanged; 定主 players have forfeited it
            (2, "LJ LJ", "after_burial", None),
            (3, "LJ LJ", "after_burial", None),
            (0, "D3 D3", "after_burial", None),  # does not outrank a backed S pair
            (0, "LJ LJ", "after_burial", {"trump_text": "NT", "banker": 3, "counters": 3}),
            (0, "BJ BJ", "after_burial", None),  # each player at most once
            (1, "BJ BJ", "after_burial", {"trump_text": "NT", "banker": 3, "counters": 4}),
        ],
    )
    assert st.pair_seats == frozenset({0, 1, 2, 3})


def test_shuangkou_replay_of_deal_phase_shows() -> None:
    opts = load_preset("shuangkou")
    history = [(1, C("H3")), (2, C("C3 C3")), (3, C("S3 S3"))]
    st = replay_shows(opts, 3, True, None, history)
    assert (st.trump_text, st.banker, st.counters) == ("S", 3, 2)
    assert st.pair_seats == frozenset({2, 3})


def test_shuangkou_first_hand_fandi_history_keeps_the_banker() -> None:
    from shengji.tools.conformance import run_case

    case = {
        "id": "fandi-history",
        "preset": "shuangkou",
        "level": "3",
        "question": "declare",
        "first_hand": True,
        "phase": "after_burial",
        "banker_seat": 1,
        "history": [{"seat": 1, "cards": ["H3"]}, {"seat": 0, "cards": ["LJ", "LJ"]}],
        "attempt": {"seat": 2, "cards": ["BJ", "BJ"]},
        "expect": {"legal": True, "trump": "NT", "banker_seat": 1},
    }
    r = run_case(case)
    assert r.passed, r.got


def test_shuangkou_later_hand_dingzhu_changes_trump_only() -> None:
    opts = load_preset("shuangkou")
    st = start_state(first_hand=False, banker=0)
    run(
        opts,
        5,
        st,
        [
            (1, "H5", "deal", {"trump_text": "H", "banker": 0}),
            (2, "S5 S5", "deal", {"trump_text": "S", "banker": 0}),
            (2, "LJ LJ", "after_burial", None),  # 定主 forfeits 反底
            (3, "LJ LJ", "after_burial", {"trump_text": "NT", "banker": 0}),
        ],
    )


def test_shuangkou_kitty_flip_only_joker_pairs() -> None:
    opts = load_preset("shuangkou")
    st = flipped_state(start_state(first_hand=False, banker=0), kitty_card_trump(C("D9")[0]))
    assert st.trump_text == "D" and st.flipped
    run(
        opts,
        5,
        st,
        [
            (1, "S5 S5", "after_burial", None),
            (1, "S5", "after_burial", None),
            (1, "LJ LJ", "after_burial", {"trump_text": "NT", "banker": 0}),
        ],
    )
    assert kitty_card_trump(C("BJ")[0]) is None  # a joker turned up: NT


# -- classic (seed 001) -------------------------------------------------------------------


def test_classic_two_decks_first_hand() -> None:
    opts = load_preset("classic")
    st = start_state(first_hand=True, banker=None)
    st = run(
        opts,
        2,
        st,
        [
            (3, "D2", "deal", {"trump_text": "D", "banker": 3}),
            (0, "S2", "deal", None),  # only a stronger show
            (0, "S2 S2", "deal", {"trump_text": "S", "banker": 0, "counters": 1}),
            (1, "H2 H2", "before_kitty", None),  # a pair is not stronger than a pair
            (1, "LJ LJ", "before_kitty", {"trump_text": "NT", "banker": 1, "counters": 2}),
            (2, "BJ BJ", "before_kitty", None),
            (2, "S2 S2", "after_burial", None),
        ],
    )
    assert replayed(opts, 2, True, None, st).banker == 1


def test_classic_without_counter_takes_banker() -> None:
    opts = load_preset("classic", {"counter_takes_banker": False})
    st = start_state(first_hand=True, banker=None)
    run(
        opts,
        2,
        st,
        [
            (3, "D2", "deal", {"banker": 3}),
            (0, "S2 S2", "deal", {"trump_text": "S", "banker": 3}),
        ],
    )


def test_classic_later_hand_keeps_the_banker() -> None:
    opts = load_preset("classic")
    st = start_state(first_hand=False, banker=2)
    run(
        opts,
        7,
        st,
        [
            (0, "S7", "deal", {"trump_text": "S", "banker": 2}),
            (1, "H7 H7", "before_kitty", {"trump_text": "H", "banker": 2}),
        ],
    )


def test_classic_three_deck_ladder() -> None:
    opts = load_preset("classic-3deck")
    st = start_state(first_hand=True, banker=None)
    st = run(
        opts,
        2,
        st,
        [
            (0, "H2", "deal", {"trump_text": "H", "banker": 0, "rung": 1}),
            (1, "S2 S2", "deal", {"trump_text": "S", "banker": 1, "rung": 2}),
            (2, "D2 D2", "deal", None),
            (2, "BJ BJ", "deal", {"trump_text": "NT", "banker": 2, "rung": 3}),
            (3, "LJ LJ", "deal", None),
            (3, "D2 D2 D2", "deal", {"trump_text": "D", "banker": 3, "rung": 4}),
            (0, "C2 C2 C2", "deal", None),
            (0, "LJ LJ LJ", "deal", {"trump_text": "NT", "banker": 0, "rung": 5}),
            (1, "BJ BJ BJ", "deal", None),
        ],
    )
    assert st.counters == 4


def test_classic_own_show_strengthened_is_not_a_counter() -> None:
    opts = load_preset("classic-3deck")
    st = start_state(first_hand=True, banker=None)
    st = run(
        opts,
        2,
        st,
        [
            (0, "H2", "deal", {"banker": 0}),
            (0, "H2 H2 H2", "deal", {"trump_text": "H", "banker": 0, "rung": 4, "counters": 0}),
        ],
    )


# -- tuolaji (seed 003) -------------------------------------------------------------------


def test_tuolaji_override_lock_and_jokers() -> None:
    opts = load_preset("tuolaji")
    st = start_state(first_hand=False, banker=0)
    st = run(
        opts,
        10,
        st,
        [
            (1, "S10", "deal", {"trump_text": "S", "banker": 0}),
            (2, "H10", "deal", None),  # a single does not override
            (2, "H10 H10", "deal", {"trump_text": "H", "banker": 0, "locked": True}),
            (3, "C10 C10", "before_kitty", None),  # locked by the pair
            (3, "LJ LJ", "before_kitty", {"trump_text": "NT", "banker": 0}),
            (0, "BJ BJ", "before_kitty", None),  # already no-trump
            (0, "S10 S10", "after_burial", None),
        ],
    )
    assert replayed(opts, 10, False, 0, st).trump_text == "NT"


def test_tuolaji_same_suit_pair_locks() -> None:
    opts = load_preset("tuolaji")
    st = start_state(first_hand=False, banker=0)
    run(
        opts,
        10,
        st,
        [
            (1, "S10", "deal", {"trump_text": "S"}),
            (2, "S10 S10", "deal", {"trump_text": "S", "locked": True}),  # 自保 by anyone
            (3, "H10 H10", "deal", None),
        ],
    )


def test_tuolaji_joker_pair_declares_no_trump() -> None:
    opts = load_preset("tuolaji")
    st = start_state(first_hand=True, banker=None)
    run(opts, 2, st, [(2, "BJ BJ", "deal", {"trump_text": "NT", "banker": 2})])


# -- common checks ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["shuangsheng", "shuangkou", "classic", "tuolaji"])
def test_common_rejections(preset: str) -> None:
    opts = load_preset(preset)
    level = opts.start_level
    st = start_state(first_hand=True, banker=None)
    lv = {2: "2", 3: "3"}[level]
    for seat, cards in [
        (0, ""),
        (0, "BJ"),
        (0, "LJ BJ"),
        (0, f"S{lv} H{lv}"),
        (0, "SA" if lv != "A" else "SK"),
        (0, f"S{lv} S{lv} S{lv}"),  # 3 identical cards need 3 decks
        (4, f"S{lv}"),
        (-1, f"S{lv}"),
    ]:
        with pytest.raises(DeclarationError) as exc:
            apply_show(opts, level, st, seat, C(cards), "deal")
        assert exc.value.code == "ILLEGAL_DECLARATION"
        assert exc.value.message
    # the first declaration is made while the cards are dealt (seed 001: also after the deal)
    late: tuple[DeclaringPhase, ...] = (
        ("after_burial",) if preset == "classic" else ("before_kitty", "after_burial")
    )
    for phase in late:
        with pytest.raises(DeclarationError):
            apply_show(opts, level, st, 0, C(f"S{lv}"), phase)
    if preset == "classic":
        after = apply_show(opts, level, st, 0, C(f"S{lv}"), "before_kitty")
        assert (after.trump_text, after.banker) == ("S", 0)


def test_parse_show() -> None:
    s = parse_show(5, C("H5 H5"))
    assert (s.count, s.trump, s.priority, s.rung) == (2, C("H5")[0].suit, 2, 2)
    assert parse_show(5, C("BJ BJ")).priority == 5
    assert parse_show(5, C("LJ LJ")).priority == 4
    assert [parse_show(5, C(t)).priority for t in ("S5", "H5", "C5", "D5")] == [3, 2, 1, 0]
    assert parse_show(5, C("BJ BJ BJ")).rung == 5
    assert parse_show(5, C("D5 D5 D5")).rung == 4


def test_states_are_immutable_values() -> None:
    opts = load_preset("shuangsheng")
    st0 = start_state(first_hand=True, banker=None)
    st1 = apply_show(opts, 2, st0, 1, C("S2"), "deal")
    assert st0.declared is False and st0.shows == ()
    assert st1.declared and st1.shows == ((1, C("S2")),)
    assert start_state(first_hand=False, banker=3).banker == 3
    assert start_state(first_hand=True, banker=3).banker is None
