"""The game state machine: deal → declare → kitty → (counter-declare) → play → result →
next hand, for whole matches under any preset.

One entry point, :func:`apply`, validates an action and returns the new state with the
events it produced, or raises a :class:`~shengji.errors.ShengjiError` (stable code, clear
message) and leaves the state untouched (states are immutable). :func:`legal_actions`
lists what a seat may do now. Dealing is seeded: the same seed gives the same game.

The flow is the kernel's (:class:`~shengji.kernel.match.KMatch`: the deal with its shows,
the windows, burial, 炒底/反底, play, scoring, levels): this module checks and words each
action, hands it to the kernel, and folds what the kernel did into immutable states and
events. The newest state of a line of play keeps its kernel match, so applying actions
one after another costs no rebuilding; applying to an older state (a branch) rebuilds the
kernel match from the state's fields.

>>> from shengji.rules.presets import load_preset
>>> st = new_match(load_preset("shuangsheng"), seed=3)
>>> st.phase, st.hand_number, len(st.hands[0]) > 0
('deal', 0, True)
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ..errors import Code, PlayError, ShengjiError
from ..kernel import access
from ..rules.cards import ALL_CARDS, Card, deck, format_cards, rank_text
from ..rules.declaring import (
    DeclareState,
    apply_show,
    check_show,
    from_kernel,
    kernel_declare,
    refusal,
    start_state,
)
from ..rules.follow import check_follow, legal_follows
from ..rules.friends import CalledFriend, FriendCall, callable_cards, check_calls, format_calls
from ..rules.immutable import evolve
from ..rules.leads import check_lead, unit_leads
from ..rules.multisets import multiset_combinations
from ..rules.options import RuleOptions
from ..rules.phases import DECLARING_PHASES, Phase
from ..rules.scoring import HandResult
from ..rules.seats import FIXED_TEAMS
from ..rules.trump import TrumpContext, trump_context
from ..rules.units import Lead
from .actions import (
    Action,
    ActionError,
    Bury,
    Call,
    Continue,
    Deal,
    Declare,
    Pass,
    Play,
    check_action,
)

if TYPE_CHECKING:
    from ..kernel._core import KHand, KState
    from ..kernel.match import KMatch

__all__ = [
    "Event",
    "GameState",
    "HandResult",
    "Table",
    "TableFacts",
    "Trick",
    "TrickPlay",
    "apply",
    "legal_actions",
    "legal_shows",
    "new_match",
    "stack_deck",
]

Event = dict[str, Any]  # the kernel's own alias is the same type


class TrickPlay(NamedTuple):
    """One seat's play in a trick; ``attempted`` is the whole throw when it failed,
    ``blocked_by`` then the first seat (after the thrower) that could beat the unit
    played instead, and ``penalty`` the change the failure made to the collectors'
    points (or, with ``throw_penalty = stake``, 0)."""

    seat: int
    cards: tuple[Card, ...]
    attempted: tuple[Card, ...] | None = None
    blocked_by: int | None = None
    penalty: int = 0


class Trick(NamedTuple):
    """A finished trick: plays in order (leader first), winner seat and its points."""

    plays: tuple[TrickPlay, ...]
    winner: int
    points: int


class TableFacts:
    """What the declarations and friend calls decide, for a game state and a seat's view
    alike."""

    __slots__ = ()
    options: RuleOptions
    declare: DeclareState
    calls: tuple[CalledFriend, ...]

    @property
    def banker(self) -> int | None:
        """The banker seat (None in a first hand before anyone declared)."""
        return self.declare.banker

    @property
    def trump(self) -> str | None:
        """``"S"``..``"NT"``, or None before trump is known."""
        return self.declare.trump_text

    def is_banker_side(self, seat: int) -> bool:
        """True if ``seat`` is known to be on the banker's side this hand (找朋友: the
        banker and the friends found so far)."""
        banker = self.declare.banker
        if banker is None:
            return False
        if self.options.friends:
            return seat == banker or any(c.seat == seat for c in self.calls)
        return FIXED_TEAMS[seat] == FIXED_TEAMS[banker]

    def side_of(self, seat: int) -> int | None:
        """``seat``'s side as far as the table knows: 0 the banker's, 1 the collectors',
        None not yet known (找朋友 before every call is answered, or no banker yet)."""
        banker = self.declare.banker
        if banker is None:
            return None
        if self.is_banker_side(seat):
            return 0
        if not self.options.friends:
            return 1
        if self.calls and all(c.seat is not None for c in self.calls):
            return 1
        return None

    @property
    def friends_found(self) -> tuple[int, ...]:
        """找朋友: the seats that joined the banker's side so far, in the order found."""
        out: list[int] = []
        banker = self.declare.banker
        for c in self.calls:
            if c.seat is not None and c.seat != banker and c.seat not in out:
                out.append(c.seat)
        return tuple(out)


