"""Two people in two browsers plus two bots play a whole hand by clicking, at desktop size
in English and at phone size in Chinese: the rules form, the lobby, chat during bot turns
(the draft survives), readable tricks, the last trick, errors in the page's language,
trumps marked, keyboard play, the score sheet, "next hand" waiting for every person, a
room that waits for absent people, the match end, the record and the replayer.

Skips loudly without chromium. Screenshots: ``var/test-artifacts/{desktop,phone}-*.png``.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from typing import Any

import pytest

from shengji.rules.cards import parse_cards
from shengji.rules.follow import is_legal_follow
from shengji.rules.options import RuleOptions
from shengji.rules.presets import load_preset
from shengji.rules.trump import TrumpContext
from shengji.rules.units import classify_lead

from .browser_support import (
    DESKTOP,
    PHONE,
    Server,
    act,
    body_text,
    browser,  # noqa: F401  (fixture)
    click_card,
    drive,
    my_turn,
    new_page,
    phase,
    require_chromium,
    server,  # noqa: F401  (fixture)
    shot,
    state,
    wait,
)

require_chromium()

RAW_CODE = re.compile(r"\b[A-Z]{3,}_[A-Z_]+\b")
SUITS = "♠♥♣♦"


def _ctx(st: dict[str, Any]) -> TrumpContext:
    room = st["room"]
    opts = load_preset(room["preset"], room["overrides"] or None)
    return TrumpContext(opts, st["view"]["level"], st["view"]["trump"] or "NT")


def _illegal_single(st: dict[str, Any]) -> str | None:
    """A card whose selection alone is not a legal follow (to see the explanation)."""
    view = st["view"]
    if not view["trick"] or len(view["trick"][0]["cards"].split()) != 1:
        return None
    ctx = _ctx(st)
    hand = parse_cards(view["hand"])
    lead = classify_lead(ctx, parse_cards(view["trick"][0]["cards"]))
    for c in hand:
        if not is_legal_follow(ctx, lead, hand, (c,)):
            return c.text
    return None


def _bad_choice(st: dict[str, Any]) -> str | None:
    """One card that is not a legal play now: an illegal single follow, or one card
    against a lead of several (the wrong count)."""
    view = st["view"]
    if not view["trick"]:
        return None
    if len(view["trick"][0]["cards"].split()) > 1:
        return str(view["hand"].split()[0])
    return _illegal_single(st)


class Checks:
    """What the test saw happen along the hand (each checked once)."""

    def __init__(self) -> None:
        self.done: set[str] = set()

    def once(self, name: str) -> bool:
        if name in self.done:
            return False
        self.done.add(name)
        return True


def _create_with_form(page: Any, base: str, lang: str, match_hands: int) -> str:
    """Alice makes the table through the home page: rules form, seats, create."""
    page.goto(base + "/")
    page.wait_for_selector("#rulesform")
    assert page.input_value("#preset") == "shuangsheng"
    page.click("#rulesform summary")
    assert page.locator("#rulesform .opt").count() == len(fields(RuleOptions)) - 1  # not name
    seed = page.inner_text("#seednote")
    assert "000" in seed
    page.fill("#opt-match_hands", str(match_hands))
    page.press("#opt-match_hands", "Tab")
    page.wait_for_selector('.opt.changed[data-option="match_hands"]')
    page.select_option("#bot1", "")  # seat 2 is a person: Bob
    page.click("#create")
    page.wait_for_selector("#join")
    page.fill("#name", "Alice" if lang == "en" else "小红")
    page.click("#join")
    wait(page, "window.shengjiState && window.shengjiState.you.host === true")
    room: str = page.evaluate("window.shengjiState.room.id")
    return room


@pytest.mark.parametrize(
    ("size", "lang"), [(DESKTOP, "en"), (PHONE, "zh")], ids=["desktop-en", "phone-zh"]
)
@pytest.mark.slow  # over 10 s
def test_two_people_play_a_hand(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    size: dict[str, int],
    lang: str,
) -> None:
    desktop = size == DESKTOP
    alice = new_page(browser, lang, size)
    bob = new_page(browser, lang, size)
    room = _create_with_form(alice, server.base, lang, match_hands=2 if desktop else 1)
    st = state(alice)
    assert st is not None and st["room"]["options"]["match_hands"] == (2 if desktop else 1)

    # Bob follows the invite link
    link = alice.inner_text("#invitelink")
    assert link.endswith(f"/room/{room}")
    bob.goto(link)
    bob.fill("#name", "Bob" if lang == "en" else "小明")
    bob.click("#join")
    wait(alice, "window.shengjiState.room.seats[1].kind === 'human'")

    # the lobby: Start stays disabled until everyone is ready; a refused start stays shown
    assert alice.locator("#start").is_disabled()
    assert alice.locator("#startwhy").is_visible()
    alice.evaluate("window.shengjiRoom.link.send({type: 'start'})")
    alice.wait_for_function("document.querySelector('#lobbymsg').textContent.length > 0")
    refused = alice.inner_text("#lobbymsg")
    assert not RAW_CODE.search(refused), refused
    shown = state(alice)
    assert shown is not None
    rev = shown["rev"]
    bob.click("#ready")
    wait(alice, f"window.shengjiState.rev > {rev} && window.shengjiState.room.seats[1].ready")
    assert alice.inner_text("#lobbymsg") == refused, "the lobby error was wiped by an update"
    shot(alice, "lobby")
    alice.click("#ready")
    wait(alice, "!document.querySelector('#start').disabled")
    assert alice.inner_text("#lobbymsg") == ""
    alice.click("#start")
    wait(alice, "window.shengjiState.view && window.shengjiState.room.status === 'playing'")
    wait(bob, "window.shengjiState && window.shengjiState.view")

    spectator = None
    if desktop:  # a spectator watches the table: no hand, names everywhere
        spectator = new_page(browser, lang, size)
        spectator.goto(f"{server.base}/room/{room}")
        spectator.fill("#name", "Carol")
        spectator.click("#watch")
        wait(spectator, "window.shengjiState && window.shengjiState.view")
        spectator.wait_for_selector("#felt")
        assert spectator.locator("#handpanel").is_hidden()
        assert "Alice" in spectator.inner_text("#felt") and "Bob" in spectator.inner_text("#felt")

    seen = Checks()
    alice_name = "Alice" if lang == "en" else "小红"
    bob_name = "Bob" if lang == "en" else "小明"

    def on_turn(page: Any, st: dict[str, Any]) -> bool:
        view = st["view"]
        is_alice = page is alice
        if is_alice and view["phase"] in ("deal", "before_kitty") and seen.once("declaring"):
            shot(alice, "declaring")
        if view["phase"] != "play":
            return False
        if len(view["trick"]) == 3 and len(view["hand"].split()) > 1 and seen.once("held"):
            _check_finished_trick_stays(page, st)  # takes the turn
            return True
        if not is_alice:
            if seen.once("chat"):
                _chat_while_others_play(alice, bob, st)  # Bob's turn is taken there
                return True
            return False
        _check_hand_marks(alice, st, seen)
        if view["trick"] and seen.once("mid-trick"):
            _check_trick_on_table(alice, st)
            shot(alice, "mid-trick")
        if view["tricks"] and seen.once("last-trick"):
            _check_last_trick(alice, st, alice_name, bob_name)
        if "explained" not in seen.done and _bad_choice(st):
            _check_rule_error(alice, st, lang)
            seen.done.add("explained")
        if desktop and "keyboard" not in seen.done and _keyboard_turn(alice, st):
            seen.done.add("keyboard")
            return True
        return False

    pages = [alice, bob]
    drive(pages, lambda: phase(alice) in ("hand_over", "match_over"), on_turn=on_turn)
    assert {"chat", "mid-trick", "last-trick", "held", "explained"} <= seen.done, seen.done
    if desktop:
        assert "keyboard" in seen.done
    wait(bob, "['hand_over', 'match_over'].includes(window.shengjiState.view.phase)")

    st = state(alice)
    assert st is not None
    result = st["view"]["score_sheet"][0]
    alice.wait_for_selector("#handresult")
    text = alice.inner_text("#handresult")
    assert str(result["points"]) in text
    assert result["explain"][lang][:10] in text
    assert "null" not in body_text(alice) and "undefined" not in body_text(alice)
    kitty = st["view"]["kitty"].split()
    assert alice.locator("#handresult .kitty-line .card").count() == len(kitty)

    if desktop:
        _next_hand_waits_for_everyone(server, alice, bob, spectator, bob_name)
    else:
        _match_end(server, alice, room, lang)

    width = alice.evaluate("document.documentElement.scrollWidth")
    assert width <= alice.viewport_size["width"], f"the page scrolls sideways ({width}px)"
    for page in (alice, bob, spectator):
        if page is not None:
            assert not page.watch.errors, page.watch.errors
            page.context.close()


def _chat_while_others_play(alice: Any, bob: Any, st: dict[str, Any]) -> None:
    """Alice types while Bob and the bots play: the draft and the focus survive."""
    alice.click("#chat")
    alice.keyboard.type("a draft that survives ")
    shown = state(alice)
    assert shown is not None
    rev = shown["rev"]
    act(bob, st)  # Bob plays; the bots follow at once: several updates reach Alice
    # until the bots are done (a person's turn, or the trick or hand is over)
    wait(
        alice,
        f"window.shengjiState.rev > {rev} && (() => {{ const s = window.shengjiState;"
        " const who = s.room.seats[s.view.to_act];"
        " return !who || who.kind === 'human'; })()",
    )
    assert alice.input_value("#chat") == "a draft that survives "
    assert alice.evaluate("document.activeElement.id") == "chat"
    alice.keyboard.type("bot turns")
    alice.keyboard.press("Enter")
    wait(bob, "document.querySelector('#chatlog').textContent.includes('survives bot turns')")
    assert alice.input_value("#chat") == ""
    long_word = "長" * 5 + "x" * 300
    bob.fill("#chat", long_word)
    bob.press("#chat", "Enter")
    wait(alice, f"document.querySelector('#chatlog').textContent.includes('{long_word[:40]}')")
    log = alice.locator("#chatlog")
    sizes = log.evaluate(
        "e => [e.scrollWidth, e.clientWidth, e.scrollTop + e.clientHeight, e.scrollHeight]"
    )
    assert sizes[0] <= sizes[1] + 1, "a long word overflows the chat"
    assert sizes[2] >= sizes[3] - 2, "the chat is not scrolled to the newest line"


def _check_hand_marks(page: Any, st: dict[str, Any], seen: Checks) -> None:
    """Trumps are grouped apart and marked; suit groups are separate."""
    if st["view"]["trump"] is None or not seen.once("trumps"):
        return
    ctx = _ctx(st)
    hand = parse_cards(st["view"]["hand"])
    trumps = sum(1 for c in hand if ctx.is_trump(c))
    page.wait_for_selector("#hand .fan-group")
    assert page.locator("#hand .fan-group.trumps .card.trump").count() == trumps
    assert page.locator("#hand .card.trump").count() == trumps
    suits = {ctx.effective_suit(c) for c in hand}
    assert page.locator("#hand .fan-group").count() == len(suits)


def _check_trick_on_table(page: Any, st: dict[str, Any]) -> None:
    """Every play of the trick sits by its seat's name; one play is marked as winning."""
    page.wait_for_selector("#felt .seat")
    trick = st["view"]["trick"]
    for p in trick:
        seat = page.locator(f'#felt .seat[data-seat="{p["seat"]}"]')
        assert seat.locator(".play .card").count() == len(p["cards"].split())
        names = [s["name"] for s in st["room"]["seats"]]
        if st["room"]["seats"][p["seat"]]["kind"] == "human":
            assert names[p["seat"]] in seat.inner_text()
    assert page.locator("#felt .ptag.win").count() == 1
    assert page.locator("#felt .ptag.lead").count() == 1


