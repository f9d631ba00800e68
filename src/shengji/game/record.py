"""Match records: a versioned JSON document (rules, seed, every action, the results) that
replays exactly, and :func:`verify` that re-plays and re-computes a record.

The JSON Schema is ``docs/record.schema.json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Code, ShengjiError
from ..rules.cards import format_cards, parse_cards, rank_text
from ..rules.options import RuleOptions
from ..rules.presets import load_preset
from .actions import Action, action_from_json, action_to_json
from .flow import apply, new_match
from .state import GameState, HandResult

FORMAT = "shengji-record"
VERSION = 1


class RecordError(ShengjiError):
    """A record that is malformed, corrupt or illegal; ``index`` names the first bad
    action (None when the problem is not in one action)."""

    code: str = Code.BAD_RECORD

    def __init__(self, message: str, *, index: int | None = None, code: str | None = None):
        super().__init__(message if index is None else f"action #{index}: {message}", code=code)
        self.index = index


@dataclass
class Recorder:
    """Collects the actions of a match as they are applied."""

    options: RuleOptions
    seed: int
    #: Applied actions with their seats (None: the table's own, a paced deal's ``Deal``).
    actions: list[tuple[int | None, Action]] = field(default_factory=list)

    def add(self, seat: int | None, action: Action) -> None:
        """Note an applied action."""
        self.actions.append((seat, action))

    def record(self, final: GameState) -> dict[str, Any]:
        """The record of the match so far, ending in ``final``."""
        return make_record(self.options, self.seed, self.actions, final)


def hand_summary(r: HandResult) -> dict[str, Any]:
    """The recomputable facts of a hand, stored in records and compared by verify."""
    o = r.outcome
    return {
        "number": r.number,
        "banker": r.banker,
        "level": rank_text(r.level),
        "trump": r.trump,
        "points": r.points,
        "kitty": format_cards(r.kitty),
        "next_banker": o.next_banker,
        "banker_level": rank_text(o.banker_level),
        "collector_level": rank_text(o.collector_level),
        "winner": o.winner,
    } | ({"banker_side": list(r.banker_side)} if r.banker_side else {})


def final_summary(st: GameState) -> dict[str, Any]:
    """Where the match stands: phase, levels, hands played, winner team, coins."""
    return {
        "phase": st.phase,
        "hand_number": st.hand_number,
        "levels": [rank_text(v) for v in st.levels],
        "winner": st.winner,
        "coins": list(st.coins),
    }


def make_record(
    options: RuleOptions,
    seed: int,
    actions: Sequence[tuple[int | None, Action]],
    final: GameState,
) -> dict[str, Any]:
    """Build the record document (``paced``: the match's deals were paced by the table,
    whose ``deal`` actions have the seat null)."""
    opts = options.to_dict()
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "preset": opts.pop("name"),
        "rules": opts,
        "seed": seed,
    }
    if final.stacked:
        rec["stacked_decks"] = [format_cards(d) for d in final.stacked]
    if final.paced:
        rec["paced"] = True
    return rec | {
        "actions": [{"seat": s, **action_to_json(a)} for s, a in actions],
        "hands": [hand_summary(r) for r in final.results],
        "final": final_summary(final),
    }


#: Options added since records were first written whose default plays differently from
#: the engine before them: a record that does not name one was played with this value.
_BEFORE_OPTIONS = {"throw_penalty_side": "thrown"}


def options_from_record(rec: dict[str, Any]) -> RuleOptions:
    """The rule options a record was played under (an option the record does not name:
    the preset's, or the value that played before the option existed)."""
    rules = rec.get("rules")
    if not isinstance(rules, dict):
        raise RecordError("record has no 'rules' object")
    preset = rec.get("preset", "shuangsheng")
    try:
        base = load_preset(preset)
    except ShengjiError:
        base = RuleOptions()
    return RuleOptions(**{**base.to_dict(), **_BEFORE_OPTIONS, **rules, "name": str(preset)})


def check_header(rec: Any) -> None:
    """Format and version checks."""
    if not isinstance(rec, dict):
        raise RecordError("a record must be a JSON object")
    if rec.get("format") != FORMAT:
        raise RecordError(f"not a shengji record (format must be {FORMAT!r})")
    if rec.get("version") != VERSION:
        raise RecordError(
            f"record version {rec.get('version')!r} is not supported (this program reads "
            f"version {VERSION})",
            code=Code.BAD_RECORD_VERSION,
        )
    if not isinstance(rec.get("seed"), int) or isinstance(rec.get("seed"), bool):
        raise RecordError("record 'seed' must be an integer")
    if not isinstance(rec.get("actions"), list):
        raise RecordError("record 'actions' must be a list")


def replay(
    rec: dict[str, Any],
    on_step: Callable[[GameState, int | None, Action, list[Any]], None] | None = None,
) -> GameState:
    """Re-apply every action of a record; raises RecordError naming the first bad one."""
    check_header(rec)
    stacked = rec.get("stacked_decks", [])
    if not isinstance(stacked, list):
        raise RecordError("'stacked_decks' must be a list of card strings")
    paced = rec.get("paced", False)
    if not isinstance(paced, bool):
        raise RecordError("'paced' must be true or false")
    try:
        decks = [parse_cards(d) for d in stacked]
        st = new_match(options_from_record(rec), rec["seed"], decks, paced=paced)
    except ShengjiError as e:
        raise RecordError(f"{e.code}: {e.message}") from None
    for i, item in enumerate(rec["actions"]):
        table = isinstance(item, dict) and item.get("type") == "deal"
        seat = item.get("seat") if isinstance(item, dict) else None
        if table and seat is not None:
            raise RecordError("a 'deal' action is the table's: its 'seat' is null", index=i)
        if not table and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise RecordError("each action needs an integer 'seat'", index=i)
        try:
            action = action_from_json(item)
            st2, events = apply(st, seat, action)
        except ShengjiError as e:
            raise RecordError(f"{e.code}: {e.message}", index=i) from None
        if on_step:
            on_step(st2, seat, action, events)
        st = st2
    return st


def verify(rec: Any) -> GameState:
    """Re-play a record and re-compute every result; raises RecordError on the first
    difference (an illegal action, a changed card, a result that does not match, a
    truncated action list)."""
    check_header(rec)
    st = replay(rec)
    hands = rec.get("hands")
    if not isinstance(hands, list):
        raise RecordError("record 'hands' must be a list")
    got = [hand_summary(r) for r in st.results]
    for i, (want, have) in enumerate(zip(hands, got, strict=False)):
        if want != have:
            diff = sorted(k for k in have if not isinstance(want, dict) or want.get(k) != have[k])
            raise RecordError(f"hand {i}: recorded result differs from the replay in {diff}")
    if len(hands) != len(got):
        n = len(rec["actions"])
        raise RecordError(
            f"the record lists {len(hands)} finished hand(s) but its {n} actions finish "
            f"{len(got)}: the action list is truncated or has extra actions",
            index=n,
            code=Code.TRUNCATED_RECORD,
        )
    final = final_summary(st)
    if rec.get("final") != final:
        n = len(rec["actions"])
        raise RecordError(
            f"the record's final state {rec.get('final')} is not where its actions lead "
            f"({final}): the action list is truncated or altered",
            index=n,
            code=Code.TRUNCATED_RECORD,
        )
    return st


def read_json(path: str | Path, error: type[ShengjiError]) -> Any:
    """Parse a JSON file, turning every way it can be unreadable into ``error``."""
    p = Path(path)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise error(f"cannot read {p}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise error(f"{p} is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise error(f"{p} is not JSON: {e}") from None


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file (JSON)."""
    data = read_json(path, RecordError)
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record must be a JSON object")
    return data


def save_record(rec: dict[str, Any], path: str | Path) -> None:
    """Write a record as JSON."""
    Path(path).write_text(json.dumps(rec, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
