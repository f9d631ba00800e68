"""A rule-of-thumb player for every phase and preset, reasoning only from its seat's view.

What it infers: the cards not yet seen (the decks less its hand, the cards played and the
kitty it buried), the suits each seat has shown void in (or without pairs), who is
winning the trick, which of its units no unseen card can beat ("boss" units), about how
many trumps the opponents hold, and the kitty's likely points.

- Declaring: shows when the suit would give a long trump holding; reinforces its own
  declaration; counter-declares an opponent when the new trump is clearly better for it.
- Burying: keeps trumps, aces and pairs; empties short side suits to make voids; keeps
  point cards out of the kitty unless nothing else is left.
- Calling friends (找朋友): the top plain cards (aces; kings at level A) it holds the
  fewest copies of, each the first copy it does not hold, its longest suits first among
  equals (it can lead that suit to find the friend).
- Sides: its partners are the seats known to be on its side; a seat whose side is not
  known yet (an unfound friend) is treated as an opponent. On the banker's side already
  (the banker, a friend found), it does not play a called copy that would answer another
  call, leaving the side a seat short, unless it must or the play gains more than a
  friend is worth (:func:`friend_cost`). A holder of a called copy on no side yet does not
  join a banker's side that has already lost the hand (:func:`banker_side_lost`), on the
  same terms.
- Leading: boss tractors, pairs and singles first (a throw only when every unit of it is
  a boss), draws trumps with low trumps when it holds trump control (as many trumps as
  the opponents likely hold, few higher ones out), never leads a lone trump point card
  nor spends a top trump on a few small ones, else leads low from long suits; near the
  end it keeps its strongest units for the last trick (the kitty).
- Following: feeds points to a partner who is winning safely (on a partner's card that
  may still be overtaken, only as far as its chance of holding allows), wins tricks with
  points as cheaply as it can (ruffing and overruffing when void), weighing the chance
  that its win holds against the points it risks, spends no card to win a trick without
  points, and otherwise sheds its least useful cards, keeping points away from a winning
  opponent.
- The last tricks: once every hand holds at most three cards, its candidate plays are
  solved exactly on sampled deals of the hidden cards (:mod:`shengji.bots.lastricks`).
- Looking ahead (``look`` rollouts, the registered bot, the tables' Normal; not the bare
  rule of thumb inside the search bot and the hints; fixed partnerships only): before the
  last tricks, its best few plays, and its burial with a few variants, are played out on
  sampled deals of the hidden cards, and another replaces its choice only by a margin
  (:mod:`shengji.bots.lookahead`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from ..game.actions import Action, Bury, Call, Continue, Declare, Pass, Play
from ..game.legal import legal_shows
from ..game.views import SeatView
from ..rules.cards import Card, Suit, deck, points
from ..rules.follow import count_legal_follows, legal_follows, random_legal_follow
from ..rules.friends import FriendCall, callable_cards
from ..rules.leads import unit_leads
from ..rules.options import RuleOptions
from ..rules.scoring import level_change
from ..rules.throws import beats_unit
from ..rules.tricks import trick_winner
from ..rules.trump import TRUMP, TrumpContext, trump_context
from ..rules.units import Lead, Unit, classify_lead, decompose
from . import lastricks
from .burial import keep_value
from .sides import partners

_MAX_SCORED = 120  # follows scored exhaustively up to this many; else sampled


class HeuristicBot:
    """The rule-of-thumb player; deterministic for a given seed."""

    name = "heuristic"

    def __init__(self, seat: int = 0, seed: int = 0, look: int = 0) -> None:
        self.rng = random.Random(f"heuristic:{seed}:{seat}")
        self.seed = seed
        #: Rollouts a play may look ahead with (:mod:`shengji.bots.lookahead`); 0: the
        #: bare rule of thumb (inside the search bot and the hints). The registered
        #: ``heuristic`` bot, the tables' Normal, looks ahead.
        self.look = look
        #: Why the last action was chosen: (English, Chinese).
        self.reason: tuple[str, str] = ("", "")
        #: The plays the last play decision scored, best first (for search bots).
        self.scored: list[tuple[float, tuple[Card, ...]]] = []

    def act(self, view: SeatView) -> Action:
        """Choose an action for the view's seat (and say why in :attr:`reason`)."""
        self.reason = ("", "")
        self.scored = []
        if view.phase == "hand_over":
            self.reason = ("the hand is over", "本局结束")
            return Continue()
        if view.phase in ("deal", "before_kitty", "after_burial"):
            return self._declare(view)
        if view.phase == "bury":
            burial = choose_burial(view)
            self.reason = burial_reason(view.ctx, view.hand, burial)
            if self.look and not view.options.friends:
                from . import lookahead

                key = f"lookahead-bury:{view.seat}:{view.hand_number}:{len(view.kitty_seen)}"
                looked = lookahead.bury(view, burial, key)
                if looked is not None:
                    self.reason = lookahead.bury_reason(looked)
                    burial = looked.play
            return Bury(burial)
        if view.phase == "call":
            self.reason = (
                "call aces I do not hold, in suits I can lead",
                "叫我没有的 A, 选我能出的花色",
            )
            return Call(choose_calls(view))
        play = self._follow(view) if view.trick else self._lead(view)
        if lastricks.applies(view):
            cands = [play, *(p for _, p in self.scored if p != play)]
            # sampled from the view alone, not the seed: the same seat plays the same way
            # in process and over the bot protocol (which hands it another seed)
            key = f"lastricks:{view.seat}:{view.hand_number}:{len(view.tricks)}"
            solved = lastricks.solve_last_tricks(view, cands, f"{key}:{len(view.trick)}")
            if solved is not None:
                self.reason = lastricks.reason(solved)
                play = solved.play
        elif self.look and len(self.scored) > 1 and not view.options.friends:
            # not at a 找朋友 table: there its rollouts let a friend already found answer
            # the second call (the banker's side then short of a seat, docs/bots.md)
            from . import lookahead

            cands = lookahead.distinct(play, self.scored)
            key = f"lookahead:{view.seat}:{view.hand_number}:{len(view.tricks)}:{len(view.trick)}"
            looked = lookahead.look_ahead(view, cands, key, self.look)
            if looked is not None:
                self.reason = lookahead.reason(looked, play)
                play = looked.play
        return Play(play)

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
        partner_holds = st.holder is not None and st.holder in partners(view, seat)
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
        best_boss = False
        throw = safe_throw(ctx, hand, know)
        if throw is not None and know.needless_answers(throw):
            throw = None
        if throw is not None and not endgame:
            self.scored.append((1e9, throw))
        control = know.trump_control(hand)
        opp_trumps = know.opponent_trumps()
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
                    if len(lead) == 1 and not endgame and 0 < opp_trumps <= 3:
                        score -= 10  # do not spend a top trump on a few small ones
                elif pts:
                    score -= 2.5 * pts  # a lone trump point card led is lost
                if control and opp_trumps > 0 and not pts and (len(lead) > 1 or not boss):
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
            if suit in know.find_suits and len(lead) == 1 and not boss and not pts:
                score += 10  # the banker leads low into a called suit: the friend shows
            score -= friend_cost(tricks_left) * know.needless_answers(lead)
            self.scored.append((score, lead))
            if score > best_score:
                best_score, best, best_boss = score, lead, boss
        self.reason = _lead_reason(ctx, hand, best, best_boss, know.my_side_banker)
        self.scored.sort(key=lambda sp: -sp[0])
        if throw is not None and not endgame:
            self.reason = (
                "throw: every unit is a boss and nobody has shown void",
                "甩牌: 每一手都最大",
            )
            return throw
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
            self.scored = [(0.0, candidates[0])]
            return candidates[0]
        mine = partners(view, view.seat)
        n = len(view.hand_sizes)
        seats = [p.seat for p in view.trick]
        cur = trick_winner(ctx, plays, lead)
        cur_seat = seats[cur]
        last = len(plays) == n - 1
        later = [(view.seat + i) % n for i in range(1, n - len(plays))]
        later_opps = [s for s in later if s not in mine]
        partner_safe = cur_seat in mine and (last or know.holds(plays[cur], lead, later_opps))
        # how likely the partner's winning card stays on top (points fed go with it)
        partner_hold = 0.0
        if cur_seat in mine:
            partner_hold = 1.0 if partner_safe else know.hold_chance(plays[cur], lead, later_opps)
        trick_pts = sum(points(p) for p in plays)
        endgame = len(hand) <= len(lead.cards)
        kitty_stake = know.kitty_points_guess * (2 if endgame else 0)
        best_score, best = -1e9, candidates[0]
        why: tuple[bool, bool, bool, int, float] = (False, False, False, 0, 0.0)
        for play in candidates:
            pts = points(play)
            cost = sum(card_cost(ctx, c) for c in play)
            wins = trick_winner(ctx, [*plays, play], lead) == len(plays)
            hold = 0.0
            if wins:
                hold = 1.0 if last else know.hold_chance(play, lead, later_opps)
                gain = trick_pts + kitty_stake
                # an overtaken winner hands its own points to the other side; a trick
                # without points is not worth a card for itself
                score = hold * (gain + pts) - (1 - hold) * 2.0 * pts - cost * 0.35
                if cur_seat in mine and partner_safe:
                    score -= 4  # no need to overtake a safe partner
            elif partner_safe:
                score = pts * 1.2 - cost * 0.15
            elif cur_seat in mine:
                # points on a partner's card that may be overtaken feed the opponents
                score = pts * (1.2 * partner_hold - 2.0 * (1 - partner_hold)) - cost * 0.25
            else:
                score = -pts * 2.0 - cost * 0.25
            score -= friend_cost(len(hand)) * know.needless_answers(play)
            self.scored.append((score, play))
            if score > best_score:
                best_score, best = score, play
                why = (wins, partner_safe, cur_seat in mine, pts, hold)
        withheld = (
            cur_seat in mine
            and not partner_safe
            and not why[0]
            and not points(best)
            and any(points(p) for p in candidates)
        )
        self.reason = _follow_reason(
            *why, kept=lambda: keeps_higher(ctx, hand, best), withheld=withheld
        )
        self.scored.sort(key=lambda sp: -sp[0])
        return best


