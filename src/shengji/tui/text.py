"""Words for a client ``state``: the status lines, the table, prompts and the lobby (the
:class:`~shengji.tui.tracker.Tracker` turns successive states into lines about what
happened).

Shared by the plain mode and the Textual app; every word comes from
:mod:`shengji.words.i18n`, so both read the same in English and Chinese.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ..bots.autoplay import choose_action
from ..bots.registry import bot_kinds
from ..errors import ShengjiError
from ..rules.cards import kitty_size, parse_card, parse_cards, points
from ..rules.options import RuleOptions
from ..rules.phases import DECLARING_PHASES
from ..rules.trump import TRUMP, TrumpContext
from ..rules.units import classify_lead
from ..words.i18n import (
    call_text,
    calls_text,
    cards_label,
    count_points,
    t,
    trump_phrase,
)
from ..words.option_help import overrides_text

ARROWS = {0: "↓", 1: "→", 2: "↑", 3: "←"}


def pretty(cards: str, lang: str = "en") -> str:
    """``S10 HJ BJ`` with suit symbols: ``♠10 ♥J BJ`` (``大王`` in Chinese)."""
    return cards_label(cards, lang)


def my_seat(state: dict[str, Any]) -> int | None:
    """The client's seat (None: a spectator)."""
    you = state.get("you") or {}
    seat = you.get("seat")
    return seat if isinstance(seat, int) else None


def my_turn(state: dict[str, Any]) -> bool:
    """True when the client's seat must act (or may start the next hand)."""
    view = state.get("view") or {}
    seat = my_seat(state)
    if not view or seat is None:
        return False
    if view.get("phase") == "hand_over":
        waiting = (state.get("room") or {}).get("waiting")
        return waiting is None or seat in waiting
    return view.get("to_act") == seat


# -- names ---------------------------------------------------------------------------------


def seat_count(state: dict[str, Any]) -> int:
    """The seats at the table (4 to 8)."""
    seats = (state.get("room") or {}).get("seats") or []
    view = state.get("view") or {}
    return len(seats) or int(view.get("players") or 4)


def friends_on(state: dict[str, Any]) -> bool:
    """Whether the table plays 找朋友 (no fixed partnerships)."""
    view = state.get("view") or {}
    return "calls" in view or bool(((state.get("room") or {}).get("options") or {}).get("friends"))


def rel_word(state: dict[str, Any], seat: int, me: int, lang: str) -> str:
    """Where ``seat`` sits from ``me``: ``right``/``partner``/``left`` at four seats; at
    找朋友 tables, in play order: ``right`` (next), ``2nd right``, ``3rd right``,
    ``opposite`` (across an even table), ``3rd left``, ``2nd left``, ``left`` (just before
    you)."""
    n = seat_count(state)
    rel = (seat - me) % n
    if n == 4 and not friends_on(state):
        return t(f"rel.{rel}", lang)
    if rel == 0:
        return t("rel.0", lang)
    if rel == 1:
        return t("rel.1", lang)
    if rel == n - 1:
        return t("rel.3", lang)
    if 2 * rel == n:
        return t("rel.opposite", lang)
    if rel < n / 2:
        return t("rel.right_n", lang, k=rel, nth=_nth(rel, lang))
    return t("rel.left_n", lang, k=n - rel, nth=_nth(n - rel, lang))


