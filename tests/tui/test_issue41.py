"""Issue 41: a mistyped host key locks nobody out, 找朋友 at 80 columns (levels, the status
lines, the call dialog), every preset named, seats named one way (by name or by place,
never by number), the smaller rough edges, and the bots' plays kept in sight; snapshots
of six- and eight-seat 找朋友 tables at 80x24 while burying, calling and playing."""

from __future__ import annotations

import argparse
import asyncio
import copy
import io
import json
import os
import re
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Static

from shengji.bots.autoplay import choose_action
from shengji.errors import ShengjiError
from shengji.rules.presets import load_preset, preset_names
from shengji.server.launch import ServerProcess
from shengji.tools.cli import build_parser, main
from shengji.tui import plain as plain_mode
from shengji.tui.app import TableApp
from shengji.tui.dialogs import BuryDialog, CallDialog, HelpDialog, ScoreDialog
from shengji.tui.main import run_play
from shengji.tui.online import TokenStore, open_room, parse_target
from shengji.tui.plain import parse_line, run_plain
from shengji.tui.session import LocalSession, Refusal
from shengji.tui.text import hint_text, levels_line, lobby_lines, status_lines, status_rows, who
from shengji.tui.tracker import Tracker
from shengji.words.i18n import error_text, t

from .test_app import FakeSession, until

DATA = Path(__file__).parent / "data"


def _top(app: TableApp) -> Screen[Any]:
    return app.screen


def _friends(players: int, moment: str) -> dict[str, Any]:
    """A 找朋友 table of ``players`` seats (Mei, 大伟 and at eight bob are people, the
    others bots), frozen at the person's burial, call, or turn in a trick (``moment``)."""
    tables = json.loads((DATA / f"friends_{players}.json").read_text(encoding="utf-8"))
    return copy.deepcopy(tables[moment])


# -- 1. a mistyped host key, a seat past the table -----------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(f"sqlite:///{tmp_path / 'i41.db'}")
    try:
        yield srv
    finally:
        srv.kill()


class Quitter(io.StringIO):
    """Standard input that types ``lines``, then quits (the session is kept)."""

    def __init__(self, lines: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.session: Any = None
        self.lines = list(lines)

    def readline(self, *_: object) -> str:  # type: ignore[override]  # typeshed: StringIO.readline contradicts _IOBase.readline
        return (self.lines.pop(0) if self.lines else "quit") + "\n"


def _play(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, user: Quitter | None = None
) -> tuple[int, str, str, Any]:
    """``shengji play --plain ARGV`` in this process: exit status, output, errors and the
    session it played."""
    user = user or Quitter()
    real = plain_mode.run_plain

    def spy(session: Any, lang: str, stdin: Any, stdout: Any) -> int:
        user.session = session
        return real(session, lang, stdin, stdout)

    monkeypatch.setattr(plain_mode, "run_plain", spy)
    args: argparse.Namespace = build_parser().parse_args(["play", "--plain", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = run_play(args, stdin=user, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue(), user.session


def _api_room(server: ServerProcess, people: int = 1) -> tuple[str, str]:
    """A room made over the HTTP API (bots after the first ``people`` seats): its link and
    its host key."""
    bots = [None] * people + ["heuristic"] * (4 - people)
    body = {"preset": "classic-1deck", "bots": bots}
    req = urllib.request.Request(
        f"{server.url}/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    data = json.loads(urllib.request.urlopen(req, timeout=10).read())
    return f"{server.url}/room/{data['id']}", data["host_key"]


def test_a_mistyped_host_key_is_not_kept_and_a_started_room_says_so(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "state"))
    link, _ = _api_room(server, people=2)
    code, _, err, _ = _play(["--connect", link, "--host-key", "WRONG", "--lang", "en"], monkeypatch)
    assert code == 2 and err.endswith("[BAD_HOST_KEY]\n")
    assert (TokenStore().get(link) or {}).get("host_key") is None  # only a key taken is kept
    session, _ = open_room(parse_target(link), name="ann")  # what `play --connect` does
    try:
        assert session.seat == 0 and not session.host
    finally:
        session.close()
    # a key kept by an older client, refused now: dropped, and the seat taken anyway
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "other"))
    TokenStore().put(link, {"host_key": "WRONG"})
    session, _ = open_room(parse_target(link), name="bo")
    try:
        assert session.seat == 1 and (TokenStore().get(link) or {}).get("host_key") is None
    finally:
        session.close()
    # the host starts another room: a seat asked for there is told the match started
    link, host_key = _api_room(server)
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "host"))
    argv = ["--connect", link, "--host-key", host_key, "--lang", "en"]
    code, _, err, session = _play(argv, monkeypatch, Quitter(("start",)))
    assert code == 0, err
    assert session.host and session.state["room"]["status"] == "playing"
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "late"))
    code, _, err, _ = _play(["--connect", link, "--seat", "7", "--lang", "en"], monkeypatch)
    assert code == 2 and err.endswith("[ROOM_STARTED]\n"), err
    assert "the match has started" in err


