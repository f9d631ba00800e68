"""What a seat knows about the hidden cards, and deals of them consistent with it.

:class:`Belief` reads a :class:`~shengji.game.views.SeatView` and keeps only facts that are
certain (so the true deal always satisfies them):

- which cards are unseen (the decks less the seat's hand, every card played and the kitty
  it buried when it is still the kitty), how many each other seat holds, and the kitty;
- voids: a seat that followed with a card of another suit holds none of the led suit;
- pair-voids: a seat that followed a lead holding a pair (or wider unit) without playing
  two identical cards of the led suit held no two identical cards of that suit, so it now
  holds none of the cards of that suit it has played since, and no two identical ones;
- cards shown when declaring that the seat has not played since (unless that seat may
  have buried them);
- the rest of a failed throw, which stays in the thrower's hand until played.

:meth:`Belief.sample` deals the unseen cards to the other seats (and the kitty when the
seat does not know it) at random, respecting all of the above (:meth:`Belief.sample_free`
faster, before the first trick). :meth:`Belief.state` is the play-phase state of a deal;
in the burying phase, :meth:`Belief.after_burial` is the play-phase state once the seat
has buried a given kitty.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from ..game.state import GameState, TrickPlay
from ..game.views import SeatView
from ..rules.cards import Card, deck
from ..rules.immutable import evolve
from ..rules.seats import FIXED_TEAMS
from ..rules.trump import TRUMP
from .burial import keep_value

#: The holder number of the kitty in a sampled deal (after the last seat of any table).
KITTY = 8

#: Soft facts (:meth:`Belief.likelihood`): how likely a sensible last player's play is
#: when the sampled hand says it held a card that wins a trick of at least
#: :data:`SOFT_POINTS` points the other side was winning (and did not play it) ...
SOFT_WIN = 0.25
#: ... or a point card of the led suit (or, void in it, of a side suit) it did not give
#: to its partner, who was winning.
SOFT_FEED = 0.4
SOFT_POINTS = 5

_ATTEMPTS = 60
#: With a burial prior (:meth:`Belief.buried`): the spread of the random doubt added to
#: each card's keep value (a rank is 1, a point 1.6).
BURY_NOISE = 6.0


class Belief:
    """The certain facts a seat's view gives about the hidden cards."""

    def __init__(self, view: SeatView, burial_prior: bool = False) -> None:
        assert view.seat is not None
        self.seat = seat = view.seat
        #: Deal the kitty as a banker buries (:meth:`buried`), not like another hand.
        self.burial_prior = burial_prior
        ctx = view.ctx
        self.view = view
        seats = len(view.hand_sizes)
        holders = [*range(seats), KITTY]
        unseen: Counter[Card] = Counter(deck(view.options.decks))
        unseen.subtract(view.hand)
        #: Seats (or KITTY) that cannot hold a card of an effective suit.
        self.void: dict[int, set[int]] = {s: set() for s in holders}
        #: Seats that hold no two identical cards of an effective suit.
        self.no_pair: dict[int, set[int]] = {s: set() for s in holders}
        #: Cards a seat cannot hold (played since a pair-void was shown).
        self.banned: dict[int, set[Card]] = {s: set() for s in holders}
        played_by: dict[int, Counter[Card]] = {s: Counter() for s in range(seats)}
        #: Cards a seat certainly holds.
        self.forced: dict[int, Counter[Card]] = {s: Counter() for s in holders}
        suit_of = ctx.suit_of
        all_plays = [t.plays for t in view.tricks]
        if view.trick:
            all_plays.append(view.trick)
        throw_rest: list[tuple[int, Counter[Card], int]] = []
        pair_marks: list[tuple[int, int, int]] = []  # (seat, suit, trick number)
        for n, plays in enumerate(all_plays):
            lead_cards = plays[0].cards
            x = suit_of[lead_cards[0].index]
            wide = len(lead_cards) >= 2 and len(set(lead_cards)) < len(lead_cards)
            first = plays[0]
            if first.attempted is not None:
                rest = Counter(first.attempted)
                rest.subtract(first.cards)
                throw_rest.append((first.seat, +rest, n))
            for p in plays:
                unseen.subtract(p.cards)
            for p in plays[1:]:
                in_suit = [c for c in p.cards if suit_of[c.index] == x]
                if len(in_suit) < len(p.cards):
                    self.void[p.seat].add(x)
                elif wide and len(set(in_suit)) == len(in_suit):
                    pair_marks.append((p.seat, x, n))
        for n, plays in enumerate(all_plays):
            for p in plays:
                played_by[p.seat].update(p.cards)
                for s, x, m in pair_marks:
                    if s == p.seat and m <= n:
                        for c in p.cards:
                            if suit_of[c.index] == x:
                                self.banned[s].add(c)
        for s, x, _ in pair_marks:
            self.no_pair[s].add(x)
        self._played_by = played_by
        self.kitty: tuple[Card, ...] | None = _known_kitty(view)
        if self.kitty is not None:
            unseen.subtract(self.kitty)
        self.unseen: Counter[Card] = +unseen
        # cards shown when declaring, by a seat that cannot have buried them
        buriers = {view.declare.banker}
        if _reburials(view):
            buriers |= {s for s, _ in view.declare.shows}
        shown: dict[int, Counter[Card]] = {s: Counter() for s in range(seats)}
        for s, cards in view.declare.shows:
            for c, k in Counter(cards).items():
                shown[s][c] = max(shown[s][c], k)
        for s in range(seats):
            if s == seat or s in buriers:
                continue
            for c, k in shown[s].items():
                left = k - played_by[s][c]
                if left > 0:
                    self.forced[s][c] = max(self.forced[s][c], left)
        for s, rest, n in throw_rest:
            if s == seat:
                continue
            later: Counter[Card] = Counter()
            for plays in all_plays[n + 1 :]:
                for p in plays:
                    if p.seat == s:
                        later.update(p.cards)
            for c, k in rest.items():
                left = k - later[c]
                if left > 0:
                    self.forced[s][c] = max(self.forced[s][c], left)
        #: How many hidden cards each holder has (seats and, if unknown, the kitty).
        self.capacity: dict[int, int] = {
            s: view.hand_sizes[s] for s in range(seats) if s != seat and view.hand_sizes[s]
        }
        if self.kitty is None and view.phase in ("play", "after_burial"):
            self.capacity[KITTY] = view.options.kitty_size
        for h in list(self.forced):
            if h not in self.capacity:
                self.forced[h] = Counter()
        self._clip_forced()
        self._soft: list[tuple[int, frozenset[Card], float]] | None = None

    def soft_facts(self) -> list[tuple[int, frozenset[Card], float]]:
        """What the last player of each finished one-card trick suggests about the hand
        it held then: (seat, the unseen cards it would have played, the likelihood of its
        play if it held one of them; it holds now only cards it held then). A sensible
        player in the last seat takes a trick of :data:`SOFT_POINTS` points or more that
        the other side is winning when it can (following suit or trumping in), and gives
        its partner, who wins, a point card of the led suit (or of a side suit when void
        in it)."""
        if self._soft is None and self.view.options.friends:
            self._soft = []  # 找朋友: who is whose partner is not known when they played
        if self._soft is None:
            unseen = set(self.unseen)
            seats = len(self.view.hand_sizes)
            self._soft = []
            for t in self.view.tricks:
                if len(t.plays) == seats and len(t.plays[0].cards) == 1:
                    fact = self._soft_fact(t.plays, unseen)
                    if fact is not None:
                        self._soft.append(fact)
        return self._soft

    def _soft_fact(
        self, plays: Sequence[TrickPlay], unseen: set[Card]
    ) -> tuple[int, frozenset[Card], float] | None:
        """The soft fact of one finished one-card trick (:meth:`soft_facts`), if any."""
        ctx = self.view.ctx
        suit_of, key = ctx.suit_of, ctx.key
        cards = [p.cards[0] for p in plays]
        last = plays[-1].seat
        if last == self.seat or last not in self.capacity:
            return None
        x = suit_of[cards[0].index]
        best = 0
        for i in range(1, len(cards) - 1):
            c = cards[i]
            if suit_of[c.index] in (x, TRUMP) and key[c.index] > key[cards[best].index]:
                best = i
        wkey, wsuit = key[cards[best].index], suit_of[cards[best].index]
        mine = cards[-1]
        msuit = suit_of[mine.index]
        if FIXED_TEAMS[plays[best].seat] != FIXED_TEAMS[last]:
            beats = msuit in (x, TRUMP) and key[mine.index] > wkey
            if beats or sum(c.points for c in cards) < SOFT_POINTS:
                return None
            if msuit == x and wsuit == x:
                bad = {c for c in unseen if suit_of[c.index] == x and key[c.index] > wkey}
            elif msuit not in (x, TRUMP):
                bad = {c for c in unseen if suit_of[c.index] == TRUMP and key[c.index] > wkey}
            else:
                return None
            return (last, frozenset(bad), SOFT_WIN) if bad else None
        if mine.points:
            return None
        if msuit == x:
            bad = {c for c in unseen if suit_of[c.index] == x and c.points}
        elif msuit != TRUMP:
            bad = {c for c in unseen if suit_of[c.index] != TRUMP and c.points}
        else:
            return None
        return (last, frozenset(bad), SOFT_FEED) if bad else None

    def likelihood(self, deal: Mapping[int, Sequence[Card]]) -> float:
        """How likely the other seats' plays were with the hands of ``deal``, relative to
        hands that fit every soft fact (:meth:`soft_facts`): the product of the
        likelihoods of the facts the deal contradicts."""
        w = 1.0
        for h, bad, p in self.soft_facts():
            hand = deal.get(h, ())
            for c in hand:
                if c in bad:
                    w *= p
                    break
        return w

    def _clip_forced(self) -> None:
        """Drop forced cards that do not fit (never happens with a consistent view)."""
        left = Counter(self.unseen)
        for h, cards in self.forced.items():
            room = self.capacity.get(h, 0)
            keep: Counter[Card] = Counter()
            for c, k in cards.items():
                k = min(k, left[c], room)
                if k > 0 and self.allowed(h, c, keep):
                    keep[c] = k
                    left[c] -= k
                    room -= k
            self.forced[h] = keep

    def allowed(self, holder: int, c: Card, held: Counter[Card]) -> bool:
        """Whether ``holder`` (already holding ``held``) may be dealt one more ``c``."""
        x = self.view.ctx.suit_of[c.index]
        if x in self.void[holder] or c in self.banned[holder]:
            return False
        return not (x in self.no_pair[holder] and held[c] >= 1)

    def consistent(self, hands: Mapping[int, Sequence[Card]]) -> bool:
        """Whether a deal of the hidden cards (holder → cards) satisfies every known fact."""
        total: Counter[Card] = Counter()
        for h, cards in hands.items():
            if len(cards) != self.capacity.get(h, 0):
                return False
            held: Counter[Card] = Counter()
            for c in cards:
                if not self.allowed(h, c, held):
                    return False
                held[c] += 1
            if self.forced[h] - held:
                return False
            total.update(cards)
        return total == self.unseen and set(hands) == set(self.capacity)

    def sample(self, rng: random.Random) -> dict[int, list[Card]] | None:
        """A random deal of the unseen cards to the holders that satisfies every known
        fact, or None if none was found (after several attempts)."""
        for _ in range(_ATTEMPTS):
            deal = self._try(rng)
            if deal is not None:
                return self.buried(deal, rng) if self.burial_prior else deal
        return None

    @property
    def free(self) -> bool:
        """Whether only the holders' counts and the forced cards restrict a deal (no
        voids, pair-voids or banned cards: before the first trick): then
        :meth:`sample_free` deals directly, several times faster than :meth:`sample`."""
        return (
            not any(self.void.values())
            and not any(self.no_pair.values())
            and not any(self.banned.values())
        )

    def sample_free(self, rng: random.Random) -> dict[int, list[Card]]:
        """A random deal of the unseen cards for a :attr:`free` belief: each holder gets
        its forced cards and then its share of the other unseen cards, shuffled."""
        assert self.free
        hands = {h: list(self.forced[h].elements()) for h in self.capacity}
        pool = Counter(self.unseen)
        for h in hands:
            pool.subtract(self.forced[h])
        cards = list((+pool).elements())
        rng.shuffle(cards)
        i = 0
        for h, cap in self.capacity.items():
            take = cap - len(hands[h])
            hands[h].extend(cards[i : i + take])
            i += take
        return self.buried(hands, rng) if self.burial_prior else hands

    def buried(self, deal: dict[int, list[Card]], rng: random.Random) -> dict[int, list[Card]]:
        """``deal`` with its kitty chosen again from the banker's sampled hand and kitty as
        a banker buries (when both are sampled): the cards a burial keeps least
        (:func:`~shengji.bots.burial.keep_value`: low side cards of short suits, not
        trumps, pairs or points, over the banker's hand at the burial, the cards it
        played since included), each with :data:`BURY_NOISE` of random doubt. Cards the
        banker cannot hold go to the kitty, those it must hold stay; a split that breaks
        a fact about the banker's hand leaves ``deal`` as it was."""
        banker, k = self.view.declare.banker, self.capacity.get(KITTY, 0)
        if not k or banker is None or banker not in self.capacity:
            return deal
        pool = [*deal[banker], *deal[KITTY]]
        at_burial = Counter(pool) + self._played_by[banker]
        ctx = self.view.ctx
        lengths = Counter(ctx.suit_of[c.index] for c in at_burial.elements())
        stay = Counter(self.forced[banker])
        empty: Counter[Card] = Counter()
        kitty = [c for c in pool if not self.allowed(banker, c, empty)]
        if len(kitty) > k:
            return deal
        rest = Counter(pool)
        rest.subtract(kitty)
        noisy = sorted(
            (keep_value(ctx, c, at_burial[c], lengths, k) + rng.gauss(0, BURY_NOISE), i, c)
            for i, c in enumerate((+rest).elements())
        )
        hand: list[Card] = []
        for _, _, c in noisy:
            if stay[c] > 0:
                stay[c] -= 1
                hand.append(c)
            elif len(kitty) < k:
                kitty.append(c)
            else:
                hand.append(c)
        held: Counter[Card] = Counter()
        for c in hand:
            if not self.allowed(banker, c, held):
                return deal
            held[c] += 1
        if len(kitty) != k:
            return deal
        return {**deal, banker: hand, KITTY: kitty}

    def _prepare(self) -> None:
        """What every :meth:`_try` shares: the pool left once the forced cards are placed,
        split into the constrained cards (some holder may not take them, or a holder holds
        no two of their suit), grouped by how many holders may take each (fewest first),
        and the free cards; and each constrained card's possible holders (voids and banned
        cards do not change while dealing)."""
        holders = list(self.capacity)
        pool = Counter(self.unseen)
        for h in holders:
            pool.subtract(self.forced[h])
        empty: Counter[Card] = Counter()
        suit_of = self.view.ctx.suit_of
        pair_suits = {x for h in holders for x in self.no_pair[h]}
        may: dict[Card, list[int]] = {}
        groups: dict[int, list[Card]] = {}
        free: list[Card] = []
        for c, k in (+pool).items():
            ok = [h for h in holders if self.allowed(h, c, empty)]
            if len(ok) == len(holders) and suit_of[c.index] not in pair_suits:
                free.extend([c] * k)
            else:
                may[c] = ok
                groups.setdefault(len(ok), []).extend([c] * k)
        self._groups = [groups[n] for n in sorted(groups)]
        self._free = free
        self._may = may
        self._pairless = {h for h in holders if self.no_pair[h]}

    def _try(self, rng: random.Random) -> dict[int, list[Card]] | None:
        if not hasattr(self, "_groups"):
            self._prepare()
        holders = list(self.capacity)
        hands: dict[int, list[Card]] = {h: list(self.forced[h].elements()) for h in holders}
        held: dict[int, Counter[Card]] = {h: Counter(self.forced[h]) for h in holders}
        room = {h: self.capacity[h] - len(hands[h]) for h in holders}
        suit_of = self.view.ctx.suit_of
        no_pair, pairless, may = self.no_pair, self._pairless, self._may
        shuffle, uniform = rng.shuffle, rng.random
        for group in self._groups:
            cards = list(group)
            shuffle(cards)
            for c in cards:
                options = [
                    h
                    for h in may[c]
                    if room[h] > 0
                    and not (h in pairless and held[h][c] and suit_of[c.index] in no_pair[h])
                ]
                if not options:
                    target = self._repair(c, hands, held, room, rng)
                    if target is None:
                        return None
                    h = target
                elif len(options) == 1:
                    h = options[0]
                else:
                    x = uniform() * sum([room[g] for g in options])
                    h = options[-1]
                    for g in options:
                        x -= room[g]
                        if x < 0:
                            h = g
                            break
                hands[h].append(c)
                held[h][c] += 1
                room[h] -= 1
        # the free cards: any holder may take any of them, so a shuffle cut by the room
        # left is a uniform deal of them
        cards = list(self._free)
        shuffle(cards)
        i = 0
        for h in holders:
            hands[h].extend(cards[i : i + room[h]])
            i += room[h]
        return hands

    def _repair(
        self,
        c: Card,
        hands: dict[int, list[Card]],
        held: dict[int, Counter[Card]],
        room: dict[int, int],
        rng: random.Random,
    ) -> int | None:
        """Make room for ``c``: move a card from a full holder that may take ``c`` to a
        holder with room that may take the moved card. Returns the freed holder."""
        full = [h for h in hands if self.allowed(h, c, held[h])]
        rng.shuffle(full)
        spare = [g for g in hands if room[g] > 0]
        for h in full:
            for i, d in enumerate(hands[h]):
                if self.forced[h][d] and held[h][d] <= self.forced[h][d]:
                    continue
                for g in spare:
                    if g != h and self.allowed(g, d, held[g]):
                        hands[h].pop(i)
                        held[h][d] -= 1
                        hands[g].append(d)
                        held[g][d] += 1
                        room[g] -= 1
                        room[h] += 1
                        if self.allowed(h, c, held[h]):
                            return h
                        return None
        return None

    def state(self, deal: Mapping[int, Sequence[Card]]) -> GameState:
        """A full game state: the view with the sampled hidden hands (and kitty)."""
        return state_from_view(self.view, deal, self.kitty)

    def after_burial(self, deal: Mapping[int, Sequence[Card]], burial: Sequence[Card]) -> GameState:
        """The play-phase state once this seat (in the burying phase) buries ``burial``,
        with the sampled hands of the other seats: see :func:`state_after_burial`."""
        return state_after_burial(self.view, deal, burial)