def _trump_of(show: tuple[Card, ...]) -> Suit | None:
    return None if show[0].is_joker else show[0].suit


def keeps_higher(ctx: TrumpContext, hand: Sequence[Card], play: Sequence[Card]) -> bool:
    """Whether the hand keeps, after ``play``, a card of the suit of the play's highest
    card that ranks above it (what "keep the strong cards" promises)."""
    top = max(play, key=lambda c: ctx.key[c.index])
    left = Counter(hand)
    left.subtract(play)
    suit = ctx.suit_of[top.index]
    return any(
        n > 0 and ctx.suit_of[c.index] == suit and ctx.key[c.index] > ctx.key[top.index]
        for c, n in left.items()
    )


def _lead_reason(
    ctx: TrumpContext,
    hand: Sequence[Card],
    lead: Sequence[Card],
    boss: bool,
    banker_side: bool,
) -> tuple[str, str]:
    """Why a lead was chosen, saying what it does: a unit nobody can beat, a trump drawn
    by the banker's side, a low card under higher ones kept, or the highest card of a
    suit led while a higher one is still out."""
    if boss:
        return (
            "lead a unit nobody can beat (no higher cards are left unseen)",
            "出大牌: 外面没有更大的",
        )
    if ctx.suit_of[lead[0].index] == TRUMP and banker_side:
        return ("draw the opponents' trumps", "吊主, 清对方的主")
    if keeps_higher(ctx, hand, lead):
        return ("lead low and keep the higher cards of the suit", "出小牌, 留着这门的大牌")
    from ..words.i18n import cards_label  # only a reason needs the words: a bot's turn does not

    en, zh = cards_label([c.text for c in lead], "en"), cards_label([c.text for c in lead], "zh")
    return (
        f"lead {en}, my highest in its suit: a higher card is still out, so it may lose",
        f"出{zh}, 这门我最大的牌: 外面还有更大的, 可能会输",
    )


