"""``shengji play``: pick the table (local bots, a new room on a server, a room link), run
the app or the plain mode, and turn every failure into one line and a non-zero exit.

Exit status: 0 when the match ends or you quit, 2 for an error (bad link, unreachable
server, unknown room, lost connection...), 130 for Ctrl-C.
"""

from __future__ import annotations

import argparse
import getpass
import locale
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from ..errors import Code, ShengjiError
from ..game.dealing import DEAL_SECONDS
from ..rules.options import load_overrides_file, parse_override
from ..rules.presets import load_preset
from ..words.i18n import error_text, t
from .online import (
    Target,
    TokenStore,
    create_room,
    made_signature,
    open_room,
    parse_target,
    room_key,
    room_seats,
    server_levels,
    state_dir,
)
from .session import (
    BOT_SECONDS,
    LocalSession,
    RemoteSession,
    Session,
    local_levels,
    seat_bots,
)


def default_name() -> str:
    """The name shown to others online: the login name, else ``player``."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):
        name = ""
    return (name or "player")[:32]


def choose_lang(flag: str | None) -> str:
    """``--lang``, else the locale (Chinese locales get ``zh``)."""
    if flag in ("en", "zh"):
        return flag
    try:
        loc = locale.getlocale()[0] or os.environ.get("LANG") or ""
    except ValueError:
        loc = ""
    return "zh" if loc.lower().startswith("zh") else "en"


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    for f in getattr(args, "options", None) or []:
        overrides.update(load_overrides_file(f))
    for s in getattr(args, "set", None) or []:
        k, v = parse_override(s)
        overrides[k] = v
    return overrides


def _open_seats(text: str | None, players: int = 4) -> set[int]:
    """``--open``: the seats left for people, 0 to ``players`` - 1."""
    if not text:
        return set()
    seats = set()
    for part in text.replace(",", " ").split():
        if not (part.isascii() and part.isdigit()) or not 0 <= int(part) < players:
            raise ShengjiError(
                f"--open takes seats 0..{players - 1} (e.g. --open 2), not {part!r}",
                code=Code.BAD_SEAT,
                params={"seat": part},
            )
        seats.add(int(part))
    return seats


def open_session(
    args: argparse.Namespace, lang: str, stdout: TextIO, watched: bool = True
) -> Session:
    """The session ``shengji play`` asked for (printing the invite link of a new room);
    ``watched``: a person follows the table (the bots' plays are paced unless
    ``--bot-seconds`` says otherwise; a script's are not)."""
    overrides = _overrides(args)
    if args.connect is None:
        if args.spectate:
            raise ShengjiError(
                "--spectate watches a room: give its link with --connect",
                code=Code.BAD_URL,
                params={"spectate": True},
            )
        opts = load_preset(args.preset, overrides or None)
        if (args.seat or 0) >= opts.players:
            raise ShengjiError(
                f"this table has seats 0 to {opts.players - 1}",
                code=Code.BAD_SEAT,
                params={"seat": args.seat, "seats": opts.players},
            )
        seed = args.seed if args.seed is not None else random.randrange(2**31)
        pace = getattr(args, "deal_seconds", None)
        bot_pace = getattr(args, "bot_seconds", None)
        return LocalSession(
            opts,
            seed,
            seat=args.seat or 0,
            bots=args.bots,
            deal_seconds=DEAL_SECONDS if pace is None else pace,
            bot_seconds=(BOT_SECONDS if watched else 0.0) if bot_pace is None else bot_pace,
        )
    target = parse_target(args.connect)
    retry = float(os.environ.get("SHENGJI_RETRY_SECONDS", "60"))
    host_key = getattr(args, "host_key", None)
    seat = args.seat
    store = TokenStore()
    name = args.name or default_name()
    created = False
    if target.room is None:
        if args.spectate:
            raise ShengjiError(
                "to watch a game, give its room link (http://HOST:PORT/room/ID)",
                code=Code.BAD_URL,
                params={"spectate": True},
            )
        players = load_preset(args.preset, overrides or None).players  # bad rules fail here
        seat = args.seat or 0  # the maker sits here (not in a seat left open for friends)
        open_seats = _open_seats(args.open, players)
        turn = float(getattr(args, "turn_seconds", 0.0) or 0.0)
        pace = getattr(args, "deal_seconds", None)
        made = made_signature(
            args.preset, overrides, args.bots, sorted(open_seats), seat, turn, pace
        )
        kept = None if getattr(args, "new_room", False) else store.made_room(target.base, made)
        if kept is not None:
            back = _back_to_made(kept, name, seat, store, retry)
            if back is not None:
                stdout.write(t("cli.resume_made", lang, url=kept.link) + "\n")
                stdout.flush()
                return back
        levels = server_levels(target) or local_levels()  # a server that lists none: ours
        per_seat = seat_bots(args.bots, seat, levels, players)  # the server checks the names
        bots = [None if s in open_seats else bot for s, bot in enumerate(per_seat)]
        data = create_room(
            target, args.preset, overrides, bots, turn_seconds=turn, deal_seconds=pace
        )
        target = Target(target.base, str(data["id"]))
        created = True
        host_key = data.get("host_key")
        store.put(room_key(target), {"host_key": host_key, "name": name, "made": made})
        stdout.write(t("cli.created", lang, url=target.link) + "\n")
        stdout.flush()
    try:
        session, resumed = open_room(
            target,
            name=name,
            spectate=bool(args.spectate),
            seat=seat,
            host_key=host_key,
            store=store,
            retry_seconds=retry,
        )
    except ShengjiError as e:
        seats = room_seats(target) if e.code == "BAD_SEAT" and seat is not None else None
        if seats is None:
            raise
        raise ShengjiError(e.message, code=e.code, params={"seat": seat, "seats": seats}) from None
    session.made = created
    if resumed:
        stdout.write(t("cli.resume", lang, url=target.link) + "\n")
        stdout.flush()
    return session


def _tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def again_key(session: Session) -> str:
    """What quitting an online table says: a seat is kept, a spectator may come back."""
    seated = (session.state.get("you") or {}).get("seat") is not None
    return "cli.again" if seated else "cli.again_watch"


def _back_to_made(
    target: Target, name: str, seat: int, store: TokenStore, retry: float
) -> RemoteSession | None:
    """The seat in the room this command made before (None when that room is gone,
    finished, or has no place for us any more: then a new room is made)."""
    try:
        session, _ = open_room(target, name=name, seat=seat, store=store, retry_seconds=retry)
    except ShengjiError as e:
        if e.code not in ("NO_ROOM", "BAD_TOKEN", "ROOM_STARTED", "ROOM_FULL", "SEAT_TAKEN"):
            raise
        store.forget(room_key(target))
        return None
    if (session.state.get("room") or {}).get("status") == "finished":
        session.close()
        store.forget(room_key(target))
        return None
    return session


def save_local(session: LocalSession, lang: str) -> list[str]:
    """Save a local match's record under the state directory; the lines that say where,
    and the seed that deals it again (nothing when nothing was played)."""
    if not session.actions:
        return []
    lines = [t("cli.seed", lang, seed=session.seed, args=session.replay_args())]
    folder = state_dir() / "games"
    path = folder / f"{time.strftime('%Y%m%d-%H%M%S')}-seed{session.seed}.json"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        from ..game.record import save_record

        save_record(session.record(), path)
    except OSError:
        return lines
    return [*lines, t("cli.record", lang, path=_short(path), seat=session.seat)]


def _short(path: Path) -> str:
    """A path with the home folder as ``~``."""
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def failure_line(e: ShengjiError, lang: str, where: str | None = None) -> str:
    """One line for an error that ends ``shengji play``."""
    p = e.params
    if e.code == "UNREACHABLE" and p.get("where"):
        why = t(f"os.{p['reason']}", lang) if p.get("reason") else p.get("why", "")
        text = t("cli.unreachable", lang, where=p["where"], why=why)
    elif e.code == "CONNECTION_LOST":
        text = t("cli.lost", lang, where=where or "?") + "; " + t("cli.again", lang)
    elif e.code == "BAD_SEAT" and p.get("seat") is not None and p.get("seats"):
        text = t("cli.bad_seat", lang, seat=p["seat"], last=int(p["seats"]) - 1)
    elif e.code == "BAD_URL" and p.get("spectate"):
        text = t("cli.spectate_link", lang)
    elif e.code == "BAD_URL" and p.get("url"):
        why = str(p.get("why", ""))
        if "port" in why:
            text = t("cli.bad_port", lang, url=p["url"])
        else:
            text = f"{p['url']}: {error_text('BAD_URL', None, e.message, lang)}"
    else:
        text = error_text(e.code, p, e.message, lang)
        if e.code in ("ROOM_STARTED", "ROOM_FULL"):
            text += " (--spectate)"
    return t("cli.error", lang, text=text) + f" [{e.code}]"


def run_play(
    args: argparse.Namespace,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``shengji play``; returns the exit status."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    lang = choose_lang(args.lang)
    session: Session | None = None
    where = None
    code: int | None = None
    out_lang = lang  # the app may switch language
    try:
        if args.connect is not None:
            with_target: Target | None = None
            try:
                with_target = parse_target(args.connect)
            except ShengjiError:
                with_target = None
            where = with_target.where if with_target else None
        session = open_session(args, lang, stdout, watched=not args.plain or _tty(stdin))
        if args.plain:
            from .plain import run_plain

            code = run_plain(session, lang, stdin, stdout)
            return code
        from .app import TableApp

        app = TableApp(session, lang=lang)
        app.run()
        out_lang = app.lang
        if app.error is not None:
            raise app.error
        if app.return_code == 130:  # Ctrl-C in the app
            raise KeyboardInterrupt
        if session.online:
            stdout.write(t(again_key(session), out_lang) + "\n")
        code = 0
        return code
    except ShengjiError as e:
        stderr.write(failure_line(e, lang, where) + "\n")
        stderr.flush()
        code = 2
        return code
    except KeyboardInterrupt:
        stderr.write(t("cli.error", lang, text=error_text("INTERRUPTED", None, "", lang)) + "\n")
        stderr.flush()
        code = 130
        return code
    finally:
        if session is not None:
            session.close()
        if isinstance(session, LocalSession) and code is not None:
            for line in save_local(session, out_lang):
                stdout.write(line + "\n")
            stdout.flush()
