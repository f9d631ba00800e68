"""The app's files are sent compressed and tagged, revalidated with a 304, and its page
names every module of the import chain (``modulepreload``) and the API reads of its
first screen; a request for several ranges gets the whole file with its true length.
How long the room takes to become usable on slow 4G is ``scripts/page_load.py``."""

from __future__ import annotations

import gzip
import json
import re
import socket
from pathlib import Path

from fastapi.testclient import TestClient

from shengji.server.app import STATIC
from shengji.server.assets import Assets, accepts_gzip
from shengji.server.launch import ServerProcess

from .client import hub_of

IMPORT = re.compile(r"""(?:from|import)\s*\(?\s*["']\./([\w-]+\.js)["']""")


def test_the_page_preloads_every_module_of_the_app(http: TestClient) -> None:
    page = http.get("/").text
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/([\w-]+\.js)">', page)
    # every module file is in the chain from app.js, and every one is preloaded, once
    files = sorted(p.name for p in STATIC.glob("*.js"))
    assert sorted(preloaded) == files and len(set(preloaded)) == len(preloaded)
    # the chain as the modules' own imports give it (read here independently)
    reach, todo = {"app.js"}, ["app.js"]
    while todo:
        for name in IMPORT.findall((STATIC / todo.pop()).read_text(encoding="utf-8")):
            if name not in reach:
                reach.add(name)
                todo.append(name)
    assert reach == set(files)
    assert '<script type="module" src="/static/app.js">' in page
    # and what the home page waits for is fetched with them; the stylesheet is in it
    for path in ("/api/presets", "/api/rooms"):
        assert f'<link rel="preload" href="{path}" as="fetch"' in page
    assert "/static/style.css" not in page
    assert (STATIC / "style.css").read_text(encoding="utf-8") in page


def test_a_new_module_joins_the_page(tmp_path: Path) -> None:
    for f in STATIC.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    assets = Assets(tmp_path)
    before = assets.page().body
    (tmp_path / "extra.js").write_text("export const x = 1;\n", encoding="utf-8")
    app = tmp_path / "app.js"
    app.write_text('import { x } from "./extra.js";\n' + app.read_text(encoding="utf-8"))
    after = assets.page().body
    assert b"/static/extra.js" not in before and b'href="/static/extra.js"' in after


def test_a_room_link_preloads_its_room_and_rules(http: TestClient) -> None:
    made = http.post("/api/rooms", json={"preset": "classic-1deck"}).json()
    page = http.get(f"/room/{made['id']}").text
    assert f'href="/api/rooms/{made["id"]}" as="fetch"' in page
    assert 'href="/api/presets/classic-1deck" as="fetch"' in page  # the room is in memory
    hub_of(http).rooms.clear()
    page = http.get(f"/room/{made['id']}").text
    assert 'href="/api/presets/' not in page  # the room is not read for a page
    assert 'href="/api/rooms/' not in http.get("/room/not-a-room-id").text


def test_files_are_compressed_tagged_and_revalidated(http: TestClient) -> None:
    raw = (STATIC / "room.js").read_bytes()
    r = http.get("/static/room.js", headers={"Accept-Encoding": "gzip, br"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert r.content == raw  # (the test client decompresses)
    assert int(r.headers["content-length"]) < len(raw) / 2
    assert r.headers["cache-control"] == "no-cache" and r.headers["vary"] == "Accept-Encoding"
    etag = r.headers["etag"]
    again = http.get("/static/room.js", headers={"If-None-Match": etag, "Accept-Encoding": "gzip"})
    assert again.status_code == 304 and again.content == b""
    plain = http.get("/static/room.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == raw
    assert plain.headers["etag"] != etag  # each body its own tag
    assert plain.headers["content-type"].startswith("text/javascript")
    page = http.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and "etag" in page.headers
    # the API's JSON too (the catalogue is some 48 KB)
    cat = http.get("/api/i18n", headers={"Accept-Encoding": "gzip"})
    assert cat.headers["content-encoding"] == "gzip" and cat.json()
    assert http.get("/static/nothing.js").json()["detail"]["code"] == "NOT_FOUND"
    assert accepts_gzip("gzip;q=1.0") and not accepts_gzip("gzip;q=0") and not accepts_gzip("br")


def _one_response(s: socket.socket) -> tuple[bytes, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))  # type: ignore[union-attr]
    while len(body) < length:
        chunk = s.recv(65536)
        assert chunk, "closed early"
        body += chunk
    assert len(body) == length, "more bytes than the length said"
    return head, body


def test_several_ranges_get_the_whole_file_and_the_connection_goes_on(tmp_path: Path) -> None:
    srv = ServerProcess(f"sqlite:///{tmp_path / 'r.db'}")
    try:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
            s.sendall(
                b"GET /static/app.js HTTP/1.1\r\nHost: x\r\nRange: bytes=0-10,20-30\r\n"
                b"Accept-Encoding: identity\r\n\r\n"
            )
            head, body = _one_response(s)
            assert head.startswith(b"HTTP/1.1 200") and body == (STATIC / "app.js").read_bytes()
            # keep-alive: the next request on the same connection is answered
            s.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
            head, body = _one_response(s)
            assert head.startswith(b"HTTP/1.1 200")
            assert json.loads(gzip.decompress(body) if b"gzip" in head else body)
    finally:
        srv.kill()