def _follow_reason(
    wins: bool,
    partner_safe: bool,
    partner_winning: bool,
    pts: int,
    hold: float = 0.0,
    kept: Callable[[], bool] = lambda: True,
    withheld: bool = False,
) -> tuple[str, str]:
    """Why a follow was chosen, saying what it does (``kept()``: whether the hand keeps a
    higher card of the play's suit, asked only where the words would promise it;
    ``withheld``: the partner's winning card may still be overtaken and the play keeps
    the points the hand could have given)."""
    if wins and pts and hold >= 1.0:
        # cards that nothing unseen separates win as surely: the one with points is banked
        return (
            "nothing left can beat it: win and keep its points on our side",
            "外面没有更大的: 拿下这一轮, 自己的分也收下",
        )
    if wins:
        return ("win the trick as cheaply as possible", "用最小的代价拿下这一轮")
    if partner_safe and pts:
        return ("partner is winning safely: give points", "队友稳赢, 贴分")
    if partner_winning:
        if withheld:
            return (
                "partner is winning but may still be overtaken: give no points yet",
                "队友暂时在赢, 但还可能被压: 先不贴分",
            )
        if kept():
            return ("partner is winning: keep the strong cards", "队友在赢, 留大牌")
        return (
            "partner is winning: no need to take the trick; this follow costs least",
            "队友在赢, 不用抢; 这样跟损失最小",
        )
    if pts:
        return (
            "cannot win: this follow costs least, though it gives points away",
            "赢不了: 这样跟损失最小, 但要送分",
        )
    return ("cannot win: shed the least useful cards, keep points away", "赢不了: 垫小牌, 不给分")


