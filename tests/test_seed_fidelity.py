"""Where the seeds decide against the rule book's first reading (docs/rules.md §4.6,
§4.7, §4.11–4.14): stacked deals through the whole game flow."""

from __future__ import annotations

import random

import pytest

from helpers import C, build_deck, run
from shengji.bots.random_bot import random_action
from shengji.errors import DeclarationError
from shengji.game.actions import Declare, Pass
from shengji.game.flow import apply, new_match
from shengji.game.legal import legal_shows
from shengji.rules.declaring import apply_show, replay_shows
from shengji.rules.presets import load_preset

# -- 2. showing at any time during the deal, and after it (classic) ----------------------


def test_a_level_card_is_offered_at_each_later_draw() -> None:
    """Seeds 000/004 (随时亮出): a seat that passed on H2 is asked again at its next draws,
    whatever it draws."""
    opts = load_preset("shuangsheng")
    st = new_match(opts, 1, [build_deck(opts, {1: "H2"}, seed=3)])
    dealt: list[int] = []
    while st.phase == "deal" and st.to_act == 1 and len(dealt) < 5:
        assert legal_shows(st, 1)[0] == C("H2")
        dealt.append(st.dealt)
        st, _ = apply(st, 1, Pass())
    # H2 is seat 1's first card (the 2nd dealt); then every 4th card is seat 1's
    assert dealt == [2, 6, 10, 14, 18]


def test_classic_level_card_shown_after_the_deal() -> None:
    """Seed 001 (在发牌结束后…翻出级牌): S2 passed while drawing, shown after the deal."""
    opts = load_preset("classic")
    d = build_deck(opts, {2: "S2"}, seed=4)
    st = run(new_match(opts, 1, [d]), [("before_kitty", 2, "S2")])
    assert (st.trump, st.banker, st.buried_by) == ("S", 2, (2,))
    assert st.declare.shows == ((2, C("S2")),)


def test_classic_nobody_showing_after_the_deal_still_redeals() -> None:
    opts = load_preset("classic")
    st = new_match(opts, 1, [build_deck(opts, {2: "S2"}, seed=4)])
    events: list[dict[str, object]] = []
    while st.redeals == 0:
        assert st.to_act is not None
        st, ev = apply(st, st.to_act, Pass())
        events += ev
    assert "redeal" in [e["type"] for e in events] and st.phase == "deal"


def test_shuangsheng_first_declaration_stays_a_deal_phase_show() -> None:
    opts = load_preset("shuangsheng")
    st = replay_shows(opts, 2, True, None, [])
    with pytest.raises(DeclarationError):
        apply_show(opts, 2, st, 0, C("S2"), "before_kitty")


# -- 3. shuangkou 反底: round and round from the banker, only higher suits --------------


def test_shuangkou_fandi_needs_a_higher_suit_than_a_single_declaration() -> None:
    opts = load_preset("shuangkou")
    st = replay_shows(opts, 4, first_hand=False, banker=0, history=[(1, C("S4"))])
    with pytest.raises(DeclarationError) as e:
        apply_show(opts, 4, st, 2, C("D4 D4"), "after_burial")
    assert e.value.params["reason"] == "outranked"
    assert apply_show(opts, 4, st, 2, C("LJ LJ"), "after_burial").trump_text == "NT"
    # the banker buried the kitty: 反底 is for the others
    with pytest.raises(DeclarationError) as e:
        apply_show(opts, 4, st, 0, C("BJ BJ"), "after_burial")
    assert e.value.params["reason"] == "banker"


def test_shuangkou_fandi_goes_round_until_nobody_counters() -> None:
    """Seat 1 passes its first turn, then 反底s when the turn comes round again."""
    opts = load_preset("shuangkou")
    d = build_deck(opts, {0: "D3", 1: "LJ LJ", 2: "S3 S3", 3: "C3 C3"}, seed=2)
    st = new_match(opts, 1, [d])
    st = run(st, [("deal", 0, "D3")], until="after_burial")
    banker = st.banker
    assert banker == 0
    asked: list[int] = []
    rng = random.Random(5)
    while st.phase != "play":
        seat = st.to_act
        assert seat is not None
        if st.phase == "bury":
            st, _ = apply(st, seat, random_action(st, seat, rng))
            continue
        asked.append(seat)
        if seat == 2 and not st.declare.counters:
            st, _ = apply(st, 2, Declare(C("S3 S3")))
        elif seat == 1 and st.declare.counters == 1:
            st, _ = apply(st, 1, Declare(C("LJ LJ")))
        else:
            st, _ = apply(st, seat, Pass())
    # first round: 1 passes, 2 shows S3 S3, 3's C3 C3 is lower; then 1 again (LJ LJ)
    assert asked[:2] == [1, 2] and 1 in asked[2:]
    assert (st.trump, st.banker, st.buried_by) == ("NT", 0, (0, 2, 1))


