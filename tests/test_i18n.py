"""The shared message catalogue: every error code in both languages, details from the
engine's structured params, suit symbols, card names and plurals."""

from __future__ import annotations

import json
import re
import string

import pytest

from helpers import show_in_deal
from shengji.errors import CODES, ShengjiError
from shengji.game.flow import new_match
from shengji.rules.cards import parse_cards
from shengji.rules.follow import check_follow
from shengji.rules.presets import load_preset
from shengji.rules.trump import TrumpContext
from shengji.words.i18n import (
    CATALOGUE,
    LANGS,
    card_label,
    cards_label,
    count_cards,
    error_text,
    t,
)

ASCII_WORDS = re.compile(r"[A-Za-z]{4,}")


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_has_both_languages(code: str) -> None:
    entry = CATALOGUE.get(f"err.{code}")
    assert entry is not None, f"no generic text for {code}"
    assert entry["en"] and entry["zh"] and entry["en"] != entry["zh"]
    en = error_text(code, None, "the engine's message", "en")
    zh = error_text(code, None, "the engine's message", "zh")
    assert en == entry["en"] and zh == entry["zh"]
    # Chinese text is Chinese: no English words beyond notation (S10, BJ, --spectate...)
    allowed = {"spectate", "heuristic", "random", "room", "http", "Ctrl"}
    leftovers = [w for w in ASCII_WORDS.findall(zh) if w not in allowed]
    assert not leftovers, (code, zh)


def test_unknown_code_falls_back_to_the_message() -> None:
    assert error_text("NO_SUCH_CODE", None, "plain words", "zh") == "plain words"
    assert error_text("NO_SUCH_CODE", None, "", "en") == "NO_SUCH_CODE"


def test_catalogue_is_json_with_both_languages_and_matching_fields() -> None:
    assert json.loads(json.dumps(CATALOGUE, ensure_ascii=False)) == CATALOGUE
    fmt = string.Formatter()
    for key, entry in CATALOGUE.items():
        assert set(entry) == set(LANGS), key
        assert entry["en"].strip() and entry["zh"].strip(), key
        for lang in LANGS:  # every template parses
            list(fmt.parse(entry[lang]))


def test_ui_strings() -> None:
    assert t("rel.2", "en") == "partner" and t("rel.2", "zh") == "对家"
    assert t("status.levels", "zh", a="我方", la="5", b="对方", lb="3") == "级: 我方 5 · 对方 3"
    assert t("no.such.key", "en") == "no.such.key"
    assert t("seat.n", "fr", n=2) == "seat 2"  # unknown language: English


def test_cards_and_plurals() -> None:
    assert card_label("S10", "en") == "♠10" and card_label("BJ", "en") == "BJ"
    assert card_label("BJ", "zh") == "大王" and card_label("LJ", "zh") == "小王"
    assert cards_label("HJ D2 LJ", "en") == "♥J ♦2 LJ"
    assert count_cards(1, "en") == "1 card" and count_cards(2, "en") == "2 cards"
    assert count_cards(3, "zh") == "3张牌"


def _follow_error(lead: str, hand: str, play: str) -> ShengjiError:
    ctx = TrumpContext(load_preset("shuangsheng"), 2, "H")
    with pytest.raises(ShengjiError) as exc:
        check_follow(ctx, parse_cards(lead), parse_cards(hand), parse_cards(play))
    return exc.value


def test_follow_errors_carry_params_and_read_well() -> None:
    e = _follow_error("S9", "S3 H5", "H5")
    assert e.code == "MUST_FOLLOW_SUIT" and e.params == {"suit": "S", "held": 1, "need": 1}
    assert error_text(e.code, e.params, e.message, "en") == "you hold 1 ♠ card: you must play a ♠"
    assert error_text(e.code, e.params, e.message, "zh") == "你有黑桃, 必须出黑桃"
    e = _follow_error("H9 H9", "H3 S2 C5", "C5 S2")  # hearts are trumps here
    assert "trumps" in error_text(e.code, e.params, e.message, "en")
    assert "主牌" in error_text(e.code, e.params, e.message, "zh")
    e = _follow_error("S9 S9 S10 S10", "S3 H5 D4 D5 D6 S4", "S3 H5 D4 D5")
    assert error_text(e.code, e.params, e.message, "en") == (
        "you hold only 2 ♠ cards: play both and 2 other cards"
    )
    e = _follow_error("S9 S9 S10 S10", "SK SK S5 S5 S3 H4 D7 C8", "SK SK S5 S3")
    assert e.code == "MUST_FOLLOW_FORMAT"
    assert error_text(e.code, e.params, e.message, "en") == (
        "you hold 2 pairs in ♠ and must play them"
    )
    assert error_text(e.code, e.params, e.message, "zh") == "你的黑桃里有2个对子, 必须跟出"
    e = _follow_error("S9 S9 S10 S10", "SK SK S5 S5 S3 H4 D7 C8", "SK SK S5")
    assert e.code == "WRONG_CARD_COUNT"
    assert error_text(e.code, e.params, e.message, "en") == "the lead has 4 cards: play 4, not 3"
    e = _follow_error("S9", "S3 H5", "HA")
    assert e.message == "not in your hand: HA"
    assert error_text(e.code, e.params, e.message, "en") == "♥A is not in your hand"


