"""``shengji conformance FILE...``: answer rule-book rulings through the public API.

The case format is described in the project's ``tests/conformance`` folder and the rule
book: each file is ``{"cases": [...]}``; every case has a ``question`` and an ``expect``
object whose given keys are compared. A case the project cannot answer (unknown question,
preset or option, malformed input) counts as a failure, never a skip.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import Code, ShengjiError
from ..game.record import read_json
from ..kernel import access
from ..rules.cards import Card, parse_cards, parse_rank, rank_text
from ..rules.declaring import apply_show, replay_shows, weak_hand
from ..rules.follow import is_legal_follow
from ..rules.friends import check_calls, parse_calls
from ..rules.options import RuleOptions
from ..rules.phases import DECLARING_PHASES
from ..rules.presets import load_preset
from ..rules.scoring import (
    friends_standing,
    hand_outcome,
    j_hook_width,
    kitty_bonus,
    scoring_levels,
)
from ..rules.throws import check_throw
from ..rules.tricks import trick_winner
from ..rules.trump import TrumpContext
from ..rules.units import classify_lead, lead_kind

Answer = dict[str, Any]


class CaseError(ShengjiError):
    """A conformance case that is malformed or asks something unknown."""

    code: str = Code.BAD_CONFORMANCE_CASE


@dataclass(frozen=True, slots=True)
class CaseResult:
    """One case's verdict with what was expected and what the project answered."""

    id: str
    question: str
    passed: bool
    expected: Answer
    got: Answer


def _options(case: dict[str, Any]) -> RuleOptions:
    if "preset" not in case:
        raise CaseError("case has no preset")
    return load_preset(str(case["preset"]), case.get("options") or None)


def _ctx(case: dict[str, Any], trump_default: str | None = None) -> TrumpContext:
    trump = case.get("trump", trump_default)
    if trump is None or "level" not in case:
        raise CaseError("case needs level and trump")
    return TrumpContext(_options(case), str(case["level"]), str(trump))


def _cards(case: dict[str, Any], key: str) -> tuple[Card, ...]:
    if key not in case:
        raise CaseError(f"case has no {key!r}")
    return parse_cards(case[key])


def _format(case: dict[str, Any]) -> Answer:
    ctx = _ctx(case)
    cards = _cards(case, "cards")
    kind = lead_kind(ctx, cards)
    if kind == "invalid":
        return {"kind": "invalid"}
    return {"kind": kind, "units": list(classify_lead(ctx, cards).codes)}


def _follow(case: dict[str, Any]) -> Answer:
    ctx = _ctx(case)
    return {
        "legal": is_legal_follow(
            ctx, _cards(case, "lead"), _cards(case, "hand"), _cards(case, "play")
        )
    }


def _winner(case: dict[str, Any]) -> Answer:
    ctx = _ctx(case)
    plays = [parse_cards(p) for p in case["plays"]]
    return {"winner": trick_winner(ctx, plays)}


def _throw(case: dict[str, Any]) -> Answer:
    ctx = _ctx(case)
    others = [parse_cards(h) for h in case["others"]]
    side = case.get("thrower_side", "collectors")
    if side not in ("banker", "collectors"):
        raise CaseError(f"thrower_side must be banker or collectors, not {side!r}")
    r = check_throw(ctx, _cards(case, "lead"), others, side == "banker")
    return {"valid": r.valid, "played": [c.text for c in r.played], "penalty": r.penalty}


def _kitty(case: dict[str, Any]) -> Answer:
    ctx = _ctx(case)
    lead = classify_lead(ctx, _cards(case, "lead"))
    mult, bonus = kitty_bonus(ctx.options, lead, _cards(case, "kitty"))
    return {"multiplier": mult, "bonus": bonus}


def _outcome(case: dict[str, Any]) -> Answer:
    opts = _options(case)
    level = parse_rank(str(case.get("level", case["banker_level"])))
    last = case.get("last_trick") or {}
    if not isinstance(last, dict):
        raise CaseError("last_trick must be an object {side, winning_play}")
    collectors_last = last.get("side") == "collectors"
    width = None
    if collectors_last and last.get("winning_play"):
        ctx = TrumpContext(opts, level, str(case.get("trump", "NT")))
        width = j_hook_width(ctx, parse_cards(last["winning_play"]))
    r = hand_outcome(
        opts,
        banker_seat=int(case["banker_seat"]),
        banker_level=parse_rank(str(case["banker_level"])),
        collector_level=parse_rank(str(case["collector_level"])),
        points=int(case["points"]),
        trick_points=case.get("trick_points"),
        last_trick_collectors=collectors_last,
        hook_width=width,
    )
    return {
        "next_banker": r.next_banker,
        "banker_level": rank_text(r.banker_level),
        "collector_level": rank_text(r.collector_level),
        "winner": r.winner,
        "explain": r.explain("en"),
    }


