"""``shengji loadtest`` plays whole hands in rooms of every size, counts what it measured
by kind, and reports every failure: a handshake that fails or times out is an error, any
error makes the command exit non-zero, and a server that cannot be reached is one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from shengji.server.launch import free_port
from shengji.tools import loadtest
from shengji.tools.cli import main
from shengji.tools.loadtest import run_loadtest, seats_of


@pytest.mark.parametrize(("preset", "seats"), [("shuangsheng", 4), ("zhaopengyou", 6)])
def test_a_load_plays_whole_hands_without_errors(preset: str, seats: int) -> None:
    assert seats_of(preset) == seats
    cpus = os.sched_getaffinity(0)
    m = run_loadtest(rooms=2, duration=12.0, think=0.01, preset=preset, ramp=0.5, deal_seconds=0.05)
    assert os.sched_getaffinity(0) == cpus  # the generator's CPUs are given back
    assert (m.placed is None) == (len(cpus) < 2)
    f = m.figures()
    assert f["clients"] == 2 * seats
    assert f["errors"] == 0, f["error_codes"]
    # players act on their turn, or show during the deal (where another show may come
    # first): nothing else they send is refused
    assert f["overtaken"] <= f["mix"]["deal"] * m.stats.actions + 1
    assert f["hands_completed"] >= 1
    # a hand is mostly plays: every card is played once, shows and burials are few
    assert f["mix"]["play"] >= 0.6 and abs(sum(f["mix"].values()) - 1) < 0.01, f["mix"]
    assert f["mix"]["deal"] > 0 or f["mix"]["other"] > 0
    assert f["actions_per_s"] > 0 and f["p50_ms"] is not None and f["p99_ms"] >= f["p50_ms"]
    assert f["server_cpu_ms_per_action"] is not None
    # a latency is taken when a broadcast has reached every player of its room
    assert f"latency p50 (command to broadcast at all {seats} players)" in "\n".join(m.lines(seats))


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to pin apart")
def test_the_server_gets_a_cpu_of_its_own_and_the_generator_the_others() -> None:
    cpus = os.sched_getaffinity(0)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        placed = loadtest.pin_apart(child.pid)
        server, generator = os.sched_getaffinity(child.pid), os.sched_getaffinity(0)
    finally:
        os.sched_setaffinity(0, cpus)
        child.kill()
        child.wait()
    assert len(server) == 1 and not server & generator and server | generator == cpus
    assert placed == f"server on CPU {min(server)}, load generator on CPU " + ", ".join(
        str(c) for c in sorted(generator)
    )


class _Silent(BaseHTTPRequestHandler):
    """A server that makes rooms but answers no WebSocket handshake (``hang``) or
    refuses it (404)."""

    hang = threading.Event()

    def do_POST(self) -> None:
        body = json.dumps({"id": "a" * 32, "host_key": "k"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.server.hang_handshakes:  # type: ignore[attr-defined]
            self.hang.wait(30)
            return
        self.send_error(404)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def silent() -> Iterator[ThreadingHTTPServer]:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Silent)
    srv.daemon_threads = True
    srv.hang_handshakes = True  # type: ignore[attr-defined]
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    _Silent.hang.set()
    srv.shutdown()
    _Silent.hang.clear()


def test_failed_and_timed_out_handshakes_are_errors_and_the_exit_status_says_so(
    silent: ThreadingHTTPServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(loadtest, "HANDSHAKE_SECONDS", 0.5)
    url = f"http://127.0.0.1:{silent.server_address[1]}"
    out = tmp_path / "load.json"
    t0 = time.monotonic()
    args = ["loadtest", "--url", url, "--rooms", "1", "--duration", "1", "--ramp", "0"]
    assert main([*args, "--json", str(out)]) == 1
    figures = json.loads(out.read_text())
    assert figures["errors"] == 4 and figures["error_codes"] == {"HANDSHAKE_TIMEOUT": 4}
    assert set(figures) >= {
        "actions_per_s",
        "p50_ms",
        "p99_ms",
        "server_cpu_ms_per_action",
        "errors",
        "hands_completed",
        "mix",
    }
    assert time.monotonic() - t0 < 30
    silent.hang_handshakes = False  # type: ignore[attr-defined]
    m = run_loadtest(url=url, rooms=1, duration=1, ramp=0)
    assert dict(m.stats.errors) == {"CONNECT_FAILED": 4}
    assert m.lines(4)[-1] == "errors: 4 (CONNECT_FAILED 4)"


def test_nothing_listening_is_one_line_and_a_non_zero_exit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    port = free_port()
    assert main(["loadtest", "--url", f"http://127.0.0.1:{port}", "--rooms", "1"]) != 0
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "UNREACHABLE" in err and str(port) in err


def _measured(rooms: int, per_room: float, p99_ms: float) -> loadtest.Measured:
    """Figures of a 10 s run at ``rooms`` rooms: ``per_room`` actions/s each, every
    latency ``p99_ms``, 0.5 ms of server CPU per action."""
    actions = int(rooms * per_room * 10)
    stats = loadtest.Stats(latencies=[p99_ms / 1000] * 100)
    stats.mix["play"] = actions
    return loadtest.Measured(rooms, 4 * rooms, 10.0, stats, actions * 0.0005, actions * 0.001)


@pytest.mark.parametrize(
    ("runs", "knee", "why"),
    [
        ({10: (1.0, 5.0), 20: (1.0, 20.0), 40: (1.0, 150.0)}, 40, "p99 150 ms > 100 ms"),
        ({10: (1.0, 5.0), 20: (0.8, 20.0)}, 20, "served 80% of the actions offered"),
        ({10: (1.0, 5.0), 20: (0.95, 90.0)}, None, "none up to 20 rooms"),
    ],
)
def test_the_knee_is_the_first_step_past_p99_or_short_of_served(
    monkeypatch: pytest.MonkeyPatch,
    runs: dict[int, tuple[float, float]],
    knee: int | None,
    why: str,
) -> None:
    done: list[int] = []

    def fake(*, rooms: int, **kwargs: object) -> loadtest.Measured:
        done.append(rooms)
        return _measured(rooms, *runs[rooms])

    monkeypatch.setattr(loadtest, "run_loadtest", fake)
    k = loadtest.find_knee([*runs])
    assert (k.knee, k.why) == (knee, why)
    # the steps stop at the knee; each step's line gives its CPU per action
    assert done == [r for r in runs if knee is None or r <= knee]
    lines = k.lines()
    assert len(lines) == len(done) + 1 and lines[-1].startswith("knee: ")
    assert "CPU per action: server 0.50 ms, generator 1.00 ms" in lines[0]
    assert k.figures()["knee"] == knee
