"""A strong bot: determinized search (PIMC) over the hidden cards, for plays, burials and
counters after the burial.

For each play decision the bot takes the candidate plays the heuristic bot scores best,
then repeatedly deals the hidden cards at random consistently with everything its view
reveals (:class:`~shengji.bots.belief.Belief`), and plays the hand out from each
candidate with a fast policy. A candidate's value is the hand's outcome in levels for the
bot's team (the level table and kitty multiplier as :mod:`shengji.rules.scoring` applies them),
with the collectors' points as a small tie-break. The same deals are used for every
candidate, and the heuristic's choice is kept unless another candidate is clearly better
on them.

Burying (the banker's, or a counter-declarer's after 反主炒底 / 反底) is searched the same
way: the heuristic's burial and a few variants of it
(:func:`~shengji.bots.candidates.burial_candidates`: emptying each short side suit,
point cards counted by rank only, pairs not kept, ...) are each played out from the
start of the play phase on the same deals of the other three hands
(:meth:`~shengji.bots.belief.Belief.after_burial`; a counter window after the burial is
taken as passed). After the burial (反主炒底 / 反底), passing and each legal counter are
searched the same way (:meth:`SearchBot.counter`: a counter takes the kitty and buries
again as the heuristic would). ``noburysearch`` buries and counters as the heuristic
does. Declaring and reinforcing during the deal follow the heuristic bot.

The budget is a wall-clock time (``search:100ms``, ``search:1s``), a number of rollouts
(``search:2000it``), or both: rollouts with a wall-clock cap (``search:2000it/800ms``, the
default, :data:`DEFAULT_BUDGET`), so that a busy machine makes a decision shorter of
rollouts only when it would take longer than the cap. With a rollout budget the bot is
deterministic for a given seed (with a cap, as long as the cap does not stop it). What
each searched decision got is :attr:`SearchBot.effort`.

Rollouts go through :class:`~shengji.bots.rollouts.Rollout`: by default
:class:`~shengji.bots.rollouts.KernelRollout` with the kernel's ``light_move`` policy
(:func:`~shengji.bots.rollouts.light_play` on ints) on the compiled play-phase kernel;
``:random`` plays uniformly random legal plays there instead, and ``:apply`` plays
:func:`~shengji.bots.rollouts.light_play` through :func:`shengji.game.apply`. On the
kernel, a play's rollouts start from one kernel state per sampled deal, copied for each
candidate. By default the candidates clearly worse than the leader stop being played out
(:func:`prune`; ``:noprune``) and a play overrides the rule of thumb by a smaller margin
than a hint does (:data:`BOLD_GAIN`, :data:`BOLD_SE`; ``:careful`` for the hints' clear
one). Together these measured about 13 points of level rate over random rollouts with
neither (docs/bots.md). Flags for the other levers of docs/bots.md ("Stronger search"):
``:endgame`` solves the last tricks of each sampled deal exactly
(:mod:`shengji.bots.endgame`), ``:tail`` ends each random rollout with the solver,
``:infer`` weighs sampled deals by the soft facts of the other seats' plays
(:meth:`~shengji.bots.belief.Belief.likelihood`), ``:narrow`` searches 6 candidate plays
instead of 10, and ``:buryprior`` samples the kitty as a banker buries
(:meth:`~shengji.bots.belief.Belief.buried`) rather than like a fourth hand. At a 找朋友
table only the plays are searched; burials, counters and calls are the heuristic's."""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import Code, ShengjiError
from ..game.actions import Action, Bury, Declare, Pass, Play
from ..game.flow import apply
from ..game.legal import legal_shows
from ..game.state import GameState
from ..game.views import SeatView, seat_view
from ..rules.cards import Card
from ..rules.immutable import evolve
from ..words.i18n import cards_label
from .belief import KITTY, Belief
from .candidates import MARGIN_SE, MIN_GAIN, Evaluation, burial_candidates, override_reason
from .endgame import Solver, TooBig
from .heuristic import HeuristicBot, choose_burial
from .rollouts import (
    ApplyRollout,
    Finished,
    KernelRollout,
    Rollout,
    Start,
    finished,
    hand_value,
    prune,
)

if TYPE_CHECKING:
    from ..kernel._core import KState


