"""Why a review's better play is better: a stable reason code and its params, found from
the position (the state before the play, the trick so far) and from how the trick went.

A review (:mod:`shengji.bots.review`) marks a play when the search bot's alternative is
worth clearly more over sampled deals; :func:`why` says what that alternative does that
the play made does not, in the words a strong player would use: it wins the trick, the
play gave points to the opponents, spent a trump where a side card would do, broke a
pair, overtook a partner's winning card, led into a void... Each reason is a code
(``wins_trick``, ``gives_points``...) with JSON params (cards in notation, numbers), worded
in both languages by :func:`shengji.words.i18n.reason_text`. When nothing specific is
true, the reason is the search's own figures (``search``).

Facts about the moment of the play are the seat's own (its hand, the trick so far, what
it could infer: :class:`~shengji.bots.heuristic.Knowledge`); facts about how the trick
ended (who took it, with how many points) are what happened at the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game.state import GameState, Trick
from ..game.views import seat_view
from ..rules.cards import Card, format_cards, points
from ..rules.tricks import trick_winner
from ..rules.trump import TRUMP, TrumpContext
from ..rules.units import Lead, Unit, classify_lead, decompose
from .heuristic import Knowledge
from .sides import partners

#: Every reason code, most specific first (the order :func:`why` tries them in).
CODES = (
    "beats_winner",  # the better play beats the cards that took the trick from the seat's side
    "secures_trick",  # partner's card may be overtaken; the better play makes the trick safe
    "wins_trick",  # the better play wins the trick for sure; the played one does not
    "takes_lead",  # the better play beats the cards so far; the played one does not
    "holds_trick",  # both beat the cards so far; only the better play is sure to hold
    "overtakes_partner",  # the played one beats partner's winning card for nothing
    "overtaken",  # the played one took the lead but the opponents overtook it
    "gives_points",  # the played one fed points to a trick the opponents took
    "feeds_partner",  # the better play gives more points to the side's winning trick
    "draws_trumps",  # the better lead draws the opponents' trumps
    "leads_boss",  # the better lead is a unit nobody can beat
    "leads_into_void",  # the played lead is a suit an opponent has shown void in
    "spends_trump",  # the played one spends trumps where the better one does without
    "leads_trump",  # the played lead spends a trump; the better one leads a side suit
    "keeps_boss",  # the played one spends a card nobody can beat, for nothing
    "breaks_pair",  # the played one breaks a pair or tractor the better one keeps
    "spends_pair",  # the played one spends a whole pair or tractor the better one keeps
    "spends_high",  # the played one spends a higher card than needed
    "leads_low",  # the better lead is lower in the same suit and keeps the played top card
    "wins_nothing",  # the played one spends a card to win a trick without points
    "lost_trick",  # after the played lead the opponents took the trick and its points
    "search",  # nothing specific: the search's figures
)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a mark's alternative is better: ``code`` (one of :data:`CODES`) and its
    ``params`` as ``(name, value)`` pairs (cards in notation, numbers)."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    def args(self) -> dict[str, Any]:
        """The params as a dict (JSON)."""
        return dict(self.params)

    def text(self, lang: str = "en") -> str:
        """The reason in words, suits as symbols (``en`` or ``zh``)."""
        from ..words.i18n import reason_text

        return reason_text(self.code, self.args(), lang)

    def json(self) -> dict[str, Any]:
        """``{code, params, text: {en, zh}}`` for clients."""
        return {
            "code": self.code,
            "params": self.args(),
            "text": {lang: self.text(lang) for lang in ("en", "zh")},
        }


def reason(code: str, **params: Any) -> Reason:
    """A :class:`Reason` from keyword params."""
    assert code in CODES, code
    return Reason(code, tuple(params.items()))


def searched(better: Sequence[Card], gain: float, deals: int) -> Reason:
    """The generic reason: the search's figures."""
    return reason("search", better=format_cards(better), gain=round(gain, 2), deals=deals)


