"""Declaring: the hand's phases and action kinds, :class:`HandRules` (the options of a
whole hand as ints), show ranks and :class:`KDeclare` (the standing declaration, one
implementation per ``declaring`` system), and 找朋友's called cards."""

from __future__ import annotations

from typing import Final

from .cards import TRUMP, Tables
from .rng import KRng

#: Phases of :class:`KHand` (``shengji.rules.phases`` names them; ``PH_REDEAL`` asks the caller
#: for a new deck: nobody declared and the rules redeal).
PH_DEAL: Final = 0
PH_BEFORE_KITTY: Final = 1
PH_BURY: Final = 2
PH_AFTER_BURIAL: Final = 3
PH_PLAY: Final = 4
PH_OVER: Final = 5
PH_REDEAL: Final = 6
#: 找朋友: the banker calls friends after the last burial.
PH_CALL: Final = 7
#: A show's phase when it is not known (shows replayed from a record).
PH_ANY: Final = -1
#: ``declaring`` systems.
DECL_SHUANGSHENG: Final = 0
DECL_SHUANGKOU: Final = 1
DECL_CLASSIC: Final = 2
DECL_TUOLAJI: Final = 3
DECL_BOTZONE: Final = 4
#: 双升's timing with shows ranked by their number of cards, then ``BJ > LJ > S > H > C
#: > D`` (``count``), or then jokers over level cards of any suit (``ladder``).
DECL_COUNT: Final = 5
DECL_LADDER: Final = 6
#: ``no_declaration`` modes.
NODECL_KITTY_3: Final = 0
NODECL_KITTY_4: Final = 1
NODECL_NO_TRUMP: Final = 2
NODECL_REDEAL: Final = 3
#: Redeals of one hand before falling back to no-trump (an unlucky first hand could loop).
MAX_REDEALS: Final = 20
#: Kinds of :attr:`KHand.log` entries: ``[kind, seat, card...]``.
ACT_DECLARE: Final = 0
ACT_PASS: Final = 1
ACT_BURY: Final = 2
ACT_PLAY: Final = 3
ACT_CALL: Final = 4
#: A paced deal (:attr:`KHand.paced`) dealt on: ``[ACT_DEAL, -1, dealt]``.
ACT_DEAL: Final = 5
#: Trump "suit" of no-trump (无主).
NT: Final = -1


class HandRules:
    """What a hand needs of the rule options, as ints (``shengji.engine.match`` builds it);
    ``team[seat]`` is the seat's side (with friend calls, only its length counts: sides
    are found during the hand)."""

    def __init__(
        self,
        decks: int,
        hand_size: int,
        kitty_size: int,
        declaring: int,
        counter_takes_banker: bool,
        no_declaration: int,
        team: list[int],
        calls: int,
        call_trump_suit: bool,
        weak_redeal: int,
    ) -> None:
        self.decks = decks
        self.hand_size = hand_size
        self.kitty_size = kitty_size
        self.declaring = declaring
        self.counter_takes_banker = counter_takes_banker
        self.no_declaration = no_declaration
        self.team = team
        self.seats = len(team)
        #: 找朋友: friend calls the banker makes after burying (0: fixed partnerships),
        #: and whether cards of the trump suit may be called.
        self.calls = calls
        self.call_trump_suit = call_trump_suit
        #: ``weak_redeal``: the highest rank a weak hand's trumps reach (-1: no redeal).
        self.weak_redeal = weak_redeal


def counters_after_burial(style: int, first_hand: bool) -> bool:
    """Whether the ``declaring`` system opens a counter round after the banker buries
    (反主炒底 in 双升's later hands, and in ``count`` and ``ladder``; 双抠's 反底)."""
    if style == DECL_SHUANGKOU:
        return True
    return not first_hand and style in (DECL_SHUANGSHENG, DECL_COUNT, DECL_LADDER)


def show_priority(card: int) -> int:
    """Counter-declaring priority ``BJ > LJ > S > H > C > D`` as 5..0."""
    if card >= 52:
        return 5 if card == 53 else 4
    return 3 - card // 13


