"""Hand reviews and hints for the web app, off the event loop: :func:`shengji.bots.review.review`
of one seat's plays in one hand (:func:`review_hand`), and the strongest bot's action for
a seat on its turn (:func:`hint_for`), each in a :class:`Reviewer` of its own.

A review searches every play of the seat again (about 0.1 s each with the default 300
rollouts, some 2-3 s a hand), so it runs in one worker process made on first use (the
search is pure Python: a thread would hold the interpreter lock that every table needs).
At most ``queue`` reviews run or wait at once, a second request for a review already
under way waits for the same answer, and answers are kept per (room, seat, hand,
rollouts): a finished hand's review never changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..errors import Code, ShengjiError

log = logging.getLogger(__name__)

#: Answers kept (each a few hundred bytes).
CACHE_SIZE = 512

#: A worker's job: (its input, seat, hand, budget) -> its JSON answer.
Job = Callable[[Any, int, int, int], Any]


class ReviewBusy(ShengjiError):
    """Too many reviews (or hints: ``code`` ``HINT_BUSY``) are running or waiting."""

    def __init__(self, code: Code = Code.REVIEW_BUSY) -> None:
        super().__init__(code.meaning, code=code)


def mark_json(mark: Any) -> dict[str, Any]:
    """A :class:`shengji.bots.review.Mark` for clients: cards in notation, figures rounded, the
    line in both languages (suits as symbols) as ``text`` (the reason at its end) and as
    ``line`` (without it), and the ``reason`` on its own: a stable ``code``, its ``params``
    and its ``text`` in both languages (:mod:`shengji.bots.reasons`). ``view`` is the
    replayer's view index of the table just after the play
    (``GET /api/rooms/{id}/replay/views``)."""
    played = " ".join(c.text for c in mark.played)
    better = " ".join(c.text for c in mark.better)
    gain, se = round(mark.gain, 3), round(mark.se, 3)
    text = {lang: _capital(mark.text(lang)) for lang in ("en", "zh")}
    line = {lang: _capital(mark.line(lang)) for lang in ("en", "zh")}
    reason = mark.why.json()
    reason["text"] = {lang: _capital(words) for lang, words in reason["text"].items()}
    return {
        "index": mark.index,
        "view": mark.index + 1,
        "hand": mark.hand,
        "trick": mark.trick,
        "order": mark.order,
        "played": played,
        "better": better,
        "gain": gain,
        "se": se,
        "deals": mark.deals,
        "text": text,
        "line": line,
        "reason": reason,
    }


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def review_hand(rec: dict[str, Any], seat: int, hand: int, rollouts: int) -> list[dict[str, Any]]:
    """The marks of ``seat`` in ``hand`` of a record, as JSON (runs in the worker);
    ``BAD_HAND`` unless the record plays that hand to its end."""
    from ..bots.review import review
    from ..bots.search import Budget
    from ..game.record import replay

    if len(replay(rec).results) <= hand:
        raise ShengjiError(f"hand {hand} is not over", code=Code.BAD_HAND)
    return [mark_json(m) for m in review(rec, seat, Budget(rollouts=rollouts), hand=hand)]


def hint_for(view: Any, seat: int, _hand: int, millis: int) -> dict[str, Any]:
    """What the strongest bot would do in ``view`` (a :class:`~shengji.game.views.SeatView`,
    or a :func:`live_record` to replay first) within ``millis`` ms, and why
    (:func:`shengji.bots.hints.hint`; runs in the worker; ``NOT_YOUR_TURN`` unless ``seat`` is
    to act)."""
    from ..bots.hints import hint
    from ..bots.registry import hint_bot
    from ..game.record import replay
    from ..game.views import seat_view

    if isinstance(view, dict):
        st = replay(view)
        if st.to_act != seat or st.phase in ("hand_over", "match_over"):
            raise ShengjiError("hints are for your own turn", code=Code.NOT_YOUR_TURN)
        view = seat_view(st, seat)
    if view.seat != seat:
        raise ShengjiError("hints are for your own turn", code=Code.NOT_YOUR_TURN)
    return hint(view, hint_bot(millis))


def hand_actions(actions: list[dict[str, Any]], hand: int) -> list[dict[str, Any]]:
    """The actions up to the end of ``hand`` (the next hand starts with its first
    ``continue``): what a review of that hand needs to re-play."""
    seen = 0
    for i, a in enumerate(actions):
        if a.get("type") == "continue":
            if seen == hand:
                return actions[:i]
            seen += 1
    return actions


def live_record(
    settings: dict[str, Any], lobby: dict[str, Any], actions: list[Any]
) -> dict[str, Any]:
    """A record of a match under way from the store's rows (the room's settings, its
    lobby with the secret seed, its ``(seat, action)`` log): never for anyone's eyes, only
    for the worker, which reviews from the reviewed seat's view."""
    from ..game.record import FORMAT, VERSION
    from .room_settings import RoomSettings

    room = RoomSettings.stored(settings)
    opts = room.options().to_dict()
    return {
        "format": FORMAT,
        "version": VERSION,
        "preset": opts.pop("name"),
        "rules": opts,
        "seed": int(lobby["seed"]),
        **({"paced": True} if room.paced else {}),
        "actions": [{"seat": seat, **a} for seat, a in actions],
    }


