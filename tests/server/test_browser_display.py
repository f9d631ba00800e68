"""The page around the table (issue 40), at 1280x800 and 360x740: display settings beyond
the first four (dark mode, card style, reduced motion, kept per browser); a quick game
(one click to a started table with three bots of the chosen strength); the join form
naming bots with their level; touch targets of at least 40 px; the phone's room title
never cut; seat menus showing their whole choice; no sideways scrolling while the
connection is lost.

Screenshots: ``var/test-artifacts/*-settings*.png``, ``*-quick*.png``.
"""

from __future__ import annotations

from pathlib import Path
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
    wait,
)

require_chromium()

SIZES = pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("zh", PHONE)])

# the elements of a selector smaller than 40 px in either direction: [id or text, w, h]
SMALL = """(sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null)
  .map((e) => { const r = e.getBoundingClientRect();
    return [e.id || e.textContent.trim(), r.width, r.height]; })
  .filter(([, w, h]) => w < 39.5 || h < 39.5)"""

# a select shows its whole chosen text: [id, text width, room for it]
CUT_SELECTS = """(sel) => {
  const ctx = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll(sel)].map((s) => {
    const st = getComputedStyle(s);
    ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
    const text = s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : '';
    const room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 18;
    return [s.id, Math.ceil(ctx.measureText(text).width), Math.floor(room)];
  }).filter(([, w, room]) => w > room);
}"""

NO_SIDEWAYS = "document.documentElement.scrollWidth <= innerWidth + 1"


@SIZES
def test_display_settings_are_applied_and_kept(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    lang: str,
    size: dict[str, int],
) -> None:
    page = new_page(browser, lang, size)
    room = make_room(server, page, preset="shuangsheng", bots=[None] + ["heuristic"] * 3)
    join(page, server.base, room, "Ann")
    start_match(page)
    wait(page, "!!window.shengjiState.view && document.querySelectorAll('#hand .card').length > 5")
    page.click("#settings")
    page.check("#set-dark")
    page.select_option("#set-style", "bold")
    page.check("#set-motion")
    classes = page.evaluate("document.documentElement.className")
    assert {"dark", "cards-bold", "reduce-motion"} <= set(classes.split())
    assert page.evaluate(SMALL, "#settingsdialog select, #closesettings") == []
    shot(page, "settings-dialog")
    page.click("#closesettings")
    # a darker table, and no animation or transition left
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(10, 13, 12)", bg
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#hand .card')).transitionDuration")
        == "0s"
    )
    shot(page, "settings-dark")
    page.reload()
    wait(page, "!!window.shengjiState && !!window.shengjiState.view")
    assert {"dark", "cards-bold", "reduce-motion"} <= set(
        page.evaluate("document.documentElement.className").split()
    )
    page.click("#settings")
    page.select_option("#set-style", "plain")
    page.uncheck("#set-dark")
    assert "cards-plain" in page.evaluate("document.documentElement.className")
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#hand .card .pip')).display")
        == "none"
    )
    page.click("#closesettings")
    assert not page.watch.errors, page.watch.errors
    page.context.close()


@SIZES
def test_a_quick_game_starts_with_three_bots_of_the_chosen_strength(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    lang: str,
    size: dict[str, int],
) -> None:
    page = new_page(browser, lang, size)
    page.goto(server.base + "/")
    wait(page, "!!document.querySelector('#quicklevel option[value=strong]')")
    shot(page, "quick-home")
    page.select_option("#quicklevel", "strong")
    page.click("#quickgo")
    wait(page, "!!window.shengjiState && !!window.shengjiState.view", timeout=30_000)
    st = page.evaluate("window.shengjiState")
    assert st["you"]["seat"] == 0 and st["room"]["status"] == "playing"
    bots = [s["bot"] for s in st["room"]["seats"][1:]]
    listed = page.evaluate("fetch('/api/bots').then((r) => r.json())")
    strong = next(b["name"] for b in listed if b.get("difficulty") == "strong")
    assert bots == [strong] * 3
    level = "强" if lang == "zh" else "Strong"
    assert level in page.inner_text("#felt")
    assert not page.watch.errors, page.watch.errors
    page.context.close()


@SIZES
def test_the_join_form_names_bots_with_their_level_and_menus_are_whole(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    lang: str,
    size: dict[str, int],
) -> None:
    host = new_page(browser, lang, size)
    host.goto(server.base + "/")
    wait(host, "!!document.querySelector('#preset option[value=zhaopengyou]')")
    host.select_option("#preset", "zhaopengyou")
    wait(host, "document.querySelectorAll('.seatpick select').length === 6")
    host.select_option("#bot1", host.locator("#bot1 option").nth(3).get_attribute("value") or "")
    if size == DESKTOP:  # (a phone's two columns show the level; the menu, the rest)
        assert host.evaluate(CUT_SELECTS, ".seatpick select") == []
    # the rules form's check boxes are touch targets of 40 px
    host.click("#rulesform summary")
    assert (
        host.evaluate(SMALL, "#rulesform .tapbox, #rulesform .lvl, #settings, #lang, .check") == []
    )
    host.click("#create")
    host.wait_for_selector("#name")
    guest = new_page(browser, lang, size)
    guest.goto(host.url)
    guest.wait_for_selector("#joinseats")
    level = "普通" if lang == "zh" else "Normal"
    wait(guest, f"document.querySelector('#joinseats').innerText.includes('{level}')")
    host.fill("#name", "Ann")
    host.click("#join")
    wait(host, "window.shengjiState && window.shengjiState.room")
    if size == DESKTOP:
        assert host.evaluate(CUT_SELECTS, "select.botmenu") == []
    # the room's title whole on a phone; the chat's input and Send are 40 px
    title = host.locator("#roomtitle")
    assert host.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1", title.element_handle())
    assert ("找朋友" if lang == "zh" else "Finding friends") in title.inner_text()
    assert host.evaluate(SMALL, "#chat, #send, #ready, select.botmenu") == []
    shot(host, "join-lobby")
    for p in (host, guest):
        assert not p.watch.errors, p.watch.errors
        p.context.close()


def test_touch_targets_at_a_six_seat_table(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    page = new_page(browser, "zh", PHONE)
    room = make_room(server, page, preset="zhaopengyou", bots=[None] + ["heuristic"] * 5)
    join(page, server.base, room, "安")
    start_match(page)
    drive([page], lambda: bool((state(page) or {}).get("view", {}).get("tricks")), timeout=180)
    assert (
        page.evaluate(SMALL, "#lasttrick, #handlogbtn, #settings, #sound, #copy, #chat, #send")
        == []
    )
    assert page.evaluate(NO_SIDEWAYS)
    page.context.close()


def test_no_sideways_scrolling_while_the_connection_is_lost(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    srv = Server(tmp_path / "lost.db")
    try:
        page = new_page(browser, "en", PHONE)
        room = make_room(srv, page, preset="zhaopengyou", bots=[None] + ["heuristic"] * 5)
        join(page, srv.base, room, "Ann")
        start_match(page)
        wait(page, "!!window.shengjiState.view")
        srv.kill()
        page.wait_for_selector("#conn[data-status=lost]", timeout=10_000)
        assert page.evaluate(NO_SIDEWAYS), page.evaluate("document.documentElement.scrollWidth")
        box = page.locator("#conn").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1
        shot(page, "connection-lost")
        page.context.close()
    finally:
        srv.kill()