def _nth(k: int, lang: str) -> str:
    """``2nd``, ``3rd`` (二, 三)."""
    if lang == "zh":
        return "二三四五六七"[k - 2]
    return {2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def seat_words(players: int, friends: bool, me: int) -> Callable[[int, str], str]:
    """Seats named from ``me``'s place, as the table names them: ``name(seat, lang)``
    (for a match record, which has no names)."""
    state = {
        "room": {"seats": [{} for _ in range(players)], "options": {"friends": friends}},
        "you": {"seat": me},
    }
    return lambda seat, lang: who(state, seat, lang)


def seat_name(state: dict[str, Any], seat: int, lang: str) -> str:
    """A seat's own name: the person's name, the bot's kind, or the empty seat."""
    seats = (state.get("room") or {}).get("seats") or []
    s = seats[seat] if 0 <= seat < len(seats) else {}
    kind = s.get("kind")
    name = str(s.get("name") or "")
    if kind == "bot":
        return bot_name(str(s.get("bot") or name.replace(" bot", "") or "heuristic"), lang)
    if kind == "human":
        return name or t("seat.n", lang, n=seat)
    return t("seat.empty", lang)


def bot_name(spec: str, lang: str) -> str:
    """A bot by its kind and level: ``search bot (strong)``, ``机器人(搜索)·强``; a bot
    without a level (or unknown here) by its kind or its name."""
    name = spec.partition(":")[0]
    kind = next((k for k in bot_kinds() if k.name == name), None)
    label = kind.label(lang) if kind else f"{name} bot"
    level = kind.difficulty if kind else None
    return t("bot.leveled", lang, bot=label, level=t(f"level.{level}", lang)) if level else label


def who(state: dict[str, Any], seat: int | None, lang: str) -> str:
    """A seat in a sentence: ``you``, a person's name, or where a bot sits (``partner``);
    a spectator sees ``seat N``."""
    if seat is None:
        return "?"
    me = my_seat(state)
    if seat == me:
        return t("you", lang)
    seats = (state.get("room") or {}).get("seats") or []
    s = seats[seat] if 0 <= seat < len(seats) else {}
    if s.get("kind") == "human" and s.get("name"):
        return str(s["name"])
    if me is None:
        return t("seat.n", lang, n=seat)
    return rel_word(state, seat, me, lang)


def seat_title(state: dict[str, Any], seat: int, lang: str) -> str:
    """A seat on the table: ``→ right · heuristic bot (normal)`` (a spectator, who sits
    nowhere, sees ``seat 1``)."""
    me = my_seat(state)
    n = seat_count(state)
    rel = (seat - (me or 0)) % n
    if n == 4:
        arrow = ARROWS[rel]
    else:  # play order goes counter-clockwise: after you on the right, before you left
        arrow = "↓" if rel == 0 else "→" if rel == 1 else "←" if rel == n - 1 else "↑"
    parts = []
    if me is not None:
        parts.append(rel_word(state, seat, me, lang))
    if seat != me:
        parts.append(seat_name(state, seat, lang))
    if me is None:
        parts.append(t("seat.n", lang, n=seat))
    return f"{arrow} " + " · ".join(parts)


def side_word(state: dict[str, Any], seat: int, lang: str) -> str:
    """找朋友: a seat's side as known now (``banker``, ``friend``, ``collector``), or ""."""
    view = state.get("view") or {}
    sides = view.get("sides") or []
    side = sides[seat] if 0 <= seat < len(sides) else None
    if side is None:
        return ""
    if side == 0:
        return t("side.banker" if seat == view.get("banker") else "side.friend", lang)
    return t("side.collector", lang)


def calls_line(state: dict[str, Any], lang: str) -> str:
    """找朋友: the banker's calls and who answered each (``calls: the 2nd ♠A → bob ·
    the 1st ♥K → not yet``)."""
    view = state.get("view") or {}
    calls = view.get("calls") or []
    if not calls:
        key = "calls.coming" if view.get("phase") == "call" else "calls.later"
        return t(key, lang, who=who(state, view.get("banker"), lang))
    items = []
    for c in calls:
        seat = c.get("seat")
        answer = t("calls.open", lang) if seat is None else who(state, seat, lang)
        items.append(f"{call_text(str(c['call']), lang)} → {answer}")
    return t("calls.line", lang, list=" · ".join(items))


def levels_line(state: dict[str, Any], lang: str) -> str:
    """找朋友: every player's level, the most common one once (``levels: all at 2``,
    ``levels: you 3 · bob 3 · the others 2``)."""
    view = state.get("view") or {}
    levels = [str(lv) for lv in view.get("levels") or []]
    if not levels:
        return t("levels.players", lang, list="?")
    common = Counter(levels).most_common(1)[0][0]
    if all(lv == common for lv in levels):
        return t("levels.players", lang, list=t("levels.all", lang, level=common))
    items = [f"{who(state, s, lang)} {lv}" for s, lv in enumerate(levels) if lv != common]
    items.append(t("levels.others", lang, level=common))
    return t("levels.players", lang, list=" · ".join(items))


_SEAT_WORDS = {"en": re.compile(r"\bseat (\d+)"), "zh": re.compile(r"(\d+)号位")}


def explain_text(state: dict[str, Any], row: dict[str, Any], lang: str) -> str:
    """A score sheet row's explanation (``next banker seat 3``) with its seats named as
    the table names them (``next banker right``)."""
    text = str((row.get("explain") or {}).get(lang) or "")
    if my_seat(state) is None:
        return text
    n = seat_count(state)

    def name(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return who(state, seat, lang) if seat < n else m.group(0)

    return _SEAT_WORDS["zh" if lang == "zh" else "en"].sub(name, text)


def team_label(state: dict[str, Any], team: int, lang: str) -> str:
    """``your team``/``opponents`` for a player, ``seats 0+2`` for a spectator."""
    me = my_seat(state)
    if me is None:
        return t("team.seats", lang, a=team, b=team + 2)
    return t("team.ours" if team == me % 2 else "team.theirs", lang)


def result_text(state: dict[str, Any], lang: str) -> str:
    """Who won the match."""
    view = state.get("view") or {}
    winner = view.get("winner")
    me = my_seat(state)
    if winner is None:
        return t("result.draw", lang)
    if friends_on(state):
        return t(
            "result.you" if winner == me else "result.player", lang, who=who(state, winner, lang)
        )
    if me is None:
        return t("result.team", lang, a=winner, b=winner + 2)
    return t("result.ours" if winner == me % 2 else "result.theirs", lang)


# -- rules facts for the client ------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _options(items: tuple[tuple[str, Any], ...]) -> RuleOptions:
    return RuleOptions(**dict(items))


@functools.lru_cache(maxsize=64)
def _context(opts: RuleOptions, level: str, trump: str) -> TrumpContext:
    return TrumpContext(opts, level, trump)


def options_of(state: dict[str, Any]) -> RuleOptions | None:
    """The room's rule options."""
    raw = (state.get("room") or {}).get("options")
    if not isinstance(raw, dict):
        return None
    items = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in raw.items()))
    try:
        return _options(items)
    except (ShengjiError, TypeError):
        return None


