"""Build script: compiles the kernel core, the modules of ``shengji.kernel._core``, with
mypyc where it can (docs/kernel.md).

Everything else is in pyproject.toml. The modules are compiled together, as one group
(one shared library, where calls between them stay native). Without mypyc, a C compiler or
the Python headers (or with ``SHENGJI_PURE=1`` at build time) the package installs as plain
Python and the kernel runs its pure-Python path.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent
#: The kernel core's package: every module in it is compiled.
CORE = Path("src", "shengji", "kernel", "_core")
LOADER = ROOT / "src" / "shengji" / "kernel" / "loader.py"


def _warn(message: str) -> None:
    print(f"shengji: {message}; the kernel will run as pure Python", file=sys.stderr)


def _loader() -> Any:
    """``shengji.kernel.loader`` (standard library only), for its source hash and file
    names, without importing the package."""
    spec = importlib.util.spec_from_file_location("_shengji_kernel_loader", LOADER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ext_modules() -> list[Any]:
    """The mypyc extensions of the kernel core (one group), or none."""
    if os.environ.get("SHENGJI_PURE", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed")
        return []
    sources = [str(CORE / name) for name in _loader().core_sources(str(ROOT / CORE))]
    try:
        return list(mypycify(["--follow-imports=silent", *sources], opt_level="3"))
    except BaseException as e:  # mypyc exits through SystemExit on type errors
        _warn(f"mypyc could not translate {CORE} ({e!r})")
        return []


class OptionalBuildExt(build_ext):
    """Builds the kernel extensions if it can; a failed compile leaves pure Python (the
    extensions that did build are removed: the group works only whole). Next to them it
    writes the sources' hash, so a stale build is not used."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self._failed = False
        self._built: list[Path] = []

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler, no headers, ...
            _warn(f"building the extension failed ({e!r})")
            self._failed = True
        if self._failed:
            for path in self._built:
                path.unlink(missing_ok=True)
        elif self.extensions:
            _stamp(Path(self.build_lib) / CORE.relative_to("src"))

    def build_extension(self, ext: Any) -> None:
        if self._failed:
            return
        try:
            super().build_extension(ext)
        except Exception as e:
            _warn(f"compiling {ext.name} failed ({e!r})")
            self._failed = True
            return
        self._built.append(Path(self.get_ext_fullpath(ext.name)))

    def copy_extensions_to_source(self) -> None:
        """Editable installs: the extensions go beside their sources, and so does the
        stamp."""
        if self._failed:
            return
        super().copy_extensions_to_source()
        if self.extensions:
            _stamp(ROOT / CORE)


def _stamp(folder: Path) -> None:
    """Write the hash of the compiled sources into the core's package folder."""
    loader = _loader()
    folder.mkdir(parents=True, exist_ok=True)
    digest = loader.core_digest(str(ROOT / CORE))
    (folder / loader.STAMP).write_text(digest + "\n", encoding="ascii")


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
