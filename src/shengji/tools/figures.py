"""Measured figures written into the docs by the command that measured them.

A document holds a block between ``<!-- figures:NAME -->`` and ``<!-- /figures:NAME -->``;
:func:`write_figures` replaces what is between with the figures, the command that printed
them, the machine and the date, so no figure in the docs is typed by hand or left stale
without saying when and where it was measured.
"""

from __future__ import annotations

import datetime
import os
import platform
from collections.abc import Sequence
from pathlib import Path

from ..errors import Code, ShengjiError


def machine() -> str:
    """This machine in a few words: cores, memory, Python, OS."""
    memory = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
        memory = f", {kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return (
        f"{os.cpu_count()} cores{memory}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}"
    )


def load_average() -> str:
    """The machine's load average over the last minute, as written beside a figure (a
    figure measured beside other work says so), or nothing where the OS has none."""
    try:
        return f", load average {os.getloadavg()[0]:.1f}"
    except (AttributeError, OSError):
        return ""


def figures_block(command: str, lines: Sequence[str], when: datetime.date | None = None) -> str:
    """The text of a figures block: which command, where (with the load average when it
    was written) and when, then one line each."""
    day = (when or datetime.date.today()).isoformat()
    rows = "\n".join(f"    {line}" for line in lines)
    return f"`{command}` on {machine()}{load_average()}, {day}:\n\n{rows}\n"


def write_figures(path: str | Path, name: str, block: str) -> None:
    """Replace the ``name`` figures block of the document at ``path`` with ``block``
    (``BAD_OPTION`` when the document has no such block: nothing is written)."""
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    start, end = f"<!-- figures:{name} -->", f"<!-- /figures:{name} -->"
    i, j = text.find(start), text.find(end)
    if i < 0 or j < i:
        raise ShengjiError(f"{p} has no {start} … {end} block", code=Code.BAD_OPTION)
    p.write_text(text[: i + len(start)] + "\n" + block + text[j:], encoding="utf-8")
