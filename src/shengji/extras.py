"""Which optional dependencies (extras) a part of the package needs, checked at import."""

from __future__ import annotations

import importlib.util

from .errors import Code, ShengjiError


def require(part: str, extra: str, *modules: str) -> None:
    """Raise ``ModuleNotFoundError`` naming ``extra`` (and how to install it) when one of
    ``modules`` is not installed: ``part`` cannot run without it."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise missing_extra(part, extra, ModuleNotFoundError(name=", ".join(missing)))


def missing_extra(part: str, extra: str, error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error for ``part`` when importing a module of ``extra`` failed with ``error``:
    in English, then in Chinese, each naming the extra and how to install it.

    >>> print(missing_extra("shengji.server", "server", ModuleNotFoundError(name="fastapi")))
    shengji.server needs the 'server' extra (fastapi missing): pip install 'shengji[server]'
    shengji.server 需要附加组件 'server' (缺少 fastapi): pip install 'shengji[server]'
    """
    from .words.i18n import t

    text = "\n".join(
        t("extras.missing", lang, part=part, extra=extra, missing=error.name)
        for lang in ("en", "zh")
    )
    return ModuleNotFoundError(text, name=error.name)


def extra_error(part: str, extra: str, missing: str) -> ShengjiError:
    """``MISSING_EXTRA`` for ``part`` (a bot, a command) when a module of ``extra`` is not
    installed: what to install, in English, then in Chinese.

    >>> print(extra_error("the dmc bot", "rl", "numpy"))
    MISSING_EXTRA: the dmc bot needs the 'rl' extra (numpy missing): pip install 'shengji[rl]'
    the dmc bot 需要附加组件 'rl' (缺少 numpy): pip install 'shengji[rl]'
    """
    from .words.i18n import t

    text = "\n".join(
        t("extras.missing", lang, part=part, extra=extra, missing=missing) for lang in ("en", "zh")
    )
    return ShengjiError(text, code=Code.MISSING_EXTRA, params={"extra": extra, "missing": missing})
