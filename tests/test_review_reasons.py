"""Review marks say why: concrete positions (双升, ♥ trump at level 2, seat 0 the banker
with seat 2; seats 1 and 3 the collectors) where a play and a better one differ in one way
a strong player names, each checked for its reason code and its words in both languages."""

from __future__ import annotations

from typing import Any

from helpers import C, build_deck, run
from shengji.bots.reasons import CODES, Reason, searched, trick_after, why
from shengji.bots.review import Mark
from shengji.game.actions import Bury, Play
from shengji.game.flow import apply, new_match
from shengji.game.state import GameState
from shengji.rules.presets import load_preset
from shengji.server.reviewing import mark_json
from shengji.words.i18n import CATALOGUE, reason_text

KITTY = "D3 D3 D4 D4 D6 D6 D7 D7"
#: Twenty-three cards with neither spades nor trumps (to fill a hand that must hold no spade).
PLAIN = "C3 C4 C6 C7 C8 C9 CJ CQ C3 C4 C6 C7 C8 C9 CJ CQ D8 D8 D9 D9 DJ DJ DQ"


def _position(wants: dict[int, str], plays: list[tuple[int, str]]) -> GameState:
    """The hand after the burial with the wanted cards dealt, then ``plays`` made."""
    opts = load_preset("shuangsheng")
    deck = build_deck(opts, {0: "H2 " + wants.pop(0, ""), **wants}, KITTY)
    st = run(new_match(opts, 1, [deck]), [("deal", 0, "H2")], "bury")
    st, _ = apply(st, 0, Bury(C(KITTY)))
    for seat, cards in plays:
        st, _ = apply(st, seat, Play(C(cards)))
    return st


def _finish(st: GameState, seat: int, played: str, rest: list[tuple[int, str]]) -> Any:
    """The trick as it ends after ``seat`` plays ``played`` and then ``rest``."""
    states = [st]
    st, _ = apply(st, seat, Play(C(played)))
    states.append(st)
    for s, cards in rest:
        st, _ = apply(st, s, Play(C(cards)))
        states.append(st)
    return trick_after(states, 1, states[0]), st


def _words(r: Reason) -> tuple[str, str]:
    return r.text("en"), r.text("zh")


def test_a_higher_card_that_wins_the_trick_with_its_points() -> None:
    """Seat 3, last, against the banker's ♠K: ♠6 lets it take the trick's 20 points; the
    ace wins it."""
    st = _position({0: "SK", 1: "S4", 2: "S10", 3: "SA S6"}, [(0, "SK"), (1, "S4"), (2, "S10")])
    trick, end = _finish(st, 3, "S6", [])
    assert trick.winner == 0 and trick.points == 20
    r = why(st, 3, C("S6"), C("SA"), trick, end)
    assert r is not None and r.code == "beats_winner"
    assert r.args() == {"played": "S6", "better": "SA", "winner": "SK", "taken": 20}
    en, zh = _words(r)
    assert (
        en == "♠A beats ♠K, which took the trick and its 20 points for the opponents; ♠6 does not"
    )
    assert zh == "出♠A能压住♠K, 出♠6压不住: 对方拿走了这一轮和其中的20分"
    # without the trick's ending, what is known at the play: the ace wins it for sure
    r = why(st, 3, C("S6"), C("SA"), None, st)
    assert r is not None and r.code == "wins_trick" and r.args()["points"] == 20
    assert r.text("en") == "♠A wins the trick and its 20 points; ♠6 loses it"
    assert r.text("zh") == "出♠A能拿下这一轮和其中的20分, 出♠6拿不到"


