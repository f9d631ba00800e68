"""The search bot: budgets, legal actions in whole hands, reproducible choices under a
seed and a rollout budget, its value function and its registration; searched burials
(legal in every preset, reproducible, switched off by ``noburysearch``, and clearly
better than a bad rule of thumb)."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import pytest

from shengji.bots import search
from shengji.bots.candidates import MAX_BURIALS, burial_candidates
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.random_bot import RandomBot, random_action
from shengji.bots.registry import by_difficulty, make_player
from shengji.bots.rollouts import ApplyRollout, KernelRollout, finished, hand_value
from shengji.bots.search import Budget, SearchBot
from shengji.errors import ShengjiError
from shengji.game.actions import Action, Bury, Declare, Pass, Play
from shengji.game.flow import apply, new_match
from shengji.game.legal import legal_actions
from shengji.game.players import run_match
from shengji.game.state import GameState
from shengji.game.views import SeatView, seat_view
from shengji.rules.cards import parse_cards, rank_text
from shengji.rules.presets import load_preset


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("100ms", Budget(seconds=0.1)),
        ("1.5s", Budget(seconds=1.5)),
        ("2000it", Budget(rollouts=2000)),
        ("1000it/400ms", Budget(seconds=0.4, rollouts=1000)),
        (" 300it / 1.5s ", Budget(seconds=1.5, rollouts=300)),
        (None, Budget(seconds=0.8, rollouts=2000)),
    ],
)
def test_budgets(text: str | None, budget: Budget) -> None:
    assert Budget.parse(text) == budget


@pytest.mark.parametrize(
    "text",
    [
        "fast",
        "0ms",
        "10 minutes",
        "-5it",
        "100ms:gpu",
        "1000it/",
        "/400ms",
        "400ms/1000it",
        "1000it/500it",
        "0it/400ms",
        "1000it/0ms",
        "1000it/400ms/1s",
    ],
)
def test_bad_budgets(text: str) -> None:
    with pytest.raises(ShengjiError) as e:
        make_player(f"search:{text}", 0, 0)
    assert e.value.code == "BAD_BOT_SPEC"


def test_registered_as_the_strong_bot() -> None:
    kind = by_difficulty("strong")
    assert kind.name == "search"
    default = make_player("search", 2, 7)
    assert isinstance(default, SearchBot) and default.budget == Budget(0.8, 2000)
    bot = make_player("search:100ms", 2, 7)
    assert isinstance(bot, SearchBot) and bot.budget == Budget(seconds=0.1)
    assert isinstance(bot.rollout, KernelRollout)
    bot = make_player("search:50it:apply", 2, 7)
    assert isinstance(bot, SearchBot) and bot.budget == Budget(rollouts=50)
    assert isinstance(bot.rollout, ApplyRollout)


def test_kernel_rollouts_play_a_legal_hand() -> None:
    players = [make_player("search:24it:kernel" if s % 2 else "heuristic", s, 5) for s in range(4)]
    st, _ = run_match(load_preset("shuangsheng"), 5, players, stop_after_hand=True)
    assert st.phase in ("hand_over", "match_over") and len(st.results) == 1


@pytest.mark.parametrize("preset", ["shuangsheng", "classic-1deck"])
def test_search_bots_play_legal_hands(preset: str) -> None:
    players = [
        SearchBot(s, 4, Budget(rollouts=24)) if s % 2 == 0 else HeuristicBot(s, 4) for s in range(4)
    ]
    st, rec = run_match(load_preset(preset), 4, players, stop_after_hand=True)
    assert st.phase in ("hand_over", "match_over") and len(st.results) == 1


def _play_view(seed: int, plays: int) -> tuple[GameState, SeatView]:
    st = new_match(load_preset("shuangsheng"), seed)
    bots = [HeuristicBot(s, seed) for s in range(4)]
    done = 0
    while not (st.phase == "play" and done >= plays):
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, bots[seat].act(seat_view(st, seat)))
        done += st.phase == "play"
    assert st.to_act is not None
    return st, seat_view(st, st.to_act)


@pytest.mark.parametrize("plays", [0, 5, 42])
def test_a_seed_and_a_rollout_budget_give_the_same_choice(plays: int) -> None:
    st, view = _play_view(6, plays)
    assert view.seat is not None
    runs = []
    for _ in range(2):
        bot = SearchBot(view.seat, 11, Budget(rollouts=60))
        action = bot.act(view)
        runs.append((action, [(e.play, e.mean, e.n) for e in bot.evaluations]))
    assert runs[0] == runs[1]
    action = runs[0][0]
    assert isinstance(action, Play)
    # a one-unit lead or follow is among the legal actions; a throw is checked by apply
    assert action in list(legal_actions(st, view.seat)) or len(action.cards) > 1
    apply(st, view.seat, action)


class _Clock:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_rollout_budget_stops_at_its_wall_clock_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """``1000it/400ms``: the rollouts, unless the cap comes first; each decision tells
    the rollouts and deals it got and whether the cap stopped it (a clock that moves
    62.5 ms a reading stands for a busy machine)."""
    st, view = _play_view(6, 5)
    assert view.seat is not None
    idle = SearchBot(view.seat, 11, Budget(rollouts=300))
    idle_action = idle.act(view)
    assert idle.effort is not None and not idle.effort.capped
    assert idle.effort.deals == idle.evaluations[0].n
    assert 300 - len(idle.evaluations) < idle.effort.rollouts <= 300
    roomy = SearchBot(view.seat, 11, Budget.parse("300it/60s"))
    assert roomy.act(view) == idle_action and roomy.effort == idle.effort
    monkeypatch.setattr(search, "time", SimpleNamespace(perf_counter=_Clock(1 / 16)))
    busy = SearchBot(view.seat, 11, Budget.parse("300it/500ms"))
    busy.act(view)
    assert busy.effort == (8 * len(busy.evaluations), 8, True)  # read after each deal
    assert busy.effort.rollouts < idle.effort.rollouts
    st = new_match(load_preset("shuangsheng"), 6)
    assert st.to_act is not None
    busy.act(seat_view(st, st.to_act))  # declaring: the rule of thumb, not searched
    assert busy.effort is None


def test_hand_value_is_zero_sum_between_the_teams() -> None:
    players = [HeuristicBot(s, 3) for s in range(4)]
    st, _ = run_match(load_preset("shuangsheng"), 3, players, stop_after_hand=True)
    r = st.results[-1]
    values = [hand_value(finished(st), s) for s in range(4)]
    assert values[0] == values[2] == -values[1] == -values[3]
    bteam = r.banker % 2
    up = bteam if r.outcome.side == "banker" else 1 - bteam
    sign = 1 if up == 0 else -1
    pts = r.points if bteam == 1 else -r.points
    assert values[0] == pytest.approx(sign * r.outcome.moved + pts / 200)


# -- burying -------------------------------------------------------------------------------


def _bury_states(preset: str, seed: int, hands: int = 2) -> list[GameState]:
    """Every burying state of ``hands`` hands played by random bots (random shows: with
    counter-declarations after the burial where the rules have them, so some burials are
    made by a counter-declarer)."""
    st = new_match(load_preset(preset), seed)
    bots = [RandomBot(s, seed) for s in range(4)]
    out = []
    while len(st.results) < hands and st.phase != "match_over":
        seat = st.to_act if st.to_act is not None else 0
        if st.phase == "bury":
            out.append(st)
        st, _ = apply(st, seat, bots[seat].act(seat_view(st, seat)))
    return out


def _first_bury(preset: str, seed: int) -> tuple[GameState, SeatView]:
    """The banker's burial of the first hand, every seat playing the heuristic bot."""
    st = new_match(load_preset(preset), seed)
    bots = [HeuristicBot(s, seed) for s in range(4)]
    while st.phase != "bury":
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, bots[seat].act(seat_view(st, seat)))
    assert st.to_act is not None
    return st, seat_view(st, st.to_act)