def _thread_pool() -> Executor:
    return ThreadPoolExecutor(1, thread_name_prefix="review")


#: Linux ``prctl`` option: the signal a process gets when its parent dies.
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int, every: float = 0.5) -> None:
    """Make this worker process end when ``parent`` (the server) does, even on
    ``kill -9``: on Linux the kernel kills it at once (``PR_SET_PDEATHSIG``), and
    everywhere a thread exits it within ``every`` seconds once it has another parent.
    (Linux sends the signal when the *thread* that started the worker ends: the event
    loop's, which lives as long as the app.)"""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)

    if os.getppid() != parent:  # it died before the watch began
        os._exit(1)
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _process_pool() -> Executor:
    # spawn: the server has threads (the store's writer) that a fork would copy mid-work
    return ProcessPoolExecutor(
        1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


class Reviewer:
    """Runs reviews one at a time in a worker (made on first use), ``queue`` at most
    running or waiting, with answers cached."""

    def __init__(
        self,
        queue: int = 4,
        job: Job = review_hand,
        executor: Callable[[], Executor] = _process_pool,
        busy: Code = Code.REVIEW_BUSY,
        cache_size: int = CACHE_SIZE,
    ) -> None:
        self.queue = queue
        self.cache_size = cache_size
        self.job = job
        self.make_executor = executor
        self.busy = busy
        self.executor: Executor | None = None
        self.cache: OrderedDict[Hashable, Any] = OrderedDict()
        self.pending: dict[Hashable, asyncio.Future[Any]] = {}
        #: The peers whose own review is under way (one each: a client cannot fill the queue).
        self.asking: set[str] = set()

    def cached(self, key: Hashable) -> Any:
        """A kept answer, if any."""
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        return None

    async def review(
        self,
        key: Hashable,
        record: Callable[[], Any],
        seat: int,
        hand: int,
        rollouts: int,
        peer: str = "",
    ) -> Any:
        """The marks for ``key``: kept, under way, or reviewed now from ``record()``
        (raises :class:`ReviewBusy` when ``queue`` reviews are running or waiting, or when
        ``peer`` already waits for a review of its own)."""
        if (hit := self.cached(key)) is not None:
            return hit
        if (under_way := self.pending.get(key)) is not None:
            return await asyncio.shield(under_way)
        if len(self.pending) >= self.queue or (peer and peer in self.asking):
            raise ReviewBusy(self.busy)
        rec = record()
        if self.executor is None:
            self.executor = self.make_executor()
        loop = asyncio.get_running_loop()
        try:
            fut = asyncio.ensure_future(
                loop.run_in_executor(self.executor, self.job, rec, seat, hand, rollouts)
            )
        except BrokenProcessPool:
            self.executor = None  # the worker died: a fresh one next time
            raise ReviewBusy(self.busy) from None
        except RuntimeError as e:
            # no process can be started here (a main module without the __main__ guard):
            # a thread, still off the loop, though it shares the interpreter lock
            log.warning("hand reviews run in a thread: no worker process (%s)", e)
            self.executor.shutdown(wait=False)
            self.make_executor = _thread_pool
            self.executor = _thread_pool()
            fut = asyncio.ensure_future(
                loop.run_in_executor(self.executor, self.job, rec, seat, hand, rollouts)
            )

        def settle(f: asyncio.Future[Any]) -> None:
            # runs even when the asker went away: the answer is kept for the next one
            self.pending.pop(key, None)
            self.asking.discard(peer)
            if f.cancelled():
                return
            error = f.exception()
            if error is None:
                self.cache[key] = f.result()
                while len(self.cache) > self.cache_size:
                    self.cache.popitem(last=False)
            elif isinstance(error, BrokenProcessPool):
                self.executor = None

        self.pending[key] = fut
        if peer:
            self.asking.add(peer)
        fut.add_done_callback(settle)
        try:
            return await asyncio.shield(fut)
        except BrokenProcessPool:
            raise ReviewBusy(self.busy) from None

    def close(self) -> None:
        """Stop the worker now: reviews under way are abandoned and its process ends
        (terminated, and waited for up to 2 s), so that no worker outlives the app."""
        executor, self.executor = self.executor, None
        if executor is None:
            return
        workers = (
            list(executor._processes.values()) if isinstance(executor, ProcessPoolExecutor) else []
        )
        executor.shutdown(wait=False, cancel_futures=True)
        for proc in workers:
            proc.terminate()
        for proc in workers:
            proc.join(2)
