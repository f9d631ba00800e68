"""The one list of bots: name → factory, descriptions in both languages, difficulty.

Every adapter (simulate, the terminal client, the web server, the CLI) reads this
registry; a new bot is added here and nowhere else. A player is named by a *spec*:
the bot's name, optionally followed by ``:`` and an argument the bot understands
(``search:100ms``).

>>> from shengji.bots.registry import make_player, parse_spec
>>> parse_spec("heuristic")
('heuristic', None)
>>> type(make_player("random", seat=1, seed=7)).__name__
'RandomBot'
>>> parse_spec("nobody")
Traceback (most recent call last):
...
shengji.errors.ShengjiError: UNKNOWN_BOT: no bot called 'nobody'; bots: random, heuristic, ...
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..errors import Code, ShengjiError

if TYPE_CHECKING:
    from ..game.players import Player

Difficulty = Literal["easy", "normal", "strong"]

BotFactory = Callable[[int, int, str | None], "Player"]
"""Builds a player from (seat, seed, argument after the ``:`` or None). The factories of
the bots below import their module when first called: a program that plays one bot (a
Botzone turn) loads that bot alone."""


@dataclass(frozen=True, slots=True)
class BotKind:
    """One registered bot."""

    name: str
    make: BotFactory
    en: str
    zh: str
    difficulty: Difficulty | None = None
    #: What the argument after ``:`` means (None: the bot takes none).
    argument: str | None = None
    #: Short names for a seat (English, Chinese); default ``NAME bot`` / ``机器人(NAME)``.
    label_en: str = ""
    label_zh: str = ""
    #: Whether a table (the web server) may seat it: False for a bot that needs an
    #: argument a table cannot give (a model file).
    at_tables: bool = True

    def text(self, lang: str) -> str:
        """The description in ``lang`` (``"zh"`` or English)."""
        return self.zh if lang == "zh" else self.en

    def label(self, lang: str) -> str:
        """The short name a seat shows in ``lang``."""
        if lang == "zh":
            return self.label_zh or f"机器人({self.name})"
        return self.label_en or f"{self.name} bot"


_REGISTRY: dict[str, BotKind] = {}


def register(kind: BotKind) -> None:
    """Add (or replace) a bot under its name."""
    _REGISTRY[kind.name] = kind


def bot_kinds() -> list[BotKind]:
    """Every registered bot, in registration order."""
    return list(_REGISTRY.values())


def bot_names() -> list[str]:
    """The names of every registered bot."""
    return list(_REGISTRY)


def table_bot_names() -> list[str]:
    """The names of the bots a table may seat (:attr:`BotKind.at_tables`)."""
    return [k.name for k in _REGISTRY.values() if k.at_tables]


def by_difficulty(level: Difficulty) -> BotKind:
    """The bot offered to people as ``level``."""
    for kind in _REGISTRY.values():
        if kind.difficulty == level:
            return kind
    raise ShengjiError(f"no bot has difficulty {level!r}", code=Code.UNKNOWN_BOT)


#: Milliseconds the hint's bot thinks: the strongest bot, answering within a second.
HINT_MS = 800


def hint_bot(budget: int | str = HINT_MS) -> str:
    """The spec of the bot that gives hints: the strongest one, on ``budget`` (ms, or a
    budget text such as ``2000it``) a move, overriding the rule of thumb only by a sure
    margin (``steady``), on the most sampled deals (``random`` rollouts, ``noprune``), so
    that a hint does not change when asked again (docs/bots.md).

    >>> hint_bot(), hint_bot("2000it")
    ('search:800ms:random:noprune:steady', 'search:2000it:random:noprune:steady')
    """
    text = f"{budget}ms" if isinstance(budget, int) else budget
    return f"{by_difficulty('strong').name}:{text}:random:noprune:steady"


def reason_of(player: Player) -> tuple[str, str]:
    """Why ``player`` chose its last action (English, Chinese): its ``explained()`` (the
    search bot adds what the search found) or ``reason``; empty for bots without one."""
    explained = getattr(player, "explained", None)
    if explained is not None:
        en, zh = explained()
        return en, zh
    en, zh = getattr(player, "reason", ("", ""))
    return en, zh


def parse_spec(spec: str) -> tuple[str, str | None]:
    """Split and check a player spec: ``(name, argument or None)``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ShengjiError("a bot must be named", code=Code.UNKNOWN_BOT, params={"bot": ""})
    name, sep, arg = spec.strip().partition(":")
    kind = _REGISTRY.get(name)
    if kind is None:
        raise ShengjiError(
            f"no bot called {name!r}; bots: {', '.join(_REGISTRY)}",
            code=Code.UNKNOWN_BOT,
            params={"bot": name},
        )
    if sep and kind.argument is None:
        raise ShengjiError(
            f"bot {name!r} takes no argument (got {arg!r})",
            code=Code.BAD_BOT_SPEC,
            params={"bot": name},
        )
    return name, (arg if sep else None)