@pytest.mark.parametrize("preset", ["shuangsheng", "classic-1deck", "classic-3deck", "shuangkou"])
def test_searched_burials_are_legal(preset: str) -> None:
    states = _bury_states(preset, 3)
    assert states
    for st in states:
        seat = st.to_act
        assert seat is not None
        view = seat_view(st, seat)
        chosen = HeuristicBot(seat, 3).act(view)
        assert isinstance(chosen, Bury)
        cands = burial_candidates(view, chosen.cards)
        assert cands[0].cards == chosen.cards and len(cands) <= MAX_BURIALS
        keys = [tuple(sorted(c.index for c in b.cards)) for b in cands]
        assert len(set(keys)) == len(keys)
        for b in cands:
            assert len(b.cards) == st.options.kitty_size
            assert not Counter(b.cards) - Counter(view.hand)
            assert b.en and b.zh
        # every side suit short enough to bury whole is emptied by some candidate
        suit_of = view.ctx.suit_of
        for x in range(4):
            mine = Counter(c for c in view.hand if suit_of[c.index] == x)
            if mine and sum(mine.values()) <= st.options.kitty_size:
                assert any(not mine - Counter(b.cards) for b in cands)
        bot = SearchBot(seat, 3, Budget(rollouts=40))
        action = bot.act(view)
        assert isinstance(action, Bury) and action.cards in [b.cards for b in cands]
        assert bot.reason[0].startswith("search:") and bot.reason[1].startswith("搜索")
        if len(cands) > 1:
            assert {e.play for e in bot.evaluations} == {b.cards for b in cands}
        apply(st, seat, action)


