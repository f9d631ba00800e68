#!/usr/bin/env python3
"""How soon a room is usable in a browser on a slow mobile network.

Starts ``shengji serve`` on loopback, makes a room, and opens it in chromium (Playwright,
the browser the tests use) with the network throttled through the DevTools protocol and
the cache disabled, as a first visit each time:

- a first visit to a room's link: from navigation until the join form can be used (the
  name field and the Join button are there);
- a seated player coming back (their token kept in the browser): until their table is
  drawn with their hand.

Two throttling profiles: Chrome DevTools' "Slow 4G" (562.5 ms latency, 1.44 Mbit/s down,
675 kbit/s up; DevTools' name for it since Chrome 121, "Fast 3G" before) and Lighthouse's
slow 4G (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up). Each figure is the median of
``--runs``; ``--write-docs`` writes the lines into docs/server.md.

Usage: ``python scripts/page_load.py [--runs 3] [--write-docs]``
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from shengji.server.launch import ServerProcess
from shengji.tools.figures import figures_block, write_figures

#: name -> (latency ms, download bytes/s, upload bytes/s), as Chrome's DevTools throttle.
PROFILES = {
    "DevTools Slow 4G: 562.5 ms, 1.44 Mbit/s": (562.5, 1.6e6 / 8 * 0.9, 750e3 / 8 * 0.9),
    "Lighthouse slow 4G: 150 ms, 1.6 Mbit/s": (150.0, 1.6e6 / 8, 750e3 / 8),
}
JOIN_READY = (
    "() => { const b = document.querySelector('#join'), n = document.querySelector('#name');"
    " return b && n && !b.disabled ? performance.now() : false; }"
)
TABLE_READY = (
    "() => document.querySelector('#hand .card') && window.shengjiState"
    " && window.shengjiState.view ? performance.now() : false"
)


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


def _throttled(browser: Any, profile: tuple[float, float, float], storage: Any = None) -> Any:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, bypass_csp=True, storage_state=storage
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    latency, down, up = profile
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency, "downloadThroughput": down, "uploadThroughput": up},
    )
    sent: dict[str, int] = {}
    cdp.on(
        "Network.loadingFinished",
        lambda e: sent.__setitem__(e["requestId"], e["encodedDataLength"]),
    )
    page.bytes = sent
    return page


def _first_visit(
    browser: Any, base: str, profile: tuple[float, float, float]
) -> tuple[float, int, int]:
    room = _post(base, "/api/rooms", {"preset": "shuangsheng"})["id"]
    page = _throttled(browser, profile)
    page.goto(f"{base}/room/{room}", wait_until="commit")
    ms = page.wait_for_function(JOIN_READY, polling="raf", timeout=60_000).json_value()
    bytes_, requests = sum(page.bytes.values()), len(page.bytes)
    page.context.close()
    return ms / 1000, bytes_, requests


def _return(browser: Any, base: str, profile: tuple[float, float, float]) -> tuple[float, int, int]:
    made = _post(base, "/api/rooms", {"preset": "shuangsheng", "bots": [None, *["heuristic"] * 3]})
    room = made["id"]
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.goto(base + "/")
    page.evaluate(
        "([id, key]) => localStorage.setItem('shengji:host:' + id, key)", [room, made["host_key"]]
    )
    page.goto(f"{base}/room/{room}")
    page.fill("#name", "Ann")
    page.click("#join")
    page.click("#ready")
    page.wait_for_function("!document.querySelector('#start').disabled")
    page.click("#start")
    page.wait_for_function("window.shengjiState && window.shengjiState.view")
    storage = context.storage_state()
    context.close()
    page = _throttled(browser, profile, storage)
    page.goto(f"{base}/room/{room}", wait_until="commit")
    ms = page.wait_for_function(TABLE_READY, polling="raf", timeout=60_000).json_value()
    bytes_, requests = sum(page.bytes.values()), len(page.bytes)
    page.context.close()
    return ms / 1000, bytes_, requests


def measure(runs: int) -> list[str]:
    """The figures, one line each."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("no chromium: run scripts/ensure-browser as root")
    # every room of the runs is made from one address: more than a person makes at once
    db = f"sqlite:///{tempfile.mkdtemp(prefix='shengji-page-')}/page.db"
    srv = ServerProcess(db, limits=["rooms_burst=1000"])
    lines = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for name, profile in PROFILES.items():
                for what, run in (
                    ("first visit to a room's link, join form usable", _first_visit),
                    ("a seated player's return, their table drawn", _return),
                ):
                    got = [run(browser, srv.url, profile) for _ in range(runs)]
                    times = sorted(g[0] for g in got)
                    kb = statistics.median(g[1] for g in got) / 1024
                    lines.append(
                        f"{what} ({name}): {statistics.median(times):.2f} s "
                        f"[{', '.join(f'{t:.2f}' for t in times)}; "
                        f"{kb:.0f} KB in {got[0][2]} requests]"
                    )
                    print(lines[-1], flush=True)
            browser.close()
    finally:
        srv.kill()
    return lines


def main() -> None:
    """Measure, print, and write the docs if asked."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--write-docs", action="store_true")
    args = ap.parse_args()
    lines = measure(args.runs)
    if args.write_docs:
        command = f"python scripts/page_load.py --runs {args.runs}"
        doc = Path(__file__).resolve().parents[1] / "docs" / "server.md"
        write_figures(doc, "page-load", figures_block(command, lines))
        print(f"written into {doc}")


if __name__ == "__main__":
    main()
