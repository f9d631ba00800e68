"""找朋友's shows by their number of cards (``declaring = count``, the preset's) and the
plain ladder (``declaring = ladder``), docs/rules.md §4.11 and §5.10: the issue's
reproduction through the game engine, the refusals' words in both languages, and the
product's declaring against the oracle's on random shows."""

from __future__ import annotations

import random
from typing import Any

import pytest

from helpers import build_deck
from oracle import declaring as oracle
from shengji.errors import DeclarationError, ShengjiError
from shengji.game.actions import Declare, Pass
from shengji.game.flow import apply, new_match
from shengji.game.legal import legal_shows
from shengji.rules import declaring
from shengji.rules.cards import Card, parse_cards
from shengji.rules.presets import load_preset
from shengji.words.i18n import error_text

C = parse_cards


def _shows(st: Any, script: list[tuple[int, str]]) -> Any:
    """Deal on, making the scripted shows (seat, cards) when offered and passing
    otherwise, until the script is done."""
    todo = list(script)
    while todo:
        assert st.phase in ("deal", "before_kitty"), f"never offered: {todo}"
        seat = st.to_act
        action: Declare | Pass = Pass()
        if seat == todo[0][0] and C(todo[0][1]) in legal_shows(st, seat):
            action = Declare(C(todo.pop(0)[1]))
        st, _ = apply(st, seat, action)
    return st


def test_the_issue_reproduction_through_the_game() -> None:
    """zhaopengyou at level 3: seat 2 shows C3, seat 1 D3 D3 D3; seat 4's S3 S3 is never
    offered and is refused with what a stronger show needs; S3 S3 S3 takes it."""
    opts = load_preset("zhaopengyou", {"start_level": "3"})
    d = build_deck(opts, {2: "C3", 1: "D3 D3 D3", 4: "S3 S3 S3"}, kitty="LJ BJ")
    st = _shows(new_match(opts, 1, [d]), [(2, "C3"), (1, "D3 D3 D3")])
    assert (st.trump, st.banker) == ("D", 1)
    refused = False
    while st.phase in ("deal", "before_kitty"):
        seat = st.to_act
        shows = legal_shows(st, seat)
        if seat == 4 and st.hands[4].count(C("S3")[0]) >= 2:
            assert C("S3 S3") not in shows
            if not refused:
                refused = True
                with pytest.raises(DeclarationError) as e:
                    apply(st, 4, Declare(C("S3 S3")))
                p = e.value.params
                assert p["reason"] == "stronger_show" and p["count"] == 3
                assert error_text(e.value.code, p, str(e.value), "en") == (
                    "only a stronger show is accepted: 3 identical cards that outrank "
                    "♦3 ♦3 ♦3 (BJ > LJ > ♠ > ♥ > ♣ > ♦)"
                )
                assert error_text(e.value.code, p, str(e.value), "zh") == (
                    "只能亮更大的: 3 张比 ♦3 ♦3 ♦3 大的牌 (大王 > 小王 > 黑桃 > 红桃 > 梅花 > 方块)"
                )
            if C("S3 S3 S3") in shows:
                st, _ = apply(st, 4, Declare(C("S3 S3 S3")))
                break
        st, _ = apply(st, seat, Pass())
    assert refused
    assert (st.trump, st.banker, st.declare.counters) == ("S", 4, 2)


def test_the_holder_reinforces_to_a_triple_in_one_show() -> None:
    opts = load_preset("zhaopengyou", {"start_level": "3"})
    d = build_deck(opts, {2: "C3 C3 C3", 1: "S3 S3"}, kitty="LJ BJ")
    st = _shows(new_match(opts, 1, [d]), [(2, "C3"), (2, "C3 C3 C3")])
    assert (st.trump, st.banker, st.declare.rung, st.declare.counters) == ("C", 2, 3, 0)
    while st.phase in ("deal", "before_kitty"):  # no pair is offered over it
        seat = st.to_act
        assert all(len(s) >= 3 for s in legal_shows(st, seat)), seat
        st, _ = apply(st, seat, Pass())
    assert (st.trump, st.banker) == ("C", 2)


