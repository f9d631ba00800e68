"""The Textual table, driven by key presses (Textual's Pilot), and its snapshots."""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from helpers import show_in_deal
from shengji.bots.autoplay import choose_action
from shengji.rules.presets import load_preset
from shengji.tui.app import TableApp
from shengji.tui.dialogs import BuryDialog, ConfirmQuit, DeclareDialog, ScoreDialog
from shengji.tui.session import LocalSession, Refusal
from shengji.tui.text import my_turn
from shengji.words.i18n import t

from .deals import Held, dealt

#: ``Pilot.press`` for one key.
Press = Callable[[str], Awaitable[None]]


async def until(pilot: Pilot[None], ok: Callable[[], object], seconds: float = 30) -> None:
    """Let the app run (its timers, its messages) until ``ok()`` holds, however slow the
    machine is: a state waited for, not a fixed pause."""
    deadline = time.monotonic() + seconds
    while not ok():
        assert time.monotonic() < deadline, "the app never got there"
        await pilot.pause(0.02)


def _top(app: TableApp) -> Screen[Any]:
    """The active screen. ``App.screen`` is typed ``Screen[object]``, which mypy holds
    disjoint from every ``ModalScreen[T]``: ``isinstance`` on it would narrow to nothing."""
    return app.screen


def _indices(hand: list[str], cards: list[str]) -> list[int]:
    used: set[int] = set()
    out = []
    for c in cards:
        i = next(i for i, h in enumerate(hand) if h == c and i not in used)
        used.add(i)
        out.append(i)
    return out


async def _select(app: TableApp, cards: list[str], press: Press) -> None:
    for idx in _indices(app.cards, cards):
        for _ in range((idx - app.cursor) % len(app.cards)):
            await press("right")
        await press("space")


async def _play_hand(app: TableApp, session: LocalSession, pilot: Pilot[None]) -> set[str]:
    """Play a hand by keys (the deal goes on by itself; a declare dialog is passed);
    returns the dialogs seen."""
    press = pilot.press
    seen: set[str] = set()
    for _ in range(3000):
        await asyncio.sleep(0)
        await pilot.pause()
        state = session.state
        view = state["view"]
        if view["phase"] in ("hand_over", "match_over"):
            return seen
        screen = _top(app)
        if isinstance(screen, DeclareDialog):
            seen.add("declare")
            await press("p")
            continue
        if isinstance(screen, BuryDialog):
            seen.add("bury")
            await _bury(screen, state, press)
            continue
        if not my_turn(state):
            continue
        await _select(app, choose_action(state)["cards"].split(), press)
        await press("enter")
    raise AssertionError("the hand did not end")


async def _bury(
    dialog: BuryDialog, state: dict[str, Any], press: Press, cards: list[str] | None = None
) -> None:
    cards = cards or choose_action(state)["cards"].split()
    for idx in _indices(dialog.cards, cards):
        for _ in range((idx - dialog.cursor) % len(dialog.cards)):
            await press("right")
        await press("space")
    await press("enter")


def test_pilot_plays_a_whole_hand_by_keys() -> None:
    """Seed 1: ♥2 comes to the person at the start of the deal; d shows it, and the
    person banks and buries."""
    session = Held("classic-1deck", seed=1)
    session.hold_when(shows=1)
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert "you may show ♥2 · d: show" in str(app.w_message.renderable)
            await pilot.press("d")
            assert session.state["view"]["declarations"] == [{"seat": 0, "cards": "H2"}]
            session.held = False
            seen = await _play_hand(app, session, pilot)
            assert seen == {"bury"}  # we showed, became banker and buried
            assert session.state["view"]["score_sheet"][0]["banker"] == 0
            await pilot.pause()
            assert isinstance(_top(app), ScoreDialog)
            await pilot.press("n")
            await pilot.pause()
            assert session.state["view"]["hand_number"] == 1

    asyncio.run(run())


