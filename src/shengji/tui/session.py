"""Where the terminal client's table lives: in-process against bots, or on a server.

Both give the same ``state`` dictionary the browser receives (``room``, ``you``, ``view``
= the seat's ``observe`` view, ``shows`` = its declarations when it must declare) and
take actions in the protocol's JSON form, so the app and the plain mode render one thing.
A refused action comes back as a :class:`Refusal` (code, message, params) that
:func:`shengji.words.i18n.error_text` words in either language.

:class:`RemoteSession` reads the server on a thread of its own: when the connection
drops it reconnects with the resume token (``status`` says how it goes) and the table
goes on where it was; only when the server stays away does :meth:`RemoteSession.poll`
raise ``CONNECTION_LOST``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import queue
import shlex
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..bots.registry import bot_kinds, check_spec, hint_bot, make_player, reason_of
from ..errors import Code, ShengjiError
from ..game.actions import Action, action_from_json, action_to_json
from ..game.dealing import DEAL_SECONDS, DealClock, is_dealing
from ..game.flow import apply, new_match
from ..game.players import Player
from ..game.state import GameState
from ..game.views import seat_message, seat_view
from ..rules.friends import callable_cards
from ..rules.options import RuleOptions
from ..rules.presets import load_preset, preset_names
from ..words.i18n import error_text, t


def _overrides_of(options: RuleOptions) -> dict[str, Any]:
    """The options that differ from their preset, as a room message carries them."""
    if options.name not in preset_names():
        return {k: v for k, v in options.to_dict().items() if k != "name"}
    base = load_preset(options.name).to_dict()
    return {k: v for k, v in options.to_dict().items() if base.get(k) != v}


@dataclass(frozen=True)
class Refusal:
    """A refused command: the stable ``code``, the English ``message``, the details as
    ``params``, and the server's own wording (``text``: ``{"en", "zh"}``) when it sent one."""

    code: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)
    text: dict[str, str] | None = None

    @classmethod
    def of(cls, e: ShengjiError) -> Refusal:
        """The refusal of an engine error."""
        return cls(e.code, e.message, dict(e.params))

    def say(self, lang: str) -> str:
        """The refusal in words for a player."""
        if self.text and self.text.get(lang):
            return self.text[lang]
        return error_text(self.code, self.params, self.message, lang)


class Session(Protocol):
    """A seat (or a spectator's place) at a table."""

    state: dict[str, Any]
    chat: list[dict[str, Any]]
    online: bool
    #: ``connected``, or ``reconnecting`` (``attempt`` says which try) while a dropped
    #: connection is being restored.
    status: str
    attempt: int
    link: str | None

    def act(self, action: dict[str, Any]) -> Refusal | None:
        """Take a game action; the refusal when it is not allowed."""
        ...

    def check(self, action: dict[str, Any]) -> Refusal | None:
        """Whether an action would be accepted now (nothing is applied)."""
        ...

    def command(self, cmd: dict[str, Any]) -> Refusal | None:
        """A room command (``ready``, ``start``, ``set_bot``, ``chat``): online only."""
        ...

    def hint(self, lang: str) -> tuple[dict[str, Any], str] | Refusal | None:
        """What the strongest bot would do in this seat, and why (None: no hint now; a
        Refusal when the server refuses one)."""
        ...

    def poll(self) -> bool:
        """Let the table move on (bots, other players); True when the state changed."""
        ...

    def close(self) -> None:
        """Leave the table (the seat stays yours online)."""
        ...


BOT_SECONDS = 0.6
"""How long ``shengji play`` keeps each play in sight before a bot plays the next (the
server's own pace between bots' moves)."""

LEVELS = ("easy", "normal", "strong")
"""The difficulties ``shengji play --bots`` takes besides the registry's names."""


def local_levels() -> dict[str, str]:
    """This registry's bot of each difficulty (the first registered)."""
    return {k.difficulty: k.name for k in reversed(bot_kinds()) if k.difficulty}


