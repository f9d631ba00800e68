"""The oracle's game flow: deal → declare → kitty → (counter-declare) → (找朋友: call
friends) → play → result → next hand, on the oracle's rules (``tests/oracle``) and
``shengji.rules.declaring``; the states, actions, events and errors are the product's types
(``shengji.game``), so the two compare directly.

找朋友 (``friends``, docs/rules.md §4.16) is played here from the rule text, for 4 to 8
seats: its own kitty size, calls checked card by card, friends found by counting the
called copies in play order, the collectors' points recounted by side at each trick, and
every player's own level, the next banker and the match end (:mod:`oracle.friends`).

One entry point, :func:`apply`, validates an action and returns the new state with the
events it produced, or raises a :class:`~shengji.errors.ShengjiError` (stable code, clear
message) and leaves the state untouched (states are immutable). :func:`legal_actions`
lists what a seat may do now. Dealing is seeded: the same seed gives the same game.

A new 拖拉机 match starts dealing its first hand; the same seed deals the same cards:

>>> from shengji.rules.presets import load_preset as preset
>>> a, b = (new_match(preset("tuolaji"), seed=11) for _ in range(2))
>>> (a.phase, a.hand_number, a.hands == b.hands, a.levels)
('deal', 0, True, (2, 2))
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from shengji.errors import ActionError, Code, PlayError, ShengjiError
from shengji.game.actions import Action, Bury, Call, Continue, Deal, Declare, Pass, Play
from shengji.game.state import Event, GameState, HandResult, Table, Trick, TrickPlay
from shengji.rules.cards import Card, Suit, deck, format_cards, points, rank_text
from shengji.rules.declaring import DeclareState
from shengji.rules.friends import CalledFriend, FriendCall, format_calls
from shengji.rules.immutable import evolve
from shengji.rules.multisets import multiset_combinations
from shengji.rules.options import RuleOptions
from shengji.rules.phases import DECLARING_PHASES
from shengji.rules.shuffle import shuffled
from shengji.rules.trump import trump_context, trump_text

from . import friends
from .declaring import apply_show, flipped_state, start_state
from .follow import check_follow, legal_follows
from .leads import check_lead, unit_leads
from .scoring import (
    hand_stake,
    kitty_bonus,
    score_hand,
    settle_coins,
    team_standing,
)
from .throws import check_throw
from .tricks import trick_winner
from .units import Lead

# Redeals of one hand before falling back to no-trump (an unlucky first hand could loop).
_MAX_REDEALS = 20


# -- starting -------------------------------------------------------------------------------


def new_match(
    options: RuleOptions, seed: int, stacked: Sequence[Sequence[Card]] = (), *, paced: bool = False
) -> GameState:
    """A new match: both teams at the start level, first hand dealt up to the first
    decision. ``stacked`` gives fixed deck orders (draw order, kitty last) for the first
    hands instead of seeded shuffles; see :func:`stack_deck`. ``paced``: nobody is asked
    during the deal, which goes on only by the table's :class:`Deal` actions."""
    lvl = options.start_level
    holders = options.players if options.friends else 2
    size = 54 * options.decks
    for i, d in enumerate(stacked):
        if sorted(c.index for c in d) != sorted(c.index for c in deck(options.decks)):
            raise ActionError(
                f"stacked deck {i} must hold exactly the {size} cards of {options.decks} deck(s)",
                code=Code.BAD_DECK,
            )
    st = GameState(
        options=options,
        seed=seed,
        levels=(lvl,) * holders,
        progress=(0,) * holders,
        coins=(0, 0),
        hand_number=0,
        results=(),
        phase="deal",
        redeals=0,
        start_seat=0,
        deck_order=(),
        dealt=0,
        hands=((),) * options.players,
        kitty=(),
        declare=start_state(True, None),
        ctx=trump_context(options, lvl, None),
        level=lvl,
        to_act=None,
        stacked=tuple(tuple(d) for d in stacked),
        paced=paced,
    )
    return _advance(_start_hand(st, banker=None, level=lvl, redeals=0), [])


