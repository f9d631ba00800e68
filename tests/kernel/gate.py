"""The equality gates: random hands and matches played by the oracle (``tests/oracle``:
the object rules core and its game flow) and, decision by decision, by kernels and by the
product's engine; every difference in events, failed throws, legal moves, shows, burials
and results is reported. The kernel is always compared with the independent oracle, never
with itself.

Run a long one with ``python tests/kernel/gate.py --hands 100000``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import shengji.game as engine
from oracle.follow import count_legal_follows, is_legal_follow, legal_follows
from oracle.game import apply, legal_shows, new_match
from oracle.leads import unit_lead_list
from oracle.tricks import trick_winner
from oracle.units import lead_kind
from shengji.bots.random_bot import random_action
from shengji.engine.rollout import Kernel, kernel_events, score
from shengji.errors import ShengjiError
from shengji.game.actions import Action, Call, Continue, Deal, Declare, Pass, Play
from shengji.game.state import GameState
from shengji.rules.cards import Card, card_from_index
from shengji.rules.friends import FriendCall
from shengji.rules.options import RuleOptions
from shengji.rules.phases import DECLARING_PHASES

if TYPE_CHECKING:
    from shengji.kernel._core import KState

_COMPARED = ("throw_failed", "play", "trick")


@dataclass
class Report:
    """What a check covered, and every mismatch found (empty when all agree)."""

    hands: int = 0
    plays: int = 0
    failed_throws: int = 0
    move_checks: int = 0
    mismatches: list[str] = field(default_factory=list)

    def add(self, other: Report) -> None:
        """Add another report's figures and mismatches to this one."""
        self.hands += other.hands
        self.plays += other.plays
        self.failed_throws += other.failed_throws
        self.move_checks += other.move_checks
        self.mismatches.extend(other.mismatches)


def to_play(st: GameState, rng: random.Random, throw_rate: float) -> GameState:
    """Deal, declare and bury with random actions until the play phase."""
    while st.phase != "play":
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng, throw_rate))
    return st


def check_hand(
    options: RuleOptions,
    seed: int,
    kernels: Sequence[Kernel],
    throw_rate: float = 0.25,
    move_every: int = 4,
) -> Report:
    """Play one random hand (``seed``) on the oracle and on every kernel; compare events,
    the blocked seat of failed throws, the result, and (every ``move_every``-th turn) the
    legal leads and follows."""
    return _check_hand(options, seed, kernels, throw_rate, move_every)


