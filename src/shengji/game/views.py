"""What a seat may know: :func:`seat_view` is the one redaction function every adapter
(bots, terminal, server, RL) uses.

A :class:`SeatView` holds the seat's own hand, the public declarations, the cards played,
points, the kitty cards this seat buried or picked up (the kitty becomes public only when
the hand is over), throw failures and the score sheet; a spectator (seat None) gets no
hand. It holds no reference to the game state, so a bot given a view cannot reach other
hands. :func:`observe` is the same view as JSON-ready data; :func:`redact_event` filters
an event for a seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from ..errors import Code, ShengjiError
from ..rules.cards import Card, deck, format_cards, rank_text
from ..rules.declaring import DeclareState
from ..rules.friends import CalledFriend
from ..rules.options import RuleOptions
from ..rules.phases import DECLARING_PHASES, Phase
from ..rules.tricks import trick_winner
from ..rules.trump import TrumpContext
from ..rules.units import Lead
from .state import Event, GameState, HandResult, TableFacts, Trick, TrickPlay


@dataclass(frozen=True, slots=True)
class SeatView(TableFacts):
    """Everything ``seat`` may know now (``seat`` None: a spectator)."""

    seat: int | None
    options: RuleOptions
    ctx: TrumpContext
    phase: Phase
    hand_number: int
    #: Levels by holder: per team, or per player (找朋友).
    levels: tuple[int, ...]
    level: int
    declare: DeclareState
    to_act: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    dealt: int
    leader: int
    trick: tuple[TrickPlay, ...]
    lead: Lead | None
    tricks: tuple[Trick, ...]
    trick_points: int
    penalties: int
    coins: tuple[int, int]
    results: tuple[HandResult, ...]
    kitty_seen: tuple[tuple[str, tuple[Card, ...]], ...]
    kitty: tuple[Card, ...] | None
    winner: int | None
    #: 找朋友: the banker's calls and who answered them (public).
    calls: tuple[CalledFriend, ...] = ()
    #: The deal runs by the table's clock: nobody is asked at the draws.
    paced: bool = False

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """This seat's own hand; any other seat's hand is not in the view."""
        if seat != self.seat:
            raise ShengjiError(f"seat {self.seat} cannot see seat {seat}'s hand", code=Code.HIDDEN)
        return self.hand

    def _winning(self, trick: tuple[TrickPlay, ...]) -> int:
        """The seat whose play wins ``trick`` so far (the same for every seat's view)."""
        return trick[trick_winner(self.ctx, [p.cards for p in trick], self.lead)].seat

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (cards as notation strings)."""
        return {"seat": self.seat, **self.table_json(), **self.own_json()}

    def own_json(self) -> dict[str, Any]:
        """The part of :meth:`to_json` that is this seat's own: its hand and the kitty
        cards it saw (a spectator: nothing)."""
        if self.seat is None:
            return {}
        return _own_json(self.ctx, self.hand, self.kitty_seen)

    def table_json(self, finished: bool = True) -> dict[str, Any]:
        """The part of :meth:`to_json` that every seat's view shares (all but ``seat``
        and :meth:`own_json`); without ``finished``, less the finished tricks and the
        score sheet (the longest part, which the server keeps encoded)."""
        view: dict[str, Any] = {
            "phase": self.phase,
            "hand_number": self.hand_number,
            "levels": [rank_text(v) for v in self.levels],
            "level": rank_text(self.level),
            "trump": self.trump,
            "banker": self.banker,
            "to_act": self.to_act,
            "declarations": [{"seat": s, "cards": format_cards(c)} for s, c in self.declare.shows],
            "players": len(self.hand_sizes),
            "counters": self.declare.counters,
            "hand_sizes": list(self.hand_sizes),
            "dealt": self.dealt,
            "deal_total": self.options.hand_size * len(self.hand_sizes),
            "paced": self.paced,
            "leader": self.leader,
            "trick": [_play_json(p) for p in self.trick],
            # the seat whose play wins the trick so far (the rules decide; clients mark it)
            "winning": _shared(self.trick, self._winning) if self.trick else None,
            # every card that is a trump now, so clients group and mark hands without rules
            "trumps": trump_cards(self.ctx),
            "collector_points": self.trick_points,
            "penalties": self.penalties,
            "coins": list(self.coins),
            "winner": self.winner,
        }
        if finished:
            view["tricks"] = [_trick_json(t) for t in self.tricks]
            view["score_sheet"] = [_shared(r, _result) for r in self.results]
        if self.options.friends:
            # the calls, who answered them, and each seat's side as far as it is known
            # (0 the banker's, 1 the collectors', None not yet known)
            view["calls"] = [{"call": c.call.text, "seat": c.seat} for c in self.calls]
            view["sides"] = [self.side_of(s) for s in range(len(self.hand_sizes))]
        if self.kitty is not None:
            view["kitty"] = format_cards(self.kitty)
        return view


def trump_cards(ctx: TrumpContext) -> str:
    """The cards (one deck's worth) that are trumps in ``ctx``, as notation."""
    return _shared(ctx, lambda ctx: format_cards(c for c in deck(1) if ctx.is_trump(c)))


T = TypeVar("T")
R = TypeVar("R")
_SHARED: dict[int, tuple[object, Any]] = {}


def _shared(value: T, build: Callable[[T], R]) -> R:
    """``build(value)`` for an immutable ``value``, built once and shared by every view
    that shows it (finished tricks and hand results are in every later view)."""
    hit = _SHARED.get(id(value))
    if hit is None or hit[0] is not value:
        if len(_SHARED) > 65_536:
            _SHARED.clear()
        hit = _SHARED[id(value)] = (value, build(value))
    return cast(R, hit[1])


def _trick_json(t: Trick) -> dict[str, Any]:
    return _shared(
        t,
        lambda t: {
            "plays": [_play_json(p) for p in t.plays],
            "winner": t.winner,
            "points": t.points,
        },
    )


def _play_json(p: TrickPlay) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": p.seat, "cards": format_cards(p.cards)}
    if p.attempted:
        out["attempted"] = format_cards(p.attempted)
        out["blocked_by"] = p.blocked_by
        out["penalty"] = p.penalty
    return out


def seat_view(st: GameState, seat: int | None) -> SeatView:
    """The view of ``seat`` or of a spectator (None): the redaction function."""
    over = st.phase in ("hand_over", "match_over") and bool(st.results)
    return SeatView(
        seat=seat,
        options=st.options,
        ctx=st.ctx,
        phase=st.phase,
        hand_number=st.hand_number,
        levels=st.levels,
        level=st.level,
        declare=st.declare,
        to_act=st.to_act,
        hand=st.hands[seat] if seat is not None else (),
        hand_sizes=tuple(len(h) for h in st.hands),
        dealt=st.dealt,
        leader=st.leader,
        trick=st.trick,
        lead=st.lead,
        tricks=st.tricks,
        trick_points=st.trick_points,
        penalties=st.penalties,
        coins=st.coins,
        results=st.results,
        kitty_seen=tuple((kind, cards) for who, kind, cards in st.kitty_log if who == seat),
        kitty=st.results[-1].kitty if over else None,
        winner=st.winner,
        calls=st.calls,
        paced=st.paced,
    )


def observe(st: GameState, seat: int | None) -> dict[str, Any]:
    """:func:`seat_view` as JSON-ready data. Parts that never change (finished tricks,
    hand results) are shared between calls: copy before changing them."""
    return seat_view(st, seat).to_json()


def table_view(st: GameState, finished: bool = True) -> dict[str, Any]:
    """The part of ``observe(st, seat)`` that is the same for every seat and spectator:
    ``observe(st, seat) == {"seat": seat, **table_view(st), **own_view(st, seat)}``.
    Built once, it serves a whole table's views (the server broadcasts it so); without
    ``finished``, less ``tricks`` and ``score_sheet``."""
    return seat_view(st, None).table_json(finished)


def own_view(st: GameState, seat: int | None) -> dict[str, Any]:
    """The part of ``observe(st, seat)`` that only ``seat`` sees (see :func:`table_view`)."""
    if seat is None:
        return {}
    seen = tuple((kind, cards) for who, kind, cards in st.kitty_log if who == seat)
    return _own_json(st.ctx, st.hands[seat], seen)


_HANDS: dict[tuple[int, int], tuple[TrumpContext, tuple[Card, ...], str]] = {}


def _own_json(
    ctx: TrumpContext,
    hand: tuple[Card, ...],
    seen: tuple[tuple[str, tuple[Card, ...]], ...],
) -> dict[str, Any]:
    # a hand is shown after every action but changes only when its seat plays: its
    # sorted notation is kept while the same hand and trump context are in use
    hit = _HANDS.get((id(ctx), id(hand)))
    if hit is None or hit[0] is not ctx or hit[1] is not hand:
        if len(_HANDS) > 65_536:
            _HANDS.clear()
        hit = _HANDS[id(ctx), id(hand)] = (ctx, hand, format_cards(ctx.sorted(hand)))
    return {
        "hand": hit[2],
        "seen_kitty": [{"kind": kind, "cards": format_cards(cards)} for kind, cards in seen],
    }


def legal_show_texts(st: GameState, seat: int | None) -> list[str] | None:
    """The declarations ``seat`` may make now, as notation: during the deal for every
    seat (any seat shows at any moment of it; the list may be empty), later when it is
    its turn to declare (else None)."""
    if seat is None or st.phase not in DECLARING_PHASES:
        return None
    if st.phase != "deal" and st.to_act != seat:
        return None
    from .legal import legal_shows  # here: the server asks at every broadcast

    return [" ".join(c.text for c in s) for s in legal_shows(st, seat)]


def seat_message(st: GameState, seat: int | None) -> dict[str, Any]:
    """The game part of a client ``state`` message: the seat's ``view`` and the ``shows``
    it may make (during the deal always, later when it is its turn to declare)."""
    out: dict[str, Any] = {"view": observe(st, seat)}
    if (shows := legal_show_texts(st, seat)) is not None:
        out["shows"] = shows
    return out


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
        "gain": o.moved,
        "next_banker": o.next_banker,
        "levels_after": [rank_text(o.banker_level), rank_text(o.collector_level)],
        "coins": list(r.coins),
        "explain": {"en": o.explain("en"), "zh": o.explain("zh")},
        "climbed": list(r.climbed),
    } | ({"banker_side": list(r.banker_side)} if r.banker_side else {})


def redact_event(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it (private parts only for their owner)."""
    private = event.get("private")
    if private is None:
        return event
    out = {k: v for k, v in event.items() if k != "private"}
    if seat is not None and seat in private:
        out["cards"] = private[seat]
    return out