def show_rung(card: int, count: int) -> int:
    """The 3-deck show ladder: single 1 < pair 2 < jokers 3 < triple 4 < 3 jokers 5."""
    if card >= 52:
        return 3 if count == 2 else 5
    return 1 if count == 1 else 2 if count == 2 else 4 if count == 3 else 6


class KDeclare:
    """What the accepted shows of a hand leave (``shengji.rules.declaring.DeclareState``):
    ``trump`` is a suit 0..3 or :data:`NT`; seats -1 for none; ``pair_seats`` a bit set."""

    def __init__(self, first_hand: bool, banker: int) -> None:
        self.first_hand = first_hand
        self.banker = -1 if first_hand else banker
        self.declared = False
        self.trump = NT
        self.holder = -1
        self.first_declarer = -1
        self.rung = 0
        self.priority = -1
        self.counters = 0
        self.pair_seats = 0
        self.locked = False
        self.flipped = False
        #: Accepted shows as ``seat, card, count`` triples.
        self.shows: list[int] = []

    def copy(self) -> KDeclare:
        """An independent copy."""
        d = KDeclare(self.first_hand, self.banker)
        d.banker = self.banker
        d.declared = self.declared
        d.trump = self.trump
        d.holder = self.holder
        d.first_declarer = self.first_declarer
        d.rung = self.rung
        d.priority = self.priority
        d.counters = self.counters
        d.pair_seats = self.pair_seats
        d.locked = self.locked
        d.flipped = self.flipped
        d.shows = list(self.shows)
        return d

    def _initial(
        self, seat: int, card: int, count: int, phase: int, jokers_ok: bool, after_deal: bool
    ) -> str:
        if phase not in (PH_DEAL, PH_ANY) and not (after_deal and phase == PH_BEFORE_KITTY):
            return "only_while_dealing"
        if card >= 52 and not jokers_ok:
            return "jokers_counter_only"
        self.declared = True
        self.trump = NT if card >= 52 else card // 13
        self.holder = seat
        self.first_declarer = seat
        self.rung = show_rung(card, count)
        self.priority = show_priority(card) if count >= 2 else -1
        if self.first_hand:
            self.banker = seat
        if count >= 2:
            self.pair_seats |= 1 << seat
        self.locked = count >= 2
        return ""

    def _is_reinforcement(self, seat: int, card: int, count: int) -> bool:
        return (
            seat == self.holder
            and card < 52
            and card // 13 == self.trump
            and count == 2
            and self.rung == 1
        )

    def _reinforce(self, seat: int, card: int, phase: int) -> str:
        if phase == PH_AFTER_BURIAL:
            return "late_reinforce"
        self.rung = 2
        self.priority = show_priority(card)
        self.locked = True
        self.pair_seats |= 1 << seat
        return ""

    def _outranks(self, card: int, count: int) -> bool:
        return count >= 2 and (self.rung <= 1 or show_priority(card) > self.priority)

    def _standing_priority(self) -> int:
        if self.priority >= 0:
            return self.priority
        return -1 if self.trump == NT else 3 - self.trump

    def _countered(self, seat: int, card: int, count: int, takes_banker: bool, counts: bool) -> str:
        self.trump = NT if card >= 52 else card // 13
        self.holder = seat
        self.rung = max(2, show_rung(card, count))
        self.priority = show_priority(card)
        if counts:
            self.counters += 1
        if takes_banker:
            self.banker = seat
        self.pair_seats |= 1 << seat
        self.locked = True
        return ""

    def show(self, r: HandRules, level: int, seat: int, card: int, count: int, phase: int) -> str:
        """Apply a show of ``count`` cards ``card`` by ``seat`` in ``phase`` (``PH_ANY``:
        accepted earlier, phase unknown): "" when it is accepted (the state changed), else
        the refusal's reason (the ``reason`` parameter of ``shengji.rules.declaring``'s errors;
        the state is unchanged: every rule is checked before anything changes)."""
        why = self._show(r, level, seat, card, count, phase)
        if not why:
            self.shows.extend((seat, card, count))
        return why

    def _show(self, r: HandRules, level: int, seat: int, card: int, count: int, phase: int) -> str:
        if count < 1:
            return "empty"
        if card < 52 and card % 13 + 2 != level:
            return "not_level"
        if card >= 52 and count < 2:
            return "single_joker"
        if count > r.decks:
            return "too_many"
        style = r.declaring
        if style == DECL_SHUANGSHENG:
            return self._shuangsheng(seat, card, count, phase)
        if style == DECL_CLASSIC:
            return self._classic(r, seat, card, count, phase)
        if style == DECL_TUOLAJI:
            return self._tuolaji(r, seat, card, count, phase)
        if style == DECL_SHUANGKOU:
            return self._shuangkou(seat, card, count, phase)
        if style == DECL_BOTZONE:
            return self._botzone(r, seat, card, count, phase)
        return self._by_count(seat, card, count, phase, style == DECL_COUNT)

    def _shuangsheng(self, seat: int, card: int, count: int, phase: int) -> str:
        if not self.declared:
            return self._initial(seat, card, count, phase, False, False)
        if self._is_reinforcement(seat, card, count):
            return self._reinforce(seat, card, phase)
        if count < 2:
            return "counter_needs_pair"
        if seat == self.holder:
            return "own_declaration"
        if self.first_hand and phase == PH_AFTER_BURIAL:
            return "first_hand_no_counter"
        if not self.first_hand and phase in (PH_DEAL, PH_BEFORE_KITTY):
            return "counter_after_burial"
        if not self._outranks(card, count):
            return "outranked"
        return self._countered(seat, card, count, self.first_hand, True)

    def _by_count(self, seat: int, card: int, count: int, phase: int, suits: bool) -> str:
        """``count`` and ``ladder``: 双升's timing; :attr:`rung` is the standing show's
        number of cards. The holder may only add cards to it; another seat needs a
        stronger show (:meth:`_stronger`)."""
        if not self.declared:
            why = self._initial(seat, card, count, phase, True, False)
            if not why:
                self.rung = count
            return why
        if seat == self.holder:
            if not self._same_show(card) or count <= self.rung:
                return "reinforce_only"
            if phase == PH_AFTER_BURIAL:
                return "late_reinforce"
            self.rung = count
            self.priority = show_priority(card)
            self.locked = True
            self.pair_seats |= 1 << seat
            return ""
        if not self._stronger(card, count, suits):
            return "stronger_show"
        if self.first_hand and phase == PH_AFTER_BURIAL:
            return "first_hand_no_counter"
        if not self.first_hand and phase in (PH_DEAL, PH_BEFORE_KITTY):
            return "counter_after_burial"
        self._countered(seat, card, count, self.first_hand, True)
        self.rung = count
        return ""

    def _same_show(self, card: int) -> bool:
        """Whether ``card`` is the card of the standing show."""
        if card >= 52:
            return self.trump == NT and show_priority(card) == self.priority
        return self.trump == card // 13

    def _stronger(self, card: int, count: int, suits: bool) -> bool:
        """More cards than the standing show, or as many (two or more) that outrank it:
        by ``BJ > LJ > S > H > C > D`` (``suits``), else jokers over level cards."""
        if count != self.rung:
            return count > self.rung
        if count < 2:
            return False
        mine, theirs = show_priority(card), self.priority
        if not suits:
            mine = max(0, mine - 3)
            theirs = max(0, theirs - 3)
        return mine > theirs

    def _shuangkou(self, seat: int, card: int, count: int, phase: int) -> str:
        if not self.declared:
            return self._initial(seat, card, count, phase, False, False)
        if count < 2:
            return "needs_pair"
        if self.flipped and card < 52:
            return "flipped_jokers"
        if phase == PH_AFTER_BURIAL:
            if seat == self.banker:
                return "banker"
            if self.pair_seats >> seat & 1:
                return "once_each"
            if show_priority(card) <= self._standing_priority():
                return "outranked"
            return self._countered(seat, card, count, False, True)
        if phase == PH_BEFORE_KITTY:
            return "fix_while_dealing"
        if self._is_reinforcement(seat, card, count):
            return self._reinforce(seat, card, phase)
        if not self._outranks(card, count):
            return "outranked"
        return self._countered(seat, card, count, self.first_hand, True)

    def _classic(self, r: HandRules, seat: int, card: int, count: int, phase: int) -> str:
        if not self.declared:
            return self._initial(seat, card, count, phase, True, True)
        if phase == PH_AFTER_BURIAL:
            return "after_burial"
        if show_rung(card, count) <= self.rung:
            return "stronger_needed"
        takes = self.first_hand and r.counter_takes_banker
        return self._countered(seat, card, count, takes, seat != self.holder)

    def _tuolaji(self, r: HandRules, seat: int, card: int, count: int, phase: int) -> str:
        if not self.declared:
            return self._initial(seat, card, count, phase, True, False)
        if phase == PH_AFTER_BURIAL:
            return "after_burial"
        if count < 2:
            return "needs_pair"
        takes = self.first_hand and r.counter_takes_banker
        if card >= 52:
            if self.trump == NT:
                return "already_nt"
            return self._countered(seat, card, count, takes, True)
        if self.locked:
            return "locked"
        if card // 13 == self.trump:
            return self._reinforce(seat, card, phase)
        return self._countered(seat, card, count, takes, True)

    def _botzone(self, r: HandRules, seat: int, card: int, count: int, phase: int) -> str:
        if phase not in (PH_DEAL, PH_ANY):
            return "only_while_dealing"
        if not self.declared:
            if count != 1:
                return "single_first"
            return self._initial(seat, card, count, phase, False, False)
        if count != 2:
            return "needs_pair"
        if self.counters:
            return "once_only"
        takes = self.first_hand and r.counter_takes_banker
        return self._countered(seat, card, count, takes, True)


