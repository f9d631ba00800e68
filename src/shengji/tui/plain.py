"""``shengji play --plain``: the table as text lines, commands read from standard input.

Commands: ``play CARDS``, ``bury CARDS``, ``show CARDS`` (``declare``; or the option's
number: at any moment of the deal, which never waits), ``pass``, ``next``, ``hint``,
``look``, ``help``, ``quit``; online also ``ready``,
``unready``, ``start`` and ``bots`` (the host: bots in the empty seats) and ``say TEXT``.
Cards use the notation (``S10 S10``, ``BJ``). Everything that happens is printed as it
happens (declarations, plays, who won each trick, failed throws); a refused command
prints the rule's code and what it says.
"""

from __future__ import annotations

import select
import time
from collections.abc import Sequence
from typing import Any, TextIO

from ..errors import Code, ShengjiError
from ..words.i18n import cards_label, t
from .session import LEVELS, Refusal, Session, bot_for, local_levels
from .text import describe, hint_text, my_seat, my_turn, prompt, status_lines, trick_text
from .tracker import Tracker

_ROOM_VERBS = ("ready", "unready", "start", "bots", "say", "chat")


def parse_line(line: str, state: dict[str, Any]) -> dict[str, Any] | str:
    """A protocol action (``{"type": ...}``), a room command (``{"room": {...}}``), or a
    word for the loop (``look``, ``help``, ``hint``, ``quit``)."""
    words = line.strip().split()
    if not words:
        return "look"
    verb, rest = words[0].lower(), " ".join(words[1:])
    if verb in ("look", "help", "hint", "quit", "exit", "?"):
        return {"?": "hint", "exit": "quit"}.get(verb, verb)
    if verb.isascii() and verb.isdigit():
        shows = state.get("shows") or []
        k = int(verb) - 1
        return {"type": "declare", "cards": shows[k]} if 0 <= k < len(shows) else "help"
    if verb in ("pass", "next", "continue", "n"):
        return {"type": "pass" if verb == "pass" else "continue"}
    if verb == "call":  # 找朋友: the banker's friend calls, ``call SA:2 HK:1``
        return {"type": "call", "calls": rest}
    if verb in ("play", "p", "bury", "declare", "show"):
        kind = {"p": "play", "show": "declare"}.get(verb, verb)
        return {"type": kind, "cards": rest}
    if verb in _ROOM_VERBS:
        if verb in ("ready", "unready"):
            return {"room": {"type": "ready", "ready": verb == "ready"}}
        if verb == "start":
            return {"room": {"type": "start"}}
        if verb == "bots":
            return {"room": {"type": "bots", "args": rest.split()}}
        return {"room": {"type": "chat", "text": rest}} if rest else "help"
    return "unknown"


def help_lines(online: bool, lang: str) -> list[str]:
    """The commands (the room's only online)."""
    return [t("plain.help", lang), *([t("plain.help_online", lang)] if online else [])]


def action_line(action: dict[str, Any]) -> str:
    """The line a person types for a protocol ``action`` (what :func:`parse_line` reads).

    >>> action_line({"type": "play", "cards": "S10 S10"}), action_line({"type": "continue"})
    ('play S10 S10', 'next')
    """
    kind = action["type"]
    if kind == "call":
        return f"call {action['calls']}"
    return {"pass": "pass", "continue": "next"}.get(kind) or f"{kind} {action['cards']}"


def wants_input(state: dict[str, Any]) -> bool:
    """Whether the loop should wait for a command now (else it waits for the table)."""
    if not state:
        return False
    me = my_seat(state)
    if me is None:
        return False
    if not state.get("view"):
        seats = (state.get("room") or {}).get("seats") or []
        ready = bool(seats[me].get("ready")) if me < len(seats) else True
        return bool((state.get("you") or {}).get("host")) or not ready
    return my_turn(state)


def fill_bots(session: Session, args: Sequence[str] = ()) -> Refusal | None:
    """The host's ``bots [LEVEL] [SEAT]``: a bot of LEVEL (``easy``, ``normal`` (the
    default), ``strong`` or a bot's name) in every empty seat and every seat a bot holds,
    or in seat SEAT only (as the lobby numbers them, from 0)."""
    choice, seat = "normal", None
    for word in args:
        if word.isascii() and word.isdigit():
            seat = int(word)
        else:
            choice = word
    try:
        bot = bot_for(choice, local_levels())
    except ShengjiError as e:
        return Refusal.of(e)
    seats = (session.state.get("room") or {}).get("seats") or []
    if seat is not None and not 0 <= seat < len(seats):
        return Refusal.of(
            ShengjiError(
                f"this table has seats 0 to {len(seats) - 1}, not {seat}",
                code=Code.BAD_SEAT,
                params={"seat": seat},
            )
        )
    for i, s in enumerate(seats):
        if (seat is None and s.get("kind") in ("empty", "bot")) or i == seat:
            refusal = session.command({"type": "set_bot", "seat": i, "bot": bot})
            if refusal:
                return refusal
    return None


def next_level(session: Session) -> str:
    """What ``b`` does next in the lobby: ``normal`` bots in the empty seats while there
    are any, then every bot one level up (normal → strong → easy → normal)."""
    seats = (session.state.get("room") or {}).get("seats") or []
    if any(s.get("kind") == "empty" for s in seats):
        return "normal"
    levels = {name: level for level, name in local_levels().items()}
    now = [levels.get(str(s.get("bot") or "").partition(":")[0]) for s in seats]
    current = next((lv for lv in now if lv), "easy")
    return LEVELS[(LEVELS.index(current) + 1) % len(LEVELS)]