def trick_after(states: Sequence[GameState], start: int, before: GameState) -> Trick | None:
    """The trick that ``before`` is in the middle of, as it ended: from the first of
    ``states[start:]`` (states after the play, in order) that finished it in the same hand."""
    n = len(before.tricks)
    for st in states[start:]:
        if st.hand_number != before.hand_number:
            return None
        if len(st.tricks) > n:
            return st.tricks[n]
    return None


def hand_end(states: Sequence[GameState], start: int, before: GameState) -> GameState:
    """The last of ``states[start:]`` in ``before``'s hand (where every side is known)."""
    end = before
    for st in states[start:]:
        if st.hand_number != before.hand_number:
            break
        end = st
    return end


class Position:
    """The facts of one play's moment, for the seat that made it."""

    def __init__(self, before: GameState, seat: int) -> None:
        self.view = seat_view(before, seat)
        self.know = Knowledge(self.view)
        self.seat = seat
        self.ctx: TrumpContext = before.ctx
        self.hand = before.hands[seat]
        self.plays = [p.cards for p in before.trick]
        self.seats = [p.seat for p in before.trick]
        self.lead: Lead | None = before.lead if self.plays else None
        self.partners = partners(self.view, seat)
        n = len(before.hands)
        self.last = len(self.plays) == n - 1
        later = [(seat + i) % n for i in range(1, n - len(self.plays))]
        self.later_opps = [s for s in later if s not in self.partners]
        self.so_far = sum(points(p) for p in self.plays)
        self.cur = trick_winner(self.ctx, self.plays, self.lead) if self.plays else None

    def suit(self, c: Card) -> int:
        return int(self.ctx.suit_of[c.index])

    def wins_now(self, play: Sequence[Card]) -> bool:
        """The play beats the cards played so far (a lead: always)."""
        if self.lead is None:
            return True
        try:
            return trick_winner(self.ctx, [*self.plays, tuple(play)], self.lead) == len(self.plays)
        except Exception:  # not a follow of this lead (a record from other rules): no claim
            return False

    def holds(self, play: Sequence[Card]) -> bool:
        """A winning follow stays on top as far as the seat can tell."""
        return self.lead is not None and (
            self.last or self.know.holds(play, self.lead, self.later_opps)
        )

    def trumps(self, play: Sequence[Card]) -> int:
        return sum(1 for c in play if self.suit(c) == TRUMP)

    def boss_cards(self, play: Sequence[Card]) -> list[Card]:
        """The play's cards that no unseen card outranks (within their effective suit)."""
        out = []
        for c in dict.fromkeys(play):
            unit = Unit(1, 1, int(self.ctx.strength[c.index]), self.suit(c), (c,))
            if self.know.is_boss(unit):
                out.append(c)
        return out

    def units(self) -> list[Unit]:
        """The hand's pairs, triples and tractors (wider than a single)."""
        by_suit: dict[int, list[Card]] = {}
        for c in self.hand:
            by_suit.setdefault(self.suit(c), []).append(c)
        return [u for cards in by_suit.values() for u in decompose(self.ctx, cards) if u.width >= 2]

    def taken(self, play: Sequence[Card], unit: Unit) -> int:
        """How many of ``unit``'s cards the play takes."""
        left = Counter(play)
        return sum(min(left[c], unit.cards.count(c)) for c in set(unit.cards))

    def broken(self, play: Sequence[Card]) -> list[Unit]:
        """The hand's pairs and tractors that the play takes some but not all cards of."""
        return [u for u in self.units() if 0 < self.taken(play, u) < len(u.cards)]

    def spent(self, play: Sequence[Card], keeper: Sequence[Card]) -> list[Unit]:
        """The hand's pairs and tractors that the play takes whole and ``keeper`` leaves
        untouched, where no unit of the lead asks for that shape."""
        shapes = {u.shape for u in self.lead.units} if self.lead is not None else set()
        return [
            u
            for u in self.units()
            if self.taken(play, u) == len(u.cards)
            and not self.taken(keeper, u)
            and u.shape not in shapes
        ]

    def is_boss_lead(self, play: Sequence[Card]) -> bool:
        try:
            ld = classify_lead(self.ctx, play)
        except Exception:
            return False
        if ld.suit != TRUMP and self.know.opponent_void(ld.suit):
            return False
        return all(self.know.is_boss(u) for u in ld.units)


