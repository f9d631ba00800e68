"""The default kernel core and the tables of a trump context, for the rules API
(``shengji.rules.units``, ``follow``, ``leads``, ``throws``, ``tricks``), which answers from the
kernel on :class:`~shengji.rules.cards.Card` objects; :class:`CoreKernel`, one
core and its tables (:class:`shengji.engine.rollout.Kernel` adds the rollouts). Imports
nothing above the kernel."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..errors import Code, OptionError
from .loader import load_core

if TYPE_CHECKING:
    from ..rules.phases import Phase

#: The kernel's hand phases (``_core.PH_*``) by number, named as the game engine names
#: them (``PH_OVER`` is ``hand_over``; ``PH_REDEAL`` is never a state's phase).
PHASE_NAMES: dict[int, Phase] = {
    0: "deal",
    1: "before_kitty",
    2: "bury",
    3: "after_burial",
    4: "play",
    5: "hand_over",
    7: "call",
}

if TYPE_CHECKING:
    from ..rules.options import RuleOptions
    from ..rules.trump import TrumpContext
    from ._core import HandRules, ScoreRules, Tables

#: ``throw_penalty`` option values as the kernel's codes.
PENALTY = {"none": 0, "per_card": 1, "per_attempt": 2, "stake": 3, "flat_per_card": 4}

#: ``declaring`` and ``no_declaration`` option values as the kernel's codes.
DECLARING = {
    "shuangsheng": 0,
    "shuangkou": 1,
    "classic": 2,
    "tuolaji": 3,
    "botzone": 4,
    "count": 5,
    "ladder": 6,
}
#: ``throw_forced`` option values as the kernel's codes.
FORCED = {"unit": 0, "single": 1, "smallest": 2}
NO_DECLARATION = {"kitty_card_3": 0, "kitty_card_4": 1, "no_trump": 2, "redeal": 3}

_CORE: list[Any] = []


def core() -> Any:
    """The kernel core the product runs: compiled unless ``SHENGJI_PURE=1``."""
    if not _CORE:
        _CORE.append(load_core())
    return _CORE[0]


def build_tables(kernel_core: Any, ctx: TrumpContext) -> Tables:
    """New kernel tables of ``ctx`` for ``kernel_core``."""
    opts = ctx.options
    mode = opts.throw_penalty
    if mode not in PENALTY:
        raise OptionError(
            f"the kernel does not know throw_penalty {mode!r}", code=Code.BAD_OPTION_VALUE
        )
    tables: Tables = kernel_core.Tables(
        list(ctx.suit_of),
        list(ctx.strength),
        list(ctx.key),
        list(ctx.tiebreak),
        PENALTY[mode],
        FORCED[opts.throw_forced],
        opts.follow_shorter_tractor,
        opts.throw_penalty_side == "final",
    )
    return tables


#: ``kitty_multiplier``, ``level_table`` and ``match_end`` option values as the kernel's
#: codes (``_core.KM_*``, ``LT_*``, ``ME_*``).
KITTY_MULTIPLIER = {"linear": 0, "doubling": 1, "widest": 2, "card_count": 3, "all_cards": 4}
LEVEL_TABLE = {
    "standard": 0,
    "super": 1,
    "classic": 2,
    "classic-1deck": 3,
    "classic-3deck": 4,
    "classic-1deck-45": 5,
    "shuangkou": 6,
    "botzone": 7,
    "standard-fixed": 8,
}
MATCH_END = {"defend_ace": 0, "reach_ace": 1, "wrap": 2}


def score_rules(kernel_core: Any, options: RuleOptions) -> ScoreRules:
    """The kernel's ``ScoreRules`` of ``options``."""
    rules: ScoreRules = kernel_core.ScoreRules(
        options.decks,
        KITTY_MULTIPLIER[options.kitty_multiplier],
        LEVEL_TABLE[options.level_table],
        -1 if options.max_gain is None else options.max_gain,
        list(options.must_play_levels),
        options.j_hook,
        MATCH_END[options.match_end],
        -1 if options.match_hands is None else options.match_hands,
        options.coins,
        options.base_stake,
        options.stake_doubling,
        options.calls,
        options.small_side_bonus,
        options.friend_passes_ace,
    )
    return rules


def hand_rules(kernel_core: Any, options: RuleOptions, team: list[int]) -> HandRules:
    """The kernel's ``HandRules`` of ``options`` for seats on the sides ``team``."""
    rules: HandRules = kernel_core.HandRules(
        options.decks,
        options.hand_size,
        options.kitty_size,
        DECLARING[options.declaring],
        options.counter_takes_banker,
        NO_DECLARATION[options.no_declaration],
        team,
        options.calls,
        options.call_trump_suit,
        -1 if options.weak_redeal is None else options.weak_redeal,
    )
    return rules


def tables(ctx: TrumpContext) -> Tables:
    """The default core's tables of ``ctx`` (built once, kept on the context)."""
    hit = ctx.kernel_tables
    if hit is None:
        hit = build_tables(core(), ctx)
        ctx.kernel_tables = hit
    return hit  # type: ignore[return-value]


def ints(cards: Any) -> list[int]:
    """Card objects as the kernel's ints."""
    result: list[int] = core().card_ints(cards)
    return result


def counts(cards: Any) -> list[int]:
    """Card objects as 54 counts."""
    result: list[int] = core().hand_counts(cards)
    return result


class CoreKernel:
    """One ``_core`` (compiled or pure) and its tables, cached per (options, level,
    trump). The rollouts over it are :class:`shengji.engine.rollout.Kernel`'s."""

    def __init__(self, pure: bool | None = None, core: ModuleType | None = None) -> None:
        self.core: ModuleType = core if core is not None else load_core(pure)
        self._tables: dict[tuple[RuleOptions, int, object], Tables] = {}

    @property
    def is_compiled(self) -> bool:
        """True when this kernel runs the mypyc-compiled core."""
        return not str(getattr(self.core, "__file__", "")).endswith(".py")

    def tables(self, ctx: TrumpContext) -> Tables:
        """The kernel tables of a trump context (built once)."""
        if self.core is core():
            return tables(ctx)
        key = (ctx.options, ctx.level, ctx.trump)
        hit = self._tables.get(key)
        if hit is None:
            hit = build_tables(self.core, ctx)
            self._tables[key] = hit
        return hit


_DEFAULT: list[CoreKernel] = []


def default_core_kernel() -> CoreKernel:
    """The process-wide kernel, on the product's core (:func:`core`: compiled unless
    ``SHENGJI_PURE=1``)."""
    kernel_core = core()
    if not _DEFAULT or _DEFAULT[0].core is not kernel_core:
        _DEFAULT[:] = [CoreKernel(core=kernel_core)]
    return _DEFAULT[0]
