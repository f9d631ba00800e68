"""Persistence through SQLAlchemy (SQLite by default, PostgreSQL with a URL): rooms, the
append-only action log, periodic snapshots and finished records. Every applied action
is committed before it is broadcast."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

SNAPSHOT_EVERY = 100


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class RoomRow(Base):
    """A room: its settings and lobby (seats, tokens as hashes, chat tail)."""

    __tablename__ = "rooms"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16))
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


class SnapshotRow(Base):
    """A periodic snapshot: the match record up to ``seq`` actions."""

    __tablename__ = "snapshots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)


class RecordRow(Base):
    """The record of a finished match."""

    __tablename__ = "records"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    finished: Mapped[float] = mapped_column(Float)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL keeps every committed action through a killed process, with far cheaper commits
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def sqlite_url(path: str | Path) -> str:
    """A SQLite URL for ``path``, creating its folder (0700) and the file (0600): the
    database holds the deal secrets and every hand."""
    p = Path(path)
    p.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.close(os.open(p, os.O_CREAT | os.O_RDWR, 0o600))
    p.chmod(0o600)  # an older file keeps whatever mode it was made with otherwise
    return f"sqlite:///{p}"


class Store:
    """Reads and writes rooms and their actions."""

    def __init__(self, url: str) -> None:
        if url.startswith(("postgresql://", "postgres://")):
            url = "postgresql+psycopg://" + url.split("://", 1)[1]  # the driver we ship
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        Base.metadata.create_all(self.engine)

    def save_room(
        self, room_id: str, status: str, settings: dict[str, Any], lobby: dict[str, Any]
    ) -> None:
        """Insert or update a room's settings and lobby."""
        now = time.time()
        with Session(self.engine) as s, s.begin():
            row = s.get(RoomRow, room_id)
            if row is None:
                s.add(
                    RoomRow(
                        id=room_id,
                        created=now,
                        updated=now,
                        status=status,
                        settings=settings,
                        lobby=lobby,
                    )
                )
            else:
                row.status, row.settings, row.lobby, row.updated = status, settings, lobby, now

    def append_action(
        self,
        room_id: str,
        seq: int,
        seat: int,
        action: dict[str, Any],
        snapshot: dict[str, Any] | None = None,
        lobby: dict[str, Any] | None = None,
        status: str | None = None,
    ) -> None:
        """Append one action (and optionally a snapshot and the lobby) in one commit."""
        with Session(self.engine) as s, s.begin():
            s.add(ActionRow(room_id=room_id, seq=seq, seat=seat, action=action))
            if snapshot is not None:
                s.add(SnapshotRow(room_id=room_id, seq=seq + 1, record=snapshot))
            if lobby is not None or status is not None:
                row = s.get(RoomRow, room_id)
                if row is not None:
                    if lobby is not None:
                        row.lobby = lobby
                    if status is not None:
                        row.status = status
                    row.updated = time.time()

    def save_record(self, room_id: str, record: dict[str, Any]) -> None:
        """Store the record of a finished match."""
        with Session(self.engine) as s, s.begin():
            row = s.get(RecordRow, room_id)
            if row is None:
                s.add(RecordRow(room_id=room_id, finished=time.time(), record=record))
            else:
                row.record = record

    def load_rooms(self) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
        """Every room: (id, status, settings, lobby)."""
        with Session(self.engine) as s:
            rows = s.scalars(select(RoomRow).order_by(RoomRow.created)).all()
            return [(r.id, r.status, dict(r.settings), dict(r.lobby)) for r in rows]

    def load_actions(self, room_id: str) -> list[tuple[int, dict[str, Any]]]:
        """The room's actions in order: (seat, action)."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(ActionRow).where(ActionRow.room_id == room_id).order_by(ActionRow.seq)
            ).all()
            return [(r.seat, dict(r.action)) for r in rows]

    def load_record(self, room_id: str) -> dict[str, Any] | None:
        """A finished match's record, if any."""
        with Session(self.engine) as s:
            row = s.get(RecordRow, room_id)
            return json.loads(json.dumps(row.record)) if row else None

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()
