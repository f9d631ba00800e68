"""One client never hurts another over HTTP (issue 21): every request's head and body are
timed, one address holds a bounded number of connections, bodies over ``body_bytes`` are
refused unread, validation errors never echo input, ``X-Forwarded-For`` counts only from
named proxies, an impossible static path is 404, review workers die with the server, and
an oversized WebSocket frame gets a coded error before its close."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from shengji.server.app import create_app
from shengji.server.guards import BodyLimit
from shengji.server.launch import ServerProcess
from shengji.server.limits import Limits
from shengji.server.serving import text_frame

from .client import Client, play_to_end
from .conftest import FAST_CLIENTS
from .test_restart import _Sock

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
GET = b"GET /api/presets HTTP/1.1\r\nHost: x\r\n\r\n"


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """Start ``shengji serve`` subprocesses (killed at the end) with limits and options."""
    started: list[ServerProcess] = []

    def start(*limits: str, args: tuple[str, ...] = ()) -> ServerProcess:
        srv = ServerProcess(f"sqlite:///{tmp_path / f's{len(started)}.db'}", limits, args)
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.kill()


def _sock(srv: ServerProcess, timeout: float = 5.0) -> socket.socket:
    return socket.create_connection(("127.0.0.1", srv.port), timeout=timeout)


def _served(srv: ServerProcess, within: float = 5.0) -> bool:
    """Whether a new connection is served (200) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with _sock(srv) as s:
            s.sendall(GET)
            if _response(s)[0] == 200:
                return True
        time.sleep(0.1)
    return False


