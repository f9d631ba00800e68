"""Issue 22: the table never stalls (a decision that comes under another dialog is offered
at once), "run the same command again" goes back to the room it made, the trick read at
a glance (leader ▶, winning play ★, its points), NO_COLOR, asking before a local game is
quit (the seed and the record said), and the keys and marks around them."""

from __future__ import annotations

import argparse
import asyncio
import copy
import io
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style
from textual.screen import Screen
from textual.widgets import Static

from helpers import show_in_deal
from shengji.bots.autoplay import choose_action
from shengji.game.record import load_record, verify
from shengji.rules.presets import load_preset
from shengji.server.launch import ServerProcess
from shengji.tools.cli import build_parser, main
from shengji.tui import plain as plain_mode
from shengji.tui.app import TableApp
from shengji.tui.dialogs import BuryDialog, DeclareDialog, HelpDialog, ScoreDialog
from shengji.tui.main import failure_line, run_play
from shengji.tui.plain import run_plain
from shengji.tui.session import LocalSession, Refusal, connect_error
from shengji.tui.text import clock_text, describe, lobby_lines, trick_text
from shengji.words.i18n import cards_label

from .deals import dealt
from .test_app import FakeSession, until


def _top(app: TableApp) -> Screen[Any]:
    return app.screen


def _trick_session() -> LocalSession:
    """Seed 33: right led ♦6, partner's ♦K wins so far, left threw ♦J; our turn."""
    return dealt("classic-1deck", seed=33, bots="heuristic:plain")  # the rule of thumb alone


def _declaring() -> dict[str, Any]:
    """Seed 12: nobody showed during the deal; ♣2 is ours to show before the kitty."""
    state = copy.deepcopy(dealt("classic-1deck", seed=12).state)
    assert state["view"]["phase"] == "before_kitty" and state["shows"] == ["C2"]
    return state


# -- 1. a decision that came while the score sheet was open ------------------------------------


def _hand_over(state: dict[str, Any]) -> dict[str, Any]:
    over = copy.deepcopy(state)
    view = over["view"]
    view["phase"], view["to_act"] = "hand_over", None
    view["score_sheet"] = [
        {
            "number": 0,
            "banker": 1,
            "level": "2",
            "trump": "S",
            "points": 40,
            "explain": {"en": "Collectors scored 40.", "zh": "闲家得40分"},
        }
    ]
    over["room"]["waiting"] = [0]
    over.pop("shows", None)
    return over


def test_a_declaration_that_comes_while_the_score_sheet_is_open_is_offered_at_once() -> None:
    """Item 1 (and issue 36): the next hand starts (a timer) while the sheet is open and
    its first decision is ours to declare: the sheet steps aside and the dialog comes,
    no key pressed; closed some other way, Enter reopens it."""
    declaring = _declaring()
    session = FakeSession(_hand_over(declaring))
    session.link = None
    app = TableApp(session, lang="zh")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(_top(app), ScoreDialog)
            declaring["rev"] = session.state["rev"] + 1
            declaring["view"]["hand_number"] += 1
            session.state = declaring  # the server moved on by itself
            await until(pilot, lambda: isinstance(_top(app), DeclareDialog))
            assert not any(isinstance(s, ScoreDialog) for s in app.screen_stack)
            assert "轮到你: 亮主或不亮" in str(app.w_message.renderable)
            app.pop_screen()  # closed some other way
            await until(pilot, lambda: not isinstance(_top(app), DeclareDialog))
            # the footer names what Enter does now: open the declaration, not "play"
            enter = app.active_bindings["enter"].binding.description
            assert enter == "亮主…", enter
            await pilot.press("enter")  # a key reopens it
            await pilot.pause()
            assert isinstance(_top(app), DeclareDialog)
            await pilot.press("p")
            await pilot.pause()
            assert session.sent[-1] == {"type": "pass"}

    asyncio.run(run())


