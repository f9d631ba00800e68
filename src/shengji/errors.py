"""Typed errors with stable codes that clients can show.

Every error raised for bad input — by the rules engine, the server or the clients — is a
:class:`ShengjiError` whose ``code`` is a member of :class:`Code` (a stable upper-case
string: ``MUST_FOLLOW_SUIT``, ``NOT_SEATED``, ...) and whose message says what is wrong
in plain words.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Code(StrEnum):
    """Every stable code, listed once: the engine's and the server's refusals, the
    terminal client's, and ``THROW_FAILED`` (not a refusal: it names the outcome of a
    failed throw in events). Each member is its own name as a string and has a one-line
    ``meaning``; :data:`shengji.words.i18n.CATALOGUE` words each for players in both languages.

    >>> Code.MUST_FOLLOW_SUIT == "MUST_FOLLOW_SUIT", Code.NOT_SEATED.meaning
    (True, 'spectators cannot do that')
    """

    meaning: str

    def __new__(cls, value: str, meaning: str) -> Code:
        obj = str.__new__(cls, value)
        obj._value_ = value
        obj.meaning = meaning
        return obj

    BAD_CARD = "BAD_CARD", "card text is not a card"
    UNKNOWN_PRESET = "UNKNOWN_PRESET", "no preset of that name"
    UNKNOWN_OPTION = "UNKNOWN_OPTION", "no rule option of that name"
    BAD_OPTION_VALUE = "BAD_OPTION_VALUE", "a rule option has a value it cannot take"
    BAD_LEVEL = "BAD_LEVEL", "not a level rank (2..10, J, Q, K, A)"
    BAD_TRUMP = "BAD_TRUMP", "not a trump suit (S, H, C, D or NT)"
    EMPTY_PLAY = "EMPTY_PLAY", "a play needs at least one card"
    WRONG_CARD_COUNT = "WRONG_CARD_COUNT", "a follow must have as many cards as the lead"
    CARDS_NOT_IN_HAND = "CARDS_NOT_IN_HAND", "the play uses cards the hand does not hold"
    MIXED_SUITS = "MIXED_SUITS", "a lead must be of one effective suit"
    MUST_FOLLOW_SUIT = (
        "MUST_FOLLOW_SUIT",
        "the follower holds cards of the led suit that must be played",
    )
    MUST_FOLLOW_FORMAT = (
        "MUST_FOLLOW_FORMAT",
        "the follower holds a pair/triple/tractor that must be played",
    )
    THROW_FAILED = "THROW_FAILED", "not a refusal: a throw failed (a unit could be beaten)"
    ILLEGAL_DECLARATION = "ILLEGAL_DECLARATION", "this declaration is not allowed now"
    ILLEGAL_CALL = "ILLEGAL_CALL", "this friend call (找朋友) is not allowed"
    BAD_CONFORMANCE_CASE = "BAD_CONFORMANCE_CASE", "a conformance case is malformed"
    BAD_OPTION = "BAD_OPTION", "rule options are not valid"
    ILLEGAL_PLAY = "ILLEGAL_PLAY", "this play is not allowed"
    ILLEGAL_ACTION = "ILLEGAL_ACTION", "this action is not allowed now"
    BAD_ACTION = (
        "BAD_ACTION",
        "not an action: apply takes Declare, Pass, Bury, Play, Call or Continue",
    )
    BAD_SEAT = "BAD_SEAT", "not a seat at this table"
    NOT_YOUR_TURN = "NOT_YOUR_TURN", "another seat is to act"
    MATCH_OVER = "MATCH_OVER", "the match is over"
    BAD_DECK = "BAD_DECK", "a stacked deck is not a full set of cards"
    BAD_RECORD = "BAD_RECORD", "a record is malformed, corrupt or illegal"
    BAD_RECORD_VERSION = "BAD_RECORD_VERSION", "a record's format version is not supported"
    TRUNCATED_RECORD = "TRUNCATED_RECORD", "a record's actions do not lead to its recorded results"
    SHENGJI_ERROR = "SHENGJI_ERROR", "an error of the engine"
    HIDDEN = "HIDDEN", "a seat's view does not show that"
    UNKNOWN_BOT = "UNKNOWN_BOT", "no bot of that name"
    BAD_BOT_SPEC = "BAD_BOT_SPEC", "a bot was given an argument it does not take"
    # external bots (docs/bot-protocol.md)
    BOT_CRASHED = "BOT_CRASHED", "an external bot could not start or exited"
    BOT_TIMEOUT = "BOT_TIMEOUT", "an external bot did not answer within its time limit"
    BOT_PROTOCOL = "BOT_PROTOCOL", "an external bot broke the bot protocol or gave up"
    BOT_ILLEGAL = "BOT_ILLEGAL", "an external bot answered an action the rules refuse"
    UNKNOWN_BOT_OPTION = "UNKNOWN_BOT_OPTION", "an external bot has no option of that name"
    # server protocol (docs/protocol.md)
    BAD_MESSAGE = "BAD_MESSAGE", "the message is not a valid protocol command"
    MESSAGE_TOO_LARGE = "MESSAGE_TOO_LARGE", "the message is over the size limit"
    NOT_JOINED = "NOT_JOINED", "send a join command first"
    ALREADY_JOINED = "ALREADY_JOINED", "this connection has already joined"
    BAD_TOKEN = "BAD_TOKEN", "the resume token does not belong to this room"
    ROOM_FULL = "ROOM_FULL", "every seat is taken"
    ROOM_STARTED = "ROOM_STARTED", "the match has started; join as a spectator"
    SEAT_TAKEN = "SEAT_TAKEN", "that seat is taken"
    NOT_HOST = "NOT_HOST", "only the host can do that"
    NOT_IN_LOBBY = "NOT_IN_LOBBY", "only before the match starts"
    NOT_SEATED = "NOT_SEATED", "spectators cannot do that"
    NOT_KICKABLE = "NOT_KICKABLE", "only another person can be kicked"
    SEATS_EMPTY = "SEATS_EMPTY", "every seat needs a person or a bot"
    NOT_READY = "NOT_READY", "every person must be ready"
    NOT_PLAYING = "NOT_PLAYING", "the match is not being played"
    NOT_HAND_OVER = "NOT_HAND_OVER", "only while the score sheet waits for the next hand"
    STALE_REVISION = "STALE_REVISION", "the command was made on an older table: look again"
    DUPLICATE_REQUEST = "DUPLICATE_REQUEST", "a request id was used twice"
    NO_ROOM = "NO_ROOM", "no such room"
    NOT_FINISHED = "NOT_FINISHED", "replays open when the match ends"
    BAD_HAND = "BAD_HAND", "not a finished hand of this match (0 = first)"
    REVIEW_BUSY = "REVIEW_BUSY", "the hand reviewer is busy with other hands: try again soon"
    HINT_BUSY = "HINT_BUSY", "the adviser is busy with other hints: try again soon"
    REPLAY_BUSY = "REPLAY_BUSY", "the replayer is busy with other matches: try again soon"
    HINTS_OFF = "HINTS_OFF", "the host made this table one without hints"
    TAKE_BACK_OFF = "TAKE_BACK_OFF", "the host made this table one without take-backs"
    TAKE_BACK_TOO_LATE = (
        "TAKE_BACK_TOO_LATE",
        "only your own last show or play, before anyone else has acted since",
    )
    BAD_HOST_KEY = "BAD_HOST_KEY", "the host key does not belong to this room"
    NAME_TOO_LONG = "NAME_TOO_LONG", "a name is over the size limit"
    CHAT_TOO_LONG = "CHAT_TOO_LONG", "a chat line is over the size limit"
    BAD_NAME = "BAD_NAME", "a name holds control or formatting characters (NUL, BEL, RTL override)"
    TURN_TOO_SHORT = "TURN_TOO_SHORT", "a turn timer is 0 (none) or at least 3 seconds"
    BODY_TOO_LARGE = "BODY_TOO_LARGE", "an HTTP request body is over the size limit (413)"
    BAD_REQUEST = (
        "BAD_REQUEST",
        "an HTTP request's parameters or body are not valid (422), or cannot be read (400)",
    )
    NOT_FOUND = "NOT_FOUND", "no page or API path of that name (404)"
    RATE_LIMITED = "RATE_LIMITED", "too many commands, chat lines or connections: slow down"
    TOO_MANY_ROOMS = "TOO_MANY_ROOMS", "too many rooms made from one address"
    TOO_MANY_SPECTATORS = "TOO_MANY_SPECTATORS", "the room has as many spectators as it takes"
    SERVER_FULL = "SERVER_FULL", "the server has as many connections as it takes: try again later"
    STORE_UNAVAILABLE = (
        "STORE_UNAVAILABLE",
        "the database refused or is unreachable: nothing was changed",
    )
    ROOM_UNAVAILABLE = "ROOM_UNAVAILABLE", "the room's stored data is damaged: it was set aside"
    SLOW_CONSUMER = "SLOW_CONSUMER", "the connection fell too far behind and was closed (code 4008)"
    ROOM_MOVED = "ROOM_MOVED", "another server process took the room over: reconnect (code 4009)"
    INTERNAL_ERROR = (
        "INTERNAL_ERROR",
        "the server failed on that command (a fault it logged); the connection stays open",
    )
    # terminal client
    BAD_URL = "BAD_URL", "not a server or room link (http://host:port or http://host:port/room/ID)"
    TIMEOUT = "TIMEOUT", "the server did not answer"
    UNREACHABLE = "UNREACHABLE", "the server cannot be reached"
    CONNECTION_LOST = (
        "CONNECTION_LOST",
        "the connection to the server was lost and could not be restored",
    )
    RECONNECTING = (
        "RECONNECTING",
        "the connection dropped and is being restored: try again in a moment",
    )
    SERVER_ERROR = "SERVER_ERROR", "the server answered with an error"
    INTERRUPTED = "INTERRUPTED", "stopped with Ctrl-C"
    # packaging
    MISSING_EXTRA = "MISSING_EXTRA", "a command needs an optional extra that is not installed"
    WORKER_LOST = "WORKER_LOST", "a simulation worker process died twice: the run stopped"


CODES: dict[str, str] = {c.value: c.meaning for c in Code}
"""Code → one-line meaning, for documentation and clients that enumerate codes."""


class ShengjiError(ValueError):
    """Base of every error the engine raises for bad input; ``code`` is stable.

    ``params`` holds the details as data (the suit to follow, the missing cards, ...) so
    that clients can word the message in their own language
    (:func:`shengji.words.i18n.error_text`); it is empty where the message says it all.
    """

    code: str = Code.SHENGJI_ERROR

    def __init__(
        self, message: str, *, code: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.params: dict[str, Any] = dict(params or {})

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class ActionError(ShengjiError):
    """An action that is malformed or not allowed now."""

    code: str = Code.ILLEGAL_ACTION


class CardError(ShengjiError):
    """Malformed card text (``BAD_CARD``)."""

    code: str = Code.BAD_CARD


class OptionError(ShengjiError):
    """Unknown preset or option, or a bad option value."""

    code: str = Code.BAD_OPTION


class PlayError(ShengjiError):
    """A play that breaks the rules (wrong count, cards not held, not following, ...)."""

    code: str = Code.ILLEGAL_PLAY


class DeclarationError(ShengjiError):
    """A declaration (报主/反主/...) that is not allowed now."""

    code: str = Code.ILLEGAL_DECLARATION