def _response(s: socket.socket) -> tuple[int, bytes]:
    """One whole HTTP response (status, body) read from ``s``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        assert chunk, f"closed before a response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = next(
        int(v) for k, _, v in (x.partition(":") for x in lines[1:]) if k.lower() == "content-length"
    )
    while len(body) < length:
        chunk = s.recv(65536)
        assert chunk
        body += chunk
    return int(lines[0].split()[1]), body


def _closed_within(s: socket.socket, seconds: float, trickle: bytes) -> float:
    """Send ``trickle`` a byte every 0.1 s until the server closes; the seconds it took."""
    t0 = time.monotonic()
    s.settimeout(0.1)
    for byte in trickle:
        try:
            s.sendall(bytes([byte]))
            if s.recv(1024) == b"":
                return time.monotonic() - t0
        except TimeoutError:
            pass
        except OSError:
            return time.monotonic() - t0
        if time.monotonic() - t0 > seconds:
            break
    raise AssertionError(f"still open after {time.monotonic() - t0:.1f} s")


# -- 3. slowloris: every request is timed, connections per address are capped -----------


def test_every_request_head_and_body_is_timed_not_only_the_first(serve: Any) -> None:
    srv = serve("request_seconds=1")
    with _sock(srv) as s:  # a header trickled after one complete request
        s.sendall(GET)
        assert _response(s)[0] == 200
        assert _closed_within(s, 4, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100) < 3
    with _sock(srv) as s:  # a body trickled after its head
        s.sendall(GET)
        assert _response(s)[0] == 200
        s.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n")
        assert _closed_within(s, 4, b"{" + b" " * 150) < 3
    with _sock(srv) as s:  # a prompt keep-alive client is served request after request
        for _ in range(3):
            s.sendall(GET)
            assert _response(s)[0] == 200
            time.sleep(0.4)


def test_open_http_connections_per_address_are_capped(serve: Any) -> None:
    srv = serve("http_connections_per_ip=3")
    held = [_sock(srv) for _ in range(3)]
    try:
        time.sleep(0.3)
        with _sock(srv) as extra:  # refused with a coded answer, then closed
            data = b""
            while chunk := extra.recv(4096):
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 429") and b"\r\nretry-after: " in head.lower()
            assert json.loads(body)["detail"]["code"] == "RATE_LIMITED"
        held.pop().close()
        assert _served(srv), "a freed slot serves again"
        held.pop().close()
        time.sleep(0.3)
        # a WebSocket leaves the HTTP count once upgraded (connections_per_ip counts it)
        rid = _post(srv, "/api/rooms", {"preset": "classic-1deck"})["id"]
        sockets = [connect(f"ws://127.0.0.1:{srv.port}/ws/{rid}") for _ in range(3)]
        with _sock(srv) as s:
            s.sendall(GET)
            assert _response(s)[0] == 200
        for ws in sockets:
            ws.close()
    finally:
        for s in held:
            s.close()


# -- 4. request bodies ---------------------------------------------------------------------


@pytest.fixture
def small_bodies(db_url: str) -> Iterator[TestClient]:
    limits = FAST_CLIENTS.with_overrides(["body_bytes=2000"])
    with TestClient(create_app(db_url, bot_delay=0, deal_seconds=0, limits=limits)) as client:
        yield client


def test_a_body_over_the_limit_is_refused_before_it_is_read(small_bodies: TestClient) -> None:
    big = {"preset": "classic-1deck", "overrides": {"x": "y" * 3000}}
    r = small_bodies.post("/api/rooms", json=big)
    assert r.status_code == 413 and r.json()["detail"]["code"] == "BODY_TOO_LARGE"
    assert r.json()["detail"]["text"]["zh"] and r.headers["connection"] == "close"
    chunked = iter([b" " * 500] * 100)  # no Content-Length: counted as it arrives
    r = small_bodies.post("/api/rooms", content=chunked, headers={"content-type": "text/json"})
    assert r.status_code == 413 and r.json()["detail"]["code"] == "BODY_TOO_LARGE"
    ok = small_bodies.post(
        "/api/rooms",
        content=iter([b'{"preset": ', b'"classic-1deck"}']),
        headers={"content-type": "application/json"},
    )
    assert ok.status_code == 200, ok.text  # a chunked body under the limit is served whole
    assert small_bodies.get("/api/rooms").status_code == 200


def test_a_chunked_body_is_read_no_further_than_the_limit() -> None:
    read: list[int] = []
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        read.append(500)
        return {"type": "http.request", "body": b" " * 500, "more_body": True}

    async def send(msg: dict[str, Any]) -> None:
        sent.append(msg)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the app must not see the body")

    scope = {"type": "http", "headers": [(b"transfer-encoding", b"chunked")]}
    asyncio.run(BodyLimit(app, 2000)(scope, receive, send))  # type: ignore[arg-type]
    assert sum(read) == 2500 and sent[0]["status"] == 413


def test_validation_errors_are_coded_and_never_echo_the_input(http: TestClient) -> None:
    r = http.post("/api/rooms", json={"preset": "SECRET" * 20, "bots": "x"})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail["code"] == "BAD_REQUEST" and "preset" in detail["message"]
    assert detail["text"]["en"] and detail["text"]["zh"]
    assert "SECRET" not in r.text and "input" not in r.text
    r = http.get("/api/rooms/x/review?seat=SECRET&hand=0")
    assert r.status_code == 422 and "SECRET" not in r.text


def test_the_frameworks_own_refusals_are_coded(http: TestClient) -> None:
    """A body nested too deep for the JSON parser (400), a wrong method (405) and an
    unknown path (404) are answered with codes, worded in both languages."""
    deep = b'{"preset":' + b"[" * 5000 + b"]" * 5000 + b"}"
    r = http.post("/api/rooms", content=deep, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "BAD_REQUEST", r.text
    wrong = http.delete("/api/rooms")
    assert wrong.status_code == 405 and wrong.json()["detail"]["code"] == "BAD_REQUEST"
    assert wrong.headers["allow"]  # the framework's headers are kept
    missing = http.get("/api/nothing")
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "NOT_FOUND"
    for answer in (r, wrong, missing):
        text = answer.json()["detail"]["text"]
        assert text["en"] and text["zh"]


@linux_only
def test_a_20_mb_body_gets_413_unread_and_the_server_stays_small(serve: Any) -> None:
    srv = serve()
    assert srv.proc is not None
    before = _rss_mb(srv.proc.pid)
    with _sock(srv) as s:
        s.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 20971520\r\n\r\n"
        )
        status, body = _response(s)  # answered before a byte of the body was sent
        assert status == 413 and json.loads(body)["detail"]["code"] == "BODY_TOO_LARGE"
        s.settimeout(2)
        try:
            for _ in range(20):
                s.sendall(b" " * 1_048_576)
        except OSError:
            pass  # closed: the rest is never read
    with _sock(srv) as s:  # chunked: counted while it arrives, refused at the limit
        s.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in range(5):
            s.sendall(b"2000\r\n" + b" " * 0x2000 + b"\r\n")
        status, body = _response(s)
        assert status == 413 and json.loads(body)["detail"]["code"] == "BODY_TOO_LARGE"
    time.sleep(0.3)
    assert _rss_mb(srv.proc.pid) - before < 50
    assert _get(srv, "/api/presets")[0] == 200


# -- 11. X-Forwarded-For only from named proxies -------------------------------------------


def _post(srv: ServerProcess, path: str, body: dict[str, Any], **headers: str) -> Any:
    req = urllib.request.Request(
        srv.url + path, json.dumps(body).encode(), {"Content-Type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        return json.loads(e.read())


def _get(srv: ServerProcess, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(srv.url + path, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _rooms_made(srv: ServerProcess, n: int) -> list[Any]:
    made = []
    for i in range(n):
        forged = {"X-Forwarded-For": f"203.0.113.{i}"}
        made.append(_post(srv, "/api/rooms", {"preset": "classic-1deck"}, **forged))
    return made


def test_forwarded_for_is_ignored_unless_the_proxy_is_named(serve: Any) -> None:
    limits = ("rooms_burst=2", "rooms_per_hour=0.01")
    made = _rooms_made(serve(*limits), 3)  # loopback is no proxy by default
    assert "id" in made[0] and "id" in made[1]
    assert made[2]["detail"]["code"] == "TOO_MANY_ROOMS"
    behind = serve(*limits, args=("--forwarded-allow-ips", "127.0.0.1"))
    assert all("id" in m for m in _rooms_made(behind, 3))  # a named proxy speaks for many


# -- 12a. NUL in a static path ----------------------------------------------------------------


def test_a_nul_byte_in_a_static_path_is_not_found(db_url: str) -> None:
    with TestClient(create_app(db_url), raise_server_exceptions=False) as client:
        for path in ("/static/%00", "/static/a%00b", "/static/index.html%00.js"):
            assert client.get(path).status_code == 404, path
        assert client.get("/static/index.html").status_code == 200


# -- 12b. review workers die with the server ---------------------------------------------------


def _children(pid: int) -> list[tuple[int, bytes]]:
    """The ``multiprocessing`` processes (workers, resource tracker) started by ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"multiprocessing" in cmd:
                found.append((int(entry.name), cmd))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@linux_only