def test_not_in_hand_names_only_the_missing_cards() -> None:
    """Issue 12, item 10: burying 8 cards with one not held names that one."""
    from shengji.tui.session import LocalSession

    session = LocalSession(load_preset("classic-1deck"), seed=1, seat=0, deal_seconds=0)
    show_in_deal(session)
    view = session.state["view"]
    assert view["phase"] == "bury" and view["to_act"] == 0
    hand = view["hand"].split()
    wrong = next(c for c in ("BJ", "LJ", "SA", "HA", "CA", "DA", "S3") if c not in hand)
    need = 6  # classic-1deck: a kitty of 6
    refusal = session.act({"type": "bury", "cards": " ".join([*hand[: need - 1], wrong])})
    assert refusal is not None and refusal.code == "CARDS_NOT_IN_HAND"
    assert refusal.message == f"not in your hand: {wrong}"
    assert refusal.params == {"cards": wrong}
    assert refusal.say("en") == f"{card_label(wrong, 'en')} is not in your hand"
    refusal = session.act({"type": "bury", "cards": " ".join(hand[:3])})
    assert refusal is not None and refusal.say("en") == "bury exactly 6 cards, not 3"
    assert refusal.say("zh") == "要扣6张底牌, 不是3张"


def test_declaration_refusals_have_reasons() -> None:
    from shengji.rules.declaring import apply_show, start_state

    opts = load_preset("shuangsheng")
    with pytest.raises(ShengjiError) as exc:
        apply_show(opts, 2, start_state(True, None), 0, parse_cards("BJ"), "deal")
    e = exc.value
    assert e.code == "ILLEGAL_DECLARATION" and e.params["reason"] == "single_joker"
    assert "一对王" in error_text(e.code, e.params, e.message, "zh")
    with pytest.raises(ShengjiError) as exc:
        apply_show(opts, 2, start_state(True, None), 0, parse_cards("S5"), "deal")
    e = exc.value
    assert e.params["reason"] == "not_level"
    assert error_text(e.code, e.params, e.message, "en").startswith("♠5 is not a level card")
    for key in [k for k in CATALOGUE if k.startswith("decl.")]:
        assert CATALOGUE[key]["zh"]


def test_throw_failed_text() -> None:
    params = {
        "attempted": "HQ H5",
        "played": "H5",
        "blocked_by": 1,
        "blocker": "right",
        "penalty": 10,
        "who": "you",
    }
    en = error_text("THROW_FAILED", params, "", "en")
    assert en == (
        "your throw ♥Q ♥5 failed: right can beat ♥5, so only ♥5 was played; "
        "penalty: 10 points to the collectors"
    )
    zh = error_text("THROW_FAILED", {**params, "who": "你", "blocker": "下家"}, "", "zh")
    assert zh.startswith("你甩牌 ♥Q ♥5 失败: 下家管得住 ♥5") and "闲家加10分" in zh
    stake = error_text("THROW_FAILED", {**params, "penalty": 0, "stake": True}, "", "en")
    assert stake.endswith(
        "the thrower's team pays half the stake (the coins each hand is played for)"
    )


def test_turn_and_phase_errors() -> None:
    st = new_match(load_preset("classic-1deck"), 3)
    from shengji.game.actions import Pass
    from shengji.game.flow import apply

    other = (st.to_act + 1) % 4 if st.to_act is not None else 0
    with pytest.raises(ShengjiError) as exc:
        apply(st, other, Pass())
    e = exc.value
    assert e.code == "NOT_YOUR_TURN" and e.params["to_act"] == st.to_act
    assert error_text(e.code, e.params, e.message, "zh") == f"现在轮到{st.to_act}号位, 不是你"