@dataclass(frozen=True, kw_only=True)
class GameState(TableFacts):
    """The whole state of a match and of its current hand. Immutable.

    The fields are grouped by the phase that writes them; a new hand (``_fresh_hand``)
    resets every group below "the match".
    """

    # -- the match: every phase --
    options: RuleOptions
    seed: int
    phase: Phase
    #: Levels by holder (:func:`shengji.rules.seats.level_holder`): per team, or per player.
    levels: tuple[int, ...]
    progress: tuple[int, ...]
    coins: tuple[int, int]
    hand_number: int
    results: tuple[HandResult, ...]
    #: The team that won the match (``match_over``).
    winner: int | None = None
    #: Fixed deck orders for the first hands (scripted deals); empty for seeded shuffles.
    stacked: tuple[tuple[Card, ...], ...] = ()
    #: Paced deals: nobody is asked at the draws; the table deals on (:class:`Deal`) at its
    #: own pace and any seat shows whenever it holds a show.
    paced: bool = False
    # -- this hand, dealing (``deal``): the shuffle and who holds what --
    redeals: int
    start_seat: int
    deck_order: tuple[Card, ...]
    dealt: int
    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    level: int
    #: The trump context of the hand (trump taken as NT while undecided, for sorting).
    ctx: TrumpContext = dataclasses.field(default=None, compare=False)  # type: ignore[assignment]
    # -- declaring (``deal`` shows, the declaring windows, counter-declaring) --
    declare: DeclareState
    to_act: int | None
    window_order: tuple[int, ...] = ()
    window_pos: int = 0
    passes: int = 0
    # -- the kitty (``bury`` and the rounds of 炒底/反底) --
    buried_by: tuple[int, ...] = ()
    kitty_log: tuple[tuple[int, str, tuple[Card, ...]], ...] = ()
    # -- 找朋友 (``call``): the banker's calls and who answered them --
    calls: tuple[CalledFriend, ...] = ()
    # -- play (``play``, through the end of the hand) --
    leader: int = 0
    trick: tuple[TrickPlay, ...] = ()
    lead: Lead | None = None
    tricks: tuple[Trick, ...] = ()
    trick_points: int = 0
    penalties: int = 0
    stake_penalties: tuple[int, int] = (0, 0)

    # -- derived --------------------------------------------------------------------------
    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds."""
        return self.hands[seat]

    @property
    def seats(self) -> int:
        """How many seats play this hand."""
        return len(self.hands)

    def is_over(self) -> bool:
        """True when the match is over (``match_over``: no seat has anything to do). A
        hand is over at ``phase == "hand_over"`` (``Continue`` deals the next)."""
        return self.phase == "match_over"

    def result(self) -> HandResult | None:
        """The result of the last finished hand (the score sheet's last line: points,
        outcome, the levels it moved), None before the first hand ends; at the end of
        the match it is the last hand's, and :attr:`winner` the winning team (or seat in
        找朋友)."""
        return self.results[-1] if self.results else None

    def text(self, lang: str = "en") -> str:
        """The table as lines of text in ``lang`` (``en`` or ``zh``), suits as symbols: the
        rules, hand, phase, level, trump and banker; the collectors' points and the
        levels; every seat's hand (all of them: a state is the whole table, a seat sees
        its own with :func:`shengji.game.views.seat_view`), sorted as the trump orders them;
        the trick in progress; whose turn it is (``str(state)`` is the English text)."""
        from ..words.i18n import t, trump_label

        def seat(s: int) -> str:
            return t("seat.n", lang, n=s)

        def cards(cs: Iterable[Card]) -> str:
            return " ".join(c.symbol for c in cs) or "-"

        banker = self.declare.banker
        head = t(
            "state.head",
            lang,
            rules=self.options.name,
            hand=self.hand_number + 1,
            phase=t(f"phase.{self.phase}", lang),
            level=rank_text(self.level),
            trump=trump_label(self.trump, lang),
            banker="-" if banker is None else seat(banker),
        )
        levels = " · ".join(
            t(
                "state.level",
                lang,
                who=seat(i) if self.options.friends else t("state.team", lang, a=i, b=i + 2),
                level=rank_text(v),
            )
            for i, v in enumerate(self.levels)
        )
        lines = [head, t("state.points", lang, points=self.trick_points, levels=levels)]
        for s, hand in enumerate(self.hands):
            mark = t("state.banker", lang) if s == banker else ""
            lines.append(f"{seat(s)}{mark}: {cards(self.ctx.sorted(hand))}")
        if self.trick:
            plays = " → ".join(f"{seat(p.seat)} {cards(p.cards)}" for p in self.trick)
            lines.append(t("state.trick", lang, plays=plays))
        if self.to_act is not None:
            lines.append(t("state.to_act", lang, seat=seat(self.to_act)))
        elif self.phase == "hand_over":
            lines.append(t("state.next_hand", lang))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its kernel match (rebuilt from the fields when needed)."""
        state = dict(self.__dict__)
        state.pop(_KERNEL, None)
        return state


