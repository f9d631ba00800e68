"""Running the app under uvicorn with the server's limits (docs/server.md):

- every HTTP request's head, and then its body, must arrive within ``request_seconds``
  (slowloris), on the first request of a connection and on every later one;
- one address keeps at most ``http_connections_per_ip`` HTTP connections open (a
  WebSocket counts in ``connections_per_ip`` once upgraded);
- a WebSocket frame over ``message_bytes`` is never read: the client gets a
  ``MESSAGE_TOO_LARGE`` error frame, then close code 1009;
- ``X-Forwarded-For`` is believed only from the proxies the operator names.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import random
import struct
import time
from collections.abc import Callable
from typing import Any, ClassVar, cast

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_impl import WebSocketProtocol
from websockets.frames import OP_BINARY, OP_PONG, OP_TEXT, CloseCode
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets built without its C extension
    from websockets.utils import apply_mask

from ..errors import Code, ShengjiError
from .connection import WRITE_NOW
from .guards import coded
from .limits import Limits, address_group


def trusted_proxies(spec: str) -> Callable[[str], bool]:
    """Whether an address is one of ``spec``'s: comma-separated addresses or networks
    (``10.0.0.0/8``), ``*`` for any; an empty ``spec`` trusts none."""
    items = [x.strip() for x in spec.split(",") if x.strip()]
    if "*" in items:
        return lambda host: True
    try:
        nets = [ipaddress.ip_network(x, strict=False) for x in items]
    except ValueError as e:
        raise ShengjiError(f"--forwarded-allow-ips: {e}", code=Code.BAD_OPTION) from None

    def trusted(host: str) -> bool:
        try:
            addr = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(addr in net for net in nets)

    return trusted


def _refusal(code: Code, status: int, reason: str, text: str) -> bytes:
    """A whole HTTP/1.1 answer with a coded JSON error, closing the connection (with
    ``Retry-After: 5``: such a refusal is about connections open now)."""
    body = json.dumps({"detail": coded(code, text)}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nretry-after: 5\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class LimitedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol that closes a connection whose request head, or body,
    does not arrive within ``request_seconds`` of the connection waiting for it (uvicorn
    only times out idle keep-alive connections, and a byte now and then keeps one
    open), and refuses a connection from an address (an address group: an IPv4 address,
    an IPv6 /64) that already has ``per_ip`` open, or when the process has
    ``per_process`` open."""

    request_seconds: ClassVar[float] = Limits.request_seconds
    per_ip: ClassVar[int] = Limits.http_connections_per_ip
    per_process: ClassVar[int] = Limits.connections_per_process
    #: Open connections per address group, shared by the connections of one server
    #: (the key "" counts them all).
    open_by_ip: ClassVar[dict[str, int]] = {}

    _timer: asyncio.TimerHandle | None = None
    _phase: tuple[object, object] | None = None
    _counted = ""
    _total = False
    _upgraded = False

    @staticmethod
    def exempt(host: str) -> bool:
        """Whether ``host`` is exempt from ``per_ip``: a reverse proxy speaks for many."""
        return False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        host = address_group(address)
        if self.open_by_ip.get("", 0) >= self.per_process:
            transport.write(SERVER_FULL)
            transport.close()
            return
        if host and not self.exempt(address):
            if self.open_by_ip.get(host, 0) >= self.per_ip:
                transport.write(TOO_MANY_CONNECTIONS)
                transport.close()
                return
            self.open_by_ip[host] = self.open_by_ip.get(host, 0) + 1
            self._counted = host
        self.open_by_ip[""] = self.open_by_ip.get("", 0) + 1
        self._total = True
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True
        self._release()
        super().handle_websocket_upgrade(event)

    def _release(self) -> None:
        """Stop the clock and give the address its connection back."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for key in [self._counted] * bool(self._counted) + [""] * self._total:
            left = self.open_by_ip.get(key, 1) - 1
            if left > 0:
                self.open_by_ip[key] = left
            else:
                self.open_by_ip.pop(key, None)
        self._counted = ""
        self._total = False

    def _watch(self) -> None:
        """Start the clock when the connection begins to wait for a request's head (a new
        cycle) or for its body (the head has come): the phase is the request and h11's
        state of the client, so bytes that do not finish the phase never reset it."""
        if self._upgraded:
            return
        state = self.conn.their_state
        if self._phase is not None and self._phase[0] is self.scope and self._phase[1] is state:
            return
        phase = self._phase = (self.scope, state)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if state is h11.IDLE or state is h11.SEND_BODY:
            self._timer = self.loop.call_later(self.request_seconds, self._due, phase)

    def _due(self, phase: tuple[object, object]) -> None:
        self._timer = None
        if not self._upgraded and self._phase is phase and not self.transport.is_closing():
            self.transport.close()


TOO_MANY_CONNECTIONS = _refusal(
    Code.RATE_LIMITED, 429, "Too Many Requests", "too many connections from your address"
)
SERVER_FULL = _refusal(
    Code.SERVER_FULL, 503, "Service Unavailable", "the server has as many connections as it takes"
)


def text_frame(data: bytes) -> bytes:
    """One unmasked, final text frame (RFC 6455 §5.2) carrying ``data``: what a server
    sends when no extension is in use."""
    n = len(data)
    if n < 126:
        head = bytes((0x80 | OP_TEXT, n))
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | OP_TEXT, 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | OP_TEXT, 127, n)
    return head + data


class CodedWebSocket(WebSocketProtocol):
    """uvicorn's WebSocket protocol that, before closing with 1009 a frame over the size
    limit (never read), sends the client a ``MESSAGE_TOO_LARGE`` error frame, and whose
    keep-alive pings are spread out: each connection waits a random part of the interval
    before its first, so connections made together (a server's restart, a load test)
    never ping all at once (4,000 pings in one go stalled every table for 100-170 ms).
    A client's whole frames are read as they arrive, without websockets' reading task
    (:meth:`data_received`), and its messages are sent straight to the socket."""

    too_large: ClassVar[bytes] = b""
    #: Whole frames are read in :meth:`data_received` (see :meth:`_read_frames`).
    _direct = False
    _pop_message_waiter: asyncio.Future[None] | None
    _put_message_waiter: asyncio.Future[None] | None

    def connection_open(self) -> None:
        super().connection_open()
        self._direct = not self.debug and not self.extensions and not self.reader._buffer
        self.transfer_data_task.add_done_callback(self._wake_receiver)

    def _wake_receiver(self, _: object) -> None:
        waiter = self._pop_message_waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def data_received(self, data: bytes) -> None:
        if self._direct:
            data = self._read_frames(data)
            if not data:
                return
            self._direct = False  # websockets' reader takes the rest of the stream
        super().data_received(data)

    def _read_frames(self, data: bytes) -> bytes:
        """Take the whole, masked, unfragmented data frames and pongs at the start of
        ``data`` (what clients send) straight into the message queue, without waking
        websockets' reading task; returns the bytes from the first frame left to it."""
        n = len(data)
        pos = 0
        while n - pos >= 6 and self.state is State.OPEN and len(self.messages) < self.max_queue:
            b0, b1 = data[pos], data[pos + 1]
            if b0 & 0x70 or not b1 & 0x80 or not b0 & 0x80:
                break  # reserved bits, an unmasked frame, a fragment
            opcode = b0 & 0x0F
            length = b1 & 0x7F
            head = pos + 2
            if length == 126:
                length = int.from_bytes(data[head : head + 2], "big")
                head += 2
            elif length == 127:
                break
            end = head + 4 + length
            if end > n:
                break
            if opcode in (OP_TEXT, OP_BINARY):
                if self.max_size is not None and length > self.max_size:
                    break
                payload = apply_mask(data[head + 4 : end], data[head : head + 4])
                if opcode == OP_TEXT:
                    try:
                        message: str | bytes = payload.decode()
                    except UnicodeDecodeError:
                        break
                else:
                    message = payload
                self.messages.append(message)
                waiter = self._pop_message_waiter
                if waiter is not None and not waiter.done():
                    waiter.set_result(None)
                    self._pop_message_waiter = None
            elif opcode == OP_PONG and length <= 125:
                self._pong_received(apply_mask(data[head + 4 : end], data[head : head + 4]))
            else:
                break
            pos = end
        return data[pos:] if pos else data

    def _pong_received(self, data: bytes) -> None:
        """websockets' handling of a pong: it answers its ping and every earlier one."""
        if data not in self.pings:
            return
        now = time.perf_counter()
        answered = []
        for ping_id, (pong_waiter, sent) in self.pings.items():
            answered.append(ping_id)
            if not pong_waiter.done():
                pong_waiter.set_result(now - sent)
            if ping_id == data:
                self.latency = now - sent
                break
        for ping_id in answered:
            del self.pings[ping_id]

    async def recv(self) -> str | bytes:
        """The next message: websockets' own, waiting on one future instead of two."""
        while not self.messages and not self.transfer_data_task.done():
            if self._pop_message_waiter is not None:
                break
            waiter = self._pop_message_waiter = self.loop.create_future()
            try:
                await waiter
            finally:
                self._pop_message_waiter = None
        if not self.messages:
            return cast(str | bytes, await super().recv())
        message: str | bytes = self.messages.popleft()
        if self._put_message_waiter is not None:
            self._put_message_waiter.set_result(None)
            self._put_message_waiter = None
        return message

    async def run_asgi(self) -> None:
        self.scope["extensions"][WRITE_NOW] = self.write_now  # type: ignore[assignment]
        await super().run_asgi()

    def write_now(self, *texts: str) -> bool:
        """Frame ``texts`` and hand them to the transport at once, in one write, if the
        connection is open and not held back by flow control; whether it did. The table's
        broadcasts are most of what the server does: websockets' general path (a task
        woken per message, locks, futures, a frame object) cost more than the rest of an
        action."""
        if (
            self.state is State.OPEN
            and not self._paused
            and not self.extensions
            and not self.closed_event.is_set()
            and not self.transport.is_closing()
        ):
            if len(texts) == 1:
                self.transport.write(text_frame(texts[0].encode()))
            else:
                self.transport.write(b"".join([text_frame(t.encode()) for t in texts]))
            return True
        return False

    async def asgi_send(self, message: Any) -> None:
        text = message.get("text") if message["type"] == "websocket.send" else None
        if text is None or self.initial_response is not None or not self.write_now(text):
            await super().asgi_send(message)

    async def keepalive_ping(self) -> None:
        if self.ping_interval is not None:
            await asyncio.sleep(random.uniform(0, self.ping_interval))
        await super().keepalive_ping()

    def fail_connection(self, code: int = CloseCode.ABNORMAL_CLOSURE, reason: str = "") -> None:
        if code == CloseCode.MESSAGE_TOO_BIG and self.state is State.OPEN:
            self.write_frame_sync(True, OP_TEXT, self.too_large)
            reason = reason or Code.MESSAGE_TOO_LARGE
        super().fail_connection(code, reason)


def protocols(
    limits: Limits, forwarded_allow_ips: str = ""
) -> tuple[type[LimitedH11], type[CodedWebSocket]]:
    """The HTTP and WebSocket protocol classes of one server with ``limits``."""
    from .app import error_message

    proxy = trusted_proxies(forwarded_allow_ips)

    class Http(LimitedH11):
        request_seconds = limits.request_seconds
        per_ip = limits.http_connections_per_ip
        per_process = limits.connections_per_process
        open_by_ip: ClassVar[dict[str, int]] = {}

        @staticmethod
        def exempt(host: str) -> bool:
            """The named proxies are exempt."""
            return proxy(host)

    class Ws(CodedWebSocket):
        too_large = error_message(
            None, Code.MESSAGE_TOO_LARGE, f"messages are limited to {limits.message_bytes} bytes"
        ).encode()

    return Http, Ws


def serve(
    app: Any, host: str, port: int, log_level: str, limits: Limits, forwarded_allow_ips: str = ""
) -> None:
    """Serve ``app`` until interrupted; ``forwarded_allow_ips`` names the reverse proxies
    (comma-separated addresses or networks, ``*`` any) whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed: by default none, so a client's own address is the
    one every per-address limit counts, even through loopback."""
    http, ws = protocols(limits, forwarded_allow_ips)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=http,
        ws=ws,
        ws_max_size=limits.message_bytes,
        ws_per_message_deflate=False,  # compression costs more CPU than loopback/LAN saves
        timeout_keep_alive=5,
        proxy_headers=bool(forwarded_allow_ips.strip()),
        forwarded_allow_ips=forwarded_allow_ips or None,
    )
