"""Kill the server process mid-hand (SIGKILL), start it again: the hand finishes, no
acknowledged action is lost, and the record verifies."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from shengji.game.record import verify
from shengji.server.launch import free_port, start_server

from .client import Client, play_to_end


class _Sock:
    """websockets' sync client with the TestClient method names Client uses."""

    def __init__(self, url: str) -> None:
        self.ws = connect(url, max_size=2**22)

    def send_text(self, text: str) -> None:
        self.ws.send(text)

    def receive_text(self) -> str:
        data = self.ws.recv(timeout=30)
        return data if isinstance(data, str) else data.decode()

    def close(self) -> None:
        self.ws.close()


def _serve(port: int, db: str) -> subprocess.Popen[bytes]:
    return start_server(port, db, limits=("commands_burst=1000000",))


def _post(port: int, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        json.dumps(body).encode(),
        {"Content-Type": "application/json"},
    )
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


def test_kill_and_restart_mid_hand(tmp_path: Path) -> None:
    port, db = free_port(), f"sqlite:///{tmp_path / 'srv.db'}"
    proc = _serve(port, db)
    try:
        made = _post(
            port,
            "/api/rooms",
            {
                "preset": "shuangsheng",
                "overrides": {"match_hands": 1},
                "bots": [None, "heuristic", None, "heuristic"],
                "away_seconds": 600,
            },
        )
        rid = made["id"]
        url = f"ws://127.0.0.1:{port}/ws/{rid}"
        a, b = Client(_Sock(url)), Client(_Sock(url))
        a.request({"type": "join", "name": "a", "host_key": made["host_key"]})
        b.request({"type": "join", "name": "b"})
        tokens = (a.token, b.token)
        for c in (a, b):
            c.request({"type": "ready"})
        a.request({"type": "start"})
        play_to_end([a, b], until="play")
        acked = play_some([a, b], 12)
        before = a.view
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    proc = _serve(port, db)
    try:
        a2, b2 = Client(_Sock(url)), Client(_Sock(url))
        assert a2.request({"type": "join", "token": tokens[0]})["seat"] == a.seat
        assert b2.request({"type": "join", "token": tokens[1]})["seat"] == b.seat
        from .client import sync

        sync(a2)
        after = a2.view
        assert len(after["tricks"]) >= len(before["tricks"])  # nothing acknowledged was lost
        assert after["hand_number"] == before["hand_number"]
        play_to_end([a2, b2])
        rec = json.loads(
            urllib.request.urlopen(
                f"http://127.0.0.1:{port}/api/rooms/{rid}/record", timeout=10
            ).read()
        )
        final = verify(rec)
        assert final.phase == "match_over" and len(final.results) == 1
        assert len(rec["actions"]) >= acked
    finally:
        proc.kill()
        proc.wait(10)


def play_some(clients: list[Client], n: int) -> int:
    """Take ``n`` client actions (bots move in between); returns the actions acknowledged
    by the server so far (a lower bound on the record's length)."""
    from .client import sync

    seated = {c.seat: c for c in clients}
    done = 0
    while done < n:
        for c in clients:
            sync(c)
        view = clients[0].view
        actor = seated.get(view["to_act"])
        if actor is None:
            time.sleep(0.01)
            continue
        reply = actor.request({"type": "act", "action": actor.choose()})
        if reply["type"] == "ack":
            done += 1
    return done
