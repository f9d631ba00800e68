"""Which ``_core`` runs: the mypyc-compiled extensions when they were built, else (or with
``SHENGJI_PURE=1``) the same sources as plain Python.

``_core`` is a package whose modules are compiled together (``setup.py``); the build
writes the hash of the sources it compiled (:func:`core_digest`) into the package folder,
and a build whose sources changed since is not used. This module imports only the standard
library at import time (``setup.py`` loads it by its path)."""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

_PURE_NAME = "shengji.kernel._core_pure"
#: The file in the core's package folder holding the hash of the compiled sources.
STAMP = "sources.sha256"
_CORE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_core")


def core_sources(folder: str) -> list[str]:
    """The names of the core's source files in ``folder``, sorted: every module of the
    package is compiled."""
    return sorted(name for name in os.listdir(folder) if name.endswith(".py"))


def core_digest(folder: str) -> str:
    """The sha256 of the core's sources in ``folder``: each file's name and bytes."""
    h = hashlib.sha256()
    for name in core_sources(folder):
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        h.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def pure_forced() -> bool:
    """True when the environment asks for the pure-Python path (``SHENGJI_PURE=1``)."""
    return os.environ.get("SHENGJI_PURE", "") not in ("", "0")


def compiled() -> bool:
    """True when the compiled ``_core`` is importable and was built from the sources
    beside it (a stale build, after any of them changed, is not used)."""
    from . import _core

    path = str(getattr(_core, "__file__", ""))
    if path.endswith(".py"):
        return False
    folder = os.path.dirname(path)
    if not os.path.exists(os.path.join(folder, "__init__.py")):
        return True  # installed without its sources
    stamp = os.path.join(folder, STAMP)
    if not os.path.exists(stamp):
        return False
    with open(stamp, encoding="ascii") as f:
        return f.read().strip() == core_digest(folder)


class _PureFinder:
    """Finds ``shengji.kernel._core_pure`` and its modules (a finder of ``sys.meta_path``):
    the core's sources, imported as plain Python beside the compiled extensions (which a
    path search finds first). Not an ``importlib.abc.MetaPathFinder``: importing that
    module costs the start-up of every command about 10 ms."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == _PURE_NAME:
            source = os.path.join(_CORE_DIR, "__init__.py")
        elif fullname.rpartition(".")[0] == _PURE_NAME:
            source = os.path.join(_CORE_DIR, fullname.rpartition(".")[2] + ".py")
            if not os.path.exists(source):
                return None
        else:
            return None  # before any import here: this finder is asked first
        from importlib.util import spec_from_file_location

        if fullname == _PURE_NAME:
            return spec_from_file_location(fullname, source, submodule_search_locations=[])
        return spec_from_file_location(fullname, source)


def load_core(pure: bool | None = None) -> ModuleType:
    """The ``_core`` package: compiled when available and up to date, the pure-Python
    sources when ``pure`` (default: :func:`pure_forced`), when nothing was compiled or
    when the compiled extensions are stale."""
    if pure is None:
        pure = pure_forced()
    from . import _core

    if str(getattr(_core, "__file__", "")).endswith(".py"):
        return _core  # nothing compiled: the sources are what was imported
    if not pure and compiled():
        return _core
    # asked for the pure path, or the extensions are stale: run the sources beside them
    hit = sys.modules.get(_PURE_NAME)
    if hit is not None:
        return hit
    if not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())
    import importlib

    return importlib.import_module(_PURE_NAME)
