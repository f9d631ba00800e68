"""The rules API (answered by the kernel) against the oracle (``tests/oracle``, the object
rules core): the same units and lead kinds, one-unit leads, legal follows in the same
order, counts, families, refusals in the same words, throw results and trick winners, on
random positions of every preset with random levels and trumps."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples
from oracle import follow as o_follow
from oracle import leads as o_leads
from oracle import throws as o_throws
from oracle import tricks as o_tricks
from oracle import units as o_units
from shengji.errors import ShengjiError
from shengji.rules import follow, leads, throws, tricks, units
from shengji.rules.cards import Card, Suit, deck
from shengji.rules.presets import load_preset, preset_names
from shengji.rules.trump import TrumpContext

SUITS = ["S", "H", "C", "D", "NT"]


def answer(fn: Callable[..., Any], *args: Any) -> Any:
    """What ``fn`` returns, or the error it raises (type, code, message, params)."""
    try:
        out = fn(*args)
    except ShengjiError as e:
        return (type(e).__name__, e.code, str(e), e.params)
    return list(out) if hasattr(out, "__next__") else out


def position(seed: int, preset: str) -> tuple[TrumpContext, list[list[Card]], random.Random]:
    opts = load_preset(preset)
    rng = random.Random(seed)
    cards = deck(opts.decks)
    rng.shuffle(cards)
    ctx = TrumpContext(opts, rng.randrange(2, 15), rng.choice(SUITS))
    size = opts.hand_size
    hands = [cards[i * size : (i + 1) * size] for i in range(4)]
    return ctx, hands, rng


def a_lead(ctx: TrumpContext, hand: list[Card], rng: random.Random) -> tuple[Card, ...]:
    """A one-unit lead, a throw attempt of one suit, or (rarely) mixed suits."""
    roll = rng.random()
    if roll < 0.5:
        return rng.choice(o_leads.unit_lead_list(ctx, hand))
    if roll < 0.9:
        suit = ctx.suit_of[rng.choice(hand).index]
        same = [c for c in hand if ctx.suit_of[c.index] == suit]
        return tuple(rng.sample(same, rng.randint(1, min(len(same), 8))))
    return tuple(rng.sample(hand, rng.randint(1, 4)))


@settings(max_examples=examples(150))
@given(seed=st.integers(0, 10**9), preset=st.sampled_from(preset_names()))
def test_units_and_leads_agree(seed: int, preset: str) -> None:
    ctx, hands, rng = position(seed, preset)
    hand = hands[0]
    for _ in range(6):
        cards = a_lead(ctx, hand, rng)
        assert answer(units.decompose, ctx, cards) == answer(o_units.decompose, ctx, cards)
        assert answer(units.classify_lead, ctx, cards) == answer(o_units.classify_lead, ctx, cards)
        assert units.lead_kind(ctx, cards) == o_units.lead_kind(ctx, cards)
        assert answer(leads.check_lead, ctx, hands[1], cards) == answer(
            o_leads.check_lead, ctx, hands[1], cards
        )
    mine, theirs = leads.unit_lead_list(ctx, hand), o_leads.unit_lead_list(ctx, hand)
    assert sorted(mine) == sorted(theirs) and len(set(mine)) == len(mine)
    assert leads.count_unit_leads(ctx, hand) == o_leads.count_unit_leads(ctx, hand)


@settings(max_examples=examples(150))
@given(seed=st.integers(0, 10**9), preset=st.sampled_from(preset_names()))
def test_follows_agree(seed: int, preset: str) -> None:
    ctx, hands, rng = position(seed, preset)
    lead = o_units.classify_lead(ctx, rng.choice(o_leads.unit_lead_list(ctx, hands[0])))
    if rng.random() < 0.5:  # a throw's units too
        suit = lead.suit
        same = [c for c in hands[0] if ctx.suit_of[c.index] == suit]
        lead = o_units.classify_lead(ctx, rng.sample(same, rng.randint(1, min(len(same), 7))))
    hand = hands[1]
    n = o_follow.count_legal_follows(ctx, lead, hand)
    assert follow.count_legal_follows(ctx, lead, hand) == n
    if n <= 400:
        assert list(follow.legal_follows(ctx, lead, hand)) == list(
            o_follow.legal_follows(ctx, lead, hand)
        )
    fams = {(tuple(sorted(f)), p, k) for f, p, k in follow.follow_families(ctx, lead, hand)}
    want = {(tuple(sorted(f)), p, k) for f, p, k in o_follow.follow_families(ctx, lead, hand)}
    assert fams == want
    for _ in range(8):
        size = len(lead.cards) + (rng.choice([-1, 1]) if rng.random() < 0.1 else 0)
        pool = hand if rng.random() < 0.9 else hand + hands[2]
        play = tuple(rng.sample(pool, max(1, min(size, len(pool)))))
        assert answer(follow.check_follow, ctx, lead, hand, play) == answer(
            o_follow.check_follow, ctx, lead, hand, play
        )
        assert follow.is_legal_follow(ctx, lead, hand, play) == o_follow.is_legal_follow(
            ctx, lead, hand, play
        )
    drawn = follow.random_legal_follow(ctx, lead, hand, rng)
    assert o_follow.is_legal_follow(ctx, lead, hand, drawn)
    for shape in {u.shape for u in lead.units}:
        assert follow.unit_requirements(shape) == o_follow.unit_requirements(shape)
    held = [c for c in hand if ctx.suit_of[c.index] == lead.suit]
    if len(held) >= len(lead.cards):
        assert follow.follow_requirement(ctx, lead, held) == o_follow.follow_requirement(
            ctx, lead, held
        )


@settings(max_examples=examples(150))
@given(seed=st.integers(0, 10**9), preset=st.sampled_from(preset_names()))
def test_throws_and_tricks_agree(seed: int, preset: str) -> None:
    ctx, hands, rng = position(seed, preset)
    suit = ctx.suit_of[rng.choice(hands[0]).index]
    same = [c for c in hands[0] if ctx.suit_of[c.index] == suit]
    cards = tuple(rng.sample(same, rng.randint(1, min(len(same), 8))))
    side = rng.random() < 0.5
    assert throws.check_throw(ctx, cards, hands[1:], side) == o_throws.check_throw(
        ctx, cards, hands[1:], side
    )
    lead = o_units.classify_lead(ctx, cards)
    for u in lead.units:
        assert throws.beats_unit(ctx, u, hands[1]) == o_throws.beats_unit(ctx, u, hands[1])
    assert throws.throw_penalty_points(ctx.options, lead.units) == (
        o_throws.throw_penalty_points(ctx.options, lead.units)
    )
    plays = [cards]
    for h in hands[1:]:
        if rng.random() < 0.7:
            plays.append(o_follow.random_legal_follow(ctx, lead, h, rng))
        else:
            plays.append(tuple(rng.sample(h, min(len(cards), len(h)))))
    assert answer(tricks.trick_winner, ctx, plays) == answer(o_tricks.trick_winner, ctx, plays)
    assert answer(tricks.trick_winner, ctx, plays, lead) == answer(
        o_tricks.trick_winner, ctx, plays, lead
    )


@settings(max_examples=examples(300))
@given(
    seed=st.integers(0, 10**9),
    preset=st.sampled_from(preset_names()),
    takes=st.booleans(),
)
def test_declaring_agrees(seed: int, preset: str, takes: bool) -> None:
    """Random shows (legal or not) in random phases, from a random start: the kernel's
    ``KDeclare`` (through ``declaring.apply_show``) and the oracle's agree on every state
    and refusal, words included."""
    from oracle import declaring as o_declaring
    from shengji.rules import declaring
    from shengji.rules.cards import ALL_CARDS

    opts = load_preset(preset).with_overrides({"counter_takes_banker": takes})
    rng = random.Random(seed)
    level = rng.randrange(2, 15)
    first = rng.random() < 0.5
    state = declaring.start_state(first, None if first else rng.randrange(4))
    if not first and rng.random() < 0.3:
        state = declaring.flipped_state(state, rng.choice([None, *Suit]))
    shows = [c for c in ALL_CARDS if c.rank == level or c.is_joker]
    for _ in range(12):
        seat = rng.randrange(4)
        card = rng.choice(shows) if rng.random() < 0.9 else rng.choice(ALL_CARDS)
        cards: tuple[Card, ...] = (card,) * rng.randint(1, 4)
        if rng.random() < 0.05:
            cards = (card, rng.choice(ALL_CARDS))
        phase = rng.choice(["deal", "before_kitty", "after_burial", None])
        args = (opts, level, state, seat, cards, phase)
        mine = answer(declaring.apply_show, *args)
        assert mine == answer(o_declaring.apply_show, *args)
        if isinstance(mine, declaring.DeclareState):
            state = mine
