"""The reasons a hint gives say what its play does, in both languages (issue 40): "keep the
strong cards" only when a higher card of the suit is kept, a burial's voids only when it
empties a suit, "keep trumps" only when no trump is buried."""

from __future__ import annotations

from collections import Counter

import pytest

from shengji.bots.heuristic import HeuristicBot, _lead_reason, burial_reason, keeps_higher
from shengji.game.actions import Bury, Play
from shengji.game.flow import apply, new_match
from shengji.game.views import seat_view
from shengji.rules.cards import Suit, parse_cards
from shengji.rules.presets import load_preset
from shengji.rules.trump import TRUMP, trump_context

OPTIONS = load_preset("shuangsheng")
CTX = trump_context(OPTIONS, 2, Suit.S)  # level 2, spades trumps


def test_a_high_card_led_under_an_unseen_ace_is_not_said_to_keep_the_strong_cards() -> None:
    hand = parse_cards("HK H5 H3 C4")
    en, zh = _lead_reason(CTX, hand, parse_cards("HK"), boss=False, banker_side=False)
    assert "keep" not in en and "留" not in zh
    assert "♥K" in en and "♥K" in zh and "higher card is still out" in en and "更大" in zh
    en, zh = _lead_reason(CTX, hand, parse_cards("H3"), boss=False, banker_side=False)
    assert "keep the higher cards" in en and "留着这门的大牌" in zh


def test_a_burial_says_which_suit_it_empties_and_only_what_it_keeps() -> None:
    hand = parse_cards("C3 C4 D4 D6 D7 H8 H9 HJ SA SK S3 S3 D5")
    en, zh = burial_reason(CTX, hand, parse_cards("C3 C4"))
    assert en.startswith("bury every ♣ to make a void") and zh.startswith("扣光♣做绝门"), (en, zh)
    assert "keep trumps, pairs and points" in en and "留主牌、对子、分" in zh
    # nothing emptied, a point card and a trump buried: no void, no "keep trumps/points"
    en, zh = burial_reason(CTX, hand, parse_cards("C3 D5 H8 HJ SK D4"))
    assert "emptying no suit" in en and "不扣光任何一门" in zh
    assert "trumps" not in en and "points" not in en and "主牌" not in zh and "分" not in zh
    assert "keep pairs" in en and "留对子" in zh


def test_keeps_higher_reads_the_suit_of_the_highest_card() -> None:
    hand = parse_cards("HA HK H3 C2")
    assert keeps_higher(CTX, hand, parse_cards("HK"))
    assert not keeps_higher(CTX, hand, parse_cards("HA"))
    assert not keeps_higher(CTX, parse_cards("HK C2"), parse_cards("HK"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_reason_of_a_hand_agrees_with_its_play(seed: int) -> None:
    """A hand played by the rule of thumb: every play said to keep the strong (or
    higher) cards keeps one, and every burial's words match the cards it buries."""
    st = new_match(OPTIONS, seed)
    bots = [HeuristicBot(s, seed) for s in range(4)]
    checked = 0
    while st.phase not in ("hand_over", "match_over"):
        seat = st.to_act
        assert seat is not None
        view = seat_view(st, seat)
        action = bots[seat].act(view)
        en, zh = bots[seat].reason
        assert en and zh
        if isinstance(action, Play) and ("keep the strong" in en or "keep the higher" in en):
            assert keeps_higher(view.ctx, view.hand, action.cards), (en, action.cards)
            checked += 1
        if isinstance(action, Bury):
            left = Counter(view.hand)
            left.subtract(action.cards)
            buried_trump = any(view.ctx.suit_of[c.index] == TRUMP for c in action.cards)
            assert ("keep trumps" in en) == (not buried_trump), en
            assert ("留主牌" in zh) == (not buried_trump), zh
            if "emptying no suit" in en:
                before = {view.ctx.suit_of[c.index] for c in view.hand} - {TRUMP}
                after = {view.ctx.suit_of[c.index] for c, n in left.items() if n > 0} - {TRUMP}
                assert before == after, en
            checked += 1
        st, _ = apply(st, seat, action)
    assert checked > 0


def test_a_follow_keeping_its_points_off_a_partner_who_may_be_overtaken_says_so() -> None:
    from shengji.bots.heuristic import _follow_reason

    en, zh = _follow_reason(False, False, True, 0, withheld=True)
    assert "may still be overtaken" in en and "give no points" in en
    assert "还可能被压" in zh and "不贴分" in zh
    # no point card to give: the old words stand
    en, zh = _follow_reason(False, False, True, 0, kept=lambda: True)
    assert "keep the strong cards" in en and "留大牌" in zh


def test_a_solved_last_trick_says_what_it_counted_in_both_languages() -> None:
    from shengji.bots.lastricks import Solved, reason

    en, zh = reason(Solved(parse_cards("SA"), 0.25, 12))
    assert en.startswith("count out the last tricks") and "12 guesses" in en and "+0.25" in en
    assert zh.startswith("算清最后几轮") and "12 种" in zh and "+0.25" in zh
