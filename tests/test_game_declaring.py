"""Scripted deals through each preset's declaring rules: banker, trump, who buried the kitty
last, and the coin multiplier."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

from shengji.actions import Action, Continue, Declare, Pass
from shengji.bots.random_bot import random_action
from shengji.cards import Card, deck, parse_cards
from shengji.game import GameState, apply, new_match, stack_deck
from shengji.options import RuleOptions
from shengji.presets import load_preset

Script = list[tuple[str, int, str]]  # (phase, seat, cards) shows to make, in order


def build_deck(
    opts: RuleOptions, wants: dict[int, str], kitty: str = "", seed: int = 0, start: int = 0
) -> tuple[Card, ...]:
    """A deck order dealing the wanted cards first to each seat (from seat ``start``)."""
    rng = random.Random(seed)
    pool = Counter(deck(opts.decks))
    hands: list[list[Card]] = [[], [], [], []]
    for seat, text in wants.items():
        for c in parse_cards(text):
            pool[c] -= 1
            hands[seat].append(c)
    kit = list(parse_cards(kitty))
    for c in kit:
        pool[c] -= 1
    rest = list(pool.elements())
    rng.shuffle(rest)
    for h in hands:
        while len(h) < opts.hand_size:
            h.append(rest.pop())
    kit += rest
    assert len(kit) == opts.kitty_size
    return stack_deck(hands, kit, start)


def run(st: GameState, script: Script, until: str = "play", seed: int = 1) -> GameState:
    """Drive the game: make the scripted shows when offered, pass otherwise, bury randomly;
    stop when ``until`` is reached (``play`` or ``hand_over``)."""
    rng = random.Random(seed)
    todo = list(script)
    while st.phase != until:
        seat = st.to_act if st.to_act is not None else 0
        action: Action
        if st.phase in ("deal", "before_kitty", "after_burial"):
            action = Pass()
            if todo and todo[0][0] == st.phase and todo[0][1] == seat:
                action = Declare(parse_cards(todo.pop(0)[2]))
        else:
            action = random_action(st, seat, rng)
        st, _ = apply(st, seat, action)
    assert not todo, f"scripted shows never offered: {todo}"
    return st


def later_hand(opts: RuleOptions, wants: dict[int, str], kitty: str = "") -> GameState:
    """A state at the start of hand 2 with a stacked deck (hand 1 played randomly)."""
    st = run(new_match(opts, 1), [], until="hand_over")
    banker = st.results[-1].outcome.next_banker
    d = build_deck(opts, wants, kitty, start=banker)
    st = dataclasses.replace(st, stacked=(st.deck_order, d))
    st, _ = apply(st, 0, Continue())
    return st


def test_shuangsheng_first_hand_counter_takes_banker_and_doubles_coins() -> None:
    opts = load_preset("shuangsheng")
    d = build_deck(opts, {0: "H2", 1: "S2 S2"})
    st = run(new_match(opts, 1, [d]), [("deal", 0, "H2"), ("before_kitty", 1, "S2 S2")])
    assert (st.banker, st.trump, st.buried_by, st.declare.counters) == (1, "S", (1,), 1)
    st = run(st, [], until="hand_over")
    res = st.results[-1]
    assert res.stake == opts.base_stake * 2 and sum(res.coins) == 0


def test_shuangsheng_first_hand_reinforced_blocks_lower_counter() -> None:
    opts = load_preset("shuangsheng")
    d = build_deck(opts, {0: "H2 H2", 1: "C2 C2", 2: "LJ LJ"})
    st = run(
        new_match(opts, 1, [d]),
        [("deal", 0, "H2"), ("deal", 0, "H2 H2"), ("before_kitty", 2, "LJ LJ")],
    )
    # C2 C2 was never offered to seat 1: it does not outrank reinforced hearts
    assert (st.banker, st.trump, st.declare.counters) == (2, "NT", 1)


def test_shuangsheng_later_hand_chaodi_keeps_banker() -> None:
    opts = load_preset("shuangsheng")
    base = later_hand(opts, {})
    lvl = base.level
    lv = {2: "2", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(lvl, str(lvl))
    st = later_hand(opts, {3: f"H{lv}", 1: f"S{lv} S{lv}", 2: "LJ LJ"})
    banker = st.banker
    st = run(
        st,
        [("deal", 3, f"H{lv}"), ("after_burial", 1, f"S{lv} S{lv}"), ("after_burial", 2, "LJ LJ")],
    )
    assert st.banker == banker and st.trump == "NT" and st.declare.counters == 2
    assert st.buried_by == (banker, 1, 2)
    st = run(st, [], until="hand_over")
    assert st.results[-1].stake == opts.base_stake * 4


def test_shuangsheng_later_hand_nobody_declares_turns_kitty_card_3() -> None:
    opts = load_preset("shuangsheng")
    st = later_hand(opts, {}, kitty="D9 C4 SQ")
    st = run(st, [])
    assert st.trump == "S" and st.declare.flipped


def test_shuangkou_first_hand_dingzhu_then_fandi_by_joker_pair() -> None:
    opts = load_preset("shuangkou")
    d = build_deck(opts, {1: "H3", 2: "C3 C3 BJ BJ", 3: "LJ LJ"})
    st = run(
        new_match(opts, 1, [d]),
        [("deal", 1, "H3"), ("deal", 2, "C3 C3"), ("after_burial", 3, "LJ LJ")],
    )
    # seat 2 holds BJ BJ but forfeited 反底 by its own 定主
    assert (st.banker, st.trump, st.buried_by) == (2, "NT", (2, 3))


def test_shuangkou_kitty_card_4_then_only_joker_pairs() -> None:
    opts = load_preset("shuangkou")
    base = later_hand(opts, {})
    lvl = base.level
    lv = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(lvl, str(lvl))
    suit_pair = f"S{lv} S{lv}" if lvl != 2 else "D5 D5"
    st = later_hand(opts, {1: suit_pair, 3: "BJ BJ"}, kitty="C4 C5 C6 H7")
    banker = st.declare.banker
    st = run(st, [("after_burial", 3, "BJ BJ")])
    assert st.trump == "NT" and st.banker == banker and st.buried_by == (banker, 3)


def test_classic_counter_takes_banker_and_3deck_ladder() -> None:
    opts = load_preset("classic")
    d = build_deck(opts, {3: "D2", 0: "S2 S2"})
    st = run(new_match(opts, 1, [d]), [("deal", 3, "D2"), ("before_kitty", 0, "S2 S2")])
    assert (st.banker, st.trump, st.buried_by) == (0, "S", (0,))

    opts3 = load_preset("classic-3deck", {"counter_takes_banker": False})
    d = build_deck(opts3, {0: "H2", 1: "S2 S2", 2: "BJ BJ", 3: "D2 D2 D2"})
    st = run(
        new_match(opts3, 1, [d]),
        [
            ("deal", 0, "H2"),
            ("before_kitty", 1, "S2 S2"),
            ("before_kitty", 2, "BJ BJ"),
            ("before_kitty", 3, "D2 D2 D2"),
        ],
    )
    assert (st.banker, st.trump) == (0, "D")


def test_classic_nobody_declares_redeals_first_hand() -> None:
    opts = load_preset("classic")
    d = build_deck(opts, {})
    st = new_match(opts, 1, [d])
    first_deck = st.deck_order
    events: list[dict[str, object]] = []
    while st.redeals == 0:
        seat = st.to_act if st.to_act is not None else 0
        st, ev = apply(st, seat, Pass())
        events += ev
    assert any(e["type"] == "redeal" for e in events)
    assert st.deck_order != first_deck and st.phase == "deal"


def test_tuolaji_override_keeps_first_declarer_banker_and_no_declaration_is_nt() -> None:
    opts = load_preset("tuolaji")
    d = build_deck(opts, {1: "S2", 2: "H2 H2"})
    st = run(new_match(opts, 1, [d]), [("deal", 1, "S2"), ("deal", 2, "H2 H2")])
    assert (st.banker, st.trump) == (1, "H")
    d = build_deck(opts, {}, seed=5)
    st = run(new_match(opts, 1, [d]), [])
    assert st.trump == "NT" and st.banker == 0


def test_stacked_deck_must_be_complete() -> None:
    import pytest

    from shengji.errors import ShengjiError

    opts = load_preset("tuolaji")
    bad: Sequence[Card] = deck(opts.decks)[:-1]
    with pytest.raises(ShengjiError) as e:
        new_match(opts, 1, [bad])
    assert e.value.code == "BAD_DECK"
