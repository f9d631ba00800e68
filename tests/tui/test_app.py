"""The Textual table, driven by key presses (Textual's Pilot), and its snapshots."""

from __future__ import annotations

import asyncio

from shengji.presets import load_preset
from shengji.server.autoplay import choose_action
from shengji.tui.app import BuryDialog, DeclareDialog, ScoreDialog, TableApp
from shengji.tui.session import LocalSession
from shengji.tui.text import my_turn


def _indices(hand: list[str], cards: list[str]) -> list[int]:
    used: set[int] = set()
    out = []
    for c in cards:
        i = next(i for i, h in enumerate(hand) if h == c and i not in used)
        used.add(i)
        out.append(i)
    return out


async def _play_hand(
    app: TableApp, session: LocalSession, pilot: object, declare: bool = False
) -> set[str]:
    """Play a hand by keys; returns the dialogs seen."""
    press = pilot.press  # type: ignore[attr-defined]
    seen: set[str] = set()
    for _ in range(3000):
        await asyncio.sleep(0)
        await pilot.pause()  # type: ignore[attr-defined]
        state = session.state
        view = state["view"]
        if view["phase"] in ("hand_over", "match_over"):
            return seen
        if isinstance(app.screen, DeclareDialog):
            seen.add("declare")
            await press("1" if declare and app.screen.options else "p")
            declare = False
            continue
        if isinstance(app.screen, BuryDialog):
            seen.add("bury")
            await _bury(app.screen, state, press)
            continue
        if not my_turn(state):
            continue
        action = choose_action(state)
        for idx in _indices(app.cards, action["cards"].split()):
            steps = (idx - app.cursor) % len(app.cards)
            for _ in range(steps):
                await press("right")
            await press("space")
        await press("enter")
    raise AssertionError("the hand did not end")


async def _bury(dialog: BuryDialog, state: dict, press: object) -> None:
    cards = choose_action(state)["cards"].split()
    for idx in _indices(dialog.cards, cards):
        for _ in range((idx - dialog.cursor) % len(dialog.cards)):
            await press("right")  # type: ignore[operator]
        await press("space")  # type: ignore[operator]
    await press("enter")  # type: ignore[operator]


def test_pilot_plays_a_whole_hand_by_keys() -> None:
    session = LocalSession(load_preset("classic-1deck"), seed=1, seat=0)
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            seen = await _play_hand(app, session, pilot, declare=True)
            assert seen == {"declare", "bury"}  # we declared, became banker and buried
            assert session.state["view"]["score_sheet"][0]["banker"] == 0
            await pilot.pause()
            assert isinstance(app.screen, ScoreDialog)
            assert session.state["view"]["score_sheet"]
            await pilot.press("n")
            await pilot.pause()
            assert session.state["view"]["hand_number"] == 1

    asyncio.run(run())


def test_illegal_selection_is_explained_and_hint_given() -> None:
    session = LocalSession(load_preset("tuolaji"), seed=11, seat=0)
    app = TableApp(session, lang="en")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(400):
                await pilot.pause()
                view = session.state["view"]
                if isinstance(app.screen, DeclareDialog):
                    await pilot.press("p")
                    continue
                if isinstance(app.screen, BuryDialog):
                    await _bury(app.screen, session.state, pilot.press)
                    continue
                if view["phase"] == "play" and view["trick"]:
                    break
                if view["phase"] == "play":
                    action = choose_action(session.state)
                    for idx in _indices(app.cards, action["cards"].split()):
                        for _ in range((idx - app.cursor) % len(app.cards)):
                            await pilot.press("right")
                        await pilot.press("space")
                    await pilot.press("enter")
            await pilot.press("question_mark")
            await pilot.pause()
            assert app.message.startswith("? play")
            # select every card: more cards than were led can never be a legal follow
            for _ in app.cards:
                await pilot.press("space")
                await pilot.press("right")
            await pilot.pause()
            assert "WRONG_CARD_COUNT" in app.message

    asyncio.run(run())


def _snapshot_app() -> TableApp:
    return TableApp(LocalSession(load_preset("classic-1deck"), seed=5, seat=0), lang="en")


def test_snapshot_80x24(snap_compare: object) -> None:
    assert snap_compare(_snapshot_app(), terminal_size=(80, 24))  # type: ignore[operator]


def test_snapshot_120x40(snap_compare: object) -> None:
    assert snap_compare(_snapshot_app(), terminal_size=(120, 40))  # type: ignore[operator]