def test_a_seat_past_the_table_names_the_seats_it_has(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "state"))
    link, _ = _api_room(server)
    code, _, err, _ = _play(["--connect", link, "--seat", "7", "--lang", "en"], monkeypatch)
    assert code == 2 and err == "error: --seat 7: this table has seats 0 to 3 [BAD_SEAT]\n"
    code, _, err, _ = _play(["--seat", "7", "--preset", "classic-1deck"], monkeypatch)
    assert code == 2 and err.endswith("this table has seats 0 to 3 [BAD_SEAT]\n")


# -- 2. 找朋友 at 80 columns ----------------------------------------------------------------------


def test_levels_are_told_once_each_and_fit() -> None:
    state = _friends(8, "play")
    assert levels_line(state, "en") == "levels: all at 2"
    assert levels_line(state, "zh") == "级: 都打2"
    state["view"]["levels"] = ["3", "2", "2", "2", "2", "4", "2", "2"]
    assert levels_line(state, "en") == "levels: you 3 · 大伟 4 · the others 2"
    for players in (6, 8):
        for moment in ("bury", "call", "play"):
            for lang in ("en", "zh"):
                rows = status_rows(_friends(players, moment), lang, 78)
                assert all(cell_len(row) <= 78 for row in rows), rows
                assert len(rows) <= 3 and ("levels: " in rows[-1] or "级: " in rows[-1]), rows
    state = _friends(8, "play")
    state["view"]["levels"] = ["3", "2", "2", "2", "2", "4", "2", "2"]
    assert status_rows(state, "en", 78)[1:] == [
        "friends: the 1st ♣A → not yet · the 1st ♠A → Mei · the 2nd ♦A → not yet",
        "levels: you 3 · 大伟 4 · the others 2",
    ]


async def _settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.pause()


def test_at_80x24_the_status_lines_stay_whole_while_burying_and_calling() -> None:
    for players in (6, 8):
        app = TableApp(FakeSession(_friends(players, "bury")), lang="en")

        async def bury(app: TableApp = app) -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: isinstance(_top(app), BuryDialog))
                await _settle(pilot)
                status = str(app.w_status.renderable).split("\n")
                assert status[0].startswith("burying the kitty · hand 1 · ")
                assert status[1].startswith("friends: ") and status[-1].endswith("all at 2")
                assert app.w_status.size.height == len(status) <= 3  # each row whole

        asyncio.run(bury())


def test_the_call_dialog_sits_under_the_status_and_keeps_a_refused_call() -> None:
    state = _friends(8, "call")
    session = FakeSession(state)
    refused = Refusal("ILLEGAL_CALL", "", {"reason": "syntax"})
    checked: list[dict[str, Any]] = []

    def check(action: dict[str, Any]) -> Refusal | None:
        checked.append(action)
        return refused if "HELL" in action["calls"] else None

    session.check = check  # type: ignore[method-assign]
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(_top(app), CallDialog))
            await _settle(pilot)
            dialog = _top(app)
            box = dialog.query_one("#call-dialog")
            assert box.region.width == 80 and box.region.y >= app.w_status.size.height
            assert box.region.bottom == 24  # at the foot: the status lines stay in sight
            field = dialog.query_one("#call-input", Input)
            field.value = "HELL"
            await pilot.press("enter")
            await _settle(pilot)
            assert _top(app) is dialog and field.value == "HELL"  # what was typed stays
            note = str(dialog.query_one("#dlg-note", Static).renderable)
            assert note.startswith("✗ a friend call is a card and an ordinal")
            assert app.message == "" and session.sent == []  # nothing under the table
            field.value = "SA:1 HA:1"
            await pilot.press("enter")
            await _settle(pilot)
            assert session.sent == [{"type": "call", "calls": "SA:1 HA:1"}]

    asyncio.run(run())


# -- 3. every preset has a name ----------------------------------------------------------------


def test_every_preset_is_named_in_both_languages() -> None:
    for name in preset_names():
        for lang in ("en", "zh"):
            assert t(f"preset.{name}", lang) != f"preset.{name}", name
    state = _friends(6, "play")
    state["view"] = None
    title = lobby_lines(state, "en", None)[0]
    assert "preset." not in title and "找朋友" in title
    assert "preset." not in lobby_lines(state, "zh", None)[0]


