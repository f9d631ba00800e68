"""The belief sampler: every fact it infers from a view holds for the true deal, and the
deals it samples respect those facts, conserve the cards and keep a known kitty."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import C, build_deck, examples, run
from shengji.bots.belief import KITTY, Belief
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.random_bot import RandomBot
from shengji.engine import from_table, play_out
from shengji.game.actions import Bury, Continue, Play
from shengji.game.flow import apply, new_match
from shengji.game.state import GameState
from shengji.game.views import seat_view
from shengji.rules.cards import Card, deck, points
from shengji.rules.presets import load_preset

PRESETS = ("shuangsheng", "classic-3deck", "tuolaji", "shuangkou")


def _play_to(preset: str, seed: int, steps: int, later: bool = False) -> GameState:
    """A random history: random bots (with throw attempts) from a seeded deal, stopped in
    the play phase after about ``steps`` plays (or at the last trick); with ``later`` in
    the second hand (counter-declarations after the burial where the rules allow them)."""
    gs = new_match(load_preset(preset), seed)
    bots = [RandomBot(s, seed) for s in range(4)]
    if later:
        while gs.phase != "hand_over":
            seat = gs.to_act
            assert seat is not None
            gs, _ = apply(gs, seat, bots[seat].act(seat_view(gs, seat)))
        gs, _ = apply(gs, 0, Continue())
    plays = 0
    while gs.phase not in ("hand_over", "match_over"):
        if gs.phase == "play":
            if plays >= steps:
                break
            plays += 1
        seat = gs.to_act
        assert seat is not None
        gs, _ = apply(gs, seat, bots[seat].act(seat_view(gs, seat)))
    return gs


def _truth(gs: GameState, belief: Belief) -> dict[int, list[Card]]:
    out = {s: list(gs.hands[s]) for s in belief.capacity if s != KITTY}
    if KITTY in belief.capacity:
        out[KITTY] = list(gs.kitty)
    return out


@settings(max_examples=examples(60))
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 80),
    later=st.booleans(),
    sample_seed=st.integers(0, 2**32),
)
def test_sampled_deals_respect_what_the_seat_knows(
    preset: str, seed: int, steps: int, later: bool, sample_seed: int
) -> None:
    gs = _play_to(preset, seed, steps, later)
    if gs.phase != "play":
        return
    ctx = gs.ctx
    for seat in range(4):
        view = seat_view(gs, seat)
        belief = Belief(view)
        # the inference is sound: the true deal satisfies every fact
        assert belief.consistent(_truth(gs, belief))
        deal = belief.sample(random.Random(sample_seed))
        assert deal is not None
        assert belief.consistent(deal)
        buried = Belief(view, burial_prior=True)
        assert buried.consistent(buried.sample(random.Random(sample_seed)) or {})
        for holder, cards in deal.items():
            # never a card of a suit the holder has shown void in, nor a banned card
            assert not any(ctx.suit_of[c.index] in belief.void[holder] for c in cards)
            assert not any(c in belief.banned[holder] for c in cards)
            assert not Counter(belief.forced[holder]) - Counter(cards)
        # cards are conserved: the sampled state holds exactly the decks
        state = belief.state(deal)
        played = [c for t in state.tricks for p in t.plays for c in p.cards]
        played += [c for p in state.trick for c in p.cards]
        held = [c for h in state.hands for c in h]
        assert Counter(held + played + list(state.kitty)) == Counter(deck(state.options.decks))
        assert state.hands[seat] == gs.hands[seat]
        assert [len(h) for h in state.hands] == [len(h) for h in gs.hands]
        # the kitty: known to the seat that buried it, else sampled from the unseen cards
        if belief.kitty is not None:
            assert state.kitty == gs.kitty
        else:
            assert len(state.kitty) == len(gs.kitty)


def test_the_banker_knows_its_kitty_and_the_others_do_not() -> None:
    gs = _play_to("shuangsheng", 5, 0)
    banker = gs.banker
    assert banker is not None
    assert Belief(seat_view(gs, banker)).kitty == gs.kitty
    others = [Belief(seat_view(gs, s)).kitty for s in range(4) if s != banker]
    assert others == [None, None, None]


def test_voids_pair_voids_and_banned_cards_from_follows() -> None:
    opts = load_preset("shuangsheng")
    wants = {
        0: "H2 S9 S9",
        1: "H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK HA C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK CA D5",
        2: "SA SK H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK HA C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK",
    }
    kitty = "D3 D3 D4 D4 D6 D6 D7 D7"
    gs = run(new_match(opts, 1, [build_deck(opts, wants, kitty)]), [("deal", 0, "H2")], "bury")
    gs, _ = apply(gs, 0, Bury(C(kitty)))
    for seat, cards in ((0, "S9 S9"), (1, "C3 C4"), (2, "SA SK")):
        gs, _ = apply(gs, seat, Play(C(cards)))
    belief = Belief(seat_view(gs, 3))
    spades = gs.ctx.suit_of[C("S9")[0].index]
    assert [spades in belief.void[s] for s in range(3)] == [False, True, False]
    assert [spades in belief.no_pair[s] for s in range(3)] == [False, False, True]
    assert belief.banned[2] == set(C("SA SK"))
    assert belief.kitty is None and belief.capacity[KITTY] == 8
    assert Belief(seat_view(gs, 0)).kitty == C(kitty)


@settings(max_examples=examples(20))
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10_000), later=st.booleans())
def test_deals_and_play_states_after_a_burial(preset: str, seed: int, later: bool) -> None:
    """In the burying phase the burier's belief holds for the true deal, is free (no
    voids yet) and its deals are consistent, and the state after a burial on a sampled
    deal starts the play phase with every card in place."""
    gs = new_match(load_preset(preset), seed)
    bots = [RandomBot(s, seed) for s in range(4)]
    while gs.phase != "bury" or (later and not gs.results):
        actor = gs.to_act if gs.to_act is not None else 0
        gs, _ = apply(gs, actor, bots[actor].act(seat_view(gs, actor)))
    assert gs.to_act is not None
    seat = gs.to_act
    view = seat_view(gs, seat)
    belief = Belief(view)
    assert KITTY not in belief.capacity and belief.kitty is None
    assert belief.consistent(_truth(gs, belief))
    deal = belief.sample(random.Random(seed))
    assert deal is not None and belief.consistent(deal)
    assert belief.free and belief.consistent(belief.sample_free(random.Random(seed)))
    k = gs.options.kitty_size
    burial = view.hand[-k:]
    after = belief.after_burial(deal, burial)
    assert after.phase == "play" and after.to_act == after.leader == gs.banker
    assert after.kitty == burial and len(after.hands[seat]) == gs.options.hand_size
    assert all(len(h) == gs.options.hand_size for h in after.hands)
    everything = Counter(after.kitty)
    for h in after.hands:
        everything.update(h)
    assert everything == Counter(deck(gs.options.decks))
    assert after.ctx == gs.ctx and after.declare == gs.declare
    res = play_out(from_table(after), rng=random.Random(seed))
    assert res.outcome is not None


def test_soft_facts_fit_sensible_players_and_weigh_deals() -> None:
    """The soft facts of heuristic players' plays hold for their true hands (they are
    what a sensible last player does), and a deal's likelihood is the product of the
    likelihoods of the facts it contradicts."""
    from shengji.bots.belief import SOFT_FEED, SOFT_WIN
    from shengji.bots.registry import make_player

    facts = 0
    for seed in range(6):
        gs = new_match(load_preset("shuangsheng"), seed)
        bots = [make_player("heuristic-v1", s, seed) for s in range(4)]
        while gs.phase not in ("hand_over", "match_over"):
            seat = gs.to_act if gs.to_act is not None else 0
            view = seat_view(gs, seat)
            if gs.phase == "play" and len(gs.tricks) in (8, 16) and not gs.trick:
                belief = Belief(view)
                true = {h: list(gs.hands[h]) for h in belief.capacity if h != KITTY}
                assert belief.likelihood(true) == 1.0
                for h, bad, w in belief.soft_facts():
                    facts += 1
                    assert w in (SOFT_WIN, SOFT_FEED) and h != seat
                    assert bad and all(belief.unseen[c] for c in bad)
                    other = dict(true)
                    other[h] = [next(iter(bad)), *true[h][1:]]
                    assert belief.likelihood(other) <= w
            gs, _ = apply(gs, seat, bots[seat].act(view))
    assert facts > 0


def test_a_burial_prior_samples_kitties_as_a_banker_buries() -> None:
    """From a defender's view at the first lead (heuristic bankers, who bury short side
    suits and keep trumps and points), kitties sampled with the burial prior hold far
    fewer trumps and points than kitties dealt like another hand, nearer the truth."""
    plain_t = prior_t = true_t = 0.0
    plain_p = prior_p = true_p = 0.0
    for seed in range(6):
        gs = new_match(load_preset("shuangsheng"), seed)
        bots = [HeuristicBot(s, seed) for s in range(4)]
        while gs.phase != "play":
            seat = gs.to_act
            assert seat is not None
            gs, _ = apply(gs, seat, bots[seat].act(seat_view(gs, seat)))
        assert gs.banker is not None
        defender = (gs.banker + 1) % 4
        ctx = gs.ctx
        true_t += sum(1 for c in gs.kitty if ctx.is_trump(c))
        true_p += points(gs.kitty)
        for prior in (False, True):
            belief = Belief(seat_view(gs, defender), burial_prior=prior)
            rng = random.Random(seed)
            for _ in range(50):
                deal = belief.sample(rng)
                assert deal is not None and belief.consistent(deal)
                kitty = deal[KITTY]
                t, p = sum(1 for c in kitty if ctx.is_trump(c)), points(kitty)
                if prior:
                    prior_t, prior_p = prior_t + t / 50, prior_p + p / 50
                else:
                    plain_t, plain_p = plain_t + t / 50, plain_p + p / 50
    assert prior_t < plain_t / 3 and prior_p < plain_p / 2
    assert abs(prior_t - true_t) < abs(plain_t - true_t)
    assert abs(prior_p - true_p) < abs(plain_p - true_p)
