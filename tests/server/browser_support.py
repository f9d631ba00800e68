"""Shared pieces of the browser tests: Debian's chromium driven by Playwright, a server in
a subprocess (bots without delay, a deal of a round every 0.1 s: a page can show during
it), rooms, and a driver that plays a person's turns by clicking in the page.

Every browser test module calls :func:`require_chromium` first: without chromium the
module is skipped loudly (and fails in CI, where ``SHENGJI_REQUIRE_BROWSER=1``).
Screenshots go to ``$SHENGJI_ARTIFACTS`` (default ``var/test-artifacts``), each at desktop
(1280x800) and phone (360x740) size.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from shengji.bots.autoplay import choose_action, made_by_itself
from shengji.server.launch import ServerProcess

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = Path(os.environ.get("SHENGJI_ARTIFACTS", "var/test-artifacts"))
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-extensions",
    "--no-first-run",
    "--mute-audio",
]
DECLARING = ("deal", "before_kitty", "after_burial")


def require_chromium() -> None:
    """Skip the calling module loudly when no chromium is installed; fail instead where
    ``SHENGJI_REQUIRE_BROWSER=1`` (CI), so the browser tests never pass by not running."""
    if CHROMIUM is None:  # pragma: no cover - depends on the machine
        if os.environ.get("SHENGJI_REQUIRE_BROWSER") == "1":
            pytest.fail(
                "no chromium installed and SHENGJI_REQUIRE_BROWSER=1: the browser tests "
                "cannot run (scripts/ensure-browser installs Debian's chromium as root)",
                pytrace=False,
            )
        warnings.warn("NO CHROMIUM: the browser tests are SKIPPED", stacklevel=2)
        pytest.skip(
            "!!! browser tests SKIPPED: no chromium installed "
            "(run scripts/ensure-browser as root) !!!",
            allow_module_level=True,
        )


#: Seconds between two rounds of the deal on the test server: a person's pace, faster.
DEAL_SECONDS = 0.1


class Server(ServerProcess):
    """``shengji serve`` on a free port over a SQLite file, with HTTP helpers."""

    def __init__(self, db: Path) -> None:
        # every page of every test comes from one address: its room reads, and the rooms
        # it creates (a test may make tables until a person banks), are many more than
        # one person's
        super().__init__(
            f"sqlite:///{db}",
            limits=("reads_burst=100000", "rooms_burst=100000"),
            args=("--deal-seconds", str(DEAL_SECONDS)),
        )
        self.base = self.url

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return dict(json.loads(r.read()))

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=10) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("browser") / "ui.db")
    try:
        yield srv
    finally:
        srv.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


#: Requests a page may see fail: the replayer asks for the per-step views first and falls
#: back to the narration on a server without them (docs/web.md).
OPTIONAL = ("/replay/views",)


class Watch:
    """What a page did wrong: script errors and failed requests."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(f"script error: {e}"))
        page.on("console", self._console)
        page.on("response", self._response)

    def _console(self, m: Any) -> None:
        url = (m.location or {}).get("url", "")
        if m.type == "error" and not any(o in url for o in OPTIONAL):
            if "Failed to load resource" in m.text and not url:
                return  # reported with its address by _response
            self.errors.append(f"console: {m.text} ({url})")

    def _response(self, r: Any) -> None:
        if r.status >= 400 and not any(o in r.url for o in OPTIONAL):
            self.errors.append(f"HTTP {r.status} {r.url}")


def new_page(browser: Any, lang: str = "en", size: dict[str, int] = DESKTOP) -> Any:
    """A page in a fresh context (its own storage: its own person) in ``lang``."""
    # the app's Content-Security-Policy forbids eval; Playwright's wait_for_function needs it
    ctx = browser.new_context(viewport=size, bypass_csp=True, locale="en-US")
    ctx.add_init_script(f"try {{ localStorage.setItem('shengji:lang', '{lang}') }} catch (e) {{}}")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.watch = Watch(page)
    return page


def state(page: Any) -> dict[str, Any] | None:
    result: dict[str, Any] | None = page.evaluate("window.shengjiState || null")
    return result


def wait(page: Any, js: str, timeout: float = 20_000) -> None:
    page.wait_for_function(js, timeout=timeout)


def shot(page: Any, name: str) -> None:
    """Screenshots of the page at desktop and phone size (``desktop-NAME.png``,
    ``phone-NAME.png``, with ``-zh`` for a page in Chinese); the page keeps its size."""
    size = page.viewport_size
    lang = page.evaluate("localStorage.getItem('shengji:lang')")
    suffix = "-zh" if lang == "zh" else ""
    page.mouse.move(1, 1)  # no hover effect in the pictures
    for label, vp in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(vp)
        page.wait_for_timeout(120)
        page.screenshot(path=str(ARTIFACTS / f"{label}-{name}{suffix}.png"), full_page=True)
    page.set_viewport_size(size)
    page.wait_for_timeout(50)


def make_room(srv: Server, page: Any, **body: Any) -> str:
    """A room made over HTTP; the page keeps its host key (as if it had made it)."""
    data = srv.post("/api/rooms", body)
    page.goto(srv.base + "/")
    page.evaluate(
        "([id, key]) => { localStorage.setItem('shengji:host:' + id, key); "
        "sessionStorage.setItem('shengji:host:' + id, key); }",
        [data["id"], data.get("host_key") or ""],
    )
    return str(data["id"])


