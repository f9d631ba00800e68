"""The first heuristic bot, kept unchanged as the ``heuristic-v1`` baseline that newer
bots are measured against.

What it infers: the cards not yet seen (the decks less its hand, the cards played and the
kitty it buried), the suits each seat has shown void in, who is winning the trick, and
which of its units no unseen card can beat ("boss" units).

- Declaring: shows when the suit would give a long trump holding; reinforces its own
  declaration; counter-declares an opponent when the new trump is clearly better for it.
- Burying: keeps trumps, aces and pairs; empties short side suits to make voids; keeps
  point cards out of the kitty unless nothing else is left.
- Leading: boss tractors, pairs and singles first (a throw only when every unit of it is
  a boss), draws trumps when its side holds trump control, else leads low from long
  suits; near the end it keeps its strongest units for the last trick (the kitty).
- Following: feeds points to a partner who is winning safely, wins tricks with points as
  cheaply as it can (ruffing and overruffing when void), and otherwise sheds its least
  useful cards, keeping points away from a winning opponent.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from ..game.actions import Action, Bury, Continue, Declare, Pass, Play
from ..game.legal import legal_shows
from ..game.views import SeatView
from ..rules.cards import Card, Suit, deck, points
from ..rules.follow import count_legal_follows, legal_follows, random_legal_follow
from ..rules.leads import unit_leads
from ..rules.throws import beats_unit
from ..rules.tricks import trick_winner
from ..rules.trump import TRUMP, TrumpContext, trump_context
from ..rules.units import Lead, Unit, classify_lead, decompose

_MAX_SCORED = 120  # follows scored exhaustively up to this many; else sampled


class HeuristicV1Bot:
    """The first rule-of-thumb player; deterministic for a given seed."""

    name = "heuristic-v1"

    def __init__(self, seat: int = 0, seed: int = 0) -> None:
        self.rng = random.Random(f"heuristic:{seed}:{seat}")
        #: Why the last action was chosen: (English, Chinese).
        self.reason: tuple[str, str] = ("", "")

    def act(self, view: SeatView) -> Action:
        """Choose an action for the view's seat (and say why in :attr:`reason`)."""
        self.reason = ("", "")
        if view.phase == "hand_over":
            self.reason = ("the hand is over", "本局结束")
            return Continue()
        if view.phase in ("deal", "before_kitty", "after_burial"):
            return self._declare(view)
        if view.phase == "bury":
            self.reason = (
                "bury short side suits to make voids; keep trumps, pairs and points",
                "扣短门做绝门, 留主牌、对子和分",
            )
            return Bury(choose_burial(view))
        if view.trick:
            return Play(self._follow(view))
        return Play(self._lead(view))

    # -- declaring -------------------------------------------------------------------------
    def _declare(self, view: SeatView) -> Action:
        assert view.seat is not None
        seat = view.seat
        shows = legal_shows(view, seat)
        if not shows:
            self.reason = ("nothing in the hand can be declared now", "手里没有现在能亮的牌")
            return Pass()
        hand = view.hand
        st = view.declare
        current = trump_ratio(view, st.trump) if st.declared else 0.0
        partner_holds = st.holder is not None and st.holder % 2 == seat % 2 and st.holder != seat
        best: tuple[float, tuple[Card, ...]] | None = None
        for show in shows:
            c = show[0]
            trump = None if c.is_joker else c.suit
            ratio = trump_ratio(view, trump)
            if st.holder == seat and not c.is_joker and trump == st.trump:
                self.reason = ("reinforce our own declaration", "上保险, 保住自己亮的主")
                return Declare(show)
            if not st.declared:
                need = 0.24 if len(hand) >= 8 else 0.34
                score = ratio - need
            elif partner_holds:
                score = ratio - current - 0.25
            else:
                score = ratio - max(current, 0.2) - 0.06
            if trump is None and ratio < 0.22:
                score -= 0.1  # no-trump only with many level cards and jokers
            if score > 0 and (best is None or score > best[0]):
                best = (score, show)
        if best:
            share = trump_ratio(view, _trump_of(best[1]))
            self.reason = (
                f"this trump would make {share:.0%} of the hand trumps",
                f"亮这门主, 手里主牌占 {share:.0%}",
            )
            return Declare(best[1])
        self.reason = ("no show makes a long enough trump holding", "主牌不够长, 不亮")
        return Pass()

    # -- leading ---------------------------------------------------------------------------
    def _lead(self, view: SeatView) -> tuple[Card, ...]:
        assert view.seat is not None
        ctx, hand = view.ctx, view.hand
        know = Knowledge(view)
        tricks_left = len(hand)
        endgame = tricks_left <= 3
        best_score, best = -1e9, hand[:1]
        why = ("lead", "出牌")
        throw = safe_throw(ctx, hand, know)
        if throw is not None and not endgame:
            self.reason = (
                "throw: every unit is a boss and nobody has shown void",
                "甩牌: 每一手都最大",
            )
            return throw
        my_trumps = sum(1 for c in hand if ctx.suit_of[c.index] == TRUMP)
        for lead in unit_leads(ctx, hand):
            ld = classify_lead(ctx, lead)
            unit = ld.units[0]
            suit = ld.suit
            boss = know.is_boss(unit)
            pts = points(lead)
            cost = sum(card_cost(ctx, c) for c in lead)
            if suit == TRUMP:
                score = -cost * 0.6
                if boss:
                    score += 6 + 4 * len(lead)
                if know.my_side_banker and my_trumps >= max(4, len(hand) // 3):
                    score += 8  # draw the opponents' trumps
                if endgame and not boss:
                    score -= 20
            else:
                ruff_risk = know.opponent_void(suit)
                if boss and not ruff_risk:
                    score = 25 + 6 * len(lead) + pts
                else:
                    score = -cost - 2.5 * pts
                    if ruff_risk:
                        score -= 8 + pts
                    if know.partner_void(suit) and not ruff_risk:
                        score += 6  # partner can ruff
                    score += 0.4 * suit_count(ctx, hand, suit)
            if endgame and len(lead) >= 2 and boss:
                score += 15  # a big unit on the last trick multiplies the kitty
            if score > best_score:
                best_score, best = score, lead
                why = _lead_reason(boss, suit == TRUMP, know.my_side_banker)
        self.reason = why
        return best

    # -- following -------------------------------------------------------------------------
    def _follow(self, view: SeatView) -> tuple[Card, ...]:
        assert view.seat is not None and view.lead is not None
        ctx, hand, lead = view.ctx, view.hand, view.lead
        know = Knowledge(view)
        plays = [p.cards for p in view.trick]
        n = count_legal_follows(ctx, lead, hand)
        if n <= _MAX_SCORED:
            candidates = list(legal_follows(ctx, lead, hand))
        else:
            candidates = constructed_follows(ctx, lead, hand)
            candidates += [random_legal_follow(ctx, lead, hand, self.rng) for _ in range(40)]
        if len(candidates) == 1:
            self.reason = ("the only legal play", "只有这一种合法的出法")
            return candidates[0]
        partner = (view.seat + 2) % 4
        seats = [p.seat for p in view.trick]
        cur = trick_winner(ctx, plays, lead)
        cur_seat = seats[cur]
        last = len(plays) == 3
        later = [(view.seat + i) % 4 for i in range(1, 4 - len(plays))]
        later_opps = [s for s in later if s % 2 != view.seat % 2]
        partner_safe = cur_seat == partner and (last or know.holds(plays[cur], lead, later_opps))
        trick_pts = sum(points(p) for p in plays)
        endgame = len(hand) <= len(lead.cards)
        kitty_stake = know.kitty_points_guess * (2 if endgame else 0)
        best_score, best = -1e9, candidates[0]
        why = ("follow", "跟牌")
        for play in candidates:
            pts = points(play)
            cost = sum(card_cost(ctx, c) for c in play)
            wins = trick_winner(ctx, [*plays, play], lead) == len(plays)
            if wins:
                holds = last or know.holds(play, lead, later_opps)
                gain = trick_pts + pts + kitty_stake
                score = (gain * (1.0 if holds else 0.45)) - cost * 0.35 + (3 if holds else 0)
                if cur_seat == partner and partner_safe:
                    score -= 4  # no need to overtake a safe partner
            elif partner_safe:
                score = pts * 1.2 - cost * 0.15
            elif cur_seat == partner:
                score = pts * 0.3 - cost * 0.25
            else:
                score = -pts * 2.0 - cost * 0.25
            if score > best_score:
                best_score, best = score, play
                why = _follow_reason(wins, partner_safe, cur_seat == partner, pts)
        self.reason = why
        return best


def _trump_of(show: tuple[Card, ...]) -> Suit | None:
    return None if show[0].is_joker else show[0].suit


def _lead_reason(boss: bool, trump: bool, banker_side: bool) -> tuple[str, str]:
    if boss:
        return (
            "lead a unit nobody can beat (no higher cards are left unseen)",
            "出大牌: 外面没有更大的",
        )
    if trump and banker_side:
        return ("draw the opponents' trumps", "吊主, 清对方的主")
    return ("lead low from a long suit and keep the strong cards", "出长门小牌, 留大牌")


def _follow_reason(
    wins: bool, partner_safe: bool, partner_winning: bool, pts: int
) -> tuple[str, str]:
    if wins:
        return ("win the trick as cheaply as possible", "用最小的代价拿下这一轮")
    if partner_safe and pts:
        return ("partner is winning safely: give points", "对家稳赢, 贴分")
    if partner_winning:
        return ("partner is winning: keep the strong cards", "对家在赢, 留大牌")
    return ("cannot win: shed the least useful cards, keep points away", "赢不了: 垫小牌, 不给分")


# -- knowledge from the view -------------------------------------------------------------------


class Knowledge:
    """What a seat can infer: unseen cards and the voids each seat has shown."""

    def __init__(self, view: SeatView) -> None:
        assert view.seat is not None
        self.view = view
        self.seat = view.seat
        ctx = view.ctx
        unseen = Counter(deck(view.options.decks))
        unseen.subtract(view.hand)
        self.voids: dict[int, set[int]] = {s: set() for s in range(4)}
        for t in (*view.tricks, None):
            plays = t.plays if t is not None else view.trick
            if not plays:
                continue
            suit = ctx.suit_of[plays[0].cards[0].index]
            for p in plays:
                unseen.subtract(p.cards)
                if any(ctx.suit_of[c.index] != suit for c in p.cards):
                    self.voids[p.seat].add(suit)
        buried: tuple[Card, ...] = ()
        for kind, cards in view.kitty_seen:
            if kind == "buried":
                buried = cards
        unseen.subtract(buried)
        self.unseen = +unseen
        self.unseen_list = list(self.unseen.elements())
        self.my_side_banker = view.is_banker_side(self.seat)
        self.kitty_points_guess = points(buried) if buried else 0 if self.my_side_banker else 10
        self._suit_unseen: dict[int, list[Card]] = {}
        for c in self.unseen_list:
            self._suit_unseen.setdefault(ctx.suit_of[c.index], []).append(c)

    def opponent_void(self, suit: int) -> bool:
        """An opponent has shown void in ``suit`` (and trumps may remain to ruff)."""
        trumps_out = bool(self._suit_unseen.get(TRUMP))
        return trumps_out and any(
            suit in self.voids[s] and TRUMP not in self.voids[s]
            for s in range(4)
            if s % 2 != self.seat % 2
        )

    def partner_void(self, suit: int) -> bool:
        """The partner has shown void in ``suit``."""
        p = (self.seat + 2) % 4
        return suit in self.voids[p] and TRUMP not in self.voids[p]

    def is_boss(self, unit: Unit) -> bool:
        """No unseen cards could form the same shape ranking higher."""
        return not beats_unit(self.view.ctx, unit, self._suit_unseen.get(unit.suit, []))

    def holds(self, play: Sequence[Card], lead: Lead, later_opponents: Sequence[int]) -> bool:
        """Whether ``play`` (winning now) is likely to stay on top: no unseen cards of its
        suit beat its top unit, and no later opponent can ruff a side suit."""
        if not later_opponents:
            return True
        ctx = self.view.ctx
        suit = ctx.suit_of[play[0].index]
        try:
            units = decompose(ctx, play)
        except ValueError:
            return False
        top = max(
            (u for u in units if u.shape == lead.units[0].shape),
            key=lambda u: u.top,
            default=units[0],
        )
        if beats_unit(ctx, top, self._suit_unseen.get(suit, [])):
            return False
        if suit != TRUMP and self._suit_unseen.get(TRUMP):
            return not any(lead.suit in self.voids[s] for s in later_opponents)
        return True


def suit_count(ctx: TrumpContext, hand: Sequence[Card], suit: int) -> int:
    """Cards of an effective suit in ``hand``."""
    return sum(1 for c in hand if ctx.suit_of[c.index] == suit)


def card_cost(ctx: TrumpContext, c: Card) -> float:
    """How much a card is worth keeping: trumps by rank, side cards by rank, points extra."""
    s = ctx.strength[c.index]
    if ctx.suit_of[c.index] == TRUMP:
        return 6 + s * 0.9
    return s * 0.5 + (3 if s >= 11 else 0)


def trump_ratio(view: SeatView, trump: Suit | None) -> float:
    """Share of the hand that would be trumps with this trump suit (None: no-trump)."""
    hand = view.hand
    if not hand:
        return 0.0
    ctx = trump_context(view.options, view.level, trump)
    n = sum(1 for c in hand if ctx.suit_of[c.index] == TRUMP)
    jokers = sum(1 for c in hand if c.is_joker)
    return (n + 0.5 * jokers) / len(hand)


def choose_burial(view: SeatView) -> tuple[Card, ...]:
    """Pick the kitty: empty short side suits, keep trumps, aces, kings, pairs, points."""
    ctx, hand, k = view.ctx, list(view.hand), view.options.kitty_size
    counts = Counter(hand)
    by_suit: dict[int, list[Card]] = {}
    for c in hand:
        if ctx.suit_of[c.index] != TRUMP:
            by_suit.setdefault(ctx.suit_of[c.index], []).append(c)

    def keep_value(c: Card) -> float:
        s = ctx.strength[c.index]
        v = s * 1.0 + (25 if counts[c] >= 2 else 0) + c.points * 1.6
        if ctx.suit_of[c.index] == TRUMP:
            v += 100
        suit_len = len(by_suit.get(ctx.suit_of[c.index], ()))
        if ctx.suit_of[c.index] != TRUMP and suit_len <= k // 2:
            v -= 8 - suit_len  # short suits go first: voids let us ruff
        return v

    ordered = sorted(hand, key=keep_value)
    return tuple(ordered[:k])


def safe_throw(ctx: TrumpContext, hand: Sequence[Card], know: Knowledge) -> tuple[Card, ...] | None:
    """A throw of several units of one side suit, every one a boss and unruffable."""
    best: tuple[Card, ...] | None = None
    by_suit: dict[int, list[Card]] = {}
    for c in hand:
        by_suit.setdefault(ctx.suit_of[c.index], []).append(c)
    for suit, cards in by_suit.items():
        if suit == TRUMP or know.opponent_void(suit):
            continue
        units = [u for u in decompose(ctx, cards) if know.is_boss(u)]
        if len(units) < 2:
            continue
        throw = tuple(c for u in units for c in u.cards)
        if best is None or len(throw) > len(best):
            best = throw
    return best


def constructed_follows(
    ctx: TrumpContext, lead: Lead, hand: Sequence[Card]
) -> list[tuple[Card, ...]]:
    """A few hand-built candidate follows for positions with too many to score: the
    cheapest cards, and (when void) the cheapest trumps in the lead's structure."""
    from ..rules.follow import is_legal_follow

    n = len(lead.cards)
    out = []
    cheap = sorted(hand, key=lambda c: (card_cost(ctx, c), c.points))
    if is_legal_follow(ctx, lead, hand, cheap[:n]):
        out.append(tuple(cheap[:n]))
    no_points = sorted(hand, key=lambda c: (c.points, card_cost(ctx, c)))
    if is_legal_follow(ctx, lead, hand, no_points[:n]):
        out.append(tuple(no_points[:n]))
    trumps = sorted(
        (c for c in hand if ctx.suit_of[c.index] == TRUMP), key=lambda c: ctx.key[c.index]
    )
    if len(trumps) >= n:
        ruff = tuple(trumps[:n])
        if is_legal_follow(ctx, lead, hand, ruff):
            out.append(ruff)
    return out