def test_a_refused_declaration_is_offered_again() -> None:
    declaring = _declaring()

    class Refusing(FakeSession):
        def act(self, action: dict[str, Any]) -> Refusal | None:
            self.sent.append(action)
            return Refusal("RECONNECTING", "reconnecting")

    session = Refusing(declaring)
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("p")
            await until(pilot, lambda: app.message.startswith("✗ the connection dropped"))
            assert session.sent == [{"type": "pass"}]
            assert isinstance(_top(app), DeclareDialog)  # still ours to decide: asked again
            assert app.message.startswith("✗ the connection dropped")

    asyncio.run(run())


# -- 4. the trick at a glance ------------------------------------------------------------------


def test_trick_marks_leader_winner_and_points_in_both_languages() -> None:
    """Item 4, in the app and in plain mode."""
    session = _trick_session()
    state = session.state
    assert state["view"]["winning"] == 2 and state["view"]["trick"][0]["seat"] == 1
    assert trick_text(state, "en") == (
        "this trick: ▶right ♦6 · ★partner ♦K · left ♦J · 10 points so far (▶ led, ★ winning)"
    )
    assert trick_text(state, "zh") == (
        "本轮: ▶下家 ♦6 · ★对家 ♦K · 上家 ♦J · 已有10分 (▶首家, ★最大)"
    )
    assert trick_text(state, "en") in describe(state, "en")
    for lang, rows in (
        ("en", ["↑ partner", "★  ♦K", "→ right", "▶  ♦6", "» ↓ you", "▶ led · ★ winning"]),
        ("zh", ["↑ 对家", "★  ♦K", "→ 下家", "▶  ♦6", "» ↓ 你", "▶ 首家 · ★ 目前最大"]),
    ):
        app = TableApp(session, lang=lang)

        async def run(app: TableApp = app) -> None:
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()

        asyncio.run(run())
        table = str(app.w_table.renderable).splitlines()
        partner = next(r for r in table if rows[0] in r)
        right = next(r for r in table if rows[2] in r)
        assert partner.rstrip().endswith(rows[1]) and right.rstrip().endswith(rows[3])
        assert any(r.startswith(rows[4]) for r in table)
        legend = next(r for r in table if rows[5] in r)
        assert legend.endswith("10 points") or legend.endswith("10分")


def test_plain_turn_shows_the_marked_trick_and_a_legal_example() -> None:
    """Item 4 in plain mode; and every example play is one the rules accept: a script
    that types exactly the example plays a whole hand without a refusal."""
    session = LocalSession(
        load_preset("classic-1deck"), seed=33, seat=0, deal_seconds=0, bots="heuristic:plain"
    )  # the rule of thumb alone: the seed was chosen for its plays
    out = io.StringIO()

    class Typist(io.StringIO):
        typed = 0

        def readline(self, *_: object) -> str:  # type: ignore[override]  # typeshed: StringIO.readline contradicts _IOBase.readline
            view = session.state["view"]
            self.typed += 1
            if view["phase"] == "hand_over" or self.typed > 100:  # (a refusal would loop)
                return "quit\n"
            if view["phase"] != "play":
                return f"{choose_action(session.state)['type']}\n"
            example: str = re.findall(r"e\.g\. (play [^\n]+)", out.getvalue())[-1]
            return example + "\n"

    assert run_plain(session, "en", Typist(), out) == 0
    text = out.getvalue()
    assert session.state["view"]["phase"] == "hand_over"
    assert "refused" not in text and "\x1b[" not in text  # never colour codes either
    assert "this trick: ▶right ♦6 · ★partner ♦K · left ♦J · 10 points so far" in text


# -- 5. NO_COLOR -------------------------------------------------------------------------------


def test_no_color_keeps_red_cards_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 5: with NO_COLOR the cards carry no colour (Textual would turn red into a
    dark grey on the dark background): red suits are bold, black ones plain; the
    kitty's cards are marked +."""
    monkeypatch.setenv("NO_COLOR", "1")
    session = LocalSession(load_preset("shuangsheng"), seed=5, seat=0, deal_seconds=0)
    assert show_in_deal(session) == "D2"
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            bury = _top(app)
            assert isinstance(bury, BuryDialog)
            shown = bury.query_one("#bury-hand", Static).renderable
            assert str(shown).count("+") == 8  # the kitty's cards
            hand = app.hand_text()
            for span in hand.spans:
                style = Style.parse(str(span.style))
                assert style.color is None and style.bgcolor is None
                card = hand.plain[span.start : span.end].strip(" []+")
                assert style.bold is (card[0] in "♥♦" or card == "BJ"), card

    asyncio.run(run())
    assert app.no_color