def test_illegal_selection_is_explained_and_hint_given() -> None:
    session = LocalSession(load_preset("tuolaji"), seed=11, seat=0, deal_seconds=0)
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(400):
                await pilot.pause()
                view = session.state["view"]
                screen = _top(app)
                if isinstance(screen, DeclareDialog):
                    await pilot.press("p")
                    continue
                if isinstance(screen, BuryDialog):
                    await _bury(screen, session.state, pilot.press)
                    continue
                if view["phase"] == "play" and view["trick"]:
                    break
                if view["phase"] == "play":
                    await _select(app, choose_action(session.state)["cards"].split(), pilot.press)
                    await pilot.press("enter")
            await pilot.press("question_mark")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.message.startswith("hint: play ") and " · " in app.message
            # select every card: more cards than were led can never be a legal follow
            for _ in app.cards:
                await pilot.press("space")
                await pilot.press("right")
            await pilot.pause()
            assert app.message.startswith("✗ the lead has ")

    asyncio.run(run())


@pytest.mark.slow  # over 10 s
def test_failed_throw_is_told_and_a_throw_is_never_called_legal() -> None:
    """Issue 12, item 3: seed 5, show ♦2 as it comes, bury D3 S4 S8 C3 C4 C4 C7 H3, throw
    HQ H5 (the bots' plays of the issue: the baseline heuristic)."""
    session = Held("shuangsheng", seed=5, bots="heuristic-v1")
    session.hold_when(shows=1)
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert session.state["shows"] == ["D2"]
            await pilot.press("d")
            session.held = False
            for _ in range(2000):  # the deal goes on to its end, then the kitty is ours
                await pilot.pause(0.02)
                if isinstance(_top(app), BuryDialog):
                    break
            dialog = _top(app)
            assert isinstance(dialog, BuryDialog)
            kitty = dialog.kitty
            assert any(kitty) and sum(kitty) == 8  # the 8 kitty cards are marked
            assert any(dialog.trumps)
            await _bury(dialog, session.state, pilot.press, "D3 S4 S8 C3 C4 C4 C7 H3".split())
            await pilot.pause()
            assert session.state["view"]["phase"] == "play"
            await _select(app, ["HQ", "H5"], pilot.press)
            await pilot.pause()
            assert app.message == "⚠ throw: may fail (if another hand can beat one of its units)"
            await pilot.press("enter")
            await pilot.pause()
            assert app.throw_note == (
                "your throw ♥Q ♥5 failed: right can beat ♥5, so only ♥5 was played; "
                "penalty: the thrower's team pays half the stake (the coins each hand is "
                "played for)"
            )
            assert app.throw_note in str(app.w_message.renderable)
            table = str(app.w_table.renderable)
            assert "declared: you ♦2" in table
            assert "last trick: you ♥5 (throw ♥Q ♥5 failed) · right ♥10 · partner ♥K" in table
            assert "you declare ♦2: trump ♦" in app.log_lines
            # the note stays until our next play
            await pilot.press("question_mark")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.message == "hint: play ♠J ♠9 ♠9 · the only legal play"
            assert app.chosen() == "SJ S9 S9"  # the hint selected them: Enter plays them
            await pilot.press("enter")
            await pilot.pause()
            assert app.throw_note == "" and "♠J ♠9 ♠9" in str(app.w_table.renderable)

    asyncio.run(run())


def test_other_declarations_and_every_trick_are_shown() -> None:
    """Issue 12, items 4 and 5: seed 1 opens with someone else's declaration."""
    session = LocalSession(load_preset("shuangsheng"), seed=1, seat=0, deal_seconds=0)
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(200):
                await pilot.pause()
                screen = _top(app)
                if isinstance(screen, DeclareDialog):
                    await pilot.press("p")
                elif isinstance(screen, BuryDialog):
                    await _bury(screen, session.state, pilot.press)
                elif len(session.state["view"]["tricks"]) >= 2:
                    break
                elif my_turn(session.state) and session.state["view"]["phase"] == "play":
                    await _select(app, choose_action(session.state)["cards"].split(), pilot.press)
                    await pilot.press("enter")
            view = session.state["view"]
            table = str(app.w_table.renderable)
            first = view["declarations"][0]
            assert first["seat"] != 0
            assert "declared: " in table and "declares ♥" in "\n".join(app.log_lines)
            assert "last trick: " in table and " won" in table
            tricks = [line for line in app.log_lines if line.startswith("trick ")]
            assert len(tricks) == len(view["tricks"])  # every completed trick was told

    asyncio.run(run())


