"""What each ``shengji`` subcommand does, given its parsed arguments (``cmd_<name>``), and the
helpers they share: rule options from a preset and ``--set``/``--options``, optional
extras checked before use. The parser that calls them is :mod:`shengji.tools.cli`'s."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import Code, ShengjiError
from ..rules.presets import load_preset, preset_description, preset_names

if TYPE_CHECKING:
    from ..rules.options import RuleOptions


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


def cmd_rules(args: argparse.Namespace) -> int:
    if args.list:
        for name in preset_names():
            print(f"{name:18} {preset_description(name)}")
        return 0
    opts = options_from_args(args.preset, args.set or [], args.options or [])
    print(f"preset {opts.name}: {preset_description(opts.name)}")
    print(format_options(opts))
    return 0


def cmd_botzone(args: argparse.Namespace) -> int:
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


def cmd_bots(args: argparse.Namespace) -> int:
    from ..bots.registry import bot_kinds

    for kind in bot_kinds():
        level = kind.difficulty or "-"
        arg = f"  [:{kind.argument}]" if kind.argument else ""
        print(f"{kind.name:12} {level:7} {kind.en} / {kind.zh}{arg}")
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
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


def cmd_conformance(args: argparse.Namespace) -> int:
    from .conformance import report, run_files

    results = run_files(args.files)
    print(report(results))
    return 0 if results and all(r.passed for r in results) else 1


def cmd_demo(args: argparse.Namespace) -> int:
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


def cmd_replay(args: argparse.Namespace) -> int:
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


def cmd_review(args: argparse.Namespace) -> int:
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


def cmd_hint(args: argparse.Namespace) -> int:
    from ..bots.hints import hint_at
    from ..bots.registry import hint_bot
    from ..game.record import load_record

    h = hint_at(load_record(args.record), args.at, hint_bot(args.budget), args.seed)
    langs = ("en", "zh") if args.lang == "both" else (args.lang,)
    for lang in langs:
        print(f"{h['said'][lang]} · {h['why'][lang] or '—'}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
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


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.plot:
        need_extra("plot", "matplotlib")
    if args.backend == "ray":
        need_extra("ray", "ray")
    from .runfiles import RunFile, paired_level_rate, read_pairing
    from .simulate import Settings, check_player, check_ray_address, run_jobs
    from .tally import format_summary, summarise

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
        from .tally import plot_points

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


def cmd_serve(args: argparse.Namespace) -> int:
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


def cmd_compare(args: argparse.Namespace) -> int:
    from .runfiles import compare_runs

    try:
        print(compare_runs(args.run, args.base))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def cmd_loadtest(args: argparse.Namespace) -> int:
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
        "pin": not args.no_pin,
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
    command += " --no-pin" if args.no_pin else ""
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


def cmd_play(args: argparse.Namespace) -> int:
    need_extra("tui", *([] if args.plain else ["textual", "rich"]))
    if args.connect:
        need_extra("tui", "websockets")
    from ..tui.main import run_play

    return run_play(args)


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run

    return run(args.what, args.hands, args.repeat, args.write_docs)
