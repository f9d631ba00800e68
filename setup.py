"""Build script: compiles ``shengji.kernel._core`` with mypyc where it can (docs/kernel.md).

Everything else is in pyproject.toml. Without mypyc, a C compiler or the Python headers
(or with ``SHENGJI_PURE=1`` at build time) the package installs as plain Python and the
kernel runs its pure-Python path.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent
CORE = Path("src", "shengji", "kernel", "_core.py")
EXT = "shengji.kernel._core"


def _warn(message: str) -> None:
    print(f"shengji: {message}; the kernel will run as pure Python", file=sys.stderr)


def _ext_modules() -> list[Any]:
    """The mypyc extension of the kernel core, or none."""
    if os.environ.get("SHENGJI_PURE", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed")
        return []
    try:
        return list(mypycify(["--follow-imports=silent", str(CORE)], opt_level="3"))
    except BaseException as e:  # mypyc exits through SystemExit on type errors
        _warn(f"mypyc could not translate {CORE} ({e!r})")
        return []


class OptionalBuildExt(build_ext):
    """Builds the kernel extension if it can; a failed compile leaves pure Python. Next to
    the extension it writes the source's hash, so a stale build is not used."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler, no headers, ...
            _warn(f"building the extension failed ({e!r})")

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:
            _warn(f"compiling {ext.name} failed ({e!r})")
            return
        if ext.name == EXT:
            _stamp(Path(self.get_ext_fullpath(ext.name)).parent)

    def copy_extensions_to_source(self) -> None:
        """Editable installs: the extension goes beside its source, and so does the stamp."""
        super().copy_extensions_to_source()
        if any(ext.name == EXT for ext in self.extensions):
            _stamp(ROOT / CORE.parent)


def _stamp(folder: Path) -> None:
    """Write the hash of the compiled source beside the extension."""
    digest = hashlib.sha256((ROOT / CORE).read_bytes()).hexdigest()
    (folder / "_core.sha256").write_text(digest + "\n", encoding="ascii")


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