def _reburials(view: SeatView) -> bool:
    """Whether the rules let a counter-declaration after the burial take the kitty (and
    bury again) in this hand."""
    style = view.options.declaring
    later = not view.declare.first_hand
    return style == "shuangkou" or (style in ("shuangsheng", "count", "ladder") and later)


def _known_kitty(view: SeatView) -> tuple[Card, ...] | None:
    """The kitty, when this seat buried it and nobody can have taken it since (with
    reburials, the last counter-declarer, who holds the declaration, buried last)."""
    entries = view.kitty_seen
    if not entries or entries[-1][0] != "buried":
        return None
    if _reburials(view) and view.declare.holder != view.seat:
        return None
    return entries[-1][1]


def state_from_view(
    view: SeatView, deal: Mapping[int, Sequence[Card]], kitty: tuple[Card, ...] | None
) -> GameState:
    """A :class:`GameState` for the play phase built from a view and the hidden cards:
    ``deal`` maps each other seat (and ``KITTY`` when ``kitty`` is None) to its cards."""
    assert view.seat is not None
    n = len(view.hand_sizes)
    hands = tuple(view.hand if s == view.seat else tuple(deal.get(s, ())) for s in range(n))
    return GameState(
        options=view.options,
        seed=0,
        levels=view.levels,
        progress=(0, 0),
        coins=view.coins,
        hand_number=view.hand_number,
        results=view.results,
        phase=view.phase,
        redeals=0,
        start_seat=0,
        deck_order=(),
        dealt=view.dealt,
        hands=hands,
        kitty=kitty if kitty is not None else tuple(deal.get(KITTY, ())),
        declare=view.declare,
        level=view.level,
        to_act=view.to_act,
        leader=view.leader,
        trick=view.trick,
        lead=view.lead,
        tricks=view.tricks,
        trick_points=view.trick_points,
        penalties=view.penalties,
        ctx=view.ctx,
    )


def state_after_burial(
    view: SeatView, deal: Mapping[int, Sequence[Card]], burial: Sequence[Card]
) -> GameState:
    """A :class:`GameState` at the start of the play phase, built from a view in the
    burying phase (its seat holds the kitty), the other seats' sampled hands (``deal``)
    and the cards the seat buries. The banker leads the first trick. A counter window
    after the burial (反主炒底 / 反底), where the rules have one, is taken as passed."""
    assert view.seat is not None and view.phase == "bury"
    banker = view.declare.banker
    assert banker is not None
    mine = list(view.hand)
    for c in burial:
        mine.remove(c)
    st = state_from_view(view, deal, tuple(burial))
    hands = tuple(tuple(mine) if s == view.seat else h for s, h in enumerate(st.hands))
    return evolve(
        st,
        phase="play",
        hands=hands,
        to_act=banker,
        buried_by=(view.seat,),
        leader=banker,
        trick=(),
        lead=None,
        tricks=(),
    )
