"""Shows at any moment of the deal: any seat that holds a legal show may make it between
any two cards, whether the engine asked it at a draw or not, and a paced deal (the
table's own clock, :class:`~shengji.game.actions.Deal`) asks nobody at all."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from helpers import build_deck, examples
from shengji.bots.random_bot import random_action
from shengji.errors import Code, ShengjiError
from shengji.game.actions import Deal, Declare, Pass, action_from_json, action_to_json
from shengji.game.flow import apply, new_match
from shengji.game.legal import legal_actions, legal_shows
from shengji.game.record import Recorder, RecordError, replay, verify
from shengji.game.state import GameState
from shengji.game.views import seat_message
from shengji.rules.cards import parse_cards
from shengji.rules.presets import load_preset
from shengji.words.i18n import error_text


def _deal_total(st: GameState) -> int:
    return len(st.deck_order) - len(st.kitty)


#: Early cards of seats 2 and 3 that cannot show at level 2.
_QUIET = {2: "C7 C8 C9", 3: "D7 D8 D9"}


def test_a_single_level_card_is_shown_while_another_seat_is_asked() -> None:
    """Seat 1 holds ♥2 while the deal waits on seat 0 (asked for its ♠2): seat 1's show is
    taken at once, and seat 0, left with nothing that outranks it, is asked no more."""
    opts = load_preset("shuangsheng")
    st = new_match(opts, 1, [build_deck(opts, {0: "C5 S2", 1: "H2 C6", **_QUIET})])
    st, _ = apply(st, 1, Pass())  # seat 1 is asked at its draw of ♥2 and lets it go
    assert (st.to_act, st.dealt) == (0, 5)
    assert list(legal_actions(st, 1)) == [Declare(parse_cards("H2"))]  # no pass
    st, events = apply(st, 1, Declare(parse_cards("H2")))
    assert (st.trump, st.banker, st.declare.shows) == ("H", 1, ((1, parse_cards("H2")),))
    assert events[0] == {
        "type": "declare",
        "seat": 1,
        "cards": "H2",
        "trump": "H",
        "banker": 1,
        "counter": False,
    }
    assert st.dealt > 5 and st.to_act != 0  # the deal went on


def test_an_asked_seat_that_can_still_show_stays_asked() -> None:
    """拖拉机: seat 0, asked at its second ♠2, may still answer seat 1's ♥2 with the pair."""
    opts = load_preset("tuolaji")
    st = new_match(opts, 1, [build_deck(opts, {0: "C5 S2 S2", 1: "H2 C6 C7", **_QUIET})])
    while st.dealt < 9:  # seats 1 and 0 are asked at each of their draws
        st, _ = apply(st, st.to_act, Pass())
    assert (st.to_act, st.dealt) == (0, 9)
    st, _ = apply(st, 1, Declare(parse_cards("H2")))
    assert (st.to_act, st.dealt, st.trump) == (0, 9, "H")
    assert legal_shows(st, 0) == [parse_cards("S2 S2")]
    st, _ = apply(st, 0, Declare(parse_cards("S2 S2")))
    assert st.trump == "S" and st.dealt > 9


@pytest.mark.parametrize("preset", ["shuangsheng", "classic", "shuangkou", "tuolaji"])
def test_every_stop_of_an_asked_deal_takes_a_show_from_any_seat(preset: str) -> None:
    """At every point where the deal stops, every seat's every legal show is accepted
    (on a branch), and a card that cannot show is refused, worded."""
    opts = load_preset(preset)
    st = new_match(opts, 11)
    stops = 0
    while st.phase == "deal":
        stops += 1
        for seat in range(st.seats):
            for show in legal_shows(st, seat):
                after, events = apply(st, seat, Declare(show))
                assert after.declare.shows[-1] == (seat, show)
                assert events[0]["seat"] == seat
            plain = next((c for c in st.hands[seat] if c.rank != st.level and not c.is_joker), None)
            if plain is None:  # nothing dealt to it yet, or only level cards
                continue
            with pytest.raises(ShengjiError) as err:
                apply(st, seat, Declare((plain,)))
            assert err.value.code == Code.ILLEGAL_DECLARATION
            for lang in ("en", "zh"):
                assert error_text(err.value.code, err.value.params, "", lang)
        assert st.to_act is not None
        st, _ = apply(st, st.to_act, Pass())
    assert stops > 4


def test_a_paced_deal_asks_nobody_and_takes_shows_at_every_card() -> None:
    opts = load_preset("tuolaji")  # nobody shows here: no trump, no redeal
    st = new_match(opts, 4, paced=True)
    total = _deal_total(st)
    assert (st.phase, st.dealt, st.to_act, st.paced) == ("deal", 0, None, True)
    offered = 0
    while st.phase == "deal":
        for seat in range(st.seats):
            shows = legal_shows(st, seat)
            assert list(legal_actions(st, seat)) == [Declare(s) for s in shows]
            assert seat_message(st, seat)["shows"] == [" ".join(c.text for c in s) for s in shows]
            for show in shows:
                offered += 1
                after, _ = apply(st, seat, Declare(show))
                assert after.phase == "deal" and after.dealt == st.dealt and after.to_act is None
        with pytest.raises(ShengjiError) as err:
            apply(st, 0, Pass())
        assert err.value.params["reason"] == "paced"
        assert "show" in error_text(err.value.code, err.value.params, "", "en")
        assert "亮主" in error_text(err.value.code, err.value.params, "", "zh")
        st, events = apply(st, None, Deal(st.dealt + 1))
        assert events[0] == {"type": "deal", "count": st.dealt}
    assert offered > 20 and st.dealt == total and st.phase == "bury" and st.trump == "NT"


