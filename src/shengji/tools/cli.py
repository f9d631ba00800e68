"""The ``shengji`` command line: one subcommand per adapter (``serve``, ``play``, ``bot``,
``botzone``, ``simulate``, ``review``, ...) and per tool (``rules``, ``bots``,
``conformance``, ``replay``, ``verify``, ``bench``, ``compare``, ``loadtest``);
``shengji -h`` lists them. This module is the parser and :func:`main`; what each
subcommand does is :mod:`shengji.tools.commands`'."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ShengjiError
from ..rules.presets import DEFAULT_PRESET
from .commands import (
    cmd_bench,
    cmd_bot,
    cmd_bots,
    cmd_botzone,
    cmd_compare,
    cmd_conformance,
    cmd_demo,
    cmd_hint,
    cmd_loadtest,
    cmd_play,
    cmd_replay,
    cmd_review,
    cmd_rules,
    cmd_serve,
    cmd_simulate,
    cmd_verify,
)

if TYPE_CHECKING:
    pass

# Each command imports what it needs when it runs (``shengji botzone`` is started once per
# turn by Botzone: its start-up is the turn's cost).


def _add_rule_args(p: argparse.ArgumentParser, positional: bool = False) -> None:
    if positional:
        p.add_argument("preset", nargs="?", default=DEFAULT_PRESET, help="preset name")
    else:
        p.add_argument("--preset", default=DEFAULT_PRESET, help="preset name")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="override an option")
    p.add_argument("--options", action="append", metavar="FILE.toml", help="overrides file")


def _turn_seconds(text: str) -> float:
    """A turn timer for ``--turn-seconds``: 0 (none), or 3 to 600 seconds (the server's
    floor)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value == 0 or 3 <= value <= 600):
        raise argparse.ArgumentTypeError("a turn timer is 0 (none) or 3 to 600 seconds")
    return value


def _deal_seconds(text: str) -> float:
    """A deal's pace for ``play --deal-seconds``: seconds between two rounds, 0 to 2 (a
    server's room takes 0.1 to 2)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 2:
        raise argparse.ArgumentTypeError("a deal's pace is 0 to 2 seconds a round")
    return value


def _bot_seconds(text: str) -> float:
    """The bots' pace for ``play --bot-seconds``: 0 to 5 seconds a play."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 5:
        raise argparse.ArgumentTypeError("the bots' pace is 0 to 5 seconds a play")
    return value


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, the terminal's width read as ``shutil.get_terminal_size``
    does, without importing shutil (and its compression modules): argparse makes a
    formatter for every argument it is given, so that import was part of every start."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_columns() - 2)


