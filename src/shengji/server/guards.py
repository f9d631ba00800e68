"""HTTP guards of the app (docs/server.md, "Limits"): request bodies over ``body_bytes``
are refused before they are read, validation errors never echo the request back, and a
framework's own errors (a body it cannot parse, an unknown path) are coded too."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import Code
from ..words.i18n import error_text

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The most of a validation error's text sent back (field names and pydantic's words).
DETAIL_CHARS = 200


def coded(code: Code, text: str) -> dict[str, Any]:
    """An HTTP error's ``detail``: the code, the message, the words for people."""
    words = {lang: error_text(code, None, text, lang) for lang in ("en", "zh")}
    return {"code": code, "message": text, "text": words}


class BodyLimit:
    """ASGI middleware answering 413 ``BODY_TOO_LARGE`` (and closing the connection) to a
    request whose body is over ``limit`` bytes, before the app reads any of it: a
    declared ``Content-Length`` is checked at once; a chunked body is counted as it
    arrives, never kept past the limit, and handed to the app whole once under it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared: int | None = None
        chunked = False
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.limit + 1
            elif name == b"transfer-encoding":
                chunked = True
        if declared is not None and declared > self.limit:
            await self._refuse(send)
            return
        if not chunked:  # the server delivers no more than Content-Length bytes
            await self.app(scope, receive, send)
            return
        body = bytearray()
        while True:
            msg = await receive()
            if msg["type"] != "http.request":
                return  # the client left
            body += msg.get("body", b"")
            if len(body) > self.limit:
                await self._refuse(send)
                return
            if not msg.get("more_body", False):
                break
        whole: Message | None = {"type": "http.request", "body": bytes(body), "more_body": False}

        async def replay() -> Message:
            nonlocal whole
            if whole is not None:
                msg, whole = whole, None
                return msg
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        text = f"request bodies are limited to {self.limit} bytes"
        body = json.dumps({"detail": coded(Code.BODY_TOO_LARGE, text)}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),  # the rest of the body is never read
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
    """422 ``BAD_REQUEST`` naming the first field in error and what is wrong, never the
    value sent (FastAPI's own answer echoes the input back)."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    first = errors[0] if errors else {}
    where = ".".join(str(part)[:32] for part in first.get("loc", ()))
    text = f"invalid request: {where}: {first.get('msg', '')}"[:DETAIL_CHARS]
    return JSONResponse({"detail": coded(Code.BAD_REQUEST, text)}, status_code=422)


async def coded_http_error(request: Request, exc: Exception) -> Response:
    """Every HTTP error with a code: the app's own are coded already; the framework's
    (a body it cannot parse, nested too deep for its JSON reader; an unknown path or
    method) get ``BAD_REQUEST`` or ``NOT_FOUND``, their own status and headers kept."""
    assert isinstance(exc, StarletteHTTPException)
    detail: Any = exc.detail
    if not (isinstance(detail, dict) and "code" in detail):
        code = Code.NOT_FOUND if exc.status_code == 404 else Code.BAD_REQUEST
        detail = coded(code, str(detail)[:DETAIL_CHARS])
    if exc.status_code in (204, 304):
        return Response(status_code=exc.status_code, headers=exc.headers)
    return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)
