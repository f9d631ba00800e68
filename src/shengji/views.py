"""What a seat may know: the one redaction function every adapter uses.

:func:`observe` gives a seat its own hand, the public declarations, cards played, points,
its own burials and the kitty cards it picked up (the kitty becomes public only when the
hand is over), throw failures and the score sheet; a spectator (seat None) gets no hand.
:func:`redact_event` filters an event for a seat the same way.
"""

from __future__ import annotations

from typing import Any

from .cards import format_cards, rank_text
from .game import Event, GameState, HandResult


def observe(st: GameState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (0..3) or of a spectator (None), as JSON-ready data."""
    ctx = st.ctx
    view: dict[str, Any] = {
        "seat": seat,
        "phase": st.phase,
        "hand_number": st.hand_number,
        "levels": [rank_text(v) for v in st.levels],
        "level": rank_text(st.level),
        "trump": st.trump,
        "banker": st.banker,
        "to_act": st.to_act,
        "declarations": [{"seat": s, "cards": format_cards(c)} for s, c in st.declare.shows],
        "counters": st.declare.counters,
        "hand_sizes": [len(h) for h in st.hands],
        "dealt": st.dealt,
        "leader": st.leader,
        "trick": [{"seat": p.seat, "cards": format_cards(p.cards)} for p in st.trick],
        "tricks": [
            {
                "plays": [{"seat": p.seat, "cards": format_cards(p.cards)} for p in t.plays],
                "winner": t.winner,
                "points": t.points,
            }
            for t in st.tricks
        ],
        "throw_failures": [
            {
                "seat": p.seat,
                "attempted": format_cards(p.attempted),
                "played": format_cards(p.cards),
            }
            for t in (*st.tricks, None)
            for p in (t.plays if t else st.trick)
            if p.attempted
        ],
        "collector_points": st.trick_points,
        "penalties": st.penalties,
        "coins": list(st.coins),
        "score_sheet": [_result(r) for r in st.results],
        "winner": st.winner,
    }
    if seat is not None:
        view["hand"] = format_cards(ctx.sorted(st.hands[seat]))
        view["seen_kitty"] = [
            {"kind": kind, "cards": format_cards(cards)}
            for who, kind, cards in st.kitty_log
            if who == seat
        ]
    if st.phase in ("hand_over", "match_over") and st.results:
        view["kitty"] = format_cards(st.results[-1].kitty)
    return view


def _result(r: HandResult) -> dict[str, Any]:
    o = r.outcome
    return {
        "number": r.number,
        "banker": r.banker,
        "level": rank_text(r.level),
        "trump": r.trump,
        "points": r.points,
        "trick_points": r.trick_points,
        "kitty_points": r.kitty_points,
        "kitty_multiplier": r.kitty_multiplier,
        "penalties": r.penalties,
        "side": o.side,
        "gain": o.gain,
        "next_banker": o.next_banker,
        "levels_after": [rank_text(o.banker_level), rank_text(o.collector_level)],
        "coins": list(r.coins),
        "explain": {"en": o.explain("en"), "zh": o.explain("zh")},
    }


def redact_event(event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` may see it (private parts only for their owner)."""
    private = event.get("private")
    if private is None:
        return event
    out = {k: v for k, v in event.items() if k != "private"}
    if seat is not None and seat in private:
        out["cards"] = private[seat]
    return out