def _start_hand(st: GameState, banker: int | None, level: int, redeals: int) -> GameState:
    if st.hand_number < len(st.stacked) and redeals == 0:
        cards = list(st.stacked[st.hand_number])
    else:
        cards = shuffled(deck(st.options.decks), st.seed, st.hand_number, redeals)
    first = st.hand_number == 0
    start = 0 if banker is None else banker
    level = st.options.fixed_level or level
    n = st.options.players
    return evolve(
        st,
        phase="deal",
        redeals=redeals,
        start_seat=start,
        deck_order=tuple(cards),
        dealt=0,
        hands=((),) * n,
        kitty=tuple(cards[n * friends.hand_size(st.options) :]),
        declare=start_state(first, banker),
        ctx=trump_context(st.options, level, None),
        level=level,
        to_act=None,
        window_order=(),
        window_pos=0,
        passes=0,
        buried_by=(),
        kitty_log=(),
        calls=(),
        leader=0 if banker is None else banker,
        trick=(),
        lead=None,
        tricks=(),
        trick_points=0,
        penalties=0,
        stake_penalties=(0, 0),
    )


# -- queries ----------------------------------------------------------------------------------


def legal_shows(st: Table, seat: int, phase: str | None = None) -> list[tuple[Card, ...]]:
    """The oracle's shows open to ``seat`` now (§7): any number of copies of a level card
    or joker it holds (jokers at least two) that its ``declaring`` rules accept, fewest
    cards first, then by card."""
    when = st.phase if phase is None else phase
    if when not in DECLARING_PHASES:
        return []
    level = st.level
    held = Counter(c for c in st.hand_of(seat) if c.is_joker or c.rank == level)
    if not held:
        return []
    found = _accepted_shows(st.options, level, st.declare, seat, frozenset(held.items()), when)
    return list(found)


@lru_cache(maxsize=8192)
def _accepted_shows(
    options: RuleOptions,
    level: int,
    declare: DeclareState,
    seat: int,
    held: frozenset[tuple[Card, int]],
    when: str,
) -> tuple[tuple[Card, ...], ...]:
    """:func:`legal_shows` for the show cards ``held`` (card, copies), remembered: the
    deal asks again at every card dealt."""
    tries = [(card,) * k for card, copies in held for k in range(1, copies + 1)]
    tries.sort(key=lambda show: (len(show), show[0].index))
    return tuple(show for show in tries if _accepts(options, level, declare, seat, show, when))


def _accepts(
    options: RuleOptions,
    level: int,
    declare: DeclareState,
    seat: int,
    show: tuple[Card, ...],
    when: str,
) -> bool:
    """Whether the oracle's declaring takes ``show`` from ``seat`` now."""
    if show[0].is_joker and len(show) == 1:
        return False
    try:
        apply_show(options, level, declare, seat, show, when)  # type: ignore[arg-type]
    except ShengjiError:
        return False
    return True


def legal_actions(st: Table, seat: int) -> Iterator[Action]:
    """The oracle's actions open to ``seat``, one at a time (there can be millions of
    burials or void follows): the shows it may make and, when asked, ``Pass``; each
    distinct burial; each set of distinct calls; each legal follow, or each one-unit lead
    (throws are not listed; :func:`apply` judges one when it is tried)."""
    if st.phase == "match_over":
        return
    if st.phase == "hand_over":
        yield Continue()
        return
    asked = st.to_act == seat
    if st.phase in DECLARING_PHASES and (asked or st.phase == "deal"):
        # while the cards are dealt a show may come from anyone; only the asked one passes
        yield from (Declare(show) for show in legal_shows(st, seat))
        if asked:
            yield Pass()
    elif not asked:
        return
    elif st.phase == "bury":
        hand = st.ctx.sorted(st.hand_of(seat))
        for cards in multiset_combinations(hand, friends.kitty_size(st.options)):
            yield Bury(cards)
    elif st.phase == "call":
        opts, trump = st.options, st.declare.trump
        choices = [
            FriendCall(c, k)
            for c in deck(1)
            if friends.callable_card(c, st.level, trump, opts)
            for k in range(1, opts.decks + 1)
        ]
        for calls in itertools.combinations(choices, friends.calls_needed(opts)):
            yield Call(calls)
    else:
        yield from map(Play, _plays(st, seat))