#: Candidate plays searched per decision (the heuristic's best ones).
MAX_CANDIDATES = 10
#: ... with ``:narrow`` (the default until 10 measured stronger, docs/bots.md).
NARROW_CANDIDATES = 6
#: With ``:endgame``, sampled deals are solved exactly (double dummy) once every hand
#: holds at most this many cards.
ENDGAME_CARDS = 3
#: Solver nodes one sampled deal may take (all candidates); a deal that needs more
#: (wide units left in the hands) is rolled out instead, and so are the later ones.
SOLVE_NODES = 4000
#: Solver nodes a rollout budget (``2000it``) counts as one rollout.
NODES_PER_ROLLOUT = 8
#: With ``:tail``, rollouts play at random until every hand holds at most this many
#: cards, and the rest is solved exactly.
TAIL_CARDS = 2
#: With ``:infer``, deals sampled for one deal kept at most.
INFER_TRIES = 8
#: Candidates clearly worse than the leader are dropped after this many sampled deals,
#: and again each time the deals double; their rollouts go to the rest (not ``:noprune``).
PRUNE_FIRST = 32
#: A play (not a burial or a counter; not with ``:careful``, as hints are) overrides the
#: rule of thumb when better by this many standard errors ...
BOLD_SE = 1.0
#: ... and this many levels.
BOLD_GAIN = 0.02
#: With ``:steady`` (hints), a play overrides the rule of thumb only when its gain less
#: :data:`MARGIN_SE` standard errors is still this many levels: a gain that sampling noise
#: could halve does not change the hint, so asking again gives the same card.
STEADY_GAIN = 0.15


#: The search bot's budget when its spec names none: 2000 rollouts a decision, stopped at
#: 800 ms of wall time on a machine too busy to play them all (docs/bots.md). At a table
#: the bot thinks during the bot delay, so a median decision (about 170 ms) adds no wait.
DEFAULT_BUDGET = "2000it/800ms"


@dataclass(frozen=True, slots=True)
class Budget:
    """How long to search: ``seconds`` of wall time, a number of ``rollouts``, or both
    (the rollouts, stopped at the wall-clock cap ``seconds`` if they take longer)."""

    seconds: float | None = None
    rollouts: int | None = None

    @classmethod
    def parse(cls, text: str | None) -> Budget:
        """``"100ms"``, ``"1.5s"``, ``"2000it"`` or ``"1000it/400ms"`` (1000 rollouts,
        400 ms at most); None: :data:`DEFAULT_BUDGET`.

        >>> Budget.parse("1000it/400ms")
        Budget(seconds=0.4, rollouts=1000)
        """
        if text is None or not text.strip():
            text = DEFAULT_BUDGET
        m = re.fullmatch(r"\s*(?:(\d+)\s*it\s*/\s*)?(\d+(?:\.\d+)?)\s*(ms|s|it)\s*", text)
        if (
            m is None
            or float(m.group(2)) <= 0
            or (m.group(1) is not None and (m.group(3) == "it" or int(m.group(1)) <= 0))
        ):
            raise ShengjiError(
                f"bad search budget {text!r}: use e.g. 100ms, 1s, 2000it or 1000it/400ms "
                "(rollouts, then a wall-clock cap)",
                code=Code.BAD_BOT_SPEC,
                params={"bot": "search"},
            )
        value, unit = float(m.group(2)), m.group(3)
        if unit == "it":
            return cls(rollouts=max(1, int(value)))
        seconds = value / 1000 if unit == "ms" else value
        return cls(seconds=seconds, rollouts=int(m.group(1)) if m.group(1) else None)


class Effort(NamedTuple):
    """What one searched decision got: the rollouts played (candidates times deals, a
    solved deal counted in rollouts as the budget counts it), the deals sampled, and
    whether the wall-clock cap stopped it before its rollouts were played."""

    rollouts: int
    deals: int
    capped: bool = False


