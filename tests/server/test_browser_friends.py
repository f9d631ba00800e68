"""找朋友 in the browser: one person and five bots at a six-seat table, a whole hand at
1280x800 (English) and at 360x740 (Chinese): the six seats around the felt, the banker's
friend-call dialog (tables are dealt until the person banks), who answered each call,
the friend revealed on the felt and in the chat, per-player levels and the score sheet
per player.

Skips loudly without chromium. Screenshots: ``var/test-artifacts/*-zpy-*.png``.
"""

from __future__ import annotations

from typing import Any

import pytest

from .browser_support import (
    ARTIFACTS,
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

BOTS5 = [None, "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"]

# Nothing on the page is wider than the viewport (no sideways scrolling).
NO_SIDEWAYS = "document.documentElement.scrollWidth <= innerWidth + 1"

# Every seat of the felt wholly inside the felt, none overlapping another.
SEATS_APART = """
() => {
  const f = document.querySelector('#felt').getBoundingClientRect();
  const r = [...document.querySelectorAll('#felt .seat')].map((e) => e.getBoundingClientRect());
  const inside = r.every((a) => a.left >= f.left - 1 && a.right <= f.right + 1
    && a.top >= f.top - 1 && a.bottom <= f.bottom + 1);
  const off = (a, b) => a.right <= b.left + 1 || b.right <= a.left + 1
    || a.bottom <= b.top + 1 || b.bottom <= a.top + 1;
  const apart = r.every((a, i) => r.every((b, j) => i === j || off(a, b)));
  return [r.length, inside, apart];
}
"""


def _phase(page: Any) -> str:
    st = state(page)
    return str(st["view"]["phase"]) if st and st.get("view") else ""


def _play_a_hand(page: Any, lang: str, size: dict[str, int]) -> bool:
    tag = f"{'desktop' if size == DESKTOP else 'phone'}-{lang}"
    seen: dict[str, Any] = {"dialog": False, "calls": False, "shot_play": False}

    def on_turn(p: Any, st: dict[str, Any]) -> bool:
        view = st["view"]
        if view["phase"] == "call":
            # the dialog opened by itself: one select per call, the suggestion chosen
            wait(p, "!!document.querySelector('#calldialog')")
            assert p.locator("#calldialog .callslot").count() == 2
            assert p.locator("#callcard0 option").count() >= 30
            p.screenshot(path=str(ARTIFACTS / f"{tag}-zpy-call.png"), full_page=False)
            assert p.evaluate(NO_SIDEWAYS)
            # a hostile choice (the same call twice) is flagged before it is sent
            first = p.locator("#callcard0").input_value()
            p.select_option("#callcard1", first)
            p.select_option("#callord1", p.locator("#callord0").input_value())
            assert p.locator("#callsays1 .warn").count() == 1
            p.select_option(
                "#callord1", "3" if p.locator("#callord0").input_value() != "3" else "2"
            )
            rev = st["rev"]
            p.click("#callgo")
            wait(p, f"window.shengjiState.rev > {rev}")
            seen["dialog"] = True
            return True
        if (
            view["phase"] == "play"
            and view.get("calls")
            and not seen["shot_play"]
            and view["trick"]
        ):
            seen["shot_play"] = True
            p.screenshot(path=str(ARTIFACTS / f"{tag}-zpy-play.png"), full_page=False)
        return False

    drive(
        [page],
        lambda: _phase(page) in ("hand_over", "match_over"),
        timeout=240,
        declare=True,
        on_turn=on_turn,
    )
    st = state(page)
    assert st is not None
    view = st["view"]
    assert view["players"] == 6 and len(view["calls"]) == 2
    # the calls are shown with who answered each
    calls_text = page.inner_text("#calls")
    for c in view["calls"]:
        if c["seat"] is not None:
            name = "你" if c["seat"] == st["you"]["seat"] and lang == "zh" else None
            assert name is None or name in calls_text
    assert page.locator("#calls .call").count() == 2
    # a friend found was told in the chat log (the felt's note lasts a few seconds)
    log = page.inner_text("#chatlog")
    called = "叫朋友" if lang == "zh" else " call"
    assert called in log, log
    found = [c for c in view["calls"] if c["seat"] is not None and c["seat"] != view["banker"]]
    if found:
        assert ("朋友" if lang == "zh" else "friend") in log
    # six seats around the felt, apart; per-player levels on the seats and in the result
    count, inside, apart = page.evaluate(SEATS_APART)
    assert count == 6 and inside and apart
    assert page.locator("#felt .plevel").count() == 6
    wait(page, "!!document.querySelector('#handresult .plevels')")
    assert page.locator("#handresult .plv").count() == 6
    assert page.locator("#sheet tbody tr:not(.now)").count() == 1
    assert page.evaluate(NO_SIDEWAYS)
    shot(page, "zpy-result")
    assert not page.watch.errors, page.watch.errors
    return bool(seen["dialog"])


@pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("zh", PHONE)])
def test_a_six_seat_friends_hand(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    lang: str,
    size: dict[str, int],
) -> None:
    page = new_page(browser, lang, size)
    _until_the_person_banks(server, page, lang)
    assert _play_a_hand(page, lang, size), "the call dialog was not used"


def _until_the_person_banks(srv: Server, page: Any, lang: str, tables: int = 25) -> None:
    """New tables until the person banks the first hand (the first declarer banks, and the
    person shows whenever it can), stopped at the banker's call: the dialog is then tried.
    A table where a bot banks is left at its call."""
    for _ in range(tables):
        room = make_room(srv, page, preset="zhaopengyou", overrides={"match_hands": 2}, bots=BOTS5)
        join(page, srv.base, room, "Ann" if lang == "en" else "安")
        assert page.locator("#lobby .lseat").count() == 6
        start_match(page)
        drive([page], lambda: _phase(page) not in ("deal", "before_kitty", "bury"), declare=True)
        st = state(page)
        assert st is not None
        if st["view"]["banker"] == st["you"]["seat"]:
            return
    pytest.fail(f"the person did not bank the first hand of {tables} tables")


def test_the_create_form_offers_a_seat_per_player(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    page = new_page(browser, "en", PHONE)
    page.goto(server.base + "/")
    wait(page, "!!document.querySelector('#preset option[value=zhaopengyou]')")
    assert page.locator(".seatpick select").count() == 4
    page.select_option("#preset", "zhaopengyou")
    wait(page, "document.querySelectorAll('.seatpick select').length === 6")
    assert "Team" not in page.inner_text("#seatpick")
    page.click("#rulesform summary")
    page.fill("#opt-players", "8")
    page.locator("#opt-players").dispatch_event("change")
    wait(page, "document.querySelectorAll('.seatpick select').length === 8")
    page.select_option("#bot7", "random")
    page.click("#create")
    wait(page, "!!(window.shengjiRoom && window.shengjiRoom.id)")
    page.wait_for_selector("#name")
    page.fill("#name", "Ann")
    page.click("#join")
    wait(page, "window.shengjiState && window.shengjiState.room")
    assert page.locator("#lobby .lseat").count() == 8
    assert page.evaluate(NO_SIDEWAYS)
    assert not page.watch.errors, page.watch.errors
