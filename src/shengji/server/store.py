"""Persistence through SQLAlchemy (SQLite by default, PostgreSQL with a URL): rooms, the
append-only action log and finished records. Every applied action
is committed before it is broadcast; a database fault is a :class:`StoreError` and the
caller changes nothing in memory."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, ParamSpec, TypeVar

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..errors import Code
from .bus import CHANNEL, payload

P = ParamSpec("P")
R = TypeVar("R")


class StoreError(Exception):
    """The database refused or could not be reached; nothing was written."""

    code: str = Code.STORE_UNAVAILABLE


class StoreConflict(StoreError):
    """Another server process has written this room's next action, or its lobby, first:
    the copy in this process's memory is stale."""

    code: str = Code.ROOM_MOVED


class RoomDamaged(Exception):
    """A room's stored row cannot be read (bad JSON, a lobby of the wrong shape): it is
    quarantined, and the other rooms are served."""

    code: str = Code.ROOM_UNAVAILABLE


class RoomData(NamedTuple):
    """A room's row: status, settings, lobby, and the version its next lobby write must
    find (every lobby write is conditional on it; see :meth:`Store.save_room`)."""

    status: str
    settings: dict[str, Any]
    lobby: dict[str, Any]
    version: int


def _guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Database faults become :class:`StoreError`."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except IntegrityError as e:
            raise StoreConflict("another server process has changed this room") from e
        except SQLAlchemyError as e:
            raise StoreError(f"the database is unavailable ({type(e).__name__})") from e

    return wrapper


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class RoomRow(Base):
    """A room: its settings and lobby (seats, tokens as hashes, chat tail)."""

    __tablename__ = "rooms"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16))
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    lobby: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Raised by every lobby write: a write made on an older copy is refused.
    version: Mapped[int] = mapped_column(Integer, default=0)


class ActionRow(Base):
    """One applied game action (the event log). The unique (room_id, seq) index is the
    one a room's actions are read by: an index of room_id alone would only be one more
    page written per action."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("room_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)


class RecordRow(Base):
    """The record of a finished match."""

    __tablename__ = "records"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    finished: Mapped[float] = mapped_column(Float)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)


def _check_shape(data: RoomData) -> None:
    """What every reader of a room row relies on (raises ValueError)."""
    seats = data.lobby.get("seats")
    if not (
        isinstance(seats, list) and 4 <= len(seats) <= 8 and all(isinstance(x, dict) for x in seats)
    ):
        raise ValueError("the lobby has not 4 to 8 seats")
    for x in seats:
        if not isinstance(x.get("kind"), str) or not isinstance(x.get("name"), str):
            raise ValueError("a seat has no kind or name")
    if not isinstance(data.lobby.get("spectators", {}), dict):
        raise ValueError("the spectators are not a table")
    if not isinstance(data.settings.get("preset"), str):
        raise ValueError("the settings name no preset")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL keeps every committed action through a killed process, with far cheaper commits.
    # No automatic checkpoints: the one commit that crosses the threshold would wait for
    # the checkpoint's fsync (tens of milliseconds every few seconds under load, in every
    # player's latency); Store's checkpointer thread does it beside the commits instead.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()


def sqlite_url(path: str | Path) -> str:
    """A SQLite URL for ``path``, creating its folder (0700) and the file (0600)."""
    p = Path(path)
    p.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    _private_file(p)
    return f"sqlite:///{p}"


#: Built once: a statement made per action would leave garbage for the collector.
_INSERT_ACTION = insert(ActionRow)
_NOTIFY_MANY = text("SELECT pg_notify(:c, p) FROM unnest(CAST(:ps AS text[])) AS p")


def _private_file(p: Path) -> None:
    """Create ``p`` readable by its owner only (SQLite gives its -wal and -shm files the
    same mode): the database holds the deal secrets and every hand."""
    os.close(os.open(p, os.O_CREAT | os.O_RDWR, 0o600))
    p.chmod(0o600)  # an older file keeps whatever mode it was made with otherwise


#: How the table's own actions (a paced deal's ``deal``: no seat) are stored.
TABLE_SEAT = -1


class ActionWrite(NamedTuple):
    """One applied action to be written (with what goes in the same commit); ``seat``
    None: the table's own."""

    room_id: str
    seq: int
    seat: int | None
    action: dict[str, Any]
    status: str | None = None
    record: dict[str, Any] | None = None


