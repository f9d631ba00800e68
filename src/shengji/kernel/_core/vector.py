"""Tables stepped together (``shengji.env.vector``): :class:`KTable`, one table's hand,
decision, observation row and mask, and :func:`step_tables`."""

from __future__ import annotations

from typing import Any

from .decision import DONE, N_ACTIONS, KDecision
from .declare import PH_OVER, PH_REDEAL
from .hand import KHand
from .observe import KObserver


class KTable:
    """One table of a batch of tables stepped together (``shengji.env.vector``): its hand
    in play and the decision of the seat to act, whose observation and mask are row
    :attr:`row` of the batch's arrays (``obs`` float32 of ``size`` a row, ``masks`` 55
    bytes a row, ``seats`` a byte a row). The match around the hand (its levels, hand
    number, scoring) is the caller's."""

    def __init__(
        self,
        observer: KObserver,
        row: int,
        obs: memoryview[Any],
        masks: bytearray,
        seats: bytearray,
    ) -> None:
        self.observer = observer
        self.row = row
        self.vec = observer.row(obs, row * observer.size)
        self.masks = masks
        self.seats = seats
        self.hand: KHand | None = None
        self.decision: KDecision | None = None
        self.levels: list[int] = []
        self.hand_number = 0
        #: A selection part's entries (float32 of count / decks).
        self.chosen = self.vec.parts[1]

    def decide(self, h: KHand, levels: list[int], hand_number: int) -> None:
        """Take up the decision of the seat to act in ``h`` (of a match at ``levels`` and
        ``hand_number``) and write its row."""
        self.hand = h
        self.levels = levels
        self.hand_number = hand_number
        self.decision = KDecision(h)
        self._write()

    def _write(self) -> None:
        h = self.hand
        d = self.decision
        assert h is not None and d is not None
        self.observer.write(h, h.to_act, self.levels, self.hand_number, False, self.vec)
        row = self.row
        self.masks[row * N_ACTIONS : (row + 1) * N_ACTIONS] = bytes(d.mask)
        self.seats[row] = h.to_act

    def step(self, a: int) -> bool:
        """Action ``a`` (allowed by the mask): a card is added to the selection, ``DONE``
        takes the decision and runs the hand on to the next one; the row follows. False
        when the hand ended or needs a redeal (the row is then the caller's to write,
        once it has scored the hand and dealt again)."""
        d = self.decision
        h = self.hand
        assert d is not None and h is not None
        if a == DONE:
            d.apply(h)
            h.advance()
            if h.phase == PH_OVER or h.phase == PH_REDEAL:
                return False
            self.decision = KDecision(h)
            self._write()
            return True
        d.add(a)
        row = self.row
        self.masks[row * N_ACTIONS : (row + 1) * N_ACTIONS] = bytes(d.mask)
        self.chosen[a] = self.observer.counts[d.cards.count(a)]
        return True


def step_tables(tables: list[KTable], actions: list[int]) -> list[int]:
    """:meth:`KTable.step` for each table with its action; the tables whose hand ended or
    needs a redeal."""
    stopped: list[int] = []
    for i in range(len(tables)):
        if not tables[i].step(actions[i]):
            stopped.append(i)
    return stopped
