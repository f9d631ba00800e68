"""Choosing bot strength in the browser: the home page offers the bots of ``/api/bots`` by
difficulty with their description, the lobby shows which bot (and its level) sits in each
seat and lets the host add one, in English and in Chinese, and the table names the bots
with their level.

Skips loudly without chromium. Screenshots: ``var/test-artifacts/{desktop,phone}-bots-*.png``.
"""

from __future__ import annotations

import json
from typing import Any

from .browser_support import (
    PHONE,
    Server,
    body_text,
    browser,  # noqa: F401  (fixture)
    new_page,
    require_chromium,
    server,  # noqa: F401  (fixture)
    shot,
    wait,
)

require_chromium()


def _bots(srv: Server) -> dict[str, dict[str, Any]]:
    """The listed bot of each difficulty."""
    status, raw = srv.get("/api/bots")
    assert status == 200
    listed: dict[str, dict[str, Any]] = {}
    for b in json.loads(raw):
        if b["difficulty"] and b["difficulty"] not in listed:
            listed[b["difficulty"]] = b
    return listed


def _seat_text(page: Any, seat: int) -> str:
    """The level tag of a lobby seat's bot (as people other than the host see it)."""
    return str(page.inner_text(f'.lseat[data-seat="{seat}"] .botkind .level'))


def _menu_text(page: Any, seat: int) -> str:
    """The bot the host's menu of a seat shows."""
    return str(page.eval_on_selector(f"#botmenu{seat}", "s => s.selectedOptions[0].textContent"))


def test_a_strong_and_a_normal_bot_are_picked_and_seen_in_the_room(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    bots = _bots(server)
    strong, normal, easy = bots["strong"], bots["normal"], bots["easy"]
    page = new_page(browser, "en")
    page.goto(server.base + "/")
    page.wait_for_selector(f'#bot1 option[value="{strong["name"]}"]', state="attached")
    # seats 2-4 start with the normal bot; every level is offered, by its short name in English
    assert page.input_value("#bot1") == normal["name"]
    options = page.locator("#bot1 option").all_inner_texts()
    assert options[:4] == [
        "a person",
        f"Easy · {easy['label']['en']}",
        f"Normal · {normal['label']['en']}",
        f"Strong · {strong['label']['en']}",
    ]
    page.select_option("#bot1", strong["name"])
    page.select_option("#bot2", normal["name"])
    page.select_option("#bot3", "")  # an empty seat: the host adds a bot in the lobby
    assert page.inner_text("#botdesc1") == strong["description"]["en"]
    assert page.inner_text("#botdesc2") == normal["description"]["en"]
    assert page.inner_text("#botdesc3") == ""
    shot(page, "bots-home")

    page.click("#create")
    page.wait_for_selector("#join")
    page.fill("#name", "Alice")
    page.click("#join")
    wait(page, "window.shengjiState && window.shengjiState.you.host === true")
    room = page.evaluate("window.shengjiState.room.id")
    seats = page.evaluate("window.shengjiState.room.seats.map((s) => s.bot)")
    assert seats == [None, strong["name"], normal["name"], None]
    # the host sees each bot in the seat's menu, with its description
    page.wait_for_selector('.lseat[data-seat="1"] .botkind .botdesc')
    assert _menu_text(page, 1) == f"Strong · {strong['label']['en']}"
    assert _menu_text(page, 2) == f"Normal · {normal['label']['en']}"
    assert page.inner_text('.lseat[data-seat="1"] .botdesc') == strong["description"]["en"]

    # the host's menu of the empty seat adds the easy bot
    assert page.input_value("#botmenu3") == ""
    page.select_option("#botmenu3", easy["name"])
    wait(page, f"window.shengjiState.room.seats[3].bot === '{easy['name']}'")
    page.wait_for_selector('.lseat[data-seat="3"] .botkind')
    assert _menu_text(page, 3) == f"Easy · {easy['label']['en']}"
    shot(page, "bots-lobby")

    # a spectator in Chinese sees which bot sits where, and its level
    guest = new_page(browser, "zh", PHONE)
    guest.goto(f"{server.base}/room/{room}")
    guest.fill("#name", "小明")
    guest.click("#watch")
    guest.wait_for_selector('.lseat[data-seat="3"] .botkind .level')
    assert guest.locator("select.botmenu").count() == 0
    assert _seat_text(guest, 1) == f"强 · {strong['label']['zh']}"
    assert _seat_text(guest, 2) == f"普通 · {normal['label']['zh']}"
    assert _seat_text(guest, 3) == f"简单 · {easy['label']['zh']}"
    assert guest.inner_text('.lseat[data-seat="1"] .botdesc') == strong["description"]["zh"]
    shot(guest, "bots-lobby-guest")
    assert guest.watch.errors == [], guest.watch.errors

    page.click("#ready")
    wait(page, "!document.querySelector('#start').disabled")
    page.click("#start")
    wait(page, "window.shengjiState.view && document.querySelector('#felt')")
    felt = page.inner_text("#felt")
    assert "Bot 2 (Strong)" in felt and "Bot 3 (Normal)" in felt and "Bot 4 (Easy)" in felt
    wait(guest, "window.shengjiState.view && document.querySelector('#felt')")
    assert "机器人 2 (强)" in guest.inner_text("#felt")
    assert page.watch.errors == [], page.watch.errors
    assert "undefined" not in body_text(page)
