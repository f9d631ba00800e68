"""The table on a phone: on your turn the trick, the first row of your hand and the Play
button share one screen without scrolling, at 360x740 and 390x844, in 双升 and in
classic-3deck (and on a 1280x800 desktop); touch targets are at least 40 px; nothing
scrolls sideways; a raised card leaves the suit labels readable.

Skips loudly without chromium. Screenshots of what the phone shows (the viewport only):
``var/test-artifacts/phone-turn-*.png``.
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
    start_match,
    state,
)

require_chromium()

PHONE_TALL = {"width": 390, "height": 844}
BOTS3 = [None, "heuristic", "heuristic", "heuristic"]

# What a thumb finds on the first screen: for each element, whether it is wholly inside the
# viewport and not covered (the point at the middle of its visible part is itself).
IN_VIEW = """
(sel) => {
  const W = innerWidth, H = innerHeight;
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > H || r.right > W) return false;
    const next = e.nextElementSibling;
    const nr = next && next.getBoundingClientRect();
    const right = nr && nr.top === r.top ? Math.min(r.right, nr.left) : r.right;
    const hit = document.elementFromPoint((r.left + right) / 2, (r.top + r.bottom) / 2);
    return !!hit && (hit === e || e.contains(hit));
  };
  return [...document.querySelectorAll(sel)].filter(visible).length;
}
"""

# The narrowest touch target among the elements (the part of a hand card not covered by
# the next one), as [width, height, what].
SMALLEST_TARGET = """
(sel) => {
  let worst = null;
  for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    if (r.width === 0) continue;
    const next = e.classList.contains('card') ? e.nextElementSibling : null;
    const nr = next && next.getBoundingClientRect();
    const w = nr && nr.top === r.top ? Math.min(r.width, nr.left - r.left) : r.width;
    const size = Math.min(w, r.height);
    if (!worst || size < worst[2]) worst = [w, r.height, size, e.id || e.className];
  }
  return worst;
}
"""


def _first_turn_after_a_lead(page: Any) -> bool:
    st = state(page)
    if not st or not st.get("view"):
        return False
    view = st["view"]
    return bool(view["phase"] == "play" and view["to_act"] == st["you"]["seat"] and view["trick"])


@pytest.mark.parametrize(
    ("size", "preset", "lang"),
    [
        (PHONE, "shuangsheng", "zh"),
        (PHONE, "classic-3deck", "en"),
        (PHONE_TALL, "shuangsheng", "en"),
        (DESKTOP, "shuangsheng", "en"),
    ],
    ids=["360-shuangsheng-zh", "360-classic3-en", "390-shuangsheng-en", "1280-shuangsheng-en"],
)
def test_a_turn_fits_one_phone_screen(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
    preset: str,
    lang: str,
) -> None:
    page = new_page(browser, lang, size)
    room = make_room(server, page, preset=preset, bots=BOTS3)
    join(page, server.base, room, "小明" if lang == "zh" else "Sam")
    start_match(page)
    drive([page], lambda: _first_turn_after_a_lead(page), timeout=120)
    page.evaluate("window.scrollTo(0, 0)")
    page.mouse.move(1, 1)
    page.wait_for_timeout(150)
    name = f"turn-{size['width']}-{preset}{'-zh' if lang == 'zh' else ''}"
    page.screenshot(path=str(ARTIFACTS / f"phone-{name}.png"))
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate(IN_VIEW, "#felt .play .card") >= 1, "no card of the trick on screen"
    assert page.evaluate(IN_VIEW, "#hand .card") >= 5, "fewer than 5 hand cards on screen"
    assert page.evaluate(IN_VIEW, "#play") == 1, "the Play button is not on screen"
    assert page.evaluate(IN_VIEW, "#hintbtn") == 1, "the Hint button is not on screen"
    assert page.title().startswith("▶"), page.title()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], f"the page scrolls sideways ({width}px)"
    for sel in ("#hand .card", "#actions button", "#lang", "#copy", "#sound", "#lasttrick"):
        worst = page.evaluate(SMALLEST_TARGET, sel)
        if worst is not None and size["width"] <= 600:  # a mouse needs less than a thumb
            assert worst[2] >= 40, f"{sel}: a touch target of {worst[0]:.0f}x{worst[1]:.0f} px"
    # the last row of the hand can still be reached above the fixed action bar
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(100)
    assert page.evaluate(IN_VIEW, "#hand .fan-group:last-child .card:last-child") == 1


def test_the_home_page_never_scrolls_sideways(server: Server, browser: Any) -> None:  # noqa: F811
    """With the rules open, for every preset: selects are as wide as the screen allows."""
    page = new_page(browser, "en", PHONE)
    page.goto(server.base + "/")
    page.wait_for_selector("#rulesform")
    presets = page.eval_on_selector_all("#preset option", "os => os.map(o => o.value)")
    page.click("#rulesform summary")
    for preset in presets:
        page.select_option("#preset", preset)
        page.wait_for_function(
            f"document.querySelector('#rulesform summary').textContent.length > 0 && "
            f"document.querySelector('#preset').value === '{preset}'"
        )
        if page.locator("#rulesform").get_attribute("open") is None:
            page.click("#rulesform summary")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{preset}: the home page is {width}px wide"
        controls = "#rulesform select, #rulesform input[type=number], #create"
        small = page.evaluate(SMALLEST_TARGET, controls)
        assert small is None or small[1] >= 36, f"{preset}: a control {small}"
        # a checkbox is tapped through its label too
        unlabelled = page.evaluate(
            "[...document.querySelectorAll('#rulesform .opt input[type=checkbox][id]')]"
            '.filter(b => !document.querySelector(`label[for="${b.id}"]`)).length'
        )
        assert unlabelled == 0
    page.context.close()


# Where a raised (selected) card, with its 2 px ring, overlaps a group's suit label, as
# [card, label, pixels of overlap] (none: []).
RAISED_OVER_LABELS = """
() => {
  const out = [];
  const labels = [...document.querySelectorAll('#hand .glabel')]
    .filter((l) => l.offsetParent && l.textContent);
  for (const c of document.querySelectorAll('#hand .card.sel')) {
    const r = c.getBoundingClientRect();
    for (const l of labels) {
      const q = l.getBoundingClientRect();
      const w = Math.min(r.right + 2, q.right) - Math.max(r.left - 2, q.left);
      const h = Math.min(r.bottom + 2, q.bottom) - Math.max(r.top - 2, q.top);
      if (w > 0 && h > 0) out.push([c.dataset.card, l.textContent, h]);
    }
  }
  return out;
}
"""


@pytest.mark.parametrize(
    ("size", "cards"),
    [(PHONE, "normal"), (DESKTOP, "normal"), (PHONE, "large"), (DESKTOP, "large")],
    ids=["360", "1280", "360-large", "1280-large"],
)
def test_a_raised_card_leaves_the_suit_labels_readable(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
    cards: str,
) -> None:
    page = new_page(browser, "en", size)
    page.add_init_script(
        "try { localStorage.setItem('shengji:settings', "
        f"JSON.stringify({{cardSize: '{cards}'}})) }} catch (e) {{}}"
    )
    room = make_room(server, page, preset="shuangsheng", bots=BOTS3)
    join(page, server.base, room, "Sam")
    start_match(page)
    drive([page], lambda: _first_turn_after_a_lead(page), timeout=120)
    # every card of the hand raised at once (as when choosing a long throw)
    page.evaluate(
        "window.shengjiRoom.selected = new Set([...document.querySelectorAll('#hand .card')]"
        ".map((_, i) => i).slice(1))"
    )
    page.locator("#hand .card").first.click(position={"x": 7, "y": 30})
    n = page.locator("#hand .card").count()
    page.wait_for_function(f"document.querySelectorAll('#hand .card.sel').length === {n}")
    page.mouse.move(1, 1)
    page.wait_for_timeout(150)  # the lift's transition
    assert page.locator("#hand .glabel:visible").count() >= 1
    covered = page.evaluate(RAISED_OVER_LABELS)
    page.screenshot(path=str(ARTIFACTS / f"phone-raised-{size['width']}-{cards}.png"))
    assert covered == [], f"raised cards cover suit labels: {covered[:5]}"
    assert not page.watch.errors, page.watch.errors


@pytest.mark.parametrize(
    ("lang", "big", "little"), [("zh", "大王", "小王"), ("en", "JOKER", "JOKER")]
)
def test_the_jokers_face_speaks_the_pages_language(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    lang: str,
    big: str,
    little: str,
) -> None:
    page = new_page(browser, lang, PHONE)
    page.goto(server.url)
    faces = page.evaluate(
        """async () => {
          const m = await import('/static/cards.js');
          const face = (c) => m.cardEl(c, {size: 'hand'}).querySelector('.pip');
          return ['BJ', 'LJ'].map((c) => face(c).textContent);
        }"""
    )
    assert faces == [big, little]
    page.close()


def test_a_long_play_stays_one_card_row_in_a_phone_seat(browser: Any) -> None:  # noqa: F811
    """A 3-deck throw or long tractor (7 to 12 cards) in a seat's play area stays one card
    row at 360 px: two rows per seat pushed the hand below the fold on your turn."""
    from pathlib import Path

    import shengji.server

    css = (Path(shengji.server.__file__).parent / "static" / "style.css").read_text()
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]

    def card(rank: str) -> str:
        return (
            f'<span class="card table"><span class="idx"><b>{rank}</b><i>♥</i></span>'
            '<span class="pip">♥</span></span>'
        )

    seats = "".join(
        "<div class='seat'><div class='who'>Bot</div><div class='play'>"
        f"<span class='row-cards table'>{''.join(card(r) for r in ranks[:n])}</span></div></div>"
        for n in range(1, 13)
    )
    page = browser.new_page(viewport=PHONE)
    page.set_content(f"<style>{css}</style><main><div class='felt n4'>{seats}</div></main>")
    rows = page.evaluate(
        """[...document.querySelectorAll('.row-cards')].map(r => new Set(
             [...r.children].map(c => Math.round(c.getBoundingClientRect().top))).size)"""
    )
    assert rows == [1] * 12, rows
    page.close()
