"""Whole matches on the kernel: hands dealt, declared, buried and played on ints
(:class:`~shengji.kernel._core.KHand`), scored with the rule book's tables, levels and
coins carried from hand to hand.

The game engine (:mod:`shengji.game`) runs its matches here and folds them into its
immutable states; ``tests/kernel/test_match_equality.py`` checks this module against the
oracle's game flow on whole matches of every preset, and
:class:`shengji.bots.random_bot.RandomBot` draws its
decisions exactly as :meth:`KMatch.play_random` does, so a simulation of random players
can run here at kernel speed.

>>> from shengji.rules.presets import load_preset
>>> m = KMatch(load_preset("shuangsheng"), seed=3)
>>> m.play_random(random_streams(3), max_hands=2)
>>> len(m.results), m.results[0].points % 5
(2, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ..kernel import access
from ..kernel.access import CoreKernel as Kernel
from ..kernel.access import default_core_kernel as default_kernel
from ..rules.cards import ALL_CARDS, Card, Suit, deck
from ..rules.seats import level_holder, start_teams
from ..rules.shuffle import hand_seed, is_secret, shuffled
from ..rules.trump import trump_context

if TYPE_CHECKING:
    from ..kernel._core import KHand, KRng, KScore, ScoreRules, Tables
    from ..rules.options import RuleOptions
    from ..rules.scoring import HandResult

#: A random player's chance of attempting a throw when it leads.
THROW_RATE = 0.1


def random_streams(seed: int, seats: int = 4, kernel: Kernel | None = None) -> list[KRng]:
    """The kernel streams of random players seated for a match seed (one per seat, as
    :class:`shengji.bots.random_bot.RandomBot` seeds its own), for ``kernel``'s core."""
    return [seat_stream(seed, seat, kernel) for seat in range(seats)]