def trump_context(state: dict[str, Any]) -> TrumpContext | None:
    """The hand's trump order, once trump is known."""
    view = state.get("view") or {}
    opts = options_of(state)
    if opts is None or view.get("trump") is None:
        return None
    try:
        return _context(opts, str(view["level"]), str(view["trump"]))
    except ShengjiError:
        return None


def trump_flags(state: dict[str, Any], cards: Sequence[str]) -> list[bool]:
    """For each card: is it a trump (False while trump is not known)."""
    ctx = trump_context(state)
    if ctx is None:
        return [False] * len(cards)
    return [ctx.suit_of[parse_card(c).index] == TRUMP for c in cards]


def is_throw(state: dict[str, Any], cards: str) -> bool:
    """Whether a lead of these cards is a throw (several units: it may fail)."""
    ctx = trump_context(state)
    view = state.get("view") or {}
    if ctx is None or view.get("trick"):
        return False
    try:
        return len(classify_lead(ctx, parse_cards(cards)).units) > 1
    except ShengjiError:
        return False


def kitty_marks(state: dict[str, Any], cards: Sequence[str]) -> list[bool]:
    """For each card of the hand: did it come from the kitty just picked up."""
    view = state.get("view") or {}
    seen = view.get("seen_kitty") or []
    if view.get("phase") != "bury" or not seen or seen[-1].get("kind") != "picked_up":
        return [False] * len(cards)
    left = Counter(str(seen[-1]["cards"]).split())
    out = []
    for c in cards:
        out.append(left[c] > 0)
        if left[c] > 0:
            left[c] -= 1
    return out


