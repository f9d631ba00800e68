"""Readable, bilingual narration of a match from its record (used by ``shengji replay``
and ``shengji demo``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..rules.cards import format_cards, rank_text
from ..rules.friends import parse_calls
from ..words.i18n import call_label, cards_label, trump_label
from .actions import Action
from .record import replay
from .state import Event, GameState


def _say(en: str, zh: str, lang: str) -> str:
    return en if lang == "en" else zh if lang == "zh" else f"{en} | {zh}"


def seat_number(seat: int, lang: str) -> str:
    """A seat by its number: ``seat 3`` (``3号位``)."""
    return f"{seat}号位" if lang == "zh" else f"seat {seat}"


@dataclass(frozen=True)
class Words:
    """How a narration names seats (``name(seat, lang)``, by number unless told) and
    writes cards and trumps (the notation, ``S10``, or suit symbols, ``♠10``)."""

    name: Callable[[int, str], str] = seat_number
    symbols: bool = False

    def cards(self, text: str, lang: str) -> str:
        """Cards in this narration's writing."""
        return cards_label(text, lang) if self.symbols else text

    def trump(self, trump: str, lang: str) -> str:
        """A trump (``S``, ``NT``) in this narration's writing."""
        return trump_label(trump, lang) if self.symbols else trump

    def whose(self, seat: int) -> str:
        """A seat's (English possessive): ``seat 1's``, ``your``."""
        name = self.name(seat, "en")
        return "your" if name == "you" else f"{name}'s"


def _event_line(st: GameState, ev: Event, lang: str, w: Words) -> str | None:
    t = ev["type"]

    def en(seat: int) -> str:
        return w.name(seat, "en")

    def zh(seat: int) -> str:
        return w.name(seat, "zh")

    def cards(key: str, lang: str) -> str:
        return w.cards(str(ev[key]), lang)

    if t == "declare":
        verb, zhv = ("counter-declares", "反主") if ev["counter"] else ("shows", "亮主")
        seat = ev["seat"]
        return _say(
            f"{en(seat)} {verb} {cards('cards', 'en')} → trump {w.trump(ev['trump'], 'en')}",
            f"{zh(seat)}{zhv} {cards('cards', 'zh')} → 主 {w.trump(ev['trump'], 'zh')}",
            lang,
        )
    if t == "kitty_card":
        return _say(
            f"nobody declared; kitty card {cards('card', 'en')} sets trump "
            f"{w.trump(ev['trump'], 'en')}",
            f"无人亮主, 翻底牌 {cards('card', 'zh')} 定主 {w.trump(ev['trump'], 'zh')}",
            lang,
        )
    if t == "no_declaration":
        return _say("nobody declared: no trump", "无人亮主: 打无主", lang)
    if t == "redeal" and "weak" in ev:
        seat = ev["weak"]
        return _say(
            f"{w.whose(seat)} hand has no trump above the threshold: redeal",
            f"{zh(seat)}的牌没有够大的主: 重新发牌",
            lang,
        )
    if t == "redeal":
        return _say("nobody declared: redeal", "无人亮主: 重新发牌", lang)
    if t == "bury":
        return _say(f"{en(ev['seat'])} buries the kitty", f"{zh(ev['seat'])}扣底", lang)
    if t == "call":
        calls = parse_calls(ev["calls"])
        return _say(
            f"{en(ev['seat'])} calls friends: {', '.join(call_label(c, 'en') for c in calls)}",
            f"{zh(ev['seat'])}叫朋友: {'、'.join(call_label(c, 'zh') for c in calls)}",
            lang,
        )
    if t == "friend":
        (call,) = parse_calls(ev["call"])
        seat = ev["seat"]
        if ev["joined"]:
            side_en = ", ".join(en(s) for s in ev["banker_side"])
            side_zh = "、".join(zh(s) for s in ev["banker_side"])
            return _say(
                f"{en(seat)} played {call_label(call, 'en')}: a friend, joins the "
                f"banker's side ({side_en})",
                f"{zh(seat)}出了{call_label(call, 'zh')}: 是朋友, 加入庄家方 ({side_zh})",
                lang,
            )
        return _say(
            f"{en(seat)} played {call_label(call, 'en')}, already on the banker's side: "
            "no friend found by this call",
            f"{zh(seat)}出了{call_label(call, 'zh')}, 本来就在庄家方: 这个朋友落空",
            lang,
        )
    if t == "throw_failed":
        cost_en = "pays half the stake" if ev["stake"] else f"penalty {ev['penalty']}"
        cost_zh = "罚半个底金" if ev["stake"] else f"罚 {ev['penalty']}"
        if not ev["stake"] and not ev["penalty"]:
            cost_en = cost_zh = ""
        seat, by = ev["seat"], ev["blocked_by"]
        return _say(
            f"{w.whose(seat)} throw {cards('attempted', 'en')} fails ({en(by)} "
            f"beats it): plays {cards('played', 'en')}" + (f", {cost_en}" if cost_en else ""),
            f"{zh(seat)}甩牌 {cards('attempted', 'zh')} 失败 ({zh(by)}管住): "
            f"出 {cards('played', 'zh')}" + (f", {cost_zh}" if cost_zh else ""),
            lang,
        )
    if t == "trick":
        last = st.tricks[-1]
        one = "zh" if lang == "zh" else "en"
        if w.name is seat_number:
            plays = "  ".join(f"{p.seat}:{format_cards(p.cards)}" for p in last.plays)
            winner = str(ev["winner"])
        else:
            plays = "  ".join(
                f"{w.name(p.seat, one)} {w.cards(format_cards(p.cards), one)}" for p in last.plays
            )
            winner = w.name(ev["winner"], one)
        gain = ""
        if ev["points"]:
            side = (
                _say("collectors", "闲家", lang)
                if ev["collectors"]
                else _say("banker side", "庄家方", lang)
            )
            gain = f" ({side} {ev['points']})"
        return f"{len(st.tricks):>2}. {plays} → {winner}{gain}"
    if t == "hand_over":
        if ev["kitty_multiplier"]:
            kitty = _say(
                f"kitty {cards('kitty', 'en')}: collectors win the last trick, "
                f"×{ev['kitty_multiplier']}",
                f"底牌 {cards('kitty', 'zh')}: 闲家扣底 ×{ev['kitty_multiplier']}",
                lang,
            )
        else:
            kitty = _say(
                f"kitty {cards('kitty', 'en')}: kept by the banker side",
                f"底牌 {cards('kitty', 'zh')}: 庄家方保底",
                lang,
            )
        parts = [kitty]
        if lang in ("en", "both"):
            parts.append(_named(ev["explain"]["en"], "en", w, st.options.players))
        if lang in ("zh", "both"):
            parts.append(_named(ev["explain"]["zh"], "zh", w, st.options.players))
        return "\n  ".join(parts)
    if t == "match_over":
        win = ev["winner"]
        if win is None:
            return _say("Match over: a draw.", "比赛结束: 平局。", lang)
        if st.options.friends:
            return _say(f"Match over: {en(win)} wins.", f"比赛结束: {zh(win)}获胜。", lang)
        return _say(
            f"Match over: team {win} ({en(win)} and {en(win + 2)}) wins.",
            f"比赛结束: {win}队 ({zh(win)}和{zh(win + 2)}) 获胜。",
            lang,
        )
    return None