@pytest.mark.parametrize(
    ("reason", "params", "en", "zh"),
    [
        (
            "stronger_show",
            {"count": 1, "show": "H2", "more": True, "beat": ""},
            "only a stronger show is accepted: two or more identical cards",
            "只能亮更大的: 两张或更多相同的牌",
        ),
        (
            "stronger_show",
            {"count": 2, "show": "D2 D2", "more": True, "beat": "jokers"},
            "only a stronger show is accepted: more than 2 identical cards or 2 jokers",
            "只能亮更大的: 多于 2 张相同的牌, 或2 张王",
        ),
        (
            "stronger_show",
            {"count": 2, "show": "BJ BJ", "more": False, "beat": ""},
            "no show can outrank BJ BJ now",
            "现在没有比 大王 大王 更大的亮主",
        ),
        (
            "reinforce_only",
            {},
            "you hold the current declaration: you may only add cards to it (more of the "
            "same card)",
            "现在的主是你亮的: 只能再加同样的牌加固",
        ),
    ],
)
def test_refusals_in_both_languages(reason: str, params: dict[str, Any], en: str, zh: str) -> None:
    p = {"reason": reason, **params}
    assert error_text("ILLEGAL_DECLARATION", p, "", "en") == en
    assert error_text("ILLEGAL_DECLARATION", p, "", "zh") == zh


def test_the_engines_message_names_the_standing_show() -> None:
    """The refusal's English message is worded from the same params as ``error_text``."""
    opts = load_preset("shuangsheng", {"declaring": "ladder", "decks": 3})
    st = declaring.replay_shows(opts, 2, True, None, [(0, C("S2")), (1, C("D2 D2"))])
    with pytest.raises(DeclarationError) as e:
        declaring.apply_show(opts, 2, st, 2, C("H2 H2"), "deal")
    assert str(e.value).endswith(
        "only a stronger show is accepted: more than 2 identical cards or 2 jokers"
    )
    assert e.value.params == {
        "reason": "stronger_show",
        "count": 2,
        "show": "D2 D2",
        "more": True,
        "beat": "jokers",
    }


# -- the product's declaring against the oracle's ------------------------------------------


def _answer(mod: Any, opts: Any, level: int, state: Any, seat: int, cards: Any, phase: Any) -> Any:
    try:
        return mod.apply_show(opts, level, state, seat, cards, phase)
    except ShengjiError as e:
        return (type(e).__name__, e.code, str(e), e.params)


TABLES = [
    ("zhaopengyou", {}),
    ("zhaopengyou", {"players": 8}),
    ("zhaopengyou", {"players": 5}),
    ("shuangsheng", {"declaring": "count"}),
    ("shuangsheng", {"declaring": "ladder"}),
    ("classic-3deck", {"declaring": "ladder"}),
    ("tuolaji-4deck", {"declaring": "count", "counter_takes_banker": True}),
]


@pytest.mark.parametrize(("preset", "overrides"), TABLES, ids=[str(t) for t in TABLES])
def test_random_shows_match_the_oracle(preset: str, overrides: dict[str, Any]) -> None:
    """Random show sequences (any seat, any phase, any show of level cards or jokers up
    to the decks): the same state after every accepted show, the same refusal (type, code,
    words and params) otherwise."""
    opts = load_preset(preset, overrides)
    rng = random.Random(37)
    accepted = 0
    for _ in range(300):
        level = rng.randrange(2, 15)
        first = rng.random() < 0.5
        state = declaring.start_state(first, None if first else rng.randrange(opts.players))
        if not first and rng.random() < 0.2:
            state = declaring.flipped_state(state, None)
        for _ in range(rng.randrange(1, 9)):
            seat = rng.randrange(opts.players)
            kinds: list[Card] = [*C(" ".join(f"{s}{_rank(level)}" for s in "SHCD")), *C("LJ BJ")]
            card = rng.choice(kinds)
            count = rng.randint(1, opts.decks)
            phase = rng.choice(["deal", "before_kitty", "after_burial", None])
            cards = (card,) * count
            got = _answer(declaring, opts, level, state, seat, cards, phase)
            want = _answer(oracle, opts, level, state, seat, cards, phase)
            assert got == want, (state, seat, cards, phase)
            if isinstance(got, declaring.DeclareState):
                state = got
                accepted += 1
    assert accepted > 100


def _rank(level: int) -> str:
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(level, str(level))
