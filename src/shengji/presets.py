"""The presets — the seven of RULES.md §8 and `botzone` (Botzone's 双升) — shipped as TOML
files in ``shengji/presets/``.

>>> " ".join(preset_names()[:5])
'botzone classic classic-1deck classic-3deck shuangkou'
>>> " ".join(preset_names()[5:])
'shuangsheng shuangsheng-super tuolaji tuolaji-4deck'
>>> load_preset("shuangsheng").throw_penalty
'stake'
>>> load_preset("bridge")
Traceback (most recent call last):
...
shengji.errors.OptionError: UNKNOWN_PRESET: unknown preset 'bridge'; presets: botzone, ...
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

from .errors import Code, OptionError
from .options import RuleOptions

DEFAULT_PRESET = "shuangsheng"


def preset_names() -> list[str]:
    """Names of the shipped presets."""
    files = resources.files("shengji") / "presets"
    return sorted(p.name[:-5] for p in files.iterdir() if p.name.endswith(".toml"))


@functools.cache
def _preset_file(name: str) -> dict[str, Any]:
    if name not in preset_names():
        raise OptionError(
            f"unknown preset {name!r}; presets: {', '.join(preset_names())}",
            code=Code.UNKNOWN_PRESET,
        )
    text = (resources.files("shengji") / "presets" / f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _preset_data(name: str) -> dict[str, Any]:
    return {k: v for k, v in _preset_file(name).items() if k not in ("description", "seed")}


@functools.cache
def _load(name: str) -> RuleOptions:
    return RuleOptions(name=name, **_preset_data(name))


def load_preset(name: str, overrides: Mapping[str, Any] | None = None) -> RuleOptions:
    """The options of preset ``name`` with optional overrides (validated)."""
    opts = _load(name)
    return opts.with_overrides(overrides) if overrides else opts


def preset_description(name: str) -> str:
    """The one-line description stored with a preset."""
    return str(_preset_file(name).get("description", ""))


def preset_seed(name: str) -> str:
    """The seed texts a preset follows (``"000, 004"``: ../shared/seeds)."""
    return str(_preset_file(name).get("seed", ""))