def test_review_hint_and_replay_workers_die_with_a_killed_server(serve: Any) -> None:
    srv = serve("commands_burst=1000000", "hint_ms=50")
    assert srv.proc is not None
    bots = [None, *["random"] * 3]
    # a finished match of one hand: its replay is made in a worker
    done = _post(
        srv,
        "/api/rooms",
        {"preset": "classic-1deck", "bots": bots, "overrides": {"match_hands": 1}},
    )
    d = Client(_Sock(f"ws://127.0.0.1:{srv.port}/ws/{done['id']}"))
    d.request({"type": "join", "name": "dee", "host_key": done["host_key"]})
    d.request({"type": "ready"})
    d.request({"type": "start"})
    play_to_end([d])
    with urllib.request.urlopen(f"{srv.url}/api/rooms/{done['id']}/replay/views", timeout=60) as r:
        assert r.status == 200
    # a match under way: a review (not over yet, says the worker) and a hint on my turn
    made = _post(srv, "/api/rooms", {"preset": "classic-1deck", "bots": bots})
    c = Client(_Sock(f"ws://127.0.0.1:{srv.port}/ws/{made['id']}"))
    token = c.request({"type": "join", "name": "ann", "host_key": made["host_key"]})["token"]
    c.request({"type": "ready"})
    assert c.request({"type": "start"})["type"] == "ack"
    mine = {"Authorization": f"Bearer {token}"}
    req = urllib.request.Request(
        f"{srv.url}/api/rooms/{made['id']}/review?seat=0&hand=0", headers=mine
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(req, timeout=30)
    assert json.loads(refused.value.read())["detail"]["code"] == "BAD_HAND"
    while not (c.state and c.state.get("view") and c.view["to_act"] == 0):
        c.recv()
    hint = urllib.request.Request(
        f"{srv.url}/api/rooms/{made['id']}/hint", method="POST", headers=mine
    )
    with urllib.request.urlopen(hint, timeout=60) as r:
        assert r.status == 200
    children = _children(srv.proc.pid)
    workers = [pid for pid, cmd in children if b"spawn_main" in cmd]
    assert len(workers) == 3, children  # the reviewer's, the adviser's, the replayer's
    c.ws.close()
    d.ws.close()
    srv.kill()  # SIGKILL: no shutdown code runs
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in workers if _alive(p)], "a worker outlived its server"


# -- 12c. an oversized WebSocket frame -------------------------------------------------------


def test_an_oversized_frame_gets_a_coded_error_then_1009(serve: Any) -> None:
    srv = serve("message_bytes=1024")
    rid = _post(srv, "/api/rooms", {"preset": "classic-1deck"})["id"]
    with connect(f"ws://127.0.0.1:{srv.port}/ws/{rid}", max_size=2**20) as ws:
        ws.send(json.dumps({"v": 1, "id": "a", "type": "chat", "text": "x" * 2000}))
        error = json.loads(ws.recv(timeout=10))
        assert error["type"] == "error" and error["code"] == "MESSAGE_TOO_LARGE"
        assert "1024" in error["message"] and error["text"]["zh"]
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        assert closed.value.rcvd.reason == "MESSAGE_TOO_LARGE"