def test_q_quits_from_every_dialog() -> None:
    """Issue 22, item 6: a local game asks first (saying how to deal it again); n keeps
    playing, y quits. Seed 12: nobody shows during the deal; ♣2 is ours to show before
    the kitty."""
    for dialog in ("declare", "bury", "sheet"):
        session = dealt("classic-1deck", seed=12)
        app = TableApp(session, lang="en")

        async def run(
            dialog: str = dialog, app: TableApp = app, session: LocalSession = session
        ) -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                assert isinstance(_top(app), DeclareDialog)
                if dialog in ("bury", "sheet"):
                    await pilot.press("1")
                    await pilot.pause()
                    assert isinstance(_top(app), BuryDialog)
                if dialog == "sheet":
                    bury = _top(app)
                    assert isinstance(bury, BuryDialog)
                    bury.dismiss(choose_action(session.state)["cards"])
                    await pilot.pause()
                    await pilot.press("v")  # nothing on the sheet yet: stays on the table
                    await _play_hand(app, session, pilot)
                    await pilot.pause()
                    assert isinstance(_top(app), ScoreDialog)
                under = type(_top(app))
                await pilot.press("q")
                await pilot.pause()
                ask = _top(app)
                assert isinstance(ask, ConfirmQuit) and app.return_code is None
                assert ask.replay == "--preset classic-1deck --seed 12"
                await pilot.press("n")
                await pilot.pause()
                assert type(_top(app)) is under  # still playing, the dialog back
                await pilot.press("q", "y")
                await pilot.pause()

        asyncio.run(run())
        assert app.return_code == 0, dialog


def test_hint_in_the_declare_and_bury_dialogs() -> None:
    """The declare dialog of the round before the kitty (seed 12: ♣2), then the kitty."""
    session = dealt("classic-1deck", seed=12)
    app = TableApp(session, lang="zh")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(_top(app), DeclareDialog)
            await pilot.press("question_mark")
            await app.workers.wait_for_complete()
            await pilot.pause()
            hint = str(_top(app).query_one("#dlg-hint", Static).renderable)
            assert hint.startswith("提示: ") and "·" in hint
            await pilot.press("1")
            await pilot.pause()
            assert isinstance(_top(app), BuryDialog)
            await pilot.press("question_mark")
            await app.workers.wait_for_complete()
            await pilot.pause()
            count = str(_top(app).query_one("#bury-count", Static).renderable)
            hint = count.split("提示: 扣 ", 1)[1]
            cards, why = hint.split(" · ", 1)
            assert len(cards.split()) == 6 and why.strip()

    asyncio.run(run())


LINK = "http://127.0.0.1:8000/room/" + "ab" * 16


class FakeSession:
    """A session whose state the test writes (online look, no server)."""

    online = True
    status = "connected"
    attempt = 0
    link: str | None = LINK

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.chat: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []

    def act(self, action: dict[str, Any]) -> Refusal | None:
        self.sent.append(action)
        return None

    def check(self, action: dict[str, Any]) -> Refusal | None:
        return None

    def command(self, cmd: dict[str, Any]) -> Refusal | None:
        self.sent.append(cmd)
        return Refusal("NOT_READY", "every person must be ready", {}, {"en": "E", "zh": "Z"})

    def hint(self, lang: str) -> None:
        return None

    def poll(self) -> bool:
        return False

    def close(self) -> None:
        pass


