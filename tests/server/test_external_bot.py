"""``shengji serve --bot NAME=CMD``: the operator's external bots are seated by name and
play a hand; a client can never make the server run a command; a room whose bot is no
longer registered after a restart goes on with the heuristic bot."""

from __future__ import annotations

import json
import shlex
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from shengji.server.launch import free_port, start_server

from .client import Client, play_to_end
from .test_restart import _Sock

PY = shlex.quote(sys.executable)
BAD_BOT = f"{PY} {shlex.quote(str(Path(__file__).parents[1] / 'bad_bot.py'))}"


def _post(port: int, body: dict[str, Any]) -> tuple[int, Any]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/rooms",
        json.dumps(body).encode(),
        {"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_a_registered_external_bot_plays_a_hand(tmp_path: Path) -> None:
    port = free_port()
    db = f"sqlite:///{tmp_path / 'ext.db'}"
    proc = start_server(
        port,
        db,
        limits=("commands_burst=1000000",),
        bots=(f"rando={PY} -m shengji.tools.cli bot --player random", f"faller={BAD_BOT} crash"),
    )
    try:
        # a command is never taken from a client: only registered plain names
        for bot in (f"exec:{PY} -m shengji.tools.cli bot", "exec", "rando:1"):
            status, body = _post(port, {"preset": "classic-1deck", "bots": [None, bot]})
            assert status == 400 and body["detail"]["code"] in ("UNKNOWN_BOT", "BAD_BOT_SPEC")
        status, made = _post(
            port, {"preset": "classic-1deck", "bots": [None, "rando", "faller", "rando"]}
        )
        assert status == 200
        c = Client(_Sock(f"ws://127.0.0.1:{port}/ws/{made['id']}"))
        c.request({"type": "join", "name": "ann", "host_key": made["host_key"]})
        refused = c.request({"type": "set_bot", "seat": 2, "bot": f"exec:{PY}"})
        assert refused["type"] == "error" and refused["code"] == "BAD_MESSAGE"
        assert c.request({"type": "ready"})["type"] == "ack"
        assert c.request({"type": "start"})["type"] == "ack"
        assert c.state is not None
        seats = c.state["room"]["seats"]
        assert [s["bot"] for s in seats[1:]] == ["rando", "faller", "rando"]
        play_to_end([c], until="hand_over")
        view = c.state["view"]
        # the hand was played to its end (the crashing bot's moves were made by the
        # heuristic bot in its place)
        assert view["phase"] == "hand_over" and view["hand_sizes"] == [0, 0, 0, 0]
        assert sum(len(p["cards"].split()) for t in view["tricks"] for p in t["plays"]) == 48
        assert len(view["score_sheet"]) == 1
        token = c.token
        c.ws.close()
        # started again without the bots: the room still loads, the heuristic plays them
        proc.kill()
        proc.wait(10)
        proc = start_server(port, db, limits=("commands_burst=1000000",))
        again = Client(_Sock(f"ws://127.0.0.1:{port}/ws/{made['id']}"))
        assert again.request({"type": "join", "token": token})["type"] == "ack"
        assert again.request({"type": "act", "action": {"type": "continue"}})["type"] == "ack"
        play_to_end([again], until="hand_over")
        assert again.state is not None and len(again.state["view"]["score_sheet"]) == 2
    finally:
        proc.kill()
        proc.wait(10)
