"""The kernel's changes folded into a state: the automatic steps after an action (dealing
on, picking up the kitty, finishing a hand), each of the kernel match's moves turned
into a :class:`~shengji.game.state.GameState` and its events, and the kernel match kept
behind a state (attached, taken over by the next state, or rebuilt from the state when it
was pickled or copied)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel import access
from ..rules.cards import ALL_CARDS, Card, format_cards
from ..rules.declaring import (
    from_kernel,
    kernel_declare,
    start_state,
)
from ..rules.immutable import evolve
from ..rules.options import RuleOptions
from ..rules.phases import Phase
from ..rules.trump import trump_context

if TYPE_CHECKING:
    from ..engine.match import KMatch
    from ..kernel._core import KHand, KState
from .state import _KERNEL, Event, GameState


def _fresh_hand(options: RuleOptions, h: KHand) -> dict[str, Any]:
    """The hand fields of a state at the start of the kernel hand ``h`` (nothing dealt)."""
    declare = from_kernel(h.decl, _NO_SHOWS)
    return {
        "phase": "deal",
        "redeals": h.redeals,
        "start_seat": h.start_seat,
        "deck_order": tuple([ALL_CARDS[c] for c in h.deck]),
        "dealt": 0,
        "hands": ((),) * h.r.seats,
        "kitty": tuple([ALL_CARDS[c] for c in h.kitty]),
        "declare": declare,
        "ctx": trump_context(options, h.level, None),
        "level": h.level,
        "to_act": None,
        "window_order": (),
        "window_pos": 0,
        "passes": 0,
        "buried_by": (),
        "kitty_log": (),
        "calls": (),
        "leader": 0 if declare.banker is None else declare.banker,
        "trick": (),
        "lead": None,
        "tricks": (),
        "trick_points": 0,
        "penalties": 0,
        "stake_penalties": (0, 0),
    }


_NO_SHOWS = start_state(True, None)


_PHASES = access.PHASE_NAMES


_PHASE_NUMBERS: dict[Phase, int] = {v: k for k, v in _PHASES.items()} | {"match_over": 5}


_KITTY_MOVES = ("picked_up", "buried")


def _advance(st: GameState, m: KMatch, events: list[Event]) -> GameState:
    """Run the kernel's automatic steps (dealing, skipping seats with nothing to show,
    redeals and fallbacks) until a seat must decide, and fold them into ``st``."""
    core = _core()
    h = m.hand
    hands = list(st.hands)
    while h.to_act < 0 and h.phase in (core.PH_DEAL, core.PH_BEFORE_KITTY, core.PH_AFTER_BURIAL):
        if h.paced and h.phase == core.PH_DEAL:
            break  # the table deals on (Deal)
        dealing, dealt, declared = h.phase == core.PH_DEAL, h.dealt, h.decl.declared
        h.advance()
        if dealing:
            hands = _deal(hands, h, dealt)
            events.append({"type": "deal", "count": h.dealt})
        if not declared and h.decl.declared:  # nobody declared: a fallback set trump
            trump = from_kernel(h.decl, _NO_SHOWS).trump_text
            if h.turned < 0:
                events.append({"type": "no_declaration", "trump": trump})
            else:
                events.append(
                    {"type": "kitty_card", "card": ALL_CARDS[h.turned].text, "trump": trump}
                )
        if h.phase == core.PH_REDEAL:  # nobody declared, or a weak hand (with its trump)
            events.append({"type": "redeal", **({"weak": h.weak} if h.weak >= 0 else {})})
            m.redeal()
            h = m.hand
            st = evolve(st, **_fresh_hand(st.options, h))
            hands = list(st.hands)
    return _sync(st, m, hands, events)


def _deal(hands: list[tuple[Card, ...]], h: KHand, dealt: int) -> list[tuple[Card, ...]]:
    """``hands`` with the cards the kernel dealt since ``dealt`` (a hand dealt nothing
    stays the same object: views of it are kept while it is)."""
    n = len(hands)
    new: list[list[Card]] = [[] for _ in range(n)]
    deck_ = h.deck
    for i in range(dealt, h.dealt):
        new[(h.start_seat + i) % n].append(ALL_CARDS[deck_[i]])
    return [old + tuple(more) if more else old for old, more in zip(hands, new, strict=True)]


def _sync(
    st: GameState, m: KMatch, hands: list[tuple[Card, ...]], events: list[Event]
) -> GameState:
    """``st`` with the fields the kernel hand decides (phase, seat to act, windows, the
    declarations, kitty moves) taken from it; ``hands`` are the hands so far, before the
    kitty pick-ups not yet in ``st.kitty_log``."""
    h = m.hand
    opts = st.options
    log = h.kitty_log
    kitty_log = st.kitty_log
    if len(log) > 3 * len(kitty_log):
        cards = h.kitty_cards
        moves = list(kitty_log)
        for i in range(3 * len(kitty_log), len(log), 3):
            end = log[i + 5] if i + 5 < len(log) else len(cards)
            seat, kind = log[i], _KITTY_MOVES[log[i + 1]]
            moved = tuple([ALL_CARDS[c] for c in cards[log[i + 2] : end]])
            moves.append((seat, kind, moved))
            if kind == "picked_up":
                hands[seat] = hands[seat] + moved
                events.append(
                    {"type": "take_kitty", "seat": seat, "private": {seat: format_cards(moved)}}
                )
        kitty_log = tuple(moves)
    declare = from_kernel(h.decl, st.declare)
    if declare == st.declare:
        declare = st.declare
    phase = _PHASES[h.phase]
    core = _core()
    if h.phase == core.PH_PLAY:
        ks = h.play
        assert ks is not None
        leader = ks.leader
    elif h.phase in (core.PH_BURY, core.PH_AFTER_BURIAL, core.PH_CALL):
        leader = h.decl.banker
    else:
        leader = st.leader
    n = len(hands)
    ws = h.window_start
    kitty = st.kitty  # it changes size whenever it moves (taken, buried)
    if len(h.kitty) != len(kitty):
        kitty = tuple([ALL_CARDS[c] for c in h.kitty])
    ctx = st.ctx
    if ctx.trump != declare.trump:
        ctx = trump_context(opts, h.level, declare.trump)
    st = evolve(
        st,
        phase=phase,
        hands=tuple(hands),
        kitty=kitty,
        declare=declare,
        ctx=ctx,
        to_act=None if h.to_act < 0 else h.to_act,
        window_order=() if phase == "deal" else tuple([(ws + i) % n for i in range(n)]),
        window_pos=h.window_pos,
        passes=h.passes,
        dealt=h.dealt,
        buried_by=tuple(h.buried_by),
        kitty_log=kitty_log,
        leader=leader,
    )
    return _attach(st, m)


def _core() -> Any:
    return access.core()


def _attach(st: GameState, m: KMatch) -> GameState:
    st.__dict__[_KERNEL] = (id(st), m)
    return st


def _detach(st: GameState) -> None:
    st.__dict__.pop(_KERNEL, None)


def _kernel_of(st: GameState) -> KMatch:
    """The kernel match standing for ``st`` (kept by it, or rebuilt from its fields)."""
    hit = st.__dict__.get(_KERNEL)
    if hit is not None and hit[0] == id(st):
        return hit[1]  # type: ignore[no-any-return]
    m = _rebuild(st)
    _attach(st, m)
    return m


def _take_kernel(st: GameState) -> KMatch:
    """:func:`_kernel_of`, taken from ``st`` to be changed (``st`` rebuilds it if it is
    applied to again)."""
    m = _kernel_of(st)
    _detach(st)
    return m


def _rebuild(st: GameState) -> KMatch:
    """A kernel match in the position ``st`` describes."""
    from ..engine.match import KMatch

    core = _core()
    opts = st.options
    m = KMatch.resume(
        opts,
        st.seed,
        st.stacked,
        hand_number=st.hand_number,
        levels=st.levels,
        progress=st.progress,
        coins=st.coins,
        results=list(st.results),
        winner=st.winner,
        over=st.phase == "match_over",
        paced=st.paced,
    )
    d = st.declare
    h: KHand = core.KHand(
        m.rules,
        m.tables(st.level),
        st.level,
        [c.index for c in st.deck_order],
        st.start_seat,
        d.first_hand,
        -1 if d.banker is None else d.banker,
        st.redeals,
    )
    m.hand = h
    h.paced = st.paced
    h.phase = _PHASE_NUMBERS[st.phase]
    h.dealt = st.dealt
    for seat, cards in enumerate(st.hands):
        counts = h.hands[seat]
        for c in cards:
            counts[c.index] += 1
        h.sizes[seat] = len(cards)
    h.kitty = [c.index for c in st.kitty]
    kd = kernel_declare(d)
    for seat, cards in d.shows:
        kd.shows.extend((seat, cards[0].index, len(cards)))
    h.decl = kd
    h.to_act = -1 if st.to_act is None else st.to_act
    h.window_start = st.window_order[0] if st.window_order else st.start_seat
    h.window_pos = st.window_pos
    h.passes = st.passes
    h.buried_by = list(st.buried_by)
    for seat, kind, cards in st.kitty_log:
        h.kitty_log.extend((seat, _KITTY_MOVES.index(kind), len(h.kitty_cards)))
        h.kitty_cards.extend([c.index for c in cards])
    if st.phase in ("play", "hand_over", "match_over") and d.banker is not None:
        h.play = _play_state(st, h, m.team)
    return m


def _play_state(st: GameState, h: KHand, team: list[int]) -> KState:
    """The kernel's play state of ``st`` (sharing ``h``'s hands; seats on sides ``team``)."""
    from ..engine.rollout import restore_play

    banker = st.declare.banker
    assert banker is not None
    ks: KState = _core().KState(h.trump_tables, banker, st.leader, team)
    ks.hands = h.hands
    ks.sizes = h.sizes
    restore_play(ks, st)
    ks.done = st.phase != "play"
    return ks
