"""Hints: what the strongest bot would do for the seat to act, and why, in both languages.

The web table, the terminal client and ``shengji hint RECORD --at N`` all ask here, so a
hint seen at a table can be reproduced from the match's record:

>>> from shengji.game import new_match
>>> from shengji.rules.presets import load_preset
>>> from shengji.game.views import seat_view
>>> st = new_match(load_preset("shuangsheng"), seed=2)
>>> h = hint(seat_view(st, st.to_act), "search:50it", seed=1)
>>> h["action"]["type"] in ("declare", "pass"), " · " in h["text"]["en"]
(True, True)
"""

from __future__ import annotations

from typing import Any

from ..errors import Code, ShengjiError
from ..game.actions import action_to_json
from ..game.views import SeatView
from ..words.i18n import calls_text, cards_label, t
from .registry import hint_bot, make_player, reason_of

__all__ = ["hint", "hint_at"]


def hint(view: SeatView, spec: str | None = None, seed: int | None = None) -> dict[str, Any]:
    """The hint for the view's seat: ``{action, said, why, text}``, the last three
    ``{en, zh}``: the action in words, the reason, and the line a table shows
    (``hint: <said> · <why>``). ``spec`` names the bot (default: the
    strongest, on the table's hint time); ``seed`` its seed (default: the hand number)."""
    if view.seat is None or view.to_act != view.seat:
        raise ShengjiError("hints are for your own turn", code=Code.NOT_YOUR_TURN)
    bot = make_player(spec or hint_bot(), view.seat, view.hand_number if seed is None else seed)
    action = action_to_json(bot.act(view))
    reasons = reason_of(bot)
    said: dict[str, str] = {}
    text: dict[str, str] = {}
    for lang, reason in zip(("en", "zh"), reasons, strict=True):
        cards = cards_label(str(action.get("cards") or ""), lang)
        calls = calls_text(str(action.get("calls") or ""), lang)
        said[lang] = t(f"action.{action['type']}", lang, cards=cards, calls=calls)
        text[lang] = t("hint.text", lang, action=said[lang], why=reason or "—")
    why = dict(zip(("en", "zh"), reasons, strict=True))
    return {"action": action, "said": said, "why": why, "text": text}


def hint_at(
    record: dict[str, Any], at: int, spec: str | None = None, seed: int | None = None
) -> dict[str, Any]:
    """:func:`hint` for the seat to act after the first ``at`` actions of a record
    (``BAD_RECORD`` when ``at`` is outside it; ``NOT_YOUR_TURN`` when nobody acts then)."""
    from ..game.record import replay
    from ..game.views import seat_view

    actions = record.get("actions")
    if not isinstance(actions, list) or not 0 <= at <= len(actions):
        size = len(actions) if isinstance(actions, list) else 0
        raise ShengjiError(
            f"--at must be 0..{size}: the record holds {size} actions", code=Code.BAD_RECORD
        )
    st = replay({**record, "actions": actions[:at]})
    if st.to_act is None or st.phase in ("hand_over", "match_over"):
        raise ShengjiError(
            f"nobody decides after action {at} ({st.phase}): hints are for a seat's turn",
            code=Code.NOT_YOUR_TURN,
        )
    return hint(seat_view(st, st.to_act), spec, seed)
