"""Presets (RULES.md §8), option names and values (§9), overrides and their errors."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from shengji.errors import OptionError
from shengji.rules.options import RuleOptions, load_overrides_file, parse_override
from shengji.rules.presets import load_preset, preset_description, preset_names

# RULES.md §8: decks, start, constant 2s, kitty bonus, throw penalty, level table, max_gain,
# must-play, J hook, match end; then the "Also:" lines (no_declaration,
# counter_takes_banker, joker_links_level) and the declaring system of §7.
TABLE: dict[str, dict[str, Any]] = {
    "shuangsheng": dict(
        decks=2,
        start_level=2,
        constant_twos=False,
        kitty_multiplier="linear",
        throw_penalty="stake",
        coins=True,
        level_table="super",
        max_gain=3,
        must_play_levels=(),
        j_hook=False,
        match_end="wrap",
        no_declaration="kitty_card_3",
        counter_takes_banker=False,
        joker_links_level=True,
        declaring="shuangsheng",
    ),
    "shuangsheng-super": dict(
        decks=2,
        start_level=2,
        constant_twos=False,
        kitty_multiplier="linear",
        throw_penalty="stake",
        coins=True,
        level_table="super",
        max_gain=6,
        must_play_levels=(),
        j_hook=False,
        match_end="wrap",
        no_declaration="kitty_card_3",
        counter_takes_banker=False,
        joker_links_level=True,
        declaring="shuangsheng",
    ),
    "classic": dict(
        decks=2,
        start_level=2,
        constant_twos=False,
        kitty_multiplier="widest",
        throw_penalty="none",
        level_table="classic",
        max_gain=None,
        must_play_levels=(),
        j_hook=False,
        match_end="reach_ace",
        no_declaration="redeal",
        counter_takes_banker=True,
        joker_links_level=True,
        declaring="classic",
    ),
    "classic-1deck": dict(
        decks=1,
        start_level=2,
        constant_twos=False,
        kitty_multiplier="widest",
        throw_penalty="none",
        level_table="classic-1deck",
        max_gain=None,
        must_play_levels=(),
        j_hook=False,
        match_end="reach_ace",
        no_declaration="redeal",
        counter_takes_banker=True,
        joker_links_level=True,
        declaring="classic",
    ),
    "classic-3deck": dict(
        decks=3,
        start_level=2,
        constant_twos=False,
        kitty_multiplier="widest",
        throw_penalty="none",
        level_table="classic-3deck",
        max_gain=None,
        must_play_levels=(),
        j_hook=False,
        match_end="reach_ace",
        no_declaration="redeal",
        counter_takes_banker=True,
        joker_links_level=True,
        declaring="classic",
    ),
    "shuangkou": dict(
        decks=2,
        start_level=3,
        constant_twos=True,
        kitty_multiplier="doubling",
        throw_penalty="per_card",
        level_table="shuangkou",  # RULES.md §6: 双抠 follows its own table
        max_gain=None,
        must_play_levels=(3, 5, 10, 11, 13, 14),
        j_hook=True,
        match_end="defend_ace",
        no_declaration="kitty_card_4",
        counter_takes_banker=False,
        joker_links_level=True,
        declaring="shuangkou",
    ),
    "tuolaji": dict(
        decks=2,
        start_level=2,
        constant_twos=False,
        kitty_multiplier="doubling",
        throw_penalty="none",
        level_table="standard",
        max_gain=None,
        must_play_levels=(),
        j_hook=False,
        match_end="reach_ace",
        no_declaration="no_trump",
        counter_takes_banker=False,
        joker_links_level=True,
        declaring="tuolaji",
    ),
    "botzone": dict(
        decks=2,
        start_level=2,
        constant_twos=False,
        kitty_multiplier="card_count",
        throw_penalty="flat_per_card",
        level_table="botzone",
        max_gain=None,
        must_play_levels=(),
        j_hook=False,
        match_end="wrap",
        no_declaration="no_trump",
        counter_takes_banker=True,
        joker_links_level=False,
        declaring="botzone",
        level_cards_link=False,
        throw_forced="single",
        fixed_level=2,
    ),
}

CANONICAL = {
    "decks",
    "start_level",
    "constant_twos",
    "joker_links_level",
    "kitty_multiplier",
    "throw_penalty",
    "level_table",
    "max_gain",
    "must_play_levels",
    "j_hook",
    "match_end",
    "no_declaration",
    "counter_takes_banker",
}


# not in RULES.md §8: seed 003 allows 1-4 decks ("通常使用1-4副牌不等")
TABLE["tuolaji-4deck"] = {**TABLE["tuolaji"], "decks": 4}


def test_every_preset_exists() -> None:
    # and the project's 找朋友 preset (tests/test_friends.py)
    assert preset_names() == sorted([*TABLE, "zhaopengyou"])


@pytest.mark.parametrize("name", sorted(TABLE))
def test_preset_matches_rule_book_table(name: str) -> None:
    opts = load_preset(name)
    assert opts.name == name
    got = {k: getattr(opts, k) for k in TABLE[name]}
    assert got == TABLE[name]
    assert preset_description(name)
    assert opts.total_points == 100 * opts.decks
    assert opts.kitty_size == {1: 6, 2: 8, 3: 6, 4: 8}[opts.decks]
    assert opts.hand_size == {1: 12, 2: 25, 3: 39, 4: 52}[opts.decks]


@pytest.mark.parametrize("name", sorted(TABLE))
def test_preset_to_dict_uses_canonical_names_and_round_trips(name: str) -> None:
    opts = load_preset(name)
    d = opts.to_dict()
    assert set(d) >= CANONICAL
    assert isinstance(d["start_level"], str)
    assert all(isinstance(r, str) for r in d["must_play_levels"])
    again = RuleOptions(**d)
    assert again == opts


def test_shuangkou_must_play_levels_as_text() -> None:
    assert load_preset("shuangkou").to_dict()["must_play_levels"] == ["3", "5", "10", "J", "K", "A"]


def test_with_overrides_returns_a_new_value() -> None:
    base = load_preset("tuolaji")
    opts = base.with_overrides(
        {
            "decks": 3,
            "constant_twos": True,
            "start_level": "3",
            "must_play_levels": ["5", "J"],
            "max_gain": "4",
            "throw_penalty": "per_attempt",
        }
    )
    assert (opts.decks, opts.constant_twos, opts.start_level) == (3, True, 3)
    assert opts.must_play_levels == (5, 11)
    assert opts.max_gain == 4
    assert opts.throw_penalty == "per_attempt"
    assert opts.kitty_size == 6
    # the preset itself is untouched
    assert base == load_preset("tuolaji")
    assert base.decks == 2 and not base.constant_twos
    assert load_preset("tuolaji", {"decks": 3}) == base.with_overrides({"decks": 3})


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("decks=3", ("decks", 3)),
        (" decks = 4 ", ("decks", 4)),
        ("j_hook=false", ("j_hook", False)),
        ("constant_twos=true", ("constant_twos", True)),
        ("level_table=super", ("level_table", "super")),
        ('level_table="classic"', ("level_table", "classic")),
        ('must_play_levels=["3", "J"]', ("must_play_levels", ["3", "J"])),
        ("start_level=3", ("start_level", 3)),
        ("max_gain=null", ("max_gain", "null")),
    ],
)
def test_parse_override(text: str, pair: tuple[str, Any]) -> None:
    assert parse_override(text) == pair


def test_parse_override_values_apply() -> None:
    opts = load_preset("shuangsheng")
    for text, attr, value in [
        ("decks=3", "decks", 3),
        ("j_hook=true", "j_hook", True),
        ("start_level=J", "start_level", 11),
        ("must_play_levels=3,5,A", "must_play_levels", (3, 5, 14)),
        ("must_play_levels=[]", "must_play_levels", ()),
        ("max_gain=null", "max_gain", None),
        ("max_gain=2", "max_gain", 2),
        ("throw_penalty=per_card", "throw_penalty", "per_card"),
    ]:
        k, v = parse_override(text)
        assert getattr(opts.with_overrides({k: v}), attr) == value, text


def test_parse_override_without_equals() -> None:
    with pytest.raises(OptionError) as exc:
        parse_override("decks")
    assert exc.value.code == "BAD_OPTION_VALUE"


def test_load_overrides_file(tmp_path: Path) -> None:
    p = tmp_path / "house.toml"
    p.write_text(
        'decks = 3\nthrow_penalty = "per_attempt"\nmust_play_levels = ["5", "10"]\nj_hook = true\n',
        encoding="utf-8",
    )
    ov = load_overrides_file(p)
    assert ov == {
        "decks": 3,
        "throw_penalty": "per_attempt",
        "must_play_levels": ["5", "10"],
        "j_hook": True,
    }
    opts = load_preset("classic", ov)
    assert (opts.decks, opts.throw_penalty, opts.must_play_levels, opts.j_hook) == (
        3,
        "per_attempt",
        (5, 10),
        True,
    )
    assert opts.level_table == "classic"  # untouched options keep the preset's values


def test_load_overrides_file_options_table(tmp_path: Path) -> None:
    p = tmp_path / "house.toml"
    p.write_text('[options]\nkitty_multiplier = "linear"\n', encoding="utf-8")
    assert load_overrides_file(p) == {"kitty_multiplier": "linear"}


def test_load_overrides_file_errors(tmp_path: Path) -> None:
    with pytest.raises(OptionError) as exc:
        load_overrides_file(tmp_path / "missing.toml")
    assert exc.value.code == "BAD_OPTION_VALUE"
    bad = tmp_path / "bad.toml"
    bad.write_text("decks = = 3\n", encoding="utf-8")
    with pytest.raises(OptionError) as exc:
        load_overrides_file(bad)
    assert exc.value.code == "BAD_OPTION_VALUE"
    assert "TOML" in exc.value.message


@pytest.mark.parametrize("key", ["deck", "trump", "throwpenalty", ""])
def test_unknown_option(key: str) -> None:
    with pytest.raises(OptionError) as exc:
        load_preset("shuangsheng").with_overrides({key: 1})
    assert exc.value.code == "UNKNOWN_OPTION"
    assert exc.value.message
    with pytest.raises(OptionError) as exc:
        load_preset("shuangsheng", {key: 1})
    assert exc.value.code == "UNKNOWN_OPTION"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("decks", 7),
        ("decks", 0),
        ("decks", "x"),
        ("decks", True),
        ("decks", 2.5),
        ("kitty_multiplier", "x"),
        ("kitty_multiplier", "Linear"),
        ("throw_penalty", "always"),
        ("level_table", "huge"),
        ("match_end", "never"),
        ("no_declaration", "kitty_card_9"),
        ("declaring", "bridge"),
        ("start_level", "1"),
        ("start_level", 15),
        ("start_level", "Z"),
        ("must_play_levels", ["Z"]),
        ("must_play_levels", ["3", "1"]),
        ("must_play_levels", 5),
        ("constant_twos", "maybe"),
        ("j_hook", 2),
        ("max_gain", 0),
        ("max_gain", "lots"),
        ("base_stake", -1),
        ("name", ""),
    ],
)
def test_bad_option_values(key: str, value: Any) -> None:
    with pytest.raises(OptionError) as exc:
        load_preset("shuangkou").with_overrides({key: value})
    assert exc.value.code == "BAD_OPTION_VALUE"
    assert repr(key) in exc.value.message


def test_bad_value_in_constructor() -> None:
    with pytest.raises(OptionError) as exc:
        RuleOptions(decks=7)
    assert exc.value.code == "BAD_OPTION_VALUE"


@pytest.mark.parametrize(
    "name", ["bridge", "", "Shuangsheng", "classic-2deck", "../presets/botzone", "botzone.toml"]
)
def test_unknown_preset(name: str) -> None:
    with pytest.raises(OptionError) as exc:
        load_preset(name)
    assert exc.value.code == "UNKNOWN_PRESET"
    assert "shuangsheng" in exc.value.message  # lists the known presets


@pytest.mark.parametrize("name", sorted(TABLE))
def test_a_preset_file_reads_the_same_without_tomllib(name: str) -> None:
    import tomllib

    from shengji.rules.presets import _preset_text, read_flat

    text = _preset_text(name)
    assert text is not None
    assert read_flat(text) == tomllib.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        "a = NaN",  # JSON's constant, not TOML
        'a = {"x": 1}',  # JSON's object, not TOML's inline table
        'a = "x"\na = "y"',  # a key twice
        "a = [1,]",  # TOML's trailing comma
        "[table]\na = 1",
        "a.b = 1",  # a dotted key
        "a = 1_000",
        "a = 1  # a comment after the value",
        "a = 'literal'",
    ],
)
def test_other_toml_is_left_to_tomllib(text: str) -> None:
    from shengji.rules.presets import read_flat

    assert read_flat(text) is None


def test_rule_options_are_frozen() -> None:
    opts = load_preset("shuangsheng")
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.decks = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.must_play_levels = (3,)  # type: ignore[misc]
    assert opts.decks == 2
    assert hash(opts) == hash(load_preset("shuangsheng"))


def test_text_values_are_coerced() -> None:
    text: dict[str, Any] = {
        "decks": "3",
        "start_level": "J",
        "constant_twos": "yes",
        "max_gain": "none",
        "j_hook": "off",
    }
    opts = RuleOptions(**text)
    assert (opts.decks, opts.start_level, opts.constant_twos, opts.max_gain, opts.j_hook) == (
        3,
        11,
        True,
        None,
        False,
    )
