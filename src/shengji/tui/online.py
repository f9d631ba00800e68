"""Online play from the terminal: server and room links, making a room, and the resume
tokens kept between runs so that running the same command again takes the seat back.

Tokens live in ``rooms.json`` under ``$SHENGJI_STATE_DIR``, else
``$XDG_STATE_HOME/shengji``, else ``~/.local/state/shengji`` (the file is readable by its
owner only: a token is a seat).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import Code, ShengjiError
from .session import RemoteSession, connect_error

_ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
STATE_FILE = "rooms.json"


@dataclass(frozen=True)
class Target:
    """Where ``--connect`` points: a server (``room`` None: make a room) or one room."""

    base: str
    room: str | None = None

    @property
    def link(self) -> str:
        """The room's invite link (``http://host:port/room/ID``)."""
        return f"{self.base}/room/{self.room}"

    @property
    def ws_url(self) -> str:
        """The room's WebSocket."""
        scheme = "wss" if self.base.startswith("https:") else "ws"
        return f"{scheme}://{self.base.split('://', 1)[1]}/ws/{self.room}"

    @property
    def where(self) -> str:
        """``host:port`` for messages."""
        return self.base.split("://", 1)[1]


def _bad_url(url: str, why: str) -> ShengjiError:
    return ShengjiError(
        f"{url!r} is not a server or room link ({why}): use http://HOST:PORT or "
        "http://HOST:PORT/room/ID",
        code=Code.BAD_URL,
        params={"url": url, "why": why},
    )


def parse_target(url: str) -> Target:
    """A server link (``http://host:port``) or a room link (``.../room/ID``); raises
    ``BAD_URL`` for anything else (a bad port included)."""
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urllib.parse.urlsplit(text)
        port = parts.port
    except ValueError as e:
        if "port" in str(e).lower():
            raise _bad_url(url, "the port must be a number from 1 to 65535") from None
        raise _bad_url(url, "not a link") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https", "ws", "wss"):
        raise _bad_url(url, f"unknown scheme {scheme}")
    if not parts.hostname:
        raise _bad_url(url, "no host")
    if port == 0:
        raise _bad_url(url, "the port must be a number from 1 to 65535")
    http = "https" if scheme in ("https", "wss") else "http"
    base = f"{http}://{parts.netloc}"
    path = [p for p in parts.path.split("/") if p]
    if not path:
        return Target(base)
    if len(path) == 2 and path[0] in ("room", "ws", "replay") and _ROOM_ID.match(path[1]):
        return Target(base, path[1])
    raise _bad_url(url, "the path must be /room/ID")


# -- resume tokens ---------------------------------------------------------------------------


def state_dir() -> Path:
    """Where the client keeps its state (resume tokens)."""
    env = os.environ.get("SHENGJI_STATE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_STATE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "state") / "shengji"


class TokenStore:
    """Resume tokens (and host keys) per room link, in a file only its owner can read."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or state_dir()
        self.path = self.directory / STATE_FILE

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        rooms = data.get("rooms") if isinstance(data, dict) else None
        return rooms if isinstance(rooms, dict) else {}

    def _save(self, rooms: Mapping[str, Any]) -> None:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{STATE_FILE}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"version": 1, "rooms": dict(rooms)}, f, indent=1)
        os.replace(tmp, self.path)
        with contextlib.suppress(OSError):
            os.chmod(self.path, 0o600)

    def get(self, key: str) -> dict[str, Any] | None:
        """The entry of a room link, if any."""
        entry = self._load().get(key)
        return entry if isinstance(entry, dict) else None

    def put(self, key: str, entry: Mapping[str, Any]) -> None:
        """Keep (merge) an entry; the oldest are dropped beyond 200 rooms."""
        rooms = self._load()
        old = rooms.get(key)
        rooms[key] = {**(old if isinstance(old, dict) else {}), **entry, "saved": time.time()}
        if len(rooms) > 200:
            keep = sorted(rooms, key=lambda k: rooms[k].get("saved", 0))[-200:]
            rooms = {k: rooms[k] for k in keep}
        self._save(rooms)

    def made_room(self, base: str, made: str) -> Target | None:
        """The room the command ``made`` (:func:`made_signature`) last made on the server
        at ``base``, while it is kept."""
        rooms = self._load()
        found = [
            (entry.get("saved", 0), link)
            for link, entry in rooms.items()
            if isinstance(entry, dict)
            and entry.get("made") == made
            and link.startswith(base + "/room/")
        ]
        if not found:
            return None
        return Target(base, max(found)[1].rsplit("/", 1)[1])

    def forget(self, key: str) -> None:
        """Drop an entry."""
        rooms = self._load()
        if rooms.pop(key, None) is not None:
            self._save(rooms)


def room_key(target: Target, spectate: bool = False) -> str:
    """The store's key of a room (a spectator's place is kept apart from a seat)."""
    return target.link + ("#spectate" if spectate else "")


def made_signature(
    preset: str,
    overrides: Mapping[str, Any],
    bots: str,
    open_seats: Sequence[int],
    seat: int,
    turn_seconds: float = 0.0,
    deal_seconds: float | None = None,
) -> str:
    """What makes two ``shengji play --connect SERVER`` commands the same room request:
    run again, the command goes back to the room it made instead of making another.

    >>> made_signature("classic", {}, "normal", [2], 0)
    '["classic", {}, "normal", [2], 0]'
    """
    parts: list[Any] = [preset, dict(overrides), bots, sorted(open_seats), seat]
    if turn_seconds or deal_seconds is not None:
        parts.append(turn_seconds)
    if deal_seconds is not None:
        parts.append(deal_seconds)
    return json.dumps(parts, sort_keys=True)


# -- the server's HTTP API ---------------------------------------------------------------------


def server_levels(target: Target, timeout: float = 10.0) -> dict[str, str] | None:
    """``GET /api/bots``: the server's bot of each difficulty (the first listed), or None
    when the server does not say (an older server, or none there: room creation says)."""
    try:
        with urllib.request.urlopen(f"{target.base}/api/bots", timeout=timeout) as resp:
            listed = json.loads(resp.read())
    except (OSError, ValueError):
        return None
    if not isinstance(listed, list):
        return None
    levels: dict[str, str] = {}
    for bot in listed:
        if isinstance(bot, dict) and isinstance(bot.get("difficulty"), str):
            levels.setdefault(bot["difficulty"], str(bot.get("name")))
    return levels


def room_seats(target: Target, timeout: float = 10.0) -> int | None:
    """``GET /api/rooms/{id}``: how many seats the room's table has (None if unknown)."""
    try:
        with urllib.request.urlopen(f"{target.base}/api/rooms/{target.room}", timeout=timeout) as r:
            seats = json.loads(r.read()).get("seats")
    except (OSError, ValueError, AttributeError):
        return None
    return len(seats) if isinstance(seats, list) else None


