"""The browser table, piece by piece: burying with the kitty's cards marked and the kitty
to look at again, a dropped connection shown and resumed, the turn timer, the rules form
in Chinese, and the client's card rules (trumps, trick winner) against the engine.

Skips loudly without chromium.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shengji.rules.presets import load_preset
from shengji.words.option_help import option_fields

from .browser_support import (
    DESKTOP,
    PHONE,
    Server,
    act,
    browser,  # noqa: F401  (fixture)
    drive,
    join,
    make_room,
    my_turn,
    new_page,
    phase,
    require_chromium,
    server,  # noqa: F401  (fixture)
    shot,
    start_match,
    state,
    wait,
    watch_room,
)

require_chromium()

BOTS3 = [None, "heuristic", "heuristic", "heuristic"]
SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])


def test_banker_buries_with_the_kitty_marked(server: Server, browser: Any) -> None:  # noqa: F811
    """Four people: whoever declares becomes banker, sees the kitty's cards marked while
    burying, and can look at the buried kitty again."""
    pages = [new_page(browser, "en", PHONE) for _ in range(4)]
    room = make_room(server, pages[0], preset="shuangsheng", bots=[])
    for i, page in enumerate(pages):
        join(page, server.base, room, ["Ann", "Ben", "Cat", "Dan"][i])
    wait(pages[0], "window.shengjiState.room.seats.every(s => s.kind === 'human')")
    for page in pages[1:]:
        page.click("#ready")
    wait(pages[0], "window.shengjiState.room.seats.slice(1).every(s => s.ready)")
    start_match(pages[0])

    def burying() -> Any:
        for page in pages:
            st = state(page)
            if st and st.get("view") and st["view"]["phase"] == "bury" and my_turn(st):
                return page
        return None

    shots: set[str] = set()

    def on_turn(page: Any, st: dict[str, Any]) -> bool:
        if st["view"]["phase"] in ("deal", "before_kitty") and st.get("shows") and not shots:
            shots.add("declaring")
            page.wait_for_selector("#actions button.show")
            assert page.locator("#actions button.show .card").count() >= len(st["shows"])
            shot(page, "declaring")
        return False

    drive(pages, lambda: burying() is not None, declare=True, on_turn=on_turn)
    assert shots
    banker = burying()
    st = state(banker)
    assert st is not None
    kitty = load_preset("shuangsheng").kitty_size
    banker.wait_for_selector("#hand .card.fresh")
    assert banker.locator("#hand .card.fresh").count() == kitty
    picked = [k for k in st["view"]["seen_kitty"] if k["kind"] == "picked_up"][-1]["cards"]
    fresh = banker.evaluate(
        "[...document.querySelectorAll('#hand .card.fresh')].map(e => e.dataset.card)"
    )
    assert sorted(fresh) == sorted(picked.split())
    assert banker.locator("#hand .fan-group.trumps .card.trump").count() > 0
    decls = st["view"]["declarations"]
    assert banker.locator("#decls .decl").count() == len(decls)
    assert banker.locator("#decls .decl .card").count() == sum(
        len(d["cards"].split()) for d in decls
    )
    shot(banker, "burying")
    act(banker, st)
    wait(banker, "window.shengjiState.view.phase !== 'bury'")
    shown = state(banker)
    assert shown is not None
    buried = [k for k in shown["view"]["seen_kitty"] if k["kind"] == "buried"][-1]
    banker.click("#kittybtn")
    banker.wait_for_selector("#kittydialog")
    assert banker.locator("#kittydialog .card").count() >= len(buried["cards"].split())
    assert banker.locator("#kittydialog .kitty-line").last.locator(".card").count() == kitty
    banker.click("#closedialog")
    for page in pages:
        assert not page.watch.errors, page.watch.errors
        page.context.close()


@SIZES
def test_dropped_connection_is_shown_and_resumed(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    size: dict[str, int],
) -> None:
    srv = Server(tmp_path / "drop.db")
    try:
        page = new_page(browser, "en", size)
        room = make_room(srv, page, preset="classic-1deck", bots=BOTS3, turn_seconds=300)
        join(page, srv.base, room, "Solo")
        start_match(page)
        drive([page], lambda: phase(page) == "play" and my_turn(state(page)))
        page.wait_for_selector("#conn[data-status=open]")
        srv.kill()
        page.wait_for_selector("#conn[data-status=lost]", timeout=10_000)
        assert page.locator("#banner").is_visible()
        assert page.locator("#play").is_disabled()
        assert "Connection lost" in page.inner_text("#prompt")
        # the turn clock is not known while away: no stale (or red) count
        chip = page.locator('#felt .seat[data-seat="0"] .timer')
        wait(
            page,
            "document.querySelector('#felt .seat[data-seat=\"0\"] .timer')"
            ".innerText === 'reconnecting…'",
        )
        assert "urgent" not in (chip.get_attribute("class") or "")
        srv.restart()
        # retried once the server is back
        page.wait_for_selector("#conn[data-status=open]")
        assert chip.inner_text().endswith("s")
        wait(page, "!!window.shengjiState.view && window.shengjiState.view.phase === 'play'")
        assert page.locator("#banner").is_hidden()
        st = state(page)
        assert st is not None and my_turn(st)
        act(page, st)
        wait(page, f"window.shengjiState.rev > {st['rev']}")
        assert page.inner_text("#rule") == ""
        page.context.close()
    finally:
        srv.kill()


def test_turn_timer_counts_down(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, "en")
    room = make_room(server, page, preset="classic-1deck", bots=BOTS3, turn_seconds=30)
    join(page, server.base, room, "Timed")
    start_match(page)
    wait(page, "window.shengjiState.view.to_act === 0 && window.shengjiState.room.deadlines[0]")
    timer = page.locator('#felt .seat[data-seat="0"] .timer')
    timer.wait_for()
    first = int(timer.inner_text().rstrip("s"))
    assert 0 < first <= 30
    # it counts down (however long the page takes to redraw it)
    wait(
        page,
        f"parseInt(document.querySelector('#felt .seat[data-seat=\"0\"] .timer')"
        f".innerText) < {first}",
    )
    assert page.locator("#felt .timer").count() == 1
    page.context.close()


def test_rules_form_in_chinese(server: Server, browser: Any) -> None:  # noqa: F811
    page = new_page(browser, "zh")
    page.goto(server.base + "/")
    page.wait_for_selector("#rulesform")
    titles = page.eval_on_selector_all("#preset option", "os => os.map(o => o.textContent)")
    assert "双抠" in titles and "双升" in titles
    page.select_option("#preset", "shuangkou")
    page.wait_for_selector('#rulesform .opt[data-option="j_hook"]', state="attached")
    page.click("#rulesform summary")
    assert "002" in page.inner_text("#seednote")
    assert page.locator("#rulesform .opt").count() == len(option_fields())
    for name in option_fields():
        row = page.locator(f'#rulesform .opt[data-option="{name}"]')
        assert row.locator(".olabel").inner_text().strip()
        assert row.locator(".ohelp").inner_text().strip()
    assert page.inner_text('.opt[data-option="j_hook"] .olabel') == "钩底"
    page.uncheck("#opt-j_hook")
    page.fill("#opt-decks", "3")
    page.press("#opt-decks", "Tab")
    page.wait_for_selector('.opt.changed[data-option="decks"]')
    assert page.locator(".opt.changed").count() == 2
    shot(page, "rules-form")
    page.check("#publicroom")
    page.click("#create")
    page.wait_for_selector("#join")
    page.fill("#name", "小明")
    page.click("#join")
    wait(page, "window.shengjiState && window.shengjiState.room")
    st = state(page)
    assert st is not None
    assert st["room"]["preset"] == "shuangkou"
    assert st["room"]["overrides"] == {"j_hook": False, "decks": 3}
    assert "双抠" in page.inner_text("#roomtitle")
    # listed because the box was ticked; the host can unlist it
    room = st["room"]["id"]
    assert st["room"]["public"] is True
    assert any(r["id"] == room for r in json.loads(server.get("/api/rooms")[1]))
    page.uncheck("#public")
    wait(page, "window.shengjiState.room.public === false")
    assert all(r["id"] != room for r in json.loads(server.get("/api/rooms")[1]))
    status, _ = server.get("/static/favicon.svg")
    assert status == 200
    assert not page.watch.errors, page.watch.errors
    page.context.close()


def test_the_app_runs_under_its_own_content_security_policy(server: Server, browser: Any) -> None:  # noqa: F811
    """The other browser tests bypass the CSP (Playwright's waits need eval); this one
    keeps it: the page loads, connects its WebSocket and seats a person, with no
    violation reported."""
    made = server.post("/api/rooms", {"bots": [None, "heuristic", "heuristic", "heuristic"]})
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.goto(server.base + made["url"])
    page.get_by_text("Sit down").click()
    page.get_by_text("(you)").wait_for()
    page.get_by_text("connected").first.wait_for()
    assert not [m for m in console if "Content Security Policy" in m or "Refused" in m], console
    ctx.close()


def test_a_turn_is_announced_by_title_tone_and_vibration(server: Server, browser: Any) -> None:  # noqa: F811
    """The turn alert: the title says "▶ Your turn" (in Chinese too), a tone plays (muted
    with the ♪ button, remembered), a phone vibrates."""
    page = new_page(browser, "en", PHONE)
    page.add_init_script(
        "window.buzzes = 0; navigator.vibrate = () => { window.buzzes += 1; return true; };"
    )
    room = make_room(server, page, preset="classic-1deck", bots=BOTS3)
    join(page, server.base, room, "Ann")
    start_match(page)
    wait(page, "window.shengjiRoom && window.shengjiRoom.mine")
    assert page.title().startswith("▶ Your turn · ")
    assert page.evaluate("window.buzzes") >= 1 and page.evaluate("window.shengjiTones") >= 1
    box = page.locator("#sound").bounding_box()
    assert box is not None and box["width"] >= 40 and box["height"] >= 40
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    page.click("#sound")  # mute: remembered
    assert page.evaluate("localStorage.getItem('shengji:sound')") == "off"
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    tones, turns = page.evaluate("[window.shengjiTones, window.shengjiTurns]")
    # play on (a decision right after another is one turn) until a new turn comes
    drive([page], until=lambda: bool(page.evaluate(f"window.shengjiTurns > {turns}")))
    assert page.evaluate("window.shengjiTones") == tones  # muted: no new tone
    assert page.evaluate("window.buzzes") >= 2
    page.reload()
    wait(page, "window.shengjiState && window.shengjiState.view")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    assert "off" in (page.get_attribute("#sound", "class") or "")
    zh = new_page(browser, "zh", DESKTOP)
    room = make_room(server, zh, preset="classic-1deck", bots=BOTS3)
    join(zh, server.base, room, "安")
    start_match(zh)
    wait(zh, "window.shengjiRoom && window.shengjiRoom.mine")
    assert zh.title() == "▶ 轮到你 · 升级 · 拖拉机"
    shot(page, "turn-alert")
    shot(zh, "turn-alert")


THROW_NOTE = """async ([play, penalty]) => {
  const m = await import('/static/table.js');
  const room = {seats: ['Ann', 'Ben', 'Cat', 'Dan'].map((name) => ({kind: 'human', name})),
                options: {throw_penalty: penalty}};
  const view = {phase: 'play', trump: 'H', level: 2, banker: 0, to_act: 2,
                hand_sizes: [12, 11, 12, 12], trick: [{seat: 0, ...play}, {seat: 1, cards: 'S9'}],
                tricks: []};
  const felt = m.felt(view, room, 3);
  return [m.throwNote({seat: 0, ...play}, room).textContent,
          felt.querySelector('#thrownote') ? felt.querySelector('#thrownote').textContent : null,
          felt.querySelector('.ptag.fail').textContent];
}"""


# The felt of THROW_NOTE put in the page, in the room's layout: where its note is, how
# much of it is cut, and how much taller it makes the row of your seat.
FELT_IN_PAGE = """async ([play, penalty]) => {
  const m = await import('/static/table.js');
  const room = {seats: ['Ann', 'Ben', 'Cat', 'Dan'].map((name) => ({kind: 'human', name})),
                options: {throw_penalty: penalty}};
  const view = (p) => ({phase: 'play', trump: 'H', level: 2, banker: 0, to_act: 3,
                        hand_sizes: [12, 11, 12, 12], tricks: [],
                        trick: [{seat: 0, ...p}, {seat: 1, cards: 'S9'}]});
  const put = (p) => {
    const left = document.createElement('div'); left.className = 'room-left';
    left.append(m.felt(view(p), room, 3));
    document.querySelector('main').replaceChildren(left);
    return document.querySelector('#felt .pos-bottom').getBoundingClientRect().height;
  };
  const plain = put({cards: play.cards});
  const tall = put(play);
  const note = document.querySelector('#thrownote');
  const r = note.getBoundingClientRect();
  const cut = note.scrollWidth - note.clientWidth;
  return {width: r.width, right: r.right, cut, taller: tall - plain};
}"""

# The hand result's coins line in the page's language: its label and whether a Chinese
# word is in it.
COINS = """async (lang) => {
  const m = await import('/static/table.js');
  const room = {seats: ['Ann', 'Ben', 'Cat', 'Dan'].map((name) => ({kind: 'human', name})),
                options: {}};
  const row = {number: 0, banker: 0, side: 'banker', gain: 1, trick_points: 40, points: 40,
               penalties: 0, kitty_multiplier: 0, coins: [100, -100], levels_after: [3, 2],
               explain: {en: 'The banker side goes up 1.', zh: '庄家方升1级。'}};
  const view = {phase: 'hand_over', trump: 'H', level: 2, levels: [3, 2], score_sheet: [row]};
  const text = m.handResult(view, room).textContent;
  const label = lang === 'zh' ? '底金' : 'Coins';
  return [text.includes(label + ':') ? label : text, /[\u4e00-\u9fff]/.test(text)];
}"""


@SIZES
def test_a_failed_throw_is_explained_to_everyone(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
) -> None:
    """Who threw what, who could beat it, what was played instead and the penalty, on the
    table for every seat, in both languages, whole on the felt."""
    failed = {"cards": "S3", "attempted": "SA S3", "blocked_by": 1, "penalty": 10}
    page = new_page(browser, "en", size)
    page.goto(server.base + "/")
    note, on_felt, tag = page.evaluate(THROW_NOTE, [failed, "per_card"])
    assert note == (
        "Ann's throw ♠A\u00a0♠3 failed: Ben could beat part of it, so ♠3 was played. "
        "Penalty: the collectors get 10 points."
    )
    assert on_felt == note and tag == "throw ✗"
    stake = page.evaluate(THROW_NOTE, [{**failed, "penalty": 0}, "stake"])[0]
    assert stake.endswith("Penalty: the thrower's side pays half the stake.")
    # on a felt as wide as the page's, the note is read whole, beside your seat: the felt is
    # no taller for it (the hand stays on a phone's first screen)
    box = page.evaluate(FELT_IN_PAGE, [failed, "stake"])
    assert box["width"] > 0 and box["right"] <= size["width"] and box["cut"] == 0, box
    assert box["taller"] <= 1, box
    assert page.evaluate(COINS, "en") == ["Coins", False]
    zh = new_page(browser, "zh", size)
    zh.goto(server.base + "/")
    note, _, tag = zh.evaluate(THROW_NOTE, [{**failed, "penalty": -10}, "per_card"])
    assert note == "Ann 甩 ♠A\u00a0♠3 失败: Ben 管得住其中一部分, 改出 ♠3。 罚分: 抓分方扣 10 分。"
    assert tag == "甩✗"
    assert zh.evaluate(COINS, "zh") == ["底金", True]
    box = zh.evaluate(FELT_IN_PAGE, [failed, "stake"])
    assert box["width"] > 0 and box["right"] <= size["width"] and box["cut"] <= 0, box
    assert box["taller"] <= 1, box
    for p in (page, zh):
        assert not p.watch.errors, p.watch.errors
        p.context.close()


@SIZES
def test_a_timed_out_turn_is_told_in_the_chat_log(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
) -> None:
    """When the turn timer runs out, the table says what the bot played and for whom, in
    the page's language (it follows a change of language)."""
    page = new_page(browser, "en", size)
    room = make_room(server, page, preset="classic-1deck", bots=BOTS3, turn_seconds=3)
    join(page, server.base, room, "Ann")
    start_match(page)  # and never act: the timer moves for Ann (a show prompt: a pass)
    bot_moved = (
        "[...document.querySelectorAll('#chatlog .line.notice')]"
        ".find(e => e.textContent.includes('the bot'))"
    )
    wait(page, f"!!{bot_moved}", timeout=30_000)
    line = page.evaluate(f"{bot_moved}.textContent")
    assert "⚑ your time ran out: the bot " in line and line.endswith(" for you")
    # and where it happened: on the felt, beside the seat (a phone's chat is far below)
    note = page.locator("#felt #autonote")
    assert note.is_visible() and "your time ran out" in note.inner_text()
    box = note.bounding_box()
    assert box is not None and box["x"] + box["width"] <= size["width"]
    page.click("#lang")
    wait(page, "document.querySelector('#chatlog .line.notice').textContent.includes('超时')")
    shot(page, "timed-out-notice")


@SIZES
def test_moves_made_while_you_were_away_are_told_on_return(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
) -> None:
    """Ann leaves mid-hand; a bot plays her seat; back with her token, she is told how many
    moves were made for her, in the chat log, in her language."""
    page = new_page(browser, "zh", size)
    room = make_room(server, page, preset="classic-1deck", bots=BOTS3, away_seconds=0.3)
    join(page, server.base, room, "安")
    start_match(page)
    page.goto("about:blank")
    # the seat is handed to a bot, which plays for her
    turns = []

    def played_for_her(msg: dict[str, Any]) -> bool:
        if msg["room"]["seats"][0]["away"] and msg.get("view"):
            turns.append(msg["view"]["to_act"])
        return 0 in turns and turns[-1] != 0

    watch_room(server, room, played_for_her)
    page.goto(f"{server.base}/room/{room}")
    wait(page, "document.querySelector('#chatlog .line.notice') !== null", timeout=30_000)
    line = page.text_content("#chatlog .line.notice") or ""
    assert "你离开期间, 机器人替你走了" in line, line
    assert page.locator("#chatlog .line.notice").is_visible()
    assert "你离开期间" in page.inner_text("#felt #autonote")  # on the felt too
    page.click("#lang")
    wait(page, "document.querySelector('#chatlog .line.notice').textContent.includes('while')")
    assert "while you were away, the bot made" in (page.text_content("#chatlog .line.notice") or "")
    assert not page.watch.errors, page.watch.errors
    page.context.close()