def test_points_given_to_the_opponents() -> None:
    """Seat 1 (a collector), void in spades, discards under the banker's ♠A: ♦10 puts 10
    points where the banker's side keeps them (♦5 would put 5, ♦9 none); seat 2 (the
    banker's side), void in spades, discards under a collector's ♠A: ♦10 gives them 10."""
    st = _position({0: "SA", 1: "D10 D5 " + PLAIN, 2: "S3", 3: "S4"}, [(0, "SA")])
    trick, end = _finish(st, 1, "D10", [(2, "S3"), (3, "S4")])
    assert trick.winner == 0
    r = why(st, 1, C("D10"), C("D9"), trick, end)
    assert r is not None and r.code == "gives_points"
    assert r.args() == {
        "played": "D10",
        "better": "D9",
        "points": 10,
        "taken": 10,
        "collector": True,
    }
    assert _words(r) == (
        "♦10 puts 10 points into a trick the banker's side took, out of our count (10 points"
        " in all); ♦9 keeps them",
        "出♦10把10分垫给了庄家一方拿下的这一轮, 我方拿不到 (这一轮共10分); 出♦9不垫",
    )
    r = why(st, 1, C("D10"), C("D5"), trick, end)
    assert r is not None and r.code == "gives_points" and r.args()["points"] == 5

    plain = " ".join(PLAIN.split()[:22])
    st = _position(
        {0: "S3 S8", 1: "SA SA", 2: "S4 D10 D5 " + plain, 3: "S6 S7"},
        [(0, "S3"), (1, "SA"), (2, "S4"), (3, "S6"), (1, "SA")],
    )
    trick, end = _finish(st, 2, "D10", [(3, "S7"), (0, "S8")])
    assert trick.winner == 1 and trick.points == 10
    r = why(st, 2, C("D10"), C("D9"), trick, end)
    assert r is not None and r.code == "gives_points" and "collector" not in r.args()
    assert _words(r) == (
        "♦10 gives 10 points to the opponents, who took the trick (10 points in all);"
        " ♦9 keeps them",
        "出♦10送给对方10分 (对方这一轮共拿10分); 出♦9不送",
    )


def test_trumping_a_partners_winning_ace() -> None:
    """Seat 2, void in spades, trumps its partner's ♠A with ♥3 where a low diamond leaves
    the trick to the partner."""
    st = _position({0: "SA", 1: "S3", 2: "H3 D5 " + PLAIN, 3: "S4"}, [(0, "SA"), (1, "S3")])
    trick, end = _finish(st, 2, "H3", [(3, "S4")])
    assert trick.winner == 2
    r = why(st, 2, C("H3"), C("D9"), trick, end)
    assert r is not None and r.code == "overtakes_partner" and r.args()["partner"] == "SA"
    assert _words(r) == (
        "♥3 overtakes partner's winning ♠A; ♦9 leaves the trick to partner",
        "出♥3压了队友正在赢的♠A; 出♦9让队友拿这一轮",
    )
    # the other way round, feeding points to the trick the side took
    trick, end = _finish(st, 2, "D9", [(3, "S4")])
    r = why(st, 2, C("D9"), C("D5"), trick, end)
    assert r is not None and r.code == "feeds_partner" and r.args()["points"] == 5
    assert r.text("en") == "♦5 feeds 5 points more to the trick our side took; ♦9 holds them back"
    assert r.text("zh") == "出♦5能给己方拿下的这一轮多贴5分, 出♦9没贴"


def test_breaking_a_pair_spending_a_trump_or_a_high_card() -> None:
    """Seat 1 under the banker's ♠A plays a queen of its pair where the four loses as well;
    seat 2, void in diamonds, trumps a diamond already trumped by the big joker where a club
    loses as well; seat 1 follows the big joker with ♥4 where ♥3 does the same."""
    st = _position({0: "SA", 1: "SQ SQ S4 " + " ".join(PLAIN.split()[:22])}, [(0, "SA")])
    r = why(st, 1, C("SQ"), C("S4"), None, st)
    assert r is not None and r.code == "breaks_pair"
    assert r.args()["cards"] == "SQ SQ" and r.args()["kind"] == "pair"
    assert _words(r) == (
        "♠Q breaks up the pair ♠Q ♠Q; ♠4 does not",
        "出♠Q拆了对子♠Q ♠Q; 出♠4不拆",
    )
    assert why(st, 1, C("S4"), C("SQ"), None, st) is None  # nothing to name the other way

    clubs = " ".join(PLAIN.split()[:16])
    st = _position(
        {
            0: "D5",
            1: "BJ SA SA SK SK SQ SQ H5 H6 H7 H8 H9 H10 HJ HQ HK HA CA CA CK CK C10 C10 C5 C5",
            2: "H3 " + clubs + " S3 S4 S6 S7 S8 S9 S10 SJ",
        },
        [(0, "D5"), (1, "BJ")],
    )
    r = why(st, 2, C("H3"), C("C3"), None, st)
    assert r is not None and r.code == "spends_trump" and r.args()["trumps"] == 1
    assert _words(r) == (
        "♥3 spends 1 trump more than ♣3, which does the same job",
        "出♥3比出♣3多花1张主牌, 效果却一样",
    )

    st = _position({0: "BJ", 1: "H3 H4 " + " ".join(PLAIN.split()[:23])}, [(0, "BJ")])
    r = why(st, 1, C("H4"), C("H3"), None, st)
    assert r is not None and r.code == "spends_high" and r.args()["cards"] == "H4"
    assert _words(r) == (
        "♥4 spends a higher card than needed; the lower ♥3 does the same",
        "出♥4用了不必要的大牌, 出小一点的♥3效果一样",
    )


