"""The rules-form schema: every option of every preset, labelled and explained in both
languages, with values the options accept back."""

from __future__ import annotations

from dataclasses import fields

import pytest

from shengji.errors import OptionError
from shengji.rules.options import RuleOptions
from shengji.rules.presets import load_preset, preset_names
from shengji.words.option_help import option_fields, option_schema


@pytest.mark.parametrize("preset", preset_names())
def test_every_option_of_every_preset_is_described(preset: str) -> None:
    schema = option_schema(preset)
    assert schema["name"] == preset
    assert schema["description"] and schema["seed"]
    for key in ("title", "about"):
        assert schema[key]["en"].strip() and schema[key]["zh"].strip()
    names = [o["name"] for o in schema["options"]]
    assert names == [f.name for f in fields(RuleOptions) if f.name != "name"]
    assert names == option_fields()
    for o in schema["options"]:
        assert o["type"] in ("bool", "int", "choice", "levels", "optional_int")
        for key in ("label", "help"):
            assert o[key]["en"].strip() and o[key]["zh"].strip(), (o["name"], key)
        if o["type"] in ("choice", "levels"):
            assert o["choices"]
        if "choice_labels" in o:
            assert set(o["choice_labels"]) == set(o["choices"])
            for text in o["choice_labels"].values():
                assert text["en"].strip() and text["zh"].strip()
        if o["type"] == "choice":
            assert o["value"] in o["choices"]
        if o["type"] == "levels":
            assert set(o["value"]) <= set(o["choices"])
        if o["type"] == "bool":
            assert isinstance(o["value"], bool)
        if o["type"] in ("int", "optional_int") and o["value"] is not None:
            assert o["value"] >= o["min"] and o["value"] <= o.get("max", o["value"])


@pytest.mark.parametrize("preset", preset_names())
def test_schema_values_are_the_preset(preset: str) -> None:
    values = {o["name"]: o["value"] for o in option_schema(preset)["options"]}
    assert load_preset(preset, values) == load_preset(preset)


def test_one_language() -> None:
    zh = option_schema("shuangkou", lang_independent=False, lang="zh")
    assert all(isinstance(o["label"], str) and o["label"] for o in zh["options"])
    j_hook = next(o for o in zh["options"] if o["name"] == "j_hook")
    assert j_hook["label"] == "钩底" and j_hook["value"] is True
    assert zh["title"] == "双抠"


def test_unknown_preset() -> None:
    with pytest.raises(OptionError) as e:
        option_schema("bridge")
    assert e.value.code == "UNKNOWN_PRESET"
