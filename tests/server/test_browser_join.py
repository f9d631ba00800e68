"""What a link tells before and after joining, at 360x740 and 1280x800: a table that does
not exist says so at once (room and replay links); the join form and the lobby show the
rules the host changed, the turn timer and the seats; a started match offers watching;
declarations are named by what they did; the chat box is labelled in the page's language.

Skips loudly without chromium.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .browser_support import (
    DESKTOP,
    PHONE,
    Server,
    browser,  # noqa: F401  (fixture)
    join,
    make_room,
    new_page,
    require_chromium,
    server,  # noqa: F401  (fixture)
    shot,
    start_match,
    wait,
)

require_chromium()

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])


@SIZES
def test_a_link_to_no_table_says_so_at_once(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
) -> None:
    page = new_page(browser, "zh", size)
    page.goto(server.base + "/room/nosuchroom123")
    page.wait_for_selector("#nosuchroom")
    assert "这张牌桌不存在" in page.inner_text("#nosuchroom")
    assert page.locator("#name").count() == 0
    assert page.locator("#home").get_attribute("href") == "/"
    page.goto(server.base + "/replay/nosuchroom123")
    page.wait_for_selector("#replaymsg")
    assert page.get_attribute("#replaymsg", "data-code") == "NO_ROOM"
    assert page.inner_text("#replaymsg") in ("这张牌桌不存在。", "没有这个房间")
    page.context.close()


@SIZES
def test_the_join_form_and_lobby_show_the_tables_rules(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
) -> None:
    host = new_page(browser, "en", size)
    room = make_room(
        server,
        host,
        preset="shuangsheng",
        overrides={"decks": 3, "throw_penalty": "none"},
        bots=[None, None, "heuristic", "heuristic"],
        turn_seconds=25,
        hints=False,
    )
    status, body = server.get(f"/api/rooms/{room}")
    info = json.loads(body)
    assert status == 200 and info["overrides"] == {"decks": 3, "throw_penalty": "none"}
    assert info["turn_seconds"] == 25 and info["hints"] is False and info["status"] == "lobby"
    assert "host_key" not in info and all("token" not in s for s in info["seats"])
    guest = new_page(browser, "zh", size)
    guest.goto(f"{server.base}/room/{room}")
    guest.wait_for_selector("#tablerules .changed-rule")
    rules = guest.inner_text("#tablerules")
    assert "房主改了 2 条规则" in rules and "副数" in rules and "3" in rules
    assert "原规则: 2" in rules  # the preset's own value beside the changed one
    assert "25 秒" in guest.inner_text("#tabletimer") and "不允许提示" in rules
    assert guest.locator("#join").is_visible()
    shot(guest, "join-form")
    join(host, server.base, room, "Host")
    host.wait_for_selector("#lobby #tablerules .changed-rule")
    assert "25 s" in host.inner_text("#lobby #tabletimer")
    assert host.locator('#lobby .changed-rule[data-option="throw_penalty"]').count() == 1
    for page in (guest, host):  # the host's lobby has a bot menu per seat
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"the page scrolls sideways ({width}px)"
    for page in (host, guest):
        assert not page.watch.errors, page.watch.errors
        page.context.close()


@SIZES
def test_a_started_match_offers_watching(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
) -> None:
    """A late guest is offered watching (in words without terminal flags); the table counts
    the spectators connected now; seat names are whole."""
    host = new_page(browser, "en", size)
    room = make_room(
        server, host, preset="shuangsheng", bots=[None, "heuristic", "heuristic", "heuristic"]
    )
    join(host, server.base, room, "Host")
    start_match(host)
    late = new_page(browser, "zh", size)
    late.goto(f"{server.base}/room/{room}")
    late.wait_for_selector("#joinmsg")
    assert late.inner_text("#joinmsg") == "比赛已经开始, 可以观战。"
    assert "--" not in late.inner_text("body")
    assert late.locator("#join").count() == 0
    late.fill("#name", "看客")
    late.click("#watch")
    wait(late, "window.shengjiState && window.shengjiState.you.seat === null")
    assert late.get_attribute("#chat", "aria-label") == "聊天"
    assert late.inner_text("#chattitle") == "聊天" and late.inner_text("#send") == "发送"
    # the spectator is counted while connected, on every page
    host.wait_for_selector("#conn .specs")
    assert host.inner_text("#conn .specs").strip(" ·") == "1 watching"
    assert host.locator("#conn .specs").is_visible()
    assert late.inner_text("#conn .specs").strip(" ·") == "1 人观战"
    # every seat's name is whole: "Bot 2 (Normal)", not "Bot 2 (Norm…"
    for page in (host, late):
        names = page.eval_on_selector_all(
            "#felt .seat .who .name",
            "es => es.map(e => [e.textContent, e.scrollWidth - e.clientWidth])",
        )
        assert len(names) == 4 and sum("(Normal)" in n or "(普通)" in n for n, _ in names) == 3
        assert all(cut <= 0 for _, cut in names), names
    late.click("#lang")
    wait(late, "document.querySelector('#chat').getAttribute('aria-label') === 'Chat'")
    late.goto("about:blank")  # gone: no longer counted
    host.wait_for_selector("#conn .specs", state="detached")
    assert not host.watch.errors, host.watch.errors
    for page in (host, late):
        page.context.close()


def test_declarations_are_named_by_what_they_did(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, "en", DESKTOP)
    page.goto(server.base + "/")
    page.wait_for_selector("#rulesform")
    kinds = page.evaluate(
        """async () => {
          const m = await import('/static/table.js');
          const d = [{seat: 0, cards: 'H2'}, {seat: 0, cards: 'H2 H2'}, {seat: 0, cards: 'S2 S2'},
                     {seat: 1, cards: 'LJ LJ'}];
          return d.map((_, i) => m.declKind(d, i));
        }"""
    )
    assert kinds == ["declared", "reinforced (上保险)", "changed suit (改主)", "countered (反主)"]
    page.context.close()
