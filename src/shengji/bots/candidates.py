"""The search bot's candidates: the figures of one (:class:`Evaluation`, and when they
beat the rule of thumb), the burials searched besides the heuristic's
(:func:`burial_candidates`: each short side suit emptied, point cards counted by rank
only, pairs not kept, ...), and why a searched choice overrides the rule of thumb
(:func:`override_reason`, :func:`play_difference`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..game.views import SeatView
from ..rules.cards import Card, Suit
from ..rules.trump import TRUMP
from .sides import partners

#: How many standard errors (of the paired difference over the same sampled deals) better
#: than the heuristic's choice a candidate must be to replace it.
MARGIN_SE = 2.0


#: ... and by how many levels at least (a clear margin, not a hair).
MIN_GAIN = 0.05


#: Sampled deals a comparison needs before it may override the rule of thumb: fewer (a
#: short time budget on a busy machine) and the rule of thumb stands.
MIN_DEALS = 30


#: Candidate burials searched per burial (the heuristic's and variants of it).
MAX_BURIALS = 6


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Search figures for one candidate play: mean value and its paired difference to
    the heuristic's choice over the same deals."""

    play: tuple[Card, ...]
    mean: float
    diff: float
    diff_se: float
    n: int

    @property
    def clearly_better(self) -> bool:
        """Better than the heuristic's choice by a clear margin on enough deals
        (:data:`MIN_DEALS`, :data:`MIN_GAIN`, :data:`MARGIN_SE`)."""
        return self.better(MIN_GAIN, MARGIN_SE)

    def surely_better(self, min_gain: float, margin_se: float) -> bool:
        """Better than the heuristic's choice on at least :data:`MIN_DEALS` deals, by at
        least ``min_gain`` levels once ``margin_se`` standard errors are taken off."""
        return self.n >= MIN_DEALS and self.diff - margin_se * self.diff_se >= min_gain

    def better(self, min_gain: float, margin_se: float) -> bool:
        """Better than the heuristic's choice on at least :data:`MIN_DEALS` deals, by at
        least ``min_gain`` levels and ``margin_se`` standard errors."""
        return (
            self.n >= MIN_DEALS and self.diff >= min_gain and self.diff > margin_se * self.diff_se
        )


def override_reason(
    view: SeatView, heuristic: tuple[Card, ...], best: Evaluation
) -> tuple[str, str]:
    """Why the search plays ``best.play`` rather than the rule of thumb's ``heuristic``:
    both plays, the gain with its standard error and deals, and the difference in words
    where one can be named (English, Chinese)."""

    from ..words.i18n import cards_label  # not at import: a Botzone turn loads no words

    words = play_difference(view, heuristic, best.play)
    en_cards = [cards_label([c.text for c in p], "en") for p in (best.play, heuristic)]
    zh_cards = [cards_label([c.text for c in p], "zh") for p in (best.play, heuristic)]
    gain = f"{best.diff:+.2f} ± {best.diff_se:.2f}"
    en = (
        f"search: {en_cards[0]} rather than the rule of thumb's {en_cards[1]}"
        + (f": {words[0]}" if words else "")
        + f"; worth {gain} levels in {best.n} sampled deals"
    )
    zh = (
        f"搜索: 出 {zh_cards[0]} 而不是经验打法的 {zh_cards[1]}"
        + (f": {words[1]}" if words else "")
        + f"; 在 {best.n} 次抽样中平均多得 {gain} 级"
    )
    return en, zh


