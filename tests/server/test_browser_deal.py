"""The deal in the browser (Playwright, Debian's chromium): it runs by itself at the room's
pace whether or not the person touches the page, and a show bar offers the shows held
now, one tap each, at phone and desktop size, in both languages."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .browser_support import (
    DESKTOP,
    PHONE,
    Server,
    body_text,
    browser,  # noqa: F401 - a fixture
    join,
    make_room,
    new_page,
    require_chromium,
    server,  # noqa: F401 - a fixture
    shot,
    start_match,
    state,
    wait,
)

require_chromium()

BOTS3 = [None, "heuristic", "heuristic", "heuristic"]
CASES = pytest.mark.parametrize(
    ("lang", "size"), [("en", DESKTOP), ("zh", PHONE)], ids=["desktop-en", "phone-zh"]
)


@CASES
def test_a_person_who_never_touches_the_page_sees_the_deal_end(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    lang: str,
    size: dict[str, int],
) -> None:
    page = new_page(browser, lang, size)
    room = make_room(server, page, preset="shuangsheng", bots=BOTS3)
    join(page, server.base, room, "Ann" if lang == "en" else "安")
    start_match(page)
    seen_progress: set[str] = set()
    deadline = time.time() + 90
    while True:  # hands off: the page is only read
        st = state(page)
        assert st is not None
        if st["view"]["phase"] != "deal":
            break
        assert time.time() < deadline, "the deal never ended"
        asked = "window.shengjiState.view.phase === 'deal' && !!document.querySelector('#pass')"
        assert not page.evaluate(asked)  # nobody is asked to pass during the deal
        progress = page.evaluate("(document.querySelector('#dealing') || {}).textContent || ''")
        if progress:
            seen_progress.add(progress)
        page.wait_for_timeout(40)
    assert len(seen_progress) >= 3, seen_progress  # the count went up as the cards came
    word = "Dealing" if lang == "en" else "发牌 "
    assert all(word in s for s in seen_progress)
    pace = "a card every 0.1 s" if lang == "en" else "每 0.1 秒一张"
    assert any(pace in s for s in seen_progress), seen_progress
    assert not page.watch.errors, page.watch.errors


@CASES
def test_one_tap_on_the_show_bar_declares(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    lang: str,
    size: dict[str, int],
) -> None:
    """Four people: whoever first holds a show taps it; the table says who declared. (A
    round a second: the show is still legal after a busy machine's screenshots.)"""
    pages = [new_page(browser, lang, size) for _ in range(4)]
    room = make_room(server, pages[0], preset="shuangsheng", bots=[], deal_seconds=1.0)
    names = ["Ann", "Ben", "Cat", "Dan"] if lang == "en" else ["安", "本", "凯", "丹"]
    for page, name in zip(pages, names, strict=True):
        join(page, server.base, room, name)
    wait(pages[0], "window.shengjiState.room.seats.every(s => s.kind === 'human')")
    for page in pages[1:]:
        page.click("#ready")
    wait(pages[0], "window.shengjiState.room.seats.slice(1).every(s => s.ready)")
    start_match(pages[0])
    deadline = time.time() + 60
    tapped = None
    while tapped is None:
        assert time.time() < deadline, "nobody could show"
        for page in pages:
            st = state(page)
            if st and st.get("view") and st["view"]["phase"] == "deal" and st.get("shows"):
                button = page.locator("#actions button.show").first
                button.wait_for()
                prompt = page.inner_text("#prompt")
                if ("whenever you like" if lang == "en" else "随时可以亮主") not in prompt:
                    continue  # drawn from an earlier round than the state read: look again
                assert page.locator("#pass").count() == 0
                shot(page, "deal-showbar")
                cards = button.get_attribute("data-cards")
                # the bar is drawn anew at every round (a busy machine's screenshot takes
                # several): tap the show that was read, not whatever is first by now
                page.locator(f'#actions button.show[data-cards="{cards}"]').click()
                tapped = (page, cards, st["you"]["seat"])
                break
        else:
            pages[0].wait_for_timeout(20)
    page, cards, seat = tapped
    wait(page, f"window.shengjiState.view.declarations.some(d => d.seat === {seat})")
    st = state(page)
    assert st is not None and st["view"]["declarations"][0] == {"seat": seat, "cards": cards}
    assert st["view"]["banker"] == seat
    wait(page, "!!document.querySelector('.center-decl')")
    assert names[seat] in page.inner_text(".center-decl")
    shot(page, "deal-declared")
    for other in pages:
        assert not other.watch.errors, other.watch.errors
    assert "undefined" not in body_text(page) and "{" not in page.inner_text("#prompt")
