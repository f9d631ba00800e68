"""The oracle's declaring (§7): the first show (报主/亮主), reinforcing (上保险/自保/定主) and
counter-showing (反主/反底), each ``declaring`` system written out as its own function.

The oracle folds shows one at a time: :func:`apply_show` takes the state the earlier shows
left and either returns the next state or refuses the show with a
:class:`~shengji.errors.DeclarationError` naming the rule (its ``reason``).

In 拖拉机 (``tuolaji``) a pair of another suit overrides a single card, and then locks the
trump (自保):

>>> from shengji.rules.cards import parse_cards
>>> from shengji.rules.presets import load_preset as preset
>>> tuolaji = preset("tuolaji")
>>> st = apply_show(tuolaji, 2, start_state(True, None), 0, parse_cards("H2"), "deal")
>>> st = apply_show(tuolaji, 2, st, 1, parse_cards("S2 S2"), "deal")
>>> st.trump_text, st.holder, st.locked
('S', 1, True)
>>> apply_show(tuolaji, 2, st, 3, parse_cards("D2 D2"), "deal")
Traceback (most recent call last):
...
shengji.errors.DeclarationError: ILLEGAL_DECLARATION: trump is locked by a pair (自保); ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shengji.errors import DeclarationError
from shengji.rules.cards import BIG_JOKER, LITTLE_JOKER, Card, Suit, format_cards, rank_text
from shengji.rules.declaring import DeclareState, Show  # the data types are the product's
from shengji.rules.immutable import evolve
from shengji.rules.options import RuleOptions
from shengji.rules.phases import DeclaringPhase as Phase

Cards = Sequence[Card]

_NOT_IDENTICAL = (
    "a show must be identical cards: one level card, or a pair (same suit) of "
    "level cards or jokers; two suits' level cards are not a pair"
)


def start_state(first_hand: bool, banker: int | None) -> DeclareState:
    """Nothing shown yet. A first hand has no banker until a show makes one."""
    if first_hand:
        return DeclareState(first_hand=True, banker=None)
    return DeclareState(first_hand=False, banker=banker)


def flipped_state(state: DeclareState, trump: Suit | None) -> DeclareState:
    """No show came: a turned kitty card (or NT) gives the trump, backed by nothing."""
    return evolve(state, rung=1, flipped=True, declared=True, trump=trump)


def kitty_card_trump(card: Card) -> Suit | None:
    """A turned-up kitty card makes its own suit trump; a joker makes no-trump."""
    return None if card.is_joker else card.suit


def parse_show(level: int, cards: Cards) -> Show:
    """The oracle's reading of the cards of a show: all the same card, and that card of
    the level rank or a joker; a lone joker declares nothing."""
    if len(cards) == 0:
        raise _refuse("a show needs at least one card", "empty")
    card = cards[0]
    if len(set(cards)) > 1:
        raise _refuse(_NOT_IDENTICAL, "not_identical")
    if card.is_joker:
        if len(cards) == 1:
            raise _refuse("a single joker never declares; a joker pair declares NT", "single_joker")
    elif card.rank != level:
        why = f"{card.text} is not a level card; only cards of the level rank (or joker pairs) "
        raise _refuse(why + "can be shown", "not_level", card=card.text, level=rank_text(level))
    return Show(card, len(cards))


def _refuse(text: str, why: str, **more: Any) -> DeclarationError:
    """The error of a refused show; ``why`` is its ``reason`` parameter."""
    return DeclarationError(text, params=dict(more, reason=why))


def apply_show(
    options: RuleOptions,
    level: int,
    state: DeclareState,
    seat: int,
    cards: Cards,
    phase: Phase | None,
) -> DeclareState:
    """The state after ``seat`` shows ``cards`` in ``phase`` (None when the show was
    accepted before and its phase is not known); a DeclarationError when the rules of
    ``options.declaring`` refuse it."""
    if seat not in range(options.players):
        raise _refuse(f"seat must be 0..{options.players - 1}, not {seat}", "bad_seat")
    show = parse_show(level, cards)
    if show.count > options.decks:
        too_many = f"{show.count} identical cards need more than {options.decks} deck(s)"
        raise _refuse(too_many, "too_many", count=show.count, decks=options.decks)
    style = options.declaring
    if style == "classic":
        new = _classic(options, state, seat, show, phase)
    elif style == "tuolaji":
        new = _tuolaji(options, state, seat, show, phase)
    elif style == "shuangkou":
        new = _shuangkou(state, seat, show, phase)
    elif style == "botzone":
        new = _botzone(options, state, seat, show, phase)
    elif style in ("count", "ladder"):
        new = _by_count(options, state, seat, show, phase)
    else:
        new = _shuangsheng(state, seat, show, phase)
    return evolve(new, shows=(*state.shows, (seat, tuple(cards))))


def _initial(
    state: DeclareState,
    seat: int,
    show: Show,
    phase: Phase | None,
    jokers_ok: bool,
    after_deal: bool = False,
) -> DeclareState:
    if phase not in (None, "deal") and not (after_deal and phase == "before_kitty"):
        raise _refuse("trump can only be declared while the cards are dealt", "only_while_dealing")
    if show.is_joker and not jokers_ok:
        raise _refuse(
            "jokers cannot declare; a joker pair can only counter-declare (反主)",
            "jokers_counter_only",
        )
    return evolve(
        state,
        declared=True,
        trump=show.trump,
        holder=seat,
        first_declarer=seat,
        rung=show.rung,
        priority=show.priority if show.count >= 2 else -1,
        banker=seat if state.first_hand else state.banker,
        pair_seats=state.pair_seats | ({seat} if show.count >= 2 else set()),
        locked=show.count >= 2,
    )


def _is_reinforcement(state: DeclareState, seat: int, show: Show) -> bool:
    return (
        seat == state.holder
        and not show.is_joker
        and show.trump == state.trump
        and show.count == 2
        and state.rung == 1
    )


def _reinforce(state: DeclareState, seat: int, show: Show, phase: Phase | None) -> DeclareState:
    if phase == "after_burial":
        raise _refuse(
            "too late to reinforce (上保险): the kitty is already buried", "late_reinforce"
        )
    return evolve(
        state, rung=2, priority=show.priority, locked=True, pair_seats=state.pair_seats | {seat}
    )


def _outranks(state: DeclareState, show: Show) -> bool:
    """A pair beats an unbacked single declaration, or a pair of lower priority."""
    return show.count >= 2 and (state.rung <= 1 or show.priority > state.priority)


def _standing_priority(state: DeclareState) -> int:
    """The priority of the current trump (``BJ > LJ > S > H > C > D`` as 5..0), whether a
    pair or a single card declared it."""
    if state.priority >= 0:
        return state.priority
    return -1 if state.trump is None else 3 - int(state.trump)


def _countered(
    state: DeclareState, seat: int, show: Show, takes_banker: bool, *, counts: bool = True
) -> DeclareState:
    return evolve(
        state,
        trump=show.trump,
        holder=seat,
        rung=max(2, show.rung),
        priority=show.priority,
        counters=state.counters + (1 if counts else 0),
        banker=seat if takes_banker else state.banker,
        pair_seats=state.pair_seats | {seat},
        locked=True,
    )


def _shuangsheng(state: DeclareState, seat: int, show: Show, phase: Phase | None) -> DeclareState:
    if not state.declared:
        return _initial(state, seat, show, phase, jokers_ok=False)
    if _is_reinforcement(state, seat, show):
        return _reinforce(state, seat, show, phase)
    if show.count < 2:
        raise _refuse(
            "trump is already declared; a counter-declaration (反主) needs an identical pair",
            "counter_needs_pair",
        )
    if seat == state.holder:
        # also covers seed 000's "the declarer may 反主 only after another player has"
        raise _refuse(
            "you hold the current declaration and cannot counter it yourself", "own_declaration"
        )
    if state.first_hand and phase == "after_burial":
        raise _refuse(
            "in the first hand no counter-declaring once the kitty is taken",
            "first_hand_no_counter",
        )
    if not state.first_hand and phase in ("deal", "before_kitty"):
        raise _refuse(
            "in later hands counter-declaring (反主炒底) comes after the kitty is buried",
            "counter_after_burial",
        )
    if not _outranks(state, show):
        raise _refuse(_priority_msg(), "outranked")
    return _countered(state, seat, show, takes_banker=state.first_hand)


def _shuangkou(state: DeclareState, seat: int, show: Show, phase: Phase | None) -> DeclareState:
    if not state.declared:
        return _initial(state, seat, show, phase, jokers_ok=False)
    if show.count < 2:
        raise _refuse(
            "trump is already declared; only a pair can change it (定主/反底)", "needs_pair"
        )
    if state.flipped and not show.is_joker:
        raise _refuse(
            "the trump came from the kitty card: only joker pairs may counter now", "flipped_jokers"
        )
    if phase == "after_burial":
        # seed 002: 其他玩傢 … 高級可以反低級,低級不能反高級 — the others, and only a higher
        # suit than the standing trump, even when that was shown by a single card.
        if seat == state.banker:
            raise _refuse("the banker buried the kitty: 反底 is for the other players", "banker")
        if seat in state.pair_seats:
            raise _refuse(
                "each player may 反底 once, and not after a 定主 of their own", "once_each"
            )
        if show.priority <= _standing_priority(state):
            raise _refuse(
                "after the kitty is buried only a higher pair may 反底 "
                "(BJ > LJ > S > H > C > D), whatever backs the current trump",
                "outranked",
            )
        return _countered(state, seat, show, takes_banker=False)
    if phase == "before_kitty":
        raise _refuse(
            "定主 is made while the cards are dealt; after burying comes 反底", "fix_while_dealing"
        )
    if _is_reinforcement(state, seat, show):
        return _reinforce(state, seat, show, phase)
    if not _outranks(state, show):
        raise _refuse(_priority_msg(), "outranked")
    return _countered(state, seat, show, takes_banker=state.first_hand)


def _classic(
    options: RuleOptions, state: DeclareState, seat: int, show: Show, phase: Phase | None
) -> DeclareState:
    if not state.declared:
        # seed 001: 在发牌结束后,每方都可以根据牌情翻出级牌 — also after the deal
        return _initial(state, seat, show, phase, jokers_ok=True, after_deal=True)
    if phase == "after_burial":
        raise _refuse("no declaring once the kitty is buried", "after_burial")
    if show.rung <= state.rung:
        raise _refuse(
            "only a stronger show is accepted: single < pair < joker pair (NT) < triple "
            "< three jokers (NT)",
            "stronger_needed",
        )
    takes = state.first_hand and options.counter_takes_banker
    return _countered(state, seat, show, takes_banker=takes, counts=seat != state.holder)


def _tuolaji(
    options: RuleOptions, state: DeclareState, seat: int, show: Show, phase: Phase | None
) -> DeclareState:
    if not state.declared:
        return _initial(state, seat, show, phase, jokers_ok=True)
    if phase == "after_burial":
        raise _refuse("no declaring once the kitty is buried", "after_burial")
    if show.count < 2:
        raise _refuse(
            "trump is already declared; a single level card cannot override it", "needs_pair"
        )
    takes = state.first_hand and options.counter_takes_banker
    if show.is_joker:
        if state.trump is None:
            raise _refuse("trump is already no-trump", "already_nt")
        return _countered(state, seat, show, takes_banker=takes)
    if state.locked:
        raise _refuse("trump is locked by a pair (自保); only a joker pair can change it", "locked")
    if show.trump == state.trump:
        return _reinforce(state, seat, show, phase)
    return _countered(state, seat, show, takes_banker=takes)


def _botzone(
    options: RuleOptions, state: DeclareState, seat: int, show: Show, phase: Phase | None
) -> DeclareState:
    """Botzone's Tractor: one single level card declares, then one pair (level cards of any
    suit, or jokers: NT) by any seat overrides it; only while the cards are dealt."""
    if phase not in (None, "deal"):
        raise _refuse("trump can only be declared while the cards are dealt", "only_while_dealing")
    if not state.declared:
        if show.count != 1:
            raise _refuse("the first declaration is one level card", "single_first")
        return _initial(state, seat, show, phase, jokers_ok=False)
    if show.count != 2:
        raise _refuse("trump is already declared: only a pair can change it", "needs_pair")
    if state.counters:
        raise _refuse("trump was already overridden by a pair; it cannot change again", "once_only")
    takes = state.first_hand and options.counter_takes_banker
    return _countered(state, seat, show, takes_banker=takes)


def _by_count(
    options: RuleOptions, state: DeclareState, seat: int, show: Show, phase: Phase | None
) -> DeclareState:
    """``count`` and ``ladder``: 双升's timing (first hand: counters before the kitty take
    the banker; later hands: counters after the burial), shows ranked by their number of
    cards, then (two or more) ``BJ > LJ > S > H > C > D`` (``count``) or jokers over
    level cards, big over little (``ladder``). The holder may only add cards to its show.
    The state's rung is the standing show's number of cards; the standing show is the
    last one accepted."""
    if not state.declared:
        return evolve(_initial(state, seat, show, phase, jokers_ok=True), rung=show.count)
    if seat == state.holder:
        mine = state.shows[-1][1][0] if state.shows else None
        if mine is not show.card or show.count <= state.rung:
            raise _refuse(
                "you hold the current declaration: you may only add cards to it (more of "
                "the same card)",
                "reinforce_only",
            )
        if phase == "after_burial":
            raise _refuse(
                "too late to reinforce (上保险): the kitty is already buried", "late_reinforce"
            )
        return evolve(
            state,
            rung=show.count,
            priority=show.priority,
            locked=True,
            pair_seats=state.pair_seats | {seat},
        )
    standing = state.shows[-1][1] if state.shows else ()
    if _strength(options, show.card, show.count) <= _strength(
        options, standing[0] if standing else None, max(1, state.rung)
    ):
        raise _weaker(options, standing, max(1, state.rung))
    if state.first_hand and phase == "after_burial":
        raise _refuse(
            "in the first hand no counter-declaring once the kitty is taken",
            "first_hand_no_counter",
        )
    if not state.first_hand and phase in ("deal", "before_kitty"):
        raise _refuse(
            "in later hands counter-declaring (反主炒底) comes after the kitty is buried",
            "counter_after_burial",
        )
    return evolve(_countered(state, seat, show, takes_banker=state.first_hand), rung=show.count)


#: Equal counts of two or more: ``count`` ranks ``BJ > LJ > S > H > C > D``.
_COUNT_ORDER = ("D", "C", "H", "S")


def _strength(options: RuleOptions, card: Card | None, count: int) -> tuple[int, int]:
    """(cards, tier): singles (and a turned kitty card, ``card`` None) have no tier."""
    if card is None or count < 2:
        return (count, 0)
    if card is BIG_JOKER:
        return (count, 6)
    if card is LITTLE_JOKER:
        return (count, 5)
    if options.declaring == "ladder":
        return (count, 0)
    assert card.suit is not None
    return (count, 1 + _COUNT_ORDER.index(card.suit.name))


def _weaker(options: RuleOptions, standing: Sequence[Card], n: int) -> DeclarationError:
    """The refusal of a show no stronger than the standing one, naming what beats it."""
    text = format_cards(standing)
    more = n < options.decks
    beat = ""
    if n >= 2 and standing and standing[0] is not BIG_JOKER:
        if options.declaring == "count":
            beat = "priority"
        elif standing[0] is LITTLE_JOKER:
            beat = "big_jokers"
        else:
            beat = "jokers"
    needs = []
    if more:
        needs.append("two or more identical cards" if n == 1 else f"more than {n} identical cards")
    if beat == "priority":
        needs.append(f"{n} identical cards that outrank {text} (BJ > LJ > S > H > C > D)")
    elif beat == "jokers":
        needs.append(f"{n} jokers")
    elif beat == "big_jokers":
        needs.append(f"{n} big jokers")
    msg = (
        "only a stronger show is accepted: " + " or ".join(needs)
        if needs
        else f"no show can outrank {text} now"
    )
    return _refuse(msg, "stronger_show", count=n, show=text, more=more, beat=beat)


def _priority_msg() -> str:
    return (
        "a counter-declaration must be an identical pair that outranks the current trump "
        "(BJ > LJ > S > H > C > D); any pair beats an unbacked single declaration"
    )


def replay_shows(
    options: RuleOptions,
    level: int,
    first_hand: bool,
    banker: int | None,
    history: Sequence[tuple[int, Cards]],
    flipped: bool = False,
) -> DeclareState:
    """The state that accepted shows leave, folded in order with their phases unknown;
    ``flipped``: a kitty card had set some trump before them, nobody having declared."""
    state = start_state(first_hand, banker)
    state = flipped_state(state, None) if flipped else state
    for who, shown in history:
        state = apply_show(options, level, state, who, shown, None)
    return state