# -- 4. seats named one way ----------------------------------------------------------------------


def test_seats_are_named_by_name_or_place_never_by_number() -> None:
    six = _friends(6, "play")
    assert [who(six, s, "en") for s in range(6)] == [
        "you",
        "right",
        "Mei",
        "opposite",
        "大伟",
        "left",
    ]
    for s in (2, 4):
        six["room"]["seats"][s] = {"kind": "bot", "bot": "heuristic"}
    assert [who(six, s, "en") for s in range(6)] == [
        "you",
        "right",
        "2nd right",
        "opposite",
        "2nd left",
        "left",
    ]
    zh = ["你", "下家", "下二家", "对家", "上二家", "上家"]
    assert [who(six, s, "zh") for s in range(6)] == zh
    eight = _friends(8, "play")
    for s in range(1, 8):
        eight["room"]["seats"][s] = {"kind": "bot", "bot": "heuristic"}
    assert [who(eight, s, "en") for s in range(1, 8)] == [
        "right",
        "2nd right",
        "3rd right",
        "opposite",
        "3rd left",
        "2nd left",
        "left",
    ]
    for lang in ("en", "zh"):
        text = " ".join(status_lines(eight, lang))
        assert "seat" not in text and "号位" not in text


def _hand_over() -> LocalSession:
    """A six-seat local match played by the heuristic to the end of its first hand."""
    session = LocalSession(
        load_preset("zhaopengyou", {"players": 6}), seed=3, seat=0, deal_seconds=0
    )
    for _ in range(5000):
        st = session.state
        if st["view"]["phase"] == "hand_over":
            return session
        if st["view"]["to_act"] == 0:
            assert session.act(choose_action(st)) is None
        else:
            session.poll()
    raise AssertionError("the hand never ended")


def test_the_score_sheet_names_the_next_banker_as_the_table_does() -> None:
    session = _hand_over()
    state = session.state
    row = state["view"]["score_sheet"][-1]
    nxt = who(state, row["next_banker"], "en")
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(_top(app), ScoreDialog))
            rows = str(_top(app).query_one("#sheet-rows", Static).renderable)
            assert f"next banker {nxt}" in rows and "seat" not in rows
            log = " ".join(app.logs["zh"])
            assert f"下一局庄家: {who(state, row['next_banker'], 'zh')}" in log
            assert "号位" not in log

    asyncio.run(run())
    no_trump = copy.deepcopy(state)
    no_trump["view"]["score_sheet"][-1]["trump"] = "NT"
    sheet = TableApp(FakeSession(no_trump), lang="en")

    async def words() -> None:
        async with sheet.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(_top(sheet), ScoreDialog))
            rows = str(_top(sheet).query_one("#sheet-rows", Static).renderable)
            assert " 2 no trump · " in rows and "NT" not in rows

    asyncio.run(words())