# -- 6. quitting a local game ------------------------------------------------------------------


def test_quitting_a_local_game_prints_the_seed_and_saves_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\npass\nquit\n"))
    argv = ["play", "--plain", "--preset", "shuangsheng", "--seed", "11", "--bots", "easy"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "seed 11: shengji play --preset shuangsheng --bots easy --seed 11 deals the same" in out
    (path,) = (tmp_path / "games").glob("*-seed11.json")
    assert f"record saved: {path} (shengji replay {path} --seat 0)" in out
    record = load_record(path)
    assert record["seed"] == 11 and len(record["actions"]) >= 2
    verify(record)


def test_ctrl_c_in_the_app_exits_130(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Ctrl-C quits at once (no question), and ``shengji play`` exits 130 with one line."""
    app = TableApp(_trick_session(), lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+c")
            await pilot.pause()

    asyncio.run(run())
    assert app.return_code == 130

    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path))
    monkeypatch.setattr(TableApp, "run", lambda self, **_: setattr(self, "_return_code", 130))
    args = build_parser().parse_args(["play", "--seed", "52", "--preset", "classic-1deck"])
    out, err = io.StringIO(), io.StringIO()
    assert run_play(args, stdout=out, stderr=err) == 130
    assert err.getvalue() == "error: stopped (Ctrl-C)\n"


# -- also: keys, marks, words ------------------------------------------------------------------


def test_help_escape_jumps_hint_selection_and_clicks() -> None:
    session = dealt("classic-1deck", seed=52)  # a hand with ♦s, a 10 after them, and ♥s
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            help_screen = _top(app)
            assert isinstance(help_screen, HelpDialog)
            keys = str(help_screen.query_one("#help-keys", Static).renderable)
            for word in ("Esc: clear", "2-9 0 J K A", "Shift+H", "Ctrl-C", "d: show (亮主)"):
                assert word in keys, word
            await pilot.press("f1")
            await pilot.pause()
            assert not isinstance(_top(app), HelpDialog)
            cards = app.cards  # ♠A ♠K ♠Q ... ♦10 ... as sorted
            await pilot.press("d")  # to the first ♦
            assert cards[app.cursor][0] == "D"
            await pilot.press("0")  # then the next 10
            assert cards[app.cursor][1:] == "10"
            await pilot.press("H")  # Shift+H: hearts (h is help)
            assert cards[app.cursor][0] == "H"
            await pilot.press("space", "escape")
            assert app.selected == set()
            await pilot.click("#hand", offset=(2 + 1, 1))  # border and padding, then card 0
            await pilot.pause()
            assert app.selected == {0} and app.cursor == 0
            await pilot.press("question_mark")
            await app.workers.wait_for_complete()
            await pilot.pause()
            hinted = app.message.removeprefix("hint: play ").split(" · ")[0]
            assert app.selected and hinted == cards_label(app.chosen(), "en")
            await pilot.press("enter")  # plays the hinted cards
            await pilot.pause()
            assert len(session.state["view"]["hand"].split()) < len(cards)
            assert app.message == ""  # the hint was about the turn just played

    asyncio.run(run())


def test_a_hint_is_gone_once_the_table_moves_on() -> None:
    """A hint answered for one decision is not left on screen for the next (online, a
    bot may move for you first)."""
    session = FakeSession(copy.deepcopy(_trick_session().state))
    play = {"type": "play", "cards": session.state["view"]["hand"].split()[0]}
    session.hint = lambda lang: (play, "a reason")  # type: ignore[method-assign,assignment]
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.message.startswith("hint: play ")
            moved = copy.deepcopy(session.state)
            moved["rev"] += 1
            moved["view"]["to_act"] = 1  # the timer ran out: a bot played for us
            session.state = moved
            await until(pilot, lambda: app.message == "")
            assert "hint" not in str(app.w_message.renderable)

    asyncio.run(run())


def test_language_key_switches_the_table() -> None:
    app = TableApp(_trick_session(), lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "levels: your team" in str(app.w_status.renderable)
            english = list(app.log_lines)
            assert english and english[0].startswith("— hand 1"), english
            await pilot.press("l")
            await pilot.pause()
            assert "级: 我方 2" in str(app.w_status.renderable)
            assert "English" in [b.description for _, b in app._bindings]
            # the log already written is read again in Chinese, line for line
            chinese = list(app.log_lines)
            assert len(chinese) == len(english) and "第1局" in chinese[0].replace(" ", ""), chinese
            assert "hand 1" not in "\n".join(chinese)
            await pilot.press("l")
            await pilot.pause()
            assert "levels: your team" in str(app.w_status.renderable)
            assert list(app.log_lines) == english

    asyncio.run(run())


def test_away_and_offline_players_and_card_counts_are_marked() -> None:
    state = copy.deepcopy(_trick_session().state)
    seats = state["room"]["seats"]
    seats[1] = {"kind": "human", "name": "bo", "connected": True, "away": True, "ready": True}
    seats[3] = {"kind": "human", "name": "李雷", "connected": False, "away": False, "ready": True}
    for lang, words in (
        ("en", ["right · bo · away (a bot plays) (11 cards)", "· offline (11 cards)"]),
        ("zh", ["下家 · bo · 离开 (机器人代打) (11张牌)", "· 离线 (11张牌)"]),
    ):
        app = TableApp(FakeSession(copy.deepcopy(state)), lang=lang)

        async def run(app: TableApp = app) -> None:
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()

        asyncio.run(run())
        table = str(app.w_table.renderable)
        for word in words:
            assert word in table, (lang, word)


def test_connection_lost_is_cleared_once_back() -> None:
    session = FakeSession(copy.deepcopy(_trick_session().state))
    session.status, session.attempt = "reconnecting", 1
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "connection lost" in str(app.w_message.renderable))
            app.message = app._say(Refusal("RECONNECTING", "reconnecting"))
            session.status = "connected"  # back, and nothing else changed
            await until(pilot, lambda: "connection" not in str(app.w_message.renderable))
            assert app.message == ""

    asyncio.run(run())


def test_os_errors_in_chinese() -> None:
    refused = connect_error("h:1", ConnectionRefusedError())
    assert failure_line(refused, "zh") == "错误: 连不上 h:1 的服务器 (连接被拒绝) [UNREACHABLE]"
    assert failure_line(refused, "en").endswith("(connection refused) [UNREACHABLE]")
    reset = connect_error("h:1", ConnectionResetError())
    assert "连接被重置" in failure_line(reset, "zh")


# -- online: the same command again, a scheme-less server, --host-key --------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(f"sqlite:///{tmp_path / 'i22.db'}")
    try:
        yield srv
    finally:
        srv.kill()


class Quitter(io.StringIO):
    """Standard input that quits at once (the session is kept for the test)."""

    def __init__(self, lines: tuple[str, ...] = ("quit",)) -> None:
        super().__init__()
        self.session: Any = None
        self.lines = list(lines)

    def readline(self, *_: object) -> str:  # type: ignore[override]  # typeshed: StringIO.readline contradicts _IOBase.readline
        return (self.lines.pop(0) if self.lines else "quit") + "\n"


def _play(argv: list[str], user: Quitter, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    real = plain_mode.run_plain

    def spy(session: Any, lang: str, stdin: Any, stdout: Any) -> int:
        user.session = session
        return real(session, lang, stdin, stdout)

    monkeypatch.setattr(plain_mode, "run_plain", spy)
    args: argparse.Namespace = build_parser().parse_args(["play", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = run_play(args, stdin=user, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_same_command_again_goes_back_to_the_room_it_made(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 2: rerunning the command that made a room (after quitting) takes its seat
    back; without the scheme too; ``--new-room`` makes another."""
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "state"))
    argv = ["--plain", "--preset", "classic-1deck", "--open", "2", "--lang", "en", "--name", "ann"]
    user = Quitter()
    code, out, err = _play(["--connect", server.url, *argv], user, monkeypatch)
    assert code == 0, err
    link = re.findall(r"room created: (\S+)", out)[0]
    assert "your seat is kept: run the same command again" in out

    for url in (server.url, server.url.removeprefix("http://")):
        user = Quitter()
        code, out, err = _play(["--connect", url, *argv], user, monkeypatch)
        assert code == 0, err
        assert "room created" not in out
        assert f"back to the room this command made: {link} (--new-room makes another)" in out
        assert user.session.seat == 0 and user.session.host
        assert user.session.state["room"]["seats"][0]["name"] == "ann"

    code, out, err = _play(["--connect", server.url, *argv, "--new-room"], Quitter(), monkeypatch)
    assert code == 0, err
    (other,) = re.findall(r"room created: (\S+)", out)
    assert other != link
    rooms = json.loads((tmp_path / "state" / "rooms.json").read_text())["rooms"]
    assert set(rooms) == {link, other}