def test_counter_declarers_burials_are_searched() -> None:
    """A counter-declarer who takes the kitty after the burial (反主炒底) buries by
    search too, also when it is not the banker."""
    reburials = [
        st
        for seed in (1, 12)
        for st in _bury_states("shuangsheng", seed, hands=3)
        if st.buried_by and st.to_act != st.banker
    ]
    assert len(reburials) >= 3
    for st in reburials:
        seat = st.to_act
        assert seat is not None
        action = SearchBot(seat, 1, Budget(rollouts=30)).act(seat_view(st, seat))
        assert isinstance(action, Bury)
        apply(st, seat, action)


@pytest.mark.parametrize("preset", ["shuangsheng", "classic-3deck"])
def test_a_seed_and_a_rollout_budget_give_the_same_burial(preset: str) -> None:
    _, view = _first_bury(preset, 8)
    runs = []
    for _ in range(2):
        bot = SearchBot(view.seat or 0, 5, Budget(rollouts=120))
        action = bot.act(view)
        runs.append((action, [(e.play, e.mean, e.diff, e.n) for e in bot.evaluations], bot.reason))
    assert runs[0] == runs[1]
    assert runs[0][1] and runs[0][1][0][3] == 120 // len(runs[0][1])


def test_burial_search_can_be_switched_off() -> None:
    _, view = _first_bury("shuangsheng", 8)
    seat = view.seat or 0
    bot = make_player("search:300it:noburysearch", seat, 5)
    assert isinstance(bot, SearchBot) and not bot.bury_search
    assert bot.act(view) == HeuristicBot(seat, 5).act(view)
    assert bot.evaluations == []


class _BuriesTrumps(HeuristicBot):
    """The heuristic bot, except that it buries its highest trumps."""

    def act(self, view: SeatView) -> Action:
        action = super().act(view)
        if view.phase == "bury":
            key = view.ctx.key
            top = sorted(view.hand, key=lambda c: -key[c.index])
            return Bury(tuple(top[: view.options.kitty_size]))
        return action


@pytest.mark.parametrize(("preset", "seed"), [("shuangsheng", 1), ("classic-1deck", 2)])
def test_search_does_not_bury_the_top_trumps(preset: str, seed: int) -> None:
    """Given a rule of thumb that buries the highest trumps (jokers, level cards), the
    search finds that keeping them is clearly better and buries side cards only."""
    st, view = _first_bury(preset, seed)
    seat = view.seat or 0
    bot = SearchBot(seat, 4, Budget(rollouts=600))
    bot.heuristic = _BuriesTrumps(seat, 4)
    bad = bot.heuristic.act(view)
    assert isinstance(bad, Bury) and all(view.ctx.is_trump(c) for c in bad.cards)
    action = bot.act(view)
    assert isinstance(action, Bury) and action != bad
    assert not any(view.ctx.is_trump(c) for c in action.cards)
    best = bot.evaluations[0]
    assert best.play == action.cards and best.diff > 2 * best.diff_se > 0
    assert "worth" in bot.reason[0]


