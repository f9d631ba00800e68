"""``shengji play --bots``: a difficulty (easy, normal, strong) or a registry name, one for
every seat or one per seat after yours, in local play and when a room is made online; the
seats show each bot's level in English and Chinese."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from shengji.bots.heuristic import HeuristicBot
from shengji.bots.random_bot import RandomBot
from shengji.errors import ShengjiError
from shengji.rules.presets import load_preset
from shengji.server.launch import ServerProcess
from shengji.tools.cli import build_parser
from shengji.tui import main as tui_main
from shengji.tui.main import open_session, run_play
from shengji.tui.online import parse_target, server_levels
from shengji.tui.session import LocalSession, seat_bots
from shengji.tui.text import lobby_lines, seat_title


def test_one_value_seats_the_same_bot_everywhere_but_yours() -> None:
    assert seat_bots("easy", seat=0) == [None, "random", "random", "random"]
    assert seat_bots("normal", seat=3) == ["heuristic", "heuristic", "heuristic", None]
    v1 = "heuristic-v1"
    assert seat_bots(v1, seat=1) == [v1, None, v1, v1]


def test_three_values_are_the_seats_after_yours_in_order() -> None:
    assert seat_bots("strong,normal,easy", seat=0) == [None, "search", "heuristic", "random"]
    assert seat_bots("strong,normal,easy", seat=2) == ["heuristic", "random", None, "search"]
    assert seat_bots("search:100ms, random ,normal", seat=1) == [
        "heuristic",
        None,
        "search:100ms",
        "random",
    ]


def test_bad_bots_are_refused_with_their_code() -> None:
    with pytest.raises(ShengjiError) as e:
        seat_bots("strong,normal", seat=0)
    assert e.value.code == "BAD_BOT_SPEC" and e.value.params == {"seats": 2}
    with pytest.raises(ShengjiError) as e:
        seat_bots("hard", seat=0)
    assert e.value.code == "UNKNOWN_BOT"
    # online, names are the server's to check (it may run external bots of its own)
    levels = {"easy": "random", "strong": "rando"}
    assert seat_bots("strong,x,easy", seat=0, levels=levels) == [None, "rando", "x", "random"]
    with pytest.raises(ShengjiError) as e:
        seat_bots("normal", seat=0, levels=levels)
    assert e.value.code == "UNKNOWN_BOT"


def test_local_table_seats_bots_by_level_and_shows_it() -> None:
    session = LocalSession(
        load_preset("classic-1deck"), seed=1, seat=2, bots="normal,easy,strong", deal_seconds=0
    )
    assert type(session.players[3]) is HeuristicBot
    assert type(session.players[0]) is RandomBot
    assert type(session.players[1]).__name__ == "SearchBot"
    assert sorted(session.players) == [0, 1, 3]
    state = session.state
    assert [seat_title(state, s, "en") for s in range(4)] == [
        "↑ partner · random bot (easy)",
        "← left · search bot (strong)",
        "↓ you",
        "→ right · heuristic bot (normal)",
    ]
    assert [seat_title(state, s, "zh") for s in range(4)] == [
        "↑ 对家 · 机器人(随机)·简单",
        "← 上家 · 机器人(搜索)·强",
        "↓ 你",
        "→ 下家 · 机器人(智能)·普通",
    ]


def test_lobby_lists_each_bot_with_its_level() -> None:
    seats: list[dict[str, Any]] = [
        {"kind": "human", "name": "ann", "ready": True, "connected": True},
        {"kind": "bot", "name": "search bot", "bot": "search", "ready": True},
        {"kind": "bot", "name": "rando bot", "bot": "rando", "ready": True},
        {"kind": "bot", "name": "heuristic-v1 bot", "bot": "heuristic-v1", "ready": True},
    ]
    state = {
        "room": {"id": "abc", "preset": "classic", "seats": seats, "host_seat": 0},
        "you": {"seat": 0, "host": True},
    }
    assert lobby_lines(state, "en", None)[3:7] == [
        "▶ seat 0: ann (ready, host)  [your team]",
        "  seat 1: search bot (strong)  [opponents]",
        "  seat 2: rando bot  [your team]",
        "  seat 3: heuristic-v1 bot  [opponents]",
    ]
    assert lobby_lines(state, "zh", None)[4] == "  1号位: 机器人(搜索)·强  [对方]"


def test_online_room_is_made_with_a_bot_per_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[list[str | None]] = []

    def create_room(
        target: Any, preset: str, overrides: Any, bots: list[str | None], **_: Any
    ) -> Any:
        made.append(list(bots))
        raise ShengjiError("stop here", code="SERVER_ERROR")

    monkeypatch.setattr(tui_main, "create_room", create_room)
    server = {"easy": "random", "normal": "heuristic", "strong": "rando"}
    for argv, levels, bots in (
        (["--bots", "strong,normal,easy"], None, [None, "search", "heuristic", "random"]),
        (["--bots", "strong,normal,easy"], server, [None, "rando", "heuristic", "random"]),
        (["--bots", "strong,easy,easy", "--open", "2"], None, [None, "search", None, "random"]),
        (["--bots", "easy", "--seat", "1"], None, ["random", None, "random", "random"]),
        (["--bots", "ext,strong,ext", "--seat", "3"], None, ["ext", "search", "ext", None]),
    ):
        monkeypatch.setattr(tui_main, "server_levels", lambda _target, v=levels: v)
        args = build_parser().parse_args(["play", "--connect", "http://127.0.0.1:9", *argv])
        with pytest.raises(ShengjiError):
            open_session(args, "en", io.StringIO())
        assert made.pop() == bots


def test_online_room_from_the_terminal_seats_bots_by_level(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHENGJI_STATE_DIR", str(tmp_path / "state"))
    srv = ServerProcess(f"sqlite:///{tmp_path / 'levels.db'}")
    try:
        assert server_levels(parse_target(srv.url)) == {
            "easy": "random",
            "normal": "heuristic",
            "strong": "search",
        }
        argv = ["play", "--connect", srv.url, "--plain", "--lang", "en", "--name", "ann"]
        args = build_parser().parse_args([*argv, "--seat", "1", "--bots", "strong,normal,easy"])
        out, err = io.StringIO(), io.StringIO()
        assert run_play(args, stdin=io.StringIO("quit\n"), stdout=out, stderr=err) == 0
        lines = out.getvalue().splitlines()
        assert "  seat 2: search bot (strong)  [opponents]" in lines
        assert "  seat 3: heuristic bot (normal)  [your team]" in lines
        assert "  seat 0: random bot (easy)  [opponents]" in lines
    finally:
        srv.kill()


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        (
            "en",
            "error: --bots takes one bot for every seat or one per seat after yours "
            "(three at four seats, e.g. strong,normal,easy), not 2 [BAD_BOT_SPEC]\n",
        ),
        (
            "zh",
            "错误: --bots 要一个 (所有座位) 或三个 (你之后的座位依次, 如 strong,normal,easy), "
            "不是 2 个 [BAD_BOT_SPEC]\n",
        ),
    ],
)
def test_wrong_number_of_bots_is_one_line(lang: str, line: str) -> None:
    args = build_parser().parse_args(["play", "--plain", "--lang", lang, "--bots", "easy,strong"])
    err = io.StringIO()
    assert run_play(args, stdin=io.StringIO(), stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue() == line