# -- lines ---------------------------------------------------------------------------------------


def trick_points(view: dict[str, Any]) -> int:
    """The points (5s, 10s, kings) in the trick in progress."""
    return sum(points(parse_cards(p["cards"])) for p in view.get("trick") or [])


def trick_marks(view: dict[str, Any], seat: int) -> str:
    """``▶`` for the seat that led the trick in progress, ``★`` for the one winning it
    so far (``▶★`` when that is the same seat), else nothing."""
    trick = view.get("trick") or []
    led = "▶" if trick and trick[0]["seat"] == seat else ""
    return led + ("★" if trick and view.get("winning") == seat else "")


def plays_text(
    state: dict[str, Any], plays: Sequence[dict[str, Any]], lang: str, marked: bool = False
) -> str:
    """``right ♥A · partner ♥J · you ♥6``; ``marked``: the trick in progress, its leader
    and winning play marked (``▶right ♥A · ★partner ♥2 · you ♥6``)."""
    view = state.get("view") or {}
    out = []
    for p in plays:
        mark = trick_marks(view, p["seat"]) if marked else ""
        line = f"{mark}{who(state, p['seat'], lang)} {pretty(p['cards'], lang)}"
        if p.get("attempted"):
            line += t("table.failed", lang, cards=pretty(p["attempted"], lang))
        out.append(line)
    return " · ".join(out)


def last_trick_text(state: dict[str, Any], lang: str) -> str | None:
    """The last completed trick with the winner and its points."""
    view = state.get("view") or {}
    tricks = view.get("tricks") or []
    if not tricks:
        return None
    last = tricks[-1]
    pts = f", {count_points(last['points'], lang)}" if last.get("points") else ""
    return t(
        "table.last",
        lang,
        plays=plays_text(state, last["plays"], lang),
        winner=who(state, last["winner"], lang),
        points=pts,
    )


def trick_text(state: dict[str, Any], lang: str) -> str | None:
    """The trick in progress with its leader, winning play and points (plain mode)."""
    view = state.get("view") or {}
    if not view.get("trick"):
        return None
    return t(
        "plain.trick",
        lang,
        plays=plays_text(state, view["trick"], lang, marked=True),
        points=count_points(trick_points(view), lang),
    )


def seat_flags(state: dict[str, Any], seat: int) -> list[str]:
    """Catalogue keys of what is unusual about a person's seat: ``lobby.away`` (a bot
    plays it while they are gone) or ``lobby.offline``."""
    seats = (state.get("room") or {}).get("seats") or []
    s = seats[seat] if 0 <= seat < len(seats) else {}
    if s.get("kind") != "human":
        return []
    if s.get("away"):
        return ["lobby.away"]
    return [] if s.get("connected", True) else ["lobby.offline"]


def positions(hand: Sequence[str], cards: Sequence[str]) -> list[int]:
    """Where ``cards`` are in ``hand`` (each card of the hand used once).

    >>> positions(["S3", "S5", "S5", "HA"], ["S5", "S5"])
    [1, 2]
    """
    used: set[int] = set()
    for c in cards:
        i = next((i for i, h in enumerate(hand) if h == c and i not in used), None)
        if i is not None:
            used.add(i)
    return sorted(used)


def declared_text(state: dict[str, Any], lang: str) -> str | None:
    """Every declaration of the hand, in order."""
    view = state.get("view") or {}
    decls = view.get("declarations") or []
    if not decls:
        return t("table.no_declaration", lang) if view.get("phase") in DECLARING_PHASES else None
    items = [f"{who(state, d['seat'], lang)} {pretty(d['cards'], lang)}" for d in decls]
    return t("table.declared", lang, list=" · ".join(items))