def test_search_options_parse() -> None:
    from shengji.bots.candidates import MARGIN_SE, MIN_GAIN
    from shengji.bots.search import BOLD_GAIN, BOLD_SE

    for spec, apply_rollouts, bury in [
        ("search:100ms", False, True),
        ("search:1s", False, True),
        ("search:2000it", False, True),
        ("search:100ms:apply", True, True),
        ("search:100ms:kernel", False, True),
        ("search:300it:noburysearch", False, False),
        ("search:300it:apply:noburysearch", True, False),
        ("search:300it:noburysearch:kernel", False, False),
    ]:
        bot = make_player(spec, 0, 0)
        assert isinstance(bot, SearchBot)
        assert isinstance(bot.rollout, ApplyRollout) == apply_rollouts
        assert bot.bury_search == bury

    # the defaults: light rollouts, pruning, the bold margin; flags name each way back
    def knobs(spec: str) -> tuple[bool, bool, float, float]:
        bot = make_player(spec, 0, 0)
        assert isinstance(bot, SearchBot) and isinstance(bot.rollout, KernelRollout)
        return bot.rollout.light, bot.prune, bot.min_gain, bot.margin_se

    assert knobs("search:300it") == (True, True, BOLD_GAIN, BOLD_SE)
    assert knobs("search:300it:light:prune:bold") == knobs("search:300it")
    assert knobs("search:300it:random:noprune:careful") == (False, False, MIN_GAIN, MARGIN_SE)
    steady, plain = make_player("search:300it:steady", 0, 0), make_player("search", 0, 0)
    assert isinstance(steady, SearchBot) and steady.steady
    assert isinstance(plain, SearchBot) and not plain.steady
    # inference and the burial prior are on by default since 2026-12-07
    assert plain.burial_prior and plain.infer
    named = make_player("search:1000it/400ms:buryprior:infer", 0, 0)
    assert isinstance(named, SearchBot) and named.burial_prior and named.infer
    before = make_player("search:2000it/800ms:noinfer:noburyprior", 0, 0)
    assert isinstance(before, SearchBot) and not before.burial_prior and not before.infer
    for spec in ("search:300it:kernel", "search:300it:tail"):
        bot = make_player(spec, 0, 0)
        assert isinstance(bot, SearchBot) and isinstance(bot.rollout, KernelRollout)
        assert not bot.rollout.light
    for bad in [
        "search:100ms:kernel:apply",
        "search:100ms:nobury",
        "search:noburysearch",
        "search:100ms:apply:light",
        "search:100ms:random:light",
        "search:100ms:prune:noprune",
        "search:100ms:bold:careful",
        "search:100ms:steady:bold",
        "search:100ms:careful:steady",
        "search:100ms:light:tail",
        "search:100ms:apply:tail",
        "search:100ms:infer:noinfer",
        "search:100ms:buryprior:noburyprior",
    ]:
        with pytest.raises(ShengjiError) as e:
            make_player(bad, 0, 0)
        assert e.value.code == "BAD_BOT_SPEC", bad


def test_burial_search_with_apply_rollouts() -> None:
    st, view = _first_bury("shuangsheng", 2)
    seat = view.seat or 0
    bot = SearchBot(seat, 0, Budget(rollouts=24), ApplyRollout())
    action = bot.act(view)
    assert isinstance(action, Bury) and bot.evaluations
    apply(st, seat, action)


