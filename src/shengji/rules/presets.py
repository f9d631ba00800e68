"""The presets — the seven of RULES.md §8, `botzone` (Botzone's 双升) and the project's
找朋友 `zhaopengyou` — shipped as TOML files in ``shengji/rules/presets/``.

>>> " ".join(preset_names()[:5])
'botzone classic classic-1deck classic-3deck shuangkou'
>>> " ".join(preset_names()[5:])
'shuangsheng shuangsheng-super tuolaji tuolaji-4deck zhaopengyou'
>>> load_preset("shuangsheng").throw_penalty
'stake'
>>> load_preset("bridge")
Traceback (most recent call last):
...
shengji.errors.OptionError: UNKNOWN_PRESET: unknown preset 'bridge'; presets: botzone, ...
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from typing import Any

from ..errors import Code, OptionError
from .options import RuleOptions

DEFAULT_PRESET = "shuangsheng"

_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-"
_KEY_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


def preset_names() -> list[str]:
    """Names of the shipped presets."""
    from importlib import resources

    files = resources.files("shengji.rules") / "presets"
    return sorted(p.name[:-5] for p in files.iterdir() if p.name.endswith(".toml"))


def _preset_text(name: str) -> str | None:
    """The TOML text of preset ``name`` (None: no such preset). Read from the package's
    folder directly when it is one (cheap: no ``importlib.resources``), else as a resource
    (the package in a zip archive)."""
    if not name or name.strip(_NAME_CHARS):  # a file name of the folder, nothing else
        return None
    try:
        path = os.path.join(os.path.dirname(__file__), "presets", f"{name}.toml")
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        pass
    from importlib import resources

    try:
        return (resources.files("shengji.rules") / "presets" / f"{name}.toml").read_text(
            encoding="utf-8"
        )
    except OSError:
        return None


@functools.cache
def _preset_file(name: str) -> dict[str, Any]:
    text = _preset_text(name)
    if text is None:
        raise OptionError(
            f"unknown preset {name!r}; presets: {', '.join(preset_names())}",
            code=Code.UNKNOWN_PRESET,
        )
    flat = read_flat(text)
    if flat is not None:
        return flat
    import tomllib

    return tomllib.loads(text)


def read_flat(text: str) -> dict[str, Any] | None:
    r"""The presets' TOML read without ``tomllib`` when every line is blank, a ``#`` comment
    or ``bare_key = value`` with a value JSON reads the same way (a string in double
    quotes, an integer, ``true``, ``false``, an array of those); None for anything else,
    which ``tomllib`` reads. ``tomllib`` costs a program started once per move (a Botzone
    turn) more than the rest of reading a preset; the tests check that every shipped preset
    reads the same both ways.

    >>> read_flat('# rules\ndecks = 2\nname = "x"\nlevels = ["3", "A"]\nok = true\n')
    {'decks': 2, 'name': 'x', 'levels': ['3', 'A'], 'ok': True}
    >>> read_flat("decks = 2  # two") is None, read_flat("a.b = 1") is None
    (True, True)
    """
    import json

    out: dict[str, Any] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = (part.strip() for part in line.partition("="))
        if not sep or not key or key.strip(_KEY_CHARS) or key in out or value[:1] == "{":
            return None
        try:
            out[key] = json.loads(value, parse_constant=_no_constant)
        except ValueError:
            return None
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not TOML")


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