def _api_room(server: ServerProcess) -> tuple[str, str]:
    """A room made over the HTTP API (three bots): its link and its host key."""
    body = {"preset": "classic-1deck", "bots": [None, "heuristic", "heuristic", "heuristic"]}
    req = urllib.request.Request(
        f"{server.url}/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    data = json.loads(urllib.request.urlopen(req, timeout=10).read())
    return f"{server.url}/room/{data['id']}", data["host_key"]


def test_host_key_lets_a_person_start_a_room_made_over_the_api(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "state"))
    link, host_key = _api_room(server)
    user = Quitter(("start",))
    code, out, err = _play(
        ["--connect", link, "--plain", "--host-key", host_key], user, monkeypatch
    )
    assert code == 0, err
    assert "refused" not in out
    assert user.session.host and user.session.state["room"]["status"] == "playing"


def test_a_bad_host_key_is_one_line(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "state"))
    link, host_key = _api_room(server)
    argv = ["--connect", link, "--plain", "--host-key", "nope"]
    code, _, err = _play(argv, Quitter(), monkeypatch)
    assert code == 2 and err.count("\n") == 1 and err.endswith("[BAD_HOST_KEY]\n")


def test_dialogs_show_the_turn_clock_and_the_sheet_counts_down_to_the_next_hand() -> None:
    """A dialog covers the table's clock line: it carries the clock itself. After a hand
    the countdown says what it counts down to."""
    declaring = _declaring()
    deadline = time.time() + 20
    declaring["room"]["deadlines"] = [deadline, None, None, None]
    session = FakeSession(declaring)
    session.link = None
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(_top(app), DeclareDialog))
            clock = _top(app).query_one(".dlg-clock", Static)
            shown = re.fullmatch(r"you: (\d+)s left", str(clock.renderable))
            assert shown is not None, clock.renderable
            # the clock counts down from the deadline (however long the app took to start)
            assert abs(int(shown.group(1)) - (deadline - time.time())) <= 1.5, shown.group(0)

    asyncio.run(run())
    over = _hand_over(declaring)
    over["room"]["deadlines"] = [time.time() + 18, None, None, None]
    for lang, text in (("en", "the next hand starts in 17s"), ("zh", "17秒后开始下一局")):
        assert clock_text(over, lang, 0.0, time.time() + 0.5) == text


def test_a_room_made_from_the_terminal_can_have_a_turn_timer(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--turn-seconds`` makes a timed room; the lobby tells the timer and the changed
    rules to everyone who joins."""
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "state"))
    argv = ["--plain", "--preset", "classic-1deck", "--open", "2", "--name", "ann"]
    argv += ["--turn-seconds", "25", "--set", "throw_penalty=none", "--lang", "en"]
    user = Quitter()
    code, out, err = _play(["--connect", server.url, *argv], user, monkeypatch)
    assert code == 0, err
    assert user.session.state["room"]["turn_seconds"] == 25
    assert "turn timer: 25s a move" in out
    assert "rules changed by the host: Failed throw penalty (甩牌罚分): none" in out
    zh = "\n".join(lobby_lines(user.session.state, "zh", None))
    assert "出牌限时: 每步 25 秒" in zh and "房主改的规则: 甩牌罚分: 不罚" in zh, zh
    for bad in ("601", "2.5", "0.01"):  # 0 (none) or 3 to 600 seconds
        with pytest.raises(SystemExit):
            build_parser().parse_args(["play", "--turn-seconds", bad])