def status_lines(state: dict[str, Any], lang: str) -> tuple[str, str]:
    """Two lines: the hand (phase, level, trump, banker, points), then the match (levels
    of both teams) and the connection."""
    view = state.get("view") or {}
    room = state.get("room") or {}
    if not view:
        line1 = t("phase.lobby", lang)
        preset = str(room.get("preset") or "")
        line1 += " · " + t(f"preset.{preset}", lang) if preset else ""
        return line1, _online_text(state, lang)
    banker = view.get("banker")
    pts = int(view.get("collector_points") or 0) + int(view.get("penalties") or 0)
    trump = view.get("trump")
    parts = [
        t(f"phase.{view['phase']}", lang),
        t("status.hand", lang, n=int(view.get("hand_number", 0)) + 1),
        t("status.level", lang, level=view["level"]),
        trump_phrase(trump, lang),
        t("status.banker", lang, who="?" if banker is None else who(state, banker, lang)),
    ]
    if view["phase"] in ("play", "hand_over", "match_over") or pts:
        parts.append(t("status.points", lang, points=pts))
    online = _online_text(state, lang)
    if friends_on(state):
        line2 = calls_line(state, lang) + " · " + levels_line(state, lang)
        return " · ".join(parts), line2 + (" · " + online if online else "")
    levels = view.get("levels") or ["?", "?"]
    me = my_seat(state)
    first = 0 if me is None else me % 2
    line2 = t(
        "status.levels",
        lang,
        a=team_label(state, first, lang),
        la=levels[first],
        b=team_label(state, 1 - first, lang),
        lb=levels[1 - first],
    )
    return " · ".join(parts), line2 + (" · " + online if online else "")


def cells(text: str) -> int:
    """Terminal cells a line takes (wide CJK characters take two).

    >>> cells("级: 都打2")
    9
    """
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap_items(line: str, width: int) -> list[str]:
    """A ``·``-separated line in rows of at most ``width`` cells, broken only between
    items (an item longer than a row gets a row of its own).

    >>> wrap_items("phase · hand 1 · level 2", 16)
    ['phase · hand 1', 'level 2']
    """
    rows: list[str] = []
    for item in line.split(" · "):
        if rows and cells(rows[-1]) + 3 + cells(item) <= width:
            rows[-1] += " · " + item
        else:
            rows.append(item)
    return rows


def status_rows(state: dict[str, Any], lang: str, width: int) -> list[str]:
    """:func:`status_lines` in rows of at most ``width`` cells; at 找朋友 tables the calls
    and the levels share the second line when it fits, else each starts a row."""
    line1, line2 = status_lines(state, lang)
    rows = wrap_items(line1, width)
    if not (friends_on(state) and state.get("view")) or cells(line2) <= width:
        return rows + wrap_items(line2, width)
    online = _online_text(state, lang)
    levels = levels_line(state, lang) + (f" · {online}" if online else "")
    return rows + [
        row for part in (calls_line(state, lang), levels) for row in wrap_items(part, width)
    ]


def _online_text(state: dict[str, Any], lang: str) -> str:
    room = state.get("room") or {}
    out = []
    if my_seat(state) is None and state.get("you") is not None and room.get("id"):
        out.append(t("status.watching", lang))
    if room.get("paused"):
        out.append(t("status.paused", lang))
    return " · ".join(out)


def clock_text(state: dict[str, Any], lang: str, skew: float, now: float) -> str | None:
    """The running turn timer (``right: 12s left``), from ``room.deadlines``."""
    room = state.get("room") or {}
    deadlines = room.get("deadlines") or []
    over = (state.get("view") or {}).get("phase") == "hand_over"
    for seat, d in enumerate(deadlines):
        if d:
            left = max(0, int(d - (now - skew)))
            if over:  # the countdown to the next hand, the same for everyone waited for
                return t("status.next_clock", lang, s=left)
            return t("status.clock", lang, who=who(state, seat, lang), s=left)
    return None


