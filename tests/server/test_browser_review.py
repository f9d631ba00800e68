"""Hand review in the browser: "Review my plays" on the score sheet during a match (the
seat's own finished hand, with its token), and "Review this hand" in the replayer, whose
marks jump to their step. Reviews use a small budget (``review_rollouts``) to be quick.

Skips loudly without chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shengji.server.launch import ServerProcess

from .browser_support import (
    DESKTOP,
    PHONE,
    Server,
    browser,  # noqa: F401  (fixture)
    drive,
    join,
    make_room,
    my_turn,
    new_page,
    phase,
    require_chromium,
    shot,
    start_match,
    state,
    wait,
)

require_chromium()


class ReviewServer(Server):
    """``shengji serve`` whose hand reviews search 40 rollouts a play, hints 200 ms."""

    def __init__(self, db: Path) -> None:
        ServerProcess.__init__(
            self, f"sqlite:///{db}", limits=["review_rollouts=40", "hint_ms=200"]
        )
        self.base = self.url


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReviewServer]:
    s = ReviewServer(tmp_path_factory.mktemp("review") / "ui.db")
    try:
        yield s
    finally:
        s.kill()


def _review_shown(page: Any) -> None:
    page.wait_for_selector(
        "#review[data-status='done'], #review[data-status='error']", timeout=60_000
    )
    assert page.get_attribute("#review", "data-status") == "done", page.inner_text("#review")
    marks = page.locator("#marks .mark").count()
    if marks:
        row = page.locator("#marks .markrow").first
        assert row.locator(".card").count() >= 2 and "+" in row.inner_text()
    else:
        assert page.locator("#reviewnone").is_visible()


def test_review_after_a_hand_and_in_the_replayer(srv: ReviewServer, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, "en", PHONE)
    room = make_room(
        srv,
        page,
        preset="classic-1deck",
        overrides={"match_hands": 2},
        bots=[None, "heuristic", "heuristic", "heuristic"],
    )
    join(page, srv.base, room, "Ann")
    start_match(page)
    drive([page], lambda: phase(page) == "hand_over", timeout=120)
    # the score sheet: review my plays of the hand just finished (during the match)
    page.click("#reviewbtn")
    page.wait_for_selector("#reviewdialog #review")
    _review_shown(page)
    assert "Ann" in page.inner_text("#reviewdialog h3")
    shot(page, "review-hand")
    page.click("#closedialog")
    drive([page], lambda: phase(page) == "match_over", timeout=120)
    page.wait_for_selector("#reviewbtn")
    # any earlier hand, from its row of the score sheet
    page.click('#sheet .sheetreview[data-hand="0"]')
    page.wait_for_selector("#reviewdialog #review")
    _review_shown(page)
    assert "1" in page.inner_text("#reviewdialog h3")
    page.click("#closedialog")
    page.click("#replaylink")
    page.wait_for_selector("#rp-review")
    page.click("#lang")  # 中文
    assert page.inner_text("#rp-review") == "复盘本局"
    page.click("#rp-nexthand")
    page.click("#rp-nexthand")  # into the second hand
    wait(page, "document.querySelector('#statusbar').innerText.includes('2')")
    page.click("#rp-review")
    page.wait_for_selector("#reviewbox #review")
    _review_shown(page)
    text = page.inner_text("#reviewbox")
    assert "复盘" in text
    marks = page.locator("#marks .markrow")
    if marks.count():
        view = int(marks.first.get_attribute("data-view") or 0)
        marks.first.click()
        wait(page, f"document.querySelector('#replayslider').value === '{view}'")
        assert page.locator("#marks .mark.current").count() == 1
        assert "第" in page.inner_text("#replaycaption") or page.inner_text("#replaycaption")
    else:
        assert "没有发现明显失误" in text
    shot(page, "review-replay")
    _stubbed_marks_render_and_jump(page)
    assert not page.watch.errors, page.watch.errors


def _stubbed_marks_render_and_jump(page: Any) -> None:
    """Marks come from search over random deals; with a fixed answer (the server's shape)
    the list must show each mark's trick, cards and gain, and a click must jump there."""
    last = int(page.get_attribute("#replayslider", "max") or 0)
    views = (last - 30, last - 10)

    def mark(view: int, trick: int, played: str, better: str, gain: float) -> dict[str, Any]:
        text = {
            "en": f"Hand 2, trick {trick}: played {played}; {better} is worth {gain:+.2f}",
            "zh": f"第 2 局第 {trick} 轮: 出了 {played}; 出 {better} 平均多得 {gain:+.2f} 级",
        }
        return {
            "index": view - 1,
            "view": view,
            "hand": 1,
            "trick": trick,
            "played": played,
            "better": better,
            "gain": gain,
            "se": 0.05,
            "deals": 50,
            "text": text,
        }

    body = {
        "seat": 1,
        "hand": 1,
        "rollouts": 40,
        "marks": [mark(views[0], 4, "S10", "S3", 0.41), mark(views[1], 9, "HK HK", "H4 H4", 0.35)],
    }
    page.route(
        "**/review?*",
        lambda route: route.fulfill(status=200, content_type="application/json", json=body),
    )
    page.select_option("#replayseat", "1")
    page.wait_for_selector("#rp-review")
    page.click("#rp-review")
    page.wait_for_selector("#reviewbox #review[data-status='done']")
    rows = page.locator("#marks .markrow")
    assert rows.count() == 2
    first = rows.nth(0).inner_text()
    assert "4" in first and "+0.41 ± 0.05" in first and rows.nth(0).locator(".card").count() == 2
    # the reason is on the page, not in a hover tooltip (touch screens have no hover)
    assert rows.nth(0).locator(".mtext").is_visible()
    assert "S3" in rows.nth(0).locator(".mtext").inner_text()
    assert rows.nth(1).locator(".card").count() == 4 and "+0.35" in rows.nth(1).inner_text()
    rows.nth(1).click()
    wait(page, f"document.querySelector('#replayslider').value === '{views[1]}'")
    assert page.locator("#marks .mark.current").count() == 1
    shot(page, "review-marks")
    page.unroute("**/review?*")


def _to_my_first_play(srv: ReviewServer, page: Any, **body: Any) -> None:
    """Ann and three heuristic bots at a shuangsheng table, until Ann's first play."""
    bots = [None, "heuristic", "heuristic", "heuristic"]
    room = make_room(srv, page, preset="shuangsheng", bots=bots, **body)
    join(page, srv.base, room, "Ann")
    start_match(page)
    drive([page], lambda: phase(page) == "play" and my_turn(state(page)), timeout=120)


def test_a_hint_selects_the_cards_and_says_why(srv: ReviewServer, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, "zh", PHONE)
    _to_my_first_play(srv, page)
    assert page.locator("#hand .card.sel").count() == 0
    page.click("#hintbtn")
    wait(
        page,
        "document.querySelector('#rule').innerText.startsWith('提示: ') && "
        "!document.querySelector('#rule').innerText.includes('思考中')",
        timeout=30_000,
    )
    rule = page.inner_text("#rule")
    cards, why = rule.removeprefix("提示: ").split(" · ", 1)
    assert cards.startswith("出 ") and why.strip(), rule
    assert page.locator("#hand .card.sel").count() == len(cards.split()) - 1
    assert page.is_enabled("#play")
    shot(page, "hint")
    page.click("#play")
    wait(page, "!document.querySelector('#hand .card.sel')")
    assert not page.watch.errors, page.watch.errors


def test_a_table_without_hints_shows_no_hint_button(srv: ReviewServer, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, "en", PHONE)
    page.goto(srv.base + "/")
    page.wait_for_selector("#allowhints")
    assert page.is_checked("#allowhints")  # hints are on unless the host unticks them
    _to_my_first_play(srv, page, hints=False)
    page.wait_for_selector("#play")
    assert page.locator("#hintbtn").count() == 0
    assert not page.watch.errors, page.watch.errors


# A fixed review of Ann's first hand (the server's shape): one mark, on trick 1.
STUB_MARKS = {
    "seat": 0,
    "hand": 0,
    "rollouts": 40,
    "marks": [
        {
            "index": 20,
            "view": 21,
            "hand": 0,
            "trick": 1,
            "played": "S10",
            "better": "S3",
            "gain": 0.41,
            "se": 0.05,
            "deals": 50,
            "text": {
                "en": "Hand 1, trick 1: played ♠10; ♠3 is worth +0.41: ♠10 gives 10 points…",
                "zh": "第 1 局第 1 轮: 出了 ♠10; 出 ♠3 平均多得 +0.41 级: 出♠10送给对方10分…",
            },
            "line": {
                "en": "Hand 1, trick 1: played ♠10; ♠3 is worth +0.41",
                "zh": "第 1 局第 1 轮: 出了 ♠10; 出 ♠3 平均多得 +0.41 级",
            },
            "reason": {
                "code": "gives_points",
                "params": {"played": "S10", "better": "S3", "points": 10, "taken": 10},
                "text": {
                    "en": "♠10 gives 10 points to the opponents, who took the trick (10 points"
                    " in all); ♠3 keeps them",
                    "zh": "出♠10送给对方10分 (对方这一轮共拿10分); 出♠3不送",
                },
            },
        }
    ],
}

# The score sheet against its panel: [sheet's right edge - panel's inner right edge,
# the panel's hidden width].
SHEET_FITS = """() => {
  const box = document.querySelector('#sheetbox'), sheet = document.querySelector('#sheet');
  const b = box.getBoundingClientRect(), s = sheet.getBoundingClientRect();
  const inner = b.right - parseFloat(getComputedStyle(box).paddingRight);
  const scroller = document.querySelector('#sheetbox .sheetbox');
  return [s.right - inner, scroller.scrollWidth - scroller.clientWidth];
}"""


def test_reading_a_review_holds_the_next_hand(srv: ReviewServer, browser: Any) -> None:  # noqa: F811
    """Ann reads her review after the hand: the next hand waits for her even once everyone
    has pressed it, Bob (a phone, in Chinese) is told who is being waited for, her dialog
    shows how long the table waits and the reasons without hover; the hand log shows the
    review's marks; closing the review lets the next hand start. The score sheet fits its
    panel at both sizes."""
    ann = new_page(browser, "en", DESKTOP)
    bob = new_page(browser, "zh", PHONE)
    ann.route(
        "**/review?*",
        lambda route: route.fulfill(status=200, content_type="application/json", json=STUB_MARKS),
    )
    room = make_room(srv, ann, preset="classic-1deck", bots=[None, "heuristic", None, "heuristic"])
    join(ann, srv.base, room, "Ann")
    join(bob, srv.base, room, "Bob")
    bob.click("#ready")
    start_match(ann)
    drive([ann, bob], lambda: phase(ann) == "hand_over", timeout=120)
    wait(bob, "window.shengjiState.view.phase === 'hand_over'")
    for page in (ann, bob):
        over, hidden = page.evaluate(SHEET_FITS)
        assert over <= 0.5 and hidden <= 0, (page.viewport_size, over, hidden)
    # "Review my plays": the table waits for Ann while she reads
    ann.click("#reviewbtn")
    ann.wait_for_selector("#reviewdialog #review[data-status='done']")
    wait(bob, "(window.shengjiState.room.reviewing || []).includes(0)")
    assert ann.locator("#marks .mtext").is_visible()  # the reason, without hover
    assert "♠3" in ann.inner_text("#marks .mtext") and "+0.41 ± 0.05" in ann.inner_text("#marks")
    # why the play is marked, in its own line (the line itself without it)
    assert ann.locator("#marks .mreason").is_visible()
    assert ann.get_attribute("#marks .mreason", "data-code") == "gives_points"
    assert "gives 10 points to the opponents" in ann.inner_text("#marks .mreason")
    assert "gives" not in ann.inner_text("#marks .mtext")
    ann.click("#closedialog")
    wait(bob, "(window.shengjiState.room.reviewing || []).length === 0")
    # the hand log of the finished hand shows the mark under its trick
    ann.click("#handlogbtn")
    ann.wait_for_selector('#logdialog .logtrick[data-trick="1"] .logmark')
    assert "♠3" in ann.inner_text('#logdialog .logtrick[data-trick="1"] .logmark')
    assert "gives 10 points" in ann.inner_text('#logdialog .logtrick[data-trick="1"] .logmark')
    ann.click("#closedialog")
    ann.click("#next")
    wait(bob, "window.shengjiState.room.waiting.length === 1")
    # the score sheet's row of the hand: a review again, which holds the next hand
    ann.click('#sheet .sheetreview[data-hand="0"]')
    ann.wait_for_selector("#reviewdialog #review")
    wait(bob, "(window.shengjiState.room.reviewing || []).includes(0)")
    hold = ann.locator("#reviewhold")
    hold.wait_for()
    assert "next hand waits for you" in hold.inner_text()
    wait(ann, "/\\d+s/.test(document.querySelector('#reviewhold .timer').innerText)")
    assert 90 <= int(ann.inner_text("#reviewhold .timer").rstrip("s")) <= 120
    # Bob sees whom the table waits for, on the felt and in his prompt
    wait(bob, "document.querySelector('#prompt').innerText.includes('等待 Ann (正在复盘)')")
    assert bob.locator('.seat[data-seat="0"] .tag.review').inner_text() == "复盘中"
    assert bob.locator('.seat[data-seat="0"] .timer').is_visible()
    shot(bob, "review-hold")
    shot(ann, "review-hold")
    bob.click("#next")  # everyone has pressed: still the table waits for Ann
    bob.wait_for_timeout(1500)
    st = state(bob)
    assert st is not None and st["view"]["phase"] == "hand_over"
    assert st["room"]["waiting"] == [] and st["room"]["reviewing"] == [0]
    assert "Ann" in bob.inner_text("#prompt")
    ann.click("#closedialog")  # the review is closed: the next hand starts
    wait(bob, "window.shengjiState.view.hand_number === 1")
    assert state(bob)["room"]["reviewing"] == []  # type: ignore[index]
    assert not ann.watch.errors, ann.watch.errors
    assert not bob.watch.errors, bob.watch.errors