def callable_card(t: Tables, level: int, trump: int, card: int, trump_suit: bool) -> bool:
    """Whether ``card`` may be called as a friend (找朋友) at ``level`` with ``trump``
    (tables ``t``): not a joker, a level card or another card that is a trump outside
    the trump suit (a constant 2); a card of the trump suit only when ``trump_suit``
    (``call_trump_suit``)."""
    if card < 0 or card >= 52 or card % 13 + 2 == level:
        return False
    if t.suit_of[card] != TRUMP:
        return True
    return trump_suit and card // 13 == trump


def calls_error(
    t: Tables,
    level: int,
    trump: int,
    calls: int,
    decks: int,
    cards: list[int],
    ordinals: list[int],
    trump_suit: bool,
) -> str:
    """Why these friend calls are not allowed ("" when they are): not ``calls`` of them,
    a card that may not be called (:func:`callable_card`), an ordinal outside 1..``decks``
    or the same call twice."""
    if len(cards) != calls or len(ordinals) != len(cards):
        return "count"
    seen: list[int] = []
    for i in range(len(cards)):
        c, k = cards[i], ordinals[i]
        if not callable_card(t, level, trump, c, trump_suit):
            return "not_callable"
        if k < 1 or k > decks:
            return "ordinal"
        if c * 8 + k in seen:
            return "duplicate"
        seen.append(c * 8 + k)
    return ""


def random_calls(
    t: Tables, level: int, trump: int, calls: int, decks: int, trump_suit: bool, rng: KRng
) -> tuple[list[int], list[int]]:
    """``calls`` friend calls drawn uniformly: distinct callable cards
    (:func:`callable_card`), each with a uniform ordinal 1..``decks``."""
    pool = [c for c in range(52) if callable_card(t, level, trump, c, trump_suit)]
    cards = rng.sample(pool, calls)
    return cards, [1 + rng.below(decks) for _ in cards]
