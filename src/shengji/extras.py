"""Which optional dependencies (extras) a part of the package needs, checked at import."""

from __future__ import annotations

import importlib.util


def require(part: str, extra: str, *modules: str) -> None:
    """Raise ``ModuleNotFoundError`` naming ``extra`` (and how to install it) when one of
    ``modules`` is not installed: ``part`` cannot run without it."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise missing_extra(part, extra, ModuleNotFoundError(name=", ".join(missing)))


def missing_extra(part: str, extra: str, error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error for ``part`` when importing a module of ``extra`` failed with ``error``."""
    return ModuleNotFoundError(
        f"{part} needs the '{extra}' extra ({error.name} missing): pip install 'shengji[{extra}]'",
        name=error.name,
    )
