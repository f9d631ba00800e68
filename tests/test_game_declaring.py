"""Scripted deals through each preset's declaring rules: banker, trump, who buried the kitty
last, and the coin multiplier."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from helpers import build_deck, later_hand, run
from shengji.game.actions import Pass
from shengji.game.flow import apply, new_match
from shengji.rules.cards import Card, deck
from shengji.rules.presets import load_preset


@pytest.mark.parametrize(("preset", "factor"), [("shuangsheng", 1), ("shuangsheng-super", 2)])
def test_shuangsheng_first_hand_counter_takes_banker_and_coins(preset: str, factor: int) -> None:
    """Seed 000: only the super version doubles the coins per 反主."""
    opts = load_preset(preset)
    d = build_deck(opts, {0: "H2", 1: "S2 S2"})
    st = run(new_match(opts, 1, [d]), [("deal", 0, "H2"), ("before_kitty", 1, "S2 S2")])
    assert (st.banker, st.trump, st.buried_by, st.declare.counters) == (1, "S", (1,), 1)
    st = run(st, [], until="hand_over")
    res = st.results[-1]
    assert res.stake == opts.base_stake * factor and sum(res.coins) == 0


def test_shuangsheng_first_hand_reinforced_blocks_lower_counter() -> None:
    opts = load_preset("shuangsheng")
    d = build_deck(opts, {0: "H2 H2", 1: "C2 C2", 2: "LJ LJ"})
    st = run(
        new_match(opts, 1, [d]),
        [("deal", 0, "H2"), ("deal", 0, "H2 H2"), ("before_kitty", 2, "LJ LJ")],
    )
    # C2 C2 was never offered to seat 1: it does not outrank reinforced hearts
    assert (st.banker, st.trump, st.declare.counters) == (2, "NT", 1)


@pytest.mark.parametrize(("preset", "factor"), [("shuangsheng", 1), ("shuangsheng-super", 4)])
def test_shuangsheng_later_hand_chaodi_keeps_banker(preset: str, factor: int) -> None:
    opts = load_preset(preset)
    base = later_hand(opts, {})
    lvl = base.level
    lv = {2: "2", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(lvl, str(lvl))
    b = base.results[-1].outcome.next_banker  # seats around the banker of hand 2
    one, two, three = (b + 1) % 4, (b + 2) % 4, (b + 3) % 4
    st = later_hand(opts, {three: f"H{lv}", one: f"S{lv} S{lv}", two: "LJ LJ"})
    banker = st.banker
    assert banker == b
    script = [
        ("deal", three, f"H{lv}"),
        ("after_burial", one, f"S{lv} S{lv}"),
        ("after_burial", two, "LJ LJ"),
    ]
    st = run(st, script)
    assert st.banker == banker and st.trump == "NT" and st.declare.counters == 2
    assert st.buried_by == (banker, one, two)
    st = run(st, [], until="hand_over")
    assert st.results[-1].stake == opts.base_stake * factor


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


def test_coins_do_not_depend_on_the_throw_penalty() -> None:
    """Stakes are their own options: with no throw penalty the hand is still played for
    coins, and with ``coins = false`` nothing is settled."""
    for overrides, stake in (({"throw_penalty": "none"}, 100), ({"coins": False}, 0)):
        opts = load_preset("shuangsheng", overrides)
        st = run(new_match(opts, 1), [], until="hand_over")
        res = st.results[-1]
        assert res.stake == stake
        won = res.banker % 2 if res.outcome.side == "banker" else 1 - res.banker % 2
        assert (res.coins[won], res.coins[1 - won]) == (stake, -stake)