def _declare(case: dict[str, Any]) -> Answer:
    opts = _options(case)
    level = parse_rank(str(case["level"]))
    first = bool(case["first_hand"])
    phase = case["phase"]
    if phase not in DECLARING_PHASES:
        raise CaseError(f"unknown phase {phase!r}")
    history = [(int(h["seat"]), parse_cards(h["cards"])) for h in case.get("history", [])]
    flipped = not first and not history and phase == "after_burial"
    given = case.get("banker_seat")
    state = replay_shows(opts, level, first, given, history, flipped)
    if given is not None:
        # the case states the banker the history leaves (history entries carry no phase)
        state = dataclasses.replace(state, banker=int(given))
    attempt = case["attempt"]
    try:
        new = apply_show(
            opts, level, state, int(attempt["seat"]), parse_cards(attempt["cards"]), phase
        )
    except ShengjiError as e:
        if e.code == "BAD_CARD":
            raise
        return {"legal": False, "reason": e.message}
    return {"legal": True, "trump": new.trump_text, "banker_seat": new.banker}


def _friends(case: dict[str, Any]) -> Answer:
    """找朋友: the table's sizes, whether the banker's calls are allowed, and after the
    given tricks (each ``{"leader": seat, "plays": [cards, ...]}`` in play order; a
    failed throw is given whole, the kernel plays its forced unit) who answered each
    call, the banker's side, the collectors' points and the throw penalties, played on
    the engine's kernel (``KState`` with the calls)."""
    opts = _options(case)
    ctx = _ctx(case)
    n = opts.players
    answer: Answer = {
        "players": n,
        "decks": opts.decks,
        "kitty_size": opts.kitty_size,
        "hand_size": opts.hand_size,
        "calls_per_hand": opts.calls,
    }
    if "calls" not in case:
        return answer
    calls = parse_calls(case["calls"])
    try:
        check_calls(ctx, calls)
    except ShengjiError as e:
        if e.code == "BAD_CARD":
            raise
        return answer | {"legal": False, "reason": e.message}
    banker = int(case["banker_seat"])
    tricks = case.get("tricks", [])
    if not isinstance(tricks, list) or not tricks:
        return answer | {"legal": True}
    core = access.core()
    leader = int(tricks[0]["leader"])
    ks = core.KState(access.tables(ctx), banker, leader, [1] * n)
    played = [[parse_cards(p) for p in t["plays"]] for t in tricks]
    for t, plays in zip(tricks, played, strict=True):
        if len(plays) != n:
            raise CaseError(f"a trick of {n} players needs {n} plays, not {len(plays)}")
        for i, cards in enumerate(plays):
            seat = (int(t["leader"]) + i) % n
            for c in cards:
                ks.hands[seat][c.index] += 1
            ks.sizes[seat] += len(cards)
    ks.set_calls([c.card.index for c in calls], [c.ordinal for c in calls])
    for number, (t, plays) in enumerate(zip(tricks, played, strict=True), 1):
        if int(t["leader"]) != ks.to_act:
            raise CaseError(f"trick {number} is led by seat {t['leader']}, not {ks.to_act}")
        for cards in plays:
            ints = [c.index for c in cards]
            if not ks.is_legal(ints):
                raise CaseError(f"trick {number}: seat {ks.to_act} may not play {cards}")
            ks.apply(ints)
    return answer | {
        "legal": True,
        "found": [None if s < 0 or ks.team[s] != ks.team[banker] else s for s in ks.call_by],
        "banker_side": [s for s in range(n) if ks.team[s] == ks.team[banker]],
        "collector_points": ks.trick_points,
        "points_by_seat": list(ks.seat_points),
        "penalties": ks.penalties,
    }


