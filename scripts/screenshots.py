#!/usr/bin/env python3
"""Screenshots of the web table, to look at as a new player would: the lobby, declaring,
burying, a failed throw, an auto-play notice, mid-trick, the hand log, the score sheet and
the match's end, and 找朋友 at six seats (lobby, the banker's call dialog, a trick with
the calls, a friend found, the score sheet per player), each at 360x740 (a phone) and
1280x800 (a desktop), in English and in Chinese. A server runs in a subprocess over a
database in ``var/``; one person plays with bots by clicking, as the browser tests do.

Usage: ``python scripts/screenshots.py [--out var/screens] [--lang en,zh] [--only friends]``
(needs chromium: ``scripts/ensure-browser``). Files are ``NAME-LANG-WxH.png``, the whole
page, and ``NAME-LANG-WxH-view.png``, what the phone's screen shows without scrolling.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.server.browser_support import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    act,
    click_cards,
    dealing,
    join,
    make_room,
    my_turn,
    new_page,
    show,
    state,
    wait,
)

from shengji.server.launch import ServerProcess  # noqa: E402

BOTS3 = [None, "heuristic", "heuristic", "heuristic"]
NAMES = {"en": "Sam", "zh": "小明"}


class Shots:
    """Where the pictures go, and which were taken."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.taken: list[str] = []

    def snap(self, page: Any, name: str) -> None:
        """The page at both sizes (whole, and the phone's first screen)."""
        lang = page.evaluate("localStorage.getItem('shengji:lang')") or "en"
        size = page.viewport_size
        page.mouse.move(1, 1)
        for vp in (PHONE, DESKTOP):
            page.set_viewport_size(vp)
            page.wait_for_timeout(150)
            stem = f"{name}-{lang}-{vp['width']}x{vp['height']}"
            page.screenshot(path=str(self.out / f"{stem}.png"), full_page=True)
            if vp is PHONE:
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(self.out / f"{stem}-view.png"))
        page.set_viewport_size(size)
        page.wait_for_timeout(50)
        self.taken.append(f"{name}-{lang}")
        print(f"  {name}-{lang}", flush=True)


class Srv(ServerProcess):
    """The server, with the helpers the browser tests' server has."""

    def __init__(self, db: Path) -> None:
        limits = ["review_rollouts=40", "hint_ms=200", "rooms_burst=1000"]
        # the deal at a person's pace (a round every 0.1 s): the person shows during it
        super().__init__(f"sqlite:///{db}", limits=limits, args=("--deal-seconds", "0.1"))
        self.base = self.url

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        import json
        import urllib.request

        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return dict(json.loads(r.read()))


def view(page: Any) -> dict[str, Any]:
    st = state(page)
    return (st or {}).get("view") or {}


