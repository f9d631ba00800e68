"""A room's settings and seats, its refusals (:class:`RoomError`) and what the store
keeps of a token: the plain data the room's layers share."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from ..errors import Code, ShengjiError
from ..game.actions import Action
from ..game.dealing import DEAL_SECONDS, DECLARE_SECONDS
from ..game.state import GameState
from ..rules.options import RuleOptions
from ..rules.presets import load_preset


class RoomError(ShengjiError):
    """A command the room refuses; ``code`` is a :class:`~shengji.errors.Code`."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message, code=code, params=params)


def token_hash(token: str) -> str:
    """What the server stores of a resume token (or a host key)."""
    return hashlib.sha256(token.encode()).hexdigest()


#: The shortest turn timer a room may have (0 is none): a shorter one would let idle
#: seats play faster than bots do, and such tables crowd out the others.
MIN_TURN_SECONDS = 3.0


@dataclass
class RoomSettings:
    """How a room plays: preset and overrides, timers and bot pace."""

    preset: str = "shuangsheng"
    overrides: dict[str, Any] = field(default_factory=dict)
    turn_seconds: float = 0.0  # 0 = no turn timer
    away_seconds: float = 30.0  # a disconnected seat is handed to a bot after this
    bot_delay: float = 0.6  # seconds between bot moves (0 in tests)
    default_bot: str = "heuristic"
    hints: bool = True  # seated players may ask the strongest bot for a hint
    #: The deal runs by itself (False only for rooms stored before it did: their deals
    #: ask the seat that draws, as their records were played).
    paced: bool = True
    deal_seconds: float = DEAL_SECONDS  # between two rounds of the deal
    #: A person's time to show in the round before the kitty or to counter after the
    #: burial (capped by ``turn_seconds`` when that is shorter); silence is not showing.
    declare_seconds: float = DECLARE_SECONDS
    #: A person may take back their own last show or play before anyone else acts.
    take_back: bool = False
    #: A person's only legal play (and the last trick's whole hand) is played for them.
    auto_play: bool = False

    def options(self) -> RuleOptions:
        """The rule options (validated)."""
        return load_preset(self.preset, self.overrides or None)

    @classmethod
    def stored(cls, data: dict[str, Any]) -> RoomSettings:
        """The settings as the store keeps them (a room stored before deals were paced
        has no ``paced``: its deals asked the seats, as its actions were played)."""
        known = set(cls.__dataclass_fields__)
        return cls(**{"paced": False, **{k: v for k, v in data.items() if k in known}})

    def check_timer(self) -> None:
        """Refuse (``TURN_TOO_SHORT``) a turn timer that is neither off nor at least
        :data:`MIN_TURN_SECONDS`."""
        if 0 < self.turn_seconds < MIN_TURN_SECONDS:
            raise RoomError(
                Code.TURN_TOO_SHORT,
                f"a turn timer is 0 (none) or at least {MIN_TURN_SECONDS:g} seconds",
                {"min": MIN_TURN_SECONDS, "got": self.turn_seconds},
            )

    def timer(self, seconds: float) -> float:
        """Seconds before the table decides for a person who takes ``seconds`` and more:
        never less than the floor (a room stored before it had one) nor than the bots'
        own delay, so that idle seats move no faster than bots."""
        return max(seconds, MIN_TURN_SECONDS, self.bot_delay)


@dataclass
class SeatInfo:
    """Who sits in a seat."""

    kind: str = "empty"  # empty | human | bot
    name: str = ""
    bot: str = "heuristic"
    token_hash: str | None = None
    ready: bool = False
    away: bool = False  # a person's seat played by a bot while they are disconnected


def bot_seat(bot: str) -> SeatInfo:
    """A seat taken by a bot."""
    return SeatInfo(kind="bot", name=f"{bot} bot", bot=bot, ready=True)


@dataclass
class Undo:
    """A person's last show or play, while it may still be taken back: the table as it
    was before it, where it sits in the record, and the table's own actions (a paced
    deal's rounds) applied after it."""

    seat: int
    seq: int
    action: Action
    before: GameState
    tail: list[Action] = field(default_factory=list)