def _lobby_state() -> dict[str, Any]:
    return {
        "rev": 3,
        "room": {
            "id": "ab" * 16,
            "status": "lobby",
            "preset": "shuangsheng",
            "overrides": {},
            "options": load_preset("shuangsheng").to_dict(),
            "seats": [
                {"kind": "human", "name": "ann", "ready": True, "connected": True},
                {"kind": "bot", "name": "heuristic bot", "bot": "heuristic", "ready": True},
                {"kind": "empty", "name": ""},
                {"kind": "human", "name": "李雷", "ready": False, "connected": False},
            ],
            "host_seat": 0,
            "spectators": 2,
            "deadlines": [None] * 4,
            "waiting": [],
            "paused": False,
        },
        "you": {"seat": 0, "host": True},
    }


def test_lobby_keys_and_server_refusals_in_the_players_language() -> None:
    session = FakeSession(_lobby_state())
    app = TableApp(session, lang="zh")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            table = str(app.w_table.renderable)
            assert "邀请链接: " + LINK in table
            assert "ann (已准备, 房主)" in table and "空位: 等人加入" in table
            assert "李雷 (未准备, 离线)" in table and "2人观战" in table
            await pilot.press("s")
            assert session.sent[-1] == {"type": "start"} and app.message == "✗ Z"
            await pilot.press("b")  # normal bots: the bot's seat first (refused here)
            assert session.sent[-1] == {"type": "set_bot", "seat": 1, "bot": "heuristic"}
            assert app.message == "✗ Z"

    asyncio.run(run())


def _over_state() -> dict[str, Any]:
    state = copy.deepcopy(dealt("classic-1deck", seed=1, seat=1).state)
    row = {
        "number": 0,
        "banker": 0,
        "level": "2",
        "trump": "S",
        "points": 40,
        "explain": {"en": "Collectors scored 40: banker side goes up 1 → 3.", "zh": "闲家得40分"},
    }
    state["view"]["score_sheet"] = [{**row, "number": i} for i in range(15)]
    state["view"]["phase"] = "match_over"
    state["view"]["winner"] = 1
    state["view"]["to_act"] = None
    return state


def test_score_sheet_scrolls_and_match_over_says_who_won() -> None:
    session = FakeSession(_over_state())
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            sheet_dialog = _top(app)
            assert isinstance(sheet_dialog, ScoreDialog)
            title = str(sheet_dialog.query_one("#dlg-title", Static).renderable)
            assert title == "Match over: your team wins!"
            sheet = sheet_dialog.query_one("#sheet", VerticalScroll)
            assert sheet.max_scroll_y > 0 and sheet.scroll_y == sheet.max_scroll_y
            await pilot.press("up", "up")
            await pilot.pause()
            assert sheet.scroll_y < sheet.max_scroll_y
            assert "levels: your team 2 · opponents 2" in str(app.w_status.renderable)

    asyncio.run(run())


@pytest.mark.slow  # over 10 s
def test_chinese_screen_has_no_english_words() -> None:
    session = LocalSession(load_preset("shuangsheng"), seed=5, seat=0, deal_seconds=0)
    assert show_in_deal(session) == "D2"
    app = TableApp(session, lang="zh")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            dialog = _top(app)
            assert isinstance(dialog, BuryDialog)
            await _bury(dialog, session.state, pilot.press, "D3 S4 S8 C3 C4 C4 C7 H3".split())
            await _select(app, ["HQ", "H5"], pilot.press)
            assert app.message.startswith("⚠ 甩牌: 可能失败")
            await pilot.press("enter")
            await pilot.pause()
            text = "\n".join(
                str(w.renderable) for w in (app.w_status, app.w_table, app.w_hand, app.w_message)
            )
            footer = " ".join(b.description for _, b in app._bindings)
            for english in ("levels", "heuristic", "bot", "trick", "seat", "pass", "hearts"):
                assert english not in text + footer, english
            assert "你甩牌 ♥Q ♥5 失败" in text and "机器人(智能)" in text
            assert t("key.hint", "zh") in footer and "提示" in footer

    asyncio.run(run())