def _friends_outcome(case: dict[str, Any]) -> Answer:
    """找朋友's end of a hand: from every player's ``levels``, the ``banker_side`` as the
    hand ended (seats), the collectors' ``points`` and optionally ``last_trick`` (``{"side":
    ...}``), ``progress`` (levels climbed in the match) and ``hand_number``: the players'
    new levels, the next banker, the gain and bonus, and the match's winning seat."""
    opts = _options(case)
    n = opts.players
    if not opts.friends:
        raise CaseError("friends_outcome needs a 找朋友 table (friends = true)")
    levels = [parse_rank(str(x)) for x in case["levels"]]
    side = {int(s) for s in case["banker_side"]}
    banker = int(case["banker_seat"])
    if len(levels) != n or banker not in side or not side <= set(range(n)):
        raise CaseError(f"levels needs {n} entries and banker_side the banker's seats")
    teams = [0 if s in side else 1 for s in range(n)]
    last = case.get("last_trick") or {}
    own = scoring_levels(opts, levels, banker, teams)
    outcome = hand_outcome(
        opts,
        banker_seat=banker,
        banker_level=own[0],
        collector_level=own[1],
        points=int(case["points"]),
        last_trick_collectors=isinstance(last, dict) and last.get("side") == "collectors",
        teams=teams,
    )
    progress = case.get("progress") or [0] * n
    outcome, new, _, over, winner = friends_standing(
        opts, teams, banker, outcome, levels, progress, int(case.get("hand_number", 0))
    )
    return {
        "side": outcome.side,
        "gain": outcome.gain,
        "bonus": outcome.bonus,
        "levels": [rank_text(v) for v in new],
        "next_banker": outcome.next_banker,
        "match_over": over,
        "winner_seat": winner,
        "winner": outcome.winner,
        "explain": outcome.explain("en"),
    }


def _weak_hand(case: dict[str, Any]) -> Answer:
    """完全造反: whether the given ``hand`` is redealt as weak (``weak_redeal``) once the
    ``trump`` is known at ``level``."""
    ctx = _ctx(case)
    if ctx.options.weak_redeal is None:
        raise CaseError("weak_hand needs the option weak_redeal (a rank)")
    return {"weak": weak_hand(ctx, _cards(case, "hand"))}


QUESTIONS: dict[str, Callable[[dict[str, Any]], Answer]] = {
    "format": _format,
    "follow": _follow,
    "winner": _winner,
    "throw": _throw,
    "kitty": _kitty,
    "outcome": _outcome,
    "declare": _declare,
    "friends": _friends,
    "friends_outcome": _friends_outcome,
    "weak_hand": _weak_hand,
}


def _same(key: str, want: Any, got: Any) -> bool:
    if key in ("played", "cards") and isinstance(want, list) and isinstance(got, list):
        try:
            return Counter(parse_cards(want)) == Counter(parse_cards(got))
        except ShengjiError:
            return False
    return bool(want == got) and type(want) is type(got)


def run_case(case: dict[str, Any]) -> CaseResult:
    """Answer one case and compare the expected keys."""
    cid = str(case.get("id", "?"))
    q = str(case.get("question", "?"))
    expected = case.get("expect")
    if not isinstance(expected, dict):
        return CaseResult(cid, q, False, {}, {"error": "case has no expect object"})
    fn = QUESTIONS.get(q)
    if fn is None:
        return CaseResult(cid, q, False, expected, {"error": f"unknown question {q!r}"})
    try:
        got = fn(case)
    except ShengjiError as e:
        return CaseResult(cid, q, False, expected, {"error": str(e)})
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        return CaseResult(cid, q, False, expected, {"error": f"malformed case: {e!r}"})
    passed = all(k in got and _same(k, v, got[k]) for k, v in expected.items())
    return CaseResult(cid, q, passed, expected, got)


def load_cases(path: str | Path) -> list[dict[str, Any]]:
    """Read a case file; raises CaseError when it is not ``{"cases": [...]}``."""
    p = Path(path)
    data = read_json(p, CaseError)
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise CaseError(f'{p} must be a JSON object {{"cases": [...]}}')
    return [c if isinstance(c, dict) else {"id": "?", "question": "?"} for c in data["cases"]]


def run_files(paths: Sequence[str | Path]) -> list[CaseResult]:
    """Run every case of every file."""
    results: list[CaseResult] = []
    for p in paths:
        for case in load_cases(p):
            results.append(run_case(case))
    return results


def report(results: Sequence[CaseResult]) -> str:
    """One line per failing case, then ``N passed, M failed``."""
    lines = []
    for r in results:
        if not r.passed:
            got = {k: r.got.get(k) for k in r.expected} if "error" not in r.got else r.got
            lines.append(
                f"FAIL {r.id} ({r.question}): expected {json.dumps(r.expected, ensure_ascii=False)}"
                f", got {json.dumps(got, ensure_ascii=False)}"
            )
    passed = sum(r.passed for r in results)
    lines.append(f"{passed} passed, {len(results) - passed} failed")
    return "\n".join(lines)
