"""Bots see only their view, always act legally, are deterministic, and the heuristic
bot beats the random one."""

from __future__ import annotations

import dataclasses
import random

import pytest

from shengji.bots.heuristic import HeuristicBot, Knowledge, choose_burial, safe_throw
from shengji.bots.random_bot import RandomBot
from shengji.errors import ShengjiError
from shengji.game.flow import apply, new_match
from shengji.game.players import run_match
from shengji.game.state import GameState
from shengji.game.views import SeatView, seat_view
from shengji.rules.presets import load_preset, preset_names
from shengji.tools.simulate import Settings, run_jobs
from shengji.tools.tally import summarise


def _reachable(obj: object, seen: set[int] | None = None) -> list[object]:
    """Every object reachable from ``obj`` through fields, tuples, lists and dicts."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    out = [obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            out += _reachable(getattr(obj, f.name), seen)
    elif isinstance(obj, tuple | list | set | frozenset):
        for x in obj:
            out += _reachable(x, seen)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out += _reachable(k, seen) + _reachable(v, seen)
    return out


def _states(preset: str, n: int = 60) -> list[GameState]:
    rng = random.Random(2)
    st = new_match(load_preset(preset), 3)
    out: list[GameState] = []
    bots = [RandomBot(s, 1) for s in range(4)]
    while st.phase not in ("hand_over", "match_over") and len(out) < n:
        seat = st.to_act
        assert seat is not None
        out.append(st)
        st, _ = apply(st, seat, bots[seat].act(seat_view(st, seat)))
        rng.random()
    return out


def test_a_view_reaches_no_hidden_state() -> None:
    for st in _states("shuangsheng")[::7]:
        for seat in range(4):
            view = seat_view(st, seat)
            objs = _reachable(view)
            assert not any(isinstance(o, GameState) for o in objs)
            others = {st.hands[s] for s in range(4) if s != seat and st.hands[s]}
            assert not any(isinstance(o, tuple) and o in others for o in objs)
            with pytest.raises(ShengjiError) as e:
                view.hand_of((seat + 1) % 4)
            assert e.value.code == "HIDDEN"


@pytest.mark.parametrize("preset", preset_names())
def test_heuristic_bots_play_legal_hands(preset: str) -> None:
    opts = load_preset(preset)
    for seed in range(2):
        n = opts.players
        players = [HeuristicBot(s, seed) if s % 2 else RandomBot(s, seed) for s in range(n)]
        st, rec = run_match(opts, seed, players, stop_after_hand=True)  # apply checks legality
        assert st.phase in ("hand_over", "match_over") and st.results


def test_bots_are_deterministic() -> None:
    opts = load_preset("shuangkou")
    runs = []
    for _ in range(2):
        players = [HeuristicBot(s, 9) if s % 2 else RandomBot(s, 9) for s in range(4)]
        _, rec = run_match(opts, 9, players, stop_after_hand=True)
        runs.append(rec.actions)
    assert runs[0] == runs[1]


def test_heuristic_beats_random() -> None:
    s = Settings(load_preset("shuangsheng"), ("heuristic", "random"), hands=40, mirror=True)
    summary = summarise(s, run_jobs(s))
    assert summary.teams[0].level_rate >= 0.8
    assert summary.teams[0].mean_points > summary.teams[1].mean_points + 40


def _banker_at_burial() -> GameState:
    """Tuolaji, seat 0 shows S2 and takes the kitty: 14 trumps, four low heart pairs,
    CA CA CK, and eight diamonds without a point card (hand and kitty together)."""
    from helpers import build_deck, run

    opts = load_preset("tuolaji")
    hand = "S2 S3 S4 S6 S7 S8 S9 SJ SQ SK H3 H3 H4 H4 H6 H6 H7 H7 CA CA CK D6 D7 D8 D9"
    deck = build_deck(opts, {0: hand}, kitty="DJ DQ D3 D4 SA BJ LJ H2", seed=1)
    st = run(new_match(opts, 1, [deck]), [("deal", 0, "S2")], until="bury")
    assert (st.to_act, st.trump, len(st.hands[0])) == (0, "S", 33)
    return st


def test_burial_empties_the_pointless_side_suit_and_keeps_trumps_and_pairs() -> None:
    from helpers import C

    kitty = choose_burial(seat_view(_banker_at_burial(), 0))
    assert sorted(kitty, key=lambda c: c.index) == sorted(
        C("D3 D4 D6 D7 D8 D9 DJ DQ"), key=lambda c: c.index
    )


def test_safe_throw_is_the_boss_pair_and_single() -> None:
    from helpers import C
    from shengji.game.actions import Bury

    st = _banker_at_burial()
    st, _ = apply(st, 0, Bury(choose_burial(seat_view(st, 0))))
    view = seat_view(st, 0)
    assert (view.phase, view.to_act) == ("play", 0)
    # clubs: both aces and the king (no other card beats them); hearts and trumps: no two
    # boss units of a side suit
    assert safe_throw(view.ctx, view.hand, Knowledge(view)) == C("CA CA CK")


def _second_seat_view() -> SeatView:
    """Seat 1 to follow a low spade lead holding S10 and S4 (and no other spade), with
    the spade jacks to aces unseen."""
    from helpers import C, build_deck, run
    from shengji.game.actions import Bury, Play

    opts = load_preset("shuangsheng")
    wants = {
        0: "H2 S3",
        1: "S10 S4 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK CA",
    }
    kitty = "D3 D3 D4 D4 D6 D6 D7 D7"
    st = run(new_match(opts, 1, [build_deck(opts, wants, kitty)]), [("deal", 0, "H2")], "bury")
    st, _ = apply(st, 0, Bury(C(kitty)))
    st, _ = apply(st, 0, Play(C("S3")))
    return seat_view(st, 1)


def test_heuristic_does_not_risk_points_on_a_win_that_will_not_hold() -> None:
    from shengji.bots.heuristic_v1 import HeuristicV1Bot
    from shengji.game.actions import Play
    from shengji.rules.cards import parse_cards

    view = _second_seat_view()
    assert HeuristicV1Bot(1, 0).act(view) == Play(parse_cards("S10"))
    assert HeuristicBot(1, 0).act(view) == Play(parse_cards("S4"))
    assert view.lead is not None
    know = Knowledge(view)
    # eight unseen spades beat S10 and seat 3 (the later opponent) may hold any of them
    assert know.hold_chance(parse_cards("S10"), view.lead, [3]) < 0.1
    assert know.hold_chance(parse_cards("S10"), view.lead, []) == 1.0


def _partner_unsafe_view() -> SeatView:
    """Seat 2, void in spades, to follow its partner's S8 (winning over seat 1's S3) with
    seat 3 still to play and every spade above the eight unseen; it holds one point card
    (D10)."""
    from helpers import C, build_deck, run
    from shengji.game.actions import Bury, Play

    opts = load_preset("shuangsheng")
    wants = {
        0: "H2 S8",
        1: "S3",
        2: "D10 D3 D4 D6 D7 D8 D9 DJ DQ C3 C4 C6 C7 C8 C9 CJ CQ C3 C4 C6 C7 C8 C9 CJ CQ",
    }
    kitty = "S4 S4 H3 H3 H4 H4 D5 D5"
    st = run(new_match(opts, 1, [build_deck(opts, wants, kitty)]), [("deal", 0, "H2")], "bury")
    st, _ = apply(st, 0, Bury(C(kitty)))
    st, _ = apply(st, 0, Play(C("S8")))
    st, _ = apply(st, 1, Play(C("S3")))
    return seat_view(st, 2)


def test_no_points_on_a_partners_card_that_may_be_overtaken() -> None:
    """The issue's case: the first heuristic (as v1 still does) put its ten on the
    partner's S8 with higher spades out and an opponent to play; now it keeps it."""
    from shengji.bots.heuristic_v1 import HeuristicV1Bot
    from shengji.game.actions import Play
    from shengji.rules.cards import parse_cards, points

    view = _partner_unsafe_view()
    assert HeuristicV1Bot(2, 0).act(view) == Play(parse_cards("D10"))
    action = HeuristicBot(2, 0).act(view)
    assert isinstance(action, Play) and points(action.cards) == 0
    assert view.lead is not None
    # the partner's eight holds only if seat 3 has none of the many higher spades
    assert Knowledge(view).hold_chance(parse_cards("S8"), view.lead, [3]) < 0.1