def _check_hand(
    options: RuleOptions,
    seed: int,
    kernels: Sequence[Kernel],
    throw_rate: float,
    move_every: int,
) -> Report:
    rep = Report(hands=1)
    rng = random.Random(seed)
    st = to_play(new_match(options, seed), rng, throw_rate)
    states = [k.from_table(st, record=True) for k in kernels]
    names = [("compiled" if k.is_compiled else "pure") for k in kernels]
    turn = 0
    rebuild_at = rng.randrange(options.players * options.hand_size // 2)
    while st.phase == "play":
        seat = st.to_act
        assert seat is not None
        hand = st.hands[seat]
        if move_every and turn % move_every == 0:
            rep.move_checks += 1
            for ks, name in zip(states, names, strict=True):
                _check_moves(st, ks, hand, f"{name} seed {seed} turn {turn}", rep)
        cards = random_action(st, seat, rng, throw_rate)
        assert isinstance(cards, Play)
        before = len(st.tricks)
        st, events = apply(st, seat, cards)
        ref = [e for e in events if e["type"] in _COMPARED]
        rep.plays += 1
        rep.failed_throws += sum(1 for e in ref if e["type"] == "throw_failed")
        for ks, name in zip(states, names, strict=True):
            where = f"{name} seed {seed} turn {turn}"
            if ks.to_act != seat:
                rep.mismatches.append(f"{where}: to act {ks.to_act} != {seat}")
            if not ks.is_legal([c.index for c in cards.cards]):
                rep.mismatches.append(f"{where}: kernel calls {cards.cards} illegal")
            start = len(ks.events)
            ks.apply([c.index for c in cards.cards])
            got = kernel_events(ks, start)
            if got != ref:
                rep.mismatches.append(f"{where}: events {got} != {ref}")
            if st.trick:
                winning = trick_winner(st.ctx, [p.cards for p in st.trick], st.lead)
                if ks.best_play() != winning:
                    rep.mismatches.append(f"{where}: winning play {ks.best_play()} != {winning}")
            if len(st.tricks) > before and st.tricks[-1].plays[0].attempted is not None:
                want = st.tricks[-1].plays[0].blocked_by
                if ks.blocked[-1] != want:
                    rep.mismatches.append(f"{where}: blocked by {ks.blocked[-1]} != {want}")
            if options.friends and not st.trick and _sides(st) != _kernel_sides(ks):
                rep.mismatches.append(f"{where}: friends {_kernel_sides(ks)} != {_sides(st)}")
        if turn == rebuild_at and st.phase == "play":
            _check_rebuild(st, kernels, states, f"seed {seed} turn {turn}", rep)
        turn += 1
    res = st.results[-1]
    expected = (res.trick_points, res.kitty_points, res.kitty_multiplier, res.penalties)
    for ks, name in zip(states, names, strict=True):
        if not ks.done:
            rep.mismatches.append(f"{name} seed {seed}: kernel hand not over")
            continue
        r = score(ks)
        found = (r.trick_points, r.kitty_points, r.kitty_multiplier, r.penalties)
        if found != expected or r.points != res.points or r.outcome != res.outcome:
            rep.mismatches.append(f"{name} seed {seed}: result {r} != {res}")
    return rep


def _check_moves(st: GameState, ks: KState, hand: Sequence[Card], where: str, rep: Report) -> None:
    """The kernel's legal leads or follows equal the rules core's."""
    ctx = st.ctx
    drawn = [card_from_index(i) for i in ks.random_move(random.Random(len(hand)), 0.5)]
    if not st.trick:
        if lead_kind(ctx, drawn) == "invalid" or Counter(drawn) - Counter(hand):
            rep.mismatches.append(f"{where}: random lead {drawn} is not a lead")
        want = {_key(c.index for c in lead) for lead in unit_lead_list(ctx, hand)}
        got = {_key(m) for m in ks.moves()}
        if got != want:
            rep.mismatches.append(f"{where}: leads differ ({len(got)} vs {len(want)})")
        return
    assert st.lead is not None
    if not is_legal_follow(ctx, st.lead, hand, drawn):
        rep.mismatches.append(f"{where}: random follow {drawn} is illegal")
    n = count_legal_follows(ctx, st.lead, hand)
    if ks.count_moves() != n:
        rep.mismatches.append(f"{where}: {ks.count_moves()} follows != {n}")
        return
    if n <= 300:
        want = {_key(c.index for c in p) for p in legal_follows(ctx, st.lead, hand)}
        got = {_key(m) for m in ks.moves()}
        if got != want:
            rep.mismatches.append(f"{where}: follows differ")


def _key(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(cards))


def _check_rebuild(
    st: GameState, kernels: Sequence[Kernel], states: Sequence[KState], where: str, rep: Report
) -> None:
    """A kernel state built mid-hand from the game state equals the one played along."""
    for k, ks in zip(kernels, states, strict=True):
        fresh = k.from_table(st)
        a = (fresh.hands, fresh.sizes, fresh.plays, fresh.to_act, fresh.trick_points)
        b = (ks.hands, ks.sizes, ks.plays, ks.to_act, ks.trick_points)
        # 找朋友: who played a called copy, and the sides
        sides = not st.options.friends or _kernel_sides(fresh) == _kernel_sides(ks)
        if a != b or fresh.penalties != ks.penalties or not sides:
            rep.mismatches.append(f"{where}: state rebuilt mid-hand differs")


def check_hands(
    options: RuleOptions,
    seeds: Iterable[int],
    kernels: Sequence[Kernel],
    throw_rate: float = 0.25,
    move_every: int = 4,
) -> Report:
    """:func:`check_hand` for every seed, summed."""
    total = Report()
    for seed in seeds:
        total.add(check_hand(options, seed, kernels, throw_rate, move_every))
    return total


# -- the product's game engine (rules on the kernel) against the oracle's ------------------


def _outcome(st: GameState, seat: int | None, action: Action, oracle: bool) -> object:
    """``apply``'s answer to ``action``: the new state and its events, or the error raised
    (type, code, message and params)."""
    try:
        new, events = apply(st, seat, action) if oracle else engine.apply(st, seat, action)
    except ShengjiError as e:
        return (type(e).__name__, e.code, str(e), e.params)
    return new, events, repr(events)


def check_engine_hand(
    options: RuleOptions,
    seed: int,
    throw_rate: float = 0.25,
    probe_rate: float = 0.2,
    hands: int = 1,
    show_rate: float = 0.0,
    paced: bool = False,
) -> list[str]:
    """Play ``hands`` random hands of a match (``seed``, from the deal to the result, and
    ``continue`` between them) on the product's game engine and, in lockstep, on the
    oracle's; every difference in states, events (their text too), errors or legal shows
    is reported. At a share ``probe_rate`` of the play turns a random set of the seat's
    cards (often illegal) is tried on both first, and the errors compared; at 找朋友's call
    a few random calls (often illegal) are. During the deal, at a share ``show_rate`` of
    the stops a seat that was not asked shows (and a seat's refused show and pass are
    probed); ``paced`` deals are dealt on by the table a random number of cards at a time."""
    out: list[str] = []
    rng, probes = random.Random(seed), random.Random(~seed)
    st = engine.new_match(options, seed, paced=paced)
    if st != new_match(options, seed, paced=paced):
        return [f"seed {seed}: the first states differ"]
    done = 0
    while st.phase != "match_over":
        where = f"seed {seed} hand {st.hand_number} turn {len(st.tricks)}.{len(st.trick)}"
        interlude = _deal_interlude(st, rng, probes, show_rate) if st.phase == "deal" else None
        if interlude is not None:
            who, move, tries = interlude
            for probe_seat, probe in tries:
                if _outcome(st, probe_seat, probe, False) != _outcome(st, probe_seat, probe, True):
                    out.append(f"{where} dealt {st.dealt}: {probe} by {probe_seat} differs")
            got = _outcome(st, who, move, False)
            if got != _outcome(st, who, move, True):
                out.append(f"{where} dealt {st.dealt}: {move} by {who} differs")
                return out
            assert isinstance(got, tuple) and isinstance(got[0], GameState)
            st = got[0]
            continue
        if st.phase == "hand_over":
            done += 1
            if done >= hands:
                break
            action: Action = Continue()
            seat = 0
        else:
            seat_now = st.to_act
            assert seat_now is not None
            seat = seat_now
            if st.phase in DECLARING_PHASES:
                got_shows, want_shows = engine.legal_shows(st, seat), legal_shows(st, seat)
                if got_shows != want_shows:
                    out.append(f"{where}: seat {seat} shows {got_shows} != {want_shows}")
            for probe in _probes(st, seat, probes, probe_rate):
                if _outcome(st, seat, probe, False) != _outcome(st, seat, probe, True):
                    out.append(f"{where}: {probe} answered differently")
            action = random_action(st, seat, rng, throw_rate)
        got = _outcome(st, seat, action, False)
        want = _outcome(st, seat, action, True)
        if got != want:
            out.append(f"{where}: {action} differs: {got!r:.300} != {want!r:.300}")
            return out
        assert isinstance(got, tuple) and isinstance(got[0], GameState)
        st = got[0]
    return out


def _deal_interlude(
    st: GameState, rng: random.Random, probes: random.Random, rate: float
) -> tuple[int | None, Action, list[tuple[int | None, Action]]] | None:
    """During the deal: a show by a seat that was not asked (at a share ``rate`` of the
    stops), or in a paced deal the table dealing on; with the refused moves to probe
    first (a show of cards that cannot show, a pass, a table deal out of range). None:
    the asked seat acts as usual."""
    n = st.seats
    others = [s for s in range(n) if s != st.to_act and legal_shows(st, s)]
    tries: list[tuple[int | None, Action]] = []
    if probes.random() < 0.3:
        seat = probes.randrange(n)
        hand = st.hands[seat]
        if hand:
            tries.append((seat, Declare((probes.choice(hand),))))
        tries.append((seat, Pass()))
        tries.append((None, Deal(probes.choice([st.dealt, st.dealt + 200]))))
        tries.append((seat, Deal(st.dealt + 1)))
    if others and rng.random() < (rate if not st.paced else 0.3):
        seat = rng.choice(others)
        return seat, Declare(rng.choice(legal_shows(st, seat))), tries
    if st.paced:
        total = len(st.deck_order) - len(st.kitty)
        return None, Deal(min(total, st.dealt + rng.randint(1, 2 * n))), tries
    return None


def _probes(st: GameState, seat: int, rng: random.Random, rate: float) -> list[Action]:
    """Actions (often illegal) to try on both engines before the random player acts."""
    if st.phase == "play" and rng.random() < rate:
        hand = st.hands[seat]
        size = len(st.trick[0].cards) if st.trick else rng.randint(1, min(len(hand), 6))
        return [Play(tuple(rng.sample(hand, min(size, len(hand)))))]
    if st.phase != "call":
        return []
    out: list[Action] = []
    need, decks = st.options.calls, st.options.decks
    for _ in range(6):
        count = need if rng.random() < 0.7 else rng.randint(0, need + 1)
        calls = [
            FriendCall(card_from_index(rng.randrange(54)), rng.randint(0, decks + 1))
            for _ in range(count)
        ]
        if count >= 2 and rng.random() < 0.3:
            calls[1] = calls[0]
        out.append(Call(tuple(calls)))
    if rng.random() < 0.5:  # a wrong action for the phase, and a wrong seat
        out.append(Pass())
    return out


# -- whole matches: the kernel's match engine against the oracle's game flow ---------------

#: Kernel phase names by number (``_core.PH_*``; 6 is a redeal, 7 找朋友's call).
PHASES = {
    0: "deal",
    1: "before_kitty",
    2: "bury",
    3: "after_burial",
    4: "play",
    5: "hand_over",
    6: "redeal",
    7: "call",
}


def check_match(options: RuleOptions, seed: int, kernel: Kernel, hands: int = 2) -> Report:
    """Play ``hands`` hands of a match (``seed``) with a random player at every seat on the
    oracle's game flow (deal, shows, kitty, 找朋友's calls, play and scoring by the object
    rules core) and, decision by decision, on the kernel's
    :class:`~shengji.engine.match.KMatch`; report every difference in phase, seat to act,
    legal shows, hands, kitty, points, friends found, sides, results and levels. Then
    replay the match with the kernel's own random players (:meth:`KMatch.play_random`) and
    check it ends the same."""
    rep = _check_match(options, seed, kernel, hands)
    from shengji.engine.match import KMatch, random_streams

    m = KMatch(options, seed, kernel=kernel)
    m.play_random(random_streams(seed, options.players, kernel=kernel), max_hands=hands)
    if [_result_key(r) for r in m.results] != rep.results:
        rep.mismatches.append(f"seed {seed}: play_random ends differently")
    return rep


@dataclass
class MatchReport(Report):
    """A :class:`Report` that also keeps the game engine's results (compared again)."""

    decisions: int = 0
    results: list[tuple[object, ...]] = field(default_factory=list)


def _result_key(r: object) -> tuple[object, ...]:
    kitty = tuple(c if isinstance(c, int) else c.index for c in getattr(r, "kitty", ()))
    names = ("banker", "level", "trick_points", "kitty_points", "kitty_multiplier", "penalties")
    more = ("points", "outcome", "counters", "stake", "coins")
    return (*(getattr(r, n) for n in names + more), kitty)


def _check_match(options: RuleOptions, seed: int, kernel: Kernel, hands: int) -> MatchReport:
    from shengji.bots.random_bot import RandomBot
    from shengji.engine.match import KMatch
    from shengji.game.actions import Bury, Call, Continue, Declare, Pass
    from shengji.game.views import seat_view

    rep = MatchReport()
    core = kernel.core
    n = options.players
    bots = [RandomBot(s, seed) for s in range(n)]
    st = new_match(options, seed)
    m = KMatch(options, seed, kernel=kernel)
    m.hand.advance()
    step = 0
    while True:
        h = m.hand
        if h.phase == core.PH_REDEAL:
            m.redeal()
            m.hand.advance()
            continue
        where = f"seed {seed} hand {st.hand_number} step {step}"
        if st.phase in ("hand_over", "match_over"):
            if h.phase != core.PH_OVER:
                rep.mismatches.append(f"{where}: kernel in {PHASES[h.phase]}, not over")
                return rep
            got = _result_key(m.finish_hand())
            want = _result_key(st.results[-1])
            rep.hands += 1
            rep.results.append(want)
            if got != want:
                rep.mismatches.append(f"{where}: result {got} != {want}")
            standing = (m.levels, m.progress, m.coins, m.over, m.winner)
            if standing != (st.levels, st.progress, st.coins, st.phase == "match_over", st.winner):
                rep.mismatches.append(f"{where}: match standing differs")
                return rep
            if st.phase == "match_over" or rep.hands >= hands:
                return rep
            st, _ = apply(st, 0, Continue())
            m.next_hand()
            m.hand.advance()
            continue
        seat = st.to_act
        assert seat is not None
        if PHASES[h.phase] != st.phase or h.to_act != seat:
            rep.mismatches.append(
                f"{where}: kernel {PHASES[h.phase]} seat {h.to_act} != {st.phase} seat {seat}"
            )
            return rep
        if st.phase in ("deal", "before_kitty", "after_burial"):
            want_shows = [(cs[0].index, len(cs)) for cs in legal_shows(st, seat)]
            got_shows = [(x // 8, x % 8) for x in h.legal_shows(seat)]
            if got_shows != want_shows:
                rep.mismatches.append(f"{where}: shows {got_shows} != {want_shows}")
                return rep
        action = bots[seat].act(seat_view(st, seat))
        st, _ = apply(st, seat, action)
        rep.decisions += 1
        if isinstance(action, Declare):
            h.declare(action.cards[0].index, len(action.cards))
        elif isinstance(action, Pass):
            h.pass_turn()
        elif isinstance(action, Bury):
            h.bury([c.index for c in action.cards])
        elif isinstance(action, Call):
            h.call_friends([c.card.index for c in action.calls], [c.ordinal for c in action.calls])
        else:
            assert isinstance(action, Play)
            rep.plays += 1
            cards = [c.index for c in action.cards]
            ks = h.play
            if ks is None or not ks.is_legal(cards):
                rep.mismatches.append(f"{where}: kernel refuses {action.cards}")
                return rep
            h.play_cards(cards)
        h.advance()
        step += 1
        hands_now = [list(core.hand_counts(st.hands[s])) for s in range(n)]
        if h.phase != core.PH_REDEAL and st.phase not in ("hand_over", "match_over"):
            if h.hands != hands_now or sorted(h.kitty) != sorted(c.index for c in st.kitty):
                rep.mismatches.append(f"{where}: hands or kitty differ after {action}")
                return rep
            ks = h.play
            if ks is not None and (ks.trick_points, ks.penalties) != (
                st.trick_points,
                st.penalties,
            ):
                rep.mismatches.append(f"{where}: points differ after {action}")
                return rep
            # (the kernel notes a called copy as it is played; the side changes, and the
            # state's calls are answered, once its trick is complete)
            if (
                ks is not None
                and not st.trick
                and options.friends
                and _sides(st) != _kernel_sides(ks)
            ):
                rep.mismatches.append(
                    f"{where}: friends found differ after {action}: "
                    f"{_kernel_sides(ks)} != {_sides(st)}"
                )
                return rep


def _sides(st: GameState) -> tuple[list[int], list[int]]:
    """找朋友: who answered each call (-1: nobody yet) and each seat's side (0: the
    banker's) as the oracle's state has them."""
    banker = st.banker
    found = [-1 if c.seat is None else c.seat for c in st.calls]
    side = {banker, *(s for s in found if s >= 0)}
    return found, [0 if s in side else 1 for s in range(st.options.players)]


def _kernel_sides(ks: KState) -> tuple[list[int], list[int]]:
    """The same from a kernel play state."""
    banker_team = ks.team[ks.banker]
    return list(ks.call_by), [0 if t == banker_team else 1 for t in ks.team]


def check_matches(
    options: RuleOptions, seeds: Iterable[int], kernels: Sequence[Kernel], hands: int = 2
) -> Report:
    """:func:`check_match` for every seed and kernel, summed."""
    total = Report()
    for seed in seeds:
        for k in kernels:
            total.add(check_match(options, seed, k, hands))
    return total


def oracle_presets() -> list[str]:
    """The presets the oracle's game flow plays: every one (找朋友 too, at its six seats)."""
    from shengji.rules.presets import preset_names

    return list(preset_names())


#: 找朋友 at the table sizes its preset does not seat (it seats six).
FRIENDS_PLAYERS = (4, 5, 7, 8)


def gate_tables() -> list[tuple[str, RuleOptions]]:
    """What the long gate plays: every preset, and 找朋友 at every other table size
    (labelled ``zhaopengyou:N``)."""
    from shengji.rules.presets import load_preset

    out = [(p, load_preset(p)) for p in oracle_presets()]
    out += [
        (f"zhaopengyou:{n}", load_preset("zhaopengyou", {"players": n})) for n in FRIENDS_PLAYERS
    ]
    return out


def long_check(hands: int, seed: int = 0) -> Iterator[str]:
    """The gates on ``hands`` random play phases spread over every preset (and 找朋友 at
    every table size), as many whole hands again in matches of two (compiled and pure
    kernels against the oracle), and half as many whole hands through the product's
    ``apply`` in lockstep with the oracle's; one line per table and a total."""
    kernels = [Kernel(pure=True)]
    if Kernel().is_compiled:
        kernels.insert(0, Kernel())
    tables = gate_tables()
    total = Report()
    for i, (preset, opts) in enumerate(tables):
        count = hands // len(tables) + (1 if i < hands % len(tables) else 0)
        seeds = range(seed * 1_000_003, seed * 1_000_003 + count)
        rep = check_hands(opts, seeds, kernels, 0.3, move_every=8)
        total.add(rep)
        yield (
            f"kernel equality ({preset}): {rep.hands} hands, {rep.plays} plays, "
            f"{rep.failed_throws} failed throws, {rep.move_checks} move checks, "
            f"{len(rep.mismatches)} mismatches"
        )
        yield from (f"  {m}" for m in rep.mismatches[:5])
        seeds = range(seed * 1_000_003, seed * 1_000_003 + (count + 1) // 2)
        rep = check_matches(opts, seeds, kernels, hands=2)
        total.add(rep)
        yield (
            f"kernel match equality ({preset}): {rep.hands} whole hands, {rep.plays} plays, "
            f"{len(rep.mismatches)} mismatches"
        )
        yield from (f"  {m}" for m in rep.mismatches[:5])
        bad = [m for s in seeds for m in check_engine_hand(opts, s)]
        total.hands += len(seeds)
        total.mismatches.extend(bad)
        yield (
            f"engine equality ({preset}): {len(seeds)} whole hands through apply, in "
            f"lockstep with the oracle's, {len(bad)} mismatches"
        )
        yield from (f"  {m}" for m in bad[:5])
    paths = ", ".join("compiled" if k.is_compiled else "pure" for k in kernels)
    yield (
        f"kernel equality (all presets, {paths}): {total.hands} hands, "
        f"{total.failed_throws} failed throws, {len(total.mismatches)} mismatches"
    )


if __name__ == "__main__":  # cd tests && python -m kernel.gate --hands 100000
    import argparse

    parser = argparse.ArgumentParser(description="the kernel's equality gates, at length")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    bad = False
    for line in long_check(args.hands, args.seed):
        print(line, flush=True)
        bad = bad or (line.startswith("kernel equality (all") and " 0 mismatches" not in line)
    raise SystemExit(1 if bad else 0)
