"""Take back, play when my turn comes, and forced plays made by themselves, in the browser
(issue 40): two people (Ann at 1280x800 in English, 博 at 360x740 in Chinese) and two bots
at a table made with take-backs and auto-play. 博 chooses a card before Ann leads and it
is played as soon as his turn comes; a card that is not a legal follow then is cleared
with the reason. Ann takes back her lead before 博 plays (both are told); once 博 has
played it is too late, said in words. The last trick is played for both by itself.

Screenshots: ``var/test-artifacts/*-takeback*.png``.
"""

from __future__ import annotations

from typing import Any

from .browser_support import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    Server,
    browser,  # noqa: F401  (fixture)
    click_cards,
    drive,
    join,
    make_room,
    new_page,
    require_chromium,
    server,  # noqa: F401  (fixture)
    shot,
    state,
    wait,
)

require_chromium()

BOTS = [None, None, "heuristic", "heuristic"]


def _view(page: Any) -> dict[str, Any]:
    st = state(page)
    assert st is not None and st.get("view")
    return dict(st["view"])


def _suits(view: dict[str, Any]) -> dict[str, list[str]]:
    """The plain (not trump) cards of a hand by suit."""
    trumps = set(view["trumps"].split())
    out: dict[str, list[str]] = {}
    for c in view["hand"].split():
        if c not in trumps:
            out.setdefault(c[0], []).append(c)
    return out


def _suit_of(view: dict[str, Any], card: str) -> str:
    return "T" if card in view["trumps"].split() else card[0]


def _unforced_lead(va: dict[str, Any], vb: dict[str, Any], suits: list[str]) -> str | None:
    """A card of Ann's, of one of ``suits``, that leaves 博 more than one follow (with
    auto-play a forced follow is made at once)."""
    held = [_suit_of(vb, c) for c in vb["hand"].split()]
    for c in va["hand"].split():
        s = _suit_of(va, c)
        if s in suits and held.count(s) != 1:
            return str(c)
    return None


def _pick(page: Any, cards: list[str]) -> None:
    """Select exactly ``cards`` (what was selected before is cleared first)."""
    if page.locator("#clear").count():
        page.click("#clear")
    click_cards(page, cards)


def _ann_leads(a: Any, b: Any) -> None:
    """Until Ann is to lead, as both pages see it (博's page may lag Ann's by an update:
    his hand would still hold the card he has just played)."""

    def leads(page: Any) -> bool:
        v = _view(page)
        return bool(v["phase"] == "play" and v["to_act"] == 0 and not v["trick"])

    def same_rev() -> bool:
        sa, sb = state(a), state(b)
        return sa is not None and sb is not None and sa["rev"] == sb["rev"]

    drive([a, b], lambda: leads(a) and leads(b) and same_rev(), timeout=120)


def test_take_back_and_play_when_my_turn_comes(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    a = new_page(browser, "en", DESKTOP)
    b = new_page(browser, "zh", PHONE)
    room = make_room(server, a, preset="classic-1deck", bots=BOTS, take_back=True, auto_play=True)
    join(a, server.base, room, "Ann")
    join(b, server.base, room, "博")
    assert "take-backs allowed" in a.inner_text("#tablerules")
    b.click("#ready")
    a.click("#ready")
    wait(a, "!document.querySelector('#start').disabled")
    a.click("#start")
    wait(b, "!!window.shengjiState.view")
    tried = {"queued": False, "cleared": False}
    for _ in range(8):  # tricks led by Ann until both outcomes were seen
        _ann_leads(a, b)
        va, vb = _view(a), _view(b)
        sa, sb = _suits(va), _suits(vb)
        common = [s for s in sa if len(sb.get(s, [])) > 1]
        other = [s for s in sb if s not in common]
        lead = _unforced_lead(va, vb, common)
        if not tried["queued"] and lead:
            s = lead[0]
            # 博 chooses a card of the suit Ann will lead, before his turn
            _pick(b, [sb[s][0]])
            b.click("#queue")
            assert "轮到你时自动出" in b.inner_text("#queuednote")
            _pick(a, [lead])
            a.click("#play")
            # played at once (the bots may have finished the trick since)
            played = (
                "((v) => [v.trick, ...v.tricks.slice(-1).map((t) => t.plays)].some((ps) =>"
                f" ps.some((p) => p.seat === 1 && p.cards === '{sb[s][0]}')))"
                "(window.shengjiState.view)"
            )
            wait(b, played)
            tried["queued"] = True
        elif not tried["cleared"] and lead and other:
            _pick(b, [sb[other[0]][0]])  # not a legal follow of Ann's lead
            b.click("#queue")
            _pick(a, [lead])
            a.click("#play")
            wait(b, "document.querySelector('#rule').dataset.code === 'MUST_FOLLOW_SUIT'")
            assert "选好的牌不能出" in b.inner_text("#rule")
            assert b.locator("#hand .card.sel").count() == 0
            b.screenshot(path=str(ARTIFACTS / "phone-takeback-queue-zh.png"))
            tried["cleared"] = True
        elif tried["queued"]:
            break
        else:
            drive([a, b], lambda: _view(a)["to_act"] != 0)  # another trick
    assert tried["queued"], "no trick let 博 choose before his turn"
    # Ann leads and takes it back before 博 plays: both are told
    for _ in range(12):
        _ann_leads(a, b)
        first = _unforced_lead(_view(a), _view(b), ["S", "H", "C", "D", "T"])
        if first:
            break
        drive([a, b], lambda: _view(a)["to_act"] != 0)
    assert first
    hand = _view(a)["hand"]
    rev = state(a)["rev"]  # type: ignore[index]
    _pick(a, [first])
    a.click("#play")
    a.wait_for_selector("#takeback")
    shot(a, "takeback")
    a.click("#takeback")
    wait(a, f"window.shengjiState.rev > {rev + 1} && !window.shengjiState.view.trick.length")
    assert _view(a)["hand"] == hand and _view(a)["to_act"] == 0
    wait(b, "document.querySelector('#chatlog').innerText.includes('悔了一步')")
    assert "you took back" in a.inner_text("#chatlog")
    assert not a.locator("#takeback").count()
    # played again, then 博 plays: too late, said in words
    _pick(a, [first])
    a.click("#play")
    wait(b, f"window.shengjiState.rev > {rev + 2}")  # Ann's play again
    drive([b], lambda: _view(b)["to_act"] != 1 and _view(a)["to_act"] != 1)
    a.evaluate("window.shengjiRoom.link.send({ type: 'take_back' })")
    wait(a, "document.querySelector('#rule').dataset.code === 'TAKE_BACK_TOO_LATE'")
    assert "Too late" in a.inner_text("#rule") or "too late" in a.inner_text("#rule")

    # the last trick is played for both people by itself
    def skip_last(page: Any, st: dict[str, Any]) -> bool:
        return st["view"]["phase"] == "play" and len(st["view"]["hand"].split()) == 1

    drive([a, b], lambda: _view(a)["phase"] in ("hand_over", "match_over"), on_turn=skip_last)
    for page in (a, b):
        assert not page.watch.errors, page.watch.errors
        page.context.close()
