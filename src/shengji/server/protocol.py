"""The WebSocket protocol, version 1: typed client commands and server messages.

Every client command carries ``id`` (a request id, unique per connection) and ``rev``
(the room revision the client last saw). The server answers each command with ``ack`` or
``error`` (same ``id``) and pushes ``state`` messages with the seat's own view. See
``docs/protocol.md``.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..bots.registry import table_bot_names
from ..errors import Code, ShengjiError
from .limits import Limits, nested_deeper

PROTOCOL_VERSION = 1
DEFAULT_LIMITS = Limits()
MAX_CHAT_CHARS = 500
MAX_NAME_CHARS = 32

#: Unicode categories a name may not hold: control (NUL, BEL, ...), format (the RTL
#: override, zero-width characters), surrogates, private use, line and paragraph breaks.
NAME_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})

# The lengths of names and chat lines are checked in parse_command, in characters and
# in bytes, so that each has one code (NAME_TOO_LONG, CHAT_TOO_LONG) whatever it counts.
Name = Annotated[str, Field(min_length=1)]
Seat = Annotated[int, Field(ge=0, le=7)]  # a table has 4 to 8 seats (找朋友)


def _known_bot(name: str) -> str:
    if name not in table_bot_names():
        raise ValueError(f"no bot called {name!r}; bots: {', '.join(table_bot_names())}")
    return name


BotName = Annotated[str, Field(max_length=64), AfterValidator(_known_bot)]
"""A registered bot's plain name (clients cannot pass arguments or commands)."""


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    v: Literal[1] = 1
    id: Annotated[str, Field(min_length=1, max_length=64)]
    rev: Annotated[int, Field(ge=0)] | None = None


class Join(_Command):
    """Take a seat (``seat``), any free seat (None) or watch (``spectate``); ``token``
    reclaims an earlier seat."""

    type: Literal["join"]
    name: Name = "player"
    seat: Seat | None = None
    spectate: bool = False
    token: Annotated[str, Field(max_length=128)] | None = None
    host_key: Annotated[str, Field(max_length=128)] | None = None


class Sit(_Command):
    """Move to another free seat (before the match starts)."""

    type: Literal["sit"]
    seat: Seat


class Ready(_Command):
    """Say whether you are ready to start."""

    type: Literal["ready"]
    ready: bool = True


class SetBot(_Command):
    """Host: put a bot in a seat (``bot`` None empties it)."""

    type: Literal["set_bot"]
    seat: Seat
    bot: BotName | None = "heuristic"


class Kick(_Command):
    """Host: remove the person in a seat (a bot of the room's default strength replaces
    them once the match has started)."""

    type: Literal["kick"]
    seat: Seat


class Randomize(_Command):
    """Host: shuffle who sits where (before the match starts)."""

    type: Literal["randomize"]


class Start(_Command):
    """Host: start the match once every seat is filled and every person is ready."""

    type: Literal["start"]


class SetPublic(_Command):
    """Host: list the room in the public room list, or not."""

    type: Literal["set_public"]
    public: bool


class Chat(_Command):
    """Say something to the room."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1)]


class ActionBody(BaseModel):
    """A game action: ``declare``, ``pass``, ``bury``, ``play``, ``call`` (找朋友: the
    banker's friend calls, ``calls``: ``"SA:2 HK:1"``) or ``continue``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["declare", "pass", "bury", "play", "call", "continue"]
    cards: Annotated[str, Field(max_length=400)] | None = None
    calls: Annotated[str, Field(max_length=100)] | None = None


class Act(_Command):
    """Take a game action for your seat (``rev`` must be the current revision)."""

    type: Literal["act"]
    action: ActionBody


class Check(_Command):
    """Ask whether a play would be legal now, without making it."""

    type: Literal["check"]
    action: ActionBody


class Reviewing(_Command):
    """Say that you opened (``open``) or closed a hand review while the score sheet waits
    for the next hand: the next hand waits for you, up to ``review_hold_seconds`` in all
    per hand (a seated person, during ``hand_over`` only)."""

    type: Literal["reviewing"]
    open: Annotated[bool, Field(strict=True)]


class TakeBack(_Command):
    """Take back your own last show or play (a room made with ``take_back``), before any
    other seat has acted since."""

    type: Literal["take_back"]


class Ping(_Command):
    """Keep-alive."""

    type: Literal["ping"]


Command = Annotated[
    Join
    | Sit
    | Ready
    | SetBot
    | Kick
    | Randomize
    | Start
    | SetPublic
    | Chat
    | Act
    | Check
    | Reviewing
    | TakeBack
    | Ping,
    Field(discriminator="type"),
]
_COMMAND: TypeAdapter[Any] = TypeAdapter(Command)


class ProtocolError(ShengjiError):
    """A message that is not a valid command; ``code`` is a :class:`~shengji.errors.Code`."""

    def __init__(self, code: str, message: str, request_id: str | None = None) -> None:
        super().__init__(message, code=code)
        self.request_id = request_id


def parse_command(raw: str | bytes, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Parse and validate one client message; raises ProtocolError."""
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > limits.message_bytes:
        raise ProtocolError(
            Code.MESSAGE_TOO_LARGE, f"messages are limited to {limits.message_bytes} bytes"
        )
    text = data.decode("utf-8", "replace")
    if nested_deeper(data, limits.json_depth):
        raise ProtocolError(Code.BAD_MESSAGE, f"messages nest at most {limits.json_depth} deep")
    try:
        cmd = _COMMAND.validate_json(data)
    except ValidationError as e:
        rid = None
        try:
            obj = json.loads(text)
            if isinstance(obj, dict) and isinstance(obj.get("id"), str):
                rid = obj["id"][:64]
        except ValueError:
            pass
        first = e.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ProtocolError(
            Code.BAD_MESSAGE, f"invalid message: {where}: {first.get('msg')}", rid
        ) from None
    if isinstance(cmd, Join):
        if len(cmd.name) > MAX_NAME_CHARS or len(cmd.name.encode()) > limits.name_bytes:
            raise ProtocolError(
                Code.NAME_TOO_LONG,
                f"a name is at most {MAX_NAME_CHARS} characters and {limits.name_bytes} bytes",
                cmd.id,
            )
        if any(unicodedata.category(ch) in NAME_REFUSED for ch in cmd.name):
            raise ProtocolError(
                Code.BAD_NAME, "a name cannot hold control or formatting characters", cmd.id
            )
    if isinstance(cmd, Chat) and (
        len(cmd.text) > MAX_CHAT_CHARS or len(cmd.text.encode()) > limits.chat_bytes
    ):
        raise ProtocolError(
            Code.CHAT_TOO_LONG,
            f"a chat line is at most {MAX_CHAT_CHARS} characters and {limits.chat_bytes} bytes",
            cmd.id,
        )
    return cmd


def message(kind: str, **fields: Any) -> dict[str, Any]:
    """A server message."""
    return {"v": PROTOCOL_VERSION, "type": kind, **fields}