def play_difference(
    view: SeatView, heuristic: tuple[Card, ...], chosen: tuple[Card, ...]
) -> tuple[str, str] | None:
    """What ``chosen`` does that ``heuristic`` does not, in words, when it is one of a few
    plain differences: it draws trumps, trumps in (毙), saves points, gives points to the
    partner, keeps a higher card, or leads a pair or tractor; None otherwise."""
    ctx = view.ctx
    suit_of, key = ctx.suit_of, ctx.key

    def trumps(p: tuple[Card, ...]) -> int:
        return sum(1 for c in p if suit_of[c.index] == TRUMP)

    def pts(p: tuple[Card, ...]) -> int:
        return sum(c.points for c in p)

    def top(p: tuple[Card, ...]) -> int:
        return max(key[c.index] for c in p)

    leading = not view.trick
    if leading:
        if trumps(chosen) and not trumps(heuristic):
            return ("draws trumps first", "先调主")
        if len(chosen) > 1 and len(set(chosen)) < len(chosen) and len(heuristic) == 1:
            return ("leads a pair or tractor while it is strongest", "趁大先出对子或拖拉机")
        if top(chosen) < top(heuristic):
            return ("keeps the higher card for later", "留着大牌")
        return None
    lead_suit = suit_of[view.trick[0].cards[0].index]
    if lead_suit != TRUMP and trumps(chosen) > trumps(heuristic):
        return ("trumps in (毙) to take the trick", "毙牌拿下这一轮")
    partner_winning = False
    if view.seat is not None and view.lead is not None:
        from ..rules.tricks import trick_winner

        plays = [p.cards for p in view.trick]
        winner = view.trick[trick_winner(ctx, plays, view.lead)].seat
        partner_winning = winner in partners(view, view.seat)
    if pts(chosen) > pts(heuristic) and partner_winning:
        return ("gives points to the partner, who is winning", "给赢牌的对家贴分")
    if pts(chosen) < pts(heuristic):
        return ("gives away fewer points", "少送分")
    if top(chosen) < top(heuristic) and suit_of[chosen[0].index] == suit_of[heuristic[0].index]:
        return ("keeps the higher card for later", "留着大牌")
    return None


@dataclass(frozen=True, slots=True)
class BurialCandidate:
    """A burial to search, and what it does (English, Chinese)."""

    cards: tuple[Card, ...]
    en: str
    zh: str


def burial_candidates(view: SeatView, chosen: tuple[Card, ...]) -> list[BurialCandidate]:
    """``chosen`` (the heuristic's burial) first, then up to :data:`MAX_BURIALS` - 1
    distinct variants of the heuristic's ordering of the hand (always the kitty's size,
    from the hand, so always legal): emptying each short side suit (shortest first),
    trumps kept; point cards counted by rank only; pairs not kept together; no
    preference for short suits; emptying two short side suits."""
    ctx, hand, k = view.ctx, view.hand, view.options.kitty_size
    suit_of, strength = ctx.suit_of, ctx.strength
    counts = Counter(hand)
    by_suit: dict[int, list[Card]] = {}
    for c in hand:
        if suit_of[c.index] != TRUMP:
            by_suit.setdefault(suit_of[c.index], []).append(c)

    def ordered(
        pair: float = 25, pts: float = 1.6, short: bool = True, empty: frozenset[int] = frozenset()
    ) -> tuple[Card, ...]:
        def keep_value(c: Card) -> float:
            x = suit_of[c.index]
            v = strength[c.index] + (pair if counts[c] >= 2 else 0) + c.points * pts
            if x == TRUMP:
                return v + 100
            if x in empty:
                return v - 1000
            n = len(by_suit[x])
            if short and n <= k // 2:
                v -= 8 - n
            return v

        return tuple(sorted(hand, key=keep_value)[:k])

    out = [BurialCandidate(chosen, "bury as the rule of thumb says", "按经验扣底")]
    seen = {_multiset_key(chosen)}

    def add(cards: tuple[Card, ...], en: str, zh: str) -> None:
        key = _multiset_key(cards)
        if key not in seen and len(out) < MAX_BURIALS:
            seen.add(key)
            out.append(BurialCandidate(cards, en, zh))

    short = sorted((len(cs), x) for x, cs in by_suit.items() if len(cs) <= k)
    for _, x in short:
        add(
            ordered(empty=frozenset({x})),
            f"empty {Suit(x).en} to make a void",
            f"扣光{Suit(x).zh}做绝门",
        )
    add(ordered(pts=0), "bury point cards like other cards", "分牌照常扣")
    add(ordered(pair=0), "break pairs if need be", "必要时拆对子")
    add(ordered(short=False), "bury the lowest cards", "扣最小的牌")
    for i, (n1, x1) in enumerate(short):
        for n2, x2 in short[i + 1 :]:
            if n1 + n2 <= k:
                add(
                    ordered(empty=frozenset({x1, x2})),
                    f"empty {Suit(x1).en} and {Suit(x2).en}",
                    f"扣光{Suit(x1).zh}和{Suit(x2).zh}",
                )
    return out


def _multiset_key(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(c.index for c in cards))