def make_player(spec: str, seat: int, seed: int) -> Player:
    """A player for ``seat`` from its spec, seeded with ``seed``."""
    name, arg = parse_spec(spec)
    return _REGISTRY[name].make(seat, seed, arg)


def check_spec(spec: str) -> str:
    """``spec`` unchanged if it names a registered bot (and its argument parses)."""
    make_player(spec, 0, 0)
    return spec


def _random(seat: int, seed: int, _arg: str | None) -> Player:
    from .random_bot import RandomBot

    return RandomBot(seat, seed)


def _heuristic(seat: int, seed: int, arg: str | None) -> Player:
    from .heuristic import HeuristicBot
    from .lookahead import ROLLOUTS

    if arg is None:
        return HeuristicBot(seat, seed, ROLLOUTS)
    if arg == "plain":
        return HeuristicBot(seat, seed)
    if arg.endswith("it") and arg[:-2].isdigit():
        return HeuristicBot(seat, seed, int(arg[:-2]))
    raise ShengjiError(
        f"bad heuristic argument {arg!r}: plain, or a rollout budget such as 200it",
        code=Code.BAD_BOT_SPEC,
        params={"bot": "heuristic"},
    )


def _heuristic_v1(seat: int, seed: int, _arg: str | None) -> Player:
    from .heuristic_v1 import HeuristicV1Bot

    return HeuristicV1Bot(seat, seed)


def _search(seat: int, seed: int, arg: str | None) -> Player:
    from .search import make_search_bot

    return make_search_bot(seat, seed, arg)


def _dmc(seat: int, _seed: int, arg: str | None) -> Player:
    from .dmc import DmcBot

    if not arg:
        raise ShengjiError(
            "the dmc bot needs its model: dmc:PATH (a .npz saved by examples/train_dmc.py)",
            code=Code.BAD_BOT_SPEC,
            params={"bot": "dmc"},
        )
    return DmcBot(seat, arg)


register(
    BotKind(
        "random",
        _random,
        "random bot: any legal play",
        "随机机器人:任意合法出牌",
        difficulty="easy",
        label_zh="机器人(随机)",
    )
)
register(
    BotKind(
        "heuristic",
        _heuristic,
        "heuristic bot: rule-of-thumb play, checked by a few short rollouts",
        "智能机器人:经验打法,少量推演核对",
        difficulty="normal",
        label_zh="机器人(智能)",
        argument="plain (the rule of thumb alone, no look ahead) or the look ahead's "
        "rollouts per play, such as 200it (the default)",
    )
)
register(
    BotKind(
        "heuristic-v1",
        _heuristic_v1,
        "first heuristic bot, kept as a baseline",
        "第一版智能机器人,留作对照",
        label_zh="机器人(智能第一版)",
    )
)
register(
    BotKind(
        "search",
        _search,
        "search bot: samples the hidden cards and plays each candidate out, "
        "2000 rollouts a play, 0.8 s at most",
        "搜索机器人:抽样暗牌并推演每种出法,每步 2000 次推演,至多 0.8 秒",
        difficulty="strong",
        label_zh="机器人(搜索)",
        argument="budget per play or burial: 100ms, 1s, 2000it, or rollouts with a "
        "wall-clock cap, 2000it/800ms (the default), then "
        "flags: :random (random rollouts, not the light policy), :noprune (play every "
        "candidate out), :careful (override the rule of thumb only by a clear margin), "
        ":steady (only by a sure one, as hints do), :apply (rollouts on the game engine "
        "instead of the compiled kernel), "
        ":noburysearch (bury and counter as the heuristic bot does), :noinfer (no "
        "inference from the others' plays), :noburyprior (the kitty sampled like a hand), "
        ":endgame, :tail, :narrow (docs/bots.md)",
    )
)
register(
    BotKind(
        "dmc",
        _dmc,
        "DMC bot: a Q-network trained by Deep Monte Carlo (examples/train_dmc.py), card by card",
        "DMC 机器人:深度蒙特卡洛训练的 Q 网络(examples/train_dmc.py),逐张选牌",
        label_zh="机器人(DMC)",
        argument="path of the model (.npz) saved by examples/train_dmc.py",
        at_tables=False,
    )
)