def why(
    before: GameState,
    seat: int,
    played: Sequence[Card],
    better: Sequence[Card],
    trick: Trick | None = None,
    end: GameState | None = None,
) -> Reason | None:
    """What ``better`` does that ``played`` does not, at ``before`` (``seat`` to play);
    ``trick``: the trick as it ended at the table, ``end``: the state at the hand's end
    (who was on which side). None when nothing specific is found."""
    try:
        pos = Position(before, seat)
        end = end or before
        words = {"played": format_cards(played), "better": format_cards(better)}
        lost = None
        if trick is not None and end.is_banker_side(trick.winner) != end.is_banker_side(seat):
            lost = trick  # the opponents took the trick at the table
        if pos.lead is None:
            found = _lead_reason(pos, played, better, lost, words)
        else:
            found = _follow_reason(pos, played, better, trick, lost, words)
    except Exception:  # a position the rules cannot read (a record of other rules): no claim
        return None
    if found is not None and found.code == "gives_points" and not end.is_banker_side(seat):
        # the collectors' own points: the banker's side keeps them from the count
        found = Reason(found.code, (*found.params, ("collector", True)))
    return found


def _follow_reason(
    pos: Position,
    played: Sequence[Card],
    better: Sequence[Card],
    trick: Trick | None,
    lost: Trick | None,
    words: dict[str, str],
) -> Reason | None:
    assert pos.cur is not None and pos.lead is not None
    p_wins, b_wins = pos.wins_now(played), pos.wins_now(better)
    cur_seat = pos.seats[pos.cur]
    partner_winning = cur_seat in pos.partners
    stake = pos.so_far + points(better)
    if lost is not None and _beats(pos, lost, better):
        winner = next(p.cards for p in lost.plays if p.seat == lost.winner)
        return reason("beats_winner", winner=format_cards(winner), taken=lost.points, **words)
    if b_wins and not p_wins:
        if partner_winning:
            if pos.holds(better) and not pos.holds(pos.plays[pos.cur]):
                partner = format_cards(pos.plays[pos.cur])
                return reason("secures_trick", partner=partner, points=stake, **words)
        elif pos.holds(better):
            return reason("wins_trick", points=stake, **words)
        elif stake or lost is not None:
            return reason("takes_lead", points=stake, **words)
    if (
        p_wins
        and b_wins
        and not pos.last
        and pos.holds(better)
        and not pos.holds(played)
        and (stake or lost is not None)
    ):
        return reason("holds_trick", points=stake, **words)
    if p_wins and not b_wins and partner_winning:
        return reason("overtakes_partner", partner=format_cards(pos.plays[pos.cur]), **words)
    if p_wins and not b_wins and lost is not None:
        return reason("overtaken", taken=lost.points, **words)
    if (
        p_wins
        and not b_wins
        and not stake
        and not points(played)
        and (trick is None or not trick.points)
    ):
        top = max(played, key=lambda c: pos.ctx.key[c.index])
        return reason("wins_nothing", cards=top.text, **words)
    gave = points(played) - points(better)
    if lost is not None and gave > 0 and not p_wins:
        return reason("gives_points", points=gave, taken=lost.points, **words)
    if (
        trick is not None
        and lost is None
        and trick.winner != pos.seat
        and points(better) > points(played)
        and not b_wins
    ):
        return reason("feeds_partner", points=points(better) - points(played), **words)
    return _waste_reason(pos, played, better, p_wins, b_wins, words)