def burial_reason(
    ctx: TrumpContext, hand: Sequence[Card], burial: Sequence[Card]
) -> tuple[str, str]:
    """What a burial does, in words: the side suits it empties (voids to ruff with), and
    only the kinds of cards (trumps, pairs, points) it really keeps out of the kitty."""
    left = Counter(hand)
    left.subtract(burial)
    suits_before = {ctx.suit_of[c.index] for c in hand} - {TRUMP}
    suits_after = {ctx.suit_of[c.index] for c, n in left.items() if n > 0}
    voided = sorted(suits_before - suits_after)
    counts = Counter(hand)
    kept_en: list[str] = []
    kept_zh: list[str] = []
    if not any(ctx.suit_of[c.index] == TRUMP for c in burial):
        kept_en.append("trumps")
        kept_zh.append("主牌")
    if not any(counts[c] >= 2 for c in burial):
        kept_en.append("pairs")
        kept_zh.append("对子")
    if not any(c.points for c in burial):
        kept_en.append("points")
        kept_zh.append("分")
    if voided:
        from ..words.i18n import SUIT_SYMBOLS  # only a reason needs the words

        syms = [SUIT_SYMBOLS["SHCD"[s]] for s in voided]
        en = f"bury every {' and '.join(syms)} to make {'voids' if len(syms) > 1 else 'a void'}"
        zh = f"扣光{''.join(syms)}做绝门"
    else:
        en, zh = "bury the least useful cards, emptying no suit", "扣最没用的牌, 不扣光任何一门"
    if kept_en:
        en += "; keep " + (
            " and ".join(kept_en) if len(kept_en) < 3 else "trumps, pairs and points"
        )
        zh += ", 留" + "、".join(kept_zh)
    return en, zh


# -- knowledge from the view -------------------------------------------------------------------


def call_progress(view: SeatView) -> list[tuple[FriendCall, int, int | None]]:
    """找朋友: each call with the copies of its card played so far (the trick in progress
    too) and the seat that answered it (None: nobody yet)."""
    played: Counter[Card] = Counter()
    for t in view.tricks:
        for p in t.plays:
            played.update(p.cards)
    for p in view.trick:
        played.update(p.cards)
    return [(c.call, played[c.call.card], c.seat) for c in view.calls]


def choose_calls(view: SeatView) -> tuple[FriendCall, ...]:
    """找朋友: the heuristic's friend calls for the view's seat (:func:`friend_calls`)."""
    return friend_calls(view.ctx, view.hand, view.options)


def friend_calls(
    ctx: TrumpContext, hand: Sequence[Card], options: RuleOptions
) -> tuple[FriendCall, ...]:
    """The heuristic's calls from ``hand``: the top plain cards (aces; kings at level A)
    it holds the fewest copies of, each the first copy it does not hold, its longest
    suits first among equals; other callable cards when those run out."""
    decks = options.decks
    held = Counter(hand)
    allowed = set(callable_cards(ctx))
    length = Counter(ctx.suit_of[c.index] for c in hand)
    ranked: list[tuple[tuple[int, int, int], FriendCall]] = []
    for c in allowed:
        if ctx.suit_of[c.index] == TRUMP:
            continue
        top = 14 if ctx.level != 14 else 13
        if c.rank < top - 1:
            continue
        have = held[c]
        if have >= decks:
            continue
        key = (c.rank != top, have, -length[ctx.suit_of[c.index]])
        ranked.append((key, FriendCall(c, have + 1)))
    ranked.sort(key=lambda kc: (kc[0], kc[1].card.index))
    calls = [fc for _, fc in ranked[: options.calls]]
    for c in sorted(allowed, key=lambda c: -c.rank):  # few plain top cards left: any others
        if len(calls) >= options.calls:
            break
        if held[c] < decks and all(fc.card != c for fc in calls):
            calls.append(FriendCall(c, held[c] + 1))
    return tuple(calls)