def _check_finished_trick_stays(page: Any, st: dict[str, Any]) -> None:
    """A person plays the fourth card: the finished trick stays on the table with its
    winner named, even when a bot leads the next one at once.

    The hold lasts about a second; a loaded machine may read the page after it, so an
    observer records what the felt showed meanwhile: the note naming the trick's winner,
    and the most cards a finished trick showed."""
    page.evaluate(
        """(before) => {
        window.__doneCards = 0;
        window.__trickNote = null;
        const look = () => {
          const st = window.shengjiState;
          if (!st || !st.view || st.view.tricks.length <= before) return;  // not yet
          const n = document.querySelectorAll('#felt .seat .play.done .card').length;
          window.__doneCards = Math.max(window.__doneCards, n);
          const note = document.querySelector('#tricknote');
          if (note && window.__trickNote === null) window.__trickNote = note.innerText;
        };
        window.__feltObserver = new MutationObserver(look);
        window.__feltObserver.observe(document.body, {childList: true, subtree: true});
      }""",
        len(st["view"]["tricks"]),
    )
    act(page, st)
    page.wait_for_function("window.__trickNote !== null")
    after = state(page)
    assert after is not None
    winner = after["view"]["tricks"][-1]["winner"]
    seat = after["room"]["seats"][winner]
    name = seat["name"] if seat["kind"] == "human" else str(winner + 1)
    assert name in page.evaluate("window.__trickNote")
    if not my_turn(after):  # else the new trick is drawn, and the winner still named
        assert page.evaluate("window.__doneCards") >= 4
    page.evaluate("window.__feltObserver.disconnect()")


