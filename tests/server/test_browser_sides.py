"""找朋友 at six seats agrees on sides everywhere (issue 40): the person banks a one-hand
match; the Last-trick dialog, the felt's names, the status row's calls and the score sheet
colour everyone by the side known (never by seat); the friend found is told as joining
"your side"; a friend told on a phone lies over the felt instead of pushing the hand off
the screen; the Bury and Hint buttons stay on a 1280x800 screen while burying; the score
sheet's six columns and its review button fit the panel at both sizes; the result adds
no "= N" to a sum of one term and names no next banker once the match is over.

Screenshots: ``var/test-artifacts/*-sides-*.png``.
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

# (seat, class of its name) for every name of a selector's rows
NAMES = """(sel) => [...document.querySelectorAll(sel)].map((r) => [Number(r.dataset.seat),
  [...r.querySelector('.name').classList].find((c) => /^(side|team)/.test(c)) || ''])"""

# every element of a selector inside the box of another (nothing cut off)
INSIDE = """([inner, outer]) => {
  const o = document.querySelector(outer).getBoundingClientRect();
  return [...document.querySelectorAll(inner)].every((e) => {
    const r = e.getBoundingClientRect();
    return r.left >= o.left - 1 && r.right <= o.right + 1;
  });
}"""

ON_SCREEN = """(sel) => [...document.querySelectorAll(sel)].every((e) => {
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight + 1 && r.width > 0;
})"""

# the first row of the hand is on the screen, above a phone's fixed action bar
HAND_ON_SCREEN = """() => {
  const c = document.querySelector('#hand .card');
  const bar = document.querySelector('#actionbar');
  const fixed = bar && !bar.classList.contains('empty')
    && getComputedStyle(bar).position === 'fixed';
  const limit = fixed
    ? bar.getBoundingClientRect().top : innerHeight;
  return !c || c.getBoundingClientRect().bottom <= limit + 1;
}"""


def _phase(page: Any) -> str:
    st = state(page)
    return str(st["view"]["phase"]) if st and st.get("view") else ""


def _side_class(view: dict[str, Any], seat: int) -> str:
    side = view["sides"][seat]
    return f"side{side}" if side in (0, 1) else "sideu"


def _banks(srv: Server, page: Any, name: str, tables: int = 25) -> None:
    """New one-hand tables until the person banks (the first declarer banks; the person
    shows whenever it can); stops at the burial."""
    for _ in range(tables):
        room = make_room(srv, page, preset="zhaopengyou", overrides={"match_hands": 1}, bots=BOTS5)
        join(page, srv.base, room, name)
        start_match(page)
        drive([page], lambda: _phase(page) not in ("deal", "before_kitty"), declare=True)
        st = state(page)
        assert st is not None
        if st["view"]["banker"] == st["you"]["seat"]:
            return
    pytest.fail(f"the person did not bank in {tables} tables")


def _sides_agree(page: Any) -> None:
    """The felt's names and the Last-trick dialog's are coloured by the side known."""
    st = state(page)
    assert st is not None
    view = st["view"]
    for seat, cls in page.evaluate(NAMES, "#felt .seat"):
        assert cls == _side_class(view, seat), (seat, cls, view["sides"])
    page.click("#lasttrick")
    page.wait_for_selector("#lastdialog .trow")
    rows = page.evaluate(NAMES, "#lastdialog .trow")
    assert len(rows) == 6
    view = state(page)["view"]  # type: ignore[index]
    for seat, cls in rows:
        assert cls == _side_class(view, seat), (seat, cls, view["sides"])
    page.click("#closedialog")


@pytest.mark.parametrize(("lang", "size"), [("zh", PHONE), ("en", DESKTOP)])
def test_six_seats_agree_on_sides(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    lang: str,
    size: dict[str, int],
) -> None:
    page = new_page(browser, lang, DESKTOP)
    _banks(server, page, "安" if lang == "zh" else "Ann")
    # burying at 1280x800: the hand with the kitty, and Bury and Hint on the screen
    wait(page, "!!document.querySelector('#bury')")
    assert page.evaluate(ON_SCREEN, "#bury, #hintbtn")
    page.screenshot(path=str(ARTIFACTS / f"desktop-sides-bury{'-zh' if lang == 'zh' else ''}.png"))
    page.set_viewport_size(size)
    seen: dict[str, Any] = {"reveal": None, "checked": False}

    def until() -> bool:
        if seen["reveal"] is None and page.locator("#reveal .reveal-note").count():
            seen["reveal"] = page.evaluate(HAND_ON_SCREEN) if size == PHONE else True
            if size == PHONE:
                page.screenshot(path=str(ARTIFACTS / "phone-sides-reveal-zh.png"))
        view = (state(page) or {}).get("view") or {}
        known = any(s == 0 and i != view["banker"] for i, s in enumerate(view.get("sides") or []))
        if known and not seen["checked"] and view["tricks"] and _phase(page) == "play":
            _sides_agree(page)
            seen["checked"] = True
        return _phase(page) in ("hand_over", "match_over")

    drive([page], until, timeout=300)
    assert seen["checked"], "no friend was found in the hand"
    assert seen["reveal"] is not False, "the friend found pushed the hand off the screen"
    log = page.inner_text("#chatlog")
    assert ("和你一伙" if lang == "zh" else "joins your side") in log, log
    assert "you's" not in page.inner_text("body")
    wait(page, "window.shengjiState.view.phase === 'match_over'")
    st = state(page)
    assert st is not None
    view = st["view"]
    row = view["score_sheet"][-1]
    # the score sheet marks the banker's side as the result and the felt do
    for s in range(6):
        cls = page.locator(f'#sheet tbody tr:first-child td.pcol[data-seat="{s}"]').get_attribute(
            "class"
        )
        assert ("side0" in (cls or "")) == (s in row["banker_side"]), (s, cls, row)
    # a sum of one term is not "= N"; the match is over: no next banker
    breakdown = page.inner_text("#handresult .breakdown")
    assert ("=" in breakdown) == bool(row["kitty_multiplier"] or row["penalties"]), breakdown
    assert not page.locator("#nextbanker").count()
    assert ("下一局庄家" if lang == "zh" else "Next banker") not in page.inner_text("#resultbox")
    # six columns and the review button inside the panel, at both sizes
    for vp in (PHONE, DESKTOP):
        page.set_viewport_size(vp)
        page.wait_for_timeout(100)
        assert page.evaluate(INSIDE, ["#sheet th, #sheet td, #sheet .sheetreview", "#sheetbox"])
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    page.set_viewport_size(size)
    shot(page, "sides-result")
    assert not page.watch.errors, page.watch.errors