def _beats(pos: Position, trick: Trick, better: Sequence[Card]) -> bool:
    """With every other play of the trick as it was, ``better`` in place of the seat's
    play would have won it."""
    plays = [tuple(better) if p.seat == pos.seat else p.cards for p in trick.plays]
    try:
        return trick_winner(pos.ctx, plays, pos.lead) == [p.seat for p in trick.plays].index(
            pos.seat
        )
    except Exception:  # not a play of this trick: no claim
        return False


def _lead_reason(
    pos: Position,
    played: Sequence[Card],
    better: Sequence[Card],
    lost: Trick | None,
    words: dict[str, str],
) -> Reason | None:
    know = pos.know
    p_suit, b_suit = pos.suit(played[0]), pos.suit(better[0])
    if (
        b_suit == TRUMP
        and p_suit != TRUMP
        and know.opponent_trumps() > 0
        and (know.my_side_banker or know.trump_control(pos.hand))
    ):
        return reason("draws_trumps", **words)
    if pos.is_boss_lead(better) and not pos.is_boss_lead(played):
        return reason("leads_boss", **words)
    if (
        p_suit != TRUMP
        and know.opponent_void(p_suit)
        and not (b_suit != TRUMP and know.opponent_void(b_suit))
    ):
        return reason("leads_into_void", suit="SHCD"[p_suit], **words)
    if lost is not None and points(played) > points(better):
        return reason(
            "gives_points", points=points(played) - points(better), taken=lost.points, **words
        )
    found = _waste_reason(pos, played, better, True, True, words)
    if found is None and lost is not None and lost.points:
        return reason("lost_trick", taken=lost.points, **words)
    return found


def _waste_reason(
    pos: Position,
    played: Sequence[Card],
    better: Sequence[Card],
    p_wins: bool,
    b_wins: bool,
    words: dict[str, str],
) -> Reason | None:
    """What the played cards spend for nothing the better ones gain: trumps, a card
    nobody can beat, a pair or tractor, a higher card."""
    same_job = b_wins or not p_wins  # the better play does at least what the played one does
    if not same_job:
        return None
    side_lead = pos.lead is not None and pos.lead.suit != TRUMP
    extra = pos.trumps(played) - pos.trumps(better)
    if extra > 0 and pos.lead is None and not pos.trumps(better):
        return reason("leads_trump", **words)
    if extra > 0 and side_lead:
        return reason("spends_trump", trumps=extra, **words)
    kept = [c for c in pos.boss_cards(played) if c not in better]
    if kept and not (p_wins and pos.lead is None):
        return reason("keeps_boss", cards=format_cards(kept[:1]), **words)
    broken_p = pos.broken(played)
    broken_b = {u.cards for u in pos.broken(better)}
    fresh = [u for u in broken_p if u.cards not in broken_b]
    if fresh:
        u = fresh[0]
        kind = "tractor" if u.links > 1 else {2: "pair", 3: "triple"}.get(u.width, "quad")
        return reason("breaks_pair", cards=format_cards(u.cards), kind=kind, **words)
    spent = pos.spent(played, better) if pos.lead is not None else []
    if spent:
        u = spent[0]
        kind = "tractor" if u.links > 1 else {2: "pair", 3: "triple"}.get(u.width, "quad")
        return reason("spends_pair", cards=format_cards(u.cards), kind=kind, **words)
    top_p = max(pos.ctx.key[c.index] for c in played)
    top_b = max(pos.ctx.key[c.index] for c in better)
    same_suit = {pos.suit(c) for c in played} == {pos.suit(c) for c in better}
    if same_suit and top_p > top_b and p_wins == b_wins:
        top = max(played, key=lambda c: pos.ctx.key[c.index])
        if pos.lead is None:
            if top not in better:
                return reason("leads_low", cards=top.text, **words)
            return None
        return reason("spends_high", cards=top.text, **words)
    return None
