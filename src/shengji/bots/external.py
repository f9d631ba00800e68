"""External bots: programs that speak the bot protocol (docs/bot-protocol.md) on their
standard input and output, played as if they were bots of the registry.

``exec:CMD`` names one on the command line (``shengji simulate``); a server's operator
registers commands by name (``shengji serve --bot NAME=CMD``). Web clients can name only
registered bots: :func:`command_line_player` is the one place that reads ``exec:``.

A bot that crashes, breaks the protocol or does not answer within its time limit raises
:class:`BotFailure` (its process is killed; a new one is started when it is asked again).
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import hashlib
import json
import logging
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from ..errors import Code, ShengjiError
from ..game.actions import Action, action_from_json
from ..game.players import Player
from ..game.views import SeatView
from .botproto import PROTOCOL, act_message, encode, game_message, hello_message
from .registry import BotKind, bot_names, check_spec, make_player, register

log = logging.getLogger("shengji.bots")

#: The prefix of a player spec that runs a command (command line only).
EXEC = "exec:"

#: Longest line a bot may send (bytes of UTF-8, roughly).
MAX_LINE = 1 << 20


class BotFailure(ShengjiError):
    """An external bot crashed (``BOT_CRASHED``), did not answer in time
    (``BOT_TIMEOUT``) or broke the protocol (``BOT_PROTOCOL``)."""

    code: str = Code.BOT_PROTOCOL

    def __init__(self, message: str, *, code: str, command: str, stderr: str = "") -> None:
        super().__init__(message, code=code, params={"command": command})
        self.command = command
        #: The last lines the bot wrote on its standard error.
        self.stderr = stderr


@dataclass(frozen=True, slots=True)
class BotLimits:
    """Seconds an external bot has for each decision, and to start (``hello``/``game``)."""

    decision: float = 5.0
    startup: float = 30.0


class BotProcess:
    """One running bot program, after the handshake."""

    def __init__(self, command: str, limits: BotLimits) -> None:
        self.command = command
        self.limits = limits
        argv = command_argv(command)
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,  # its own process group: killed whole
            )
        except OSError as e:
            raise BotFailure(
                f"cannot start {command!r}: {e}", code=Code.BOT_CRASHED, command=command
            ) from None
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=20)
        readers = [
            threading.Thread(target=self._read_out, args=(self.proc.stdout,), daemon=True),
            threading.Thread(target=self._read_err, args=(self.proc.stderr,), daemon=True),
        ]
        for reader in readers:
            reader.start()
        self.err_reader = readers[1]
        self.send(hello_message(limits.decision))
        hello = self.receive("hello", limits.startup)
        if hello.get("protocol") != PROTOCOL:
            self.kill()
            raise self.failure("BOT_PROTOCOL", f"speaks protocol {hello.get('protocol')!r}, not 1")
        declared = hello.get("options", [])
        self.options = (
            {str(o["name"]) for o in declared if isinstance(o, dict) and "name" in o}
            if isinstance(declared, list)
            else set()
        )

    def _read_out(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def _read_err(self, stream: IO[str]) -> None:
        for line in stream:
            self.stderr.append(line.rstrip("\n")[:500])

    def failure(self, code: str, why: str) -> BotFailure:
        """A :class:`BotFailure` for this bot (with its last stderr lines)."""
        if self.proc.poll() is not None:
            self.err_reader.join(1.0)  # what it said before it went
        return BotFailure(
            f"bot {self.command!r} {why}",
            code=code,
            command=self.command,
            stderr="\n".join(self.stderr),
        )

    def send(self, msg: dict[str, Any]) -> None:
        """Write one line to the bot (a bot that is gone: ``BOT_CRASHED``)."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(encode(msg))
            self.proc.stdin.flush()
        except (OSError, ValueError):
            self.kill()
            raise self.failure("BOT_CRASHED", "has exited") from None

    def receive(self, kind: str, seconds: float, request: int | None = None) -> dict[str, Any]:
        """The bot's next line of type ``kind`` (``info`` lines are skipped), within
        ``seconds``; the process is killed on any failure."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise self.failure("BOT_TIMEOUT", f"did not answer within {seconds:g} s") from None
            if line is None:
                self.kill()
                rc = self.proc.returncode
                raise self.failure("BOT_CRASHED", f"exited (status {rc})")
            if not line.strip():
                continue
            try:
                if len(line) > MAX_LINE:
                    raise ValueError("line too long")
                msg = json.loads(line)
                if not isinstance(msg, dict):
                    raise ValueError("not an object")
            except ValueError as e:
                self.kill()
                raise self.failure("BOT_PROTOCOL", f"sent a line that is not JSON ({e})") from None
            got = msg.get("type")
            if got == "info":
                continue
            if got == "error":
                self.kill()
                raise self.failure("BOT_PROTOCOL", f"gave up: {msg.get('message')!s:.300}")
            if got != kind or (request is not None and msg.get("id") != request):
                self.kill()
                raise self.failure("BOT_PROTOCOL", f"sent {line.strip()[:200]!r}, not {kind!r}")
            return msg

    def alive(self) -> bool:
        """Whether the process still runs."""
        return self.proc.poll() is None

    def cpu_seconds(self) -> float | None:
        """The CPU time the program's process has used so far, where the system tells it
        (Linux: ``/proc/PID/schedstat``, in nanoseconds); None elsewhere."""
        try:
            with open(f"/proc/{self.proc.pid}/schedstat", encoding="ascii") as f:
                return int(f.read().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            return None

    def kill(self) -> None:
        """Kill the bot and everything it started."""
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(5)

    def close(self, grace: float = 2.0) -> None:
        """Say ``quit``, close its input, and kill it if it has not exited in ``grace`` s."""
        if self.proc.poll() is None:
            with contextlib.suppress(OSError, ValueError, BotFailure):
                self.send({"type": "quit"})
            with contextlib.suppress(OSError, ValueError):
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class BotPool:
    """Idle bot processes kept between matches (``simulate`` plays many deals in a row)."""

    idle: dict[tuple[str, BotLimits], list[BotProcess]] = field(default_factory=dict)

    def acquire(self, command: str, limits: BotLimits) -> BotProcess:
        """An idle process for ``command`` or a new one."""
        free = self.idle.get((command, limits), [])
        while free:
            proc = free.pop()
            if proc.alive():
                return proc
        return BotProcess(command, limits)

    def release(self, proc: BotProcess) -> None:
        """Keep ``proc`` for the next match."""
        if proc.alive():
            self.idle.setdefault((proc.command, proc.limits), []).append(proc)

    def close_all(self) -> None:
        """Stop every idle process."""
        for procs in self.idle.values():
            for proc in procs:
                proc.close()
        self.idle.clear()


#: The pool of command-line external bots in this process.
POOL = BotPool()
atexit.register(POOL.close_all)


def bot_seed(seed: int, seat: int) -> int:
    """The seed an external bot is given: derived one way from the match's seed (which
    would tell the deal) and the seat."""
    digest = hashlib.sha256(f"shengji external bot {seed} {seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class ExternalBot:
    """A player whose decisions come from an external program.

    The process is started (or taken from ``pool``) on the first decision; each match
    begins with a ``game`` message. A failure kills the process and raises
    :class:`BotFailure`; the next decision starts a new one.
    """

    def __init__(
        self,
        command: str,
        seat: int,
        seed: int,
        limits: BotLimits | None = None,
        options: Mapping[str, str] | None = None,
        pool: BotPool | None = None,
    ) -> None:
        self.command = command
        self.seat = seat
        self.seed = bot_seed(seed, seat)
        self.limits = limits or BotLimits()
        self.options = dict(options or {})
        self.pool = pool
        self.proc: BotProcess | None = None
        self.requests = 0
        #: The CPU seconds the program spent on its last decision (None: not known here).
        self.last_cpu: float | None = None

    def _process(self, view: SeatView) -> BotProcess:
        if self.proc is not None and self.proc.alive():
            return self.proc
        proc = self.pool.acquire(self.command, self.limits) if self.pool else None
        if proc is not None:
            try:  # a kept process starts the new match, or a fresh one does
                self._start(proc, view)
                self.proc = proc
                return proc
            except BotFailure:
                pass
        proc = BotProcess(self.command, self.limits)
        self._start(proc, view)
        self.proc = proc
        return proc

    def _start(self, proc: BotProcess, view: SeatView) -> None:
        unknown = sorted(set(self.options) - proc.options)
        if unknown:
            proc.close()
            raise ShengjiError(
                f"bot {self.command!r} has no option {', '.join(unknown)}; "
                f"its options: {', '.join(sorted(proc.options)) or 'none'}",
                code=Code.UNKNOWN_BOT_OPTION,
            )
        proc.send(game_message(view.options, self.seat, self.seed, self.options))
        proc.receive("ready", self.limits.startup)

    def act(self, view: SeatView) -> Action:
        """Ask the program (raises :class:`BotFailure`)."""
        proc = self._process(view)
        self.requests += 1
        self.last_cpu = None
        try:
            before = proc.cpu_seconds()
            proc.send(act_message(self.requests, view, self.limits.decision))
            answer = proc.receive("action", self.limits.decision, self.requests)
            after = proc.cpu_seconds()
            if before is not None and after is not None:
                self.last_cpu = after - before
            return action_from_json(answer.get("action"))
        except BotFailure:
            self.proc = None
            raise
        except ShengjiError as e:
            self.proc = None
            proc.kill()
            raise proc.failure("BOT_PROTOCOL", f"answered a malformed action ({e})") from None

    async def act_in_room(self, view: SeatView, check: Callable[[Action], object]) -> Action:
        """For a server: ask in a thread (the room's event loop goes on); when the program
        fails or ``check`` refuses its action, log why and play the heuristic bot's
        action for this decision instead (the next one asks the program again)."""
        try:
            action = await asyncio.to_thread(self.act, view)
            check(action)
            return action
        except ShengjiError as e:
            if not isinstance(e, BotFailure):
                self.refused(e)
            log.warning(
                "external bot %r, seat %d: %s; heuristic move instead", self.command, self.seat, e
            )
            return make_player("heuristic", self.seat, self.seed).act(view)

    def refused(self, error: ShengjiError) -> None:
        """Tell the program its last action was refused by the rules (its match ends)."""
        if self.proc is not None:
            with contextlib.suppress(BotFailure):
                self.proc.send(
                    {
                        "type": "refused",
                        "id": self.requests,
                        "code": error.code,
                        "message": error.message,
                    }
                )
            self.close()

    def close(self) -> None:
        """The match is over: give the process back to the pool, or stop it (a server's
        room, which must not wait long for it)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if self.pool is not None:
            self.pool.release(proc)
        else:
            proc.close(grace=0.2)

    def __del__(self) -> None:
        if self.pool is None and self.proc is not None:
            with contextlib.suppress(Exception):
                self.proc.kill()


def command_line_player(
    spec: str,
    seat: int,
    seed: int,
    limits: BotLimits | None = None,
    options: Mapping[str, str] | None = None,
) -> Player:
    """A player from a command-line spec: ``exec:CMD`` runs CMD (processes kept in
    :data:`POOL`), anything else is a bot of the registry."""
    if spec.startswith(EXEC):
        return ExternalBot(spec[len(EXEC) :].strip(), seat, seed, limits, options, POOL)
    return make_player(spec, seat, seed)


def check_command_line_spec(spec: str) -> str:
    """``spec`` unchanged if it is ``exec:`` and a command, or a registered bot."""
    if spec.startswith(EXEC):
        command_argv(spec[len(EXEC) :])
        return spec
    return check_spec(spec)


def command_argv(command: str) -> list[str]:
    """A bot command split as a shell would (``BAD_BOT_SPEC`` when it cannot be, or is
    empty)."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise ShengjiError(f"bad bot command {command!r}: {e}", code=Code.BAD_BOT_SPEC) from None
    if not argv:
        raise ShengjiError("exec: needs a command, e.g. exec:./mybot", code=Code.BAD_BOT_SPEC)
    return argv


#: The names :func:`register_command` gave (registering one again replaces it).
_REGISTERED: set[str] = set()


def register_command(name: str, command: str, limits: BotLimits | None = None) -> None:
    """Make the program ``command`` a bot of the registry called ``name`` (a server's
    operator does this at start: clients then pick it by name, never by command)."""
    if not name.replace("-", "").replace("_", "").isalnum() or not name.isascii():
        raise ShengjiError(
            f"bot name {name!r}: use letters, digits, - and _", code=Code.BAD_BOT_SPEC
        )
    taken = name in bot_names() and name not in _REGISTERED
    if len(name) > 32 or taken or name == EXEC.rstrip(":"):
        raise ShengjiError(f"bot name {name!r} is taken or too long", code=Code.BAD_BOT_SPEC)
    check_command_line_spec(EXEC + command)
    lim = limits or BotLimits()
    _REGISTERED.add(name)
    register(
        BotKind(
            name,
            lambda seat, seed, _arg: ExternalBot(command, seat, seed, lim),
            f"{name}: an external bot this server runs",
            f"{name}:本服务器运行的外部机器人",
        )
    )
