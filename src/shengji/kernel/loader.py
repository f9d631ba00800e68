"""Which ``_core`` runs: the mypyc-compiled extension when it was built, else (or with
``SHENGJI_PURE=1``) the same source as plain Python."""

from __future__ import annotations

import hashlib
import os
import sys
from types import ModuleType

_PURE_NAME = "shengji.kernel._core_pure"


def pure_forced() -> bool:
    """True when the environment asks for the pure-Python path (``SHENGJI_PURE=1``)."""
    return os.environ.get("SHENGJI_PURE", "") not in ("", "0")


def compiled() -> bool:
    """True when the compiled ``_core`` extension is importable and was built from the
    ``_core.py`` beside it (a stale build, after the source changed, is not used)."""
    from . import _core

    path = str(getattr(_core, "__file__", ""))
    if path.endswith(".py"):
        return False
    folder = os.path.dirname(path)
    source = os.path.join(folder, "_core.py")
    stamp = os.path.join(folder, "_core.sha256")
    if not os.path.exists(source):
        return True
    if not os.path.exists(stamp):
        return False
    with open(source, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(stamp, encoding="ascii") as f:
        return f.read().strip() == digest


def load_core(pure: bool | None = None) -> ModuleType:
    """The ``_core`` module: compiled when available and up to date, the pure-Python
    source when ``pure`` (default: :func:`pure_forced`), when nothing was compiled or when
    the compiled extension is stale."""
    if pure is None:
        pure = pure_forced()
    from . import _core

    if str(getattr(_core, "__file__", "")).endswith(".py"):
        return _core  # nothing compiled: the source is what was imported
    if not pure and compiled():
        return _core
    # asked for the pure path, or the extension is stale: run the source beside it
    hit = sys.modules.get(_PURE_NAME)
    if hit is not None:
        return hit
    import importlib.util

    source = os.path.join(os.path.dirname(__file__), "_core.py")
    spec = importlib.util.spec_from_file_location(_PURE_NAME, source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[_PURE_NAME] = module
    spec.loader.exec_module(module)
    return module