def seat_stream(seed: int, seat: int, kernel: Kernel | None = None) -> KRng:
    """The random player's stream for ``seat`` in a match of ``seed`` (SplitMix64 of
    both: cheap, and different for every seat and seed)."""
    x = (seed * 0x9E3779B97F4A7C15 + seat * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    core = (kernel or default_kernel()).core
    return cast("KRng", core.KRng((x ^ (x >> 31)) & 0xFFFFFFFF))


_M64 = (1 << 64) - 1
#: Kernel tables per (options, level): each trump's, NT first.
_TABLES: dict[tuple[int, int], tuple[RuleOptions, Kernel, list[Tables]]] = {}


class KMatch:
    """A match on the kernel, mutable. :attr:`hand` is the hand in progress; when it
    reaches ``PH_OVER`` :meth:`finish_hand` scores it, and :meth:`next_hand` deals the
    next unless :attr:`over`."""

    def __init__(
        self,
        options: RuleOptions,
        seed: int,
        stacked: Sequence[Sequence[Card]] = (),
        kernel: Kernel | None = None,
        paced: bool = False,
    ) -> None:
        """``paced``: every hand's deal asks nobody at the draws (``KHand.paced``)."""
        self.options = options
        self.seed = seed
        self.paced = paced
        self.kernel = kernel or default_kernel()
        self.core: Any = self.kernel.core
        self.stacked = [[c.index for c in d] for d in stacked]
        self.team = list(start_teams(options))
        self.rules = access.hand_rules(self.core, options, self.team)
        lvl = options.start_level
        #: Levels by holder (``seats.level_holder``): per team, or per player (找朋友).
        holders = options.players if options.friends else 2
        self.levels: tuple[int, ...] = (lvl,) * holders
        self.progress: tuple[int, ...] = (0,) * holders
        self.coins = (0, 0)
        self.hand_number = 0
        self.results: list[HandResult] = []
        self.over = False
        self.winner: int | None = None
        #: Decisions of the hands before this one, and the ``continue`` between hands.
        self.decisions_before = 0
        self.score_rules: ScoreRules = access.score_rules(self.core, options)
        #: The hands this object scored, and how many hands of the match are finished.
        self.scored: list[Scored] = []
        self.hands_scored = 0
        self.next_banker: int | None = None
        self.hand = self._start_hand(None, lvl, 0)

    @classmethod
    def resume(
        cls,
        options: RuleOptions,
        seed: int,
        stacked: Sequence[Sequence[Card]],
        *,
        hand_number: int,
        levels: tuple[int, ...],
        progress: tuple[int, ...],
        coins: tuple[int, int],
        results: list[HandResult],
        winner: int | None,
        over: bool,
        kernel: Kernel | None = None,
        paced: bool = False,
    ) -> KMatch:
        """A match standing as given, without a hand: the caller sets :attr:`hand` (as
        ``shengji.game`` does when it rebuilds the kernel of a state)."""
        m = cls.__new__(cls)
        m.options = options
        m.seed = seed
        m.paced = paced
        m.kernel = kernel or default_kernel()
        m.core = m.kernel.core
        m.stacked = [[c.index for c in d] for d in stacked]
        m.team = list(start_teams(options))
        m.rules = access.hand_rules(m.core, options, m.team)
        m.levels = levels
        m.progress = progress
        m.coins = coins
        m.hand_number = hand_number
        m.results = results
        m.over = over
        m.winner = winner
        m.decisions_before = 0
        m.score_rules = access.score_rules(m.core, options)
        m.scored = []
        m.hands_scored = len(results)
        m.next_banker = results[-1].outcome.next_banker if results else None
        return m

    def tables(self, level: int) -> list[Tables]:
        """The kernel tables of each trump at ``level``: NT, then S, H, C, D."""
        opts = self.options
        hit = _TABLES.get((id(opts), level))
        if hit is None or hit[0] is not opts or hit[1] is not self.kernel:
            trumps: list[Suit | None] = [None, *Suit]
            tables = [self.kernel.tables(trump_context(opts, level, t)) for t in trumps]
            if len(_TABLES) >= 256:
                _TABLES.clear()
            hit = (opts, self.kernel, tables)
            _TABLES[(id(opts), level)] = hit
        return hit[2]

    def _start_hand(self, banker: int | None, level: int, redeals: int) -> KHand:
        n = len(self.team)
        if self.hand_number < len(self.stacked) and redeals == 0:
            cards = list(self.stacked[self.hand_number])
        elif is_secret(self.seed):
            cards = shuffled(_DECK[self.options.decks], self.seed, self.hand_number, redeals)
        else:  # shuffle.shuffled's research-seed deal, on the kernel
            cards = list(_DECK[self.options.decks])
            rng = random.Random(hand_seed(self.seed, self.hand_number, redeals))
            self.core.shuffle_ints(cards, rng)
        level = self.options.fixed_level or level
        first = self.hand_number == 0
        start = 0 if banker is None else banker
        h = cast(
            "KHand",
            self.core.KHand(
                self.rules,
                self.tables(level),
                level,
                cards,
                start % n,
                first,
                -1 if banker is None else banker,
                redeals,
            ),
        )
        h.paced = self.paced
        return h

    def redeal(self) -> None:
        """Deal the hand again (nobody declared and the rules redeal)."""
        h = self.hand
        banker = None if h.decl.first_hand else h.decl.banker
        record = h.record
        self.decisions_before += h.decisions
        self.hand = self._start_hand(banker, h.level, h.redeals + 1)
        self.hand.record = record

    def score_hand(self) -> Scored:
        """Score the finished hand in the kernel (the kitty bonus, the level table, the J
        hook; the levels, coins and match end it leaves) and carry its levels, coins and
        next banker: :meth:`finish_hand` without the result objects (what random players
        in ``simulate`` need). Kept in :attr:`scored`."""
        h = self.hand
        ks = h.play
        assert ks is not None and ks.done
        core = self.core
        r = self.score_rules
        banker = h.decl.banker
        teams = ks.team
        bteam = teams[banker]
        friends = self.options.friends
        if friends:  # the banker's own level and the first collector's after the banker
            first = core.next_on_side(banker, 1 - bteam, teams)
            levels = (self.levels[banker], self.levels[first])
        else:
            levels = (self.levels[bteam], self.levels[1 - bteam])
        score: KScore = core.score_hand(
            r,
            h.trump_tables,
            h.level,
            banker,
            levels[0],
            levels[1],
            ks.trick_points,
            ks.penalties,
            h.kitty,
            ks.last_lead,
            ks.last_winner,
            ks.last_win,
            ks.last_points,
            teams,
        )
        o = score.outcome
        if friends:  # names the match's winning side when another player won it by levels
            new, progress, over, winner = core.friends_standing(
                r, teams, banker, o, list(self.levels), list(self.progress), self.hand_number
            )
        else:
            new, progress, over, winner = core.team_standing(
                r, bteam, o, list(self.progress), self.hand_number
            )
        stake = core.hand_stake(r, h.decl.counters)
        win_team = bteam if o.side == core.SIDE_BANKER else 1 - bteam
        change = core.settle_coins(r, stake, win_team, ks.stake_penalties)
        n = len(teams)
        scored = Scored(self.hand_number, score, stake, change)
        if friends:
            scored.banker_side = tuple(
                s for s in ((banker + i) % n for i in range(n)) if teams[s] == bteam
            )
            scored.climbed = tuple(a - b for a, b in zip(progress, self.progress, strict=True))
        self.levels = tuple(new)
        self.progress = tuple(progress)
        self.coins = (self.coins[0] + change[0], self.coins[1] + change[1])
        self.over = over
        self.winner = None if winner < 0 else winner
        self.next_banker = o.next_banker
        self.hands_scored += 1
        self.scored.append(scored)
        return scored

    def finish_hand(self) -> HandResult:
        """Score the finished hand (:meth:`score_hand`) and add its result to
        :attr:`results` (as ``shengji.game``'s end of a hand)."""
        from ..rules.scoring import HandResult, outcome_of

        scored = self.score_hand()
        h = self.hand
        ks = h.play
        assert ks is not None
        score, o = scored.score, scored.score.outcome
        kitty = tuple([ALL_CARDS[c] for c in h.kitty])
        outcome = outcome_of(o)
        trump = h.decl.trump
        result = HandResult(
            number=scored.number,
            banker=h.decl.banker,
            level=h.level,
            trump="NT" if trump < 0 else "SHCD"[trump],
            trick_points=ks.trick_points,
            kitty_points=sum(c.pts for c in kitty),
            kitty_multiplier=score.kitty_multiplier,
            penalties=ks.penalties,
            points=score.points,
            outcome=outcome,
            counters=h.decl.counters,
            stake=scored.stake,
            coins=scored.coins,
            kitty=kitty,
            banker_side=scored.banker_side,
            climbed=scored.climbed,
        )
        self.results.append(result)
        return result

    def next_hand(self) -> None:
        """Deal the next hand: the outcome's next banker at their team's level."""
        banker = self.next_banker
        assert banker is not None
        record = self.hand.record
        self.decisions_before += self.hand.decisions + 1
        self.hand_number += 1
        self.hand = self._start_hand(banker, self.levels[level_holder(self.options, banker)], 0)
        self.hand.record = record

    @property
    def decisions(self) -> int:
        """Decisions taken in the match so far (a ``continue`` between hands counts)."""
        return self.decisions_before + self.hand.decisions

    def play_random(
        self,
        rngs: Sequence[KRng],
        max_hands: int | None = None,
        throw_rate: float = THROW_RATE,
        results: bool = True,
    ) -> None:
        """Play on with a random player at every seat (``rngs[seat]``, see
        :func:`random_streams`) until the match is over or ``max_hands`` hands are done;
        ``results=False``: the hands are scored (:attr:`scored`) without result objects."""
        streams = list(rngs)
        core = self.core
        while True:
            core.random_hand(self.hand, streams, throw_rate)
            if self.hand.phase == core.PH_REDEAL:
                self.redeal()
                continue
            if results:
                self.finish_hand()
            else:
                self.score_hand()
            if self.over or (max_hands is not None and self.hands_scored >= max_hands):
                return
            self.next_hand()


class Scored:
    """A hand scored by the kernel (:meth:`KMatch.score_hand`): its number, the kernel's
    score (``KScore``: kitty multiplier and bonus, the collectors' points, the outcome),
    the stake and the coins it moved, and in 找朋友 the banker's side as the hand ended
    (the banker first) and the levels each seat climbed."""

    __slots__ = ("banker_side", "climbed", "coins", "number", "score", "stake")

    def __init__(self, number: int, score: KScore, stake: int, coins: tuple[int, int]) -> None:
        self.number = number
        self.score = score
        self.stake = stake
        self.coins = coins
        self.banker_side: tuple[int, ...] = ()
        self.climbed: tuple[int, ...] = ()


# The decks as ints in the order ``shengji.rules.cards.deck`` gives them (shuffles match).
_DECK = {n: [c.index for c in deck(n)] for n in range(1, 5)}