def join(page: Any, base: str, room: str, name: str, spectate: bool = False) -> None:
    page.goto(f"{base}/room/{room}")
    page.wait_for_selector("#name")
    page.fill("#name", name)
    page.click("#watch" if spectate else "#join")
    wait(page, "window.shengjiState && window.shengjiState.room")


def start_match(page: Any) -> None:
    """The host (the only person seated) gets ready and starts; waits for the table."""
    page.click("#ready")
    wait(page, "!document.querySelector('#start').disabled")
    page.click("#start")
    wait(page, "window.shengjiState.view")


def watch_room(srv: Server, room: str, until: Callable[[dict[str, Any]], bool]) -> None:
    """Watch ``room`` as a spectator (a WebSocket of the test's own) until a ``state``
    message satisfies ``until``: what the server did, waited for however long it takes."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{srv.port}/ws/{room}", max_size=2**22) as ws:
        ws.send(json.dumps({"v": 1, "id": "w", "type": "join", "name": "w", "spectate": True}))
        deadline = time.monotonic() + 120
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "the room never got there"
            msg = json.loads(ws.recv(timeout=left))
            if msg.get("type") == "state" and until(msg):
                return


def my_turn(st: dict[str, Any] | None) -> bool:
    if not st or not st.get("view"):
        return False
    view = st["view"]
    seat = st["you"]["seat"]
    if seat is None:
        return False
    if view["phase"] == "hand_over":
        waiting = st["room"].get("waiting")
        return seat in waiting if isinstance(waiting, list) else False
    # a play the table makes by itself (auto-play) is no one's turn
    return bool(view["to_act"] == seat) and not made_by_itself(st)


def click_card(page: Any, selector: str) -> None:
    """Click a card of the fan on its visible strip (the next card covers its middle)."""
    page.locator(selector).first.click(position={"x": 7, "y": 30})


def click_cards(page: Any, cards: list[str]) -> None:
    for c in cards:
        click_card(page, f'#hand .card[data-card="{c}"]:not(.sel)')


def dealing(st: dict[str, Any] | None) -> bool:
    """The deal runs by itself and this page's seat may show now."""
    if not st or not st.get("view") or st["you"]["seat"] is None:
        return False
    return bool(st["view"]["phase"] == "deal" and st.get("shows"))


def show(page: Any, st: dict[str, Any]) -> None:
    """Tap the show bar's strongest show, as a person does while the cards come (a show
    gone meanwhile, overtaken by another, is let go)."""
    from playwright.sync_api import TimeoutError as Gone

    shows = st.get("shows") or []
    rev = st["rev"]
    try:
        page.locator(f'#actions button.show[data-cards="{shows[-1]}"]').click(timeout=2_000)
    except Gone:
        return
    wait(
        page,
        f"window.shengjiState.rev > {rev} || "
        "(document.querySelector('#rule') || {dataset: {}}).dataset.kind === 'act'",
    )


def act(page: Any, st: dict[str, Any], declare: bool = False) -> None:
    """Take this page's turn by clicking, as a person would; waits for the next revision."""
    view = st["view"]
    rev = st["rev"]
    phase = view["phase"]
    if phase == "hand_over":
        page.click("#next")
        wait(page, f"!window.shengjiState.room.waiting || window.shengjiState.rev > {rev}")
        return
    if phase == "call":  # 找朋友: the banker calls friends in the dialog (its suggestion)
        if not page.locator("#calldialog").count():
            page.click("#callopen")
        page.click("#callgo")
    elif phase in DECLARING:
        shows = st.get("shows") or []
        if declare and shows:
            page.locator(f'#actions button.show[data-cards="{shows[-1]}"]').click()
        else:
            page.click("#pass")
    else:
        from playwright.sync_api import TimeoutError as Gone

        action = choose_action(st)
        cards = action["cards"].split()
        try:
            if page.locator("#clear").count():
                page.click("#clear")
            click_cards(page, cards)
            page.click(f"#{action['type']}")
        except Gone:
            # at a table with auto-play the server makes a forced play by itself (after
            # the bots' delay): the cards left the hand before they were clicked
            now = state(page)
            if now is None or now["rev"] <= rev:
                raise
            return
    wait(
        page,
        f"window.shengjiState.rev > {rev} || "
        "(document.querySelector('#rule') || {dataset: {}}).dataset.kind === 'act'",
    )


def drive(
    pages: list[Any],
    until: Callable[[], bool],
    timeout: float = 90,
    declare: bool = False,
    on_turn: Callable[[Any, dict[str, Any]], bool] | None = None,
) -> None:
    """Play every page's turns until ``until()`` (with ``declare``, a page shows whenever it
    can during the deal); ``on_turn(page, state)`` may take a turn itself (returning
    True)."""
    deadline = time.time() + timeout
    while not until():
        assert time.time() < deadline, "the table did not get there in time"
        moved = False
        for page in pages:
            st = state(page)
            if declare and dealing(st):
                assert st is not None
                if on_turn is None or not on_turn(page, st):
                    show(page, st)
                moved = True
            elif my_turn(st):
                assert st is not None
                if until():  # read after st: reached meanwhile (a hand over is not a turn)
                    return
                if on_turn is None or not on_turn(page, st):
                    act(page, st, declare=declare)
                moved = True
                if until():
                    return
        if not moved:
            pages[0].wait_for_timeout(25)


def phase(page: Any) -> str | None:
    st = state(page)
    return st["view"]["phase"] if st and st.get("view") else None


def body_text(page: Any) -> str:
    return str(page.inner_text("body"))
