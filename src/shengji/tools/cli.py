"""The ``shengji`` command line: one subcommand per adapter (``serve``, ``play``, ``bot``,
``botzone``, ``simulate``, ``review``, ...) and per tool (``rules``, ``bots``,
``conformance``, ``replay``, ``verify``, ``bench``, ``compare``, ``loadtest``);
``shengji -h`` lists them."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import Code, ShengjiError
from ..rules.presets import DEFAULT_PRESET, load_preset, preset_description, preset_names

if TYPE_CHECKING:
    from ..rules.options import RuleOptions

# Each command imports what it needs when it runs (``shengji botzone`` is started once per
# turn by Botzone: its start-up is the turn's cost).


def need_extra(extra: str, *modules: str) -> None:
    """Raise ``MISSING_EXTRA`` (in English and Chinese, naming the extra to install) if a
    module that the ``extra`` of the package brings is not installed."""
    import importlib.util

    from ..words.i18n import t

    missing = ", ".join(m for m in modules if importlib.util.find_spec(m) is None)
    if missing:
        text = "\n".join(
            t("cli.missing_extra", lang, extra=extra, missing=missing) for lang in ("en", "zh")
        )
        raise ShengjiError(
            text, code=Code.MISSING_EXTRA, params={"extra": extra, "missing": missing}
        )


def options_from_args(preset: str, sets: Sequence[str], files: Sequence[str]) -> RuleOptions:
    """Preset plus overrides from TOML files and ``key=value`` pairs (later wins)."""
    from ..rules.options import load_overrides_file, parse_override

    overrides: dict[str, Any] = {}
    for f in files:
        overrides.update(load_overrides_file(f))
    for s in sets:
        k, v = parse_override(s)
        overrides[k] = v
    return load_preset(preset, overrides or None)


def format_options(opts: RuleOptions) -> str:
    """A readable two-language table of every option."""
    from ..words.option_help import option_label

    rows = [("option", "选项", "value", "meaning")]
    for key, value in opts.to_dict().items():
        if key == "name":
            continue
        zh, en = option_label(key, "zh"), option_label(key, "en")
        if isinstance(value, list):
            text = " ".join(value) or "–"
        elif value is None:
            text = "–"
        else:
            text = str(value).lower() if isinstance(value, bool) else str(value)
        rows.append((key, zh, text, en))
    widths = [max(_width(r[i]) for r in rows) for i in range(3)]
    out = []
    for i, r in enumerate(rows):
        cells = [r[j] + " " * (widths[j] - _width(r[j])) for j in range(3)]
        out.append("  ".join([*cells, r[3]]).rstrip())
        if i == 0:
            out.append("  ".join("-" * w for w in widths) + "  -------")
    return "\n".join(out)


def _width(s: str) -> int:
    """Display width: CJK characters take two columns."""
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in s)


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.list:
        for name in preset_names():
            print(f"{name:18} {preset_description(name)}")
        return 0
    opts = options_from_args(args.preset, args.set or [], args.options or [])
    print(f"preset {opts.name}: {preset_description(opts.name)}")
    print(format_options(opts))
    return 0


def _cmd_botzone(args: argparse.Namespace) -> int:
    import json

    from .botzone import referee, serve

    if args.referee is None:
        serve(sys.stdin, sys.stdout, args.player, args.seed, args.keep_running)
        return 0
    specs = args.players.split(",") if args.players else [args.player] * 4
    if len(specs) != 4:
        raise ShengjiError("--players needs four bots, comma-separated", code=Code.BAD_BOT_SPEC)
    game = referee(args.referee, specs)
    text = json.dumps(game, ensure_ascii=False, separators=(",", ":"))
    if args.record:
        with open(args.record, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        print(json.dumps(game["result"]))
    else:
        print(text)
    return 0


def _cmd_bots(args: argparse.Namespace) -> int:
    from ..bots.registry import bot_kinds

    for kind in bot_kinds():
        level = kind.difficulty or "-"
        arg = f"  [:{kind.argument}]" if kind.argument else ""
        print(f"{kind.name:12} {level:7} {kind.en} / {kind.zh}{arg}")
    return 0


def _cmd_bot(args: argparse.Namespace) -> int:
    from ..bots.botproto import run_bot

    return run_bot(args.player, sys.stdin, sys.stdout)


def _bot_pairs(items: Sequence[str], what: str) -> dict[str, str]:
    """``NAME=VALUE`` arguments as a mapping."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ShengjiError(f"{what} takes NAME=VALUE, not {item!r}", code=Code.BAD_BOT_SPEC)
        out[name.strip()] = value.strip()
    return out