class Store:
    """Reads and writes rooms and their actions."""

    def __init__(self, url: str) -> None:
        if url.startswith(("postgresql://", "postgres://")):
            url = "postgresql+psycopg://" + url.split("://", 1)[1]  # the driver we ship
        kwargs: dict[str, Any] = {}
        path = url.split("?", 1)[0].removeprefix("sqlite:///")
        if url.startswith("sqlite:///") and path and path != ":memory:":
            _private_file(Path(path))
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        Base.metadata.create_all(self.engine)
        self._migrate()
        if url.startswith("sqlite") and path and path != ":memory:":
            self._checkpointer = threading.Thread(
                target=self._checkpoints, name="sqlite-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _checkpoints(self, every: float = 1.0) -> None:
        """Copy the WAL into the database file now and then (PASSIVE: never blocks a
        commit), so the WAL stays small."""
        while not self._stop.wait(every):
            with contextlib.suppress(SQLAlchemyError), self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def _migrate(self) -> None:
        """Bring a database made by an older version up to date."""
        cols = {c["name"] for c in inspect(self.engine).get_columns("rooms")}
        with self.engine.begin() as conn:
            if "public" not in cols:
                conn.execute(text("ALTER TABLE rooms ADD COLUMN public BOOLEAN DEFAULT FALSE"))
            if "version" not in cols:
                conn.execute(text("ALTER TABLE rooms ADD COLUMN version INTEGER DEFAULT 0"))
            if self.engine.dialect.name == "postgresql":
                conn.execute(text("ALTER TABLE rooms ALTER COLUMN id TYPE VARCHAR(64)"))
            conn.execute(text("DROP INDEX IF EXISTS ix_actions_room_id"))

    @_guarded
    def save_room(
        self,
        room_id: str,
        status: str,
        settings: dict[str, Any],
        lobby: dict[str, Any],
        public: bool = False,
        expect: tuple[int, str] | None = None,
    ) -> int:
        """Write a room's settings and lobby; returns its new version.

        ``expect`` is the (version, status) the writer's copy was read at: the write is
        made only if the row still has both, else :class:`StoreConflict` (another process
        changed the room meanwhile; a finished match's status is never set back). Without
        ``expect`` the room is new (inserted)."""
        now = time.time()
        values = {
            "status": status,
            "public": public,
            "settings": settings,
            "lobby": lobby,
            "updated": now,
        }
        with self.engine.begin() as conn:
            if expect is None:
                conn.execute(
                    insert(RoomRow), {"id": room_id, "created": now, "version": 0, **values}
                )
                version = 0
            else:
                version, before = expect
                done = conn.execute(
                    update(RoomRow).where(
                        RoomRow.id == room_id,
                        RoomRow.version == version,
                        RoomRow.status == before,
                    ),
                    {**values, "version": version + 1},
                )
                if done.rowcount != 1:
                    raise StoreConflict("another server process has changed this room")
                version += 1
            self._notify(conn, room_id)
        return version

    def _notify(self, conn: Connection, *room_ids: str) -> None:
        """Tell the other server processes (PostgreSQL only), when this commits, that these
        rooms changed: one statement for all of them."""
        if self.engine.dialect.name == "postgresql" and room_ids:
            conn.execute(_NOTIFY_MANY, {"c": CHANNEL, "ps": [payload(r) for r in sorted(room_ids)]})

    @_guarded
    def append_actions(self, writes: Sequence[ActionWrite]) -> None:
        """Append several rooms' actions in one commit (all or none)."""
        with self.engine.begin() as conn:
            self._notify(conn, *{w.room_id for w in writes})
            # one statement for the whole batch (a multi-row INSERT on PostgreSQL)
            conn.execute(
                _INSERT_ACTION,
                [
                    {
                        "room_id": w.room_id,
                        "seq": w.seq,
                        "seat": TABLE_SEAT if w.seat is None else w.seat,
                        "action": w.action,
                    }
                    for w in writes
                ],
            )
            for w in writes:
                if w.record is not None:
                    conn.execute(
                        insert(RecordRow),
                        {"room_id": w.room_id, "finished": time.time(), "record": w.record},
                    )
                if w.status is not None:
                    conn.execute(
                        update(RoomRow).where(RoomRow.id == w.room_id),
                        {"status": w.status, "updated": time.time()},
                    )

    @_guarded
    def take_back(self, room_id: str, seq: int, rewrites: Sequence[ActionWrite]) -> None:
        """Remove a room's actions from ``seq`` on and append ``rewrites`` in their place
        (one commit): a taken-back action leaves no trace in the log."""
        with self.engine.begin() as conn:
            self._notify(conn, room_id)
            conn.execute(
                delete(ActionRow).where(ActionRow.room_id == room_id, ActionRow.seq >= seq)
            )
            if rewrites:
                conn.execute(
                    _INSERT_ACTION,
                    [
                        {
                            "room_id": w.room_id,
                            "seq": w.seq,
                            "seat": TABLE_SEAT if w.seat is None else w.seat,
                            "action": w.action,
                        }
                        for w in rewrites
                    ],
                )

    @_guarded
    def load_room(self, room_id: str) -> RoomData | None:
        """One room, or None; :class:`RoomDamaged` (after quarantining it) when its row
        cannot be read."""
        with Session(self.engine) as s:
            try:
                r = s.get(RoomRow, room_id)
                if r is None:
                    return None
                data = RoomData(r.status, dict(r.settings), dict(r.lobby), int(r.version or 0))
                _check_shape(data)
            except (ValueError, TypeError, KeyError) as e:
                s.rollback()
                self.quarantine(room_id)
                raise RoomDamaged(f"room {room_id} cannot be read ({type(e).__name__})") from e
            return data

    @_guarded
    def room_mark(self, room_id: str) -> tuple[int, int] | None:
        """A room's lobby version and its number of actions (None: no such room): what
        a process compares with its copy to know whether another one wrote the room."""
        with self.engine.connect() as conn:
            row = conn.execute(select(RoomRow.version).where(RoomRow.id == room_id)).first()
            if row is None:
                return None
            last = conn.execute(
                select(func.max(ActionRow.seq)).where(ActionRow.room_id == room_id)
            ).scalar()
        return int(row[0] or 0), 0 if last is None else int(last) + 1

    @_guarded
    def public_rooms(self, limit: int = 200) -> list[str]:
        """Ids of the public rooms not yet finished, newest first."""
        with Session(self.engine) as s:
            q = (
                select(RoomRow.id)
                .where(RoomRow.public.is_(True), RoomRow.status.in_(("lobby", "playing")))
                .order_by(RoomRow.updated.desc())
                .limit(limit)
            )
            return list(s.scalars(q).all())

    @_guarded
    def quarantine(self, room_id: str) -> None:
        """Mark a room that cannot be loaded; it is kept for an operator to look at (its
        columns are not read: they may be what is damaged)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(RoomRow)
                .where(RoomRow.id == room_id)
                .values(status="quarantined", public=False, version=RoomRow.version + 1)
            )

    @_guarded
    def load_actions(self, room_id: str) -> list[tuple[int | None, dict[str, Any]]]:
        """The room's actions in order: (seat, action); seat None: the table's own."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(ActionRow).where(ActionRow.room_id == room_id).order_by(ActionRow.seq)
            ).all()
            return [(None if r.seat == TABLE_SEAT else r.seat, dict(r.action)) for r in rows]

    @_guarded
    def load_record(self, room_id: str) -> dict[str, Any] | None:
        """A finished match's record, if any."""
        with Session(self.engine) as s:
            row = s.get(RecordRow, room_id)
            return json.loads(json.dumps(row.record)) if row else None

    def close(self) -> None:
        """Stop the checkpointer and release the connection pool."""
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=5)
        self.engine.dispose()