def test_the_table_deals_only_forward_and_only_in_a_paced_deal() -> None:
    opts = load_preset("shuangsheng")
    paced = new_match(opts, 4, paced=True)
    cases = [
        (paced, 0, Deal(4), "table_deals"),
        (paced, None, Deal(0), "deal_count"),
        (paced, None, Deal(101), "deal_count"),
        (new_match(opts, 4), None, Deal(8), "no_deal"),
    ]
    for st, seat, action, reason in cases:
        with pytest.raises(ShengjiError) as err:
            apply(st, seat, action)
        assert err.value.code == Code.ILLEGAL_ACTION and err.value.params["reason"] == reason
        for lang in ("en", "zh"):
            assert error_text(err.value.code, err.value.params, "x", lang) != "x"
    st, _ = apply(paced, None, Deal(8))
    with pytest.raises(ShengjiError):
        apply(st, None, Deal(8))
    assert [len(h) for h in st.hands] == [2, 2, 2, 2]


def test_a_paced_deal_ends_in_the_round_before_the_kitty_and_the_next_hand_is_paced() -> None:
    opts = load_preset("shuangsheng")
    st = new_match(opts, 4, paced=True)
    st, _ = apply(st, None, Deal(40))
    seat = next(s for s in range(4) if legal_shows(st, s))
    st, _ = apply(st, seat, Declare(legal_shows(st, seat)[0]))
    st, _ = apply(st, None, Deal(_deal_total(st)))
    assert st.phase != "deal" and st.banker == seat
    rng = random.Random(3)
    while st.phase != "hand_over":
        asked = st.to_act
        assert asked is not None
        st, _ = apply(st, asked, random_action(st, asked, rng))
    st, _ = apply(st, 0, random_action(st, 0, rng))  # continue
    assert (st.phase, st.dealt, st.to_act, st.paced) == ("deal", 0, None, True)


def _paced_match(seed: int, hands: int = 2) -> tuple[GameState, Recorder]:
    """Random paced hands: the table deals a random number of cards at a time and random
    seats show in between; the random player does the rest."""
    opts = load_preset("shuangsheng")
    st = new_match(opts, seed, paced=True)
    rec = Recorder(opts, seed)
    rng = random.Random(seed)
    while len(st.results) < hands:
        if st.phase == "deal":
            seat = rng.randrange(st.seats)
            shows = legal_shows(st, seat)
            if shows and rng.random() < 0.3:
                action: Declare | Deal = Declare(rng.choice(shows))
                who: int | None = seat
            else:
                action = Deal(min(_deal_total(st), st.dealt + rng.randint(1, 9)))
                who = None
        else:
            who = 0 if st.phase == "hand_over" else st.to_act
            assert who is not None
            action = random_action(st, who, rng)  # type: ignore[assignment]
        st, _ = apply(st, who, action)
        rec.add(who, action)
    return st, rec


def test_a_paced_record_keeps_the_order_of_shows_and_deals_and_verifies() -> None:
    st, rec = _paced_match(5)
    doc = json.loads(json.dumps(rec.record(st)))
    assert doc["paced"] is True
    deals = [a for a in doc["actions"] if a["type"] == "deal"]
    assert deals and all(a["seat"] is None for a in deals)
    assert any(a["type"] == "declare" for a in doc["actions"])
    schema = json.loads(Path(__file__).parents[1].joinpath("docs/record.schema.json").read_text())
    jsonschema.validate(doc, schema)
    again = verify(doc)
    assert again.results == st.results and again.hands == st.hands
    moved = dict(doc, actions=[dict(a) for a in doc["actions"]])
    first = next(i for i, a in enumerate(moved["actions"]) if a["type"] == "deal")
    moved["actions"][first]["seat"] = 0
    with pytest.raises(RecordError, match="null"):
        replay(moved)
    unpaced = {k: v for k, v in doc.items() if k != "paced"}
    with pytest.raises(RecordError, match="not paced"):
        replay(unpaced)


def test_deal_actions_round_trip_and_refuse_bad_counts() -> None:
    assert action_to_json(Deal(12)) == {"type": "deal", "dealt": 12}
    assert action_from_json({"type": "deal", "dealt": 12}) == Deal(12)
    for bad in ("12", None, True, -1, 0):
        with pytest.raises(ShengjiError):
            action_from_json({"type": "deal", "dealt": bad})


@settings(max_examples=examples(12), deadline=None)
@given(st_.integers(0, 10_000))
def test_random_paced_hands_keep_every_card_and_end(seed: int) -> None:
    st, _ = _paced_match(seed, hands=1)
    cards = Counter(c for r in st.results for c in r.kitty)
    for t in st.tricks:
        for p in t.plays:
            cards.update(p.cards)
    assert cards == Counter(st.deck_order)
    assert st.results[-1].trick_points + sum(c.pts for c in st.results[-1].kitty) <= 200