def bot_for(choice: str, levels: Mapping[str, str] | None = None) -> str:
    """The spec for one ``--bots`` value. Without ``levels``: a difficulty names this
    registry's bot of that level, anything else must be a spec of this registry. With
    ``levels`` (a server's bot of each difficulty): a difficulty names that bot, anything
    else is left for the server to check (it may run external bots of its own)."""
    choice = choice.strip()
    if choice in LEVELS:
        known = local_levels() if levels is None else levels
        if choice not in known:
            raise ShengjiError(
                f"no bot has difficulty {choice!r}", code=Code.UNKNOWN_BOT, params={"bot": choice}
            )
        return known[choice]
    return check_spec(choice) if levels is None else choice


def seat_bots(
    spec: str, seat: int, levels: Mapping[str, str] | None = None, players: int = 4
) -> list[str | None]:
    """The bot of every seat from ``--bots``: one value for all the others, or one per
    seat after ``seat`` in order (three at a table of four: ``strong,normal,easy``); None
    for ``seat`` itself. ``levels``: as for :func:`bot_for`; ``players``: the seats (4 to
    8, 找朋友).

    >>> seat_bots("strong,normal,easy", seat=1)
    ['random', None, 'search', 'heuristic']
    >>> seat_bots("easy", seat=0, players=6)
    [None, 'random', 'random', 'random', 'random', 'random']
    """
    values = spec.split(",")
    if len(values) not in (1, players - 1):
        raise ShengjiError(
            f"--bots takes one bot or {players - 1} (one per seat after yours), not {len(values)}",
            code=Code.BAD_BOT_SPEC,
            params={"seats": len(values)},
        )
    names = [bot_for(v, levels) for v in values] * ((players - 1) // len(values))
    bots: list[str | None] = [None] * players
    for k, name in enumerate(names, start=1):
        bots[(seat + k) % players] = name
    return bots


class LocalSession:
    """A match in this process: one person's seat, bots in the others. The deal runs by
    itself (a round every ``deal_seconds``, :class:`~shengji.game.dealing.DealClock`): the
    person shows whenever they like, the bots at their draws, two rounds after they
    decide; :meth:`poll` moves it on."""

    online = False
    status = "connected"
    attempt = 0
    link: str | None = None

    def __init__(
        self,
        options: RuleOptions,
        seed: int,
        seat: int = 0,
        bots: str = "heuristic",
        adviser: str | None = None,
        deal_seconds: float = DEAL_SECONDS,
        bot_seconds: float = 0.0,
    ) -> None:
        """``adviser``: the bot spec behind :meth:`hint` (default :func:`hint_bot`);
        ``deal_seconds``: between two rounds of the deal (0: a round at every poll);
        ``bot_seconds``: how long each play stays in sight before a bot plays the next
        (twice that after a trick ends; 0: the bots play at once)."""
        self.bot_seconds = bot_seconds
        #: When the next bot may play (``time.monotonic``), while plays are paced.
        self.next_bot = 0.0
        self.bots = seat_bots(bots, seat, players=options.players)
        self.bots_spec = bots
        self.seed = seed
        #: every action applied, for the match record (:meth:`record`)
        self.actions: list[tuple[int | None, Action]] = []
        self.options = options
        self.overrides = _overrides_of(options)
        self.seat = seat
        self.st: GameState = new_match(options, seed, paced=True)
        self.clock = DealClock(deal_seconds, 2 * deal_seconds)
        self.players: dict[int, Player] = {
            s: make_player(name, s, seed) for s, name in enumerate(self.bots) if name
        }
        self.adviser = make_player(adviser or hint_bot(), seat, seed)
        self.rev = 0
        self.state: dict[str, Any] = {}
        self.chat: list[dict[str, Any]] = []
        self._refresh()
        self.poll()

    def _refresh(self) -> None:
        seats = [
            {
                "kind": "human" if s == self.seat else "bot",
                "name": f"{name} bot" if name else "",
                "bot": name,
                "ready": True,
                "connected": True,
                "away": False,
            }
            for s, name in enumerate(self.bots)
        ]
        self.state = {
            "rev": self.rev,
            "room": {
                "id": None,
                "preset": self.options.name,
                "overrides": self.overrides,
                "options": self.options.to_dict(),
                "paced": True,
                "deal_seconds": self.clock.seconds,
                "seats": seats,
                "host_seat": self.seat,
                "spectators": 0,
                "status": "finished" if self.st.phase == "match_over" else "playing",
                "deadlines": [None] * len(self.bots),
                "waiting": [self.seat] if self.st.phase == "hand_over" else [],
                "paused": False,
            },
            "you": {"seat": self.seat, "host": True},
            **seat_message(self.st, self.seat),
        }
        if self.st.phase == "call" and self.st.to_act == self.seat:  # 找朋友: what may be called
            self.state["callable"] = " ".join(c.text for c in callable_cards(self.st.ctx))

    def _apply(self, seat: int | None, action: Action) -> None:
        self.st, _ = apply(self.st, seat, action)
        self.actions.append((seat, action))
        self.rev += 1

    def replay_args(self) -> str:
        """The ``shengji play`` options that deal this match again: preset, rule
        overrides, seat, bots and seed."""
        parts = ["--preset", self.options.name]
        for k, v in sorted(self.overrides.items()):
            parts += ["--set", f"{k}={json.dumps(v, ensure_ascii=False)}"]
        if self.seat:
            parts += ["--seat", str(self.seat)]
        if self.bots_spec != "heuristic":
            parts += ["--bots", self.bots_spec]
        return shlex.join([*parts, "--seed", str(self.seed)])

    def record(self) -> dict[str, Any]:
        """The match record so far (``shengji replay`` / ``verify`` read it)."""
        from ..game.record import make_record

        return make_record(self.options, self.seed, self.actions, self.st)

    def act(self, action: dict[str, Any]) -> Refusal | None:
        try:
            self._apply(self.seat, action_from_json(action))
        except ShengjiError as e:
            return Refusal.of(e)
        self._paced(time.monotonic())
        self.poll()
        return None

    def _paced(self, now: float) -> None:
        """After a play, the next bot's waits: the play stays in sight (a trick that ends
        stays twice as long)."""
        if self.st.phase == "play" and self.bot_seconds > 0:
            self.next_bot = now + self.bot_seconds * (1 if self.st.trick else 2)

    def check(self, action: dict[str, Any]) -> Refusal | None:
        try:
            apply(self.st, self.seat, action_from_json(action))
        except ShengjiError as e:
            return Refusal.of(e)
        return None

    def command(self, cmd: dict[str, Any]) -> Refusal | None:
        return Refusal("NOT_IN_LOBBY", "rooms, seats and chat are for online games")

    def hint(self, lang: str) -> tuple[dict[str, Any], str] | None:
        if self.st.to_act != self.seat and self.st.phase != "hand_over":
            return None
        action = self.adviser.act(seat_view(self.st, self.seat))
        en, zh = reason_of(self.adviser)
        return action_to_json(action), zh if lang == "zh" else en

    def poll(self) -> bool:
        changed = False
        while self.st.phase not in ("hand_over", "match_over") and self.st.to_act != self.seat:
            if is_dealing(self.st):  # at most one round a poll: a person sees each come
                changed = self._deal_step(time.monotonic()) or changed
                if is_dealing(self.st):
                    break
                continue
            seat = self.st.to_act
            assert seat is not None
            now = time.monotonic()
            if self.st.phase == "play" and now < self.next_bot:
                break  # the last play is still in sight
            self._apply(seat, self.players[seat].act(seat_view(self.st, seat)))
            self._paced(now)
            changed = True
        self._refresh()
        return changed

    def _deal_step(self, now: float) -> bool:
        """The bots' shows that are due, then the next round if it is due, then the bots
        a card reached are asked; True when the table changed."""
        clock = self.clock
        clock.follow(self.st, now)
        moved = False
        for seat, show in clock.due_shows(self.st, now):
            with contextlib.suppress(ShengjiError):  # overtaken by another show
                self._apply(seat, show)
                moved = True
        if is_dealing(self.st) and clock.due_round(now):
            self._apply(None, clock.next_deal(self.st))
            clock.dealt(now)
            moved = True
        if is_dealing(self.st):
            for seat in clock.to_ask(self.st, self.players):
                clock.decided(seat, self.players[seat].act(seat_view(self.st, seat)), now)
        return moved

    def close(self) -> None:
        return None


_REASONS = {
    errno.ECONNREFUSED: "refused",
    errno.ECONNRESET: "reset",
    errno.ECONNABORTED: "reset",
    errno.ENETUNREACH: "unreachable",
    errno.EHOSTUNREACH: "unreachable",
}


def connect_error(where: str, e: BaseException, reason: str | None = None) -> ShengjiError:
    """A ShengjiError for a failed connection attempt. ``params["reason"]`` names the
    catalogue's ``os.*`` words for it when known (so it reads in Chinese too), and
    ``params["why"]`` is it in English (or the system's own words)."""
    if isinstance(e, ShengjiError):
        return e
    if isinstance(e, TimeoutError | socket.timeout):
        return ShengjiError(f"{where} did not answer", code=Code.TIMEOUT, params={"where": where})
    if reason is None:
        if isinstance(e, socket.gaierror):
            reason = "unknown_host"
        elif isinstance(e, ConnectionRefusedError):
            reason = "refused"
        elif isinstance(e, ConnectionResetError | ConnectionAbortedError):
            reason = "reset"
        elif isinstance(e, OSError):
            reason = _REASONS.get(e.errno or 0)
    why = t(f"os.{reason}", "en") if reason else str(e) or type(e).__name__
    params = {"where": where, "why": why, **({"reason": reason} if reason else {})}
    return ShengjiError(
        f"cannot reach the server at {where} ({why})", code=Code.UNREACHABLE, params=params
    )


class RemoteSession:
    """A seat (or a spectator's place) in a room of a shengji server, over the WebSocket
    protocol (docs/protocol.md).

    ``join`` is the join command's fields (``name``, ``token``, ``host_key``, ``spectate``,
    ``seat``). The constructor connects and joins (raising a ShengjiError with the
    server's code when it cannot: ``NO_ROOM``, ``ROOM_STARTED``, ``BAD_TOKEN``, or
    ``UNREACHABLE``); ``on_token`` is called with the resume token as soon as it is known.
    """

    online = True
    #: Whether this client made the room (and has told its invite link).
    made = False

    def __init__(
        self,
        ws_url: str,
        join: dict[str, Any],
        *,
        link: str | None = None,
        retry_seconds: float = 60.0,
        timeout: float = 10.0,
        on_token: Callable[[str], None] | None = None,
    ) -> None:
        self.ws_url = ws_url
        self.link = link
        self.retry_seconds = retry_seconds
        self.timeout = timeout
        self.on_token = on_token
        self.state: dict[str, Any] = {}
        self.chat: list[dict[str, Any]] = []
        self.status = "connecting"
        self.attempt = 0
        #: What the table cannot show: ``"reconnected"``, or a Refusal the server sent
        #: on its own (e.g. ``SLOW_CONSUMER``); the client takes them out as it shows them.
        self.notices: list[str | Refusal] = []
        self.token: str | None = join.get("token")
        self.host = False
        self.seat: int | None = None
        self._join = {k: v for k, v in join.items() if v is not None and v is not False}
        self._n = 0
        self._rev = 0
        self._inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self._waiters: dict[str, queue.Queue[dict[str, Any]]] = {}
        self._send_lock = threading.Lock()
        self._closed = False
        self._lost: ShengjiError | None = None
        self._ws: Any = self._open(first=True)
        self.status = "connected"
        self._reader = threading.Thread(target=self._read_loop, name="shengji-ws", daemon=True)
        self._reader.start()

    # -- connecting ------------------------------------------------------------------------
    def _open(self, first: bool) -> Any:
        """Connect and join (with the token once there is one); returns the socket."""
        from websockets.exceptions import (
            ConnectionClosed,
            InvalidHandshake,
            InvalidStatus,
            InvalidURI,
        )
        from websockets.sync.client import connect

        where = self.ws_url.split("/ws/")[0].replace("ws://", "").replace("wss://", "")
        try:
            ws = connect(self.ws_url, max_size=2**22, open_timeout=self.timeout)
        except InvalidURI as e:
            raise ShengjiError(str(e), code=Code.BAD_URL, params={"url": self.ws_url}) from None
        except InvalidStatus as e:
            status = e.response.status_code
            raise ShengjiError(
                f"{where} is not a shengji server (HTTP {status})",
                code=Code.SERVER_ERROR,
                params={"where": where, "status": status},
            ) from None
        except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as e:
            # refused, reset, or closed half-way through the handshake (a server starting)
            raise connect_error(where, e) from None
        cmd = dict(self._join)
        if self.token:
            cmd = {"type": "join", "token": self.token, "name": cmd.get("name", "player")}
            if self._join.get("spectate"):
                cmd["spectate"] = True
            if self._join.get("host_key"):  # a host key given with a kept seat: host too
                cmd["host_key"] = self._join["host_key"]
        else:
            cmd["type"] = "join"
        rid = self._next_id()
        try:
            ws.send(json.dumps({"v": 1, "id": rid, "rev": self._rev, **cmd}))
            deadline = time.monotonic() + self.timeout
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ShengjiError(f"{where} did not answer", code=Code.TIMEOUT)
                msg = json.loads(ws.recv(timeout=left))
                if msg.get("type") in ("ack", "error") and msg.get("id") in (rid, None):
                    break
                self._route(msg)
        except ConnectionClosed as e:
            ws.close()
            rcvd = e.rcvd
            if rcvd is not None and rcvd.code == 4404:
                raise ShengjiError("no such room", code=Code.NO_ROOM) from None
            raise connect_error(
                where, ConnectionError("the server closed the connection"), "closed"
            ) from None
        except TimeoutError:
            ws.close()
            raise ShengjiError(f"{where} did not answer", code=Code.TIMEOUT) from None
        except ShengjiError:
            ws.close()
            raise
        except (OSError, ValueError) as e:
            ws.close()
            raise connect_error(where, e) from None
        if msg["type"] == "error":
            ws.close()
            raise ShengjiError(
                msg.get("message") or msg["code"],
                code=msg["code"],
                params=dict(msg.get("params") or {}),
            )
        token = msg.get("token")
        if token:
            self.token = token
            if self.on_token:
                self.on_token(token)
        self.seat = msg.get("seat")
        self.host = bool(msg.get("host"))
        self._join.pop("host_key", None)  # used: a host key works once
        self._rev = max(self._rev, int(msg.get("rev") or 0))
        if not first:
            self.notices.append("reconnected")
        return ws

    def _read_loop(self) -> None:
        try:
            self._read_forever()
        except Exception as e:  # never leave the table waiting on a dead reader
            if not self._closed:
                self._lost = ShengjiError(
                    f"lost the connection to the server ({e})", code=Code.CONNECTION_LOST
                )
                self.status = "lost"

    def _read_forever(self) -> None:
        from websockets.exceptions import ConnectionClosed

        while not self._closed:
            try:
                raw = self._ws.recv()
            except (ConnectionClosed, OSError):
                if self._closed:
                    return
                self._reconnect()
                if self._lost is not None:
                    return
                continue
            try:
                msg = json.loads(raw)
            except ValueError:
                continue
            self._route(msg)

    def _route(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "state":
            self._rev = max(self._rev, int(msg.get("rev") or 0))
        if kind in ("ack", "error") and msg.get("id") in self._waiters:
            self._waiters[msg["id"]].put(msg)
            return
        self._inbox.put(msg)

    def _reconnect(self) -> None:
        """Try again (with the token) until the server answers or ``retry_seconds`` pass."""
        self.status = "reconnecting"
        for q in list(self._waiters.values()):
            q.put({"type": "error", "code": Code.RECONNECTING, "message": "reconnecting"})
        deadline = time.monotonic() + self.retry_seconds
        delay = 0.2
        self.attempt = 0
        while not self._closed:
            self.attempt += 1
            try:
                ws = self._open(first=False)
            except ShengjiError as e:
                if e.code in ("BAD_TOKEN", "NO_ROOM") or time.monotonic() >= deadline:
                    self._lost = e if e.code in ("BAD_TOKEN", "NO_ROOM") else None
                    break
                time.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            with self._send_lock:
                self._ws = ws
            self.status = "connected"
            return
        if self._lost is None:
            self._lost = ShengjiError(
                "lost the connection to the server", code=Code.CONNECTION_LOST
            )
        self.status = "lost"

    # -- commands --------------------------------------------------------------------------
    def _next_id(self) -> str:
        self._n += 1
        return f"t{self._n}"

    def _request(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """Send a command; its ``ack`` or ``error`` (a local error when disconnected)."""
        from websockets.exceptions import ConnectionClosed

        if self.status != "connected":
            return {"type": "error", "code": Code.RECONNECTING, "message": "reconnecting"}
        rid = self._next_id()
        box: queue.Queue[dict[str, Any]] = queue.Queue()
        self._waiters[rid] = box
        try:
            with self._send_lock:
                self._ws.send(json.dumps({"v": 1, "id": rid, "rev": self._rev, **cmd}))
            return box.get(timeout=self.timeout)
        except (ConnectionClosed, OSError):
            return {"type": "error", "code": Code.RECONNECTING, "message": "reconnecting"}
        except queue.Empty:
            return {"type": "error", "code": Code.TIMEOUT, "message": "the server did not answer"}
        finally:
            self._waiters.pop(rid, None)

    @staticmethod
    def _refusal(reply: dict[str, Any]) -> Refusal | None:
        if reply.get("type") != "error":
            return None
        return Refusal(
            str(reply.get("code")),
            str(reply.get("message") or ""),
            dict(reply.get("params") or {}),
            reply.get("text"),
        )

    def act(self, action: dict[str, Any]) -> Refusal | None:
        self.poll()
        reply = self._request({"type": "act", "action": action})
        if reply.get("code") == "STALE_REVISION":  # the table moved under us: look and retry
            time.sleep(0.05)
            self.poll()
            reply = self._request({"type": "act", "action": action})
        return self._refusal(reply)

    def check(self, action: dict[str, Any]) -> Refusal | None:
        return self._refusal(self._request({"type": "check", "action": action}))

    def command(self, cmd: dict[str, Any]) -> Refusal | None:
        return self._refusal(self._request(cmd))

    def hint(self, lang: str) -> tuple[dict[str, Any], str] | Refusal | None:
        """The server's hint for this seat (``POST /api/rooms/{id}/hint`` with the
        token); None from a server that gives none."""
        if self.token is None or self.seat is None:
            return Refusal("NOT_SEATED", "spectators get no hints")
        scheme, _, rest = self.ws_url.partition("://")
        where, _, room = rest.partition("/ws/")
        url = f"{'https' if scheme == 'wss' else 'http'}://{where}/api/rooms/{room}/hint"
        req = urllib.request.Request(
            url, b"", {"Authorization": f"Bearer {self.token}"}, method="POST"
        )
        try:
            with urllib.request.urlopen(req, timeout=self.timeout + 5) as resp:
                body = json.loads(resp.read())
            return body["action"], str(body["why"][lang])
        except urllib.error.HTTPError as e:
            try:
                detail = json.loads(e.read()).get("detail")
            except ValueError:
                detail = None
            if isinstance(detail, dict) and detail.get("code"):
                code, text = str(detail["code"]), detail.get("text")
                return Refusal(code, str(detail.get("message", "")), {}, text)
            return None  # a server without hints
        except (OSError, ValueError, KeyError, TypeError):
            return Refusal("UNREACHABLE", "the server did not answer the hint")

    def poll(self) -> bool:
        if self._lost is not None and self._inbox.empty():
            raise self._lost
        changed = False
        while True:
            try:
                msg = self._inbox.get_nowait()
            except queue.Empty:
                break
            kind = msg.get("type")
            if kind == "state":
                self.state = msg
                you = msg.get("you") or {}
                self.seat = you.get("seat")
                self.host = bool(you.get("host"))
                changed = True
            elif kind == "chat":
                self.chat.extend(msg.get("lines") or [])
                self.chat = self.chat[-200:]
                changed = True
            elif kind == "error" and msg.get("code"):
                refusal = self._refusal(msg)
                if refusal is not None:
                    self.notices.append(refusal)
                changed = True
            elif kind == "notice" and isinstance(msg.get("text"), dict):
                # what the table did by itself (a timed-out turn, moves made while away):
                # told like a refusal, from the server's own words
                words = {lang: f"⚑ {text}" for lang, text in msg["text"].items()}
                code, params = str(msg.get("code")), dict(msg.get("params") or {})
                self.notices.append(Refusal(code, "", params, words))
                changed = True
        return changed

    def close(self) -> None:
        self._closed = True
        with contextlib.suppress(Exception):
            self._ws.close()