def prompt(state: dict[str, Any], lang: str, keys: bool = False) -> str:
    """What the client may do now: key presses (``keys``, the app) or commands (plain)."""
    view = state.get("view") or {}
    room = state.get("room") or {}
    me = my_seat(state)
    phase = view.get("phase")
    if not view:
        return lobby_prompt(state, lang, keys)
    if phase == "match_over":
        return t("sheet.over", lang, result=result_text(state, lang))
    if me is None:
        return t("prompt.watching", lang)
    if phase == "hand_over":
        if my_turn(state):
            return t("prompt.next" if keys else "plain.next", lang)
        held = room.get("reviewing") or []
        waiting = [who(state, s, lang) for s in room.get("waiting") or [] if s not in held]
        waiting += [t("prompt.reviewing", lang, who=who(state, s, lang)) for s in held]
        return t("prompt.wait_next", lang, who=", ".join(waiting) or "…")
    if phase == "deal" and view.get("paced"):  # the deal does not wait: show at any moment
        shows = state.get("shows") or []
        where = {"n": view.get("dealt", 0), "total": view.get("deal_total", "?")}
        if not shows:
            return t("prompt.dealing", lang, level=view.get("level", ""), **where)
        listed = " / ".join(pretty(s, lang) for s in shows)
        key = "prompt.deal_show" if keys else "plain.deal_show"
        return t(key, lang, shows=listed, example=shows[0], **where)
    if not my_turn(state):
        return t("prompt.wait", lang, who=who(state, view.get("to_act"), lang))
    if phase in DECLARING_PHASES:
        if keys:
            return t("prompt.declare", lang)
        shows = state.get("shows") or []
        if not shows:
            return t("plain.declare_none", lang)
        opts = "  ".join(f"{i + 1}) {pretty(s, lang)}" for i, s in enumerate(shows))
        return t("plain.declare", lang, options=opts)
    hand = str(view.get("hand") or "").split()
    if phase == "call":
        if keys:
            return t("prompt.call", lang)
        return t("plain.call", lang, example=_example(state, hand, "calls"))
    if phase == "bury":
        rules = options_of(state)
        decks = int((room.get("options") or {}).get("decks", 2))
        n = rules.kitty_size if rules else kitty_size(decks)
        if keys:
            return t("prompt.bury", lang, n=n)
        return t("plain.bury", lang, n=n, example=" ".join(hand[-n:]))
    if keys:
        return t("prompt.play", lang)
    return t("plain.play", lang, example=_example(state, hand))


def _example(state: dict[str, Any], hand: Sequence[str], key: str = "cards") -> str:
    """A legal play (or friend calls) to show as the example (the plainest one)."""
    try:
        return str(choose_action(state)[key])
    except (ShengjiError, KeyError, TypeError, ValueError, StopIteration, IndexError):
        return "SA:1" if key == "calls" else hand[-1] if hand else "S3"


def lobby_prompt(state: dict[str, Any], lang: str, keys: bool) -> str:
    """What to do in the lobby."""
    you = state.get("you") or {}
    if my_seat(state) is None:
        return t("prompt.watching", lang)
    if you.get("host"):
        return t("lobby.keys_host" if keys else "plain.lobby_host", lang)
    return t("lobby.keys" if keys else "plain.lobby", lang)