def test_trump_control_asks_for_twice_the_opponents_trumps() -> None:
    """Drawing trumps pays only when the side is long: with the opponents taken to hold
    five trumps, nine trumps (the big joker on top) are not control, ten are."""
    from shengji.rules.cards import parse_cards

    know = Knowledge(_partner_unsafe_view())
    know.opponent_trumps = lambda: 5.0  # type: ignore[method-assign]
    trumps = list(parse_cards("BJ LJ LJ H2 H2 S2 S2 C2 C2 D2"))
    side = list(parse_cards("C3 C4 C6 C7 C8 C9 CJ CQ D3"))
    assert not know.trump_control(trumps[:9] + side)
    assert know.trump_control(trumps + side)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_last_tricks_are_solved_with_legal_plays(seed: int) -> None:
    """With at most three cards a hand, a play the solver chose is legal and says so."""
    from shengji.bots import lastricks
    from shengji.game.actions import Play
    from shengji.rules.follow import is_legal_follow

    solved = 0
    for deal in range(6):
        st = new_match(load_preset("shuangsheng"), 100 * seed + deal)
        bots = [HeuristicBot(s, seed) for s in range(4)]
        while st.phase not in ("hand_over", "match_over"):
            seat = st.to_act
            assert seat is not None
            view = seat_view(st, seat)
            action = bots[seat].act(view)
            if bots[seat].reason[0].startswith("count out the last tricks"):
                assert lastricks.applies(view) and max(view.hand_sizes) <= lastricks.LAST_CARDS
                assert isinstance(action, Play)
                if view.lead is not None and view.trick:
                    assert is_legal_follow(view.ctx, view.lead, view.hand, action.cards)
                assert "算清最后几轮" in bots[seat].reason[1]
                solved += 1
            st, _ = apply(st, seat, action)
    assert solved > 0