def _check_last_trick(page: Any, st: dict[str, Any], alice: str, bob: str) -> None:
    """Any player can open the last trick: names, cards, the winner."""
    last = st["view"]["tricks"][-1]
    page.click("#lasttrick")
    page.wait_for_selector("#lastdialog")
    rows = page.locator("#lastdialog .trow")
    assert rows.count() == 4
    text = page.inner_text("#lastdialog")
    assert alice in text and bob in text
    won = page.locator("#lastdialog .trow.won")
    assert won.count() == 1 and won.get_attribute("data-seat") == str(last["winner"])
    for p in last["plays"]:
        row = page.locator(f'#lastdialog .trow[data-seat="{p["seat"]}"]')
        assert row.locator(".card").count() == len(p["cards"].split())
    shot(page, "last-trick")
    page.click("#closedialog")
    page.wait_for_selector("#lastdialog", state="detached")


def _check_rule_error(page: Any, st: dict[str, Any], lang: str) -> None:
    """An illegal play is explained once, next to the hand, in the page's language."""
    bad = _bad_choice(st)
    assert bad is not None
    click_card(page, f'#hand .card[data-card="{bad}"]:not(.sel)')
    page.click("#play")
    page.wait_for_function("document.querySelector('#rule').textContent.length > 0")
    text = page.inner_text("#rule")
    assert not RAW_CODE.search(text), f"a raw error code is shown: {text}"
    code = page.get_attribute("#rule", "data-code")
    if code == "MUST_FOLLOW_SUIT":  # the suit is named with its symbol or name
        assert any(s in text for s in SUITS) or any(
            w in text for w in ("黑桃", "红桃", "梅花", "方块", "主", "trump")
        ), text
    if lang == "zh":
        assert re.search(r"[\u4e00-\u9fff]", text), text
    assert body_text(page).count(text) == 1, "the error is shown more than once"
    click_card(page, f'#hand .card.sel[data-card="{bad}"]')
    page.wait_for_function("document.querySelector('#rule').textContent === ''")