class Knowledge:
    """What a seat can infer: unseen cards and the voids each seat has shown."""

    def __init__(self, view: SeatView) -> None:
        assert view.seat is not None
        self.view = view
        self.seat = view.seat
        ctx = view.ctx
        unseen = Counter(deck(view.options.decks))
        unseen.subtract(view.hand)
        n = len(view.hand_sizes)
        self.partners = partners(view, self.seat)
        #: 找朋友, the banker: the suits of the calls not answered yet (lead low there).
        self.find_suits: set[int] = set()
        if self.seat == view.banker:
            for call, _, by in call_progress(view):
                if by is None and call.card not in view.hand:
                    self.find_suits.add(ctx.suit_of[call.card.index])
        self.opponents = [s for s in range(n) if s != self.seat and s not in self.partners]
        self.voids: dict[int, set[int]] = {s: set() for s in range(n)}
        #: Suits in which a seat has shown it holds no pair (it did not follow a pair).
        self.pair_voids: dict[int, set[int]] = {s: set() for s in range(n)}
        for t in (*view.tricks, None):
            plays = t.plays if t is not None else view.trick
            if not plays:
                continue
            lead_cards = plays[0].cards
            suit = ctx.suit_of[lead_cards[0].index]
            wide = len(set(lead_cards)) < len(lead_cards)
            for i, p in enumerate(plays):
                unseen.subtract(p.cards)
                if any(ctx.suit_of[c.index] != suit for c in p.cards):
                    self.voids[p.seat].add(suit)
                elif i and wide and len(set(p.cards)) == len(p.cards):
                    self.pair_voids[p.seat].add(suit)
        buried: tuple[Card, ...] = ()
        for kind, cards in view.kitty_seen:
            if kind == "buried":
                buried = cards
        unseen.subtract(buried)
        self.unseen = +unseen
        self.unseen_list = list(self.unseen.elements())
        self.my_side_banker = view.is_banker_side(self.seat)
        self.kitty_points_guess = float(points(buried)) if buried else 0.0
        hidden = len(self.unseen_list)
        if not buried and not self.my_side_banker and hidden:
            # the kitty is kitty_size of the unseen cards: its share of their points
            self.kitty_points_guess = points(self.unseen_list) * view.options.kitty_size / hidden
        self._suit_unseen: dict[int, list[Card]] = {}
        for c in self.unseen_list:
            self._suit_unseen.setdefault(ctx.suit_of[c.index], []).append(c)
        #: 找朋友: the calls not answered yet, with the copies of their card played so far.
        self.open_calls = (
            [(call, n) for call, n, by in call_progress(view) if by is None] if view.calls else []
        )
        #: 找朋友, a seat on no side yet: the banker's side has lost the hand already, so
        #: answering a call would only join the losers (:func:`banker_side_lost`).
        self.joins_losers = (
            bool(self.open_calls) and not self.my_side_banker and banker_side_lost(view)
        )

    def needless_answers(self, play: Sequence[Card]) -> int:
        """找朋友: how many calls ``play`` would answer that the seat need not: a seat on
        the banker's side already (the banker, a friend found) that plays a called copy
        leaves the side a seat short, and so does a seat answering two calls at once; a
        seat on no side yet need not join a banker's side that has lost the hand already
        (:attr:`joins_losers`). A call that no copy but the seat's own can still answer
        (none unseen) is not counted: it is the seat's whenever it plays."""
        answered = 0
        avoidable = 0
        for call, played in self.open_calls:
            copies = sum(1 for c in play if c == call.card)
            if played < call.ordinal <= played + copies:
                answered += 1
                avoidable += self.unseen[call.card] > 0
        extra = answered - (0 if self.my_side_banker or self.joins_losers else 1)
        return min(max(extra, 0), avoidable)

    def opponent_void(self, suit: int) -> bool:
        """An opponent has shown void in ``suit`` (and trumps may remain to ruff)."""
        trumps_out = bool(self._suit_unseen.get(TRUMP))
        return trumps_out and any(
            suit in self.voids[s] and TRUMP not in self.voids[s] for s in self.opponents
        )

    def partner_void(self, suit: int) -> bool:
        """A partner has shown void in ``suit`` (and has not shown void in trumps)."""
        return any(suit in self.voids[p] and TRUMP not in self.voids[p] for p in self.partners)

    def is_boss(self, unit: Unit) -> bool:
        """No unseen cards could form the same shape ranking higher (a pair or wider
        unit is also a boss when both opponents have shown they hold no pair there)."""
        if not beats_unit(self.view.ctx, unit, self._suit_unseen.get(unit.suit, [])):
            return True
        return unit.width >= 2 and all(
            unit.suit in self.voids[s] or unit.suit in self.pair_voids[s] for s in self.opponents
        )

    def opponent_trumps(self) -> float:
        """About how many trumps the opponents still hold: the unseen trumps, less the
        partners' likely share, none for an opponent that has shown void in trumps."""
        out = len(self._suit_unseen.get(TRUMP, ()))
        opps = [s for s in self.opponents if TRUMP not in self.voids[s]]
        if not opps:
            return 0.0
        holders = len(opps) + sum(1 for p in self.partners if TRUMP not in self.voids[p])
        return out * len(opps) / holders

    def trump_control(self, hand: Sequence[Card]) -> bool:
        """The seat holds trump control: at least four trumps and a third of its hand,
        twice as many as the opponents likely hold (drawing with fewer hands the lead to
        opponents who keep trumps), and at most two unseen trumps above its best."""
        ctx = self.view.ctx
        mine = [c for c in hand if ctx.suit_of[c.index] == TRUMP]
        if len(mine) < max(4, len(hand) // 3) or len(mine) < 2 * self.opponent_trumps():
            return False
        top = max(ctx.key[c.index] for c in mine)
        higher = sum(1 for c in self._suit_unseen.get(TRUMP, ()) if ctx.key[c.index] > top)
        return higher <= 2

    def hold_chance(
        self, play: Sequence[Card], lead: Lead, later_opponents: Sequence[int]
    ) -> float:
        """About how likely ``play`` (winning now) stays on top: for a single, the chance
        that no later opponent holds one of the unseen cards that beat it (or can ruff);
        for larger plays, from :meth:`holds`."""
        if not later_opponents:
            return 1.0
        if len(play) > 1:
            return 0.85 if self.holds(play, lead, later_opponents) else 0.3
        ctx = self.view.ctx
        c = play[0]
        suit = ctx.suit_of[c.index]
        key = ctx.key[c.index]
        ruffers = [s for s in later_opponents if TRUMP not in self.voids[s]]
        ruff = any(lead.suit in self.voids[s] for s in ruffers)
        if suit != TRUMP and ruff and self._suit_unseen.get(TRUMP):
            return 0.15
        higher = sum(1 for d in self._suit_unseen.get(suit, ()) if ctx.key[d.index] > key)
        if not higher:
            return 1.0
        sizes = self.view.hand_sizes
        hidden = len(self.unseen_list)
        share = sum(sizes[s] for s in later_opponents if suit not in self.voids[s])
        if hidden <= 0:
            return 1.0
        return float((1 - share / hidden) ** higher)

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


def banker_side_lost(view: SeatView) -> bool:
    """找朋友: the banker's side has lost the hand whatever is still to come: the
    collectors' points win it even if every seat whose side is not known yet turns out a
    friend (their tricks' points then leave the collectors' count) and every penalty
    goes against the collectors."""
    unknown = {s for s in range(len(view.hand_sizes)) if view.side_of(s) is None}
    movable = sum(t.points for t in view.tricks if t.winner in unknown)
    least = view.trick_points - movable - abs(view.penalties)
    return least > 0 and level_change(view.options, least).side == "collectors"


def friend_cost(cards_left: int) -> float:
    """找朋友: what a friend is worth to the banker's side in the scores of plays (about
    points), more with more tricks to play: a play that answers a call needlessly
    (:meth:`Knowledge.needless_answers`) must gain that much more than the others.

    >>> friend_cost(20), friend_cost(1)
    (130, 35)
    """
    return 30 + 5 * cards_left


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
    ctx, hand, k = view.ctx, view.hand, view.options.kitty_size
    counts = Counter(hand)
    lengths = Counter(ctx.suit_of[c.index] for c in hand)
    ordered = sorted(hand, key=lambda c: keep_value(ctx, c, counts[c], lengths, k))
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