def lobby_lines(state: dict[str, Any], lang: str, link: str | None) -> list[str]:
    """The lobby: the room, the invite link and who sits where."""
    room = state.get("room") or {}
    preset = str(room.get("preset") or "")
    rid = str(room.get("id") or "")
    lines = [
        t(
            "lobby.title",
            lang,
            id=rid[:8] + ("…" if len(rid) > 8 else ""),
            preset=t(f"preset.{preset}", lang),
        )
    ]
    if link:
        lines.append(t("lobby.link", lang, url=link))
    changed = overrides_text(room.get("overrides") or {}, lang)
    lines.append(t("lobby.rules", lang, rules=changed) if changed else t("lobby.no_changes", lang))
    secs = room.get("turn_seconds") or 0
    timer = t("lobby.timer", lang, s=round(secs)) if secs else t("lobby.no_timer", lang)
    hints = t("lobby.no_hints", lang) if room.get("hints") is False else ""
    lines.append(timer + (f" · {hints}" if hints else ""))
    if room.get("paced") and room.get("deal_seconds"):  # the deal runs by itself
        pace = t("lobby.pace", lang, s=f"{float(room['deal_seconds']):g}")
        if room.get("declare_seconds"):  # the turn timer, when shorter, caps it
            show = min(float(room["declare_seconds"]), secs or float("inf"))
            pace += " · " + t("lobby.declare", lang, s=round(show))
        lines.append(pace)
    seats = room.get("seats") or []
    host = room.get("host_seat")
    me = my_seat(state)
    for i, s in enumerate(seats):
        mark = "▶" if i == me else " "
        if s.get("kind") == "empty":
            desc = t("lobby.empty", lang)
        else:
            desc = seat_name(state, i, lang)
            flags = []
            if s.get("kind") == "human":
                flags.append(t("lobby.ready" if s.get("ready") else "lobby.not_ready", lang))
                if not s.get("connected", True):
                    flags.append(t("lobby.offline", lang))
            if i == host:
                flags.append(t("lobby.host", lang))
            if flags:
                desc += " (" + ", ".join(flags) + ")"
        team = team_label(state, i % 2, lang) if me is not None and not friends_on(state) else ""
        lines.append(f"{mark} {t('seat.n', lang, n=i)}: {desc}" + (f"  [{team}]" if team else ""))
    if room.get("spectators"):
        lines.append(t("lobby.spectators", lang, n=room["spectators"]))
    empty = any(s.get("kind") == "empty" for s in seats)
    unready = any(s.get("kind") == "human" and not s.get("ready") for s in seats)
    if empty or unready:
        need = [t("lobby.need_seats", lang)] if empty else []
        need += [t("lobby.need_ready", lang)] if unready else []
        lines.append(t("lobby.waiting", lang, what=", ".join(need)))
    else:
        lines.append(t("lobby.can_start", lang))
    return lines


def describe(state: dict[str, Any], lang: str) -> list[str]:
    """The table as lines of text (the plain mode's ``look``)."""
    view = state.get("view")
    if not view:
        return [*lobby_lines(state, lang, None), prompt(state, lang)]
    s1, s2 = status_lines(state, lang)
    lines = [s1, s2]
    for extra in (declared_text(state, lang), last_trick_text(state, lang)):
        if extra:
            lines.append(extra)
    trick = trick_text(state, lang)
    if trick:
        lines.append(trick)
    if view.get("kitty"):
        lines.append(t("table.kitty", lang, cards=pretty(view["kitty"], lang)))
    if view["phase"] in ("hand_over", "match_over") and view.get("score_sheet"):
        lines.append(explain_text(state, view["score_sheet"][-1], lang))
    me = my_seat(state)
    if me is not None:
        lines.append(t("plain.you", lang, cards=pretty(view.get("hand", ""), lang)))
    lines.append(prompt(state, lang))
    return lines


def action_text(action: dict[str, Any], lang: str) -> str:
    """A protocol action in words: ``play ♠10 ♠10``."""
    kind = str(action.get("type"))
    cards = pretty(str(action.get("cards") or ""), lang)
    return t(
        f"action.{kind}", lang, cards=cards, calls=calls_text(str(action.get("calls") or ""), lang)
    )


def hint_text(hint: Any, online: bool, lang: str) -> str:
    """A session's :meth:`~shengji.tui.session.Session.hint` in words: the action and
    why, the server's refusal, or why there is none."""
    if hint is None:
        return t("hint.local_only" if online else "hint.not_now", lang)
    if hasattr(hint, "say"):  # a Refusal
        return t("hint.refused", lang, text=hint.say(lang))
    action, why = hint
    if "±" in why:  # the search's figures: what they count
        why += t("hint.gain", lang)
    return t("hint.text", lang, action=action_text(action, lang), why=why or "—")
