"""shengji: an exact rules engine for 升级 / 拖拉机 (Shengji, Tractor) and its variants.

The public rules API is re-exported here; see ``docs/api.md`` for worked examples.
"""

from importlib.metadata import PackageNotFoundError, version

from .cards import ALL_CARDS, Card, Suit, deck, format_cards, parse_card, parse_cards, points
from .declaring import DeclareState, apply_show, replay_shows, start_state
from .errors import CardError, DeclarationError, OptionError, PlayError, ShengjiError
from .follow import (
    check_follow,
    count_legal_follows,
    is_legal_follow,
    legal_follows,
    random_legal_follow,
)
from .leads import check_lead, count_unit_leads, unit_leads
from .options import RuleOptions
from .presets import load_preset, preset_names
from .scoring import hand_outcome, kitty_bonus, kitty_multiplier, level_change
from .throws import ThrowResult, check_throw
from .tricks import trick_winner
from .trump import TRUMP, TrumpContext
from .units import Lead, Unit, classify_lead, decompose, lead_kind

try:  # the one version is in pyproject.toml; installed metadata carries it here
    __version__ = version("shengji")
except PackageNotFoundError:  # pragma: no cover - a source tree that is not installed
    __version__ = "0+unknown"

__all__ = [
    "ALL_CARDS",
    "TRUMP",
    "Card",
    "CardError",
    "DeclarationError",
    "DeclareState",
    "Lead",
    "OptionError",
    "PlayError",
    "RuleOptions",
    "ShengjiError",
    "Suit",
    "ThrowResult",
    "TrumpContext",
    "Unit",
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
    "legal_follows",
    "level_change",
    "load_preset",
    "parse_card",
    "parse_cards",
    "points",
    "preset_names",
    "random_legal_follow",
    "replay_shows",
    "start_state",
    "trick_winner",
    "unit_leads",
]
