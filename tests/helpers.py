"""Helpers shared by the test modules: contexts, multiset keys and random positions."""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from shengji.bots.random_bot import random_action
from shengji.game.actions import Action, Continue, Declare, Pass
from shengji.game.flow import apply, new_match, stack_deck
from shengji.game.state import GameState
from shengji.rules.cards import Card, deck, parse_cards
from shengji.rules.leads import unit_leads
from shengji.rules.options import RuleOptions
from shengji.rules.presets import load_preset
from shengji.rules.trump import TrumpContext, parse_trump, trump_context
from shengji.rules.units import classify_lead

TRUMPS = ("S", "H", "C", "D", "NT")


def examples(n: int) -> int:
    """``max_examples`` for a property test: ``n``, or ten times that when thorough."""
    return n * 10 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else n


def ctx_for(preset: str, level: int | str, trump: str | None, **overrides: object) -> TrumpContext:
    """A trump context for a preset (with optional option overrides)."""
    return TrumpContext(load_preset(preset, overrides or None), level, trump)


def C(text: str) -> tuple[Card, ...]:
    """Shorthand for :func:`parse_cards`."""
    return parse_cards(text)


def key(cards: Iterable[Card]) -> tuple[int, ...]:
    """A canonical multiset key: sorted card indexes."""
    return tuple(sorted(c.index for c in cards))


def sub_multisets(hand: Sequence[Card], n: int) -> set[tuple[int, ...]]:
    """Every distinct ``n``-card sub-multiset of ``hand`` (brute force)."""
    return {key(combo) for combo in combinations(hand, n)}


def from_key(k: Iterable[int]) -> tuple[Card, ...]:
    from shengji.rules.cards import card_from_index

    return tuple(card_from_index(i) for i in k)


def minus(cards: Iterable[Card], used: Iterable[Card]) -> list[Card]:
    """``cards`` less the multiset ``used`` (order of ``cards`` kept)."""
    left = Counter(used)
    out = []
    for c in cards:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    return out


def random_throw(
    ctx: TrumpContext, hand: Sequence[Card], rng: random.Random, max_cards: int = 7
) -> tuple[Card, ...] | None:
    """A random multi-unit set of cards of one effective suit from ``hand`` (a throw), or
    None when the hand has no suit with enough cards. Pairs are favoured."""
    by_suit: dict[int, list[Card]] = {}
    for c in hand:
        by_suit.setdefault(ctx.suit_of[c.index], []).append(c)
    suits = [s for s, cs in by_suit.items() if len(cs) >= 2]
    rng.shuffle(suits)
    for s in suits:
        cs = by_suit[s]
        counts = Counter(cs)
        for _ in range(10):
            chosen: list[Card] = []
            distinct = list(counts)
            rng.shuffle(distinct)
            for c in distinct:
                if len(chosen) >= max_cards:
                    break
                roll = rng.random()
                if roll < 0.45:
                    continue
                take = counts[c] if roll < 0.8 else 1
                take = min(take, max_cards - len(chosen))
                chosen.extend([c] * take)
            if len(chosen) >= 2 and len(classify_lead(ctx, chosen).units) >= 2:
                return tuple(chosen)
    return None


def random_context(rng: random.Random, presets: Sequence[str]) -> TrumpContext:
    opts = load_preset(rng.choice(presets))
    return trump_context(opts, rng.randrange(2, 15), parse_trump(rng.choice(TRUMPS)))


def random_lead(
    ctx: TrumpContext, hand: Sequence[Card], rng: random.Random, max_cards: int = 8
) -> tuple[Card, ...]:
    """A random lead from ``hand``: a tractor, throw, triple, pair or single, the kind
    drawn first (structured kinds favoured) and then a lead of that kind."""
    leads = [ld for ld in unit_leads(ctx, hand) if len(ld) <= max_cards]
    by_kind: dict[str, list[tuple[Card, ...]]] = {}
    for ld in leads:
        by_kind.setdefault(classify_lead(ctx, ld).kind, []).append(ld)
    weights = {"tractor": 4, "throw": 3, "triple": 2, "pair": 2, "single": 1}
    kinds = list(weights)
    while kinds:
        kind = rng.choices(kinds, weights=[weights[k] for k in kinds])[0]
        kinds.remove(kind)
        if kind == "throw":
            throw = random_throw(ctx, hand, rng, max_cards=min(7, max_cards))
            if throw is not None:
                return throw
        elif by_kind.get(kind):
            return rng.choice(by_kind[kind])
    return rng.choice(leads)


def biased_follower_hand(
    ctx: TrumpContext,
    lead: Sequence[Card],
    rest: Sequence[Card],
    size: int,
    rng: random.Random,
) -> tuple[Card, ...]:
    """A hand of ``size`` cards from ``rest`` that often holds cards of the led suit and
    pairs: a random number of led-suit cards (doubled where possible), then any cards."""
    suit = ctx.suit_of[lead[0].index]
    pool = list(rest)
    rng.shuffle(pool)
    in_suit = [c for c in pool if ctx.suit_of[c.index] == suit]
    hand: list[Card] = []
    want = rng.choice([0, rng.randrange(0, size + 1), len(lead), len(lead) + rng.randrange(0, 4)])
    want = min(want, size)
    left = Counter(pool)
    for c in in_suit:
        if len(hand) >= want:
            break
        if not left[c]:
            continue
        copies = min(left[c], 2 if rng.random() < 0.6 else 1, want - len(hand))
        hand.extend([c] * copies)
        left[c] -= copies
    others = [c for c in pool if ctx.suit_of[c.index] != suit]
    for c in others:
        if len(hand) >= size:
            break
        if not left[c]:
            continue
        copies = min(left[c], 2 if rng.random() < 0.4 else 1, size - len(hand))
        hand.extend([c] * copies)
        left[c] -= copies
    if len(hand) < size:  # not enough off-suit cards: top up with anything left
        for c, n in left.items():
            while n and len(hand) < size:
                hand.append(c)
                n -= 1
    return tuple(hand)


