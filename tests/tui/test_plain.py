"""``--plain`` driven through a whole hand from a script, with a refused command."""

from __future__ import annotations

import io

from shengji.cli import main
from shengji.presets import load_preset
from shengji.server.autoplay import choose_action
from shengji.tui.plain import run_plain
from shengji.tui.session import LocalSession


class ScriptedUser(io.StringIO):
    """Standard input that answers each prompt from the session's state: first a play
    that breaks the rules, then legal commands until the hand is over."""

    def __init__(self, session: LocalSession) -> None:
        super().__init__()
        self.session = session
        self.tried_illegal = False
        self.lines: list[str] = []

    def readline(self, *_: object) -> str:
        state = self.session.state
        view = state["view"]
        if view["phase"] == "hand_over":
            line = "quit"
        elif view["phase"] == "play" and view["trick"] and not self.tried_illegal:
            self.tried_illegal = True
            line = "play " + view["hand"]  # every card: never a legal follow
        elif view["phase"] == "play" and not self.lines:
            line = "hint"
        else:
            action = choose_action(state)
            line = {"pass": "pass", "continue": "next"}.get(action["type"]) or (
                f"{action['type']} {action['cards']}"
            )
        self.lines.append(line)
        return line + "\n"


def test_plain_mode_plays_a_hand_and_refuses_with_the_rule() -> None:
    session = LocalSession(load_preset("classic-1deck"), seed=7, seat=2)
    user = ScriptedUser(session)
    out = io.StringIO()
    assert run_plain(session, "en", user, out) == 0
    text = out.getvalue()
    assert session.state["view"]["phase"] == "hand_over"
    assert "refused: WRONG_CARD_COUNT" in text
    assert "Collectors scored" in text
    assert "hint:" in text or "hint" not in user.lines


def test_plain_cli_from_stdin(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("look\nplay ZZ\nquit\n"))
    assert main(["play", "--plain", "--preset", "tuolaji", "--seed", "3", "--lang", "zh"]) == 0
    text = capsys.readouterr().out
    assert "命令" in text and ("不行: BAD_CARD" in text or "等待" in text)


def test_plain_mode_on_a_server(tmp_path) -> None:
    import json
    import urllib.request

    from shengji.server.launch import free_port, start_server
    from shengji.tui.session import RemoteSession

    port = free_port()
    proc = start_server(port, f"sqlite:///{tmp_path / 'tui.db'}")
    try:
        body = json.dumps(
            {"preset": "classic-1deck", "bots": [None, "heuristic", "heuristic", "heuristic"]}
        ).encode()
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/rooms", body, {"Content-Type": "application/json"}
        )
        url = f"http://127.0.0.1:{port}" + json.loads(urllib.request.urlopen(req).read())["url"]
        session = RemoteSession(url, name="term")
        assert session.token and session.state["you"]["seat"] == 0
        assert session._request({"type": "ready"})["type"] == "ack"
        assert session._request({"type": "start"})["type"] == "ack"
        out = io.StringIO()
        assert run_plain(session, "en", ScriptedUser(session), out) == 0  # type: ignore[arg-type]
        assert session.state["view"]["phase"] == "hand_over"
        assert "refused: WRONG_CARD_COUNT" in out.getvalue()
    finally:
        proc.kill()
        proc.wait(10)