def create_room(
    target: Target,
    preset: str,
    overrides: Mapping[str, Any],
    bots: Sequence[str | None],
    timeout: float = 10.0,
    turn_seconds: float = 0.0,
    deal_seconds: float | None = None,
) -> dict[str, Any]:
    """``POST /api/rooms``: ``{"id", "url", "host_key"}``; a refusal raises its code
    (``deal_seconds`` None: the server's default pace)."""
    room: dict[str, Any] = {
        "preset": preset,
        "overrides": dict(overrides),
        "bots": list(bots),
        "turn_seconds": turn_seconds,
    }
    if deal_seconds is not None:
        room["deal_seconds"] = deal_seconds
    body = json.dumps(room)
    req = urllib.request.Request(
        f"{target.base}/api/rooms", body.encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            data: dict[str, Any] = json.loads(resp.read())
    except urllib.error.HTTPError as e:
        detail: Any = None
        with contextlib.suppress(Exception):
            detail = json.loads(e.read()).get("detail")
        if isinstance(detail, dict) and detail.get("code"):
            raise ShengjiError(
                str(detail.get("message") or detail["code"]), code=str(detail["code"])
            ) from None
        raise ShengjiError(
            f"{target.where} refused to make a room (HTTP {e.code})",
            code=Code.SERVER_ERROR,
            params={"where": target.where, "status": e.code},
        ) from None
    except urllib.error.URLError as e:
        reason = e.reason if isinstance(e.reason, BaseException) else OSError(str(e.reason))
        raise connect_error(target.where, reason) from None
    except (OSError, TimeoutError) as e:
        raise connect_error(target.where, e) from None
    except ValueError:
        raise ShengjiError(
            f"{target.where} is not a shengji server", code=Code.SERVER_ERROR
        ) from None
    if not isinstance(data, dict) or not data.get("id"):
        raise ShengjiError(f"{target.where} is not a shengji server", code=Code.SERVER_ERROR)
    return data


def open_room(
    target: Target,
    *,
    name: str,
    spectate: bool = False,
    seat: int | None = None,
    host_key: str | None = None,
    store: TokenStore | None = None,
    retry_seconds: float = 60.0,
) -> tuple[RemoteSession, bool]:
    """Join a room: with the kept token when there is one (the seat is taken back), else
    afresh (``host_key`` makes the joiner the host). Returns the session and whether it
    resumed a kept seat. A seat joined in the lobby says it is ready."""
    store = store or TokenStore()
    key = room_key(target, spectate)
    entry = store.get(key) or {}
    given = host_key
    host_key = host_key or entry.get("host_key")

    # the host key the join being tried sends: kept only once the server takes it
    sent: dict[str, str | None] = {"host_key": host_key}

    def keep(token: str) -> None:
        store.put(key, {"token": token, "name": name, **sent})

    common: dict[str, Any] = {"link": target.link, "retry_seconds": retry_seconds}
    if entry.get("token"):
        join = {"name": name, "token": entry["token"], "spectate": spectate}
        # a host key given now makes the kept seat the host; a key already used (keys
        # are one-time) is refused: the seat may be the host already, so go on without it
        for key_now in [given, None] if given else [None]:
            try:
                session = RemoteSession(
                    target.ws_url, {**join, "host_key": key_now}, on_token=keep, **common
                )
            except ShengjiError as e:
                if e.code == "BAD_HOST_KEY" and key_now:
                    continue
                if e.code != "BAD_TOKEN":
                    raise
                store.forget(key)
                break
            _first_state(session)
            return session, True
    join = {"name": name, "spectate": spectate, "seat": seat, "host_key": host_key}
    try:
        session = RemoteSession(target.ws_url, join, on_token=keep, **common)
    except ShengjiError as e:
        if e.code != "BAD_HOST_KEY" or given or not entry.get("host_key"):
            raise
        # a kept key the server refuses (saved by an older client, or spent): drop it
        store.put(key, {"host_key": None})
        join["host_key"] = sent["host_key"] = None
        session = RemoteSession(target.ws_url, join, on_token=keep, **common)
    _first_state(session)
    room = session.state.get("room") or {}
    if not spectate and session.seat is not None and room.get("status") == "lobby":
        session.command({"type": "ready", "ready": True})
    return session, False


def _first_state(session: RemoteSession, seconds: float = 5.0) -> None:
    """Wait (a little) for the room's first ``state`` after joining."""
    deadline = time.monotonic() + seconds
    while not session.state and time.monotonic() < deadline:
        session.poll()
        time.sleep(0.02)
