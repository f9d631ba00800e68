"""Declaring trump (报主/亮主), reinforcing (上保险/自保/定主) and counter-declaring
(反主/反底) (§7), one rule set per ``declaring`` option, decided by the kernel's
``KDeclare`` and worded here.

A :class:`DeclareState` is folded over accepted shows; :func:`apply_show` validates the
next one for a phase (``deal``, ``before_kitty``, ``after_burial``) and returns the new
state or raises :class:`~shengji.errors.DeclarationError`.

>>> from shengji.rules.presets import load_preset
>>> opts = load_preset("shuangsheng")
>>> st = start_state(first_hand=True, banker=None)
>>> st = apply_show(opts, 2, st, 2, parse_cards("H2"), "deal")
>>> st.trump_text, st.banker
('H', 2)
>>> apply_show(opts, 2, st, 1, parse_cards("S2"), "deal")
Traceback (most recent call last):
...
shengji.errors.DeclarationError: ILLEGAL_DECLARATION: trump is already declared; a ...
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import DeclarationError
from ..kernel import access
from .cards import (  # noqa: F401
    BIG_JOKER,
    LITTLE_JOKER,
    Card,
    Suit,
    format_cards,
    parse_cards,
    rank_text,
)
from .immutable import evolve
from .options import RuleOptions
from .phases import DeclaringPhase as Phase
from .seats import start_teams
from .trump import TrumpContext, trump_text


@dataclass(frozen=True, slots=True)
class Show:
    """A parsed show: ``count`` identical cards, either level cards of ``suit`` or jokers."""

    card: Card
    count: int

    @property
    def is_joker(self) -> bool:
        return self.card.is_joker

    @property
    def trump(self) -> Suit | None:
        """The trump it declares: its suit, or None (NT) for jokers."""
        return None if self.card.is_joker else self.card.suit

    @property
    def priority(self) -> int:
        """Counter-declaring priority ``BJ > LJ > S > H > C > D`` as 5..0."""
        if self.card.is_joker:
            return 5 if self.card is BIG_JOKER else 4
        assert self.card.suit is not None
        return 3 - int(self.card.suit)

    @property
    def rung(self) -> int:
        """The 3-deck show ladder: single 1 < pair 2 < jokers 3 < triple 4 < 3 jokers 5."""
        if self.is_joker:
            return 3 if self.count == 2 else 5
        return {1: 1, 2: 2, 3: 4}.get(self.count, 6)


@dataclass(frozen=True)
class DeclareState:
    """What the accepted shows of a hand leave: trump, who holds it, how strongly, the
    banker, and what limits later shows. ``rung`` is how strongly: the show ladder's rung
    (:attr:`Show.rung`), or in the ``count`` and ``ladder`` systems the number of cards
    of the standing show (1 for a turned kitty card)."""

    first_hand: bool
    banker: int | None
    declared: bool = False
    trump: Suit | None = None
    holder: int | None = None
    first_declarer: int | None = None
    rung: int = 0
    priority: int = -1
    counters: int = 0
    pair_seats: frozenset[int] = frozenset()
    locked: bool = False
    flipped: bool = False
    shows: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    @property
    def trump_text(self) -> str | None:
        """``"S"``... ``"NT"``, or None before anything is declared."""
        return trump_text(self.trump) if self.declared else None


def start_state(first_hand: bool, banker: int | None) -> DeclareState:
    """The state before any show of a hand (``banker`` is None in a first hand)."""
    return DeclareState(first_hand=first_hand, banker=None if first_hand else banker)


def flipped_state(state: DeclareState, trump: Suit | None) -> DeclareState:
    """Nobody declared: trump comes from a turned-up kitty card (or NT), unbacked."""
    return evolve(state, declared=True, trump=trump, flipped=True, rung=1)


def kitty_card_trump(card: Card) -> Suit | None:
    """The trump a turned-up kitty card gives: its suit, NT for a joker."""
    return card.suit


def parse_show(level: int, cards: Sequence[Card]) -> Show:
    """Check that ``cards`` are identical level cards or identical jokers."""
    if not cards:
        raise DeclarationError("a show needs at least one card", params={"reason": "empty"})
    first = cards[0]
    if any(c is not first for c in cards):
        raise DeclarationError(
            "a show must be identical cards: one level card, or a pair (same suit) of "
            "level cards or jokers; two suits' level cards are not a pair",
            params={"reason": "not_identical"},
        )
    if not first.is_joker and first.rank != level:
        raise DeclarationError(
            f"{first.text} is not a level card; only cards of the level rank (or joker pairs) "
            "can be shown",
            params={"reason": "not_level", "card": first.text, "level": rank_text(level)},
        )
    if first.is_joker and len(cards) < 2:
        raise DeclarationError(
            "a single joker never declares; a joker pair declares NT",
            params={"reason": "single_joker"},
        )
    return Show(first, len(cards))


def _fail(msg: str, reason: str, **params: Any) -> DeclarationError:
    """A refused show; ``reason`` names the rule for :func:`shengji.words.i18n.error_text`."""
    return DeclarationError(msg, params={"reason": reason, **params})


def apply_show(
    options: RuleOptions,
    level: int,
    state: DeclareState,
    seat: int,
    cards: Sequence[Card],
    phase: Phase | None,
) -> DeclareState:
    """Validate a show by ``seat`` in ``phase`` (None: accepted earlier, phase unknown)
    and return the state after it. Raises DeclarationError when it is not allowed (the
    kernel's ``KDeclare`` decides; the reason is worded here)."""
    seats = options.players
    if not 0 <= seat < seats:
        raise _fail(f"seat must be 0..{seats - 1}, not {seat}", "bad_seat")
    show = check_show(options, level, cards)
    k = kernel_declare(state)
    why = k.show(hand_rules(options), level, seat, show.card.index, show.count, _PHASE[phase])
    if why:
        raise refusal(options, why, phase, state)
    return evolve(from_kernel(k, state), shows=(*state.shows, (seat, tuple(cards))))


def check_show(options: RuleOptions, level: int, cards: Sequence[Card]) -> Show:
    """Parse a show (:func:`parse_show`) and check the decks hold that many cards."""
    show = parse_show(level, cards)
    if show.count > options.decks:
        raise _fail(
            f"{show.count} identical cards need more than {options.decks} deck(s)",
            "too_many",
            count=show.count,
            decks=options.decks,
        )
    return show


def refusal(
    options: RuleOptions, reason: str, phase: Phase | None, state: DeclareState | None = None
) -> DeclarationError:
    """The error for a show the kernel refused for ``reason`` in ``state`` (the state
    before the show: a refusal for a weaker show names what a stronger one needs)."""
    if reason == "stronger_show":
        return stronger_show_error(options, state or start_state(True, None))
    return _fail(refusal_text(options.declaring, reason, phase), reason)


def stronger_show_error(options: RuleOptions, state: DeclareState) -> DeclarationError:
    """``count`` and ``ladder``: the refusal of a show no stronger than the standing one,
    naming what a stronger show needs: more cards (where the decks hold more), or as many
    that outrank it (``count``: by ``BJ > LJ > S > H > C > D``; ``ladder``: jokers over
    level cards, big over little). Params: the standing show's ``count`` and cards
    (``show``, empty for a turned kitty card), ``more`` and ``beat`` (``priority``,
    ``jokers``, ``big_jokers`` or empty)."""
    n = max(1, state.rung)
    cards = state.shows[-1][1] if state.shows else ()
    more = n < options.decks
    beat = ""
    if n >= 2 and cards and cards[0] is not BIG_JOKER:
        if options.declaring == "count":
            beat = "priority"
        else:
            beat = "big_jokers" if cards[0] is LITTLE_JOKER else "jokers"
    text = format_cards(cards)
    parts = []
    if more:
        parts.append("two or more identical cards" if n == 1 else f"more than {n} identical cards")
    if beat == "priority":
        parts.append(f"{n} identical cards that outrank {text} (BJ > LJ > S > H > C > D)")
    elif beat:
        parts.append(f"{n} {beat.replace('_', ' ')}")
    if parts:
        msg = "only a stronger show is accepted: " + " or ".join(parts)
    else:
        msg = f"no show can outrank {text} now"
    return _fail(msg, "stronger_show", count=n, show=text, more=more, beat=beat)


#: Declaring phases as the kernel's numbers (None: unknown, as when replaying shows).
_PHASE: dict[str | None, int] = {None: -1, "deal": 0, "before_kitty": 1, "after_burial": 3}


def hand_rules(options: RuleOptions) -> Any:
    """The kernel's ``HandRules`` of ``options`` (its seats, on their sides before the
    hand is played)."""
    return _hand_rules(access.core(), options)


@functools.lru_cache(maxsize=64)
def _hand_rules(kernel_core: Any, options: RuleOptions) -> Any:
    return access.hand_rules(kernel_core, options, list(start_teams(options)))


def kernel_declare(state: DeclareState) -> Any:
    """A :class:`DeclareState` as the kernel's ``KDeclare`` (without its shows)."""
    k = access.core().KDeclare(state.first_hand, -1)
    k.banker = -1 if state.banker is None else state.banker
    k.declared = state.declared
    k.trump = -1 if state.trump is None else int(state.trump)
    k.holder = -1 if state.holder is None else state.holder
    k.first_declarer = -1 if state.first_declarer is None else state.first_declarer
    k.rung = state.rung
    k.priority = state.priority
    k.counters = state.counters
    k.pair_seats = sum(1 << s for s in state.pair_seats)
    k.locked = state.locked
    k.flipped = state.flipped
    return k


def from_kernel(k: Any, before: DeclareState) -> DeclareState:
    """The :class:`DeclareState` a kernel ``KDeclare`` stands for (shows from ``before``)."""
    return DeclareState(
        first_hand=k.first_hand,
        banker=None if k.banker < 0 else k.banker,
        declared=k.declared,
        trump=None if k.trump < 0 else Suit(k.trump),
        holder=None if k.holder < 0 else k.holder,
        first_declarer=None if k.first_declarer < 0 else k.first_declarer,
        rung=k.rung,
        priority=k.priority,
        counters=k.counters,
        pair_seats=frozenset(s for s in range(k.pair_seats.bit_length()) if k.pair_seats >> s & 1),
        locked=k.locked,
        flipped=k.flipped,
        shows=before.shows,
    )


_PRIORITY = (
    "a counter-declaration must be an identical pair that outranks the current trump "
    "(BJ > LJ > S > H > C > D); any pair beats an unbacked single declaration"
)
#: Each refusal's words, by reason (and, where systems word one differently, by system).
_REFUSALS: dict[str, str] = {
    "only_while_dealing": "trump can only be declared while the cards are dealt",
    "jokers_counter_only": "jokers cannot declare; a joker pair can only counter-declare (反主)",
    "late_reinforce": "too late to reinforce (上保险): the kitty is already buried",
    "counter_needs_pair": (
        "trump is already declared; a counter-declaration (反主) needs an identical pair"
    ),
    "own_declaration": "you hold the current declaration and cannot counter it yourself",
    "first_hand_no_counter": "in the first hand no counter-declaring once the kitty is taken",
    "counter_after_burial": (
        "in later hands counter-declaring (反主炒底) comes after the kitty is buried"
    ),
    "outranked": _PRIORITY,
    "flipped_jokers": "the trump came from the kitty card: only joker pairs may counter now",
    "banker": "the banker buried the kitty: 反底 is for the other players",
    "once_each": "each player may 反底 once, and not after a 定主 of their own",
    "fix_while_dealing": "定主 is made while the cards are dealt; after burying comes 反底",
    "after_burial": "no declaring once the kitty is buried",
    "stronger_needed": (
        "only a stronger show is accepted: single < pair < joker pair (NT) < triple "
        "< three jokers (NT)"
    ),
    "already_nt": "trump is already no-trump",
    "locked": "trump is locked by a pair (自保); only a joker pair can change it",
    "single_first": "the first declaration is one level card",
    "once_only": "trump was already overridden by a pair; it cannot change again",
    "reinforce_only": (
        "you hold the current declaration: you may only add cards to it (more of the same card)"
    ),
}
_NEEDS_PAIR = {
    "shuangkou": "trump is already declared; only a pair can change it (定主/反底)",
    "tuolaji": "trump is already declared; a single level card cannot override it",
    "botzone": "trump is already declared: only a pair can change it",
}


def refusal_text(style: str, reason: str, phase: Phase | None) -> str:
    """The words of a refused show (English; :func:`shengji.words.i18n.error_text` words the
    ``reason`` in both languages)."""
    if reason == "needs_pair":
        return _NEEDS_PAIR[style]
    if reason == "outranked" and style == "shuangkou" and phase == "after_burial":
        return (
            "after the kitty is buried only a higher pair may 反底 "
            "(BJ > LJ > S > H > C > D), whatever backs the current trump"
        )
    return _REFUSALS.get(reason, reason)


def weak_hand(ctx: TrumpContext, hand: Sequence[Card]) -> bool:
    """完全造反 (``weak_redeal``): whether ``hand`` asks for a redeal once the trump is
    known: every trump it holds (none counts) is a plain card of the trump suit ranked no
    higher than ``weak_redeal`` (no joker, level card or trump 2; under NT, no trump at
    all). False when ``weak_redeal`` is off."""
    top = ctx.options.weak_redeal
    if top is None:
        return False
    trump = -1 if ctx.trump is None else int(ctx.trump)
    t = access.tables(ctx)
    return bool(access.core().weak_hand(t, access.counts(hand), ctx.level, trump, top))


def replay_shows(
    options: RuleOptions,
    level: int,
    first_hand: bool,
    banker: int | None,
    history: Sequence[tuple[int, Sequence[Card]]],
    flipped: bool = False,
) -> DeclareState:
    """Fold accepted shows (phases unknown) into a state. ``flipped``: nobody declared and
    a kitty card set an (unknown) trump before these shows."""
    state = start_state(first_hand, banker)
    if flipped:
        state = flipped_state(state, None)
    for seat, cards in history:
        state = apply_show(options, level, state, seat, cards, None)
    return state
