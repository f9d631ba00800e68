"""What moves a room by itself: the paced deal, bots and programs, turn timers and the
score sheet's countdown, seats handed to a bot while their person is away, and
following another process that plays the room."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from ..bots.external import ExternalBot
from ..bots.registry import make_player
from ..errors import ShengjiError
from ..game.actions import Action, Continue, Pass, Play, action_to_json
from ..game.dealing import is_dealing
from ..game.flow import apply
from ..game.state import GameState
from ..game.views import seat_view
from ..rules.follow import count_legal_follows, legal_follows
from ..rules.phases import DECLARING_PHASES
from ..rules.shuffle import derived_seed
from ..rules.units import decompose
from .broadcast import Broadcasting
from .connection import Connection
from .room_core import log
from .room_settings import RoomError


class Driving(Broadcasting):
    """A room that never waits on a person with nothing to decide."""

    # -- bots, timers, disconnections -------------------------------------------------------
    def make_bots(self) -> None:
        """One bot per seat that a bot plays (or may play while its person is away)."""
        bot_seed = derived_seed(self.seed, "bots")
        for bot in self.bots.values():
            if isinstance(bot, ExternalBot):
                bot.close()  # its program is stopped
        self.bots = {}
        for i, s in enumerate(self.seats):
            if not s.bot:
                continue
            try:
                self.bots[i] = make_player(s.bot, i, bot_seed)
            except ShengjiError:  # an external bot the server no longer registers
                log.warning("room %s: no bot %r now; heuristic plays it", self.id[:8], s.bot)
                self.bots[i] = make_player("heuristic", i, bot_seed)

    def _bot_controls(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or (s.kind == "human" and s.away)

    def _bot_turn(self) -> int | None:
        """The seat a bot moves for now (hand over: the seat that continues), or None."""
        st = self.state
        if st is None or self.status != "playing" or self.following:
            return None
        if st.phase == "hand_over":
            if self.paused or self.waiting() or self.holds:
                return None
            return min(self.continued, default=0)
        if st.to_act is None:  # a paced deal: the dealer asks the bots
            return None
        if self._bot_controls(st.to_act) or self._auto_action(st) is not None:
            return st.to_act
        return None

    def _auto_action(self, st: GameState) -> Action | None:
        """With ``auto_play``: a person's play when there is nothing to choose (the only
        legal follow, or leading the last trick with a hand that is one unit); else None."""
        seat = st.to_act
        if not self.settings.auto_play or st.phase != "play" or seat is None:
            return None
        if self.seats[seat].kind != "human" or self.seats[seat].away:
            return None
        view = seat_view(st, seat)
        hand = view.hand
        if view.lead is not None:
            if count_legal_follows(view.ctx, view.lead, hand) == 1:
                return Play(next(iter(legal_follows(view.ctx, view.lead, hand))))
            return None
        last = all(n == len(hand) for n in view.hand_sizes)
        one_suit = len({view.ctx.suit_of[c.index] for c in hand}) == 1
        if hand and (len(hand) == 1 or (last and one_suit and len(decompose(view.ctx, hand)) == 1)):
            return Play(tuple(hand))
        return None

    def _plan(self) -> None:
        """After every change, before the broadcast: timers, deadlines, and the bots."""
        if self.stale:
            return
        if self.following:  # the process that plays the room keeps its timers
            self._cancel_timer()
            self.deadlines = [None] * len(self.seats)
            return
        st = self.state
        if st is None or self.status != "playing":
            self._cancel_timer()
            self.deadlines = [None] * len(self.seats)
            return
        if st.phase == "hand_over":
            self._plan_hand_over(st)
        elif st.to_act is None:  # a paced deal: nobody is waited on
            self._cancel_timer()
            self.deadlines = [None] * len(self.seats)
        else:
            seat = st.to_act
            seconds = self._time_to_decide(st)
            if self._bot_controls(seat) or seconds <= 0:
                self._cancel_timer()
                self.deadlines = [None] * len(self.seats)
            else:
                if self.timer_for is not st:
                    self._start_timer(st, self.settings.timer(seconds))
                self.deadlines = [
                    self.deadlines_at if i == seat else None for i in range(len(self.seats))
                ]
        self.kick_driver()
        self.kick_dealer()

    def _time_to_decide(self, st: GameState) -> float:
        """A person's time for the decision that waits (0: no limit): a show in the round
        before the kitty or after the burial has ``declare_seconds`` (or the turn timer,
        if shorter); burying, calling and playing have the turn timer."""
        turn = self.settings.turn_seconds
        if st.phase in DECLARING_PHASES:
            return (
                min(self.settings.declare_seconds, turn)
                if turn > 0
                else self.settings.declare_seconds
            )
        return turn

    def _plan_hand_over(self, st: GameState) -> None:
        """After a hand: the countdown for the people who have not pressed "next hand",
        paused while reviews hold the table (the timer then runs to the first hold's end;
        each held seat's deadline is its own hold's end)."""
        now = time.time()
        self._prune_holds(now)
        ends = self.hold_ends()
        waiting = self.waiting()
        if ends:
            if self.next_left is None:  # pause the countdown where it is
                self.next_left = self.limits.next_seconds
                if self.timer_for is st and not self.timer_hold and self.deadlines_at is not None:
                    self.next_left = max(0.0, self.deadlines_at - now)
            first = min(ends.values())
            if not (
                self.timer_hold
                and self.timer_for is st
                and self.timer is not None
                and self.deadlines_at == first
            ):
                self._start_timer(st, first - now, hold=True)
                self.deadlines_at = first
            self.deadlines = [ends.get(i) for i in range(len(self.seats))]
            return
        if waiting:
            if self.next_left is not None:  # the holds ended: the countdown goes on
                self._start_timer(st, self.next_left)
            elif self.timer_for is not st or self.timer_hold:
                self._start_timer(st, self.limits.next_seconds)
        else:
            self._cancel_timer()
        self.next_left = None
        deadline = self.deadlines_at if self.timer_for is st else None
        self.deadlines = [deadline if i in waiting else None for i in range(len(self.seats))]

    # -- the deal that runs by itself ------------------------------------------------------
    def _dealing(self) -> bool:
        """Whether this process deals the room's paced deal now."""
        return (
            self.status == "playing"
            and is_dealing(self.state)
            and not self.following
            and not self.stale
        )

    def kick_dealer(self) -> None:
        """Make sure a paced deal goes on (and its clock knows the deal)."""
        if not self._dealing():
            return
        assert self.state is not None
        self.clock.follow(self.state, time.monotonic())
        if self.dealer is None or self.dealer.done():
            self.dealer = asyncio.get_running_loop().create_task(self._deal_on())

    async def _deal_on(self) -> None:
        """Deal round by round at the room's pace; the bots' shows land on their time."""
        failures = 0
        while self._dealing():
            await asyncio.sleep(self.clock.wait(time.monotonic()))
            async with self.lock:
                if not self._dealing():
                    return
                try:
                    changed = await self._deal_step(time.monotonic())
                    failures = 0
                except Exception as e:  # the dealer survives: the store may come back
                    failures += 1
                    changed = False
                    log.warning("room %s: dealing failed (%s), retrying", self.id[:8], e)
                if changed:
                    self._plan()
                    self.broadcast()
            if failures:
                await asyncio.sleep(min(30.0, 0.5 * 2**failures))

    async def _deal_step(self, now: float) -> bool:
        """The bots' shows that are due, then the next round if it is due, then the bots
        a card reached are asked; True when the table changed."""
        changed = False
        for seat, show in self.clock.due_shows(self._st, now):
            with contextlib.suppress(RoomError):  # overtaken by a show meanwhile
                await self._apply(seat, show)
                self._note_played_for(seat, show)
                changed = True
        if is_dealing(self.state) and self.clock.due_round(now):
            # every round is stored: a restart, a replay and every view sent are exact
            await self._apply(None, self.clock.next_deal(self._st))
            self.clock.dealt(now)
            changed = True
        if is_dealing(self.state):
            self._ask_bots(self._st, now)
        return changed

    @property
    def _st(self) -> GameState:
        assert self.state is not None
        return self.state

    def _ask_bots(self, st: GameState, now: float) -> None:
        """Ask the bots a card reached whether they show (programs off the event loop)."""
        seats = [
            i for i in range(len(self.seats)) if self._bot_controls(i) and i not in self.asking
        ]
        for seat in self.clock.to_ask(st, seats):
            bot = self.bots.get(seat) or make_player(
                "heuristic", seat, derived_seed(self.seed, "bots")
            )
            view = seat_view(st, seat)
            if isinstance(bot, ExternalBot):
                task = asyncio.get_running_loop().create_task(self._ask_program(bot, seat, st))
                self.asking[seat] = task
                continue
            try:
                self.clock.decided(seat, bot.act(view), now)
            except Exception as e:  # a bot's failure is not the table's
                log.warning("room %s: bot %d failed during the deal (%s)", self.id[:8], seat, e)

    async def _ask_program(self, bot: ExternalBot, seat: int, st: GameState) -> None:
        try:
            action = await bot.act_in_room(seat_view(st, seat), lambda a: apply(st, seat, a))
            self.clock.decided(seat, action, time.monotonic())
        finally:
            self.asking.pop(seat, None)
            self.kick_dealer()

    def _note_played_for(self, seat: int, action: Action) -> None:
        s = self.seats[seat]
        if s.kind == "human" and s.away and not isinstance(action, Continue):
            self.played_for[seat] = self.played_for.get(seat, 0) + 1

    def kick_driver(self) -> None:
        """Make sure bots move when it is their turn."""
        if self._bot_turn() is None:
            return
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        failures = 0
        while True:
            st = self.state
            seat = self._bot_turn()
            if st is None or seat is None:
                return
            # the bot thinks during the pause the table gives people to see the last play:
            # a search shorter than the bot delay adds no wait
            begun = time.monotonic()
            try:
                thought = await self._think(st, seat)
            except Exception as e:  # thought again below, under the lock, and counted there
                log.warning("room %s: bot thinking failed (%s)", self.id[:8], e)
                thought = None
            await asyncio.sleep(max(0.0, self.settings.bot_delay - (time.monotonic() - begun)))
            async with self.lock:
                if self.state is not st or self._bot_turn() != seat:
                    continue  # someone acted meanwhile
                try:
                    action = await self._bot_move(seat, thought)
                    failures = 0
                    self._note_played_for(seat, action)
                except Exception as e:  # the driver survives: the store may come back
                    failures += 1
                    log.warning("room %s: bot move failed (%s), retrying", self.id[:8], e)
                self._plan()
                self.broadcast()
            if failures:
                await asyncio.sleep(min(30.0, 0.5 * 2**failures))

    async def _think(self, st: GameState, seat: int) -> tuple[Any, Action] | None:
        """An in-process bot's choice for the bot's ``seat`` in ``st`` (``st`` is immutable:
        no lock is needed), thought in a thread so that a bot that searches or looks ahead
        (tens to hundreds of milliseconds) never stops the event loop; with the seat's bot
        entry it was made by. None where :meth:`_bot_move` decides under the lock: a hand
        over, a person's seat, a program."""
        if st.phase == "hand_over" or not self._bot_controls(seat):
            return None
        entry = self.bots.get(seat)
        if isinstance(entry, ExternalBot):
            return None
        return entry, await self._decide(st, seat, entry)

    async def _decide(self, st: GameState, seat: int, entry: Any) -> Action:
        """The in-process bot ``entry``'s choice for ``seat`` (None: the rule of thumb, for
        a person away or out of time), thought in a thread."""
        bot = entry or make_player("heuristic", seat, derived_seed(self.seed, "bots"))
        action: Action = await asyncio.to_thread(bot.act, seat_view(st, seat))
        effort = getattr(bot, "effort", None)
        if effort is not None:
            self.searched.append((int(effort[0]), int(effort[1]), bool(effort[2])))
        return action

    async def _bot_move(self, seat: int, thought: tuple[Any, Action] | None = None) -> Action:
        """A bot's move for ``seat`` (``thought``: :meth:`_think`'s, when the seat's bot
        is still the one that thought it), applied; returns it."""
        assert self.state is not None
        if self.state.phase == "hand_over":
            await self._apply(seat, Continue())
            return Continue()
        st = self.state
        auto = None if self._bot_controls(seat) else self._auto_action(st)
        if auto is not None:  # auto_play: nothing to choose for the person
            await self._apply(seat, auto)
            return auto
        if thought is not None and thought[0] is self.bots.get(seat):
            action = thought[1]
        else:
            entry = self.bots.get(seat)
            if isinstance(entry, ExternalBot):  # a program: asked off the event loop, checked
                action = await entry.act_in_room(seat_view(st, seat), lambda a: apply(st, seat, a))
            else:
                action = await self._decide(st, seat, entry)
        await self._apply(seat, action)
        return action

    def search_figures(self) -> dict[str, Any] | None:
        """What the room's searching bots' decisions got lately (None: no searched
        decision since the room was loaded): :func:`~shengji.bots.search.effort_figures`
        over the last :data:`SEARCH_KEPT`."""
        if not self.searched:
            return None
        from ..bots.search import effort_figures

        return effort_figures(list(self.searched))

    def _timed_out(self, seat: int, action: Action) -> None:
        """The turn timer ran out: a declaring prompt was passed, or a bot moved for
        ``seat``; say so (a burial's cards stay hidden: only their number is told)."""
        a = action_to_json(action)
        cards = a.get("cards", "")
        params = {
            "seat": seat,
            "name": self.seats[seat].name or f"{seat + 1}",
            "action": a["type"],
            "cards": "" if a["type"] == "bury" else cards,
            "count": len(cards.split()),
        }
        if a["type"] == "call":  # 找朋友: the calls are public
            params["calls"] = a.get("calls", "")
        self.notice("TIME_RAN_OUT", params)

    def _start_timer(self, st: GameState, seconds: float, hold: bool = False) -> None:
        self._cancel_timer()
        self.timer_for = st
        self.timer_hold = hold
        self.deadlines_at = time.time() + seconds
        self.timer = asyncio.get_running_loop().create_task(self._expire(st, seconds))

    def _cancel_timer(self) -> None:
        if self.timer and not self.timer.done() and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None
        self.timer_for = None
        self.timer_hold = False
        self.deadlines_at = None

    async def _expire(self, st: GameState, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            if self.state is not st or self.timer is not asyncio.current_task():
                return
            self.timer = None
            try:
                if st.phase == "hand_over":
                    if self.paused:
                        return
                    if not self.timer_hold:  # (else a review's hold ran out: plan again)
                        await self._apply(min(self.continued, default=0), Continue())
                elif st.to_act is not None and st.phase in DECLARING_PHASES:
                    await self._apply(st.to_act, Pass())  # silence is not showing
                    self._timed_out(st.to_act, Pass())
                elif st.to_act is not None:
                    action = await self._bot_move(st.to_act)
                    self._timed_out(st.to_act, action)
            except RoomError as e:
                log.warning("room %s: timer move failed (%s)", self.id[:8], e.message)
                self.timer_for = None  # try again with a fresh timer
            self._plan()
            self.broadcast()

    def disconnected(self, conn: Connection) -> None:
        """A connection closed: hand its seat to a bot after ``away_seconds``."""
        self.conns.discard(conn)
        if self.stale:
            return
        self.last_active = time.monotonic()
        seat = self.seat_of(conn)
        if (
            seat is not None
            and self.seats[seat].kind == "human"
            and seat not in self._connected_seats()
            and self.status == "playing"
        ):
            self.start_away_timer(seat)
        if self.conns:
            self._plan()
            self.broadcast()

    def start_away_timer(self, seat: int) -> None:
        """Hand ``seat`` to a bot unless its person reconnects within ``away_seconds``."""
        if seat not in self.away_tasks and not self.stale:
            loop = asyncio.get_running_loop()
            self.away_tasks[seat] = loop.create_task(self.hand_to_bot_later(seat))

    async def hand_to_bot_later(self, seat: int) -> None:
        """After ``away_seconds`` without a connection, a bot plays ``seat``."""
        await asyncio.sleep(self.settings.away_seconds)
        async with self.lock:
            self.away_tasks.pop(seat, None)
            if seat in self._connected_seats() or self.seats[seat].kind != "human":
                return
            try:
                async with self.saving():
                    self.seats[seat].away = True
            except RoomError:
                return  # the store is down: the seat stays the person's
            self._plan()
            self.broadcast()
