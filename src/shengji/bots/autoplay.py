"""Choosing a legal action from a ``state`` message alone (what a protocol client sees),
with the rules library: used by scripted clients, the load generator and tests.

The rules come from the room's ``options`` in the message (the options the server plays
by, overrides applied), never rebuilt from the preset name."""

from __future__ import annotations

import functools
import itertools
import json
import random
from typing import Any

from ..rules.cards import Suit, parse_cards, parse_rank
from ..rules.follow import legal_follows, random_legal_follow
from ..rules.friends import format_calls
from ..rules.leads import unit_lead_list
from ..rules.options import RuleOptions
from ..rules.phases import DECLARING_PHASES
from ..rules.trump import TrumpContext, trump_context
from ..rules.units import classify_lead
from .heuristic import friend_calls


@functools.lru_cache(maxsize=64)
def _options(options: str) -> RuleOptions:
    return RuleOptions(**json.loads(options))


def _rules(state: dict[str, Any]) -> tuple[RuleOptions, TrumpContext]:
    """The room's options and the hand's trump context."""
    view = state["view"]
    opts = _options(json.dumps(state["room"]["options"], sort_keys=True))
    trump = view["trump"]
    ctx = trump_context(
        opts, parse_rank(view["level"]), None if trump in (None, "NT") else Suit[trump]
    )
    return opts, ctx


def made_by_itself(state: dict[str, Any]) -> bool:
    """Whether a table with ``auto_play`` makes the client's play for it (after the bots'
    delay): its only legal follow, or its last card. A client that plays it too meanwhile
    finds its cards gone."""
    view = state["view"]
    if not state["room"].get("auto_play") or view["phase"] != "play":
        return False
    hand = parse_cards(view["hand"])
    if len(hand) == 1:
        return True
    if not view["trick"]:
        return False
    _, ctx = _rules(state)
    lead = classify_lead(ctx, parse_cards(view["trick"][0]["cards"]))
    return len(list(itertools.islice(legal_follows(ctx, lead, hand), 2))) == 1


def choose_action(state: dict[str, Any], rng: random.Random | None = None) -> dict[str, Any]:
    """A legal action for the client's seat: with ``rng`` a random one, else the first
    (passing on single shows, burying the first cards, the lowest lead); a 找朋友 banker
    calls the heuristic bot's friends."""
    view = state["view"]
    phase = view["phase"]
    if phase == "hand_over":
        return {"type": "continue"}
    if phase in DECLARING_PHASES:
        shows = [s for s in state.get("shows") or [] if len(s.split()) >= 2]
        if shows and (rng is None or rng.random() < 0.5):
            return {"type": "declare", "cards": shows[0]}
        return {"type": "pass"}
    opts, ctx = _rules(state)
    hand = parse_cards(view["hand"])
    if phase == "bury":
        cards = rng.sample(hand, opts.kitty_size) if rng else hand[: opts.kitty_size]
        return {"type": "bury", "cards": " ".join(c.text for c in cards)}
    if phase == "call":  # 找朋友: the heuristic's calls (an ace the banker lacks, ...)
        return {"type": "call", "calls": format_calls(friend_calls(ctx, hand, opts))}
    if view["trick"]:
        lead = classify_lead(ctx, parse_cards(view["trick"][0]["cards"]))
        if rng is not None:
            play = random_legal_follow(ctx, lead, hand, rng)
        else:
            play = next(legal_follows(ctx, lead, hand))
    else:
        leads = unit_lead_list(ctx, hand)
        play = rng.choice(leads) if rng else leads[-1]
    return {"type": "play", "cards": " ".join(c.text for c in play)}