def _cmd_conformance(args: argparse.Namespace) -> int:
    from .conformance import report, run_files

    results = run_files(args.files)
    print(report(results))
    return 0 if results and all(r.passed for r in results) else 1


def _cmd_demo(args: argparse.Namespace) -> int:
    from ..game.narrate import narrate
    from ..game.record import save_record
    from .demo import play_match

    opts = options_from_args(args.preset, args.set or [], args.options or [])
    _, rec = play_match(opts, seed=args.seed, max_hands=args.max_hands)
    if args.record:
        save_record(rec, args.record)
    if not args.quiet:
        for line in narrate(rec, args.lang):
            print(line)
    if args.record:
        print(f"record written to {args.record}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from ..game.narrate import Words, narrate, seat_number
    from ..game.record import load_record
    from ..tui.main import choose_lang
    from ..tui.text import seat_words

    rec = load_record(args.record)
    lang = args.lang if args.lang == "both" else choose_lang(args.lang)
    rules = rec.get("rules") or {}
    players = int(rules.get("players", 4))
    if args.seat is not None and not 0 <= args.seat < players:
        print(f"--seat: this match has seats 0 to {players - 1}", file=sys.stderr)
        return 2
    name = (
        seat_number
        if args.seat is None
        else seat_words(players, bool(rules.get("friends")), args.seat)
    )
    for line in narrate(rec, lang, Words(name, symbols=True)):
        print(line)
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    from ..bots.review import review
    from ..bots.search import Budget
    from ..game.record import load_record

    marks = 0
    for mark in review(load_record(args.record), args.seat, Budget.parse(args.budget)):
        print(mark.text(args.lang))
        marks += 1
    en, zh = f"{marks} play(s) marked", f"标出 {marks} 步"
    print(en if args.lang == "en" else zh if args.lang == "zh" else f"{en} | {zh}")
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
    from ..bots.hints import hint_at
    from ..bots.registry import hint_bot
    from ..game.record import load_record

    h = hint_at(load_record(args.record), args.at, hint_bot(args.budget), args.seed)
    langs = ("en", "zh") if args.lang == "both" else (args.lang,)
    for lang in langs:
        print(f"{h['said'][lang]} · {h['why'][lang] or '—'}")
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from ..game.record import RecordError, load_record, verify

    try:
        st = verify(load_record(args.record))
    except RecordError as e:
        where = f" (action index {e.index})" if e.index is not None else ""
        print(f"INVALID {args.record}{where}: {e}", file=sys.stderr)
        return 1
    print(
        f"OK {args.record}: {len(st.results)} hand(s) re-played and re-computed, phase {st.phase}"
    )
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    if args.plot:
        need_extra("plot", "matplotlib")
    if args.backend == "ray":
        need_extra("ray", "ray")
    from .simulate import (
        RunFile,
        Settings,
        check_player,
        check_ray_address,
        format_summary,
        paired_level_rate,
        read_pairing,
        run_jobs,
        summarise,
    )

    if (args.hands is None) == (args.matches is None):
        print("error: give exactly one of --hands N or --matches N", file=sys.stderr)
        return 2
    players = tuple(p.strip() for p in args.players.split(","))
    if len(players) != 2:
        print("error: --players takes two bots, e.g. heuristic,random", file=sys.stderr)
        return 2
    opts = options_from_args(args.preset, args.set or [], args.options or [])
    settings = Settings(
        options=opts,
        players=(players[0], players[1]),
        hands=args.hands,
        matches=args.matches,
        seed=args.seed,
        mirror=args.mirror,
        records=args.records,
        bot_time=args.bot_time,
        bot_options=tuple(_bot_pairs(args.bot_option or [], "--bot-option").items()),
    )
    for name in settings.players:  # a bad spec stops the run before anything is shown
        check_player(name)
    if args.backend == "ray":
        check_ray_address(args.address)
    run_file = RunFile(args.json, settings) if args.json else None
    try:
        pairing = read_pairing(args.paired_with, settings) if args.paired_with else None
        done = run_file.resume() if run_file else []
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    progress = None
    if not args.quiet:  # rich (the plot extra) draws the bar; --quiet imports none of it
        from .simulate import Progress

        progress = Progress(len(settings.jobs()) - len(done))
    try:
        with progress or contextlib.nullcontext():
            results = run_jobs(
                settings,
                workers=args.workers,
                progress=_each(progress, run_file.add if run_file else None),
                backend=args.backend,
                address=args.address,
                done=done,
            )
    except BaseException:
        if run_file:
            run_file.close()  # what it holds is kept: the same command continues the run
        raise
    elapsed = time.perf_counter() - t0
    summary = summarise(settings, results)
    print(format_summary(summary))
    before = sum(len(r.hands) for r in done)
    played = summary.hands - before
    print(
        f"{played} hands in {elapsed:.1f} s ({played / max(elapsed, 1e-9):.1f} hands/s, "
        f"{'ray' if args.backend == 'ray' else f'{args.workers} worker(s)'})"
        + (f"; {before} hand(s) were already in {args.json}" if done else "")
    )
    if pairing is not None:
        there = f"{pairing['players'][0]} vs {pairing['players'][1]}"
        try:
            est, lo, hi, n = paired_level_rate(summary, pairing)
            print(
                f"paired with {args.paired_with} ({there}) on the same {n} deals: A's level "
                f"rate {100 * est:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}] here"
            )
        except ValueError as e:
            print(f"paired with {args.paired_with}: {e}", file=sys.stderr)
    if run_file:
        run_file.finish(summary)
        print(f"figures written to {args.json}")
    if args.write_docs:
        from .figures import figures_block, write_figures

        lines = [line.rstrip() for line in format_summary(summary).splitlines()]
        size = f"--hands {args.hands}" if args.hands is not None else f"--matches {args.matches}"
        command = (
            f"shengji simulate --preset {args.preset} --players {args.players} {size}"
            f"{' --mirror' if args.mirror else ''} --workers {args.workers} --seed {args.seed}"
        )
        write_figures("README.md", "simulate", figures_block(command, lines))
        print("written into README.md")
    if args.plot:
        from .simulate import plot_points

        plot_points(summary, results, args.plot)
        print(f"plot written to {args.plot}")
    return 0


def _each(*calls: Any) -> Any:
    """One callback calling each of ``calls`` that is not None (None when none is)."""
    chosen = [c for c in calls if c is not None]
    if not chosen:
        return None

    def call(item: Any) -> None:
        for c in chosen:
            c(item)

    return call


def _cmd_serve(args: argparse.Namespace) -> int:
    need_extra("server", "fastapi", "uvicorn", "sqlalchemy", "pydantic", "websockets")
    from ..bots.external import BotLimits, BotProcess
    from ..server.app import create_app
    from ..server.limits import Limits
    from ..server.serving import serve, trusted_proxies
    from ..server.store import sqlite_url

    limits = Limits().with_overrides(args.limit or [])
    trusted_proxies(args.forwarded_allow_ips)  # a bad address is refused before the start
    bots = _bot_pairs(args.bot or [], "--bot")
    for command in bots.values():  # a program that cannot start stops the start, not a room
        BotProcess(command, BotLimits(decision=args.bot_time)).close()
    url = args.db or sqlite_url("var/shengji.db")
    print(f"shengji server on http://{args.host}:{args.port}/  (database: {url})", flush=True)
    app = create_app(
        url,
        bot_delay=args.bot_delay,
        deal_seconds=args.deal_seconds,
        limits=limits,
        api_docs=args.api_docs,
        bots=bots,
        bot_time=args.bot_time,
    )
    serve(app, args.host, args.port, args.log_level, limits, args.forwarded_allow_ips)
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from .simulate import compare_runs

    try:
        print(compare_runs(args.run, args.base))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def _cmd_loadtest(args: argparse.Namespace) -> int:
    need_extra("server", "fastapi", "uvicorn", "sqlalchemy", "pydantic", "websockets")
    import json

    from .loadtest import find_knee, run_loadtest, seats_of

    run = {
        "duration": args.duration,
        "think": args.think,
        "url": args.url,
        "preset": args.preset,
        "db": args.db,
        "ramp": args.ramp,
    }
    if args.deal_seconds is not None:
        run["deal_seconds"] = args.deal_seconds
    if args.flood:
        from .flood import run_flood

        flood = run_flood(
            args.flood, args.addresses, args.duration, url=args.url, limits=args.limit
        )
        for line in flood:
            print(line, flush=True)
        if args.write_docs:
            from .figures import figures_block, write_figures

            command = f"shengji loadtest --flood {args.flood} --addresses {args.addresses} "
            command += f"--duration {args.duration:g}"
            command += "".join(f" --limit {x}" for x in args.limit)
            write_figures("docs/server.md", "flood", figures_block(command, flood))
            print("written into docs/server.md", flush=True)
        return 0
    command = f"shengji loadtest --think {args.think:g} --duration {args.duration:g}"
    command += f" --preset {args.preset}" if args.preset != "shuangsheng" else ""
    command += f" --deal-seconds {args.deal_seconds:g}" if args.deal_seconds is not None else ""
    if args.knee:
        steps = [int(x) for x in args.knee.split(",") if x.strip()]
        knee = find_knee(steps, **run)
        lines, figures, errors = knee.lines(), knee.figures(), sum(m.errors for m in knee.steps)
        command += f" --knee {args.knee}"
    else:
        measured = run_loadtest(rooms=args.rooms, **run)
        lines, figures = measured.lines(seats_of(args.preset)), measured.figures()
        errors = measured.errors
        command = command.replace("loadtest", f"loadtest --rooms {args.rooms}", 1)
    for line in lines:
        print(line, flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"command": command, **figures}, f, indent=1)
    if args.write_docs:
        from .figures import figures_block, write_figures

        name = "loadtest-knee" if args.knee else "loadtest"
        block = figures_block(command, lines)
        for doc in ("docs/server.md",) if args.knee else ("README.md", "docs/server.md"):
            write_figures(doc, name, block)
            print(f"written into {doc}", flush=True)
    return 1 if errors else 0