def _plays(st: Table, seat: int) -> Iterator[tuple[Card, ...]]:
    """The legal follows to the trick's lead, or the one-unit leads of a new trick."""
    hand = st.hand_of(seat)
    if not st.trick:
        return unit_leads(st.ctx, hand)
    assert st.lead is not None
    return iter(legal_follows(st.ctx, st.lead, hand))


# -- applying -----------------------------------------------------------------------------


def apply(st: GameState, seat: int | None, action: Action) -> tuple[GameState, list[Event]]:
    """The oracle's step: ``seat`` (None only for the table's :class:`Deal`) takes
    ``action``. Returns the state it leads to and the events, or raises a ShengjiError
    with a stable code; ``st`` itself never changes."""
    if isinstance(action, Deal):
        return _table_deals(st, seat, action.dealt)
    count = st.options.players
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(count):
        raise ActionError(f"seat must be 0..{count - 1}, not {seat!r}", code=Code.BAD_SEAT)
    events: list[Event] = []
    after = _step(st, seat, action, events)
    return _advance(after, events), events


#: What each later phase waits for, and the words when something else comes.
_AWAITED: dict[str, tuple[type, str]] = {
    "bury": (Bury, "now is the time to bury the kitty (扣底)"),
    "call": (Call, "now is the time to call friends (找朋友)"),
    "play": (Play, "now is the time to play cards"),
}


def _step(st: GameState, seat: int, action: Action, events: list[Event]) -> GameState:
    """:func:`apply` for a seat's action, before the table moves on."""
    phase = st.phase
    if phase == "match_over":
        raise ActionError("the match is over", code=Code.MATCH_OVER)
    if phase == "hand_over":
        if isinstance(action, Continue):
            return _next_hand(st, events)
        words = "the hand is over: only 'continue' starts the next one"
        raise ActionError(words, params={"phase": phase})
    if phase == "deal":
        if isinstance(action, Declare):  # anyone may show while the cards are dealt
            return _show_while_dealing(st, seat, action.cards, events)
        if st.paced:
            words = "the cards deal themselves: only a show is possible now, whenever you hold one"
            raise ActionError(words, params={"phase": "deal", "reason": "paced"})
    turn = st.to_act
    if turn != seat:
        whose = "nobody's" if turn is None else f"seat {turn}'s"
        raise ActionError(
            f"it is {whose} turn, not seat {seat}'s",
            code=Code.NOT_YOUR_TURN,
            params={"seat": seat, "to_act": turn},
        )
    if phase in DECLARING_PHASES:
        if isinstance(action, Declare):
            return _declare(st, seat, action.cards, events)
        if isinstance(action, Pass):
            return _pass(st, seat, events)
        raise ActionError(f"now is the time to declare or pass ({phase})", params={"phase": phase})
    if phase not in _AWAITED:
        return st
    kind, words = _AWAITED[phase]
    if not isinstance(action, kind):
        raise ActionError(words, params={"phase": phase})
    if isinstance(action, Bury):
        return _bury(st, seat, action.cards, events)
    if isinstance(action, Call):
        return _call(st, seat, action.calls, events)
    assert isinstance(action, Play)
    return _play(st, seat, action.cards, events)


def _remove(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...]:
    """What is left of ``hand`` once one copy of each card of ``cards`` is taken out."""
    rest = list(hand)
    for card in cards:
        del rest[rest.index(card)]
    return tuple(rest)


def _need_held(hand: Sequence[Card], cards: Sequence[Card]) -> None:
    """A CARDS_NOT_IN_HAND PlayError naming the cards of ``cards`` that ``hand`` lacks."""
    short = Counter(cards)
    short.subtract(hand)
    lacking = [card for card, n in short.items() if n > 0 for _ in range(n)]
    if lacking:
        named = format_cards(lacking)
        raise PlayError(
            f"not in your hand: {named}", code=Code.CARDS_NOT_IN_HAND, params={"cards": named}
        )


