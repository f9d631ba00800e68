"""shengji: an exact rules engine for 升级 / 拖拉机 (Shengji, Tractor) and its variants.

The public rules API, the game flow and records are re-exported here; see
``docs/api.md`` and ``docs/game.md`` for worked examples. Every name (the rules API, the
game flow, the move model, records, ``__version__``) loads its module when first used,
so that ``import shengji`` and any ``shengji.<module>`` import only what they use:
programs started once per move (a Botzone turn) stay cheap.

>>> import shengji
>>> st = shengji.new_match(shengji.load_preset("shuangsheng"), seed=1)
>>> seat = st.to_act
>>> st, events = shengji.apply(st, seat, shengji.Pass())
>>> shengji.observe(st, seat)["phase"]
'deal'
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the lazy names are, for type checkers
    from .errors import CardError, DeclarationError, OptionError, PlayError, ShengjiError
    from .game.actions import Action, ActionError, Bury, Call, Continue, Declare, Pass, Play
    from .game.flow import apply, new_match
    from .game.legal import legal_actions, legal_shows
    from .game.moves import DONE, Decision, action_indexes
    from .game.record import Recorder, load_record, make_record, save_record, verify
    from .game.state import GameState
    from .game.views import SeatView, observe, seat_view
    from .rules.cards import (
        ALL_CARDS,
        Card,
        Suit,
        deck,
        format_cards,
        parse_card,
        parse_cards,
        points,
    )
    from .rules.declaring import DeclareState, apply_show, replay_shows, start_state
    from .rules.follow import (
        check_follow,
        count_legal_follows,
        is_legal_follow,
        legal_follows,
        random_legal_follow,
    )
    from .rules.leads import check_lead, count_unit_leads, unit_leads
    from .rules.options import RuleOptions
    from .rules.presets import load_preset, preset_names
    from .rules.scoring import hand_outcome, kitty_bonus, kitty_multiplier, level_change
    from .rules.throws import ThrowResult, check_throw
    from .rules.tricks import trick_winner
    from .rules.trump import TRUMP, TrumpContext
    from .rules.units import Lead, Unit, classify_lead, decompose, lead_kind

#: Every public name and the module it comes from, loaded on first use: a program started
#: once per move (a Botzone turn) imports only the modules it needs.
_MODULES = {
    "game.actions": "Action ActionError Bury Call Continue Declare Pass Play",
    "rules.cards": "ALL_CARDS Card Suit deck format_cards parse_card parse_cards points",
    "rules.declaring": "DeclareState apply_show replay_shows start_state",
    "errors": "CardError DeclarationError OptionError PlayError ShengjiError",
    "rules.follow": (
        "check_follow count_legal_follows is_legal_follow legal_follows random_legal_follow"
    ),
    "game.state": "GameState",
    "game.flow": "apply new_match",
    "game.legal": "legal_actions legal_shows",
    "rules.leads": "check_lead count_unit_leads unit_leads",
    "game.moves": "DONE Decision action_indexes",
    "rules.options": "RuleOptions",
    "rules.presets": "load_preset preset_names",
    "game.record": "Recorder load_record make_record save_record verify",
    "rules.scoring": "hand_outcome kitty_bonus kitty_multiplier level_change",
    "rules.throws": "ThrowResult check_throw",
    "rules.tricks": "trick_winner",
    "rules.trump": "TRUMP TrumpContext",
    "rules.units": "Lead Unit classify_lead decompose lead_kind",
    "game.views": "SeatView observe seat_view",
}
_LAZY = {name: module for module, names in _MODULES.items() for name in names.split()}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:  # the one version is in pyproject.toml; installed metadata carries it here
            value = version("shengji")
        except PackageNotFoundError:  # pragma: no cover - a source tree not installed
            value = "0+unknown"
    elif name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    else:
        raise AttributeError(f"module 'shengji' has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = [
    "ALL_CARDS",
    "DONE",
    "TRUMP",
    "Action",
    "ActionError",
    "Bury",
    "Call",
    "Card",
    "CardError",
    "Continue",
    "Decision",
    "DeclarationError",
    "Declare",
    "DeclareState",
    "GameState",
    "Lead",
    "OptionError",
    "Pass",
    "Play",
    "PlayError",
    "Recorder",
    "RuleOptions",
    "SeatView",
    "ShengjiError",
    "Suit",
    "ThrowResult",
    "TrumpContext",
    "Unit",
    "__version__",
    "action_indexes",
    "apply",
    "apply_show",
    "check_follow",
    "check_lead",
    "check_throw",
    "classify_lead",
    "count_legal_follows",
    "count_unit_leads",
    "deck",
    "decompose",
    "format_cards",
    "hand_outcome",
    "is_legal_follow",
    "kitty_bonus",
    "kitty_multiplier",
    "lead_kind",
    "legal_actions",
    "legal_follows",
    "legal_shows",
    "level_change",
    "load_preset",
    "load_record",
    "make_record",
    "new_match",
    "observe",
    "parse_card",
    "parse_cards",
    "points",
    "preset_names",
    "random_legal_follow",
    "replay_shows",
    "save_record",
    "seat_view",
    "start_state",
    "trick_winner",
    "unit_leads",
    "verify",
]
