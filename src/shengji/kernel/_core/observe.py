"""The RL environments' observation: :class:`KObserver` writes a seat's observation
vector (:class:`KRow`, its parts) from a :class:`KHand`."""

from __future__ import annotations

from typing import Any

from .cards import EV_PLAY, EV_TRICK
from .declare import PH_AFTER_BURIAL, PH_BURY, PH_CALL, PH_OVER
from .hand import KHand
from .state import KState


class KRow:
    """Where one observation vector is: ``out[base : base + size]`` (:attr:`vec`), and
    each of its parts as its own memoryview (entries are written by small indexes).
    :attr:`parts` holds the card parts in order (``hand``, ``selection``, the ``seats``
    rows of ``played``, ``trick`` and ``shown``, ``picked_up``, ``buried``, ``kitty``,
    ``out``, then the ``called`` rows), :attr:`sc` the scalars."""

    def __init__(
        self, out: memoryview[Any], base: int, size: int, starts: list[int], scalars: int
    ) -> None:
        self.vec = out[base : base + size]
        self.parts = [out[base + at : base + at + 54] for at in starts]
        self.sc = out[base + scalars : base + size]


class KObserver:
    """The observation vectors of the hands of a match (``shengji.bots.observation``'s
    layout, equal to ``encode(seat_view(...))`` of the object engine), written into a
    float32 buffer (a :class:`KRow`) by :meth:`write`.

    ``at`` gives where each part and each scalar is in the vector (the names of
    ``shengji.bots.observation.Layout``), ``scale`` what each raw entry is multiplied by
    (float32 values) before it is clipped into [0, 1]. Each seat's card parts are kept
    here, as a vector of their own, and changed as the hand goes (cards dealt, shown,
    taken and buried with the kitty, played, tricks ended): :meth:`write` copies the seat's
    vector and adds the scalars. The cards each seat played come from the play events of
    the hand (:attr:`KHand.record`, turned on here: observe a match from the start of its
    hands)."""

    def __init__(self, seats: int, friends: bool, at: dict[str, int], scale: list[float]) -> None:
        n = self.seats = seats
        self.friends = friends
        size = self.size = len(scale)
        s0 = self.scalars = at["scalars"]
        #: The card parts' first entries, in :class:`KRow`'s order.
        names = ["hand", "selection"]
        for part in ("played", "trick", "shown"):
            names += [part] * n
        names += ["picked_up", "buried", "kitty", "out"]
        starts = [at[name] for name in names]
        for i in range(2, 2 + 3 * n):
            starts[i] += 54 * ((i - 2) % n)
        if friends:
            starts += [at["called"] + 54 * j for j in range(3)]
        self.starts = starts
        self.p_played = 2
        self.p_trick = 2 + n
        self.p_shown = 2 + 2 * n
        self.p_picked = 2 + 3 * n
        self.p_kitty = self.p_picked + 2
        self.p_out = self.p_picked + 3
        #: A card part's entry for each count (float32 of count / decks, clipped), kept
        #: boxed (so is ``1.0``): they are written as they are.
        card = scale[at["hand"]]
        self.counts: list[Any] = [min(1.0, k * card) for k in range(9)]
        self.one: list[Any] = [1.0]
        #: The scale of the scalars, from the first scalar on.
        self.scale = scale[s0:]
        self.i_phase = at["phase_deal"] - s0
        self.i_trump = at["trump_S"] - s0
        self.i_trump_nt = at["trump_NT"] - s0
        self.i_trump_unknown = at["trump_unknown"] - s0
        self.i_banker = at["banker_0"] - s0
        self.i_banker_unknown = at["banker_unknown"] - s0
        self.i_to_act = at["to_act_0"] - s0
        self.i_leader = at["leader_0"] - s0
        self.i_sizes = at["hand_size_0"] - s0
        self.i_level = at["level"] - s0
        self.i_points = at["collector_points"] - s0
        self.i_penalties = at["penalties"] - s0
        self.i_counters = at["counters"] - s0
        self.i_dealt = at["dealt"] - s0
        self.i_hand_number = at["hand_number"] - s0
        self.i_lead_size = at["lead_size"] - s0
        self.i_decks = at["decks"] - s0
        self.i_kitty_size = at["kitty_size"] - s0
        self.i_position = at["trick_position_0"] - s0
        self.i_seat_points = at["points_0" if friends else "points_own_team"] - s0
        self.i_voids = at["void_0_S"] - s0
        self.i_out = at["out_S"] - s0
        self.i_players = at.get("players", s0) - s0
        self.i_calls = at.get("calls", s0) - s0
        self.i_call = [at.get(f"call_{j}_ordinal", s0) - s0 for j in range(3)]
        self.i_side = at.get("side_0_banker", s0) - s0
        #: Each seat's vector: its card parts (the selection, the kitty and the called
        #: cards stay zero here; the scalars too).
        self._zeros = bytes(4 * n * size)
        self.buf = bytearray(self._zeros)
        floats: memoryview[Any] = memoryview(self.buf).cast("f")
        self.own = [KRow(floats, o * size, size, starts, s0) for o in range(n)]
        self._hand: KHand | None = None
        self._play: KState | None = None
        self.decks = 0
        #: Counts by absolute seat (``54 * seat + card``) as the seats' vectors have them:
        #: each hand, the cards played this hand (the current trick included), the current
        #: trick, the cards shown to declare; the distinct cards of the last three by seat.
        self.held: list[int] = [0] * (54 * n)
        self.held_size: list[int] = [0] * n
        self.played: list[int] = [0] * (54 * n)
        self.trick: list[int] = [0] * (54 * n)
        self.shown: list[int] = [0] * (54 * n)
        self.played_cards: list[list[int]] = [[] for _ in range(n)]
        self.trick_cards: list[list[int]] = [[] for _ in range(n)]
        self.shown_cards: list[list[int]] = [[] for _ in range(n)]
        #: Copies of each card played this hand, by any seat.
        self.played_total: list[int] = [0] * 54
        #: The last kitty each seat picked up (``2 * seat``) and buried (``2 * seat + 1``).
        self.kitty_seen: list[list[int]] = [[] for _ in range(2 * n)]
        #: Voids shown by absolute seat and effective suit (``5 * seat + suit``), points
        #: won by each team (fixed partnerships).
        self.voids: list[int] = [0] * (5 * n)
        self.points = [0, 0]
        #: In the play: each effective suit's cards, and (``5 * seat + suit``) the copies
        #: of them still out for each seat.
        self.suit_size = [0] * 5
        self.out_suit = [0] * (5 * n)
        self.trick_n = 0
        self.led = 0
        self.dealt = 0
        self.events = 0
        self.shows = 0
        self.kitty_log = 0

    def row(self, out: memoryview[Any], base: int) -> KRow:
        """The vector at ``out[base : base + size]`` (float32), to :meth:`write` into."""
        return KRow(out, base, self.size, self.starts, self.scalars)

    # -- following the hand ------------------------------------------------------------------

    def _new_hand(self, h: KHand) -> None:
        n = self.seats
        self.buf[0 : len(self._zeros)] = self._zeros
        for k in range(54 * n):
            self.held[k] = 0
        for s in range(n):
            self.held_size[s] = 0
        for counts, lists in (
            (self.played, self.played_cards),
            (self.trick, self.trick_cards),
            (self.shown, self.shown_cards),
        ):
            for s in range(n):
                for c in lists[s]:
                    counts[54 * s + c] = 0
                lists[s].clear()
        for c in range(54):
            self.played_total[c] = 0
        for seen in self.kitty_seen:
            seen.clear()
        self.decks = h.r.decks
        self.dealt = self.events = self.shows = self.kitty_log = 0
        self.trick_n = 0
        every = self.counts[self.decks]
        for row in self.own:  # nothing dealt yet: every copy is out
            part = row.parts[self.p_out]
            for c in range(54):
                part[c] = every

    def _held(self, seat: int, c: int, delta: int) -> None:
        """``seat`` holds ``delta`` more copies of ``c``: its hand and cards out."""
        k = self.held[54 * seat + c] + delta
        self.held[54 * seat + c] = k
        self.held_size[seat] += delta
        parts = self.own[seat].parts
        parts[0][c] = self.counts[k]
        parts[self.p_out][c] = self.counts[self.decks - k - self.played_total[c]]

    def _kitty_row(self, seat: int, kind: int, cards: list[int]) -> None:
        """``seat`` picked up (``kind`` 0) or buried (1) ``cards``: its row of them."""
        part = self.own[seat].parts[self.p_picked + kind]
        zero = self.counts[0]
        for c in self.kitty_seen[2 * seat + kind]:
            part[c] = zero
        for c in cards:
            part[c] = self.counts[cards.count(c)]
        self.kitty_seen[2 * seat + kind] = cards

    def _seat_rows(self, part: int, seat: int, c: int, count: int) -> None:
        """Every seat's row of ``seat``'s cards of part ``part`` (played, trick, shown):
        ``count`` copies of ``c``."""
        n = self.seats
        value = self.counts[count]
        for o in range(n):
            self.own[o].parts[part + (seat - o) % n][c] = value

    def sync(self, h: KHand) -> None:
        """Catch up with ``h``: a new hand, cards dealt, shows, kitty moves and plays."""
        n = self.seats
        if h is not self._hand:
            h.record = True
            self._hand = h
            self._play = None
            self._new_hand(h)
        if h.dealt > self.dealt:
            deck, start = h.deck, h.start_seat
            for i in range(self.dealt, h.dealt):
                self._held((start + i) % n, deck[i], 1)
            self.dealt = h.dealt
        shows = h.decl.shows
        if len(shows) > self.shows:
            shown = self.shown
            for i in range(self.shows, len(shows), 3):
                seat, c = shows[i], shows[i + 1]
                at = 54 * seat + c
                if not shown[at]:
                    self.shown_cards[seat].append(c)
                shown[at] = shown[at] + shows[i + 2]
                self._seat_rows(self.p_shown, seat, c, shown[at])
            self.shows = len(shows)
        log = h.kitty_log
        if len(log) > self.kitty_log:
            cards = h.kitty_cards
            for i in range(self.kitty_log, len(log), 3):
                end = log[i + 5] if i + 3 < len(log) else len(cards)
                seat, kind = log[i], log[i + 1]
                moved = cards[log[i + 2] : end]
                for c in moved:
                    self._held(seat, c, 1 if kind == 0 else -1)
                self._kitty_row(seat, kind, moved)
            self.kitty_log = len(log)
        ks = h.play
        if ks is not None:
            if ks is not self._play:
                self._begin_play(ks)
            if len(ks.events) > self.events:
                self._plays(ks)
        for s in range(n):  # what the hands say wins (a change the steps above missed)
            if self.held_size[s] != h.sizes[s]:
                hand = h.hands[s]
                for c in range(54):
                    if self.held[54 * s + c] != hand[c]:
                        self._held(s, c, hand[c] - self.held[54 * s + c])
                if ks is not None:
                    self._out_suits(ks, s)

    def _begin_play(self, ks: KState) -> None:
        self._play = ks
        self.events = self.trick_n = 0
        n = self.seats
        for k in range(5 * n):
            self.voids[k] = 0
            self.out_suit[k] = 0
        self.points = [0, 0]
        suit_of = ks.t.suit_of
        size = self.suit_size
        for k in range(5):
            size[k] = 0
        for c in range(54):
            size[suit_of[c]] = size[suit_of[c]] + 1
        for s in range(n):
            self._out_suits(ks, s)

    def _out_suits(self, ks: KState, seat: int) -> None:
        """The copies still out for ``seat`` in each effective suit."""
        suit_of = ks.t.suit_of
        for k in range(5):
            self.out_suit[5 * seat + k] = 0
        for c in range(54):
            k = 5 * seat + suit_of[c]
            left = self.decks - self.held[54 * seat + c] - self.played_total[c]
            self.out_suit[k] = self.out_suit[k] + left

    def _plays(self, ks: KState) -> None:
        n = self.seats
        suit_of = ks.t.suit_of
        played, trick, total = self.played, self.trick, self.played_total
        events = ks.events
        for i in range(self.events, len(events)):
            ev = events[i]
            if ev.kind == EV_PLAY:
                seat = ev.seat
                row = 54 * seat
                for c in ev.cards:
                    total[c] = total[c] + 1
                    self._held(seat, c, -1)
                    for o in range(n):  # one copy fewer out for everyone else
                        if o != seat:
                            self.own[o].parts[self.p_out][c] = self.counts[
                                self.decks - self.held[54 * o + c] - total[c]
                            ]
                            k = 5 * o + suit_of[c]
                            self.out_suit[k] = self.out_suit[k] - 1
                    if not played[row + c]:
                        self.played_cards[seat].append(c)
                    played[row + c] = played[row + c] + 1
                    self._seat_rows(self.p_played, seat, c, played[row + c])
                    if not trick[row + c]:
                        self.trick_cards[seat].append(c)
                    trick[row + c] = trick[row + c] + 1
                    self._seat_rows(self.p_trick, seat, c, trick[row + c])
                if self.trick_n == 0:
                    self.led = suit_of[ev.cards[0]]
                else:
                    for c in ev.cards:
                        if suit_of[c] != self.led:
                            self.voids[5 * seat + self.led] = 1
                            break
                self.trick_n += 1
            elif ev.kind == EV_TRICK:
                for s in range(n):
                    for c in self.trick_cards[s]:
                        trick[54 * s + c] = 0
                        self._seat_rows(self.p_trick, s, c, 0)
                    self.trick_cards[s].clear()
                self.trick_n = 0
                self.points[ev.seat % 2] += ev.points
        self.events = len(events)

    # -- writing a vector ----------------------------------------------------------------------

    def _put(self, sc: memoryview[Any], i: int, v: float) -> None:
        """Scalar ``i``: the raw value ``v`` scaled and clipped (zero entries are left)."""
        x = v * self.scale[i]
        if x > 0.0:
            sc[i] = x if x < 1.0 else 1.0

    def write(
        self, h: KHand, seat: int, levels: list[int], hand_number: int, over: bool, row: KRow
    ) -> None:
        """Write the observation of ``seat`` (an empty selection) into ``row``: its card
        parts as kept here, and the scalars (over zeros). ``levels``, ``hand_number`` and
        ``over`` are the match's."""
        self.sync(h)
        n = self.seats
        row.vec[0 : self.size] = self.own[seat].vec
        sc = row.sc
        one = self.one[0]
        ks = h.play
        d = h.decl
        ph = h.phase
        if ks is not None:
            leader = ks.leader
            self._put(sc, self.i_points, float(ks.trick_points))
            self._put(sc, self.i_penalties, float(ks.penalties))
            if ks.plays:
                self._put(sc, self.i_lead_size, float(ks.n))
        elif ph in (PH_BURY, PH_AFTER_BURIAL, PH_CALL):
            leader = d.banker
        else:
            leader = h.start_seat
        if ph == PH_OVER:
            part = row.parts[self.p_kitty]
            for c in h.kitty:
                part[c] = self.counts[h.kitty.count(c)]
            sc[self.i_phase + (6 if over else 5)] = one
        else:  # the kernel's phases PH_DEAL .. PH_PLAY are the layout's first, PH_CALL 7
            sc[self.i_phase + ph] = one
        if d.declared:
            sc[self.i_trump_nt if d.trump < 0 else self.i_trump + d.trump] = one
        else:
            sc[self.i_trump_unknown] = one
        if d.banker >= 0:
            sc[self.i_banker + (d.banker - seat) % n] = one
        else:
            sc[self.i_banker_unknown] = one
        if h.to_act >= 0:
            sc[self.i_to_act + (h.to_act - seat) % n] = one
        sc[self.i_leader + (leader - seat) % n] = one
        sizes = h.sizes
        for i in range(n):
            self._put(sc, self.i_sizes + i, float(sizes[(seat + i) % n]))
        self._put(sc, self.i_level, float(h.level))
        if self.friends:
            for i in range(n):
                self._put(sc, self.i_level + 1 + i, float(levels[(seat + i) % n]))
        else:
            team = seat % 2
            self._put(sc, self.i_level + 1, float(levels[team]))
            self._put(sc, self.i_level + 2, float(levels[1 - team]))
        self._put(sc, self.i_counters, float(d.counters))
        self._put(sc, self.i_dealt, float(h.dealt))
        self._put(sc, self.i_hand_number, float(hand_number))
        self._put(sc, self.i_decks, float(h.r.decks))
        self._put(sc, self.i_kitty_size, float(h.r.kitty_size))
        sc[self.i_position + self.trick_n] = one
        if ks is not None:
            if self.friends:
                pts = ks.seat_points
                for i in range(n):
                    self._put(sc, self.i_seat_points + i, float(pts[(seat + i) % n]))
            else:
                self._put(sc, self.i_seat_points, float(self.points[seat % 2]))
                self._put(sc, self.i_seat_points + 1, float(self.points[1 - seat % 2]))
            for i in range(n):
                s = 5 * ((seat + i) % n)
                for k in range(5):
                    if self.voids[s + k]:
                        sc[self.i_voids + 5 * i + k] = one
            # the share of each effective suit's cards still out (float64 division, then
            # float32: as numpy computes it)
            for k in range(5):
                left = self.out_suit[5 * seat + k]
                if left:
                    x = left / (float(self.decks) * max(self.suit_size[k], 1))
                    sc[self.i_out + k] = x if x < 1.0 else 1.0
        if self.friends:
            self._friends(h, seat, ks, row)

    def _friends(self, h: KHand, seat: int, ks: KState | None, row: KRow) -> None:
        """找朋友's features: the calls, who answered them (once their trick is complete)
        and the sides known so far."""
        n = self.seats
        sc = row.sc
        one = self.one[0]
        self._put(sc, self.i_players, float(n))
        self._put(sc, self.i_calls, float(h.r.calls))
        banker = h.decl.banker
        if banker < 0:
            return
        side = [-1] * n
        side[banker] = 0
        if ks is not None and ks.calls:
            answered = 0
            for j in range(len(ks.calls)):
                c = ks.calls[j]
                k = ks.call_ord[j]
                row.parts[self.p_out + 1 + j][c] = one
                at = self.i_call[j]
                self._put(sc, at, float(k))
                by = ks.call_by[j]
                done = self.played_total[c]
                for s in range(n):
                    done -= self.trick[54 * s + c]
                # the copy's player is known once its trick is complete
                if by >= 0 and done >= k:
                    answered += 1
                    sc[at + 1] = one
                    sc[at + 2 + (by - seat) % n] = one
                    side[by] = 0
            if answered == len(ks.calls):
                for s in range(n):
                    if side[s] < 0:
                        side[s] = 1
        for i in range(n):
            s = side[(seat + i) % n]
            if s >= 0:
                sc[self.i_side + 2 * i + s] = one
