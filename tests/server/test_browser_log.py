"""The hand log (declarations and every trick of the hand so far, openable any time) and
the display settings kept per browser (four-colour suits, card size, hand order, sound),
at 360x740 in Chinese and 1280x800 in English.

Skips loudly without chromium.
"""

from __future__ import annotations

from typing import Any

import pytest

from .browser_support import (
    DESKTOP,
    PHONE,
    Server,
    browser,  # noqa: F401  (fixture)
    drive,
    join,
    make_room,
    new_page,
    require_chromium,
    server,  # noqa: F401  (fixture)
    shot,
    start_match,
    state,
)

require_chromium()

BOTS3 = [None, "heuristic", "heuristic", "heuristic"]


def _table(server: Server, browser: Any, lang: str, size: dict[str, int]) -> Any:  # noqa: F811
    page = new_page(browser, lang, size)
    room = make_room(server, page, preset="shuangsheng", bots=BOTS3)
    join(page, server.base, room, "小明" if lang == "zh" else "Sam")
    start_match(page)
    return page


def _tricks_done(page: Any, n: int) -> bool:
    st = state(page)
    view = (st or {}).get("view") or {}
    return bool(view.get("phase") == "play" and len(view.get("tricks") or []) >= n)


@pytest.mark.parametrize(
    ("size", "lang"), [(PHONE, "zh"), (DESKTOP, "en")], ids=["phone-zh", "desktop-en"]
)
def test_the_hand_log_tells_the_hand_so_far(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
    lang: str,
) -> None:
    page = _table(server, browser, lang, size)
    drive([page], lambda: _tricks_done(page, 3), timeout=120)
    page.click("#handlogbtn")
    page.wait_for_selector("#logdialog #handlog")
    st = state(page)
    assert st is not None
    view = st["view"]
    tricks = page.locator("#logdialog .logtrick")
    done = len(view["tricks"])
    assert tricks.count() in (done, done + 1)  # and the trick being played, if led
    text = page.inner_text("#logdialog")
    assert ("亮主记录" if lang == "zh" else "Declarations") in text
    for i, trick in enumerate(view["tricks"][:done]):
        row = tricks.nth(i)
        assert row.locator(".trow").count() == 4
        assert row.locator(".ptag.lead").count() == 1 and row.locator(".ptag.win").count() == 1
        winner = row.locator(".trow.won").get_attribute("data-seat")
        assert winner == str(trick["winner"])
        assert row.locator(".trow").first.get_attribute("data-seat") == str(
            trick["plays"][0]["seat"]
        )
    shot(page, "hand-log")
    page.click("#closedialog")
    page.keyboard.press("g")  # and from the keyboard
    page.wait_for_selector("#logdialog")
    page.keyboard.press("Escape")
    page.wait_for_selector("#logdialog", state="detached")
    assert not page.watch.errors, page.watch.errors
    page.context.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_settings_are_kept_per_browser(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
) -> None:
    page = _table(server, browser, "en", size)
    drive([page], lambda: _tricks_done(page, 0) and (state(page) or {})["view"]["to_act"] == 0)
    page.wait_for_selector("#hand .card")
    width = page.evaluate("document.querySelector('#hand .card').getBoundingClientRect().width")
    page.click("#settings")
    page.wait_for_selector("#settingsdialog")
    shot(page, "settings")
    page.check("#set-four")
    page.select_option("#set-size", "large")
    page.select_option("#set-order", "right")
    page.uncheck("#set-sound")
    page.click("#closesettings")
    classes = page.evaluate("document.documentElement.className")
    assert {"four-color", "cards-large", "trumps-right"} <= set(classes.split())
    bigger = page.evaluate("document.querySelector('#hand .card').getBoundingClientRect().width")
    assert bigger > width
    # trumps are drawn last; clubs and diamonds have colours of their own
    last = page.evaluate(
        "(() => { const gs = [...document.querySelectorAll('#hand .fan-group')];"
        " const r = (g) => g.getBoundingClientRect();"
        " return gs.reduce((a, g) => (r(g).top > r(a).top || (r(g).top === r(a).top"
        " && r(g).left > r(a).left) ? g : a)).classList.contains('trumps'); })()"
    )
    assert last
    colours = page.evaluate(
        "(() => { const c = {}; for (const s of ['S', 'H', 'C', 'D']) {"
        " const e = document.createElement('span'); e.className = `card s-${s}`;"
        " if (s === 'H' || s === 'D') e.classList.add('red');"
        " document.body.append(e); c[s] = getComputedStyle(e).color; e.remove(); } return c; })()"
    )
    assert len(set(colours.values())) == 4, colours
    assert "off" in (page.get_attribute("#sound", "class") or "")
    page.reload()
    page.wait_for_selector("#hand .card")
    assert "cards-large" in page.evaluate("document.documentElement.className")
    assert "off" in (page.get_attribute("#sound", "class") or "")
    assert not page.watch.errors, page.watch.errors
    page.context.close()
