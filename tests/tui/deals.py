"""Local tables for the terminal's tests, reached through the deal that runs by itself:
played past the deal (:func:`dealt`), or held still at a moment of it (:class:`Held`)."""

from __future__ import annotations

from typing import Any

from helpers import deal_out
from shengji.rules.presets import load_preset
from shengji.tui.session import LocalSession


def dealt(preset: str, seed: int, seat: int = 0, **kwargs: Any) -> LocalSession:
    """A local table dealt out a round a poll (nobody shows for the person), then played
    by the bots up to the person's first decision after the deal."""
    session = LocalSession(load_preset(preset), seed=seed, seat=seat, deal_seconds=0, **kwargs)
    deal_out(session)
    session.poll()
    return session


class Held(LocalSession):
    """A local table (a round at every poll) whose deal stands still while :attr:`held`:
    a test looks at one moment of the deal, then lets it go on."""

    def __init__(self, preset: str, seed: int, seat: int = 0, **kwargs: Any) -> None:
        self.held = False
        super().__init__(load_preset(preset), seed=seed, seat=seat, deal_seconds=0, **kwargs)

    def poll(self) -> bool:
        if self.held and self.st.phase == "deal":
            self._refresh()  # (an action of the person's was applied: the state says so)
            return False
        return super().poll()

    def hold_when(self, shows: int = 1, upto: int = 10_000) -> None:
        """Deal on until the person holds ``shows`` shows or more, and hold there."""
        for _ in range(upto):
            if len(self.state.get("shows") or []) >= shows:
                self.held = True
                return
            assert self.state["view"]["phase"] == "deal", "the deal ended first"
            self.poll()
        raise AssertionError("no such moment")