# -- 4. kitty multiplier (seed 001's order) through a whole hand ------------------------


def test_classic_3deck_last_trick_throw_scores_the_triple() -> None:
    """A collector's last-trick throw of a triple and a 2-link tractor: ×6, not ×8."""
    from shengji.rules.scoring import kitty_bonus
    from shengji.rules.trump import trump_context
    from shengji.rules.units import classify_lead

    opts = load_preset("classic-3deck")
    ctx = trump_context(opts, 2, None)
    lead = classify_lead(ctx, C("S3 S3 S3 S4 S4 S5 S5"))
    assert kitty_bonus(opts, lead, C("SK S5"))[0] == 6
    assert kitty_bonus(load_preset("tuolaji", {"decks": 3}), lead, C("SK S5"))[0] == 8


# -- 5. classic-1deck: the passage as an option ----------------------------------------


@pytest.mark.parametrize("seed", range(16))
def test_classic_1deck_45_point_reading_through_a_hand(seed: int) -> None:
    """Seed 001's passage: the last trick's points and the kitty do not count; 45 points
    or the last trick win, both win two levels, exactly 40 is a draw."""
    opts = load_preset("classic-1deck", {"level_table": "classic-1deck-45"})
    st = new_match(opts, seed)
    rng = random.Random(seed)
    while st.phase not in ("hand_over", "match_over"):
        seat = st.to_act if st.to_act is not None else 0
        st, _ = apply(st, seat, random_action(st, seat, rng, throw_rate=0.2))
    res = st.results[-1]
    last = st.tricks[-1]
    collectors_last = last.winner % 2 != res.banker % 2
    counted = res.trick_points - (last.points if collectors_last else 0) + res.penalties
    assert res.points == counted
    wins = (counted >= 45) + collectors_last
    if wins:
        assert (res.outcome.side, res.outcome.gain) == ("collectors", wins)
        assert res.outcome.next_banker == (res.banker + 1) % 4
    else:
        assert (res.outcome.side, res.outcome.gain) == ("banker", 0 if counted == 40 else 1)
        assert res.outcome.next_banker == (res.banker + 2) % 4


# -- 6. kitty_card_4 turns the 4th kitty card in the first hand too ---------------------


def test_kitty_card_4_in_the_first_hand_makes_the_dealer_seat_banker() -> None:
    opts = load_preset("shuangkou")
    d = build_deck(opts, {}, kitty="D9 C4 SQ H7", seed=6)
    st = new_match(opts, 1, [d])
    events: list[dict[str, object]] = []
    while st.phase != "bury":
        assert st.to_act is not None
        st, ev = apply(st, st.to_act, Pass())
        events += ev
    assert {"type": "kitty_card", "card": "H7", "trump": "H"} in events
    assert not any(e["type"] == "redeal" for e in events)
    assert (st.trump, st.banker, st.declare.flipped, st.redeals) == ("H", 0, True, 0)


def test_kitty_card_3_still_redeals_a_first_hand() -> None:
    opts = load_preset("shuangsheng")
    st = new_match(opts, 1, [build_deck(opts, {}, seed=6)])
    while st.redeals == 0:
        assert st.to_act is not None
        st, _ = apply(st, st.to_act, Pass())
    assert st.phase == "deal"


@pytest.mark.parametrize("seed", range(4))
def test_classic_3deck_hands_score_the_widest_unit_of_the_last_lead(seed: int) -> None:
    """Seed 001's order through whole random hands (throws included): when the collectors
    take the last trick, the multiplier is 2·w^k of the lead's widest unit."""
    from shengji.rules.units import classify_lead

    opts = load_preset("classic-3deck")
    st = new_match(opts, 100 + seed)
    rng = random.Random(seed)
    while st.phase not in ("hand_over", "match_over"):
        seat = st.to_act if st.to_act is not None else 0
        st, _ = apply(st, seat, random_action(st, seat, rng, throw_rate=0.5))
    res, last = st.results[-1], st.tricks[-1]
    if last.winner % 2 == res.banker % 2:
        assert res.kitty_multiplier == 0
        return
    lead = classify_lead(st.ctx, last.plays[0].cards)
    links, width = max(((u.links, u.width) for u in lead.units), key=lambda lw: (lw[1], lw[0]))
    assert res.kitty_multiplier == 2 * width**links
