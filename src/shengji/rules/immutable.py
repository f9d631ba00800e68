"""A fast copy-with-changes for the engine's frozen (non-slotted) dataclasses."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """A copy of frozen dataclass ``obj`` with some fields changed, without re-running
    ``__init__`` (much cheaper than ``dataclasses.replace`` on the hot path)."""
    new = object.__new__(type(obj))
    d = obj.__dict__.copy()
    d.update(changes)
    object.__setattr__(new, "__dict__", d)
    return new