class Table(Protocol):
    """What legal-action queries read: a :class:`GameState`, or a seat's
    :class:`~shengji.game.views.SeatView` (which can only give its own hand)."""

    @property
    def options(self) -> RuleOptions: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def level(self) -> int: ...
    @property
    def declare(self) -> DeclareState: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def ctx(self) -> TrumpContext: ...
    @property
    def trick(self) -> tuple[TrickPlay, ...]: ...
    @property
    def lead(self) -> Lead | None: ...
    def hand_of(self, seat: int) -> tuple[Card, ...]: ...


# -- starting -------------------------------------------------------------------------------


def new_match(
    options: RuleOptions,
    seed: int,
    stacked: Sequence[Sequence[Card]] = (),
    *,
    paced: bool = False,
) -> GameState:
    """A new match: both teams at the start level, first hand dealt up to the first
    decision. ``stacked`` gives fixed deck orders (draw order, kitty last) for the first
    hands instead of seeded shuffles; see :func:`stack_deck`.

    The deal stops at each draw of a seat that could show, which shows or passes (bots,
    programs). With ``paced`` it asks nobody: the table deals on with :class:`Deal` as its
    clock says (a table of people) and every seat shows when it likes; in both, any seat
    may show at any moment of the deal."""
    size = 54 * options.decks
    full = sorted(c.index for c in deck(options.decks))
    for i, d in enumerate(stacked):
        if sorted(c.index for c in d) != full:
            raise ActionError(
                f"stacked deck {i} must hold exactly the {size} cards of {options.decks} deck(s)",
                code=Code.BAD_DECK,
            )
    from ..kernel.match import KMatch  # not at import time: a Botzone turn may not need it

    m = KMatch(options, seed, stacked, paced=paced)
    st = GameState(
        options=options,
        seed=seed,
        paced=paced,
        levels=m.levels,
        progress=m.progress,
        coins=m.coins,
        hand_number=0,
        results=(),
        stacked=tuple(tuple(d) for d in stacked),
        **_fresh_hand(options, m.hand),
    )
    return _advance(st, m, [])


def _fresh_hand(options: RuleOptions, h: KHand) -> dict[str, Any]:
    """The hand fields of a state at the start of the kernel hand ``h`` (nothing dealt)."""
    declare = from_kernel(h.decl, _NO_SHOWS)
    return {
        "phase": "deal",
        "redeals": h.redeals,
        "start_seat": h.start_seat,
        "deck_order": tuple([ALL_CARDS[c] for c in h.deck]),
        "dealt": 0,
        "hands": ((),) * h.r.seats,
        "kitty": tuple([ALL_CARDS[c] for c in h.kitty]),
        "declare": declare,
        "ctx": trump_context(options, h.level, None),
        "level": h.level,
        "to_act": None,
        "window_order": (),
        "window_pos": 0,
        "passes": 0,
        "buried_by": (),
        "kitty_log": (),
        "calls": (),
        "leader": 0 if declare.banker is None else declare.banker,
        "trick": (),
        "lead": None,
        "tricks": (),
        "trick_points": 0,
        "penalties": 0,
        "stake_penalties": (0, 0),
    }


_NO_SHOWS = start_state(True, None)


