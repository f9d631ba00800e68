"""Two server processes over one database: a room is reachable from both, and a process
whose copy of a room has gone stale refuses to write and hands the room over."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from shengji.server.launch import ServerProcess, free_port, start_server

from .client import Client, play_to_end, sync
from .test_restart import _Sock

FAST = ("commands_burst=1000000",)


def _post(port: int, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/rooms",
        json.dumps(body).encode(),
        {"Content-Type": "application/json"},
    )
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


def _my_turn(c: Client) -> None:
    for _ in range(2000):
        sync(c)
        view = c.view
        if view["phase"] == "play" and view["to_act"] == c.seat:
            return
        time.sleep(0.01)
    raise AssertionError("never my turn")


def test_a_room_is_reachable_from_two_processes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    pa, pb = free_port(), free_port()
    a_proc, b_proc = start_server(pa, db, limits=FAST), start_server(pb, db, limits=FAST)
    try:
        made = _post(
            pa, {"preset": "classic-1deck", "bots": [None, "heuristic", "heuristic", "heuristic"]}
        )
        rid = made["id"]
        on_b = Client(_Sock(f"ws://127.0.0.1:{pb}/ws/{rid}"))  # made on A, played on B
        token = on_b.request({"type": "join", "name": "ann", "host_key": made["host_key"]})["token"]
        on_b.request({"type": "ready"})
        started = on_b.request({"type": "start"})
        assert started["type"] == "ack", started
        play_to_end([on_b], until="play")
        _my_turn(on_b)
        on_a = Client(_Sock(f"ws://127.0.0.1:{pa}/ws/{rid}"))
        assert on_a.request({"type": "join", "token": token})["seat"] == 0
        sync(on_a)
        assert on_a.view == on_b.view  # A read B's game from the store
        # both hold the room now; A writes first, so B's copy is stale
        play = on_a.choose()
        assert on_a.request({"type": "act", "action": play})["type"] == "ack"
        # B's write is refused: B lets go, saying why, and closes
        assert on_b.request({"type": "act", "action": play})["code"] == "ROOM_MOVED"
        _closed_4009(on_b)
        # A's bots answer A's play on A; B must load the room once they are done, or its own
        # bots would race A's and B would hand the room over again (a correct 4009, not this test)
        _my_turn(on_a)
        again = Client(_Sock(f"ws://127.0.0.1:{pb}/ws/{rid}"))  # B loads the room anew
        assert again.request({"type": "join", "token": token})["seat"] == 0
        sync(again)
        sync(on_a)
        assert again.view["hand"] == on_a.view["hand"]
        played, before = play["cards"].split(), on_b.view["hand"].split()
        assert len(again.view["hand"].split()) == len(before) - len(played)
    finally:
        for p in (a_proc, b_proc):
            p.kill()
            p.wait(10)


def _closed_4009(c: Client) -> None:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            c.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4009


def test_a_stale_process_answers_room_moved_to_a_legal_move_and_a_valid_token(
    tmp_path: Path,
) -> None:
    """Without a bus (SQLite), a process whose copy went stale meets commands that its
    copy refuses but the room takes (a legal move, a token made elsewhere): it looks at
    the store, finds the room moved on, and answers ROOM_MOVED, not a rules error."""
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    pa, pb = free_port(), free_port()
    a_proc, b_proc = start_server(pa, db, limits=FAST), start_server(pb, db, limits=FAST)
    try:
        made = _post(
            pa, {"preset": "classic-1deck", "bots": [None, "heuristic", "heuristic", "heuristic"]}
        )
        rid = made["id"]
        on_b = Client(_Sock(f"ws://127.0.0.1:{pb}/ws/{rid}"))
        token = on_b.request({"type": "join", "name": "ann", "host_key": made["host_key"]})["token"]
        on_b.request({"type": "ready"})
        on_b.request({"type": "start"})
        play_to_end([on_b], until="play")
        _my_turn(on_b)
        # ann goes on on A: her move there, A's bots answer, her turn again
        on_a = Client(_Sock(f"ws://127.0.0.1:{pa}/ws/{rid}"))
        on_a.request({"type": "join", "token": token})
        assert on_a.request({"type": "act", "action": on_a.choose()})["type"] == "ack"
        _my_turn(on_a)
        # B, still holding its copy (ann's first device is connected there), gets her next
        # move: legal in the room, not in B's copy
        reply = on_b.request({"type": "act", "action": on_a.choose()})
        assert reply["code"] == "ROOM_MOVED", reply
        _closed_4009(on_b)
        # B reads the room anew for a new connection, and writes it (ann's seat is hers
        # again there): now A's copy is the stale one, and a spectator joining there is
        # told so (the lobby write is refused) and comes back
        again = Client(_Sock(f"ws://127.0.0.1:{pb}/ws/{rid}"))
        assert again.request({"type": "join", "token": token})["seat"] == 0
        eve = Client(_Sock(f"ws://127.0.0.1:{pa}/ws/{rid}"))
        assert (
            eve.request({"type": "join", "name": "eve", "spectate": True})["code"] == "ROOM_MOVED"
        )
        eve = Client(_Sock(f"ws://127.0.0.1:{pa}/ws/{rid}"))
        joined = eve.request({"type": "join", "name": "eve", "spectate": True})
        assert joined["type"] == "ack", joined
        eve_token = joined["token"]
        # eve's token, valid in the room, on B's copy that does not know it
        on_b2 = Client(_Sock(f"ws://127.0.0.1:{pb}/ws/{rid}"))
        assert on_b2.request({"type": "join", "token": eve_token})["code"] == "ROOM_MOVED"
        _closed_4009(again)
        # and B, reading the room again, knows her
        on_b3 = Client(_Sock(f"ws://127.0.0.1:{pb}/ws/{rid}"))
        assert on_b3.request({"type": "join", "token": eve_token})["type"] == "ack"
    finally:
        for p in (a_proc, b_proc):
            p.kill()
            p.wait(10)


PG = os.environ.get("SHENGJI_TEST_PG")


@pytest.mark.skipif(not PG, reason="SHENGJI_TEST_PG is not set: no PostgreSQL to test against")
def test_a_spectator_on_another_process_follows_the_game() -> None:
    """Players on B, a spectator on A: PostgreSQL LISTEN/NOTIFY carries B's changes to A,
    which sends its spectator every new table and chat line without a reconnect."""
    assert PG is not None
    a_proc, b_proc = ServerProcess(PG, FAST), ServerProcess(PG, FAST)
    try:
        made = _post(
            b_proc.port,
            {"preset": "classic-1deck", "bots": [None, "heuristic", "heuristic", "heuristic"]},
        )
        rid = made["id"]
        player = Client(_Sock(f"ws://127.0.0.1:{b_proc.port}/ws/{rid}"))
        player.request({"type": "join", "name": "ann", "host_key": made["host_key"]})
        watcher = Client(_Sock(f"ws://127.0.0.1:{a_proc.port}/ws/{rid}"))
        assert watcher.request({"type": "join", "name": "eve", "spectate": True})["type"] == "ack"
        player.request({"type": "ready"})
        player.request({"type": "start"})
        play_to_end([player], until="play")
        player.request({"type": "chat", "text": "hello from B"})
        _my_turn(player)
        player.request({"type": "act", "action": player.choose()})
        _my_turn(player)  # the bots on B have moved: the table stays put now
        want = player.view["tricks"], player.view["trick"]
        deadline = time.time() + 20
        while time.time() < deadline:
            msg = watcher.recv()
            view = watcher.state["view"] if watcher.state and "view" in watcher.state else None
            if view and (view["tricks"], view["trick"]) == want and watcher.chat:
                break
        else:
            raise AssertionError("the spectator on A never saw B's table")
        assert watcher.view["seat"] is None and "hand" not in watcher.view
        assert [line["text"] for line in watcher.chat] == ["hello from B"]
        assert msg is not None
    finally:
        a_proc.kill()
        b_proc.kill()