def test_replay_names_seats_from_yours_with_suit_symbols(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from shengji.game.record import save_record

    session = _hand_over()
    path = tmp_path / "m.json"
    save_record(session.record(), path)
    assert main(["replay", str(path), "--seat", "0", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert " | " not in out and any(suit in out for suit in "♠♥♣♦")
    assert "seat " not in out.replace("seats", "")
    assert re.search(r"  banker (you|right|2nd right|opposite|2nd left|left), level 2, ", out)
    assert main(["replay", str(path), "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "第1局" in out and " | " not in out
    assert main(["replay", str(path)]) == 0  # one language (the locale's), not both
    assert " | " not in capsys.readouterr().out


# -- 5. smaller things -------------------------------------------------------------------------


def test_no_trump_is_said_once() -> None:
    state = _friends(6, "play")
    state["view"]["trump"] = "NT"
    line = status_lines(state, "en")[0]
    assert "no trump" in line and "trump no trump" not in line
    assert "主 无主" not in status_lines(state, "zh")[0]


def test_coins_and_the_search_figures_are_explained() -> None:
    params = {"attempted": "SA SK", "played": "SK", "blocked_by": 1, "stake": True, "who": "you"}
    stake = str(error_text("THROW_FAILED", params, "", "en"))
    assert "(the coins each hand is played for)" in stake
    why = "search: ♠3 ♠4; worth +0.32 ± 0.10 levels over the rule of thumb's burial"
    text = hint_text(({"type": "bury", "cards": "S3 S4"}, why), False, "en")
    assert "levels a hand gained on average" in text
    zh = hint_text(({"type": "bury", "cards": "S3"}, "+0.32 ± 0.10 级"), False, "zh")
    assert "平均每局多升的级数" in zh


def test_a_bot_bankers_burial_is_told() -> None:
    session = LocalSession(load_preset("classic-1deck"), seed=52, seat=0, deal_seconds=0)
    tracker = Tracker("en")
    told: list[str] = []
    for _ in range(5000):
        st = session.state
        told += tracker.update(st)
        if st["view"]["phase"] == "play":
            break
        if st["view"]["to_act"] == 0:
            assert session.act(choose_action(st)) is None
        else:
            session.poll()
    banker = session.state["view"]["banker"]
    assert banker != 0
    assert f"{who(session.state, banker, 'en')} buried the kitty" in told
    # 找朋友: the burial, then the calls, then play begins
    six = LocalSession(load_preset("zhaopengyou", {"players": 6}), seed=3, deal_seconds=0)
    tracker, told = Tracker("en"), []
    while six.state["view"]["phase"] != "play" or six.state["view"]["to_act"] != 0:
        told += tracker.update(six.state)
        if six.state["view"]["to_act"] == 0:
            assert six.act(choose_action(six.state)) is None
        else:
            six.poll()
    told += tracker.update(six.state)
    assert told.index("2nd left buried the kitty") + 1 == next(
        i for i, x in enumerate(told) if x.startswith("2nd left calls the 1st ")
    )
    assert (
        told.index("play begins: trump ♠; the banker, 2nd left, leads")
        == told.index("2nd left buried the kitty") + 2
    )


def test_help_says_how_to_close_it_and_enter_with_nothing_selected_says_what_to_do() -> None:
    session = LocalSession(load_preset("classic-1deck"), seed=52, seat=0, deal_seconds=0)
    for _ in range(5000):
        if session.state["view"]["phase"] == "play" and session.state["view"]["to_act"] == 0:
            break
        st = session.state
        if st["view"]["to_act"] == 0:
            assert session.act(choose_action(st)) is None
        else:
            session.poll()
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot)
            await pilot.press("h")
            await until(pilot, lambda: isinstance(_top(app), HelpDialog))
            keys = str(_top(app).query_one("#dlg-keys", Static).renderable)
            assert keys == "h, Esc or Enter closes this help"
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(_top(app), HelpDialog))
            await pilot.press("space", "escape", "enter")
            await _settle(pilot)
            assert app.message.startswith("nothing selected: space")
            assert not app.message.startswith("✗")

    asyncio.run(run())


def test_an_error_goes_when_the_phase_moves_on() -> None:
    state = _friends(6, "call")
    session = FakeSession(state)
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(_top(app), CallDialog))
            app.message, app.message_code = "✗ “HELL” is not a card", "BAD_CARD"
            app.render_state()
            played = _friends(6, "play")
            session.state = played
            await until(pilot, lambda: not isinstance(_top(app), CallDialog))
            await _settle(pilot)
            assert "HELL" not in app.message and "HELL" not in str(app.w_message.renderable)

    asyncio.run(run())


def test_command_line_slips_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err, _ = _play(["--set", "players=9", "--preset", "zhaopengyou"], monkeypatch)
    assert code == 2 and "players" in err and "4 to 8" in err and "9" in err
    code, _, err, _ = _play(["--connect", "http://[::1", "--lang", "en"], monkeypatch)
    assert code == 2 and "65535" not in err and err.endswith("[BAD_URL]\n")
    code, _, err, _ = _play(["--connect", "", "--lang", "en"], monkeypatch)
    assert code == 2 and err.endswith("[BAD_URL]\n")
    code, _, err, _ = _play(["--spectate", "--lang", "en"], monkeypatch)
    assert code == 2 and "--spectate" in err and err.endswith("[BAD_URL]\n")
    with pytest.raises(ShengjiError):
        parse_target("http://[::1")


def test_a_spectator_who_quits_is_not_told_a_seat_is_kept(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "state"))
    link, host_key = _api_room(server)
    argv = ["--connect", link, "--host-key", host_key, "--lang", "en"]
    assert _play(argv, monkeypatch, Quitter(("start",)))[0] == 0
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "watcher"))
    read, write = os.pipe()  # a spectator's input is read when a line is there
    os.write(write, b"quit\n")
    os.close(write)
    with open(read, encoding="utf-8") as typed:
        argv = ["play", "--plain", "--connect", link, "--spectate", "--lang", "en"]
        out, err = io.StringIO(), io.StringIO()
        code = run_play(build_parser().parse_args(argv), stdin=typed, stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    said = out.getvalue()
    assert "your seat is kept" not in said and "run the same command again to watch" in said


def test_plain_mode_names_an_unknown_command_and_keeps_room_commands_online() -> None:
    session = LocalSession(load_preset("classic-1deck"), seed=52, seat=0, deal_seconds=0)
    assert parse_line("hello there", session.state) == "unknown"
    out = io.StringIO()
    run_plain(session, "en", io.StringIO("hello\nquit\n"), out)
    text = out.getvalue()
    assert "unknown command: hello" in text
    assert "ready" not in text and "start" not in text and "say TEXT" not in text
    assert "call CARD:N" in text


def test_the_invite_link_is_printed_once(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "state"))
    argv = ["--connect", server.url, "--preset", "classic-1deck", "--lang", "en"]
    code, out, err, session = _play(argv, monkeypatch)
    assert code == 0, err
    assert out.count(session.link) == 1
    assert "online also: say TEXT" in out


