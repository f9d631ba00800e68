"""Perft-style regression figures (tests/data/perft.json, made by scripts/make_perft.py):
recompute every figure and compare."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from shengji.rules.cards import parse_cards
from shengji.rules.follow import count_legal_follows, is_legal_follow, legal_follows
from shengji.rules.leads import count_unit_leads, unit_leads
from shengji.rules.presets import load_preset
from shengji.rules.tricks import trick_winner
from shengji.rules.trump import TrumpContext
from shengji.rules.units import classify_lead

DATA = Path(__file__).parent / "data" / "perft.json"
POSITIONS: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["positions"]
ENUMERATE_BELOW = 5000


def ctx_of(pos: dict[str, Any]) -> TrumpContext:
    return TrumpContext(load_preset(pos["preset"]), pos["level"], pos["trump"])


def test_the_file_covers_presets_and_lead_kinds() -> None:
    assert len(POSITIONS) == 40
    assert len({p["id"] for p in POSITIONS}) == 40
    presets = Counter(p["preset"] for p in POSITIONS)
    assert set(presets) == {"shuangsheng", "shuangkou", "classic-3deck", "tuolaji", "classic-1deck"}
    kinds = {p["kind"] for p in POSITIONS}
    assert {"single", "pair", "triple", "tractor", "titanic", "throw"} <= kinds
    assert any(p["legal_follows"] >= 100_000 for p in POSITIONS)
    assert any(len(p["lead"].split()) >= 6 for p in POSITIONS)


@pytest.mark.parametrize("pos", POSITIONS, ids=[p["id"] for p in POSITIONS])
def test_perft_position(pos: dict[str, Any]) -> None:
    ctx = ctx_of(pos)
    lead, hand = parse_cards(pos["lead"]), parse_cards(pos["hand"])
    plays = [parse_cards(p) for p in pos["plays"]]
    lead_info = classify_lead(ctx, lead)
    kind = (
        "titanic"
        if lead_info.kind == "tractor" and lead_info.units[0].width == 3
        else (lead_info.kind)
    )
    assert kind == pos["kind"]
    assert plays[0] == lead
    assert all(len(p) == len(lead) for p in plays)
    # the stored follower's play is a legal follow from the stored hand
    assert is_legal_follow(ctx, lead, hand, plays[pos["follower_seat"]])

    count = count_legal_follows(ctx, lead, hand)
    assert count == pos["legal_follows"]
    if count < ENUMERATE_BELOW:
        listed = [tuple(sorted(c.index for c in p)) for p in legal_follows(ctx, lead, hand)]
        assert len(listed) == count
        assert len(set(listed)) == count
    assert count_unit_leads(ctx, hand) == pos["unit_leads"]
    assert sum(1 for _ in unit_leads(ctx, hand)) == pos["unit_leads"]
    assert trick_winner(ctx, plays) == pos["winner"]
