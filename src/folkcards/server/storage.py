"""The web table's durable storage: one append-only event log per table (SQLAlchemy).

Every table is a row of ``tables`` (for the lobby) plus its events in ``events``, in
order: ``create`` (game, variant, seats, options, match keys), ``join``/``leave``
(a seat claimed or released, with the hash of its secret token), ``deal`` (the
shuffled deck and dealer of a new deal), ``act`` (one action's text and seat) and
``end``. Replaying the events rebuilds the table exactly, so a server killed at any
moment restarts with every unfinished table as it was.

Writes go through :class:`EventLog`, which groups the events that arrive while a
commit is running into the next transaction (group commit): an action is
acknowledged only after the transaction holding it has committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

tables_t = Table(
    "folkcards_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("title", String(200), nullable=False, default=""),
    Column("status", String(16), nullable=False),  # open | playing | finished
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("summary", JSON, nullable=False),
)

events_t = Table(
    "folkcards_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "table_id",
        String(32),
        ForeignKey("folkcards_tables.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("seq", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("data", JSON, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_folkcards_events_table_seq", "table_id", "seq", unique=True),
)


def default_db_url() -> str:
    """SQLite in the user's data directory (created if needed)."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("folkcards", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'folkcards.db'}"


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url``; SQLite gets WAL mode and a busy timeout."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("sqlite"):
        eng = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(eng, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return eng
    return create_engine(url, pool_pre_ping=True)


@dataclass(frozen=True)
class Event:
    """One stored event of a table."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


class Storage:
    """Synchronous access to the two tables (called from a worker thread by EventLog)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        metadata.create_all(self.engine)

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    def create_table(self, table_id: str, game: str, title: str, summary: dict[str, Any]) -> None:
        """Insert the lobby row of a new table."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                tables_t.insert().values(
                    id=table_id,
                    game=game,
                    title=title,
                    status="open",
                    created=now,
                    updated=now,
                    summary=summary,
                )
            )

    def write_batch(
        self,
        events: Sequence[tuple[str, int, str, dict[str, Any]]],
        rows: Sequence[tuple[str, str, dict[str, Any]]],
    ) -> None:
        """Append events ``(table, seq, kind, data)`` and update lobby rows
        ``(table, status, summary)`` in one transaction."""
        now = time.time()
        with self.engine.begin() as conn:
            if events:
                conn.execute(
                    events_t.insert(),
                    [
                        {"table_id": t, "seq": s, "kind": k, "data": d, "at": now}
                        for t, s, k, d in events
                    ],
                )
            for t, status, summary in rows:
                conn.execute(
                    update(tables_t)
                    .where(tables_t.c.id == t)
                    .values(status=status, summary=summary, updated=now)
                )

    def events(self, table_id: str) -> list[Event]:
        """Every event of a table in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events_t.c.seq, events_t.c.kind, events_t.c.data, events_t.c.at)
                .where(events_t.c.table_id == table_id)
                .order_by(events_t.c.seq)
            ).all()
        return [Event(r.seq, r.kind, _as_dict(r.data), r.at) for r in rows]

    def table_ids(self, statuses: Sequence[str]) -> list[str]:
        """Ids of the tables in the given states, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_t.c.id)
                .where(tables_t.c.status.in_(list(statuses)))
                .order_by(tables_t.c.created)
            ).all()
        return [r.id for r in rows]

    def table_row(self, table_id: str) -> dict[str, Any] | None:
        """The lobby row of a table, or None."""
        with self.engine.connect() as conn:
            r = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
        if r is None:
            return None
        return {
            "id": r.id,
            "game": r.game,
            "title": r.title,
            "status": r.status,
            "created": r.created,
            "updated": r.updated,
            "summary": _as_dict(r.summary),
        }


def _as_dict(value: Any) -> dict[str, Any]:
    if isinstance(value, str):  # some drivers hand JSON back as text
        value = json.loads(value)
    if not isinstance(value, dict):
        raise TypeError("stored JSON is not an object")
    return value


class EventLog:
    """Asynchronous, group-committing front of :class:`Storage`.

    ``await append(...)`` returns once the event is committed. Events queued while a
    commit runs go together into the next one, in arrival order.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._events: list[tuple[str, int, str, dict[str, Any]]] = []
        self._rows: dict[str, tuple[str, dict[str, Any]]] = {}
        self._waiters: list[asyncio.Future[None]] = []
        self._task: asyncio.Task[None] | None = None
        self._wakeup: asyncio.Event | None = None
        self.commits = 0

    async def append(
        self,
        table_id: str,
        seq: int,
        kind: str,
        data: dict[str, Any],
        row: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        """Queue one event (and optionally the table's new lobby row); wait for its commit."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._events.append((table_id, seq, kind, data))
        if row is not None:
            self._rows[table_id] = row
        self._waiters.append(fut)
        self._ensure_task()
        assert self._wakeup is not None
        self._wakeup.set()
        await fut

    def _ensure_task(self) -> None:
        if self._task is None or self._task.done():
            self._wakeup = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        assert self._wakeup is not None
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            while self._events or self._rows:
                events, self._events = self._events, []
                rows = [(t, s, d) for t, (s, d) in self._rows.items()]
                self._rows = {}
                waiters, self._waiters = self._waiters, []
                try:
                    await asyncio.to_thread(self.storage.write_batch, events, rows)
                except Exception as exc:  # every waiter learns that its write failed
                    for w in waiters:
                        if not w.done():
                            w.set_exception(StorageError(str(exc)))
                    continue
                self.commits += 1
                for w in waiters:
                    if not w.done():
                        w.set_result(None)

    async def close(self) -> None:
        """Stop the writer task once everything queued is committed."""
        while self._events or self._rows or self._waiters_pending():
            await asyncio.sleep(0.01)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _waiters_pending(self) -> bool:
        return any(not w.done() for w in self._waiters)


class StorageError(RuntimeError):
    """A database write that failed; the action it carried was not applied."""
