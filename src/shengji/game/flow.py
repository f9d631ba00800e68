"""The game state machine: deal → declare → kitty → (counter-declare) → play → result →
next hand, for whole matches under any preset.

One entry point, :func:`apply`, validates an action and returns the new state with the
events it produced, or raises a :class:`~shengji.errors.ShengjiError` (stable code, clear
message) and leaves the state untouched (states are immutable). :func:`legal_actions`
lists what a seat may do now. Dealing is seeded: the same seed gives the same game.

The flow is the kernel's (:class:`~shengji.engine.match.KMatch`: the deal with its shows,
the windows, burial, 炒底/反底, play, scoring, levels): this module checks and words each
action and hands it to the kernel; :mod:`shengji.game.fold` folds what the kernel did
into immutable states and events. The newest state of a line of play keeps its kernel
match, so applying actions one after another costs no rebuilding; applying to an older
state (a branch) rebuilds the kernel match from the state's fields.

>>> from shengji.rules.presets import load_preset
>>> st = new_match(load_preset("shuangsheng"), seed=3)
>>> st.phase, st.hand_number, len(st.hands[0]) > 0
('deal', 0, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ActionError, Code, PlayError
from ..rules.cards import ALL_CARDS, Card, deck, format_cards, rank_text
from ..rules.declaring import (
    check_show,
    from_kernel,
    refusal,
)
from ..rules.follow import check_follow
from ..rules.friends import CalledFriend, FriendCall, check_calls, format_calls
from ..rules.immutable import evolve
from ..rules.leads import check_lead
from ..rules.options import RuleOptions
from ..rules.phases import DECLARING_PHASES
from .actions import (
    Action,
    Bury,
    Call,
    Continue,
    Deal,
    Declare,
    Pass,
    Play,
    check_action,
)
from .fold import _advance, _attach, _core, _deal, _detach, _fresh_hand, _kernel_of, _take_kernel

if TYPE_CHECKING:
    from ..engine.match import KMatch
    from ..kernel._core import KState
from .state import Event, GameState, Trick, TrickPlay


def new_match(
    options: RuleOptions,
    seed: int,
    stacked: Sequence[Sequence[Card]] = (),
    *,
    paced: bool = False,
) -> GameState:
    """A new match: both teams at the start level, first hand dealt up to the first
    decision. ``stacked`` gives fixed deck orders (draw order, kitty last) for the first
    hands instead of seeded shuffles; see :func:`stack_deck`.

    The deal stops at each draw of a seat that could show, which shows or passes (bots,
    programs). With ``paced`` it asks nobody: the table deals on with :class:`Deal` as its
    clock says (a table of people) and every seat shows when it likes; in both, any seat
    may show at any moment of the deal."""
    size = 54 * options.decks
    full = sorted(c.index for c in deck(options.decks))
    for i, d in enumerate(stacked):
        if sorted(c.index for c in d) != full:
            raise ActionError(
                f"stacked deck {i} must hold exactly the {size} cards of {options.decks} deck(s)",
                code=Code.BAD_DECK,
            )
    from ..engine.match import KMatch  # not at import time: a Botzone turn may not need it

    m = KMatch(options, seed, stacked, paced=paced)
    st = GameState(
        options=options,
        seed=seed,
        paced=paced,
        levels=m.levels,
        progress=m.progress,
        coins=m.coins,
        hand_number=0,
        results=(),
        stacked=tuple(tuple(d) for d in stacked),
        **_fresh_hand(options, m.hand),
    )
    return _advance(st, m, [])


def stack_deck(
    hands: Sequence[Sequence[Card]], kitty: Sequence[Card], start_seat: int = 0
) -> tuple[Card, ...]:
    """The deck order that deals ``hands[s]`` to seat s (one card at a time from
    ``start_seat``, in the given order) and leaves ``kitty``."""
    n = len(hands[0])
    seats = len(hands)
    if any(len(h) != n for h in hands):
        raise ActionError("every stacked hand needs the same number of cards", code=Code.BAD_DECK)
    order = [hands[(start_seat + i) % seats][i // seats] for i in range(seats * n)]
    return (*order, *kitty)


def apply(st: GameState, seat: int | None, action: Action) -> tuple[GameState, list[Event]]:
    """Validate ``action`` by ``seat`` and return the new state and its events.

    Raises a ShengjiError with a stable code when the action is not allowed
    (``BAD_ACTION`` when it is not an action at all: a string, a dict); the given state is
    never changed. ``seat`` is None only for the table's own :class:`Deal`.
    """
    check_action(action)
    if isinstance(action, Deal):
        return _deal_on(st, seat, action.dealt)
    n = st.seats
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise ActionError(f"seat must be 0..{n - 1}, not {seat!r}", code=Code.BAD_SEAT)
    events: list[Event] = []
    if st.phase == "match_over":
        raise ActionError("the match is over", code=Code.MATCH_OVER)
    if st.phase == "hand_over":
        if not isinstance(action, Continue):
            raise ActionError(
                "the hand is over: only 'continue' starts the next one",
                params={"phase": st.phase},
            )
        m = _take_kernel(st)
        m.next_hand()
        banker = m.results[-1].outcome.next_banker
        events.append({"type": "new_hand", "number": m.hand_number, "banker": banker})
        st = evolve(st, hand_number=m.hand_number, **_fresh_hand(st.options, m.hand))
        return _advance(st, m, events), events
    if st.phase == "deal" and isinstance(action, Declare):  # asked or not
        return _declare(st, seat, action.cards, events), events
    if st.phase == "deal" and st.paced:
        raise ActionError(
            "the cards deal themselves: only a show is possible now, whenever you hold one",
            params={"phase": st.phase, "reason": "paced"},
        )
    if st.to_act != seat:
        who = "nobody" if st.to_act is None else f"seat {st.to_act}"
        raise ActionError(
            f"it is {who}'s turn, not seat {seat}'s",
            code=Code.NOT_YOUR_TURN,
            params={"to_act": st.to_act, "seat": seat},
        )
    if st.phase in DECLARING_PHASES:
        if isinstance(action, Declare):
            st = _declare(st, seat, action.cards, events)
        elif isinstance(action, Pass):
            m = _take_kernel(st)
            m.hand.pass_turn()
            events.append({"type": "pass", "seat": seat})
            st = _advance(st, m, events)
        else:
            raise ActionError(
                f"now is the time to declare or pass ({st.phase})", params={"phase": st.phase}
            )
    elif st.phase == "bury":
        if not isinstance(action, Bury):
            raise ActionError(
                "now is the time to bury the kitty (扣底)", params={"phase": st.phase}
            )
        st = _bury(st, seat, action.cards, events)
    elif st.phase == "call":
        if not isinstance(action, Call):
            raise ActionError(
                "now is the time to call friends (找朋友)", params={"phase": st.phase}
            )
        st = _call(st, seat, action.calls, events)
    elif st.phase == "play":
        if not isinstance(action, Play):
            raise ActionError("now is the time to play cards", params={"phase": st.phase})
        st = _play(st, seat, action.cards, events)
    return st, events


def _remove(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...]:
    """``hand`` less ``cards`` (which it holds)."""
    out = list(hand)
    for c in cards:
        out.remove(c)
    return tuple(out)


def _need_held(hand: Sequence[Card], cards: Sequence[Card]) -> None:
    """Raise CARDS_NOT_IN_HAND naming only the cards ``hand`` lacks."""
    missing = Counter(cards) - Counter(hand)
    if missing:
        text = format_cards(missing.elements())
        raise PlayError(
            f"not in your hand: {text}", code=Code.CARDS_NOT_IN_HAND, params={"cards": text}
        )


def _declare(st: GameState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> GameState:
    _need_held(st.hands[seat], cards)
    show = check_show(st.options, st.level, cards)
    m = _kernel_of(st)
    h = m.hand
    card, count = show.card.index, show.count
    why = h.show_error(seat, card, count)
    if why:
        raise refusal(st.options, why, st.phase, st.declare)  # type: ignore[arg-type]
    _detach(st)
    counters = h.decl.counters
    if st.phase == "deal":
        h.show_during_deal(seat, card, count)
    else:
        h.declare(card, count)
    declare = from_kernel(h.decl, st.declare)
    declare = evolve(declare, shows=(*st.declare.shows, (seat, tuple(cards))))
    events.append(
        {
            "type": "declare",
            "seat": seat,
            "cards": format_cards(cards),
            "trump": declare.trump_text,
            "banker": declare.banker,
            "counter": declare.counters > counters,
        }
    )
    return _advance(evolve(st, declare=declare), m, events)


def _deal_on(st: GameState, seat: int | None, dealt: int) -> tuple[GameState, list[Event]]:
    """The table deals on until ``dealt`` cards are out (a paced deal)."""
    total = len(st.deck_order) - len(st.kitty) if st.phase == "deal" else 0
    if seat is not None:
        raise ActionError(
            "the table deals, not a seat", params={"phase": st.phase, "reason": "table_deals"}
        )
    if not st.paced or st.phase != "deal":
        why = "the deal is over" if st.paced else "this deal is not paced: it deals on by itself"
        raise ActionError(why, params={"phase": st.phase, "reason": "no_deal"})
    if not st.dealt < dealt <= total:
        raise ActionError(
            f"deal on to {st.dealt + 1}..{total} cards, not {dealt}",
            params={"phase": st.phase, "reason": "deal_count", "dealt": st.dealt, "total": total},
        )
    m = _take_kernel(st)
    h = m.hand
    h.deal_to(dealt)
    events: list[Event] = [{"type": "deal", "count": dealt}]
    hands = _deal(list(st.hands), h, st.dealt)
    return _advance(evolve(st, hands=tuple(hands)), m, events), events


def _bury(st: GameState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> GameState:
    k = st.options.kitty_size
    if len(cards) != k:
        raise PlayError(
            f"bury exactly {k} cards, not {len(cards)}",
            code=Code.WRONG_CARD_COUNT,
            params={"need": k, "got": len(cards), "kind": "bury"},
        )
    _need_held(st.hands[seat], cards)
    m = _take_kernel(st)
    m.hand.bury([c.index for c in cards])
    hands = list(st.hands)
    hands[seat] = _remove(hands[seat], cards)
    events.append({"type": "bury", "seat": seat, "private": {seat: format_cards(cards)}})
    return _advance(evolve(st, hands=tuple(hands)), m, events)


def _call(
    st: GameState, seat: int, calls: tuple[FriendCall, ...], events: list[Event]
) -> GameState:
    check_calls(st.ctx, calls)
    m = _take_kernel(st)
    m.hand.call_friends([c.card.index for c in calls], [c.ordinal for c in calls])
    events.append({"type": "call", "seat": seat, "calls": format_calls(calls)})
    return _advance(evolve(st, calls=tuple([CalledFriend(c) for c in calls])), m, events)


def _play(st: GameState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> GameState:
    ctx = st.ctx
    hand = st.hands[seat]
    leading = not st.trick
    if leading:
        lead = check_lead(ctx, hand, cards)
    else:
        assert st.lead is not None
        check_follow(ctx, st.lead, hand, cards)
        lead = st.lead
    m = _take_kernel(st)
    ks = m.hand.play
    assert ks is not None
    ks.record = leading and len(lead.units) > 1  # a throw attempt: its check is recorded
    m.hand.play_cards([c.index for c in cards])
    changes: dict[str, Any] = {}
    play = TrickPlay(seat, cards)
    if ks.record:
        for e in ks.events:
            if e.kind == _core().EV_THROW_FAILED:
                play = _failed_throw(st, seat, cards, e, ks.blocked[-1], events)
                lead = check_lead(ctx, hand, play.cards)
                changes["penalties"] = ks.penalties
                changes["stake_penalties"] = (ks.stake_penalties[0], ks.stake_penalties[1])
        ks.events.clear()
    if leading:
        changes["lead"] = lead
        changes["leader"] = seat
    hands = list(st.hands)
    hands[seat] = _remove(hand, play.cards)
    trick = (*st.trick, play)
    events.append({"type": "play", "seat": seat, "cards": format_cards(play.cards)})
    if ks.plays:  # the trick goes on
        st = evolve(st, **changes, hands=tuple(hands), trick=trick, to_act=ks.to_act)
        return _attach(st, m)
    winner, pts = ks.last_winner, ks.last_points
    collectors = ks.team[winner] != ks.team[ks.banker]
    events.append({"type": "trick", "winner": winner, "points": pts, "collectors": collectors})
    if st.calls:
        changes["calls"] = _found(st, ks, events)
        changes["penalties"] = ks.penalties  # recounted for the sides as they now stand
    st = evolve(
        st,
        **changes,
        hands=tuple(hands),
        tricks=(*st.tricks, Trick(trick, winner, pts)),
        trick=(),
        lead=None,
        trick_points=ks.trick_points,
        to_act=winner,
        leader=winner,
    )
    if not ks.done:
        return _attach(st, m)
    return _finish_hand(st, m, events)


def _found(st: GameState, ks: KState, events: list[Event]) -> tuple[CalledFriend, ...]:
    """The calls once a trick is complete: the seats that played a called copy in it are
    found (events say who, and whether they joined or were already on the side)."""
    out = list(st.calls)
    side = {st.declare.banker, *st.friends_found}
    for i, c in enumerate(out):
        seat = ks.call_by[i]
        if c.seat is None and seat >= 0:
            out[i] = CalledFriend(c.call, seat)
            events.append(
                {
                    "type": "friend",
                    "seat": seat,
                    "call": c.call.text,
                    "joined": seat not in side,
                    "banker_side": [s for s in range(st.seats) if ks.team[s] == ks.team[ks.banker]],
                }
            )
            side.add(seat)
    return tuple(out)


def _failed_throw(
    st: GameState, seat: int, cards: tuple[Card, ...], e: Any, blocker: int, events: list[Event]
) -> TrickPlay:
    """The play a failed throw leaves in the trick (kernel event ``e``), and its event."""
    played = tuple([ALL_CARDS[c] for c in e.cards])
    stake = st.options.throw_penalty == "stake"
    events.append(
        {
            "type": "throw_failed",
            "seat": seat,
            "attempted": format_cards(cards),
            "played": format_cards(played),
            "blocked_by": e.blocked_by,
            "penalty": e.penalty,
            "stake": stake,
            "code": Code.THROW_FAILED,
        }
    )
    return TrickPlay(seat, played, cards, blocker, 0 if stake else e.penalty)


def _finish_hand(st: GameState, m: KMatch, events: list[Event]) -> GameState:
    result = m.finish_hand()
    outcome = result.outcome
    events.append(
        {
            "type": "hand_over",
            **({"banker_side": list(result.banker_side)} if result.banker_side else {}),
            "kitty": format_cards(result.kitty),
            "kitty_multiplier": result.kitty_multiplier,
            "points": result.points,
            "levels": [rank_text(v) for v in m.levels],
            "next_banker": outcome.next_banker,
            "winner": outcome.winner,
            "explain": {"en": outcome.explain("en"), "zh": outcome.explain("zh")},
        }
    )
    st = evolve(
        st,
        levels=m.levels,
        progress=m.progress,
        coins=m.coins,
        results=(*st.results, result),
        phase="match_over" if m.over else "hand_over",
        to_act=None,
        winner=m.winner,
    )
    if m.over:
        events.append({"type": "match_over", "winner": m.winner})
    return _attach(st, m)