def _cmd_play(args: argparse.Namespace) -> int:
    need_extra("tui", *([] if args.plain else ["textual", "rich"]))
    if args.connect:
        need_extra("tui", "websockets")
    from ..tui.main import run_play

    return run_play(args)


def _cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run

    return run(args.what, args.hands, args.repeat, args.write_docs)


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
    p.set_defaults(func=_cmd_rules)
    p = command("bots", "list the bots a player spec can name (机器人)")
    p.set_defaults(func=_cmd_bots)
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
    p.set_defaults(func=_cmd_botzone)
    p = command("bot", "be a bot speaking the bot protocol on stdin/stdout")
    p.add_argument("--player", default="heuristic", help="the registry bot that plays")
    p.set_defaults(func=_cmd_bot)
    p = command("conformance", "answer rule conformance case files")
    p.add_argument("files", nargs="+", help="case files ({'cases': [...]})")
    p.set_defaults(func=_cmd_conformance)
    p = command("demo", "play a whole match between four random bots")
    _add_rule_args(p)
    p.add_argument("--seed", type=int, default=1, help="random seed (same seed, same game)")
    p.add_argument("--record", metavar="FILE.json", help="write the match record here")
    p.add_argument("--max-hands", type=int, default=200, help="stop after this many hands")
    p.add_argument("--lang", choices=["en", "zh", "both"], default="both")
    p.add_argument("--quiet", action="store_true", help="do not print the match")
    p.set_defaults(func=_cmd_demo)
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
    p.set_defaults(func=_cmd_replay)
    p = command("verify", "re-play a record and check every action and result")
    p.add_argument("record", help="record file (JSON)")
    p.set_defaults(func=_cmd_verify)
    p = command("review", "mark a seat's plays the search bot finds clearly worse")
    p.add_argument("record", help="record file (JSON)")
    p.add_argument("--seat", type=int, required=True, help="the seat to review (0-3)")
    p.add_argument("--budget", default="300it", help="search budget per play (300it, 1s)")
    p.add_argument("--lang", choices=["en", "zh", "both"], default="both")
    p.set_defaults(func=_cmd_review)
    p = command("hint", "the hint for the seat to act after action N of a record, and why")
    p.add_argument("record", help="record file (JSON)")
    p.add_argument("--at", type=int, required=True, help="after this many actions (0 = start)")
    p.add_argument("--seed", type=int, default=None, help="the bot's seed (default: hand number)")
    p.add_argument("--budget", default="800ms", help="search budget (800ms as at a table, 2000it)")
    p.add_argument("--lang", choices=["en", "zh", "both"], default="en")
    p.set_defaults(func=_cmd_hint)
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
    p.set_defaults(func=_cmd_simulate)
    p = command(
        "compare", "two simulate runs on the same deals: bot A's level rates and the difference"
    )
    p.add_argument("run", help="a run's figures (simulate --json)")
    p.add_argument("base", help="a run on the same deals to compare with")
    p.set_defaults(func=_cmd_compare)
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
    p.set_defaults(func=_cmd_serve)
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
    p.set_defaults(func=_cmd_play)
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
    p.set_defaults(func=_cmd_loadtest)
    p = command("bench", "print benchmark figures")
    p.add_argument("what", nargs="?", default="all", help="all, rules or kernel")
    p.add_argument("--repeat", type=int, default=3, help="timing repetitions (best is shown)")
    p.add_argument("--hands", type=int, default=300, help="random hands per timing run")
    p.add_argument(
        "--write-docs",
        action="store_true",
        help="write the figures (all) into README.md and docs/kernel.md; run from the checkout",
    )
    p.set_defaults(func=_cmd_bench)
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