# -- 6. the bots' plays stay in sight ------------------------------------------------------------


def test_the_bots_play_one_at_a_time_and_a_won_trick_stays_on_the_table() -> None:
    """Seed 33: right led ♦6, partner's ♦K wins so far, left threw ♦J; we play last."""
    session = LocalSession(
        load_preset("classic-1deck"),
        seed=33,
        seat=0,
        deal_seconds=0,
        bot_seconds=30,
        bots="heuristic:plain",  # the rule of thumb alone: the seed was chosen for its plays
    )
    for _ in range(5000):
        view = session.state["view"]
        if view["phase"] == "play" and view["to_act"] == 0:
            break
        if view["to_act"] == 0:
            assert session.act(choose_action(session.state)) is None
        else:
            session.next_bot = 0.0  # (the bots' first plays, not what is looked at here)
            session.poll()
    assert len(session.state["view"]["trick"]) == 3
    assert session.act(choose_action(session.state)) is None
    view = session.state["view"]
    assert view["trick"] == [] and view["to_act"] != 0  # the trick is won; a bot leads next
    rev = session.state["rev"]
    assert not session.poll() and session.state["rev"] == rev  # the bots wait
    won = view["tricks"][-1]
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot)
            rows = [r.plain for r in app.seat_rows(session.state["view"])]
            winner = who(session.state, won["winner"], "en")
            assert sum(1 for r in rows if "★" in r) == 1
            assert any(winner in r and "★" in r for r in rows)
            assert sum(1 for r in rows if "▶" in r) == 1 and any("♦6" in r for r in rows)

    asyncio.run(run())
    session.next_bot = 0.0
    assert session.poll() and session.state["rev"] == rev + 1  # one bot, then a wait again
    assert not session.poll() and session.state["rev"] == rev + 1


def test_bot_seconds_is_a_setting() -> None:
    args = build_parser().parse_args(["play", "--bot-seconds", "1.5"])
    assert args.bot_seconds == 1.5
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--bot-seconds", "9"])


# -- snapshots: 找朋友 at 80x24 ------------------------------------------------------------------


def _snap_app(players: int, moment: str, lang: str) -> TableApp:
    return TableApp(FakeSession(_friends(players, moment)), lang=lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("moment", ["bury", "call", "play"])
@pytest.mark.parametrize("players", [6, 8])
def test_snapshot_friends_80x24(
    snap_compare: Callable[..., bool], players: int, moment: str, lang: str
) -> None:
    app = _snap_app(players, moment, lang)

    async def settle(pilot: Pilot[None]) -> None:
        if moment != "play":
            dialog = BuryDialog if moment == "bury" else CallDialog
            await until(pilot, lambda: isinstance(_top(app), dialog))
        if moment == "call":  # the caret stands still in a picture
            _top(app).query_one("#call-input", Input).cursor_blink = False
        await _settle(pilot)

    assert snap_compare(app, run_before=settle, terminal_size=(80, 24))


def test_the_score_sheet_counts_down_to_the_next_hand_every_second() -> None:
    session = _hand_over()
    state = copy.deepcopy(session.state)
    state["room"]["deadlines"] = [time.time() + 30] + [None] * 5
    app = TableApp(FakeSession(state), lang="en")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(_top(app), ScoreDialog))
            clock = _top(app).query_one(".dlg-clock", Static)

            def shown() -> str:
                return str(clock.renderable)

            await until(pilot, lambda: shown().startswith("the next hand starts in "))
            first = shown()
            await until(pilot, lambda: shown() != first)  # ticks while the sheet is up
            assert shown().startswith("the next hand starts in ")

    asyncio.run(run())