def _at_counter_window(strong: bool) -> tuple[GameState, int]:
    """A later shuangsheng hand: the banker's partner declares hearts with one level card
    and the banker's side holds the long hearts and spades; the next seat (an opponent)
    holds, when ``strong``, both joker pairs, six level cards and six aces, else only a
    pair of spade level cards. Returned at the moment that opponent may counter after the
    burial (反主炒底)."""
    from helpers import later_hand

    opts = load_preset("shuangsheng")
    base = later_hand(opts, {})
    b = base.results[-1].outcome.next_banker
    o = (b + 1) % 4
    lv = rank_text(base.level)
    if strong:
        mine = f"BJ BJ LJ LJ S{lv} S{lv} C{lv} C{lv} D{lv} D{lv} SA SA CA CA DA DA"
    else:  # the whole hand: the spade pair and low clubs and diamonds
        low = [r for r in ("4", "5", "6", "7", "8", "9", "10") if r != lv]
        pairs = [f"{s}{r} {s}{r}" for s in "CD" for r in low]
        mine = " ".join(" ".join([f"S{lv} S{lv}", *pairs]).split()[: opts.hand_size])
    wants = {
        (b + 2) % 4: f"H{lv} HA HA HK HK HQ HQ HJ SK SK SQ SQ SJ",
        b: "HJ H10 H10 H9 H9 H8 H8 H7 H7 SJ S10 S10 S9 S9",
        o: mine,
    }
    st = later_hand(opts, wants)
    rng = random.Random(1)
    while not (st.phase == "after_burial" and st.to_act == o):
        seat = st.to_act
        assert seat is not None and st.phase not in ("play", "hand_over")
        if st.phase == "deal" and seat == (b + 2) % 4 and not st.declare.declared:
            action: Action = Declare(parse_cards(f"H{lv}"))
        elif st.phase == "bury":
            action = random_action(st, seat, rng)
        else:
            action = Pass()
        st, _ = apply(st, seat, action)
    return st, o


def test_a_counter_after_the_burial_is_searched_and_made_when_it_clearly_pays() -> None:
    """Holding both joker pairs, the level cards and the aces against a side that holds
    the long hearts, the search bot counter-declares to no-trump after the burial (反主
    炒底) and buries again keeping its trumps and aces."""
    st, seat = _at_counter_window(strong=True)
    bot = SearchBot(seat, 1, Budget(rollouts=240))
    action = bot.act(seat_view(st, seat))
    assert isinstance(action, Declare), bot.reason
    assert {e.play for e in bot.evaluations} >= {(), action.cards}
    assert bot.reason[0].startswith("search: counter-declare") or bot.evaluations
    st, _ = apply(st, seat, action)
    assert st.phase == "bury" and st.to_act == seat  # took the kitty
    burial = bot.act(seat_view(st, seat))
    assert isinstance(burial, Bury)
    ctx = st.ctx
    assert not any(ctx.is_trump(c) or c.rank == 14 for c in burial.cards), burial.cards
    apply(st, seat, burial)


def test_no_counter_that_hands_trumps_to_the_other_side() -> None:
    """A spade pair would make spades trump, the suit the banker's side holds long: the
    search bot passes."""
    st, seat = _at_counter_window(strong=False)
    bot = SearchBot(seat, 1, Budget(rollouts=240))
    action = bot.act(seat_view(st, seat))
    assert isinstance(action, Pass), bot.reason


def test_inferring_search_plays_legal_hands_reproducibly() -> None:
    bot = make_player("search:300it:infer", 0, 0)
    assert isinstance(bot, SearchBot) and bot.infer
    narrow = make_player("search:300it:narrow:endgame:infer", 0, 0)
    assert isinstance(narrow, SearchBot) and narrow.max_candidates < bot.max_candidates
    assert narrow.infer and narrow.endgame
    plain = make_player("search:300it:noinfer", 0, 0)
    assert isinstance(plain, SearchBot) and not plain.infer
    players = [make_player("search:40it:infer" if s % 2 else "heuristic", s, 8) for s in range(4)]
    st, _ = run_match(load_preset("shuangsheng"), 8, players, stop_after_hand=True)
    assert st.phase in ("hand_over", "match_over") and len(st.results) == 1
    st, view = _play_view(6, 42)
    assert view.seat is not None
    runs = []
    for _ in range(2):
        b = SearchBot(view.seat, 11, Budget(rollouts=60), infer=True)
        runs.append((b.act(view), [(e.play, e.mean, e.n) for e in b.evaluations]))
    assert runs[0] == runs[1]


# -- 找朋友 --------------------------------------------------------------------------------