def test_a_high_card_spent_on_nothing_or_led_too_soon() -> None:
    """Seat 3, last, takes a pointless trick with its ace where ♠7 loses it and keeps the
    ace; the banker leads its ace where leading low keeps it."""
    st = _position({0: "S3", 1: "S4", 2: "S8", 3: "SA S7"}, [(0, "S3"), (1, "S4"), (2, "S8")])
    r = why(st, 3, C("SA"), C("S7"), None, st)
    assert r is not None and r.code == "wins_nothing" and r.args()["cards"] == "SA"
    assert _words(r) == (
        "♠A wins a trick with no points; ♠7 keeps ♠A",
        "出♠A赢了一轮没有分的牌; 出♠7留着♠A",
    )
    st = _position({0: "SA S3 " + " ".join(PLAIN.split()[:22])}, [])
    r = why(st, 0, C("SA"), C("S3"), None, st)
    assert r is not None and r.code == "leads_low" and r.args()["cards"] == "SA"
    assert _words(r) == (
        "♠3 leads low and keeps ♠A for later; ♠A spends it",
        "出♠3先出小的, 留着♠A; 出♠A把它花掉了",
    )


def test_drawing_trumps_and_the_generic_reason() -> None:
    """The banker leads: a trump draws the opponents' trumps where a low spade does not;
    where nothing names the difference, the reason is the search's figures."""
    st = _position({0: "H3 S3 S4"}, [])
    r = why(st, 0, C("S3"), C("H3"), None, st)
    assert r is not None and r.code == "draws_trumps"
    assert _words(r) == (
        "♥3 draws the opponents' trumps; ♠3 leaves them their trumps",
        "出♥3吊主, 清对方的主; 出♠3让对方留着主",
    )
    r = why(st, 0, C("H3"), C("S3"), None, st)
    assert r is not None and r.code == "leads_trump"
    assert (
        r.text("en") == "♥3 spends a trump on the lead; ♠3 keeps the trumps and leads a side suit"
    )
    g = searched(C("S4"), 0.4567, 300)
    assert g.code == "search" and g.args() == {"better": "S4", "gain": 0.46, "deals": 300}
    assert _words(g) == (
        "the search found ♠4 worth +0.46 levels more over 300 sampled deals",
        "搜索发现出♠4在300次抽样中平均多得+0.46级",
    )


def test_a_mark_carries_its_reason_in_its_line_and_its_json() -> None:
    reason = why(
        _position({0: "SK", 1: "S4", 2: "S10", 3: "SA S6"}, [(0, "SK"), (1, "S4"), (2, "S10")]),
        3,
        C("S6"),
        C("SA"),
    )
    assert reason is not None
    mark = Mark(7, 0, 1, 4, C("S6"), C("SA"), 0.5, 0.1, 300, reason)
    assert mark.text("en").endswith(": ♠A wins the trick and its 20 points; ♠6 loses it")
    assert mark.text("zh").endswith(": 出♠A能拿下这一轮和其中的20分, 出♠6拿不到")
    j = mark_json(mark)
    assert j["reason"]["code"] == "wins_trick"
    assert j["reason"]["params"] == {"played": "S6", "better": "SA", "points": 20}
    assert j["reason"]["text"]["en"].startswith("♠A wins the trick")
    assert j["reason"]["text"]["zh"] == "出♠A能拿下这一轮和其中的20分, 出♠6拿不到"
    assert j["text"]["en"].startswith("Hand 1, trick 1, 4th to play")  # the line as before
    # a mark without a specific reason: the search's figures, not repeated in its line
    plain = Mark(7, 0, 1, 4, C("S6"), C("SA"), 0.5, 0.1, 300)
    assert (
        plain.why.code == "search" and "sampled deals" in mark_json(plain)["reason"]["text"]["en"]
    )
    assert plain.text("en") == plain.line("en")


def test_every_code_has_words_in_both_languages() -> None:
    for code in CODES:
        entry = CATALOGUE[f"review.why.{code}"]
        assert entry["en"] and entry["zh"]
    assert reason_text("no_such_code", {}, "en") == "no_such_code"