def _keyboard_turn(page: Any, st: dict[str, Any]) -> bool:
    """Play a one-card move with the keyboard: arrows to the card, space, Enter."""
    from shengji.bots.autoplay import choose_action

    action = choose_action(st)
    cards = action["cards"].split()
    if len(cards) != 1:
        return False
    page.evaluate("document.activeElement && document.activeElement.blur()")
    order = page.evaluate("[...document.querySelectorAll('#hand .card')].map(e => e.dataset.card)")
    target = order.index(cards[0])
    page.keyboard.press("ArrowRight")  # the cursor appears on the next card
    cursor = page.evaluate(
        "[...document.querySelectorAll('#hand .card')]"
        ".findIndex(e => e.classList.contains('cursor'))"
    )
    steps = (target - cursor) % len(order)
    for _ in range(steps):
        page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    page.wait_for_selector(f'#hand .card.sel[data-card="{cards[0]}"]')
    rev = st["rev"]
    page.keyboard.press("Enter")
    wait(page, f"window.shengjiState.rev > {rev}")
    return True


def _next_hand_waits_for_everyone(
    srv: Server, alice: Any, bob: Any, spectator: Any, bob_name: str
) -> None:
    shot(alice, "score-sheet")
    st = state(alice)
    assert st is not None and sorted(st["room"]["waiting"]) == [0, 1]
    room = st["room"]["id"]
    # everyone leaves before pressing "next hand": the bots do not press it for them
    for page in (spectator, alice, bob):
        page.goto("about:blank")
    alice.wait_for_timeout(1500)
    for page in (alice, bob):
        page.goto(f"{srv.base}/room/{room}")  # resumes with the stored token
        wait(page, "window.shengjiState && window.shengjiState.view")
    wait(alice, "window.shengjiState.room.waiting.length === 2")
    st = state(alice)
    assert st is not None
    assert st["view"]["phase"] == "hand_over" and st["view"]["hand_number"] == 0
    # each person reads the score sheet until they press "next hand"
    alice.click("#next")
    wait(alice, "window.shengjiState.room.waiting.length === 1")
    assert alice.locator("#next").is_disabled()
    assert bob_name in alice.inner_text("#prompt")
    assert not bob.locator("#next").is_disabled()
    assert bob.locator("#handresult").is_visible()
    bob.click("#next")
    wait(alice, "window.shengjiState.view.hand_number === 1")