def test_search_plays_a_friends_hand_and_values_the_sides_as_they_ended() -> None:
    """At a six-seat 找朋友 table the search bot plays legal hands (burial, 炒底 and calls
    as the heuristic); a hand's value follows the sides found, not the seat parity."""
    opts = load_preset("zhaopengyou", {"players": 6})
    players = [
        SearchBot(s, 5, Budget(rollouts=40)) if s in (0, 3) else HeuristicBot(s, 5)
        for s in range(6)
    ]
    st, _ = run_match(opts, 5, players, stop_after_hand=True)  # apply checks legality
    r = st.results[-1]
    side = set(r.banker_side)
    assert finished(st).team == tuple(0 if s in side else 1 for s in range(6))
    values = [hand_value(finished(st), s) for s in range(6)]
    for s in range(6):
        same = [t for t in range(6) if (t in side) == (s in side)]
        assert all(values[t] == values[s] for t in same)
    other = next(s for s in range(6) if s not in side)
    assert values[r.banker] == -values[other]


def test_a_friends_hint_samples_every_hidden_seat() -> None:
    """The belief of a seat at a five-seat table deals the hidden cards to the four other
    seats (and the kitty), consistently with what was seen."""
    from shengji.bots.belief import KITTY, Belief

    opts = load_preset("zhaopengyou", {"players": 5})
    rng = random.Random(1)
    st = new_match(opts, 2)
    while not (st.phase == "play" and len(st.tricks) >= 3 and st.to_act == 1):
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng))
    view = seat_view(st, 1)
    deal = Belief(view).sample(rng)
    assert deal is not None
    assert {s for s in deal if s != KITTY} == {0, 2, 3, 4}
    assert [len(deal[s]) for s in (0, 2, 3, 4)] == [len(st.hands[s]) for s in (0, 2, 3, 4)]
    hidden = Counter(c for s in (0, 2, 3, 4) for c in st.hands[s]) + Counter(st.kitty)
    assert sum((Counter(cards) for cards in deal.values()), Counter()) == hidden
    bot = SearchBot(1, 2, Budget(rollouts=60))
    assert isinstance(bot.act(view), Play)


def test_pruning_gives_the_leaders_more_deals_within_the_same_rollouts() -> None:
    """With ``:prune`` the candidates clearly worse than the leader stop being played
    out; the rule of thumb's play and the leader get the rollouts they left, the budget
    is kept, and the choice is reproducible for a seed."""
    from shengji.bots.search import PRUNE_FIRST

    bot = make_player("search:300it", 0, 0)
    assert isinstance(bot, SearchBot) and bot.prune
    plain = make_player("search:300it:noprune", 0, 0)
    assert isinstance(plain, SearchBot) and not plain.prune
    pruned_somewhere = False
    for plays in (5, 21, 42):
        st, view = _play_view(6, plays)
        assert view.seat is not None
        runs = []
        for _ in range(2):
            b = SearchBot(view.seat, 11, Budget(rollouts=3000), prune=True)
            action = b.act(view)
            assert action in set(legal_actions(st, view.seat))
            runs.append((action, [(e.play, e.mean, e.n) for e in b.evaluations]))
        assert runs[0] == runs[1]
        evals = runs[0][1]
        if len(evals) < 3:
            continue
        full = max(n for _, _, n in evals)
        rollouts = sum(min(n, full) for _, _, n in evals)
        assert rollouts <= 3000
        dropped = [n for _, _, n in evals if n < full]
        assert all(PRUNE_FIRST <= n < full for n in dropped)
        # the candidates played out to the end come first, whatever a dropped one's diff
        assert [n < full for _, _, n in evals] == sorted(n < full for _, _, n in evals)
        if dropped:
            pruned_somewhere = True
            unpruned = SearchBot(view.seat, 11, Budget(rollouts=3000))
            unpruned.act(view)
            assert full > max(e.n for e in unpruned.evaluations)
    assert pruned_somewhere