def effort_figures(efforts: Sequence[tuple[int, int, bool]]) -> dict[str, Any]:
    """Searched decisions (:class:`Effort`) as JSON-ready figures: how many, how many the
    wall-clock cap stopped, and the rollouts and sampled deals a decision got at the
    10th and 50th percentiles (nearest rank).

    >>> effort_figures([Effort(1000, 100), Effort(400, 40, True)])["rollouts"]
    {'p10': 400, 'p50': 400}
    """
    from .stats import percentile

    rollouts = sorted(e[0] for e in efforts)
    deals = sorted(e[1] for e in efforts)
    return {
        "decisions": len(efforts),
        "capped": sum(1 for e in efforts if e[2]),
        "rollouts": {"p10": percentile(rollouts, 0.1), "p50": percentile(rollouts, 0.5)}
        if efforts
        else None,
        "deals": {"p10": percentile(deals, 0.1), "p50": percentile(deals, 0.5)}
        if efforts
        else None,
    }


def make_search_bot(seat: int, seed: int, arg: str | None) -> SearchBot:
    """A search bot from its spec argument: a budget (``100ms``, ``1s``, ``2000it``,
    ``1000it/400ms``: :meth:`Budget.parse`), optionally followed by ``:``-separated flags.

    By default (measured strongest, docs/bots.md) rollouts play the kernel's light policy,
    candidates clearly worse than the leader are dropped as deals come in (:func:`prune`),
    a play overrides the rule of thumb by the smaller margin :data:`BOLD_GAIN`,
    :data:`BOLD_SE`, sampled deals are weighed by the soft facts of the other seats' plays
    (:meth:`Belief.likelihood`) and the kitty is sampled as a banker buries
    (:meth:`Belief.buried`). Flags change that: ``random`` (uniformly random rollouts on
    the kernel; ``kernel`` is its earlier name) or ``apply`` (the light policy through the
    game engine, far slower); ``noprune``; ``careful`` (the clear margin :data:`MIN_GAIN`,
    :data:`MARGIN_SE`) or ``steady`` (the hints' sure margin: the gain less
    :data:`MARGIN_SE` standard errors at least :data:`STEADY_GAIN`); ``noinfer``;
    ``noburyprior`` (the kitty sampled like a hand). ``light``, ``prune``, ``bold``,
    ``infer`` and ``buryprior`` name the defaults. Further levers: ``noburysearch`` (bury
    as the heuristic bot does, without searching); ``endgame`` (solve sampled deals exactly
    once every hand holds at most :data:`ENDGAME_CARDS` cards); ``tail`` (random rollouts
    that end with the solver); ``narrow`` (search :data:`NARROW_CANDIDATES` candidate
    plays, not :data:`MAX_CANDIDATES`). The bot before 2026-11-27 is
    ``:random:noprune:careful:noinfer:noburyprior``, the one of the morning of 2026-12-07
    ``:noinfer:noburyprior``."""
    text, *flags = (arg or "").split(":")
    known = (
        "random",
        "kernel",
        "light",
        "apply",
        "prune",
        "noprune",
        "bold",
        "careful",
        "steady",
        "noburysearch",
        "endgame",
        "infer",
        "narrow",
        "tail",
        "buryprior",
        "noinfer",
        "noburyprior",
    )
    for flag in flags:
        if flag not in known:
            raise ShengjiError(
                f"bad search option {flag!r}: one of {', '.join(repr(k) for k in known)}",
                code=Code.BAD_BOT_SPEC,
                params={"bot": "search"},
            )
    given = {"random" if f == "kernel" else f for f in flags}  # kernel: the earlier name
    exclusive = (
        ("random", "light", "apply"),
        ("prune", "noprune"),
        ("bold", "careful", "steady"),
        ("infer", "noinfer"),
        ("buryprior", "noburyprior"),
    )
    for group in exclusive:
        chosen = [f for f in group if f in given]
        if len(chosen) > 1:
            raise ShengjiError(
                f"search options {' and '.join(repr(f) for f in chosen)} contradict each other",
                code=Code.BAD_BOT_SPEC,
                params={"bot": "search"},
            )
    if "tail" in given and given & {"light", "apply"}:
        raise ShengjiError(
            "search option 'tail' ends random rollouts with the solver: not with "
            "'light' or 'apply'",
            code=Code.BAD_BOT_SPEC,
            params={"bot": "search"},
        )
    budget = Budget.parse(text or None)
    random_rollouts = bool(given & {"random", "tail"})
    rollout: Rollout = ApplyRollout() if "apply" in given else KernelRollout(not random_rollouts)
    return SearchBot(
        seat,
        seed,
        budget,
        rollout,
        bury_search="noburysearch" not in given,
        endgame=ENDGAME_CARDS if "endgame" in given else 0,
        infer="noinfer" not in given,
        max_candidates=NARROW_CANDIDATES if "narrow" in given else MAX_CANDIDATES,
        tail=TAIL_CARDS if "tail" in given else 0,
        prune="noprune" not in given,
        bold=not given & {"careful", "steady"},
        steady="steady" in given,
        burial_prior="noburyprior" not in given,
    )


