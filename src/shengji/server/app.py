"""The ASGI app: pages and room creation over HTTP, play over a WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import logging
import math
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from ..bots.external import BotLimits, register_command
from ..bots.registry import bot_kinds
from ..errors import Code, ShengjiError
from ..game.dealing import DEAL_SECONDS, DEAL_SECONDS_RANGE, DECLARE_SECONDS
from ..game.narrate import narrate
from ..game.views import seat_view
from ..rules.presets import preset_description, preset_names
from ..words.i18n import CATALOGUE, error_text
from .assets import Asset, Assets, answer
from .broadcast import dumps
from .connection import WRITE_NOW, Connection
from .guards import BodyLimit, coded_http_error, invalid_request
from .hub import Hub
from .limits import Limits, address_group
from .protocol import Check, ProtocolError, message, parse_command
from .replaying import CACHE_SIZE as VIEWS_CACHE
from .replaying import replay_views
from .reviewing import ReviewBusy, Reviewer, hand_actions, hint_for, live_record
from .room_settings import RoomError, RoomSettings, token_hash
from .store import RoomDamaged, RoomData, Store, StoreError, sqlite_url

R = TypeVar("R")

log = logging.getLogger("shengji.server")

#: Why the server closed a connection (the close frame's reason; the client reconnects).
CLOSE_REASONS = {
    "SLOW_CONSUMER": "too slow",
    "ROOM_MOVED": "the room moved",
    "REQUEST_IDS_SPENT": "request ids used up",
}

STATIC = Path(str(resources.files("shengji") / "server" / "static"))
#: What a room id looks like (128 bits in hex), for the page's preloads.
ROOM_ID = re.compile(r"[0-9a-f]{1,64}")

#: Security headers of every HTTP answer (the app loads nothing from elsewhere).
HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


#: Refusals after which the client's table needs no resend: nothing was looked at (a
#: flood of them must not cost a whole state message each).
UNCHANGED = frozenset({Code.RATE_LIMITED, Code.DUPLICATE_REQUEST})

#: Where :class:`SecurityHeaders` leaves a WebSocket's send in its scope.
RAW_SEND = "shengji.raw_send"


class SecurityHeaders:
    """ASGI middleware adding :data:`HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                # the server's own send, for the table's messages: each skips three layers
                # of wrappers that a WebSocket's frames need not pass (see _serve_socket)
                scope[RAW_SEND] = send
            await self.app(scope, receive, send)
            return

        async def send_with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg["headers"] = [*msg.get("headers", []), *HEADERS]
            await send(msg)

        await self.app(scope, receive, send_with_headers)


class CreateRoom(BaseModel):
    """``POST /api/rooms``."""

    model_config = ConfigDict(extra="forbid")
    preset: str = Field(default="shuangsheng", max_length=64)
    overrides: dict[str, Any] = Field(default_factory=dict, max_length=64)
    turn_seconds: float = Field(default=0.0, ge=0, le=600)
    away_seconds: float = Field(default=30.0, ge=0, le=3600)
    #: Seconds between two rounds of the deal (one card to every seat).
    deal_seconds: float = Field(default=DEAL_SECONDS, ge=0.1, le=DEAL_SECONDS_RANGE[1])
    #: A person's time to show in the round before the kitty or to counter after burial.
    declare_seconds: float = Field(default=DECLARE_SECONDS, ge=3, le=60)
    bots: list[str | None] = Field(default_factory=list, max_length=8)
    public: bool = False
    hints: bool = True
    #: A person may take back their own last show or play before anyone else acts.
    take_back: bool = False
    #: A person's only legal play (and the last trick's one-unit hand) is played for them.
    auto_play: bool = False


#: Where each kind of fault was raised, once its traceback has been logged.
_FAULTS_SEEN: set[tuple[str, str, int | None]] = set()


def log_fault(e: Exception) -> None:
    """Log a fault met while serving one command: its traceback the first time it is
    raised at that place, one line after that (a client repeating the command that
    meets it cannot fill the log)."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = (
        type(e).__name__,
        tb.tb_frame.f_code.co_filename if tb else "",
        tb.tb_lineno if tb else None,
    )
    if where in _FAULTS_SEEN:
        log.error("command failed again: %s: %s", type(e).__name__, e)
        return
    if len(_FAULTS_SEEN) < 1000:
        _FAULTS_SEEN.add(where)
    log.exception("command failed", exc_info=e)


def localized(code: str, text: str, params: dict[str, Any] | None = None) -> dict[str, str]:
    """An error's message for people, in both languages."""
    return {lang: error_text(code, params, text, lang) for lang in ("en", "zh")}


def error_message(request_id: str | None, code: str, text: str, params: Any = None) -> str:
    """An ``error`` frame."""
    return dumps(
        message("error", id=request_id, code=code, message=text, text=localized(code, text, params))
    )


def _http_error(
    status: int,
    code: str,
    text: str,
    headers: dict[str, str] | None = None,
    params: dict[str, Any] | None = None,
) -> HTTPException:
    return HTTPException(
        status,
        detail={"code": code, "message": text, "text": localized(code, text, params)},
        headers=headers,
    )


def _bearer(request: Request) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header ("" without one)."""
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth[:7].lower() == "bearer " else ""


def _peer(client: Request | WebSocket) -> str:
    """The address group a request comes from: what every per-address limit counts
    (:func:`~.limits.address_group`: an IPv4 address, an IPv6 /64)."""
    return address_group(client.client.host if client.client else "")


def _retry_after(seconds: float) -> dict[str, str]:
    """A ``Retry-After`` header of at least one second."""
    return {"Retry-After": str(max(1, math.ceil(seconds)))}


async def _read(fn: Callable[..., R], *args: Any) -> R:
    """A blocking store read, off the event loop; its faults as HTTP errors."""
    try:
        return await asyncio.to_thread(fn, *args)
    except StoreError:
        raise _http_error(503, "STORE_UNAVAILABLE", "the database is unavailable") from None
    except RoomDamaged:
        raise _http_error(
            503, "ROOM_UNAVAILABLE", "this room is damaged and was set aside"
        ) from None


def create_app(
    db_url: str | None = None,
    bot_delay: float | None = None,
    limits: Limits | None = None,
    api_docs: bool = False,
    deal_seconds: float | None = None,
    bots: Mapping[str, str] | None = None,
    bot_time: float = 5.0,
) -> FastAPI:
    """The app over a database (default: SQLite in ``./var/shengji.db``).

    ``api_docs`` serves ``/docs`` and ``/openapi.json`` (off: they are not for players).
    ``bots`` maps names to commands of external bots (docs/bot-protocol.md) that rooms
    may seat by name, each given ``bot_time`` seconds a decision. ``bot_delay`` and
    ``deal_seconds`` set every room's bot and deal pace (tests: 0).
    """
    for name, command in (bots or {}).items():
        register_command(name, command, BotLimits(decision=bot_time))
    limits = limits or Limits()
    store = Store(db_url or sqlite_url("var/shengji.db"))
    hub = Hub(store, bot_delay=bot_delay, limits=limits, deal_seconds=deal_seconds)
    reviewer = Reviewer(queue=limits.review_queue)
    adviser = Reviewer(queue=limits.hint_queue, job=hint_for, busy=Code.HINT_BUSY)
    replayer = Reviewer(
        queue=limits.replay_queue, job=replay_views, busy=Code.REPLAY_BUSY, cache_size=VIEWS_CACHE
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.start()
        yield
        hub.stop()
        reviewer.close()
        adviser.close()
        replayer.close()
        store.close()

    app = FastAPI(
        title="shengji",
        lifespan=lifespan,
        docs_url="/docs" if api_docs else None,
        redoc_url=None,
        openapi_url="/openapi.json" if api_docs else None,
    )
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    app.add_middleware(BodyLimit, limit=limits.body_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(StarletteHTTPException, coded_http_error)
    app.state.hub = hub
    assets = Assets(STATIC)
    app.state.reviewer = reviewer
    app.state.adviser = adviser
    app.state.replayer = replayer

    def reading(request: Request) -> str:
        """Count one room read over HTTP against its address's budget (429
        ``RATE_LIMITED`` with ``Retry-After`` beyond it); returns the address group."""
        peer = _peer(request)
        budget = hub.read_budget(peer)
        if not budget.take():
            raise _http_error(
                429,
                "RATE_LIMITED",
                "too many room reads from your address: wait",
                _retry_after(budget.wait()),
            )
        return peer

    async def stored_room(room_id: str) -> RoomData:
        """A room's stored row: 404 ``NO_ROOM`` when there is none, 503
        ``ROOM_UNAVAILABLE`` when it is damaged (set aside), as everywhere it is read."""
        row = await _read(store.load_room, room_id) if len(room_id) <= 64 else None
        if row is None:
            raise _http_error(404, "NO_ROOM", "no such room")
        if row.status == "quarantined":
            raise _http_error(503, "ROOM_UNAVAILABLE", "this room is damaged and was set aside")
        return row

    def send_asset(asset: Asset | None, request: Request) -> Response:
        """A file of the app, compressed and tagged (:mod:`.assets`); 404 without one."""
        if asset is None:
            raise _http_error(404, "NOT_FOUND", "no such file")
        status, headers, body = answer(asset, request.headers)
        return Response(body, status_code=status, headers=headers)  # (HEAD: uvicorn drops it)

    @app.api_route("/static/{name:path}", methods=["GET", "HEAD"], include_in_schema=False)
    async def static(name: str, request: Request) -> Response:
        return send_asset(assets.get(name), request)

    @app.get("/", include_in_schema=False)
    @app.get("/room/{room_id}", include_in_schema=False)
    @app.get("/replay/{room_id}", include_in_schema=False)
    async def index(request: Request, room_id: str | None = None) -> Response:
        """The app's page, naming every module (``modulepreload``) and the API reads its
        first screen waits for, so that they load together rather than one after another
        (the others, the catalogue and the bots, come once the app runs)."""
        fetches = []
        if room_id is None:
            fetches += ["/api/presets", "/api/rooms"]
        elif request.url.path.startswith("/room/") and ROOM_ID.fullmatch(room_id):
            fetches.append(f"/api/rooms/{room_id}")
            if (room := hub.rooms.get(room_id)) is not None:  # its rules, without a read
                fetches.append(f"/api/presets/{room.settings.preset}")
        return send_asset(assets.page(fetches), request)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon(request: Request) -> Response:
        return send_asset(assets.get("favicon.svg"), request)

    @app.get("/api/presets")
    async def presets() -> list[dict[str, str]]:
        return [{"name": n, "description": preset_description(n)} for n in preset_names()]

    @app.get("/api/presets/{name}")
    async def preset(name: str) -> dict[str, Any]:
        from ..words.option_help import option_schema

        if name not in preset_names():
            raise _http_error(404, "UNKNOWN_PRESET", f"no preset called {name!r}")
        return option_schema(name)

    @app.get("/api/bots")
    async def bot_list() -> list[dict[str, Any]]:
        """The bots a room may seat by name (the registry's and the operator's external
        ones): name, difficulty (``easy``/``normal``/``strong`` or None), its short name
        and description in both languages."""
        return [
            {
                "name": k.name,
                "difficulty": k.difficulty,
                "label": {"en": k.label("en"), "zh": k.label("zh")},
                "description": {"en": k.en, "zh": k.zh},
            }
            for k in bot_kinds()
            if k.at_tables
        ]

    @app.get("/api/i18n")
    async def catalogue() -> dict[str, dict[str, str]]:
        return CATALOGUE

    @app.get("/api/rooms")
    async def rooms() -> list[dict[str, Any]]:
        try:
            return await hub.public_rooms()
        except StoreError as e:
            raise _http_error(503, e.code, "the database is unavailable") from None

    @app.get("/api/rooms/{room_id}")
    async def room_info(room_id: str, request: Request) -> dict[str, Any]:
        """A room as its link shows it before joining: status, rules, timer, seats."""
        reading(request)
        try:
            summary = await hub.room_summary(room_id) if len(room_id) <= 64 else None
        except StoreError as e:
            raise _http_error(503, e.code, "the database is unavailable") from None
        except RoomDamaged:
            raise _http_error(
                503, "ROOM_UNAVAILABLE", "this room is damaged and was set aside"
            ) from None
        if summary is None:
            raise _http_error(404, "NO_ROOM", "no such room")
        return summary

    @app.post("/api/rooms")
    async def create(body: CreateRoom, request: Request) -> dict[str, Any]:
        settings = RoomSettings(
            preset=body.preset,
            overrides=body.overrides,
            turn_seconds=body.turn_seconds,
            hints=body.hints,
            take_back=body.take_back,
            auto_play=body.auto_play,
            away_seconds=body.away_seconds,
            deal_seconds=body.deal_seconds,
            declare_seconds=body.declare_seconds,
        )
        try:
            room, host_key = await hub.create(settings, body.bots, body.public, _peer(request))
        except ShengjiError as e:
            status = {"TOO_MANY_ROOMS": 429, "STORE_UNAVAILABLE": 503}.get(e.code, 400)
            wait = (e.params or {}).get("retry_after")
            headers = _retry_after(wait) if wait is not None else None
            raise _http_error(status, e.code, e.message, headers, e.params) from None
        return {"id": room.id, "url": f"/room/{room.id}", "host_key": host_key}

    async def _finished_record(room_id: str) -> dict[str, Any]:
        await stored_room(room_id)
        # a record holds the seed and the kitty: it would reveal every hand before the end
        rec = await _read(store.load_record, room_id)
        if rec is None:
            raise _http_error(403, "NOT_FINISHED", "records open when the match ends")
        return rec

    @app.get("/api/rooms/{room_id}/record")
    async def record(room_id: str, request: Request) -> Response:
        reading(request)
        return JSONResponse(
            await _finished_record(room_id),
            headers={"Content-Disposition": f'attachment; filename="shengji-{room_id}.json"'},
        )

    @app.get("/api/rooms/{room_id}/replay")
    async def replay(room_id: str, request: Request, lang: str = "both") -> dict[str, Any]:
        reading(request)
        rec = await _finished_record(room_id)
        return {"lines": list(narrate(rec, lang if lang in ("en", "zh", "both") else "both"))}

    @app.get("/api/rooms/{room_id}/replay/views")
    async def replay_views_of(room_id: str, request: Request, seat: int = 0) -> Response:
        """Every view ``seat`` had during the finished match, for the card-by-card
        replayer: made in a worker process, kept per (room, seat), sent gzip-compressed
        (uncompressed only to a client that does not accept gzip)."""
        if not 0 <= seat <= 7:
            raise _http_error(400, "BAD_SEAT", "seat must be 0..7")
        peer = reading(request)
        key = ("views", room_id, seat)
        body: bytes | None = replayer.cached(key)
        if body is None:
            rec = await _finished_record(room_id)
            row = await stored_room(room_id)
            seats = [{"kind": s["kind"], "name": s["name"]} for s in row.lobby["seats"]]
            if seat >= len(seats):
                raise _http_error(400, "BAD_SEAT", f"this table has seats 0..{len(seats) - 1}")
            source = {"record": rec, "room": {"seats": seats}}
            try:
                body = await replayer.review(key, lambda: source, seat, 0, 0, peer)
            except ReviewBusy as e:
                raise _http_error(503, e.code, e.message, {"Retry-After": "2"}) from None
        assert body is not None
        headers = {"Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
        else:
            body = await asyncio.to_thread(gzip.decompress, body)
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/rooms/{room_id}/review")
    async def review_hand(room_id: str, seat: int, hand: int, request: Request) -> dict[str, Any]:
        """The plays of ``seat`` in ``hand`` that the search bot finds clearly worse
        (:mod:`shengji.bots.review`), with the better play. Any seat once the match is over;
        during the match only the caller's own seat (``Authorization: Bearer TOKEN``, the
        resume token) and only a finished hand."""
        if not 0 <= seat <= 7:
            raise _http_error(400, "BAD_SEAT", "seat must be 0..7")
        if not 0 <= hand < 10_000:
            raise _http_error(400, "BAD_HAND", "hand must be a finished hand's number (0 = first)")
        token = _bearer(request)
        peer = reading(request)
        row = await stored_room(room_id)
        if seat >= len(row.lobby["seats"]):
            n = len(row.lobby["seats"])
            raise _http_error(400, "BAD_SEAT", f"this table has seats 0..{n - 1}")
        rec = await _read(store.load_record, room_id)
        if rec is not None:
            if hand >= len(rec.get("hands", [])):
                raise _http_error(400, "BAD_HAND", f"the match has no hand {hand}")
            finished = rec

            def source() -> dict[str, Any]:
                return {**finished, "actions": hand_actions(finished["actions"], hand)}
        else:
            status, settings, lobby = row.status, row.settings, row.lobby
            h = token_hash(token) if token else None
            mine = next(
                (i for i, s in enumerate(lobby["seats"]) if h and s.get("token_hash") == h), None
            )
            if mine is None and h is not None and h in lobby.get("spectators", {}):
                raise _http_error(403, "NOT_SEATED", "spectators review hands after the match")
            if mine is None and token:
                raise _http_error(403, "BAD_TOKEN", "that token has no seat in this room")
            if mine != seat:
                raise _http_error(
                    403, "NOT_FINISHED", "during the match a player reviews only their own seat"
                )
            if status != "playing":
                raise _http_error(403, "BAD_HAND", f"hand {hand} is not over")
            log_rows = await _read(store.load_actions, room_id)

            def source() -> dict[str, Any]:
                actions = hand_actions([{"seat": s, **a} for s, a in log_rows], hand)
                return live_record(settings, lobby, [(a.pop("seat"), a) for a in actions])

        rollouts = max(1, limits.review_rollouts)
        try:
            marks = await reviewer.review(
                (room_id, seat, hand, rollouts), source, seat, hand, rollouts, peer
            )
        except ReviewBusy as e:
            raise _http_error(503, e.code, e.message, {"Retry-After": "5"}) from None
        except StoreError:
            raise _http_error(503, "STORE_UNAVAILABLE", "the database is unavailable") from None
        except ShengjiError as e:
            status_code = 403 if e.code == "BAD_HAND" and rec is None else 400
            raise _http_error(status_code, e.code, e.message) from None
        return {"room": room_id, "seat": seat, "hand": hand, "rollouts": rollouts, "marks": marks}

    @app.post("/api/rooms/{room_id}/hint")
    async def hint(room_id: str, request: Request) -> dict[str, Any]:
        """What the strongest bot would do for the caller's seat now, and why: the seat is
        the one of ``Authorization: Bearer TOKEN`` (the resume token), and it must be that
        seat's turn. The search runs in a worker process for ``hint_ms``."""
        token = _bearer(request)
        if not token:
            raise _http_error(403, "BAD_TOKEN", "a hint needs your seat's token")
        peer = reading(request)
        h = token_hash(token)
        room = hub.rooms.get(room_id)
        source: Callable[[], Any]
        if room is not None:  # played here: its state is in memory
            seat = room.seat_of_hash(h)
            if seat is None:
                raise _http_error(403, "BAD_TOKEN", "that token has no seat in this room")
            if not room.settings.hints:
                raise _http_error(403, "HINTS_OFF", "the host made this table one without hints")
            st = room.state
            if room.status != "playing" or st is None:
                raise _http_error(409, "NOT_PLAYING", "the match is not being played")
            if st.to_act != seat or st.phase in ("hand_over", "match_over"):
                raise _http_error(409, "NOT_YOUR_TURN", "hints are for your own turn")
            view = seat_view(st, seat)
            rev: tuple[str, int] = ("memory", room.rev)

            def source() -> Any:
                return view
        else:  # played by another process (or by nobody now): read, never load, the room
            row = await stored_room(room_id)
            status, settings, lobby = row.status, row.settings, row.lobby
            seat = next((i for i, x in enumerate(lobby["seats"]) if x.get("token_hash") == h), None)
            if seat is None:
                raise _http_error(403, "BAD_TOKEN", "that token has no seat in this room")
            if not settings.get("hints", True):
                raise _http_error(403, "HINTS_OFF", "the host made this table one without hints")
            if status != "playing":
                raise _http_error(409, "NOT_PLAYING", "the match is not being played")
            log_rows = await _read(store.load_actions, room_id)
            rev = ("store", len(log_rows))
            record = live_record(settings, lobby, log_rows)

            def source() -> Any:
                return record

        ms = max(10, limits.hint_ms)
        try:
            answer: dict[str, Any] = await adviser.review(
                ("hint", room_id, seat, rev, ms), source, seat, 0, ms, peer
            )
        except ReviewBusy as e:
            raise _http_error(503, e.code, e.message, {"Retry-After": "2"}) from None
        except ShengjiError as e:  # the store's table: not this seat's turn
            raise _http_error(409, e.code, e.message) from None
        return {"room": room_id, "seat": seat, **answer}

    @app.websocket("/ws/{room_id}")
    async def ws(websocket: WebSocket, room_id: str) -> None:
        peer = _peer(websocket)
        await websocket.accept()
        refused = hub.connect(peer)
        if refused is not None:
            text = (
                "too many connections from your address"
                if refused == Code.RATE_LIMITED
                else "the server has as many connections as it takes: try again later"
            )
            await websocket.send_text(error_message(None, refused, text))
            await websocket.close(code=4429 if refused == Code.RATE_LIMITED else 4503)
            return
        try:
            await _serve_socket(websocket, room_id, peer)
        finally:
            hub.disconnect(peer)

    async def _serve_socket(websocket: WebSocket, room_id: str, peer: str) -> None:
        try:
            room = await hub.attach(room_id)
        except RoomError as e:
            await websocket.send_text(error_message(None, e.code, e.message))
            await websocket.close(code=4404 if e.code == "NO_ROOM" else 4503)
            return

        async def close(code: int) -> None:
            why = CLOSE_REASONS.get(conn.dropped or "", "closed")
            with contextlib.suppress(Exception):
                await websocket.close(code=code, reason=f"{why}: reconnect with your token")

        write_now = websocket.scope.get("extensions", {}).get(WRITE_NOW)
        conn = Connection(peer, limits, hub.lobby_budget(peer), write_now)
        raw_send: Send | None = websocket.scope.get(RAW_SEND)

        async def send_text(text: str) -> None:
            if raw_send is None:
                await websocket.send_text(text)
            else:
                await raw_send({"type": "websocket.send", "text": text})

        writer = asyncio.get_running_loop().create_task(conn.pump(send_text, close))
        share = hub.fair_share(peer)
        try:
            while not conn.dropped and not conn.closing:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                # the address's fair share of the loop: beyond it, its frames wait unread
                # (the socket's buffers fill and its sender is held back), costing nothing
                await share.take()
                raw: str | bytes = frame.get("text") or frame.get("bytes") or b""
                cmd = None
                try:
                    cmd = parse_command(raw, limits)
                    conn.push(dumps(await room.handle(conn, cmd)))
                except ProtocolError as e:
                    conn.push(error_message(e.request_id, e.code, e.message))
                except RoomError as e:
                    conn.push(error_message(cmd.id if cmd else None, e.code, e.message, e.params))
                    if conn.joined and e.code not in UNCHANGED and not isinstance(cmd, Check):
                        conn.push(dumps(room.state_for(conn)))  # the table as it is now
                except Exception as e:  # a fault of ours: logged, answered, the socket kept
                    log_fault(e)
                    text = "the server failed on that command"
                    conn.push(error_message(cmd.id if cmd else None, Code.INTERNAL_ERROR, text))
                finally:
                    conn.release()  # what the room held for the answer (Room.handle)
                conn.close_if_spent()
        except WebSocketDisconnect:
            pass
        finally:
            room.attached -= 1
            room.disconnected(conn)
            if conn.dropped or conn.closing:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(writer, 2)
            writer.cancel()

    return app