def test_a_bold_search_overrides_by_a_smaller_margin() -> None:
    from shengji.bots.candidates import MARGIN_SE, MIN_GAIN, Evaluation
    from shengji.bots.search import BOLD_GAIN, BOLD_SE

    bold = make_player("search:300it", 0, 0)
    plain = make_player("search:300it:careful", 0, 0)
    assert isinstance(bold, SearchBot) and isinstance(plain, SearchBot)
    assert (bold.min_gain, bold.margin_se) == (BOLD_GAIN, BOLD_SE)
    assert (plain.min_gain, plain.margin_se) == (MIN_GAIN, MARGIN_SE)
    e = Evaluation((), mean=0.1, diff=0.04, diff_se=0.03, n=100)
    assert e.better(BOLD_GAIN, BOLD_SE) and not e.clearly_better
    assert not Evaluation((), 0.1, 0.04, 0.03, n=20).better(BOLD_GAIN, BOLD_SE)  # too few deals
    st, view = _play_view(6, 21)
    assert view.seat is not None
    action = SearchBot(view.seat, 11, Budget(rollouts=600), bold=True).act(view)
    assert action in set(legal_actions(st, view.seat))


def test_the_light_policy_on_a_game_state_follows_larger_leads_as_the_kernel_does() -> None:
    """``light_play`` (the ``:apply`` rollouts) asks the kernel's ``light_follow`` with
    the trick, the side winning it and whether the seat plays last as the kernel's
    ``light_move`` reads them: on the same random stream, the same follow."""
    from shengji.bots.rollouts import light_play
    from shengji.engine import default_kernel

    kernel = default_kernel()
    core = kernel.core
    compared = 0
    for seed in range(8):
        st = new_match(load_preset("shuangsheng"), seed)
        bots = [HeuristicBot(s, seed) for s in range(4)]
        while st.phase not in ("hand_over", "match_over"):
            seat = st.to_act
            assert seat is not None
            lead = st.lead
            if st.phase == "play" and st.trick and lead is not None and len(lead.cards) > 1:
                mine = light_play(st.ctx, st.hands[seat], st, seat, random.Random(seed))
                legal = [
                    sorted(c.index for c in a.cards)
                    for a in legal_actions(st, seat)
                    if isinstance(a, Play)
                ]
                assert sorted(c.index for c in mine) in legal
                ks = kernel.from_table(st)
                theirs = core.light_move(ks, core.rng_from(random.Random(seed)))
                assert sorted(c.index for c in mine) == sorted(theirs)
                compared += 1
            st, _ = apply(st, seat, bots[seat].act(seat_view(st, seat)))
    assert compared >= 20


def test_the_bench_counts_the_rollouts_of_each_play_decision() -> None:
    """``shengji bench``'s search row: decisions with a choice, and per decision the
    rollouts the budget bought (a rollout budget: exactly what fits)."""
    from shengji.tools.bench import bench_search, search_rollouts, search_views

    views = search_views(3)
    assert len(views) == 3 and all(v.phase == "play" for v in views)
    counts = search_rollouts("search:60it", views)
    assert all(0 < c <= 60 for c in counts)
    (line,) = bench_search(("search:60it",))
    assert line.startswith("search:60it rollouts per play decision (shuangsheng, 24 decisions")


def test_a_steady_search_overrides_only_when_the_gain_survives_its_error() -> None:
    """Hints (``:steady``): the gain less two standard errors must reach
    :data:`STEADY_GAIN`, a margin sampling noise does not cross from one asking to the
    next; bold plays and steady hints do not mix."""
    from shengji.bots.candidates import MARGIN_SE, Evaluation
    from shengji.bots.search import STEADY_GAIN

    sure = Evaluation((), mean=0.3, diff=STEADY_GAIN + 2.5 * 0.02, diff_se=0.02, n=500)
    near = Evaluation((), mean=0.3, diff=STEADY_GAIN + 1.5 * 0.02, diff_se=0.02, n=500)
    assert sure.surely_better(STEADY_GAIN, MARGIN_SE)
    assert not near.surely_better(STEADY_GAIN, MARGIN_SE) and near.clearly_better
    few = Evaluation((), mean=0.3, diff=1.0, diff_se=0.01, n=20)
    assert not few.surely_better(STEADY_GAIN, MARGIN_SE)  # too few deals
    bot = SearchBot(0, 0, Budget(rollouts=10), steady=True)
    assert bot.overrides(sure) and not bot.overrides(near)
    assert SearchBot(0, 0, Budget(rollouts=10)).overrides(near)
    with pytest.raises(ValueError):
        SearchBot(0, 0, steady=True, bold=True)