def random_follow_position(
    rng: random.Random, presets: Sequence[str], max_lead: int = 7
) -> tuple[TrumpContext, tuple[Card, ...], tuple[Card, ...]]:
    """``(ctx, lead, follower_hand)`` with a 6..12-card follower hand."""
    ctx = random_context(rng, presets)
    cards = deck(ctx.options.decks)
    rng.shuffle(cards)
    leader = cards[: ctx.options.hand_size]
    lead = random_lead(ctx, leader, rng, max_cards=max_lead)
    rest = minus(cards, leader)
    size = max(len(lead), rng.randrange(6, 13))
    return ctx, lead, biased_follower_hand(ctx, lead, rest, size, rng)


def sub_multiset_count(cards: Sequence[Card], size: int) -> int:
    """The number of distinct ``size``-card sub-multisets: the coefficient of x^size in
    prod over distinct cards of (1 + x + ... + x^multiplicity)."""
    poly = [1]
    for m in Counter(cards).values():
        new = [0] * (len(poly) + m)
        for i, a in enumerate(poly):
            for j in range(m + 1):
                new[i + j] += a
        poly = new
    return poly[size] if size < len(poly) else 0


# -- scripted deals ---------------------------------------------------------------

Script = list[tuple[str, int, str]]  # (phase, seat, cards) shows to make, in order


def build_deck(
    opts: RuleOptions, wants: dict[int, str], kitty: str = "", seed: int = 0, start: int = 0
) -> tuple[Card, ...]:
    """A deck order dealing the wanted cards first to each seat (from seat ``start``)."""
    rng = random.Random(seed)
    pool = Counter(deck(opts.decks))
    hands: list[list[Card]] = [[] for _ in range(opts.players)]
    for seat, text in wants.items():
        for c in parse_cards(text):
            pool[c] -= 1
            hands[seat].append(c)
    kit = list(parse_cards(kitty))
    for c in kit:
        pool[c] -= 1
    rest = list(pool.elements())
    rng.shuffle(rest)
    for h in hands:
        while len(h) < opts.hand_size:
            h.append(rest.pop())
    kit += rest
    assert len(kit) == opts.kitty_size
    return stack_deck(hands, kit, start)


def run(st: GameState, script: Script, until: str = "play", seed: int = 1) -> GameState:
    """Drive the game: make the scripted shows when offered, pass otherwise, bury randomly;
    stop when ``until`` is reached (``play`` or ``hand_over``)."""
    rng = random.Random(seed)
    todo = list(script)
    while st.phase != until:
        seat = st.to_act if st.to_act is not None else 0
        action: Action
        if st.phase in ("deal", "before_kitty", "after_burial"):
            action = Pass()
            if todo and todo[0][0] == st.phase and todo[0][1] == seat:
                action = Declare(parse_cards(todo.pop(0)[2]))
        else:
            action = random_action(st, seat, rng)
        st, _ = apply(st, seat, action)
    assert not todo, f"scripted shows never offered: {todo}"
    return st


def later_hand(opts: RuleOptions, wants: dict[int, str], kitty: str = "") -> GameState:
    """A state at the start of hand 2 with a stacked deck (hand 1 played randomly)."""
    st = run(new_match(opts, 1), [], until="hand_over")
    banker = st.results[-1].outcome.next_banker
    d = build_deck(opts, wants, kitty, start=banker)
    st = dataclasses.replace(st, stacked=(st.deck_order, d))
    st, _ = apply(st, 0, Continue())
    return st


def show_in_deal(session: Any, pick: int = 0, upto: int = 10_000) -> str:
    """Poll a terminal's local table (``LocalSession``, a round a poll) until its person
    can show, and make their ``pick``-th show (the person's 亮主 during the deal); then
    poll on to the person's first decision or the deal's end. Returns the cards shown."""
    for _ in range(upto):
        shows = session.state.get("shows") or []
        if shows:
            cards = str(shows[min(pick, len(shows) - 1)])
            refusal = session.act({"type": "declare", "cards": cards})
            assert refusal is None, refusal
            while session.state["view"]["phase"] == "deal" and session.poll():
                pass
            return cards
        assert session.state["view"]["phase"] == "deal", "the deal ended before a show"
        session.poll()
    raise AssertionError("no show came")


def deal_out(session: Any, upto: int = 10_000) -> None:
    """Poll a terminal's local table until its deal is over (nobody shows for the person)."""
    for _ in range(upto):
        if session.state["view"]["phase"] != "deal":
            return
        session.poll()
    raise AssertionError("the deal did not end")