def _match_end(srv: Server, page: Any, room: str, lang: str) -> None:
    wait(page, "window.shengjiState.view.phase === 'match_over'")
    page.wait_for_selector("#matchend")
    st = state(page)
    assert st is not None
    text = page.inner_text("#matchend")
    for lv in st["view"]["levels"]:
        assert lv in text
    shot(page, "match-end")
    href = page.get_attribute("#record", "href")
    status, body = srv.get(href)
    assert status == 200 and json.loads(body)["format"] == "shengji-record"
    page.click("#replaylink")
    # the replayer steps card by card through the table (views from the server, or
    # rebuilt from the record)
    page.wait_for_selector("#rp-next")
    page.wait_for_selector("#felt")
    total = int(page.get_attribute("#replayslider", "max") or 0)
    plays = sum(1 for a in json.loads(body)["actions"] if a["type"] == "play")
    assert total >= plays
    page.click("#rp-nexthand")  # the end of the hand: the result and the kitty
    page.wait_for_selector("#replaypanel #handresult")
    page.click("#rp-prevhand")
    for _ in range(total // 2):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector("#felt .seat .play .card")
    assert page.locator("#hand .card").count() > 0
    assert page.locator("#felt .ptag.win").count() == 1
    shot(page, "replay")
    assert my_turn(st) is False
