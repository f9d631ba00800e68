"""The phases of a hand, named once for every module.

A hand goes ``deal`` → ``before_kitty`` (showing after the deal) → ``bury`` →
``after_burial`` (counter-declaring, 反主炒底/反底, where the rules have it; a counter
leads to ``bury`` again) → ``call`` (找朋友 only: the banker calls friends) → ``play`` →
``hand_over``; the last hand ends in ``match_over``. Shows are made in the three
:data:`DECLARING_PHASES`.

>>> "after_burial" in DECLARING_PHASES, "bury" in DECLARING_PHASES
(True, False)
"""

from __future__ import annotations

from typing import Literal

Phase = Literal[
    "deal", "before_kitty", "bury", "after_burial", "call", "play", "hand_over", "match_over"
]
"""Where a hand (or the match) stands."""

DeclaringPhase = Literal["deal", "before_kitty", "after_burial"]
"""A phase in which trump may be shown (报主, 反主, 定主, 反底)."""

DECLARING_PHASES: tuple[DeclaringPhase, ...] = ("deal", "before_kitty", "after_burial")
"""Every :data:`DeclaringPhase`, in the order a hand reaches them."""
