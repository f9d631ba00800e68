"""The hand log, the chat after a reload, the replay, hints and throws (issue 40), at
1280x800 and 360x740: the hand log has one row per trick (leader, plays, winner, points)
opening to its details; after a reload the chat log is in time order and keeps what the
table did by itself (a turn that timed out); the replay opens on your own seat; the
match's end names no next banker; a hint's cards are brought on screen on a phone; a
throw (甩牌) is never marked "✓ can be played" but warned about; a show button says what
it does (亮主, 上保险, 反主).

Screenshots: ``var/test-artifacts/*-handlog*.png``.
"""

from __future__ import annotations

from typing import Any

import pytest

from .browser_support import (
    DESKTOP,
    PHONE,
    Server,
    browser,  # noqa: F401  (fixture)
    click_cards,
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
SHOW_WORDS = {
    "first": ("Show", "亮主"),
    "reinforce": ("上保险", "上保险"),
    "counter": ("反主", "反主"),
}


def _view(page: Any) -> dict[str, Any]:
    st = state(page)
    assert st is not None and st.get("view")
    return dict(st["view"])


def _two_plain_singles(view: dict[str, Any]) -> list[str] | None:
    """Two cards of one plain suit that are no pair: a throw when led."""
    trumps = set(view["trumps"].split())
    by: dict[str, list[str]] = {}
    for c in view["hand"].split():
        if c not in trumps and c not in by.get(c[0], []):
            by.setdefault(c[0], []).append(c)
    for cards in by.values():
        ranks = "23456789" + "1JQKA"
        picked = sorted(cards, key=lambda c: ranks.index(c[1]))
        if len(picked) >= 3:
            return [picked[0], picked[2]]  # not adjacent: never a tractor
    return None


@SIZES
def test_hand_log_chat_replay_hint_and_throw(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    lang: str,
    size: dict[str, int],
) -> None:
    page = new_page(browser, lang, size)
    bots = ["heuristic", "heuristic", None, "heuristic"]
    room = make_room(
        server, page, preset="classic", overrides={"match_hands": 1}, bots=bots, turn_seconds=8
    )
    join(page, server.base, room, "Ann" if lang == "en" else "安")
    assert page.evaluate("window.shengjiState.you.seat") == 2
    start_match(page)
    seen = {"show": 0, "timeout": False, "hint": False, "throw": False}

    def on_turn(p: Any, st: dict[str, Any]) -> bool:
        for b in p.locator("#actions button.show").all():
            kind = b.get_attribute("data-kind") or ""
            assert SHOW_WORDS[kind][lang == "zh"] in b.inner_text(), (kind, b.inner_text())
            seen["show"] += 1
        view = st["view"]
        if view["phase"] != "play":
            return False
        if not seen["timeout"]:  # the turn runs out: the table plays, and says so
            wait(p, "document.querySelector('#chatlog .notice') !== null", 15_000)
            seen["timeout"] = True
            return True
        if not view["trick"] and not seen["throw"] and (two := _two_plain_singles(view)):
            click_cards(p, two)
            wait(
                p, "['throw', 'ok', 'error'].includes(document.querySelector('#rule').dataset.kind)"
            )
            assert p.locator("#rule").get_attribute("data-kind") == "throw"
            rule = p.inner_text("#rule")
            assert "甩牌" in rule and "✓" not in rule, rule
            p.click("#clear")
            seen["throw"] = True
        if not seen["hint"] and len(view["hand"].split()) > 15:
            p.click("#hintbtn")
            wait(
                p,
                "document.querySelector('#rule').dataset.kind === 'hint'"
                " && !window.shengjiRoom.hinting && document.querySelector('#hand .card.sel')",
                30_000,
            )
            on_screen = """() => [...document.querySelectorAll('#hand .card.sel')].every((c) => {
              const r = c.getBoundingClientRect(), bar = document.querySelector('#actionbar');
              const limit = getComputedStyle(bar).position === 'fixed'
                ? bar.getBoundingClientRect().top : innerHeight;
              return r.top >= 0 && r.bottom <= limit + 1; })"""
            assert p.locator("#hand .card.sel").count() > 0
            assert p.evaluate(on_screen), "the hint chose cards off the screen"
            p.click("#clear")
            seen["hint"] = True
        return False

    drive([page], lambda: len(_view(page).get("tricks") or []) >= 4, timeout=240, on_turn=on_turn)
    # the hand log: a row per trick, opening to its details
    page.keyboard.press("g")
    page.wait_for_selector("#handlog .logtrick")
    view = _view(page)
    done = len(view["tricks"])
    rows = page.locator("#handlog .logtrick")
    assert rows.count() == done + (1 if view["trick"] else 0)
    heights = page.evaluate(
        "[...document.querySelectorAll('#handlog .logrow')]"
        ".map((r) => r.getBoundingClientRect().height)"
    )
    shot(page, "handlog")
    # a row a trick: a single card each is one line; a throw's cards may take two
    assert max(heights) <= 110 and sorted(heights)[len(heights) // 2] <= (
        90 if size == PHONE else 50
    ), heights
    first = view["tricks"][0]
    row = page.locator('#handlog .logtrick[data-trick="1"]')
    assert row.locator(".lplay").count() == 4
    assert (row.locator(".lpts").inner_text() or "") == (
        f"+{first['points']}" if first["points"] else ""
    )
    assert not row.locator(".trick-rows").is_visible()
    row.locator("summary").click()
    assert row.locator(".trick-rows").is_visible()
    shot(page, "handlog")
    page.click("#closedialog")
    # a chat line, then a reload: the log in time order, the timed-out turn kept
    page.fill("#chat", "hello")
    page.click("#send")
    wait(page, "document.querySelector('#chatlog').innerText.includes('hello')")
    page.reload()
    wait(page, "document.querySelector('#chatlog').innerText.includes('hello')")
    times = page.evaluate(
        "[...document.querySelectorAll('#chatlog .line')].map((l) => Number(l.dataset.time))"
    )
    assert times == sorted(times), times
    log = page.inner_text("#chatlog")
    assert ("超时" if lang == "zh" else "time ran out") in log, log
    assert log.index("hello") > log.index("超时" if lang == "zh" else "time ran out")
    # to the end of the (one-hand) match: no next banker; the replay opens on your seat
    drive([page], lambda: _view(page)["phase"] == "match_over", timeout=300)
    result = page.inner_text("#resultbox")
    assert "next banker" not in result.lower() and "下一局庄家" not in result, result
    page.click("#replaylink")
    page.wait_for_selector("#replayseat")
    assert page.locator("#replayseat").input_value() == "2"
    assert seen["throw"] or seen["hint"], seen
    assert not page.watch.errors, page.watch.errors
    page.context.close()
