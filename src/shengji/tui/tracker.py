"""The :class:`Tracker`: successive client states turned into lines about what happened
(who declared, every play, who won each trick, failed throws, the end of a hand), worded
by :mod:`shengji.tui.text`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..words.i18n import (
    call_text,
    calls_text,
    count_points,
    error_text,
    t,
    trump_phrase,
)
from .text import explain_text, my_seat, options_of, pretty, result_text, who

#: The phases that come after the kitty is buried.
_AFTER_BURIAL = ("call", "after_burial", "play", "hand_over", "match_over")


class Tracker:
    """What happened between two states, as lines: declarations, burials, every play,
    each trick's winner, failed throws, the end of a hand and of the match, chat."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.hand: int | None = None
        self.decls = 0
        self.plays = 0
        self.tricks = 0
        self.phase: str | None = None
        self.to_act: int | None = None
        self.chat = 0
        #: 找朋友: the calls told (made, and answered) in this hand.
        self.calls_told = False
        self.answered: set[int] = set()
        #: Whether the hand's burial was told.
        self.buried = False
        #: The failed throws seen by the last :meth:`update`, in words.
        self.throws: list[str] = []

    def update(self, state: dict[str, Any], chat: Sequence[dict[str, Any]] = ()) -> list[str]:
        """Lines for everything new in ``state`` (and ``chat``) since the last call."""
        lang = self.lang
        out: list[str] = []
        self.throws = []
        view = state.get("view")
        if view:
            if view.get("hand_number") != self.hand:
                self.hand = view.get("hand_number")
                self.decls = self.plays = self.tricks = 0
                self.calls_told = False
                self.answered = set()
                self.buried = view.get("phase") in _AFTER_BURIAL  # (joined after it)
                banker = view.get("banker")
                bank = (
                    t("note.hand_banker", lang, who=who(state, banker, lang))
                    if banker is not None
                    else ""
                )
                out.append(
                    t(
                        "note.hand",
                        lang,
                        n=int(self.hand or 0) + 1,
                        level=view["level"],
                        banker=bank,
                    )
                )
            out += self._declarations(state, view)
            phase = str(view.get("phase"))
            if self.phase == "bury" and phase != "bury" and self.to_act is not None:
                out.append(t("note.buried", lang, who=who(state, self.to_act, lang)))
                self.buried = True
            elif phase in _AFTER_BURIAL and not self.buried:  # buried between two looks
                out.append(t("note.buried", lang, who=who(state, view.get("banker"), lang)))
                self.buried = True
            out += self._calls(state, view, made=True)  # the calls come before the plays
            if phase == "play" and self.phase != "play" and not view.get("tricks"):
                mine = view.get("banker") == my_seat(state)
                out.append(
                    t(
                        "note.play_begins.you" if mine else "note.play_begins",
                        lang,
                        trump=trump_phrase(view.get("trump"), lang),
                        who=who(state, view.get("banker"), lang),
                    )
                )
            out += self._plays(state, view)
            out += self._calls(state, view, made=False)  # friends found by those tricks
            if phase in ("hand_over", "match_over") and self.phase not in (
                "hand_over",
                "match_over",
            ):
                if view.get("kitty"):
                    out.append(t("note.kitty", lang, cards=pretty(view["kitty"], lang)))
                if view.get("score_sheet"):
                    out.append(explain_text(state, view["score_sheet"][-1], lang))
            if phase == "match_over" and self.phase != "match_over":
                out.append(t("sheet.over", lang, result=result_text(state, lang)))
            self.phase = phase
            self.to_act = view.get("to_act")
        for line in list(chat)[self.chat :]:
            said = line.get("notice")
            if isinstance(said, dict):  # what the table did by itself, kept in the log
                out.append(f"⚑ {said.get(lang) or said.get('en', '')}")
                continue
            seat = line.get("seat")
            name = who(state, seat, lang) if isinstance(seat, int) else str(line.get("name") or "?")
            key = (
                "note.chat.you" if isinstance(seat, int) and seat == my_seat(state) else "note.chat"
            )
            out.append(t(key, lang, who=name, text=line.get("text", "")))
        self.chat = len(chat)
        return out

    def _calls(self, state: dict[str, Any], view: dict[str, Any], made: bool) -> list[str]:
        """找朋友: the banker's calls once made (``made``), or each friend found (or a
        call that found nobody new) once its trick is over."""
        lang = self.lang
        calls = view.get("calls") or []
        out: list[str] = []
        banker = view.get("banker")
        if made:
            if calls and not self.calls_told:
                self.calls_told = True
                listed = calls_text([str(c["call"]) for c in calls], lang)
                key = "note.calls.you" if banker == my_seat(state) else "note.calls"
                out.append(t(key, lang, who=who(state, banker, lang), calls=listed))
            return out
        for i, c in enumerate(calls):
            seat = c.get("seat")
            if seat is None or i in self.answered:
                continue
            self.answered.add(i)
            args = {
                "who": who(state, seat, lang),
                "call": call_text(str(c["call"]), lang),
                "banker": who(state, banker, lang),
            }
            earlier = [x.get("seat") for j, x in enumerate(calls) if j in self.answered and j != i]
            joined = seat != banker and seat not in earlier
            key = "note.friend" if joined else "note.no_friend"
            if joined and banker == my_seat(state):
                key = "note.friend.you"
            out.append(t(key, lang, **args))
        return out

    def _declarations(self, state: dict[str, Any], view: dict[str, Any]) -> list[str]:
        lang = self.lang
        decls = view.get("declarations") or []
        out = []
        for i in range(self.decls, len(decls)):
            d = decls[i]
            cards = str(d["cards"]).split()
            trump = "NT" if cards[0] in ("BJ", "LJ") else cards[0][0]
            args = {
                "who": who(state, d["seat"], lang),
                "cards": pretty(d["cards"], lang),
                "trump": trump_phrase(trump, lang),
            }
            key = "note.declare"
            if i > 0:
                prev = str(decls[i - 1]["cards"]).split()
                same = decls[i - 1]["seat"] == d["seat"] and prev[0] == cards[0]
                key = "note.reinforce" if same else "note.counter"
            if d["seat"] == my_seat(state):
                key += ".you"
            out.append(t(key, lang, **args))
        self.decls = len(decls)
        return out

    def _plays(self, state: dict[str, Any], view: dict[str, Any]) -> list[str]:
        lang = self.lang
        out = []
        events: list[tuple[str, Any]] = []
        for i, trick in enumerate(view.get("tricks") or []):
            events += [("play", p) for p in trick["plays"]]
            events.append(("trick", (i, trick)))
        events += [("play", p) for p in view.get("trick") or []]
        plays_seen = 0
        for kind, item in events:
            if kind == "play":
                plays_seen += 1
                if plays_seen <= self.plays:
                    continue
                out.append(
                    t(
                        "note.play",
                        lang,
                        who=who(state, item["seat"], lang),
                        cards=pretty(item["cards"], lang),
                    )
                )
                if item.get("attempted"):
                    text = throw_text(state, item, lang)
                    out.append(text)
                    self.throws.append(text)
            else:
                i, trick = item
                if i < self.tricks:
                    continue
                pts = f", {count_points(trick['points'], lang)}" if trick.get("points") else ""
                out.append(
                    t(
                        "note.trick",
                        lang,
                        n=i + 1,
                        who=who(state, trick["winner"], lang),
                        points=pts,
                    )
                )
        self.plays = plays_seen
        self.tricks = len(view.get("tricks") or [])
        return out


def throw_text(state: dict[str, Any], play: dict[str, Any], lang: str) -> str:
    """A failed throw in words: what was tried, who could beat which unit, what was
    played instead and the penalty."""
    opts = options_of(state)
    blocked = play.get("blocked_by")
    me = my_seat(state)
    params = {
        "attempted": play["attempted"],
        "played": play["cards"],
        "blocked_by": blocked,
        "blocker": who(state, blocked, lang) if blocked is not None else None,
        "penalty": play.get("penalty", 0),
        "stake": opts is not None and opts.throw_penalty == "stake",
        "who": t("you", lang) if play["seat"] == me else who(state, play["seat"], lang),
    }
    return error_text("THROW_FAILED", params, "", lang)