def play_until(
    page: Any,
    until: Callable[[], bool],
    on_turn: Callable[[dict[str, Any]], bool] | None = None,
    declare: bool = False,
    timeout: float = 240,
) -> bool:
    """Take the person's turns until ``until()`` (False if the time ran out); with
    ``declare`` the person shows whenever it can during the deal."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if until():
            return True
        st = state(page)
        if declare and dealing(st):
            assert st is not None
            if on_turn is None or not on_turn(st):
                show(page, st)
        elif my_turn(st):
            assert st is not None
            if on_turn is None or not on_turn(st):
                act(page, st, declare=declare)
        else:
            page.wait_for_timeout(30)
    return False


def start(srv: Srv, browser: Any, lang: str, preset: str, **body: Any) -> Any:
    page = new_page(browser, lang, DESKTOP)
    room = make_room(srv, page, preset=preset, bots=body.pop("bots", BOTS3), **body)
    join(page, srv.base, room, NAMES[lang])
    return page


def begin(page: Any) -> None:
    page.click("#ready")
    wait(page, "!document.querySelector('#start').disabled")
    page.click("#start")
    wait(page, "window.shengjiState.view")


def throw_attempt(st: dict[str, Any]) -> list[str] | None:
    """On the person's lead: the highest and lowest single of a side suit with at least
    three cards (a throw the others can likely beat), or None."""
    v = st["view"]
    if v["phase"] != "play" or v["trick"] or v["to_act"] != st["you"]["seat"]:
        return None
    cards = v["hand"].split()
    trump, level = v.get("trump"), str(v.get("level"))
    by_suit: dict[str, list[str]] = {}
    for c in cards:
        if c in ("BJ", "LJ") or c[1:] == level or c[0] == trump:
            continue
        by_suit.setdefault(c[0], []).append(c)
    for suit_cards in by_suit.values():
        singles = [c for c in suit_cards if suit_cards.count(c) == 1]
        if len(suit_cards) >= 3 and len(singles) >= 2:
            return [singles[0], singles[-1]]  # the hand is sorted high to low
    return None


def lobby_declaring_burying(srv: Srv, browser: Any, lang: str, shots: Shots) -> None:
    """A lobby with changed rules and a timer; declaring; burying (a few tables are tried
    until the person is the banker)."""
    page = start(
        srv,
        browser,
        lang,
        "classic-1deck",
        overrides={"match_hands": 3},
        turn_seconds=60,
        bots=[None, "heuristic", None, "heuristic"],
    )
    wait(page, "window.shengjiState.room.status === 'lobby'")
    page.wait_for_selector("#lobby #tablerules")
    shots.snap(page, "lobby")
    page.context.close()
    for _ in range(8):
        page = start(srv, browser, lang, "classic-1deck")
        begin(page)
        seen = {"declaring": f"declaring-{lang}" in shots.taken}

        def on_turn(st: dict[str, Any], page: Any = page, seen: dict[str, bool] = seen) -> bool:
            declaring = st["view"]["phase"] in ("deal", "before_kitty") and st.get("shows")
            if declaring and not seen["declaring"]:
                page.wait_for_selector("#actions button.show")
                shots.snap(page, "declaring")
                seen["declaring"] = True
            return False

        play_until(
            page,
            lambda page=page: view(page).get("phase") not in ("deal", "before_kitty", None),
            on_turn,
            declare=True,
        )
        st = state(page)
        if st and st["view"]["phase"] == "bury" and my_turn(st):
            page.wait_for_selector("#hand .card.fresh")
            shots.snap(page, "burying")
            page.context.close()
            return
        page.context.close()
    print(f"  (no burying picture in {lang}: the person was never the banker)")


def a_hand(srv: Srv, browser: Any, lang: str, shots: Shots) -> None:
    """Mid-trick, a failed throw, the hand log, the score sheet and the match's end, in
    one table of two hands."""
    page = start(srv, browser, lang, "shuangsheng", overrides={"match_hands": 2})
    begin(page)
    done: set[str] = set()

    def on_turn(st: dict[str, Any]) -> bool:
        v = st["view"]
        if v["phase"] != "play":
            return False
        if v["trick"] and len(v["trick"]) >= 2 and "mid-trick" not in done:
            done.add("mid-trick")
            shots.snap(page, "mid-trick")
        if len(v["tricks"]) >= 4 and "hand-log" not in done:
            done.add("hand-log")
            page.click("#handlogbtn")
            page.wait_for_selector("#logdialog")
            shots.snap(page, "hand-log")
            page.click("#closedialog")
        if "failed-throw" not in done and (cards := throw_attempt(st)):
            if page.locator("#clear").count():
                page.click("#clear")
            click_cards(page, cards)
            rev = st["rev"]
            page.click("#play")
            wait(
                page,
                f"window.shengjiState.rev > {rev} || "
                "document.querySelector('#rule').dataset.kind === 'act'",
            )
            page.wait_for_timeout(300)
            if page.locator("#thrownote").count():
                done.add("failed-throw")
                shots.snap(page, "failed-throw")
            return True
        return False

    play_until(page, lambda: view(page).get("phase") == "hand_over", on_turn)
    page.wait_for_selector("#handresult")
    shots.snap(page, "score-sheet")
    if "failed-throw" not in done:
        print(f"  (no failed throw in {lang}: every throw tried held)")
    play_until(page, lambda: view(page).get("phase") == "match_over", on_turn)
    page.wait_for_selector("#matchend")
    shots.snap(page, "match-end")
    page.context.close()


def auto_play(srv: Srv, browser: Any, lang: str, shots: Shots) -> None:
    """A turn timer runs out: the bot plays for the person, and the chat log says so."""
    page = start(srv, browser, lang, "classic-1deck", turn_seconds=1)
    begin(page)

    def on_turn(st: dict[str, Any]) -> bool:
        if st["view"]["phase"] == "play":
            page.wait_for_timeout(1500)  # let the timer run out
            return True
        return False

    play_until(page, lambda: page.locator("#chatlog .line.notice").count() > 0, on_turn)
    page.wait_for_timeout(200)
    shots.snap(page, "auto-play")
    page.context.close()


BOTS5 = [None, "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"]


def friends(srv: Srv, browser: Any, lang: str, shots: Shots) -> None:
    """找朋友 at six seats: the lobby, a trick with the calls shown, the moment a friend
    is found, the score sheet per player; then the banker's call dialog, in both
    languages (tables are dealt until the person banks, at most twelve, each left as soon
    as its calls are made)."""
    done: set[str] = set()
    page = start(srv, browser, lang, "zhaopengyou", overrides={"match_hands": 1}, bots=BOTS5)
    shots.snap(page, "zpy-lobby")
    begin(page)

    def on_turn(st: dict[str, Any]) -> bool:
        v = st["view"]
        if v["phase"] == "play" and len(v["trick"]) >= 3 and "zpy-trick" not in done:
            done.add("zpy-trick")
            shots.snap(page, "zpy-trick")
        return False

    def until() -> bool:
        if "zpy-friend" not in done and page.locator('#reveal [data-kind="friendFound"]').count():
            done.add("zpy-friend")
            shots.snap(page, "zpy-friend")
        return bool(view(page).get("phase") in ("hand_over", "match_over"))

    play_until(page, until, on_turn, declare=True)
    page.wait_for_selector("#handresult")
    shots.snap(page, "zpy-sheet")
    page.context.close()
    for _ in range(12):
        page = start(srv, browser, lang, "zhaopengyou", bots=[None, *["random"] * 5])
        begin(page)
        play_until(page, lambda p=page: view(p).get("phase") in ("call", "play"), declare=True)
        st = state(page) or {}
        if view(page).get("phase") == "call" and my_turn(st):
            page.wait_for_selector("#calldialog")
            shots.snap(page, "zpy-call")
            flip = "document.getElementById('lang').click()"  # under the dialog's backdrop
            page.evaluate(flip)  # the dialog in the other language
            page.wait_for_timeout(200)
            shots.snap(page, "zpy-call")
            page.evaluate(flip)
            page.context.close()
            return
        page.context.close()
    print(f"  (no call dialog in {lang}: the person never banked)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "var" / "screens"))
    ap.add_argument("--lang", default="en,zh")
    ap.add_argument("--only", default="", help="comma-separated: table, friends (default both)")
    args = ap.parse_args()
    if CHROMIUM is None:
        sys.exit("no chromium: run scripts/ensure-browser")
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    shots = Shots(out)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        srv = Srv(Path(tmp) / "screens.db")
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for lang in args.lang.split(","):
                print(lang, flush=True)
                only = set(filter(None, args.only.split(","))) or {"table", "friends"}
                if "table" in only:
                    lobby_declaring_burying(srv, browser, lang, shots)
                    auto_play(srv, browser, lang, shots)
                    a_hand(srv, browser, lang, shots)
                if "friends" in only:
                    friends(srv, browser, lang, shots)
        finally:
            browser.close()
            srv.kill()
    print(f"{len(shots.taken)} pictures ({len(shots.taken) * 3} files) in {out}")


if __name__ == "__main__":
    main()