_SEAT_IN = {"en": re.compile(r"\bseat (\d+)"), "zh": re.compile(r"(\d+)号位")}


def _named(text: str, lang: str, w: Words, seats: int) -> str:
    """A hand's explanation (which names seats by number) with seats named as ``w`` does."""
    if w.name is seat_number:
        return text

    def name(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return w.name(seat, lang) if seat < seats else m.group(0)

    return _SEAT_IN[lang].sub(name, text)


def narrate(rec: dict[str, Any], lang: str = "both", words: Words | None = None) -> Iterator[str]:
    """Lines describing a record hand by hand and trick by trick (``en``, ``zh``, ``both``);
    ``words``: how seats are named and cards written (by default seat numbers and the
    notation)."""
    w = words or Words()
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
            line = _event_line(st, ev, lang, w)
            if line:
                indent = "" if ev["type"] == "match_over" else "  "
                lines.append(indent + line)
        if st.phase == "play" and st.hand_number not in started:
            started.add(st.hand_number)
            assert st.banker is not None and st.trump is not None  # (play has both)
            lines.append(
                "  "
                + _say(
                    f"banker {w.name(st.banker, 'en')}, level {rank_text(st.level)}, "
                    f"trump {w.trump(st.trump, 'en')}",
                    f"庄家 {w.name(st.banker, 'zh')}, 打{rank_text(st.level)}, "
                    f"主 {w.trump(st.trump, 'zh')}",
                    lang,
                )
            )

    final = replay(rec, step)
    lv = [rank_text(v) for v in final.levels]
    if final.options.friends:
        lines.append(
            _say(
                "Levels: " + ", ".join(f"{w.name(s, 'en')} at {v}" for s, v in enumerate(lv)),
                "级别: " + ", ".join(f"{w.name(s, 'zh')}打{v}" for s, v in enumerate(lv)),
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