Job = ActionWrite | Callable[[], Any]

#: How long the writes of the event loop are gathered before they go to the writer's
#: thread together (a thread woken per action costs more CPU than its commit).
HAND_OVER_SECONDS = 0.005


class GroupWriter:
    """Commits from a thread of its own, so that the event loop never waits for the disk
    or the database. Actions are group-committed: every action write waiting at the
    moment of a commit goes in one transaction, and a busy server pays one commit for
    many actions. Other writes (a room's lobby) are calls run in the same thread, each on
    its own.

    Both sides batch their hand-overs: the writes made during one turn of the event loop
    go to the thread together, and the outcomes of one commit come back in one callback
    (waking a thread per action cost more than the commit).

    A batch that fails is retried one write at a time, so that one room's conflict or
    fault is that room's alone.
    """

    def __init__(self, store: Store, batch: int = 256) -> None:
        self.store = store
        self.batch = batch
        self._queue: queue.SimpleQueue[
            tuple[asyncio.AbstractEventLoop, list[tuple[Job, asyncio.Future[Any]]]] | None
        ] = queue.SimpleQueue()
        self._gathering: list[tuple[Job, asyncio.Future[Any]]] = []
        self._thread = threading.Thread(target=self._run, name="shengji-writer", daemon=True)
        self._thread.start()

    async def write(self, w: ActionWrite) -> None:
        """Write ``w``; returns once it is committed (raises StoreError)."""
        await self._submit(w)

    async def call(self, fn: Callable[[], R]) -> R:
        """Run ``fn`` (a store write) in the writer's thread; its result or exception."""
        result: R = await self._submit(fn)
        return result

    async def _submit(self, job: Job) -> Any:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        if not self._gathering:
            loop.call_later(HAND_OVER_SECONDS, self._hand_over, loop)
        self._gathering.append((job, done))
        # a cancelled caller cancels only its future: the job, queued, is committed still
        return await done

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        jobs, self._gathering = self._gathering, []
        if jobs:
            self._queue.put((loop, jobs))

    def close(self) -> None:
        """Finish the queued writes and stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batches = [item]
            size = len(item[1])
            while size < self.batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batches.append(more)
                size += len(more[1])
            for loop, jobs in batches:  # one loop in practice; several in tests
                outcomes = self._commit(jobs)
                with contextlib.suppress(RuntimeError):  # its loop has closed: nobody waits
                    loop.call_soon_threadsafe(_settle_all, outcomes)

    def _commit(
        self, jobs: list[tuple[Job, asyncio.Future[Any]]]
    ) -> list[tuple[asyncio.Future[Any], Any, BaseException | None]]:
        writes = [(w, done) for w, done in jobs if isinstance(w, ActionWrite)]
        outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        if writes:
            try:
                self.store.append_actions([w for w, _ in writes])
                errors: list[BaseException | None] = [None] * len(writes)
            except StoreError as e:
                errors = [e] if len(writes) == 1 else [self._alone(w) for w, _ in writes]
            outcomes += [
                (done, None, error) for (_, done), error in zip(writes, errors, strict=True)
            ]
        for job, done in jobs:
            if not isinstance(job, ActionWrite):
                try:
                    outcomes.append((done, job(), None))
                except Exception as e:  # handed to the caller
                    outcomes.append((done, None, e))
        return outcomes

    def _alone(self, w: ActionWrite) -> BaseException | None:
        try:
            self.store.append_actions([w])
        except StoreError as e:
            return e
        return None


def _settle_all(outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    for done, value, error in outcomes:
        _settle(done, value, error)


def _settle(done: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(value)
    else:
        done.set_exception(error)
