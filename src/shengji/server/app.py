"""The ASGI app: pages and the room list over HTTP, play over a WebSocket."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.staticfiles import StaticFiles

from ..errors import ShengjiError
from ..narrate import narrate
from ..presets import preset_description, preset_names
from .protocol import ProtocolError, message, parse_command
from .rooms import Connection, Hub, RoomError, RoomSettings
from .store import Store, sqlite_url

STATIC = Path(str(resources.files("shengji") / "server" / "static"))


class CreateRoom(BaseModel):
    """``POST /api/rooms``."""

    model_config = ConfigDict(extra="forbid")
    preset: str = "shuangsheng"
    overrides: dict[str, Any] = Field(default_factory=dict)
    turn_seconds: float = Field(default=0.0, ge=0, le=600)
    away_seconds: float = Field(default=30.0, ge=0, le=3600)
    bots: list[str | None] = Field(default_factory=list, max_length=4)


def create_app(db_url: str | None = None, bot_delay: float | None = None) -> FastAPI:
    """The app over a database (default: SQLite in ``./var/shengji.db``)."""
    store = Store(db_url or sqlite_url("var/shengji.db"))
    hub = Hub(store, bot_delay=bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.resume_all()
        yield
        store.close()

    app = FastAPI(title="shengji", lifespan=lifespan)
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    @app.get("/room/{room_id}", include_in_schema=False)
    @app.get("/replay/{room_id}", include_in_schema=False)
    async def index(room_id: str | None = None) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/presets")
    async def presets() -> list[dict[str, str]]:
        return [{"name": n, "description": preset_description(n)} for n in preset_names()]

    @app.get("/api/rooms")
    async def rooms() -> list[dict[str, Any]]:
        out = []
        for room in hub.rooms.values():
            pub = room.public()
            out.append({k: pub[k] for k in ("id", "status", "preset", "seats", "spectators")})
        return out

    @app.post("/api/rooms")
    async def create(body: CreateRoom) -> dict[str, Any]:
        try:
            settings = RoomSettings(
                preset=body.preset,
                overrides=body.overrides,
                turn_seconds=body.turn_seconds,
                away_seconds=body.away_seconds,
            )
            settings.options()
        except ShengjiError as e:
            raise HTTPException(400, detail={"code": e.code, "message": e.message}) from None
        room = hub.create(settings)
        for seat, bot in enumerate(body.bots):
            if bot is not None:
                if bot not in ("random", "heuristic"):
                    raise HTTPException(400, detail={"code": "UNKNOWN_BOT", "message": bot})
                from .rooms import SeatInfo

                room.seats[seat] = SeatInfo(kind="bot", name=f"{bot} bot", bot=bot, ready=True)
        room.make_bots()
        room.save()
        return {"id": room.id, "url": f"/room/{room.id}"}

    def _room(room_id: str) -> Any:
        room = hub.rooms.get(room_id)
        if room is None:
            raise HTTPException(404, detail={"code": "NO_ROOM", "message": "no such room"})
        return room

    @app.get("/api/rooms/{room_id}/record")
    async def record(room_id: str) -> Response:
        _room(room_id)
        # a record holds the seed and the kitty: it would reveal every hand before the end
        rec = store.load_record(room_id)
        if rec is None:
            raise HTTPException(
                403, detail={"code": "NOT_FINISHED", "message": "records open when the match ends"}
            )
        return JSONResponse(
            rec, headers={"Content-Disposition": f'attachment; filename="shengji-{room_id}.json"'}
        )

    @app.get("/api/rooms/{room_id}/replay")
    async def replay(room_id: str, lang: str = "both") -> dict[str, Any]:
        _room(room_id)
        rec = store.load_record(room_id)
        if rec is None:
            raise HTTPException(
                403, detail={"code": "NOT_FINISHED", "message": "replays open when the match ends"}
            )
        return {"lines": list(narrate(rec, lang if lang in ("en", "zh", "both") else "both"))}

    @app.websocket("/ws/{room_id}")
    async def ws(websocket: WebSocket, room_id: str) -> None:
        await websocket.accept()
        room = hub.rooms.get(room_id)
        if room is None:
            await websocket.send_json(
                message("error", id=None, code="NO_ROOM", message="no such room")
            )
            await websocket.close(code=4404)
            return

        async def send(msg: dict[str, Any]) -> None:
            await websocket.send_text(json.dumps(msg, ensure_ascii=False))

        conn = Connection(send)
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                raw = frame.get("text")
                if raw is None:
                    raw = (frame.get("bytes") or b"").decode("utf-8", "replace")
                try:
                    cmd = parse_command(raw)
                    reply = await room.handle(conn, cmd)
                    await send(reply)
                except ProtocolError as e:
                    await send(message("error", id=e.request_id, code=e.code, message=e.message))
                except RoomError as e:
                    await send(message("error", id=cmd.id, code=e.code, message=e.message))
                    await send(room.state_for(conn))
        except WebSocketDisconnect:
            pass
        finally:
            room.disconnected(conn)

    return app
