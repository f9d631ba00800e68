"""Whole hands: :class:`KHand` (the deal with a show offered at each draw, the declaring
windows, the burial and the 炒底/反底 rounds, the play phase) and random players over it."""

from __future__ import annotations

from .cards import TRUMP, Tables
from .declare import (
    ACT_BURY,
    ACT_CALL,
    ACT_DEAL,
    ACT_DECLARE,
    ACT_PASS,
    ACT_PLAY,
    MAX_REDEALS,
    NODECL_KITTY_3,
    NODECL_NO_TRUMP,
    NODECL_REDEAL,
    NT,
    PH_AFTER_BURIAL,
    PH_BEFORE_KITTY,
    PH_BURY,
    PH_CALL,
    PH_DEAL,
    PH_OVER,
    PH_PLAY,
    PH_REDEAL,
    HandRules,
    KDeclare,
    callable_card,
    calls_error,
    counters_after_burial,
    random_calls,
)
from .rng import KRng
from .state import KState


class KHand:
    """A whole hand on ints, mutable: the deal with a show offered at each draw, the
    declaring windows, burial and the 炒底/反底 rounds, then the play phase (a
    :class:`KState` in :attr:`play`). Every method acts for the seat :attr:`to_act` and
    trusts its input unless it is a ``*_error`` check; :meth:`advance` runs what needs no
    decision. Scoring a finished hand (``PH_OVER``) is the caller's.

    During the deal any seat may show (:meth:`show_during_deal`), not only the one asked.
    A :attr:`paced` hand asks nobody at the draws: the table deals on with :meth:`deal_to`
    at its own pace and the seats show whenever they like."""

    def __init__(
        self,
        r: HandRules,
        tables: list[Tables],
        level: int,
        deck: list[int],
        start_seat: int,
        first_hand: bool,
        banker: int,
        redeals: int,
    ) -> None:
        n = r.seats
        self.r = r
        #: Tables per trump: index ``trump + 1`` (NT first).
        self.tables = tables
        self.level = level
        self.deck = deck
        self.start_seat = start_seat
        self.redeals = redeals
        self.phase = PH_DEAL
        self.dealt = 0
        self.hands: list[list[int]] = [[0] * 54 for _ in range(n)]
        self.sizes: list[int] = [0] * n
        self.kitty: list[int] = deck[n * r.hand_size :]
        self.decl = KDeclare(first_hand, banker)
        self.to_act = -1
        self.window_start = start_seat
        self.window_pos = 0
        self.passes = 0
        self.buried_by: list[int] = []
        #: ``seat, kind (0 picked up, 1 buried), first card index in kitty_cards`` triples.
        self.kitty_log: list[int] = []
        self.kitty_cards: list[int] = []
        self.play: KState | None = None
        #: The kitty card turned to set trump when nobody declared (-1: none turned).
        self.turned = -1
        #: ``weak_redeal``: the seat whose weak hand asks for the redeal (-1: none).
        self.weak = -1
        #: Decisions taken so far (shows, passes, burials, plays).
        self.decisions = 0
        self.record = False
        #: With :attr:`record`: every decision as ``[kind, seat, card...]`` (a declaration
        #: as ``[ACT_DECLARE, seat, card, count]``).
        self.log: list[list[int]] = []
        #: The deal asks nobody: :meth:`deal_to` deals on (the table's clock).
        self.paced = False

    def copy(self) -> KHand:
        """An independent copy (the log is not copied)."""
        h = KHand(self.r, self.tables, self.level, self.deck, self.start_seat, True, -1, 0)
        h.redeals = self.redeals
        h.phase = self.phase
        h.dealt = self.dealt
        h.hands = [list(x) for x in self.hands]
        h.sizes = list(self.sizes)
        h.kitty = list(self.kitty)
        h.decl = self.decl.copy()
        h.to_act = self.to_act
        h.window_start = self.window_start
        h.window_pos = self.window_pos
        h.passes = self.passes
        h.buried_by = list(self.buried_by)
        h.decisions = self.decisions
        h.kitty_log = list(self.kitty_log)
        h.kitty_cards = list(self.kitty_cards)
        h.turned = self.turned
        h.weak = self.weak
        h.paced = self.paced
        if self.play is not None:
            p = self.play.copy()
            p.hands = h.hands
            p.sizes = h.sizes
            h.play = p
        return h

    @property
    def trump_tables(self) -> Tables:
        """The tables of the current trump (NT until one is declared)."""
        d = self.decl
        return self.tables[(d.trump if d.declared else NT) + 1]

    # -- declaring ---------------------------------------------------------------------------

    def show_cards(self, seat: int) -> list[int]:
        """The level cards and jokers ``seat`` holds, by card index."""
        hand = self.hands[seat]
        out: list[int] = []
        c = self.level - 2
        for s in range(4):
            if hand[c + 13 * s]:
                out.append(c + 13 * s)
        if hand[52]:
            out.append(52)
        if hand[53]:
            out.append(53)
        return out

    def legal_shows(self, seat: int) -> list[int]:
        """Every show ``seat`` may make now, as ``card * 8 + count``, ordered by count then
        card (as ``shengji.game.legal.legal_shows``)."""
        out: list[int] = []
        if self.phase not in (PH_DEAL, PH_BEFORE_KITTY, PH_AFTER_BURIAL):
            return out
        hand = self.hands[seat]
        for c in self.show_cards(seat):
            for k in range(2 if c >= 52 else 1, hand[c] + 1):
                if not self.show_error(seat, c, k):
                    out.append(k * 64 + c)
        out.sort()
        return [(x % 64) * 8 + x // 64 for x in out]

    def has_show(self, seat: int) -> bool:
        """Whether ``seat`` has any legal show now."""
        hand = self.hands[seat]
        for c in self.show_cards(seat):
            for k in range(2 if c >= 52 else 1, hand[c] + 1):
                if not self.show_error(seat, c, k):
                    return True
        return False

    def show_error(self, seat: int, card: int, count: int) -> str:
        """Why ``seat`` may not show ``count`` x ``card`` now ("" when it may)."""
        if self.hands[seat][card] < count:
            return "not_held"
        return self.decl.copy()._show(self.r, self.level, seat, card, count, self.phase)

    def declare(self, card: int, count: int) -> None:
        """The seat to act shows ``count`` x ``card`` (legal: :meth:`show_error`)."""
        seat = self.to_act
        self.decl.show(self.r, self.level, seat, card, count, self.phase)
        self.decisions += 1
        if self.record:
            self.log.append([ACT_DECLARE, seat, card, count])
        self.passes = 0
        self.to_act = -1
        if self.phase == PH_BEFORE_KITTY:
            self.window_pos += 1
        elif self.phase == PH_AFTER_BURIAL:
            # the counter-declarer takes the kitty and buries again (炒底/反底)
            self._take_kitty(seat)

    def show_during_deal(self, seat: int, card: int, count: int) -> None:
        """``seat`` shows ``count`` x ``card`` while the cards are dealt, asked or not
        (legal: :meth:`show_error`). A seat asked at its draw whom the show leaves with
        nothing to show is asked no more: the deal goes on at :meth:`advance`."""
        if seat == self.to_act:
            self.declare(card, count)
            return
        self.decl.show(self.r, self.level, seat, card, count, self.phase)
        self.decisions += 1
        if self.record:
            self.log.append([ACT_DECLARE, seat, card, count])
        if self.to_act >= 0 and not self.has_show(self.to_act):
            self.to_act = -1

    def deal_to(self, dealt: int) -> None:
        """Deal on until ``dealt`` cards are out (a :attr:`paced` hand: nobody is asked);
        the last card ends the deal and opens the round before the kitty."""
        if self.record:
            self.log.append([ACT_DEAL, -1, dealt])
        n = self.r.seats
        deck = self.deck
        while self.dealt < dealt:
            seat = (self.start_seat + self.dealt) % n
            self.hands[seat][deck[self.dealt]] += 1
            self.sizes[seat] += 1
            self.dealt += 1
        if self.dealt == n * self.r.hand_size:
            self._end_deal()

    def pass_turn(self) -> None:
        """The seat to act passes (declines to show)."""
        self.decisions += 1
        if self.record:
            self.log.append([ACT_PASS, self.to_act])
        self.to_act = -1
        if self.phase != PH_DEAL:
            self.passes += 1
            self.window_pos += 1

    def _take_kitty(self, seat: int) -> None:
        hand = self.hands[seat]
        for c in self.kitty:
            hand[c] += 1
        self.sizes[seat] += len(self.kitty)
        self.kitty_log.extend((seat, 0, len(self.kitty_cards)))
        self.kitty_cards.extend(self.kitty)
        self.kitty = []
        self.phase = PH_BURY
        self.to_act = seat

    # -- the kitty ---------------------------------------------------------------------------

    def bury_error(self, cards: list[int]) -> str:
        """Why the seat to act may not bury ``cards`` ("" when it may)."""
        if len(cards) != self.r.kitty_size:
            return "count"
        hand = self.hands[self.to_act]
        cnt = [0] * 54
        for c in cards:
            if c < 0 or c > 53:
                return "not_held"
            cnt[c] += 1
            if cnt[c] > hand[c]:
                return "not_held"
        return ""

    def bury(self, cards: list[int]) -> None:
        """The seat to act buries ``cards`` (legal: :meth:`bury_error`)."""
        seat = self.to_act
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
        self.sizes[seat] -= len(cards)
        self.decisions += 1
        if self.record:
            self.log.append([ACT_BURY, seat, *cards])
        self.kitty = list(cards)
        self.buried_by.append(seat)
        self.kitty_log.extend((seat, 1, len(self.kitty_cards)))
        self.kitty_cards.extend(cards)
        self.to_act = -1
        if len(self.buried_by) > 1:
            self.phase = PH_AFTER_BURIAL
            self.passes = 0
            self.window_pos += 1
            return
        if counters_after_burial(self.r.declaring, self.decl.first_hand):
            self.phase = PH_AFTER_BURIAL
            self.window_start = self.decl.banker
            self.window_pos = 0
            self.passes = 0
        else:
            self._end_kitty()

    def _end_kitty(self) -> None:
        if self.r.calls:
            self.phase = PH_CALL
            self.to_act = self.decl.banker
        else:
            self._begin_play()

    # -- 找朋友: calling friends -----------------------------------------------------------

    def callable_card(self, card: int) -> bool:
        """Whether ``card`` may be called now (:func:`callable_card`)."""
        return callable_card(
            self.trump_tables, self.level, self.decl.trump, card, self.r.call_trump_suit
        )

    def call_error(self, cards: list[int], ordinals: list[int]) -> str:
        """Why the banker may not make these calls now ("" when it may)."""
        if self.phase != PH_CALL:
            return "phase"
        r, t = self.r, self.trump_tables
        return calls_error(
            t, self.level, self.decl.trump, r.calls, r.decks, cards, ordinals, r.call_trump_suit
        )

    def call_friends(self, cards: list[int], ordinals: list[int]) -> None:
        """The banker calls friends (legal: :meth:`call_error`); the play begins."""
        self.decisions += 1
        if self.record:
            self.log.append(
                [ACT_CALL, self.to_act, *[c * 8 + k for c, k in zip(cards, ordinals, strict=False)]]
            )
        self._begin_play()
        ks = self.play
        assert ks is not None
        ks.set_calls(list(cards), list(ordinals))

    def random_calls(self, rng: KRng) -> tuple[list[int], list[int]]:
        """The random player's calls (:func:`random_calls`)."""
        t, r = self.trump_tables, self.r
        return random_calls(
            t, self.level, self.decl.trump, r.calls, r.decks, r.call_trump_suit, rng
        )

    def _begin_play(self) -> None:
        banker = self.decl.banker
        ks = KState(self.trump_tables, banker, banker, self.r.team)
        ks.hands = self.hands
        ks.sizes = self.sizes
        ks.record = self.record
        self.play = ks
        self.phase = PH_PLAY
        self.to_act = banker

    # -- play ----------------------------------------------------------------------------------

    def play_cards(self, cards: list[int]) -> None:
        """The seat to act plays ``cards`` (legal: ``self.play.is_legal``)."""
        ks = self.play
        assert ks is not None
        self.decisions += 1
        if self.record:
            self.log.append([ACT_PLAY, ks.to_act, *cards])
        ks.apply(cards)
        if ks.done:
            self.phase = PH_OVER
            self.to_act = -1
        else:
            self.to_act = ks.to_act

    # -- automatic steps -----------------------------------------------------------------------

    def advance(self) -> None:
        """Deal, skip seats with nothing to show and close windows until a seat must
        decide (:attr:`to_act`), the play starts, or the hand needs a redeal."""
        while self.to_act < 0 and self.phase in (PH_DEAL, PH_BEFORE_KITTY, PH_AFTER_BURIAL):
            if self.phase == PH_DEAL:
                if self.paced:
                    return  # the table deals on (deal_to)
                self._deal_until_choice()
            else:
                self._window_step()

    def _deal_until_choice(self) -> None:
        r = self.r
        n = r.seats
        total = n * r.hand_size
        level = self.level
        can = [-1] * n
        deck = self.deck
        while self.dealt < total:
            seat = (self.start_seat + self.dealt) % n
            card = deck[self.dealt]
            self.hands[seat][card] += 1
            self.sizes[seat] += 1
            self.dealt += 1
            if card >= 52 or card % 13 + 2 == level:
                can[seat] = -1
            if can[seat] < 0:
                can[seat] = 1 if self.has_show(seat) else 0
            # a level card may be shown at any time during the deal (随时): the seat is
            # asked at each of its draws while it has a legal show
            if can[seat]:
                self.to_act = seat
                return
        self._end_deal()

    def _end_deal(self) -> None:
        self.phase = PH_BEFORE_KITTY
        self.window_start = self.start_seat
        self.window_pos = 0
        self.passes = 0

    def _window_step(self) -> None:
        n = self.r.seats
        while self.passes < n:
            seat = (self.window_start + self.window_pos) % n
            if self.has_show(seat):
                self.to_act = seat
                return
            self.passes += 1
            self.window_pos += 1
        if self.phase == PH_BEFORE_KITTY:
            self._close_declaring()
        else:
            self._end_kitty()

    def _close_declaring(self) -> None:
        d = self.decl
        if not d.declared:
            mode = self.r.no_declaration
            redeal = mode == NODECL_REDEAL or (d.first_hand and mode == NODECL_KITTY_3)
            if redeal and self.redeals < MAX_REDEALS:
                self.phase = PH_REDEAL
                return
            trump = NT
            if not redeal and mode != NODECL_NO_TRUMP:
                card = self.kitty[2 if mode == NODECL_KITTY_3 else 3]
                trump = NT if card >= 52 else card // 13
                self.turned = card
            d.declared = True
            d.trump = trump
            d.flipped = True
            d.rung = 1
            d.banker = self.start_seat if d.banker < 0 else d.banker
        if self.r.weak_redeal >= 0 and self.redeals < MAX_REDEALS:
            self.weak = self.weak_seat()
            if self.weak >= 0:
                self.phase = PH_REDEAL
                return
        self._take_kitty(d.banker)

    def weak_seat(self) -> int:
        """The first seat from the first dealt to whose hand is weak (:func:`weak_hand`
        under ``weak_redeal``), or -1."""
        t = self.trump_tables
        n = self.r.seats
        for i in range(n):
            seat = (self.start_seat + i) % n
            if weak_hand(t, self.hands[seat], self.level, self.decl.trump, self.r.weak_redeal):
                return seat
        return -1

    # -- a random player (``shengji.bots.random_bot``) -----------------------------------------

    def random_action(self, rng: KRng, throw_rate: float) -> None:
        """Act for :attr:`to_act` as the random bot does: a uniform choice among the legal
        shows and passing, a uniform burial, a uniform legal follow, or a random lead
        (:func:`random_lead`)."""
        seat = self.to_act
        ph = self.phase
        if ph == PH_PLAY:
            ks = self.play
            assert ks is not None
            self.play_cards(ks.random_move_k(rng, throw_rate))
        elif ph == PH_BURY:
            self.bury(random_burial(self.hands[seat], self.r.kitty_size, rng))
        elif ph == PH_CALL:
            cards, ords = self.random_calls(rng)
            self.call_friends(cards, ords)
        else:
            shows = self.legal_shows(seat)
            pick = rng.below(len(shows) + 1)
            if pick < len(shows):
                self.declare(shows[pick] // 8, shows[pick] % 8)
            else:
                self.pass_turn()


def weak_hand(t: Tables, hand: list[int], level: int, trump: int, top: int) -> bool:
    """Whether ``hand`` (counts) is weak for ``weak_redeal`` at rank ``top``: every trump
    it holds (none counts) is a plain card of the trump suit ``trump`` ranked ``top`` or
    lower, so no joker, level card or trump 2 (``constant_twos``), and none under NT."""
    for c in t.suit_cards[TRUMP]:
        if not hand[c]:
            continue
        if c >= 52 or c // 13 != trump or c % 13 + 2 == level or c % 13 + 2 > top:
            return False
        if c % 13 == 0 and t.suit_of[(c + 13) % 52] == TRUMP:  # a constant 2
            return False
    return True


def random_burial(hand: list[int], k: int, rng: KRng) -> list[int]:
    """``k`` cards of ``hand`` (counts) drawn uniformly, from the cards in index order."""
    pool: list[int] = []
    for c in range(54):
        for _ in range(hand[c]):
            pool.append(c)
    return rng.sample(pool, k)


def random_hand(h: KHand, rngs: list[KRng], throw_rate: float) -> None:
    """Play ``h`` to its end (or to a redeal) with a random player at every seat, each
    drawing from its own stream ``rngs[seat]``."""
    h.advance()
    while h.phase != PH_OVER and h.phase != PH_REDEAL:
        h.random_action(rngs[h.to_act], throw_rate)
        h.advance()
