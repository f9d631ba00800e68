"""Online play from the terminal against a real server process: make a room, ready,
start, finish a hand, quit, come back with the kept token; spectate; an unknown room;
the server killed mid-hand (reconnect and resume, or one line when it stays away); and
the Textual app through the lobby and a hand."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import stat
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from shengji.bots.autoplay import choose_action
from shengji.server.launch import ServerProcess
from shengji.tools.cli import build_parser
from shengji.tui import plain as plain_mode
from shengji.tui.main import run_play
from shengji.tui.online import Target, TokenStore, create_room, open_room, parse_target
from shengji.tui.plain import action_line
from shengji.tui.session import Refusal
from shengji.tui.text import hint_text, my_turn

from .test_app import until

ROOT = Path(__file__).parents[2]


class Server(ServerProcess):
    """A ``shengji serve`` subprocess over a SQLite file in ``tmp``."""

    def __init__(self, tmp: Path) -> None:
        super().__init__(f"sqlite:///{tmp / 'tui.db'}")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path)
    try:
        yield srv
    finally:
        srv.kill()


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "state"
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(d))
    return d


class Player(io.StringIO):
    """Standard input answering from the session run_plain is given: in the lobby
    ``start``, then legal plays; ``quit`` once a hand is over (or when ``stop_after``
    lines were read, or when ``on_line`` says so)."""

    def __init__(
        self, stop_after: int | None = None, on_line: Callable[[Player], None] | None = None
    ) -> None:
        super().__init__()
        self.session: Any = None
        self.lines: list[str] = []
        self.stop_after = stop_after
        self.on_line = on_line

    def readline(self, *_: object) -> str:  # type: ignore[override]  # typeshed: StringIO.readline contradicts _IOBase.readline
        state = self.session.state
        view = state.get("view")
        if self.on_line:
            self.on_line(self)
            state = self.session.state
            view = state.get("view")
        if self.stop_after is not None and len(self.lines) >= self.stop_after:
            line = "quit"
        elif not view:
            line = "start"
        elif view["phase"] == "hand_over":
            line = "quit"
        else:
            line = action_line(choose_action(state))
        self.lines.append(line)
        return line + "\n"


def _play(argv: list[str], user: Player, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """``shengji play ARGV`` in this process, with ``user`` at the keyboard."""
    real = plain_mode.run_plain

    def spy(session: Any, lang: str, stdin: Any, stdout: Any) -> int:
        user.session = session
        return real(session, lang, stdin, stdout)

    monkeypatch.setattr(plain_mode, "run_plain", spy)
    args = build_parser().parse_args(["play", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = run_play(args, stdin=user, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_whole_online_game_from_the_terminal(
    server: Server, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # create: a room with three bots, printed invite link, host key and token kept
    user = Player()
    code, out, err = _play(
        [
            "--connect",
            server.url,
            "--plain",
            "--preset",
            "classic-1deck",
            "--lang",
            "en",
            "--name",
            "ann",
        ],
        user,
        monkeypatch,
    )
    assert code == 0, err
    assert "room created: http://127.0.0.1:" in out and "invite link" in out
    assert user.lines[0] == "start"  # the host started the (ready) room
    assert "ann (ready, host)" in out  # joined and said ready by itself
    tricks = len(user.session.state["view"]["tricks"])
    assert f"trick {tricks} → " in out and "Collectors scored" in out  # a whole hand, told
    assert "your seat is kept: run the same command again" in out
    store = state_dir / "rooms.json"
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    rooms = json.loads(store.read_text())["rooms"]
    ((link, entry),) = rooms.items()
    assert entry["token"] and entry["host_key"] and link.startswith(server.url + "/room/")
    assert len(link.rsplit("/", 1)[1]) == 32

    # rejoin with the kept token: the same seat, the hand's end still waiting for us
    user = Player(stop_after=1)
    code, out, err = _play(["--connect", link, "--plain", "--lang", "en"], user, monkeypatch)
    assert code == 0, err
    assert f"taking back your seat in {link}" in out
    assert user.session.seat == 0 and user.session.host
    assert "hand over · type next for the next hand" in out

    # someone else, without a token, after the start: told to watch, then watching
    other = state_dir.parent / "other"
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(other))
    code, out, err = _play(["--connect", link, "--plain"], Player(), monkeypatch)
    assert code == 2 and err.count("\n") == 1
    assert "the match has started: you can watch it (--spectate) [ROOM_STARTED]" in err
    session, resumed = open_room(parse_target(link), name="watcher", spectate=True)
    try:
        deadline = time.time() + 10
        while not session.state and time.time() < deadline:
            session.poll()
            time.sleep(0.02)
        assert session.seat is None and "hand" not in session.state["view"]
        assert not resumed
    finally:
        session.close()


def test_unknown_room_is_one_line(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    link = f"{server.url}/room/{'0' * 32}"
    code, _, err = _play(["--connect", link, "--plain"], Player(), monkeypatch)
    assert code == 2 and err == "error: there is no such room [NO_ROOM]\n"
    r = subprocess.run(
        [sys.executable, "-m", "shengji.tools.cli", "play", "--connect", link],
        capture_output=True,
        timeout=60,
        cwd=ROOT,
    )
    assert r.returncode == 2 and r.stderr.decode() == "error: there is no such room [NO_ROOM]\n"


def _room(server: Server) -> tuple[Target, dict[str, Any]]:
    target = parse_target(server.url)
    data = create_room(target, "classic-1deck", {}, [None, "heuristic", "heuristic", "heuristic"])
    return Target(target.base, data["id"]), data


def test_server_killed_mid_hand_reconnects_and_resumes(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    target, data = _room(server)
    TokenStore().put(target.link, {"host_key": data["host_key"]})
    killed: list[int] = []

    def kill_once(user: Player) -> None:
        view = user.session.state.get("view")
        if view and view["phase"] == "play" and len(view["tricks"]) >= 2 and not killed:
            killed.append(len(view["tricks"]))
            server.kill()  # SIGKILL mid-hand: the next command finds the connection gone
        elif len(killed) == 1 and server.proc is None:
            killed.append(0)
            server.restart()  # started again on its database

    user = Player(on_line=kill_once)
    code, out, err = _play(["--connect", target.link, "--plain"], user, monkeypatch)
    assert code == 0, err
    assert killed and "connection lost: reconnecting" in out and "reconnected" in out
    assert user.session.state["view"]["phase"] == "hand_over"
    assert "Traceback" not in out + err


def test_server_gone_for_good_is_one_line(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHENGJI_RETRY_SECONDS", "1.5")
    target, data = _room(server)
    TokenStore().put(target.link, {"host_key": data["host_key"]})

    def kill(user: Player) -> None:
        view = user.session.state.get("view")
        if view and view["phase"] == "play":
            server.kill()

    code, out, err = _play(["--connect", target.link, "--plain"], Player(on_line=kill), monkeypatch)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"error: lost the connection to 127.0.0.1:{server.port}")
    assert "run the same command again" in err and err.endswith("[CONNECTION_LOST]\n")


def test_textual_app_online_lobby_start_and_a_hand(server: Server) -> None:
    from textual.screen import Screen

    from shengji.tui.app import TableApp
    from shengji.tui.dialogs import BuryDialog, DeclareDialog, ScoreDialog

    target, data = _room(server)
    session, _ = open_room(target, name="kim", host_key=data["host_key"])
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:

            def ready() -> bool:
                seats = (session.state.get("room") or {}).get("seats") or []
                return any(s.get("name") == "kim" and s.get("ready") for s in seats)

            for _ in range(200):  # the join's state comes first, the "ready" one after it
                await pilot.pause(0.05)
                if ready():
                    break
            await pilot.pause(0.05)
            table = str(app.w_table.renderable)
            assert "invite link: " + target.link in table
            assert "kim (ready, host)" in table
            await pilot.press("s")  # start
            for _ in range(3000):
                await pilot.pause(0.02)
                view = session.state.get("view")
                if view and view["phase"] == "hand_over":
                    break
                # App.screen is typed Screen[object], disjoint (for mypy) from the dialogs
                screen: Screen[Any] = app.screen
                if isinstance(screen, DeclareDialog):
                    await pilot.press("p")
                elif isinstance(screen, BuryDialog):
                    screen.dismiss(choose_action(session.state)["cards"])
                elif view and view["phase"] == "play" and my_turn(session.state):
                    await pilot.press("question_mark")
                    await app.workers.wait_for_complete()
                    # the server's strongest bot answers, with its reason
                    assert app.message.startswith("hint: play ") and " · " in app.message
                    assert app.selected  # the hint selected its cards: Esc clears them
                    await pilot.press("escape")
                    action = choose_action(session.state)
                    for card in action["cards"].split():
                        idx = next(
                            i
                            for i, c in enumerate(app.cards)
                            if c == card and i not in app.selected
                        )
                        app.cursor = idx
                        await pilot.press("space")
                    await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ScoreDialog))
            assert session.state["view"]["phase"] == "hand_over"
            await pilot.press("q")
            await pilot.pause()

    try:
        asyncio.run(run())
    finally:
        session.close()
    assert app.return_code in (0, None) and app.error is None


def test_urls() -> None:
    assert parse_target("localhost:8000") == Target("http://localhost:8000")
    assert parse_target("https://x.org/room/ab12").ws_url == "wss://x.org/ws/ab12"
    assert parse_target("http://h:1/ws/abc").link == "http://h:1/room/abc"


def test_token_store_is_private_and_tolerant(state_dir: Path) -> None:
    store = TokenStore()
    assert store.get("k") is None
    store.put("k", {"token": "t"})
    entry = store.get("k")
    assert entry is not None and entry["token"] == "t"
    assert stat.S_IMODE((state_dir / "rooms.json").stat().st_mode) == 0o600
    assert stat.S_IMODE(state_dir.stat().st_mode) == 0o700
    (state_dir / "rooms.json").write_text("not json")
    assert store.get("k") is None
    store.forget("k")
    os.environ.pop("XDG_STATE_HOME", None)


def test_state_dir_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from shengji.tui.online import state_dir as where

    monkeypatch.delenv("SHENGJI_STATE_DIR")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "x"))
    assert where() == tmp_path / "x" / "shengji"
    monkeypatch.delenv("XDG_STATE_HOME")
    assert where() == Path.home() / ".local" / "state" / "shengji"
    assert isinstance(argparse.Namespace(), argparse.Namespace)


def test_a_table_without_hints_says_so_in_the_terminal(server: Server) -> None:
    """Online hints come from the server; a room made without them refuses in words."""
    target = parse_target(server.url)
    req = urllib.request.Request(
        f"{server.url}/api/rooms",
        json.dumps(
            {
                "preset": "classic-1deck",
                "bots": [None, "heuristic", "heuristic", "heuristic"],
                "hints": False,
            }
        ).encode(),
        {"Content-Type": "application/json"},
    )
    data = json.loads(urllib.request.urlopen(req, timeout=10).read())
    session, _ = open_room(Target(target.base, data["id"]), name="kim", host_key=data["host_key"])
    try:
        refused = session.hint("zh")
        assert isinstance(refused, Refusal) and refused.code == "HINTS_OFF"  # in the lobby too
        assert session.command({"type": "start"}) is None
        deadline = time.time() + 30
        while not my_turn(session.state) and time.time() < deadline:
            session.poll()
            time.sleep(0.02)
        assert my_turn(session.state)
        refused = session.hint("zh")
        assert isinstance(refused, Refusal) and refused.code == "HINTS_OFF"
        assert hint_text(refused, True, "zh") == "没有提示: 房主设定这张桌子不能用提示"
    finally:
        session.close()


def test_a_notice_from_the_server_is_told_in_the_terminal() -> None:
    import queue

    from shengji.tui.session import Refusal, RemoteSession

    s = RemoteSession.__new__(RemoteSession)  # only its inbox: no server needed
    s._inbox = queue.Queue()
    s._lost = None
    s.notices = []
    text = {"en": "time ran out: the bot played ♥10 for Ann", "zh": "Ann 超时, 机器人替其出了 ♥10"}
    s._inbox.put({"type": "notice", "code": "TIME_RAN_OUT", "params": {"seat": 0}, "text": text})
    assert s.poll() is True
    (note,) = s.notices
    assert isinstance(note, Refusal) and note.code == "TIME_RAN_OUT"
    assert note.say("en") == "⚑ time ran out: the bot played ♥10 for Ann"
    assert note.say("zh") == "⚑ Ann 超时, 机器人替其出了 ♥10"