def test_the_look_ahead_plays_and_buries_legally_and_says_why() -> None:
    """The registered heuristic (Normal) looks ahead: its overriding plays are legal, its
    burials the kitty's size from the hand, its reasons in both languages; the same seed
    plays the same way; the bare rule of thumb (search's, hints') never looks ahead."""
    from collections import Counter

    from shengji.bots.registry import make_player
    from shengji.game.actions import Bury, Play
    from shengji.rules.follow import is_legal_follow

    looked: Counter[str] = Counter()
    for deal in range(2):
        st = new_match(load_preset("shuangsheng"), 700 + deal)
        bots = [make_player("heuristic", s, 7) for s in range(4)]
        twin = make_player("heuristic", 0, 7)
        bare = HeuristicBot(0, 7)
        while st.phase not in ("hand_over", "match_over"):
            seat = st.to_act
            assert seat is not None
            view = seat_view(st, seat)
            action = bots[seat].act(view)
            en, zh = bots[seat].reason  # type: ignore[attr-defined]
            if en.startswith("look ahead"):
                assert zh.startswith("往后推演")
                if isinstance(action, Play):
                    looked["play"] += 1
                    if view.lead is not None and view.trick:
                        assert is_legal_follow(view.ctx, view.lead, view.hand, action.cards)
                else:
                    assert isinstance(action, Bury)
                    looked["bury"] += 1
                    assert len(action.cards) == view.options.kitty_size
                    assert not Counter(action.cards) - Counter(view.hand)
            if seat == 0:
                assert twin.act(view) == action
                bare.act(view)
                assert not bare.reason[0].startswith("look ahead")
            st, _ = apply(st, seat, action)
    assert looked["play"] > 0


def test_the_heuristic_spec_takes_plain_or_a_rollout_budget() -> None:
    from shengji.bots.registry import make_player

    assert make_player("heuristic", 0, 1).look > 0  # type: ignore[attr-defined]
    assert make_player("heuristic:plain", 0, 1).look == 0  # type: ignore[attr-defined]
    assert make_player("heuristic:50it", 0, 1).look == 50  # type: ignore[attr-defined]
    with pytest.raises(ShengjiError) as e:
        make_player("heuristic:fast", 0, 1)
    assert e.value.code == "BAD_BOT_SPEC"


def test_the_look_ahead_stays_out_of_zhaopengyou() -> None:
    """At a 找朋友 table Normal plays the rule of thumb alone (its rollouts let a found
    friend answer the second call): the same plays as ``heuristic:plain`` and no reason
    of the look ahead, over a six-seat hand."""
    from shengji.bots.registry import make_player

    opts = load_preset("zhaopengyou")
    assert opts.players == 6 and opts.friends
    st = new_match(opts, 11)
    bots = [make_player("heuristic", s, 3) for s in range(6)]
    plain = [make_player("heuristic:plain", s, 3) for s in range(6)]
    while st.phase not in ("hand_over", "match_over"):
        seat = st.to_act
        assert seat is not None
        view = seat_view(st, seat)
        action = bots[seat].act(view)
        assert not bots[seat].reason[0].startswith("look ahead")  # type: ignore[attr-defined]
        assert plain[seat].act(view) == action
        st, _ = apply(st, seat, action)