def _snapshot_app(lang: str = "en") -> TableApp:
    """A trick in progress (issue 22, item 4): right led ♦6 (▶), partner's ♦K wins so far
    (★), left threw ♦J: 10 points; our turn (»)."""
    # the rule of thumb alone (no look ahead): the snapshots show the deal it plays
    return TableApp(dealt("classic-1deck", seed=33, bots="heuristic:plain"), lang=lang)


def test_snapshot_80x24(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(_snapshot_app(), terminal_size=(80, 24))


def test_snapshot_120x40(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(_snapshot_app(), terminal_size=(120, 40))


def test_snapshot_80x24_zh(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(_snapshot_app("zh"), terminal_size=(80, 24))


def test_snapshot_120x40_zh(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(_snapshot_app("zh"), terminal_size=(120, 40))


def test_snapshot_no_color_80x24(
    snap_compare: Callable[..., bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """NO_COLOR: suits told apart by weight, not hue (a red suit is bold)."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(_snapshot_app(), terminal_size=(80, 24))


def test_snapshot_bury_dialog_80x24(snap_compare: Callable[..., bool]) -> None:
    """Seed 5: d shows ♦2 as it comes; the deal ends and the person buries."""
    session = Held("shuangsheng", seed=5)
    session.hold_when(shows=1)
    app = TableApp(session, lang="en")

    async def show_and_deal_out(pilot: Pilot[None]) -> None:
        await pilot.press("d")
        session.held = False
        for _ in range(2000):
            await pilot.pause(0.02)
            if isinstance(_top(app), BuryDialog):
                return

    assert snap_compare(app, run_before=show_and_deal_out, terminal_size=(80, 24))


def test_snapshot_lobby_120x40(snap_compare: Callable[..., bool]) -> None:
    app = TableApp(FakeSession(_lobby_state()), lang="en")
    assert snap_compare(app, terminal_size=(120, 40))


def test_snapshot_match_over_80x24_zh(snap_compare: Callable[..., bool]) -> None:
    app = TableApp(FakeSession(_over_state()), lang="zh")
    assert snap_compare(app, terminal_size=(80, 24))


def test_a_lost_connection_ends_the_app_with_the_error() -> None:
    from shengji.errors import ShengjiError

    class Lost(FakeSession):
        def poll(self) -> bool:
            raise ShengjiError("lost", code="CONNECTION_LOST")

    app = TableApp(Lost(_lobby_state()), lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.error is not None)

    asyncio.run(run())
    assert app.error is not None and app.error.code == "CONNECTION_LOST"
    assert app.return_code == 2


def test_reconnecting_is_shown() -> None:
    session = FakeSession(_over_state())
    session.status = "reconnecting"
    session.attempt = 3
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            said = "connection lost: reconnecting (attempt 3)…"
            await until(pilot, lambda: said in str(app.w_message.renderable))

    asyncio.run(run())


def test_the_table_stays_live_while_a_hint_is_computed() -> None:
    """The search behind a hint takes most of a second: "thinking…" shows at once, the
    hint when it is ready, and a second ? in between starts nothing."""
    import threading

    release = threading.Event()
    asked: list[str] = []
    session = dealt("classic-1deck", seed=12)  # ♣2 to show before the kitty

    def slow_hint(lang: str) -> tuple[dict[str, Any], str] | None:
        asked.append(lang)
        release.wait(10)
        return {"type": "pass"}, "nothing to show"

    session.hint = slow_hint  # type: ignore[method-assign]
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(_top(app), DeclareDialog)
            await pilot.press("question_mark")
            await pilot.pause()
            line = _top(app).query_one("#dlg-hint", Static)
            assert str(line.renderable) == "hint: thinking…"
            await pilot.press("question_mark")
            await pilot.pause()
            release.set()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert str(line.renderable) == "hint: pass · nothing to show"
            assert asked == ["en"]

    asyncio.run(run())