class SearchBot:
    """Determinized search in the play phase and for the burial, the heuristic bot
    elsewhere. The constructor's defaults are the plain search (random rollouts, no
    pruning, the clear margin); :func:`make_search_bot` builds the ``search`` spec's
    measured default."""

    name = "search"

    def __init__(
        self,
        seat: int = 0,
        seed: int = 0,
        budget: Budget | None = None,
        rollout: Rollout | None = None,
        bury_search: bool = True,
        endgame: int = 0,
        infer: bool = False,
        max_candidates: int = MAX_CANDIDATES,
        tail: int = 0,
        prune: bool = False,
        bold: bool = False,
        steady: bool = False,
        burial_prior: bool = False,
    ) -> None:
        self.seat = seat
        if steady and bold:
            raise ValueError("a search bot is steady (hints) or bold, not both")
        #: Hints: a play overrides the rule of thumb only by a sure margin
        #: (:meth:`Evaluation.surely_better`, :data:`STEADY_GAIN`).
        self.steady = steady
        #: A play overrides the rule of thumb when better by this many levels and
        #: standard errors (``bold``: :data:`BOLD_GAIN`, :data:`BOLD_SE`; else the clear
        #: margin :data:`MIN_GAIN`, :data:`MARGIN_SE`; ``steady`` above: :meth:`overrides`).
        self.min_gain, self.margin_se = (BOLD_GAIN, BOLD_SE) if bold else (MIN_GAIN, MARGIN_SE)
        #: Drop candidates clearly worse than the leader as deals come in (:func:`prune`).
        self.prune = prune
        #: Solve sampled deals exactly once every hand holds at most this many cards
        #: (0: never), on the kernel (:mod:`shengji.bots.endgame`).
        self.endgame = endgame
        #: Weigh sampled deals by the soft facts of the other seats' plays
        #: (:meth:`Belief.likelihood`): a deal is kept with its likelihood.
        self.infer = infer
        #: Candidate plays searched per decision.
        self.max_candidates = max_candidates
        #: Sample the kitty as a banker buries (:meth:`Belief.buried`), not like a hand.
        self.burial_prior = burial_prior
        #: Kernel rollouts solve the last ``tail`` cards of every hand exactly (0: never).
        self.tail = tail
        self.seed = seed
        self.budget = budget or Budget.parse(None)
        self.rollout: Rollout = rollout or KernelRollout()
        self.bury_search = bury_search
        self.heuristic = HeuristicBot(seat, seed)
        #: Why the last action was chosen: (English, Chinese).
        self.reason: tuple[str, str] = ("", "")
        #: The candidates of the last searched decision (plays or burials), best first.
        self.evaluations: list[Evaluation] = []
        #: What the last decision's search got (None: the last decision was not searched).
        self.effort: Effort | None = None

    def act(self, view: SeatView) -> Action:
        """Choose an action for the view's seat."""
        action = self.heuristic.act(view)
        self.reason = self.heuristic.reason
        self.evaluations = []
        self.effort = None
        if view.options.friends and view.phase != "play":
            return action  # 找朋友: burial, 炒底 and calls as the heuristic; plays searched
        if view.phase == "bury" and isinstance(action, Bury) and self.bury_search:
            return self.bury(view, action.cards)
        if view.phase == "after_burial" and self.bury_search:
            return self.counter(view, action)
        if view.phase != "play" or not isinstance(action, Play):
            return action
        cands = self.candidates(action.cards)
        if len(cands) < 2:
            return action
        evals = self.evaluate(view, cands)
        if not evals:
            return action
        self.evaluations = evals
        best = evals[0]
        if best.play != action.cards and self.overrides(best):
            self.reason = override_reason(view, action.cards, best)
            return Play(best.play)
        return action

    def overrides(self, best: Evaluation) -> bool:
        """Whether the best searched play replaces the rule of thumb's."""
        if self.steady:
            return best.surely_better(STEADY_GAIN, MARGIN_SE)
        return best.better(self.min_gain, self.margin_se)

    def explained(self) -> tuple[str, str]:
        """The last action's reason (English, Chinese), with what the search found when
        it kept the rule of thumb's play (a hint shows this)."""
        en, zh = self.reason
        searched = self.evaluations
        if searched and searched[0].n and not en.startswith("search:"):
            others, n = len(searched) - 1, searched[0].n
            if others == 1:
                en += f" (search: the other play is not clearly better in {n} sampled deals)"
                zh += f" (搜索: {n} 次抽样中另一种出法并不明显更好)"
            else:
                en += (
                    f" (search: none of the {others} other plays is clearly better "
                    f"in {n} sampled deals)"
                )
                zh += f" (搜索: {n} 次抽样中其余 {others} 种出法都不明显更好)"
        return en, zh

    def candidates(self, chosen: tuple[Card, ...]) -> list[tuple[Card, ...]]:
        """The heuristic's choice and its next best plays (distinct)."""
        out = [chosen]
        seen = {tuple(sorted(c.index for c in chosen))}
        for _, play in self.heuristic.scored:
            k = tuple(sorted(c.index for c in play))
            if k not in seen:
                seen.add(k)
                out.append(play)
            if len(out) >= self.max_candidates:
                break
        return out

    def bury(self, view: SeatView, chosen: tuple[Card, ...]) -> Bury:
        """Bury ``chosen`` (the heuristic's burial) unless a variant of it is clearly
        better when each is played out on the same sampled deals."""
        cands = burial_candidates(view, chosen)
        if len(cands) < 2:
            return Bury(chosen)
        labels = {c.cards: (c.en, c.zh) for c in cands}
        evals = self.evaluate_burials(view, [c.cards for c in cands])
        if not evals:
            return Bury(chosen)
        self.evaluations = evals
        best = evals[0]
        if best.play != chosen and best.clearly_better:
            en, zh = labels[best.play]
            self.reason = (
                f"search: {en}; worth {best.diff:+.2f} ± {best.diff_se:.2f} levels over the "
                f"rule of thumb's burial in {best.n} sampled deals",
                f"搜索: {zh}; 在 {best.n} 次抽样中比经验扣法平均多 {best.diff:+.2f} ± "
                f"{best.diff_se:.2f} 级",
            )
            return Bury(best.play)
        en, zh = self.reason
        others, n = len(cands) - 1, best.n
        if others == 1:
            tail = (
                f"the other burial is not clearly better in {n} sampled deals",
                f"{n} 次抽样中另一种扣法并不明显更好",
            )
        else:
            tail = (
                f"none of the {others} other burials is clearly better in {n} sampled deals",
                f"{n} 次抽样中其余 {others} 种扣法都不明显更好",
            )
        self.reason = (f"search: {en} ({tail[0]})", f"搜索: {zh} ({tail[1]})")
        return Bury(chosen)

    def counter(self, view: SeatView, chosen: Action) -> Action:
        """After the burial (反主炒底 / 反底): pass or counter-declare with each legal show,
        each played out on the same sampled deals (a counter takes the kitty and buries
        again as the heuristic bot would; the other seats are taken to pass). The
        heuristic's choice stands unless another is clearly better."""
        assert view.seat is not None
        seat = view.seat
        shows = legal_shows(view, seat)
        if not shows:
            return chosen
        mine = chosen.cards if isinstance(chosen, Declare) else ()
        cands: list[tuple[Card, ...]] = [mine, *(s for s in shows if s != mine)]
        if mine:
            cands.append(())  # passing

        def starts(
            belief: Belief, deal: Mapping[int, Sequence[Card]], active: Sequence[int]
        ) -> list[Start]:
            base = belief.state(deal)
            out: list[Start] = []
            for show in (cands[i] for i in active):
                st = base
                if show:
                    st, _ = apply(base, seat, Declare(show))  # takes the kitty
                    burial = choose_burial(seat_view(st, seat))
                    st, _ = apply(st, seat, Bury(burial))
                banker = st.declare.banker
                assert banker is not None
                out.append(
                    evolve(st, phase="play", to_act=banker, leader=banker, trick=(), lead=None)
                )
            return out

        evals = self._search(
            view,
            cands,
            starts,
            f"search-counter:{self.seed}:{seat}:{view.hand_number}:{len(view.declare.shows)}",
            free=True,
        )
        if not evals:
            return chosen
        self.evaluations = evals
        best = evals[0]
        if best.play == mine or not best.clearly_better:
            return chosen
        gain = f"{best.diff:+.2f} ± {best.diff_se:.2f}"
        if best.play:
            en_cards = cards_label([c.text for c in best.play], "en")
            zh_cards = cards_label([c.text for c in best.play], "zh")
            self.reason = (
                f"search: counter-declare (反主) with {en_cards}, take the kitty and bury "
                f"again; worth {gain} levels over "
                f"{'passing' if not mine else 'the rule of thumb'} in {best.n} sampled deals",
                f"搜索: 用 {zh_cards} 反主, 拿底重新扣; 在 {best.n} 次抽样中平均多得 {gain} 级",
            )
            return Declare(best.play)
        self.reason = (
            f"search: pass; countering is worth {-best.diff:+.2f} levels less in "
            f"{best.n} sampled deals",
            f"搜索: 不反; 在 {best.n} 次抽样中反主平均少得 {-best.diff:+.2f} 级",
        )
        return Pass()

    def evaluate(self, view: SeatView, cands: list[tuple[Card, ...]]) -> list[Evaluation]:
        """Roll every candidate play out on the same sampled deals within the budget; the
        candidates by paired difference to the first one, best first."""
        assert view.seat is not None
        seat = view.seat

        rollout = self.rollout
        if isinstance(rollout, KernelRollout):
            # straight on the kernel: one state per deal, a copy per candidate
            kernel = rollout.kernel
            plays = [[c.index for c in play] for play in cands]

            def kstarts(
                belief: Belief, deal: Mapping[int, Sequence[Card]], active: Sequence[int]
            ) -> list[Start]:
                n = len(view.hand_sizes)
                hands = [view.hand if s == seat else deal.get(s, ()) for s in range(n)]
                kitty = belief.kitty if belief.kitty is not None else deal.get(KITTY, ())
                base = kernel.from_table(view, hands, kitty)
                out: list[Start] = []
                for i in active:
                    ks = base.copy()
                    ks.apply(list(plays[i]))
                    out.append(ks)
                return out

            return self._search(
                view,
                cands,
                kstarts,
                f"search:{self.seed}:{seat}:{view.hand_number}:{len(view.tricks)}:{len(view.trick)}",
                solve=0 < max(view.hand_sizes) <= self.endgame,
                infer=self.infer,
            )

        def starts(
            belief: Belief, deal: Mapping[int, Sequence[Card]], active: Sequence[int]
        ) -> list[Start]:
            base = belief.state(deal)
            return [apply(base, seat, Play(cands[i]))[0] for i in active]

        return self._search(
            view,
            cands,
            starts,
            f"search:{self.seed}:{seat}:{view.hand_number}:{len(view.tricks)}:{len(view.trick)}",
        )

    def evaluate_burials(self, view: SeatView, cands: list[tuple[Card, ...]]) -> list[Evaluation]:
        """Play every candidate burial out from the start of the play phase on the same
        sampled deals of the other hands, within the budget; the candidates by paired
        difference to the first one, best first."""
        assert view.seat is not None

        def starts(
            belief: Belief, deal: Mapping[int, Sequence[Card]], active: Sequence[int]
        ) -> list[Start]:
            return [belief.after_burial(deal, cands[i]) for i in active]

        return self._search(
            view,
            cands,
            starts,
            f"search-bury:{self.seed}:{view.seat}:{view.hand_number}:{len(view.kitty_seen)}",
            free=True,
        )

    @property
    def rollout_light(self) -> bool:
        """Whether kernel rollouts play the light policy."""
        return isinstance(self.rollout, KernelRollout) and self.rollout.light

    def _tail_value(
        self, s: KState, seat: int, det_seed: int, finals: dict[tuple[object, ...], float]
    ) -> float:
        """A kernel rollout of random plays until every hand holds at most
        :attr:`tail` cards at a trick's start, then solved exactly (:class:`Solver`)."""
        assert isinstance(self.rollout, KernelRollout)
        core = self.rollout.kernel.core
        krng = core.rng_from(random.Random(det_seed))
        tail = self.tail
        while not s.done and (s.plays or max(s.sizes) > tail):
            s.apply(s.random_move_k(krng, 0.0))
        return Solver(seat, finals=finals).value(s)

    def _search(
        self,
        view: SeatView,
        cands: list[tuple[Card, ...]],
        starts: Callable[[Belief, Mapping[int, Sequence[Card]], Sequence[int]], list[Start]],
        rng_key: str,
        free: bool = False,
        solve: bool = False,
        infer: bool = False,
    ) -> list[Evaluation]:
        """Sample deals within the budget, play each candidate's start state out on the
        same deal (and rollout seed), and sort the candidates by paired difference (those
        :func:`prune` dropped last).
        ``free``: deal with :meth:`Belief.sample_free` when the belief allows it.
        ``solve``: kernel starts are solved exactly (:class:`~shengji.bots.endgame.Solver`,
        one per deal) instead of played out; a rollout budget counts
        :data:`NODES_PER_ROLLOUT` nodes as one rollout. ``infer``: a sampled deal is kept
        with its likelihood (:meth:`Belief.likelihood`), else sampled again (at most
        :data:`INFER_TRIES` times)."""
        assert view.seat is not None
        seat = view.seat
        belief = Belief(view, self.burial_prior)
        sample = Belief.sample_free if free and belief.free else Belief.sample
        rng = random.Random(rng_key)
        budget = self.budget
        deadline = math.inf
        if budget.seconds is not None:
            deadline = time.perf_counter() + budget.seconds
        limit = budget.rollouts
        soft = infer and bool(belief.soft_facts())
        values: list[list[float]] = [[] for _ in cands]
        scores: dict[tuple[object, ...], Finished] = {}
        finals: dict[tuple[object, ...], float] = {}
        done = 0
        capped = False
        active = list(range(len(cands)))
        check = PRUNE_FIRST if self.prune else math.inf
        while True:
            if len(values[0]) >= check:
                active = prune(values, active)
                check *= 2
            if limit is not None and done + len(active) > limit and done:
                break
            if done and time.perf_counter() >= deadline:
                capped = limit is not None
                break
            deal = sample(belief, rng)
            if soft:
                tries = 1
                while (
                    deal is not None
                    and tries < INFER_TRIES
                    and rng.random() >= belief.likelihood(deal)
                ):
                    deal = sample(belief, rng)
                    tries += 1
            if deal is None:
                break
            det_seed = rng.getrandbits(64)
            if solve:
                solver = Solver(seat, node_limit=SOLVE_NODES)
                try:
                    solved = []
                    for st in starts(belief, deal, active):
                        assert not isinstance(st, GameState)
                        solved.append(solver.value(st))
                except TooBig:
                    solve = False  # too wide a tree for the budget: roll this deal out
                else:
                    for i, v in zip(active, solved, strict=True):
                        values[i].append(v)
                    done += max(len(active), solver.nodes // NODES_PER_ROLLOUT)
                    continue
            for i, st in zip(active, starts(belief, deal, active), strict=True):
                if self.tail and not isinstance(st, GameState) and not self.rollout_light:
                    values[i].append(self._tail_value(st, seat, det_seed, finals))
                    continue
                if not isinstance(st, GameState):
                    assert isinstance(self.rollout, KernelRollout)
                    r = self.rollout.finish_kernel(st, random.Random(det_seed), scores)
                elif st.phase == "play":
                    r = self.rollout.finish(st, random.Random(det_seed))
                else:
                    r = finished(st)
                values[i].append(hand_value(r, seat))
            done += len(active)
        self.effort = Effort(done, len(values[0]), capped)
        if not values[0]:
            return []
        out = []
        for play, vs in zip(cands, values, strict=True):
            # a pruned candidate: over the deals it was played out on
            n = len(vs)
            diffs = [a - b for a, b in zip(vs, values[0], strict=False)]
            mean_d = sum(diffs) / n
            var = sum((d - mean_d) ** 2 for d in diffs) / (n - 1) if n > 1 else math.inf
            out.append(Evaluation(play, sum(vs) / n, mean_d, math.sqrt(var / n), n))
        # pruned candidates last: early noise must not make one of them the best
        full = len(values[0])
        out.sort(key=lambda e: (e.n < full, -e.diff))
        return out