def _declare(st: GameState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> GameState:
    _need_held(st.hands[seat], cards)
    phase = st.phase
    new = apply_show(st.options, st.level, st.declare, seat, cards, phase)  # type: ignore[arg-type]
    events.append(
        {
            "type": "declare",
            "seat": seat,
            "cards": format_cards(cards),
            "trump": new.trump_text,
            "banker": new.banker,
            "counter": new.counters > st.declare.counters,
        }
    )
    st = evolve(st, declare=new, passes=0, ctx=trump_context(st.options, st.level, new.trump))
    if phase == "deal":
        return evolve(st, to_act=None)
    if phase == "before_kitty":
        return _next_in_window(st)
    # after burial: the counter-declarer takes the kitty and buries again (炒底/反底)
    hands = list(st.hands)
    hands[seat] = hands[seat] + st.kitty
    events.append({"type": "take_kitty", "seat": seat, "private": {seat: format_cards(st.kitty)}})
    log = (*st.kitty_log, (seat, "picked_up", st.kitty))
    return evolve(st, hands=tuple(hands), kitty=(), phase="bury", to_act=seat, kitty_log=log)


def _show_while_dealing(
    st: GameState, seat: int, cards: tuple[Card, ...], events: list[Event]
) -> GameState:
    """A show during the deal, by the seat asked at its draw or by any other: the asked
    seat stays asked only while it still has something to show."""
    asked = st.to_act
    st = _declare(st, seat, cards, events)
    if asked is not None and asked != seat and legal_shows(st, asked):
        return evolve(st, to_act=asked)
    return st


def _table_deals(st: GameState, seat: int | None, upto: int) -> tuple[GameState, list[Event]]:
    """A paced deal goes on to ``upto`` cards."""
    if seat is not None:
        raise ActionError(
            "the table deals, not a seat", params={"phase": st.phase, "reason": "table_deals"}
        )
    if st.phase != "deal" or not st.paced:
        raise ActionError(
            "the deal is over" if st.paced else "this deal is not paced: it deals on by itself",
            params={"phase": st.phase, "reason": "no_deal"},
        )
    n = st.options.players
    total = n * friends.hand_size(st.options)
    if upto <= st.dealt or upto > total:
        raise ActionError(
            f"deal on to {st.dealt + 1}..{total} cards, not {upto}",
            params={"phase": "deal", "reason": "deal_count", "dealt": st.dealt, "total": total},
        )
    hands = [list(h) for h in st.hands]
    for i in range(st.dealt, upto):
        hands[(st.start_seat + i) % n].append(st.deck_order[i])
    st = evolve(st, hands=_dealt_hands(st.hands, hands), dealt=upto)
    events: list[Event] = [{"type": "deal", "count": upto}]
    if upto == total:
        order = tuple((st.start_seat + i) % n for i in range(n))
        st = evolve(st, phase="before_kitty", window_order=order, window_pos=0, passes=0)
    return _advance(st, events), events


def _pass(st: GameState, seat: int, events: list[Event]) -> GameState:
    events.append({"type": "pass", "seat": seat})
    if st.phase == "deal":
        return evolve(st, to_act=None)
    return _next_in_window(evolve(st, passes=st.passes + 1))


def _next_in_window(st: GameState) -> GameState:
    return evolve(st, window_pos=st.window_pos + 1, to_act=None)


def _bury(st: GameState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> GameState:
    size, got = friends.kitty_size(st.options), len(cards)
    if got != size:
        why = {"need": size, "got": got, "kind": "bury"}
        raise PlayError(
            f"bury exactly {size} cards, not {got}", code=Code.WRONG_CARD_COUNT, params=why
        )
    _need_held(st.hands[seat], cards)
    hands = list(st.hands)
    hands[seat] = _remove(hands[seat], cards)
    events.append({"type": "bury", "seat": seat, "private": {seat: format_cards(cards)}})
    st = evolve(
        st,
        hands=tuple(hands),
        kitty=tuple(cards),
        buried_by=(*st.buried_by, seat),
        kitty_log=(*st.kitty_log, (seat, "buried", tuple(cards))),
        to_act=None,
    )
    if len(st.buried_by) == 1:
        return _open_after_burial(st)
    return evolve(st, phase="after_burial", passes=0, window_pos=st.window_pos + 1)


def _open_after_burial(st: GameState) -> GameState:
    """The counter window after the banker buries (反主炒底 / 反底), if the rules have one."""
    style = st.options.declaring
    banker = st.banker
    assert banker is not None
    later = not st.declare.first_hand
    if (style in ("shuangsheng", "count", "ladder") and later) or style == "shuangkou":
        n = st.options.players
        order = tuple((banker + i) % n for i in range(n))
    else:
        return _after_kitty(st)
    return evolve(st, phase="after_burial", window_order=order, window_pos=0, passes=0)


def _after_kitty(st: GameState) -> GameState:
    """The kitty is settled: 找朋友's banker calls friends, otherwise play begins."""
    banker = st.banker
    assert banker is not None
    if st.options.friends:
        return evolve(st, phase="call", leader=banker, to_act=banker)
    return _begin_play(st)


def _call(
    st: GameState, seat: int, calls: tuple[FriendCall, ...], events: list[Event]
) -> GameState:
    friends.check_calls(st.options, st.level, st.declare.trump, calls)
    events.append({"type": "call", "seat": seat, "calls": format_calls(calls)})
    return _begin_play(evolve(st, calls=tuple(CalledFriend(c) for c in calls)))


def _begin_play(st: GameState) -> GameState:
    banker = st.banker
    assert banker is not None
    return evolve(st, phase="play", leader=banker, to_act=banker, trick=(), lead=None)


def _on_banker_side(st: GameState, seat: int) -> bool:
    """Whether ``seat`` is known to be on the banker's side: its partner's seat (fixed
    partnerships), or the banker and the friends found so far (找朋友)."""
    banker = st.banker
    assert banker is not None
    if st.options.friends:
        return seat in friends.banker_side(banker, st.calls)
    return seat % 2 == banker % 2


def _play(st: GameState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> GameState:
    ctx = st.ctx
    hand = st.hands[seat]
    attempted = None
    blocked_by = None
    penalty = 0
    changes: dict[str, Any] = {}
    if not st.trick:
        lead = check_lead(ctx, hand, cards)
        if len(lead.units) > 1:
            failed = False
            banker_side = _on_banker_side(st, seat)
            n = st.options.players
            others = [st.hands[(seat + i) % n] for i in range(1, n)]
            res = check_throw(ctx, lead, others, banker_side)
            if not res.valid:
                failed = True
                played = res.played
                first = res.beaten[0][1]
                blocker = next((i for u, i in res.beaten if u.cards == played), first)
                signed, stake = res.penalty, res.stake
            if failed:
                attempted = cards
                cards = played
                lead = check_lead(ctx, hand, cards)
                blocked_by = (seat + blocker) % n
                penalty = 0 if stake else signed
                events.append(
                    {
                        "type": "throw_failed",
                        "seat": seat,
                        "attempted": format_cards(attempted),
                        "played": format_cards(cards),
                        "blocked_by": (seat + first) % n,
                        "penalty": signed,
                        "stake": stake,
                        "code": Code.THROW_FAILED,
                    }
                )
                changes["penalties"] = st.penalties + signed
                if stake:
                    sp = list(st.stake_penalties)
                    sp[seat % 2] += 1
                    changes["stake_penalties"] = (sp[0], sp[1])
        changes["lead"] = lead
        changes["leader"] = seat
    else:
        assert st.lead is not None
        lead = st.lead
        check_follow(ctx, lead, hand, cards)
    hands = list(st.hands)
    hands[seat] = _remove(hand, cards)
    trick = (*st.trick, TrickPlay(seat, tuple(cards), attempted, blocked_by, penalty))
    events.append({"type": "play", "seat": seat, "cards": format_cards(cards)})
    changes["hands"] = tuple(hands)
    if len(trick) < st.options.players:
        changes["trick"] = trick
        changes["to_act"] = (seat + 1) % st.options.players
        return evolve(st, **changes)
    return _finish_trick(st, lead, trick, changes, events)


def _finish_trick(
    st: GameState,
    lead: Lead,
    plays: tuple[TrickPlay, ...],
    changes: dict[str, Any],
    events: list[Event],
) -> GameState:
    idx = trick_winner(st.ctx, [p.cards for p in plays], lead)
    winner = plays[idx].seat
    pts = sum([c.pts for p in plays for c in p.cards])
    trick = Trick(plays, winner, pts)
    if st.options.friends:
        return _finish_friends_trick(st, lead, trick, changes, events)
    collectors = not _on_banker_side(st, winner)
    events.append({"type": "trick", "winner": winner, "points": pts, "collectors": collectors})
    st = evolve(
        st,
        **changes,
        tricks=(*st.tricks, trick),
        trick=(),
        lead=None,
        trick_points=st.trick_points + (pts if collectors else 0),
        to_act=winner,
        leader=winner,
    )
    if not st.hands[0]:
        return _finish_hand(st, lead, trick, events)
    return st


def _finish_friends_trick(
    st: GameState, lead: Lead, trick: Trick, changes: dict[str, Any], events: list[Event]
) -> GameState:
    """找朋友: the players of called copies in this trick join the banker's side now that it
    is complete, bringing the points they took; the collectors' points are recounted."""
    banker = st.banker
    assert banker is not None
    found = friends.answered(st.calls, st.tricks, trick.plays)
    calls = list(st.calls)
    for i, seat in found:
        calls[i] = CalledFriend(calls[i].call, seat)
    side = friends.banker_side(banker, calls)
    events.append(
        {
            "type": "trick",
            "winner": trick.winner,
            "points": trick.points,
            "collectors": trick.winner not in side,
        }
    )
    if st.options.throw_penalty_side == "final":
        # every failed throw's points count for the thrower's side as it now stands
        changes["penalties"] = friends.penalties_for(tricks_with(st, trick), side)
    known = friends.banker_side(banker, st.calls)
    for i, seat in found:
        events.append(
            {
                "type": "friend",
                "seat": seat,
                "call": calls[i].call.text,
                "joined": seat not in known,
                "banker_side": sorted(side),
            }
        )
        known.add(seat)
    tricks = (*st.tricks, trick)
    st = evolve(
        st,
        **changes,
        calls=tuple(calls),
        tricks=tricks,
        trick=(),
        lead=None,
        trick_points=friends.collectors_points(tricks, side),
        to_act=trick.winner,
        leader=trick.winner,
    )
    if not st.hands[0]:
        return _finish_friends_hand(st, lead, trick, events)
    return st


def tricks_with(st: GameState, trick: Trick) -> tuple[Trick, ...]:
    """The hand's tricks with the one just complete."""
    return (*st.tricks, trick)


def _finish_friends_hand(st: GameState, lead: Lead, last: Trick, events: list[Event]) -> GameState:
    opts = st.options
    banker = st.banker
    assert banker is not None
    side = friends.banker_side(banker, st.calls)
    collectors_last = last.winner not in side
    mult, bonus = kitty_bonus(opts, lead, st.kitty) if collectors_last else (0, 0)
    total = st.trick_points + bonus + st.penalties
    if opts.level_table == "classic-1deck-45":
        total = st.trick_points - (last.points if collectors_last else 0) + st.penalties
    outcome, levels, progress, climbed, over, winner = friends.finish(
        opts, banker, side, total, collectors_last, st.levels, st.progress, st.hand_number
    )
    n = opts.players
    in_order = tuple(s for s in ((banker + i) % n for i in range(n)) if s in side)
    result = HandResult(
        number=st.hand_number,
        banker=banker,
        level=st.level,
        trump=trump_text(st.declare.trump),
        trick_points=st.trick_points,
        kitty_points=points(st.kitty),
        kitty_multiplier=mult,
        penalties=st.penalties,
        points=total,
        outcome=outcome,
        counters=st.declare.counters,
        stake=hand_stake(opts, st.declare.counters),
        coins=(0, 0),
        kitty=st.kitty,
        banker_side=in_order,
        climbed=climbed,
    )
    events.append(
        _hand_over_event(st, mult, total, levels, outcome, {"banker_side": list(in_order)})
    )
    st = evolve(
        st,
        levels=levels,
        progress=progress,
        results=(*st.results, result),
        phase="match_over" if over else "hand_over",
        to_act=None,
        winner=winner,
    )
    if over:
        events.append({"type": "match_over", "winner": winner})
    return st


def _finish_hand(st: GameState, lead: Lead, last: Trick, events: list[Event]) -> GameState:
    opts = st.options
    banker = st.banker
    assert banker is not None
    win_cards = next(p.cards for p in last.plays if p.seat == last.winner)
    team_levels = (st.levels[0], st.levels[1])
    score = score_hand(
        opts,
        st.ctx,
        banker,
        team_levels,
        st.trick_points,
        st.penalties,
        st.kitty,
        lead,
        last.winner,
        win_cards,
        last.points,
    )
    mult, total, outcome = score.kitty_multiplier, score.points, score.outcome
    bteam = banker % 2
    levels, progress, over, winner_team = team_standing(
        opts, bteam, outcome, (st.progress[0], st.progress[1]), st.hand_number
    )
    stake = hand_stake(opts, st.declare.counters)
    win_team = bteam if outcome.side == "banker" else 1 - bteam
    change = settle_coins(opts, stake, win_team, st.stake_penalties)
    coins = [st.coins[0] + change[0], st.coins[1] + change[1]]
    result = HandResult(
        number=st.hand_number,
        banker=banker,
        level=st.level,
        trump=trump_text(st.declare.trump),
        trick_points=st.trick_points,
        kitty_points=points(st.kitty),
        kitty_multiplier=mult,
        penalties=st.penalties,
        points=total,
        outcome=outcome,
        counters=st.declare.counters,
        stake=stake,
        coins=change,
        kitty=st.kitty,
    )
    events.append(_hand_over_event(st, mult, total, levels, outcome))
    st = evolve(
        st,
        levels=levels,
        progress=progress,
        coins=(coins[0], coins[1]),
        results=(*st.results, result),
        phase="match_over" if over else "hand_over",
        to_act=None,
        winner=winner_team,
    )
    if over:
        events.append({"type": "match_over", "winner": winner_team})
    return st


def _next_hand(st: GameState, events: list[Event]) -> GameState:
    last = st.results[-1]
    banker = last.outcome.next_banker
    st = evolve(st, hand_number=st.hand_number + 1)
    events.append({"type": "new_hand", "number": st.hand_number, "banker": banker})
    holder = banker if st.options.friends else banker % 2
    return _start_hand(st, banker=banker, level=st.levels[holder], redeals=0)


# -- automatic steps ------------------------------------------------------------------------


def _advance(st: GameState, events: list[Event]) -> GameState:
    """Run automatic steps (dealing, skipping seats with nothing to show, fallbacks) until
    a seat must decide or the hand is over."""
    while st.to_act is None and st.phase in DECLARING_PHASES:
        if st.phase == "deal":
            if st.paced:
                break  # the table deals on
            st = _deal_until_choice(st, events)
        elif st.phase == "before_kitty":
            st = _window_step(st, events)
        else:
            st = _after_burial_step(st, events)
    return st


def _dealt_hands(
    before: tuple[tuple[Card, ...], ...], hands: list[list[Card]]
) -> tuple[tuple[Card, ...], ...]:
    """The hands after a deal step: a hand dealt nothing stays the same object (views
    of it are kept while it is)."""
    return tuple(
        old if len(old) == len(new) else tuple(new) for old, new in zip(before, hands, strict=True)
    )


def _deal_until_choice(st: GameState, events: list[Event]) -> GameState:
    n = st.options.players
    total = n * friends.hand_size(st.options)
    hands = [list(h) for h in st.hands]
    level = st.level
    shows = [Counter(c for c in h if c.is_joker or c.rank == level) for h in hands]
    # Whether each seat has a legal show: nothing else changes during this loop, so it is
    # worked out again only when the seat draws a level card or a joker.
    can: list[bool | None] = [None] * n
    dealt = st.dealt
    while dealt < total:
        seat = (st.start_seat + dealt) % n
        card = st.deck_order[dealt]
        hands[seat].append(card)
        dealt += 1
        mine = shows[seat]
        if card.rank == level or card.is_joker:
            mine[card] += 1
            can[seat] = None
        if can[seat] is None:
            held = frozenset(mine.items())
            can[seat] = bool(mine) and bool(
                _accepted_shows(st.options, level, st.declare, seat, held, "deal")
            )
        # A level card may be shown at any time during the deal (随时): the seat is asked at
        # each of its draws while it has a legal show, not only when it draws one.
        if can[seat]:
            events.append({"type": "deal", "count": dealt})
            return evolve(st, hands=_dealt_hands(st.hands, hands), dealt=dealt, to_act=seat)
    events.append({"type": "deal", "count": dealt})
    st = evolve(st, hands=_dealt_hands(st.hands, hands), dealt=dealt)
    order = tuple((st.start_seat + i) % n for i in range(n))
    return evolve(st, phase="before_kitty", window_order=order, window_pos=0, passes=0)


def _window_step(st: GameState, events: list[Event]) -> GameState:
    """Offer the next seat in the window a show; close after every seat passes in a row."""
    n = st.options.players
    while st.passes < n:
        seat = st.window_order[st.window_pos % n]
        if legal_shows(st, seat):
            return evolve(st, to_act=seat)
        st = evolve(st, passes=st.passes + 1, window_pos=st.window_pos + 1)
    return _close_declaring(st, events)


def _close_declaring(st: GameState, events: list[Event]) -> GameState:
    opts = st.options
    if not st.declare.declared:
        mode = opts.no_declaration
        # Seeds 000/004 turn the 3rd kitty card only after the first hand; seed 003's 4th
        # kitty card is turned in the first hand too (the dealer seat is then banker).
        redeal = mode == "redeal" or (st.declare.first_hand and mode == "kitty_card_3")
        if redeal and st.redeals < _MAX_REDEALS:
            events.append({"type": "redeal"})
            return _start_hand(st, st.declare.banker, st.level, st.redeals + 1)
        trump: Suit | None = None
        if redeal or mode == "no_trump":
            events.append({"type": "no_declaration", "trump": "NT"})
        else:
            card = st.kitty[2 if mode == "kitty_card_3" else 3]
            trump = card.suit
            events.append({"type": "kitty_card", "card": card.text, "trump": trump_text(trump)})
        seat = st.start_seat if st.declare.banker is None else st.declare.banker
        declare = dataclasses.replace(flipped_state(st.declare, trump), banker=seat)
        st = evolve(st, declare=declare, ctx=trump_context(st.options, st.level, trump))
    if opts.weak_redeal is not None and st.redeals < _MAX_REDEALS:
        weak = next((s for s in st.window_order if _weak(st, st.hands[s])), None)
        if weak is not None:
            # 完全造反: a hand without a trump above the threshold asks for a new deal
            events.append({"type": "redeal", "weak": weak})
            banker = None if st.declare.first_hand else st.declare.banker
            return _start_hand(st, banker, st.level, st.redeals + 1)
    banker = st.banker
    assert banker is not None
    hands = list(st.hands)
    hands[banker] = hands[banker] + st.kitty
    events.append(
        {"type": "take_kitty", "seat": banker, "private": {banker: format_cards(st.kitty)}}
    )
    log = (*st.kitty_log, (banker, "picked_up", st.kitty))
    return evolve(
        st, hands=tuple(hands), kitty=(), phase="bury", to_act=banker, leader=banker, kitty_log=log
    )


def _weak(st: GameState, hand: Sequence[Card]) -> bool:
    """``weak_redeal``: every trump of ``hand`` (none counts) is a plain card of the trump
    suit (not a joker, a level card or a constant 2) ranked at most the threshold."""
    opts, level, trump = st.options, st.level, st.declare.trump
    assert opts.weak_redeal is not None
    for c in hand:
        if not st.ctx.is_trump(c):
            continue
        plain = (
            not c.is_joker
            and c.suit == trump
            and c.rank != level
            and not (opts.constant_twos and c.rank == 2)
        )
        if not plain or c.rank > opts.weak_redeal:
            return False
    return True


def _after_burial_step(st: GameState, events: list[Event]) -> GameState:
    """Offer counter-declarations in turn from the banker until every seat passes in a row."""
    n = st.options.players
    while st.passes < n:
        seat = st.window_order[st.window_pos % n]
        if legal_shows(st, seat):
            return evolve(st, to_act=seat)
        st = evolve(st, passes=st.passes + 1, window_pos=st.window_pos + 1)
    return _after_kitty(st)


def _hand_over_event(
    st: Any,
    mult: int,
    total: int,
    levels: Sequence[int],
    outcome: Any,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``hand_over`` event of a finished hand (``extra``: 找朋友's banker side)."""
    return {
        "type": "hand_over",
        **(extra or {}),
        "kitty": format_cards(st.kitty),
        "kitty_multiplier": mult,
        "points": total,
        "levels": [rank_text(v) for v in levels],
        "next_banker": outcome.next_banker,
        "winner": outcome.winner,
        "explain": {"en": outcome.explain("en"), "zh": outcome.explain("zh")},
    }