def test_the_limits_keep_their_documented_defaults() -> None:
    limits = Limits()
    assert limits.request_seconds == 10 and limits.body_bytes == 32_768
    assert limits.http_connections_per_ip == 64
    doc = (Path(__file__).parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    for name in ("request_seconds", "body_bytes", "http_connections_per_ip"):
        assert f"`{name}`" in doc


# -- the server's own text frames ------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65_535, 65_536, 200_000])
def test_text_frames_parse_as_websockets_reads_them(size: int) -> None:
    from websockets.frames import OP_TEXT, Frame
    from websockets.streams import StreamReader

    data = ("é" * size).encode()[:size]
    reader = StreamReader()
    reader.feed_data(text_frame(data))
    reader.feed_eof()
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        frame = done.value
    assert frame.fin and frame.opcode == OP_TEXT and frame.data == data


def _client_frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A masked client frame (RFC 6455 §5.2)."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = bytes((fin << 7 | opcode, 0x80 | n))
    else:
        head = bytes((fin << 7 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class _RawWs:
    """A WebSocket client that writes its frames' bytes as a test cuts them."""

    def __init__(self, srv: ServerProcess, room_id: str) -> None:
        self.sock = _sock(srv, timeout=10)
        self.sock.sendall(
            f"GET /ws/{room_id} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            assert chunk, "closed during the handshake"
            self.buf += chunk
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101")

    def _take(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            assert chunk, "closed"
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def frame(self) -> tuple[int, bytes]:
        """The next frame from the server: (opcode, payload)."""
        b0, b1 = self._take(2)
        n = b1 & 0x7F
        if n == 126:
            n = int.from_bytes(self._take(2), "big")
        elif n == 127:
            n = int.from_bytes(self._take(8), "big")
        return b0 & 0x0F, self._take(n)

    def answer(self) -> dict[str, Any]:
        """The next text message."""
        opcode, data = self.frame()
        assert opcode == 1, (opcode, data)
        return dict(json.loads(data))

    def ping(self, rid: str, pad: int = 0) -> bytes:
        """A ping command's frame (padded with spaces to ``pad`` more bytes)."""
        text = json.dumps({"v": 1, "id": rid, "type": "ping"})[:-1] + " " * pad + "}"
        return _client_frame(1, text.encode())


def test_client_frames_are_read_however_they_are_cut(serve: Any) -> None:
    """Whole frames (several in one segment, a 16-bit length, a pong) are read as they
    arrive; a frame cut in two, a fragmented message, a ping from the client and bad
    UTF-8 are left to websockets, which then reads the rest of that connection."""
    srv = serve("commands_burst=100000")
    rid = _post(srv, "/api/rooms", {"preset": "classic-1deck"})["id"]
    ws = _RawWs(srv, rid)
    ws.sock.sendall(ws.ping("a") + ws.ping("b", pad=300) + _client_frame(0xA, b"unasked"))
    assert [ws.answer()["id"], ws.answer()["id"]] == ["a", "b"]
    frame = ws.ping("c", pad=200)
    ws.sock.sendall(frame[:7])
    time.sleep(0.2)
    ws.sock.sendall(frame[7:] + ws.ping("d"))
    assert [ws.answer()["id"], ws.answer()["id"]] == ["c", "d"]
    ws.sock.sendall(ws.ping("e"))
    assert ws.answer()["id"] == "e"

    ws = _RawWs(srv, rid)
    whole = json.dumps({"v": 1, "id": "f", "type": "ping"}).encode()
    ws.sock.sendall(_client_frame(1, whole[:5], fin=False) + _client_frame(0, whole[5:]))
    assert ws.answer()["id"] == "f"
    ws.sock.sendall(_client_frame(0x9, b"hello") + ws.ping("g"))
    assert ws.frame() == (0xA, b"hello")
    assert ws.answer()["id"] == "g"

    ws = _RawWs(srv, rid)
    ws.sock.sendall(ws.ping("h") + _client_frame(1, b'{"v": "\xff"}'))
    assert ws.answer()["id"] == "h"
    opcode, data = ws.frame()
    assert opcode == 8 and int.from_bytes(data[:2], "big") == 1007


def test_a_whole_hand_is_played_over_a_real_server(serve: Any) -> None:
    """Every message a table sends through the server's own framing arrives whole, in
    order (the test client pings before each move: many commands)."""
    srv = serve("commands_burst=100000")
    made = _post(srv, "/api/rooms", {"preset": "classic-1deck", "bots": [None, *["heuristic"] * 3]})
    sock = _Sock(f"ws://127.0.0.1:{srv.port}/ws/{made['id']}")
    try:
        c = Client(sock)
        c.request({"type": "join", "name": "p", "host_key": made["host_key"]})
        c.request({"type": "ready"})
        assert c.request({"type": "start"})["type"] == "ack"
        assert play_to_end([c], until="hand_over") > 0
    finally:
        sock.close()
