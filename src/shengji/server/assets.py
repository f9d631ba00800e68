"""The browser app's files as the server sends them: each compressed once (gzip) and
kept until the file changes, with an ``ETag`` (a client revalidates with
``If-None-Match`` and gets an empty 304), and a page that holds its stylesheet and names
every module of the app with ``<link rel="modulepreload">``, so that a browser fetches
the whole chain of imports at once instead of one level per round trip.

The module list is read from the modules' own ``import`` statements, starting at
``app.js``: it is complete by construction (a module added, renamed or no longer
imported changes the page).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

#: Media types of the app's files.
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}
#: A file name the app can have (no folder, no NUL, nothing to escape).
NAME = re.compile(r"[A-Za-z0-9_-]+\.[a-z]+")
#: ``import ... from "./x.js"``, ``import "./x.js"``, ``import("./x.js")``.
IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']\./([A-Za-z0-9_-]+\.js)["']""")
#: The page's stylesheet link, replaced by the stylesheet itself.
STYLESHEET = '<link rel="stylesheet" href="/static/style.css">'
#: Every answer revalidates (a 304 costs a round trip and no bytes): a new version of the
#: app is never mixed with an old one.
CACHE_CONTROL = "no-cache"


@dataclass(frozen=True)
class Asset:
    """One file (or page) as sent: its bytes, gzip-compressed bytes when that is
    smaller, its ETag and media type."""

    body: bytes
    gz: bytes | None
    etag: str
    media_type: str


def make_asset(body: bytes, media_type: str) -> Asset:
    """``body`` compressed (if that makes it smaller) and tagged by its content."""
    packed = gzip.compress(body, 9, mtime=0) if len(body) >= 256 else None
    tag = hashlib.sha256(body).hexdigest()[:20]
    return Asset(body, packed if packed and len(packed) < len(body) else None, tag, media_type)


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header allows gzip (not refused with ``q=0``)."""
    for part in accept_encoding.lower().split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def answer(asset: Asset, headers: Mapping[str, str]) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body for a request with ``headers`` (lower-case names):
    304 when its ``If-None-Match`` names the asset, gzip when it accepts it."""
    packed = asset.gz is not None and accepts_gzip(headers.get("accept-encoding", ""))
    etag = f'"{asset.etag}{"-gz" if packed else ""}"'
    out = {"ETag": etag, "Cache-Control": CACHE_CONTROL, "Vary": "Accept-Encoding"}
    wanted = headers.get("if-none-match", "")
    if wanted.strip() == "*" or etag in (t.strip().removeprefix("W/") for t in wanted.split(",")):
        return 304, out, b""
    if packed:
        assert asset.gz is not None
        out["Content-Encoding"] = "gzip"
        return 200, {**out, "Content-Type": asset.media_type}, asset.gz
    return 200, {**out, "Content-Type": asset.media_type}, asset.body


class Assets:
    """The files of one folder, each read and compressed when first asked for or when it
    changed (its size and modification time)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._kept: dict[str, tuple[tuple[int, int], Asset]] = {}
        self._page: tuple[tuple[tuple[int, int], ...], bytes] | None = None

    def get(self, name: str) -> Asset | None:
        """The file ``name`` of the folder (None: no such file, or not a name it can
        have)."""
        if not NAME.fullmatch(name):
            return None
        path = self.folder / name
        try:
            st = os.stat(path)
        except OSError:
            return None
        stamp = (st.st_size, st.st_mtime_ns)
        kept = self._kept.get(name)
        if kept is None or kept[0] != stamp:
            media = TYPES.get(path.suffix, "application/octet-stream")
            kept = self._kept[name] = (stamp, make_asset(path.read_bytes(), media))
        return kept[1]

    def modules(self) -> list[str]:
        """Every module ``app.js`` imports, directly or not (itself first), in the order
        a browser meets them."""
        order, seen = ["app.js"], {"app.js"}
        for name in order:
            try:
                text = (self.folder / name).read_text(encoding="utf-8")
            except OSError:
                continue
            for found in IMPORT.findall(text):
                if found not in seen:
                    seen.add(found)
                    order.append(found)
        return order

    def page(self, fetches: Iterable[str] = ()) -> Asset:
        """``index.html`` with its stylesheet inline, a ``modulepreload`` for every module
        and a ``preload`` for each path of ``fetches`` (what its first screen waits for)."""
        stamps = tuple(
            (st.st_size, st.st_mtime_ns)
            for st in (os.stat(p) for p in sorted(self.folder.iterdir()) if p.is_file())
        )
        if self._page is None or self._page[0] != stamps:
            html = (self.folder / "index.html").read_text(encoding="utf-8")
            links = "".join(
                f'<link rel="modulepreload" href="/static/{m}">\n' for m in self.modules()
            )
            html = html.replace("</head>", links + "</head>", 1)
            # the stylesheet in the page: one request fewer before the first screen (a
            # browser opens six connections to a server, and each request waits a round
            # trip: on a slow mobile network the number of requests is the time)
            css = (self.folder / "style.css").read_text(encoding="utf-8")
            html = html.replace(STYLESHEET, f"<style>\n{css}</style>", 1)
            self._page = (stamps, html.encode())
        body = self._page[1]
        extra = "".join(
            f'<link rel="preload" href="{path}" as="fetch" crossorigin="anonymous">\n'
            for path in fetches
        )
        if extra:
            body = body.replace(b"</head>", extra.encode() + b"</head>", 1)
        return make_asset(body, TYPES[".html"])
