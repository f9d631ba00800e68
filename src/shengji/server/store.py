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
    event,
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
    """Another server process has written this room's next action first: the copy in
    this process's memory is stale."""

    code: str = Code.ROOM_MOVED


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


class ActionRow(Base):
    """One applied game action (the event log)."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("room_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)


class RecordRow(Base):
    """The record of a finished match."""

    __tablename__ = "records"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    finished: Mapped[float] = mapped_column(Float)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)


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


class ActionWrite(NamedTuple):
    """One applied action to be written (with what goes in the same commit)."""

    room_id: str
    seq: int
    seat: int
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
            if self.engine.dialect.name == "postgresql":
                conn.execute(text("ALTER TABLE rooms ALTER COLUMN id TYPE VARCHAR(64)"))

    @_guarded
    def save_room(
        self,
        room_id: str,
        status: str,
        settings: dict[str, Any],
        lobby: dict[str, Any],
        public: bool = False,
    ) -> None:
        """Insert or update a room's settings and lobby."""
        now = time.time()
        values = {
            "status": status,
            "public": public,
            "settings": settings,
            "lobby": lobby,
            "updated": now,
        }
        with self.engine.begin() as conn:
            done = conn.execute(update(RoomRow).where(RoomRow.id == room_id), values)
            if done.rowcount == 0:
                conn.execute(insert(RoomRow), {"id": room_id, "created": now, **values})
            self._notify(conn, room_id)

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
                    {"room_id": w.room_id, "seq": w.seq, "seat": w.seat, "action": w.action}
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
    def load_room(self, room_id: str) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
        """One room: (status, settings, lobby), or None."""
        with Session(self.engine) as s:
            r = s.get(RoomRow, room_id)
            return None if r is None else (r.status, dict(r.settings), dict(r.lobby))

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
        """Mark a room that cannot be loaded; it is kept for an operator to look at."""
        with Session(self.engine) as s, s.begin():
            row = s.get(RoomRow, room_id)
            if row is not None:
                row.status = "quarantined"
                row.public = False

    @_guarded
    def load_actions(self, room_id: str) -> list[tuple[int, dict[str, Any]]]:
        """The room's actions in order: (seat, action)."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(ActionRow).where(ActionRow.room_id == room_id).order_by(ActionRow.seq)
            ).all()
            return [(r.seat, dict(r.action)) for r in rows]

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


class GroupWriter:
    """Commits actions from a thread of its own, every write waiting at the moment of a
    commit in one transaction (group commit): the event loop never waits for the disk or
    the database, and a busy server pays one commit for many actions.

    A batch that fails is retried one write at a time, so that one room's conflict or
    fault is that room's alone.
    """

    def __init__(self, store: Store, batch: int = 256) -> None:
        self.store = store
        self.batch = batch
        self._queue: queue.SimpleQueue[
            tuple[ActionWrite, asyncio.Future[None], asyncio.AbstractEventLoop] | None
        ] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="shengji-writer", daemon=True)
        self._thread.start()

    async def write(self, w: ActionWrite) -> None:
        """Write ``w``; returns once it is committed (raises StoreError)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put((w, done, loop))
        await asyncio.shield(done)  # a cancelled caller does not undo a commit

    def close(self) -> None:
        """Finish the queued writes and stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            items = [item]
            while len(items) < self.batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                items.append(more)
            try:
                self.store.append_actions([w for w, _, _ in items])
                outcomes: list[BaseException | None] = [None] * len(items)
            except StoreError as e:
                outcomes = [e] if len(items) == 1 else [self._alone(w) for w, _, _ in items]
            for (_, done, loop), error in zip(items, outcomes, strict=True):
                with contextlib.suppress(RuntimeError):  # its loop has closed: nobody waits
                    loop.call_soon_threadsafe(_settle, done, error)

    def _alone(self, w: ActionWrite) -> BaseException | None:
        try:
            self.store.append_actions([w])
        except StoreError as e:
            return e
        return None


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