def _has_fileno(stdin: TextIO) -> bool:
    try:
        stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


def _stdin_ready(stdin: TextIO, timeout: float) -> bool:
    """A line is waiting on a terminal's standard input (only for a real terminal)."""
    try:
        r, _, _ = select.select([stdin], [], [], timeout)
    except (OSError, ValueError):
        time.sleep(timeout)
        return False
    return bool(r)


def run_plain(session: Session, lang: str, stdin: TextIO, stdout: TextIO) -> int:
    """Play until the match ends, input runs out or ``quit``."""

    def out(*lines: str) -> None:
        for line in lines:
            stdout.write(line + "\n")
        stdout.flush()

    try:
        tty = stdin.isatty()
    except (AttributeError, ValueError):
        tty = False
    # a spectator never has to answer: read its (piped) input only when a line is there
    watch = (not tty) and _has_fileno(stdin)
    tracker = Tracker(lang)
    shown: Any = None
    offered: tuple[str, ...] = ()  # the shows last told during the deal
    held: str | None = None  # a line read during the deal that is not for the deal
    attempt = 0
    out(*help_lines(session.online, lang))
    if session.link and not getattr(session, "made", False):  # made: the link was told
        out(t("lobby.link", lang, url=session.link))
    while True:
        session.poll()
        for note in _take_notices(session, lang):
            out(note if isinstance(note, str) else note.say(lang))
        if session.status == "reconnecting" and session.attempt != attempt:
            attempt = session.attempt
            out(t("status.reconnecting", lang, n=attempt))
        state = session.state
        if not state:
            time.sleep(0.05)
            continue
        out(*tracker.update(state, session.chat))
        view = state.get("view")
        if view and view["phase"] == "match_over":
            return 0
        if not view and state.get("rev") != shown:
            shown = state.get("rev")
            out(*describe(state, lang))
        want = wants_input(state)
        dealing = view is not None and view["phase"] == "deal" and my_seat(state) is not None
        if dealing:  # the deal goes on: what can be shown now is told as it changes
            offer = tuple(state.get("shows") or ())
            if offer != offered:
                offered = offer
                if offer:
                    out("", *_turn_lines(state, lang))
            # a person's line is read at any moment (look, quit, a show); a script's line
            # when there is something to show; none while one is held for later
            reads = held is None and (tty or (bool(offer) and _has_fileno(stdin)))
            if not (reads and _stdin_ready(stdin, 0.1)):
                if not reads:
                    time.sleep(0.05)
                continue
        elif (tty or (watch and my_seat(state) is None)) and not want:
            if not _stdin_ready(stdin, 0.1):
                continue
        elif not want:
            time.sleep(0.05)
            continue
        if want and state.get("rev") != shown:
            shown = state.get("rev")
            out("", *(_turn_lines(state, lang) if view else describe(state, lang)))
        if tty and want and not dealing and held is None and not _stdin_ready(stdin, 0.1):
            continue  # the table goes on meanwhile (a turn timer may play for you)
        line, held = (held, None) if held is not None and not dealing else (stdin.readline(), held)
        if not line:
            return 0
        cmd = parse_line(line, state)
        if dealing and not (cmd in ("look", "help", "hint", "quit", "unknown") or _is_show(cmd)):
            held = line  # a command for later (a script's next turn): kept for it
            continue
        if cmd == "quit":
            if session.online:
                out(t("cli.again" if my_seat(state) is not None else "cli.again_watch", lang))
            return 0
        if cmd == "unknown":
            out(t("plain.unknown", lang, word=line.split()[0]), *help_lines(session.online, lang))
        elif cmd == "help":
            out(*help_lines(session.online, lang))
        elif cmd == "look":
            out(*describe(state, lang))
        elif cmd == "hint":
            out(hint_text(session.hint(lang), session.online, lang))
        elif isinstance(cmd, dict):
            if "room" in cmd:
                room_cmd = cmd["room"]
                refusal = (
                    fill_bots(session, room_cmd["args"])
                    if room_cmd["type"] == "bots"
                    else session.command(room_cmd)
                )
            else:
                refusal = session.act(cmd)
            if refusal:
                out(t("refused", lang, text=f"{refusal.code}: {refusal.say(lang)}"))
                shown = None  # show the table again before the next command


def _is_show(cmd: dict[str, Any] | str) -> bool:
    return isinstance(cmd, dict) and cmd.get("type") == "declare"


def _turn_lines(state: dict[str, Any], lang: str) -> list[str]:
    """What to see before acting: the hand's status, the trick so far (its leader and
    winning play marked), the hand, the prompt (``look`` shows everything)."""
    view = state["view"]
    lines = [status_lines(state, lang)[0]]
    trick = trick_text(state, lang)
    if trick:
        lines.append(trick)
    if view["phase"] == "hand_over":
        lines.append(status_lines(state, lang)[1])
    me = my_seat(state)
    if me is not None and view.get("hand"):
        lines.append(t("plain.you", lang, cards=cards_label(view["hand"], lang)))
    lines.append(prompt(state, lang))
    return lines


def _take_notices(session: Session, lang: str) -> list[str | Refusal]:
    """What the session has to say beyond the table (reconnected, a server's refusal)."""
    notices: list[str | Refusal] = getattr(session, "notices", [])
    taken = list(notices)
    notices.clear()
    return [t("note.reconnected", lang) if n == "reconnected" else n for n in taken]