def stack_deck(
    hands: Sequence[Sequence[Card]], kitty: Sequence[Card], start_seat: int = 0
) -> tuple[Card, ...]:
    """The deck order that deals ``hands[s]`` to seat s (one card at a time from
    ``start_seat``, in the given order) and leaves ``kitty``."""
    n = len(hands[0])
    seats = len(hands)
    if any(len(h) != n for h in hands):
        raise ActionError("every stacked hand needs the same number of cards", code=Code.BAD_DECK)
    order = [hands[(start_seat + i) % seats][i // seats] for i in range(seats * n)]
    return (*order, *kitty)


# -- queries ----------------------------------------------------------------------------------


def legal_shows(st: Table, seat: int, phase: str | None = None) -> list[tuple[Card, ...]]:
    """Every show (报主/反主/上保险) ``seat`` may make now from its hand."""
    ph = phase or st.phase
    if ph not in DECLARING_PHASES:
        return []
    counts = _show_counts(st.hand_of(seat), st.level)
    if not counts:
        return []
    return list(_shows_for(st.options, st.level, st.declare, seat, counts, ph))


def _show_counts(hand: Iterable[Card], level: int) -> tuple[tuple[Card, int], ...]:
    """The level cards and jokers of ``hand`` with their counts, in card order."""
    counts: dict[Card, int] = {}
    for c in hand:
        if c.rank == level or c.is_joker:
            counts[c] = counts.get(c, 0) + 1
    return tuple(sorted(counts.items(), key=lambda cn: cn[0].index))


@functools.lru_cache(maxsize=8192)
def _shows_for(
    options: RuleOptions,
    level: int,
    declare: DeclareState,
    seat: int,
    counts: tuple[tuple[Card, int], ...],
    phase: str,
) -> tuple[tuple[Card, ...], ...]:
    """The legal shows from these show cards (cached: the deal asks at every draw)."""
    out = []
    for c, n in counts:
        for k in range(2 if c.is_joker else 1, n + 1):
            cards = (c,) * k
            try:
                apply_show(options, level, declare, seat, cards, phase)  # type: ignore[arg-type]
            except ShengjiError:
                continue
            out.append(cards)
    out.sort(key=lambda cs: (len(cs), cs[0].index))
    return tuple(out)


def legal_actions(st: Table, seat: int) -> Iterator[Action]:
    """What ``seat`` may do now, lazily (burials and void follows can be millions).

    Declaring phases: every legal show, then ``Pass`` (during the deal every seat may show,
    and only the seat asked at its draw passes). Burial: every distinct set of
    kitty-size cards. Calling friends: every set of distinct calls. Play: every legal
    follow; for a lead, every one-unit lead (a throw, any other set of cards of one suit,
    may also be attempted: :func:`apply` checks it against the other hands and forces a
    unit when it fails). :mod:`shengji.game.moves`
    reaches every action, throws included, card by card from at most 55 moves a step.
    """
    if st.phase == "match_over":
        return
    if st.phase == "hand_over":
        yield Continue()
        return
    if st.to_act != seat:
        if st.phase == "deal":  # anyone shows at any moment of the deal
            for show in legal_shows(st, seat):
                yield Declare(show)
        return
    if st.phase in DECLARING_PHASES:
        for show in legal_shows(st, seat):
            yield Declare(show)
        yield Pass()
    elif st.phase == "bury":
        hand = st.ctx.sorted(st.hand_of(seat))
        for cards in multiset_combinations(hand, st.options.kitty_size):
            yield Bury(cards)
    elif st.phase == "call":
        choices = [
            FriendCall(c, k) for c in callable_cards(st.ctx) for k in range(1, st.options.decks + 1)
        ]
        for calls in itertools.combinations(choices, st.options.calls):
            if len({(c.card, c.ordinal) for c in calls}) == len(calls):
                yield Call(calls)
    elif st.trick:
        assert st.lead is not None
        for p in legal_follows(st.ctx, st.lead, st.hand_of(seat)):
            yield Play(p)
    else:
        for p in unit_leads(st.ctx, st.hand_of(seat)):
            yield Play(p)


# -- applying -----------------------------------------------------------------------------


def apply(st: GameState, seat: int | None, action: Action) -> tuple[GameState, list[Event]]:
    """Validate ``action`` by ``seat`` and return the new state and its events.

    Raises a ShengjiError with a stable code when the action is not allowed
    (``BAD_ACTION`` when it is not an action at all: a string, a dict); the given state is
    never changed. ``seat`` is None only for the table's own :class:`Deal`.
    """
    check_action(action)
    if isinstance(action, Deal):
        return _deal_on(st, seat, action.dealt)
    n = st.seats
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise ActionError(f"seat must be 0..{n - 1}, not {seat!r}", code=Code.BAD_SEAT)
    events: list[Event] = []
    if st.phase == "match_over":
        raise ActionError("the match is over", code=Code.MATCH_OVER)
    if st.phase == "hand_over":
        if not isinstance(action, Continue):
            raise ActionError(
                "the hand is over: only 'continue' starts the next one",
                params={"phase": st.phase},
            )
        m = _take_kernel(st)
        m.next_hand()
        banker = m.results[-1].outcome.next_banker
        events.append({"type": "new_hand", "number": m.hand_number, "banker": banker})
        st = evolve(st, hand_number=m.hand_number, **_fresh_hand(st.options, m.hand))
        return _advance(st, m, events), events
    if st.phase == "deal" and isinstance(action, Declare):  # asked or not
        return _declare(st, seat, action.cards, events), events
    if st.phase == "deal" and st.paced:
        raise ActionError(
            "the cards deal themselves: only a show is possible now, whenever you hold one",
            params={"phase": st.phase, "reason": "paced"},
        )
    if st.to_act != seat:
        who = "nobody" if st.to_act is None else f"seat {st.to_act}"
        raise ActionError(
            f"it is {who}'s turn, not seat {seat}'s",
            code=Code.NOT_YOUR_TURN,
            params={"to_act": st.to_act, "seat": seat},
        )
    if st.phase in DECLARING_PHASES:
        if isinstance(action, Declare):
            st = _declare(st, seat, action.cards, events)
        elif isinstance(action, Pass):
            m = _take_kernel(st)
            m.hand.pass_turn()
            events.append({"type": "pass", "seat": seat})
            st = _advance(st, m, events)
        else:
            raise ActionError(
                f"now is the time to declare or pass ({st.phase})", params={"phase": st.phase}
            )
    elif st.phase == "bury":
        if not isinstance(action, Bury):
            raise ActionError(
                "now is the time to bury the kitty (扣底)", params={"phase": st.phase}
            )
        st = _bury(st, seat, action.cards, events)
    elif st.phase == "call":
        if not isinstance(action, Call):
            raise ActionError(
                "now is the time to call friends (找朋友)", params={"phase": st.phase}
            )
        st = _call(st, seat, action.calls, events)
    elif st.phase == "play":
        if not isinstance(action, Play):
            raise ActionError("now is the time to play cards", params={"phase": st.phase})
        st = _play(st, seat, action.cards, events)
    return st, events


def _remove(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...]:
    """``hand`` less ``cards`` (which it holds)."""
    out = list(hand)
    for c in cards:
        out.remove(c)
    return tuple(out)


def _need_held(hand: Sequence[Card], cards: Sequence[Card]) -> None:
    """Raise CARDS_NOT_IN_HAND naming only the cards ``hand`` lacks."""
    missing = Counter(cards) - Counter(hand)
    if missing:
        text = format_cards(missing.elements())
        raise PlayError(
            f"not in your hand: {text}", code=Code.CARDS_NOT_IN_HAND, params={"cards": text}
        )


def _declare(st: GameState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> GameState:
    _need_held(st.hands[seat], cards)
    show = check_show(st.options, st.level, cards)
    m = _kernel_of(st)
    h = m.hand
    card, count = show.card.index, show.count
    why = h.show_error(seat, card, count)
    if why:
        raise refusal(st.options, why, st.phase, st.declare)  # type: ignore[arg-type]
    _detach(st)
    counters = h.decl.counters
    if st.phase == "deal":
        h.show_during_deal(seat, card, count)
    else:
        h.declare(card, count)
    declare = from_kernel(h.decl, st.declare)
    declare = evolve(declare, shows=(*st.declare.shows, (seat, tuple(cards))))
    events.append(
        {
            "type": "declare",
            "seat": seat,
            "cards": format_cards(cards),
            "trump": declare.trump_text,
            "banker": declare.banker,
            "counter": declare.counters > counters,
        }
    )
    return _advance(evolve(st, declare=declare), m, events)


def _deal_on(st: GameState, seat: int | None, dealt: int) -> tuple[GameState, list[Event]]:
    """The table deals on until ``dealt`` cards are out (a paced deal)."""
    total = len(st.deck_order) - len(st.kitty) if st.phase == "deal" else 0
    if seat is not None:
        raise ActionError(
            "the table deals, not a seat", params={"phase": st.phase, "reason": "table_deals"}
        )
    if not st.paced or st.phase != "deal":
        why = "the deal is over" if st.paced else "this deal is not paced: it deals on by itself"
        raise ActionError(why, params={"phase": st.phase, "reason": "no_deal"})
    if not st.dealt < dealt <= total:
        raise ActionError(
            f"deal on to {st.dealt + 1}..{total} cards, not {dealt}",
            params={"phase": st.phase, "reason": "deal_count", "dealt": st.dealt, "total": total},
        )
    m = _take_kernel(st)
    h = m.hand
    h.deal_to(dealt)
    events: list[Event] = [{"type": "deal", "count": dealt}]
    hands = _deal(list(st.hands), h, st.dealt)
    return _advance(evolve(st, hands=tuple(hands)), m, events), events


def _bury(st: GameState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> GameState:
    k = st.options.kitty_size
    if len(cards) != k:
        raise PlayError(
            f"bury exactly {k} cards, not {len(cards)}",
            code=Code.WRONG_CARD_COUNT,
            params={"need": k, "got": len(cards), "kind": "bury"},
        )
    _need_held(st.hands[seat], cards)
    m = _take_kernel(st)
    m.hand.bury([c.index for c in cards])
    hands = list(st.hands)
    hands[seat] = _remove(hands[seat], cards)
    events.append({"type": "bury", "seat": seat, "private": {seat: format_cards(cards)}})
    return _advance(evolve(st, hands=tuple(hands)), m, events)


def _call(
    st: GameState, seat: int, calls: tuple[FriendCall, ...], events: list[Event]
) -> GameState:
    check_calls(st.ctx, calls)
    m = _take_kernel(st)
    m.hand.call_friends([c.card.index for c in calls], [c.ordinal for c in calls])
    events.append({"type": "call", "seat": seat, "calls": format_calls(calls)})
    return _advance(evolve(st, calls=tuple([CalledFriend(c) for c in calls])), m, events)


# -- the play phase: every rules question answered by the kernel (through the rules API) --


def _play(st: GameState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> GameState:
    ctx = st.ctx
    hand = st.hands[seat]
    leading = not st.trick
    if leading:
        lead = check_lead(ctx, hand, cards)
    else:
        assert st.lead is not None
        check_follow(ctx, st.lead, hand, cards)
        lead = st.lead
    m = _take_kernel(st)
    ks = m.hand.play
    assert ks is not None
    ks.record = leading and len(lead.units) > 1  # a throw attempt: its check is recorded
    m.hand.play_cards([c.index for c in cards])
    changes: dict[str, Any] = {}
    play = TrickPlay(seat, cards)
    if ks.record:
        for e in ks.events:
            if e.kind == _core().EV_THROW_FAILED:
                play = _failed_throw(st, seat, cards, e, ks.blocked[-1], events)
                lead = check_lead(ctx, hand, play.cards)
                changes["penalties"] = ks.penalties
                changes["stake_penalties"] = (ks.stake_penalties[0], ks.stake_penalties[1])
        ks.events.clear()
    if leading:
        changes["lead"] = lead
        changes["leader"] = seat
    hands = list(st.hands)
    hands[seat] = _remove(hand, play.cards)
    trick = (*st.trick, play)
    events.append({"type": "play", "seat": seat, "cards": format_cards(play.cards)})
    if ks.plays:  # the trick goes on
        st = evolve(st, **changes, hands=tuple(hands), trick=trick, to_act=ks.to_act)
        return _attach(st, m)
    winner, pts = ks.last_winner, ks.last_points
    collectors = ks.team[winner] != ks.team[ks.banker]
    events.append({"type": "trick", "winner": winner, "points": pts, "collectors": collectors})
    if st.calls:
        changes["calls"] = _found(st, ks, events)
        changes["penalties"] = ks.penalties  # recounted for the sides as they now stand
    st = evolve(
        st,
        **changes,
        hands=tuple(hands),
        tricks=(*st.tricks, Trick(trick, winner, pts)),
        trick=(),
        lead=None,
        trick_points=ks.trick_points,
        to_act=winner,
        leader=winner,
    )
    if not ks.done:
        return _attach(st, m)
    return _finish_hand(st, m, events)


def _found(st: GameState, ks: KState, events: list[Event]) -> tuple[CalledFriend, ...]:
    """The calls once a trick is complete: the seats that played a called copy in it are
    found (events say who, and whether they joined or were already on the side)."""
    out = list(st.calls)
    side = {st.declare.banker, *st.friends_found}
    for i, c in enumerate(out):
        seat = ks.call_by[i]
        if c.seat is None and seat >= 0:
            out[i] = CalledFriend(c.call, seat)
            events.append(
                {
                    "type": "friend",
                    "seat": seat,
                    "call": c.call.text,
                    "joined": seat not in side,
                    "banker_side": [s for s in range(st.seats) if ks.team[s] == ks.team[ks.banker]],
                }
            )
            side.add(seat)
    return tuple(out)


def _failed_throw(
    st: GameState, seat: int, cards: tuple[Card, ...], e: Any, blocker: int, events: list[Event]
) -> TrickPlay:
    """The play a failed throw leaves in the trick (kernel event ``e``), and its event."""
    played = tuple([ALL_CARDS[c] for c in e.cards])
    stake = st.options.throw_penalty == "stake"
    events.append(
        {
            "type": "throw_failed",
            "seat": seat,
            "attempted": format_cards(cards),
            "played": format_cards(played),
            "blocked_by": e.blocked_by,
            "penalty": e.penalty,
            "stake": stake,
            "code": Code.THROW_FAILED,
        }
    )
    return TrickPlay(seat, played, cards, blocker, 0 if stake else e.penalty)


def _finish_hand(st: GameState, m: KMatch, events: list[Event]) -> GameState:
    result = m.finish_hand()
    outcome = result.outcome
    events.append(
        {
            "type": "hand_over",
            **({"banker_side": list(result.banker_side)} if result.banker_side else {}),
            "kitty": format_cards(result.kitty),
            "kitty_multiplier": result.kitty_multiplier,
            "points": result.points,
            "levels": [rank_text(v) for v in m.levels],
            "next_banker": outcome.next_banker,
            "winner": outcome.winner,
            "explain": {"en": outcome.explain("en"), "zh": outcome.explain("zh")},
        }
    )
    st = evolve(
        st,
        levels=m.levels,
        progress=m.progress,
        coins=m.coins,
        results=(*st.results, result),
        phase="match_over" if m.over else "hand_over",
        to_act=None,
        winner=m.winner,
    )
    if m.over:
        events.append({"type": "match_over", "winner": m.winner})
    return _attach(st, m)


# -- automatic steps, and the kernel's changes folded into a state ---------------------------

_PHASES = access.PHASE_NAMES
_PHASE_NUMBERS: dict[Phase, int] = {v: k for k, v in _PHASES.items()} | {"match_over": 5}
_KITTY_MOVES = ("picked_up", "buried")


def _advance(st: GameState, m: KMatch, events: list[Event]) -> GameState:
    """Run the kernel's automatic steps (dealing, skipping seats with nothing to show,
    redeals and fallbacks) until a seat must decide, and fold them into ``st``."""
    core = _core()
    h = m.hand
    hands = list(st.hands)
    while h.to_act < 0 and h.phase in (core.PH_DEAL, core.PH_BEFORE_KITTY, core.PH_AFTER_BURIAL):
        if h.paced and h.phase == core.PH_DEAL:
            break  # the table deals on (Deal)
        dealing, dealt, declared = h.phase == core.PH_DEAL, h.dealt, h.decl.declared
        h.advance()
        if dealing:
            hands = _deal(hands, h, dealt)
            events.append({"type": "deal", "count": h.dealt})
        if not declared and h.decl.declared:  # nobody declared: a fallback set trump
            trump = from_kernel(h.decl, _NO_SHOWS).trump_text
            if h.turned < 0:
                events.append({"type": "no_declaration", "trump": trump})
            else:
                events.append(
                    {"type": "kitty_card", "card": ALL_CARDS[h.turned].text, "trump": trump}
                )
        if h.phase == core.PH_REDEAL:  # nobody declared, or a weak hand (with its trump)
            events.append({"type": "redeal", **({"weak": h.weak} if h.weak >= 0 else {})})
            m.redeal()
            h = m.hand
            st = evolve(st, **_fresh_hand(st.options, h))
            hands = list(st.hands)
    return _sync(st, m, hands, events)


def _deal(hands: list[tuple[Card, ...]], h: KHand, dealt: int) -> list[tuple[Card, ...]]:
    """``hands`` with the cards the kernel dealt since ``dealt`` (a hand dealt nothing
    stays the same object: views of it are kept while it is)."""
    n = len(hands)
    new: list[list[Card]] = [[] for _ in range(n)]
    deck_ = h.deck
    for i in range(dealt, h.dealt):
        new[(h.start_seat + i) % n].append(ALL_CARDS[deck_[i]])
    return [old + tuple(more) if more else old for old, more in zip(hands, new, strict=True)]


def _sync(
    st: GameState, m: KMatch, hands: list[tuple[Card, ...]], events: list[Event]
) -> GameState:
    """``st`` with the fields the kernel hand decides (phase, seat to act, windows, the
    declarations, kitty moves) taken from it; ``hands`` are the hands so far, before the
    kitty pick-ups not yet in ``st.kitty_log``."""
    h = m.hand
    opts = st.options
    log = h.kitty_log
    kitty_log = st.kitty_log
    if len(log) > 3 * len(kitty_log):
        cards = h.kitty_cards
        moves = list(kitty_log)
        for i in range(3 * len(kitty_log), len(log), 3):
            end = log[i + 5] if i + 5 < len(log) else len(cards)
            seat, kind = log[i], _KITTY_MOVES[log[i + 1]]
            moved = tuple([ALL_CARDS[c] for c in cards[log[i + 2] : end]])
            moves.append((seat, kind, moved))
            if kind == "picked_up":
                hands[seat] = hands[seat] + moved
                events.append(
                    {"type": "take_kitty", "seat": seat, "private": {seat: format_cards(moved)}}
                )
        kitty_log = tuple(moves)
    declare = from_kernel(h.decl, st.declare)
    if declare == st.declare:
        declare = st.declare
    phase = _PHASES[h.phase]
    core = _core()
    if h.phase == core.PH_PLAY:
        ks = h.play
        assert ks is not None
        leader = ks.leader
    elif h.phase in (core.PH_BURY, core.PH_AFTER_BURIAL, core.PH_CALL):
        leader = h.decl.banker
    else:
        leader = st.leader
    n = len(hands)
    ws = h.window_start
    kitty = st.kitty  # it changes size whenever it moves (taken, buried)
    if len(h.kitty) != len(kitty):
        kitty = tuple([ALL_CARDS[c] for c in h.kitty])
    ctx = st.ctx
    if ctx.trump != declare.trump:
        ctx = trump_context(opts, h.level, declare.trump)
    st = evolve(
        st,
        phase=phase,
        hands=tuple(hands),
        kitty=kitty,
        declare=declare,
        ctx=ctx,
        to_act=None if h.to_act < 0 else h.to_act,
        window_order=() if phase == "deal" else tuple([(ws + i) % n for i in range(n)]),
        window_pos=h.window_pos,
        passes=h.passes,
        dealt=h.dealt,
        buried_by=tuple(h.buried_by),
        kitty_log=kitty_log,
        leader=leader,
    )
    return _attach(st, m)


# -- the kernel match behind a state ----------------------------------------------------------

#: Where a state keeps its kernel match: ``(id(state), match)``, so that a copy of the
#: state's ``__dict__`` (``evolve``) does not take it along.
_KERNEL = "_kernel"


def _core() -> Any:
    return access.core()


def _attach(st: GameState, m: KMatch) -> GameState:
    st.__dict__[_KERNEL] = (id(st), m)
    return st


def _detach(st: GameState) -> None:
    st.__dict__.pop(_KERNEL, None)


def _kernel_of(st: GameState) -> KMatch:
    """The kernel match standing for ``st`` (kept by it, or rebuilt from its fields)."""
    hit = st.__dict__.get(_KERNEL)
    if hit is not None and hit[0] == id(st):
        return hit[1]  # type: ignore[no-any-return]
    m = _rebuild(st)
    _attach(st, m)
    return m


def _take_kernel(st: GameState) -> KMatch:
    """:func:`_kernel_of`, taken from ``st`` to be changed (``st`` rebuilds it if it is
    applied to again)."""
    m = _kernel_of(st)
    _detach(st)
    return m


def _rebuild(st: GameState) -> KMatch:
    """A kernel match in the position ``st`` describes."""
    from ..kernel.match import KMatch

    core = _core()
    opts = st.options
    m = KMatch.resume(
        opts,
        st.seed,
        st.stacked,
        hand_number=st.hand_number,
        levels=st.levels,
        progress=st.progress,
        coins=st.coins,
        results=list(st.results),
        winner=st.winner,
        over=st.phase == "match_over",
        paced=st.paced,
    )
    d = st.declare
    h: KHand = core.KHand(
        m.rules,
        m.tables(st.level),
        st.level,
        [c.index for c in st.deck_order],
        st.start_seat,
        d.first_hand,
        -1 if d.banker is None else d.banker,
        st.redeals,
    )
    m.hand = h
    h.paced = st.paced
    h.phase = _PHASE_NUMBERS[st.phase]
    h.dealt = st.dealt
    for seat, cards in enumerate(st.hands):
        counts = h.hands[seat]
        for c in cards:
            counts[c.index] += 1
        h.sizes[seat] = len(cards)
    h.kitty = [c.index for c in st.kitty]
    kd = kernel_declare(d)
    for seat, cards in d.shows:
        kd.shows.extend((seat, cards[0].index, len(cards)))
    h.decl = kd
    h.to_act = -1 if st.to_act is None else st.to_act
    h.window_start = st.window_order[0] if st.window_order else st.start_seat
    h.window_pos = st.window_pos
    h.passes = st.passes
    h.buried_by = list(st.buried_by)
    for seat, kind, cards in st.kitty_log:
        h.kitty_log.extend((seat, _KITTY_MOVES.index(kind), len(h.kitty_cards)))
        h.kitty_cards.extend([c.index for c in cards])
    if st.phase in ("play", "hand_over", "match_over") and d.banker is not None:
        h.play = _play_state(st, h, m.team)
    return m


def _play_state(st: GameState, h: KHand, team: list[int]) -> KState:
    """The kernel's play state of ``st`` (sharing ``h``'s hands; seats on sides ``team``)."""
    from ..kernel.rollout import restore_play

    banker = st.declare.banker
    assert banker is not None
    ks: KState = _core().KState(h.trump_tables, banker, st.leader, team)
    ks.hands = h.hands
    ks.sizes = h.sizes
    restore_play(ks, st)
    ks.done = st.phase != "play"
    return ks
