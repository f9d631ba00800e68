"""Text descriptions of a client ``state`` (used by the plain mode and the app)."""

from __future__ import annotations

from typing import Any

from ..cards import kitty_size

SUITS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
PHASES = {
    "en": {
        "deal": "dealing",
        "before_kitty": "declaring",
        "bury": "burying the kitty",
        "after_burial": "counter-declaring",
        "play": "playing",
        "hand_over": "hand over",
        "match_over": "match over",
    },
    "zh": {
        "deal": "发牌",
        "before_kitty": "亮主",
        "bury": "扣底",
        "after_burial": "反主",
        "play": "出牌",
        "hand_over": "本局结束",
        "match_over": "比赛结束",
    },
}
WORDS = {
    "en": {
        "level": "level",
        "trump": "trump",
        "banker": "banker",
        "points": "collectors",
        "hand": "your hand",
        "trick": "trick",
        "last": "last trick",
        "you": "you",
        "turn": "your turn",
        "wait": "waiting for seat",
        "kitty": "kitty",
        "declare": "declare",
        "pass": "pass",
        "bury": "bury {n} cards",
        "play": "play cards",
        "next": "next hand",
        "nt": "no trump",
    },
    "zh": {
        "level": "打",
        "trump": "主",
        "banker": "庄家",
        "points": "闲家得分",
        "hand": "手牌",
        "trick": "本轮",
        "last": "上一轮",
        "you": "你",
        "turn": "轮到你",
        "wait": "等待",
        "kitty": "底牌",
        "declare": "亮主",
        "pass": "不亮",
        "bury": "扣{n}张底",
        "play": "出牌",
        "next": "下一局",
        "nt": "无主",
    },
}


def pretty(cards: str) -> str:
    """``S10 HJ BJ`` with suit symbols: ``♠10 ♥J BJ``."""
    out = []
    for c in cards.split():
        out.append(c if c in ("BJ", "LJ") else SUITS.get(c[0], c[0]) + c[1:])
    return " ".join(out)


def my_turn(state: dict[str, Any]) -> bool:
    """True when the client's seat must act (or may start the next hand)."""
    view = state.get("view") or {}
    return bool(view) and (
        view.get("to_act") == state["you"]["seat"] or view.get("phase") == "hand_over"
    )


KEYS = {
    "en": {
        "bury": "space selects, Enter buries",
        "play": "space selects, Enter plays",
        "next": "n: next hand",
    },
    "zh": {"bury": "空格选牌, 回车扣底", "play": "空格选牌, 回车出牌", "next": "n: 下一局"},
}


def prompt(state: dict[str, Any], lang: str, keys: bool = False) -> str:
    """What the client may do now, in words (``keys``: as key presses for the app)."""
    w = WORDS[lang]
    view = state["view"]
    phase = view["phase"]
    if phase == "match_over":
        return PHASES[lang]["match_over"]
    if phase == "hand_over":
        return KEYS[lang]["next"] if keys else f"{w['next']}: next"
    if not my_turn(state):
        return f"{w['wait']} {view['to_act']}"
    if phase in ("deal", "before_kitty", "after_burial"):
        shows = state.get("shows") or []
        opts = [f"{i + 1}) {w['declare']} {pretty(s)}" for i, s in enumerate(shows)]
        return f"{w['turn']}: " + "  ".join([*opts, f"{w['pass']}: pass"])
    if phase == "bury":
        n = kitty_size(state["room"]["options"]["decks"])
        how = KEYS[lang]["bury"] if keys else "bury CARDS"
        return f"{w['turn']}: {w['bury'].format(n=n)}: {how}"
    return f"{w['turn']}: {KEYS[lang]['play'] if keys else w['play'] + ': play CARDS'}"


def describe(state: dict[str, Any], lang: str) -> list[str]:
    """The table as lines of text."""
    w = WORDS[lang]
    view = state["view"]
    seat = state["you"]["seat"]
    trump = view["trump"]
    trump_text = "?" if trump is None else w["nt"] if trump == "NT" else SUITS[trump]
    lines = [
        f"[{PHASES[lang][view['phase']]}] {w['level']} {view['level']} · {w['trump']} {trump_text}"
        f" · {w['banker']} {view['banker'] if view['banker'] is not None else '?'}"
        f" · {w['points']} {view['collector_points']}"
        + (f" ({view['penalties']:+d})" if view["penalties"] else "")
    ]
    if view["trick"]:
        plays = "  ".join(f"{p['seat']}: {pretty(p['cards'])}" for p in view["trick"])
        lines.append(f"{w['trick']}: {plays}")
    elif view["tricks"] and view["phase"] == "play":
        last = view["tricks"][-1]
        plays = "  ".join(f"{p['seat']}: {pretty(p['cards'])}" for p in last["plays"])
        lines.append(f"{w['last']}: {plays} → {last['winner']}")
    if view.get("kitty"):
        lines.append(f"{w['kitty']}: {pretty(view['kitty'])}")
    if view["phase"] in ("hand_over", "match_over") and view["score_sheet"]:
        lines.append(view["score_sheet"][-1]["explain"][lang])
    if seat is not None:
        lines.append(f"{w['hand']} ({w['you']} = {seat}): {pretty(view.get('hand', ''))}")
    lines.append(prompt(state, lang))
    return lines
