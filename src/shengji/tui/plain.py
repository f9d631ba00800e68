"""``shengji play --plain``: the table as text lines, commands read from standard input.

Commands: ``play CARDS``, ``bury CARDS``, ``declare CARDS`` (or the option's number),
``pass``, ``next``, ``hint``, ``look``, ``help``, ``quit``. Cards use the notation
(``S10 S10``, ``BJ``); a refused command prints the rule's message.
"""

from __future__ import annotations

import time
from typing import Any, TextIO

from .session import Session
from .text import describe, my_turn

HELP = {
    "en": "commands: play CARDS | bury CARDS | declare CARDS (or its number) | pass | next | "
    "hint | look | quit",
    "zh": "命令: play 牌 | bury 牌 | declare 牌 (或序号) | pass | next | hint | look | quit",
}


def parse_line(line: str, state: dict[str, Any]) -> dict[str, Any] | str:
    """A protocol action from a command line, or a word for the loop (look/help/...)."""
    words = line.strip().split()
    if not words:
        return "look"
    verb, rest = words[0].lower(), " ".join(words[1:])
    if verb in ("look", "help", "hint", "quit", "exit"):
        return verb
    if verb.isdigit():
        shows = state.get("shows") or []
        k = int(verb) - 1
        return {"type": "declare", "cards": shows[k]} if 0 <= k < len(shows) else "help"
    if verb in ("pass", "next", "continue"):
        return {"type": "pass" if verb == "pass" else "continue"}
    if verb in ("play", "p", "bury", "declare", "show"):
        kind = {"p": "play", "show": "declare"}.get(verb, verb)
        return {"type": kind, "cards": rest}
    return "help"


def run_plain(session: Session, lang: str, stdin: TextIO, stdout: TextIO) -> int:
    """Play until the match ends or input runs out."""

    def out(*lines: str) -> None:
        for line in lines:
            stdout.write(line + "\n")
        stdout.flush()

    shown = -1
    out(HELP[lang])
    while True:
        session.poll()
        state = session.state
        if not state.get("view"):
            time.sleep(0.05)
            continue
        if state["rev"] != shown:
            shown = state["rev"]
            out("", *describe(state, lang))
        if state["view"]["phase"] == "match_over":
            return 0
        if not my_turn(state):
            time.sleep(0.05)
            continue
        line = stdin.readline()
        if not line:
            return 0
        cmd = parse_line(line, state)
        if cmd in ("quit", "exit"):
            return 0
        if cmd == "help":
            out(HELP[lang])
        elif cmd == "look":
            out(*describe(state, lang))
        elif cmd == "hint":
            hint = session.hint(lang)
            out(
                "hint: —"
                if hint is None
                else f"hint: {hint[0]['type']} {hint[0].get('cards', '')} — {hint[1]}"
            )
        elif isinstance(cmd, dict):
            error = session.act(cmd)
            if error:
                out(("refused: " if lang == "en" else "不行: ") + error)
