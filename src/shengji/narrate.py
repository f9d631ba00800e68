"""Readable, bilingual narration of a match from its record (used by ``shengji replay``
and ``shengji demo``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .actions import Action
from .cards import format_cards, rank_text
from .friends import call_label, parse_calls
from .game import Event, GameState
from .record import replay


def _say(en: str, zh: str, lang: str) -> str:
    return en if lang == "en" else zh if lang == "zh" else f"{en} | {zh}"


def _event_line(st: GameState, ev: Event, lang: str) -> str | None:
    t = ev["type"]
    if t == "declare":
        verb, zh = ("counter-declares", "反主") if ev["counter"] else ("shows", "亮主")
        return _say(
            f"seat {ev['seat']} {verb} {ev['cards']} → trump {ev['trump']}",
            f"{ev['seat']}号位{zh} {ev['cards']} → 主 {ev['trump']}",
            lang,
        )
    if t == "kitty_card":
        return _say(
            f"nobody declared; kitty card {ev['card']} sets trump {ev['trump']}",
            f"无人亮主, 翻底牌 {ev['card']} 定主 {ev['trump']}",
            lang,
        )
    if t == "no_declaration":
        return _say("nobody declared: no trump", "无人亮主: 打无主", lang)
    if t == "redeal" and "weak" in ev:
        seat = ev["weak"]
        return _say(
            f"seat {seat}'s hand has no trump above the threshold: redeal",
            f"{seat}号位的牌没有够大的主: 重新发牌",
            lang,
        )
    if t == "redeal":
        return _say("nobody declared: redeal", "无人亮主: 重新发牌", lang)
    if t == "bury":
        return _say(f"seat {ev['seat']} buries the kitty", f"{ev['seat']}号位扣底", lang)
    if t == "call":
        calls = parse_calls(ev["calls"])
        return _say(
            f"seat {ev['seat']} calls friends: {', '.join(call_label(c, 'en') for c in calls)}",
            f"{ev['seat']}号位叫朋友: {'、'.join(call_label(c, 'zh') for c in calls)}",
            lang,
        )
    if t == "friend":
        (call,) = parse_calls(ev["call"])
        side = ", ".join(str(s) for s in ev["banker_side"])
        if ev["joined"]:
            return _say(
                f"seat {ev['seat']} played {call_label(call, 'en')}: a friend, joins the "
                f"banker's side (seats {side})",
                f"{ev['seat']}号位出了{call_label(call, 'zh')}: 是朋友, 加入庄家方 ({side}号位)",
                lang,
            )
        return _say(
            f"seat {ev['seat']} played {call_label(call, 'en')}, already on the banker's side: "
            "no friend found by this call",
            f"{ev['seat']}号位出了{call_label(call, 'zh')}, 本来就在庄家方: 这个朋友落空",
            lang,
        )
    if t == "throw_failed":
        cost_en = "pays half the stake" if ev["stake"] else f"penalty {ev['penalty']}"
        cost_zh = "罚半个底金" if ev["stake"] else f"罚 {ev['penalty']}"
        if not ev["stake"] and not ev["penalty"]:
            cost_en = cost_zh = ""
        return _say(
            f"seat {ev['seat']}'s throw {ev['attempted']} fails (seat {ev['blocked_by']} "
            f"beats it): plays {ev['played']}" + (f", {cost_en}" if cost_en else ""),
            f"{ev['seat']}号位甩牌 {ev['attempted']} 失败 ({ev['blocked_by']}号位管住): "
            f"出 {ev['played']}" + (f", {cost_zh}" if cost_zh else ""),
            lang,
        )
    if t == "trick":
        last = st.tricks[-1]
        plays = "  ".join(f"{p.seat}:{format_cards(p.cards)}" for p in last.plays)
        gain = ""
        if ev["points"]:
            side = (
                _say("collectors", "闲家", lang)
                if ev["collectors"]
                else _say("banker side", "庄家方", lang)
            )
            gain = f" ({side} {ev['points']})"
        return f"{len(st.tricks):>2}. {plays} → {ev['winner']}{gain}"
    if t == "hand_over":
        if ev["kitty_multiplier"]:
            kitty = _say(
                f"kitty {ev['kitty']}: collectors win the last trick, ×{ev['kitty_multiplier']}",
                f"底牌 {ev['kitty']}: 闲家扣底 ×{ev['kitty_multiplier']}",
                lang,
            )
        else:
            kitty = _say(
                f"kitty {ev['kitty']}: kept by the banker side",
                f"底牌 {ev['kitty']}: 庄家方保底",
                lang,
            )
        parts = [kitty]
        if lang in ("en", "both"):
            parts.append(ev["explain"]["en"])
        if lang in ("zh", "both"):
            parts.append(ev["explain"]["zh"])
        return "\n  ".join(parts)
    if t == "match_over":
        w = ev["winner"]
        if w is None:
            return _say("Match over: a draw.", "比赛结束: 平局。", lang)
        if st.options.friends:
            return _say(f"Match over: seat {w} wins.", f"比赛结束: {w}号位获胜。", lang)
        return _say(
            f"Match over: team {w} (seats {w} and {w + 2}) wins.",
            f"比赛结束: {w}队 ({w}号位和{w + 2}号位) 获胜。",
            lang,
        )
    return None


def narrate(rec: dict[str, Any], lang: str = "both") -> Iterator[str]:
    """Lines describing a record hand by hand and trick by trick (``en``, ``zh``, ``both``)."""
    rules = rec.get("rules")
    friends = isinstance(rules, dict) and bool(rules.get("friends"))
    if friends:
        seats = rules.get("players", 4)  # type: ignore[union-attr]
        teams = (
            f"{seats} players, 找朋友: the banker calls friends each hand",
            f"{seats} 人找朋友: 每局庄家叫朋友",
        )
    else:
        teams = (
            "team 0 = seats 0 and 2, team 1 = seats 1 and 3",
            "0队 = 0号位和2号位, 1队 = 1号位和3号位",
        )
    lines = [
        _say(
            f"Preset {rec.get('preset')}, seed {rec.get('seed')}; {teams[0]}",
            f"规则 {rec.get('preset')}, 种子 {rec.get('seed')}; {teams[1]}",
            lang,
        ),
        "",
        _say("Hand 1", "第1局", lang),
    ]
    started: set[int] = set()

    def step(st: GameState, seat: int | None, action: Action, events: list[Event]) -> None:
        for ev in events:
            if ev["type"] == "new_hand":
                n = ev["number"] + 1
                lines.append("")
                lines.append(_say(f"Hand {n}", f"第{n}局", lang))
                continue
            line = _event_line(st, ev, lang)
            if line:
                indent = "" if ev["type"] == "match_over" else "  "
                lines.append(indent + line)
        if st.phase == "play" and st.hand_number not in started:
            started.add(st.hand_number)
            lines.append(
                "  "
                + _say(
                    f"banker seat {st.banker}, level {rank_text(st.level)}, trump {st.trump}",
                    f"庄家 {st.banker}号位, 打{rank_text(st.level)}, 主 {st.trump}",
                    lang,
                )
            )

    final = replay(rec, step)
    lv = [rank_text(v) for v in final.levels]
    if final.options.friends:
        lines.append(
            _say(
                "Levels: " + ", ".join(f"seat {s} at {v}" for s, v in enumerate(lv)),
                "级别: " + ", ".join(f"{s}号位打{v}" for s, v in enumerate(lv)),
                lang,
            )
        )
        yield from lines
        return
    coins = f"; coins {final.coins[0]} : {final.coins[1]}" if any(final.coins) else ""
    coins_zh = f"; 金币 {final.coins[0]} : {final.coins[1]}" if any(final.coins) else ""
    lines.append(
        _say(
            f"Levels: team 0 at {lv[0]}, team 1 at {lv[1]}{coins}",
            f"级别: 0队打{lv[0]}, 1队打{lv[1]}{coins_zh}",
            lang,
        )
    )
    yield from lines