def _columns() -> int:
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Unused(argparse.ArgumentParser):
    """Stands for the parser of a command that is not being run: takes its arguments and
    builds nothing (argparse checks every argument it is given, which costs start-up)."""

    def __init__(self) -> None:  # no super().__init__: nothing of a parser is needed
        pass

    def add_argument(self, *args: Any, **kwargs: Any) -> Any:
        """Nothing."""

    def set_defaults(self, **kwargs: Any) -> None:
        """Nothing."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``shengji`` command; with ``only``, of that subcommand
    alone (what ``main`` runs: a command started once per Botzone turn builds no other)."""
    parser = argparse.ArgumentParser(
        prog="shengji",
        description="升级 / 拖拉机 (Shengji, Tractor): rules engine and game",
        formatter_class=_Formatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, text: str) -> argparse.ArgumentParser:
        if only not in (None, name):
            return _Unused()
        return sub.add_parser(name, help=text, formatter_class=_Formatter)

    p = command("rules", "show a preset's options (规则)")
    _add_rule_args(p, positional=True)
    p.add_argument("--list", action="store_true", help="list the presets")
    p.set_defaults(func=cmd_rules)
    p = command("bots", "list the bots a player spec can name (机器人)")
    p.set_defaults(func=cmd_bots)
    p = command("botzone", "answer one Botzone Tractor (双升) turn read from stdin")
    p.add_argument("--player", default="heuristic", help="the bot that answers")
    p.add_argument("--seed", type=int, default=0, help="the bot's random seed")
    p.add_argument(
        "--keep-running",
        action="store_true",
        help="stay alive between turns (Botzone's keep-running mode): answer each input line",
    )
    p.add_argument("--referee", type=int, metavar="SEED", help="play a local hand instead")
    p.add_argument("--players", metavar="A,B,C,D", help="the four bots of --referee")
    p.add_argument("--record", metavar="FILE.json", help="write the --referee histories here")
    p.set_defaults(func=cmd_botzone)
    p = command("bot", "be a bot speaking the bot protocol on stdin/stdout")
    p.add_argument("--player", default="heuristic", help="the registry bot that plays")
    p.set_defaults(func=cmd_bot)
    p = command("conformance", "answer rule conformance case files")
    p.add_argument("files", nargs="+", help="case files ({'cases': [...]})")
    p.set_defaults(func=cmd_conformance)
    p = command("demo", "play a whole match between four random bots")
    _add_rule_args(p)
    p.add_argument("--seed", type=int, default=1, help="random seed (same seed, same game)")
    p.add_argument("--record", metavar="FILE.json", help="write the match record here")
    p.add_argument("--max-hands", type=int, default=200, help="stop after this many hands")
    p.add_argument("--lang", choices=["en", "zh", "both"], default="both")
    p.add_argument("--quiet", action="store_true", help="do not print the match")
    p.set_defaults(func=cmd_demo)
    p = command("replay", "print a match record hand by hand, trick by trick")
    p.add_argument("record", help="record file (JSON)")
    p.add_argument(
        "--lang", choices=["en", "zh", "both"], help="language (default: from the locale)"
    )
    p.add_argument(
        "--seat",
        type=int,
        help="name the seats from this one's place (you, right, left...), as the terminal does",
    )
    p.set_defaults(func=cmd_replay)
    p = command("verify", "re-play a record and check every action and result")
    p.add_argument("record", help="record file (JSON)")
    p.set_defaults(func=cmd_verify)
    p = command("review", "mark a seat's plays the search bot finds clearly worse")
    p.add_argument("record", help="record file (JSON)")
    p.add_argument("--seat", type=int, required=True, help="the seat to review (0-3)")
    p.add_argument("--budget", default="300it", help="search budget per play (300it, 1s)")
    p.add_argument("--lang", choices=["en", "zh", "both"], default="both")
    p.set_defaults(func=cmd_review)
    p = command("hint", "the hint for the seat to act after action N of a record, and why")
    p.add_argument("record", help="record file (JSON)")
    p.add_argument("--at", type=int, required=True, help="after this many actions (0 = start)")
    p.add_argument("--seed", type=int, default=None, help="the bot's seed (default: hand number)")
    p.add_argument("--budget", default="800ms", help="search budget (800ms as at a table, 2000it)")
    p.add_argument("--lang", choices=["en", "zh", "both"], default="en")
    p.set_defaults(func=cmd_hint)
    p = command("simulate", "play many hands or matches between bots")
    _add_rule_args(p)
    p.add_argument("--hands", type=int, help="number of hands (independent deals)")
    p.add_argument("--matches", type=int, help="number of whole matches")
    p.add_argument("--players", default="heuristic,random", help="bot A (seats 0,2),bot B")
    p.add_argument("--seed", type=int, default=0, help="random seed")
    p.add_argument("--workers", type=int, default=1, help="parallel processes")
    p.add_argument("--mirror", action="store_true", help="play every deal with seats swapped")
    p.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    p.add_argument(
        "--paired-with",
        metavar="FILE",
        help="an earlier run's --json on the same deals: A's level rate here minus there, "
        "with its interval from the per-deal differences",
    )
    p.add_argument(
        "--write-docs",
        action="store_true",
        help="write the table into README.md's strength block (run from the checkout)",
    )
    p.add_argument("--plot", metavar="FILE.png", help="plot collectors' points per team")
    p.add_argument("--records", metavar="DIR", help="save every match record here")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--bot-time", type=float, default=5.0, help="seconds an exec: bot has per decision"
    )
    p.add_argument(
        "--bot-option", action="append", metavar="NAME=VALUE", help="an option of the exec: bots"
    )
    p.add_argument(
        "--backend", choices=["processes", "ray"], default="processes", help="where deals run"
    )
    p.add_argument("--address", help="--backend ray: the cluster (default: a local Ray)")
    p.set_defaults(func=cmd_simulate)
    p = command(
        "compare", "two simulate runs on the same deals: bot A's level rates and the difference"
    )
    p.add_argument("run", help="a run's figures (simulate --json)")
    p.add_argument("base", help="a run on the same deals to compare with")
    p.set_defaults(func=cmd_compare)
    p = command("serve", "run the multiplayer web server")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", help="database URL (default: SQLite in ./var/shengji.db)")
    p.add_argument("--log-level", default="info")
    p.add_argument("--bot-delay", type=float, help="seconds between bot moves (default 0.6)")
    p.add_argument(
        "--deal-seconds",
        type=float,
        help="every room's seconds between two rounds of the deal, whatever the room chose "
        "(rooms choose 0.1-2, default 0.3; 0 deals at once: load tests)",
    )
    p.add_argument(
        "--limit",
        action="append",
        metavar="NAME=VALUE",
        help="change a server limit (docs/server.md lists them), e.g. spectators_per_room=100",
    )
    p.add_argument("--api-docs", action="store_true", help="serve /docs and /openapi.json")
    p.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="IPS",
        help="reverse proxies whose X-Forwarded-For is believed: comma-separated addresses "
        "or networks, * any (default: none, so each client is counted at its own address)",
    )
    p.add_argument(
        "--bot",
        action="append",
        metavar="NAME=CMD",
        help="an external bot rooms can seat by NAME (docs/bot-protocol.md); repeatable",
    )
    p.add_argument("--bot-time", type=float, default=5.0, help="seconds per external decision")
    p.set_defaults(func=cmd_serve)
    p = command("play", "play in the terminal against bots or on a server")
    _add_rule_args(p)
    p.add_argument("--seed", type=int, help="random seed (default: random)")
    p.add_argument("--seat", type=int, choices=range(8), help="your seat (default 0; online: any)")
    p.add_argument(
        "--bots",
        default="heuristic",
        help="easy, normal, strong or a bot's name (`shengji bots`); one for all, or one per "
        "seat after yours: strong,normal,easy (default heuristic)",
    )
    p.add_argument(
        "--connect",
        metavar="URL",
        help="a server (http://HOST:PORT: make a room) or a room's invite link (join it)",
    )
    p.add_argument("--open", metavar="SEATS", help="new room: seats left for people, e.g. 2")
    p.add_argument(
        "--turn-seconds",
        type=_turn_seconds,
        default=0.0,
        metavar="S",
        help="new room: seconds per move before a bot moves for you (default 0: no timer)",
    )
    p.add_argument(
        "--deal-seconds",
        type=_deal_seconds,
        default=None,
        metavar="S",
        help="seconds between two rounds of the deal, which never waits (default 0.3; "
        "a new room on a server: 0.1 to 2)",
    )
    p.add_argument(
        "--bot-seconds",
        type=_bot_seconds,
        default=None,
        metavar="S",
        help="against bots: seconds each play stays in sight before a bot plays the next, "
        "twice that after a trick (default 0.6; 0: at once)",
    )
    p.add_argument(
        "--new-room",
        action="store_true",
        help="make another room even if this command made one you can still go back to",
    )
    p.add_argument(
        "--host-key", metavar="KEY", help="a room's host key (from POST /api/rooms): be its host"
    )
    p.add_argument("--spectate", action="store_true", help="watch the room instead of playing")
    p.add_argument("--name", help="your name on a server (default: your login name)")
    p.add_argument("--plain", action="store_true", help="line mode: text out, commands in")
    p.add_argument("--lang", choices=["zh", "en"], help="language (default: from the locale)")
    p.set_defaults(func=cmd_play)
    p = command("loadtest", "simulated people playing whole hands against a server")
    p.add_argument("--rooms", type=int, default=200)
    p.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    p.add_argument("--think", type=float, default=1.0, help="mean seconds before each action")
    p.add_argument(
        "--ramp",
        type=float,
        help="seconds over which the rooms start (default: about a hand at --think)",
    )
    p.add_argument(
        "--knee",
        metavar="N,N,...",
        help="run at each number of rooms (the first light) until p99 crosses 100 ms or "
        "the actions served fall below 90%% of those offered",
    )
    p.add_argument(
        "--deal-seconds",
        type=_deal_seconds,
        metavar="S",
        help="seconds between two rounds of the deal on the server it starts (default: the "
        "rooms' own, 0.3)",
    )
    p.add_argument(
        "--no-pin",
        action="store_true",
        help="let the server it starts and the load generator share every CPU (default: "
        "the server on a CPU of its own, the generator on the others, where there are two)",
    )
    p.add_argument("--json", metavar="FILE", help="write the figures to FILE as JSON")
    p.add_argument(
        "--flood",
        type=int,
        metavar="SOCKETS",
        help="instead: SOCKETS hostile sockets flood the server while one player in another "
        "room pings it; prints that player's ping times (docs/server.md)",
    )
    p.add_argument(
        "--addresses", type=int, default=16, help="--flood: loopback addresses they come from"
    )
    p.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="--flood: a limit of the server it starts (as shengji serve --limit)",
    )
    p.add_argument("--url", help="an existing server (default: start one on loopback)")
    p.add_argument("--preset", default="shuangsheng")
    p.add_argument("--db", help="database of the server it starts (default: a new SQLite file)")
    p.add_argument(
        "--write-docs",
        action="store_true",
        help="write the figures into README.md and docs/server.md (run from the checkout)",
    )
    p.set_defaults(func=cmd_loadtest)
    p = command("bench", "print benchmark figures")
    p.add_argument("what", nargs="?", default="all", help="all, rules or kernel")
    p.add_argument("--repeat", type=int, default=3, help="timing repetitions (best is shown)")
    p.add_argument("--hands", type=int, default=300, help="random hands per timing run")
    p.add_argument(
        "--write-docs",
        action="store_true",
        help="write the figures (all) into README.md and docs/kernel.md; run from the checkout",
    )
    p.set_defaults(func=cmd_bench)
    if only is not None and only not in sub.choices:  # not a command: say which there are
        return build_parser()
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``shengji`` command."""
    given = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(given[0] if given else None).parse_args(given)
    try:
        code: int = args.func(args)
    except ShengjiError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head/less that closed early
        sys.stderr.close()
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
