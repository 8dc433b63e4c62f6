"""The web table's durable storage: one append-only event log per table (SQLAlchemy).

Every table is a row of ``tables`` (for the lobby) plus its events in ``events``, in
order: ``create`` (game, variant, seats, options, match keys), ``join``/``leave``
(a seat claimed or released, with the hash of its secret token), ``deal`` (the
shuffled deck and dealer of a new deal), ``act`` (one action's text and seat) and
``end``. Replaying the events rebuilds the table exactly, so a server killed at any
moment restarts with every unfinished table as it was.

Writes go through :class:`EventLog`, which groups the events that arrive while a
commit is running into the next transaction (group commit): an action is
acknowledged only after the transaction holding it has committed. A transaction the
database refuses for a passing reason (a lock held past the busy timeout, a full disk, a
lost connection) is retried with backoff, in order, until it commits; meanwhile
``EventLog.trouble`` says why and ``on_trouble`` is told when that starts and ends.

One server process owns a database at a time: it holds the ``folkcards_lease`` row
(owner, heartbeat, expiry), renewed by every write and by a heartbeat, and every write
transaction first checks that it still holds it (:class:`LeaseLost` otherwise). A second
server finds the lease live and is refused (:class:`LeaseHeld`). A lease whose owner
died on this host is taken over at once; any other waits for its expiry.

Tables whose log cannot be replayed are *quarantined*: their row's status becomes
``quarantined`` and ``folkcards_quarantine`` says why (``folkcards db check``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
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
    delete,
    event,
    select,
    update,
)
from sqlalchemy import exc as sa_exc
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

quarantine_t = Table(
    "folkcards_quarantine",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("reason", String(500), nullable=False),
    Column("previous_status", String(16), nullable=False, default=""),
    Column("at", Float, nullable=False),
)

lease_t = Table(
    "folkcards_lease",
    metadata,
    Column("name", String(16), primary_key=True),
    Column("owner", String(200), nullable=False),
    Column("heartbeat", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

LEASE_TTL = 30.0
"""Seconds a server's lease lasts without a renewal."""


def default_db_url() -> str:
    """SQLite in the user's data directory (created if needed)."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("folkcards", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'folkcards.db'}"


def make_engine(url: str, busy_timeout: float = 30.0) -> Engine:
    """A SQLAlchemy engine for ``url``; SQLite gets WAL mode and a busy timeout (seconds a
    write waits for another connection's lock before it fails and is retried)."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("sqlite"):
        eng = create_engine(url, connect_args={"timeout": busy_timeout, "check_same_thread": False})

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


class LeaseHeld(RuntimeError):
    """Another live server owns this database."""


class LeaseLost(RuntimeError):
    """This server's lease was taken over (it was not renewed in time): it must not write."""


def new_owner() -> str:
    """A lease owner id for this process: host, process id and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def _owner_alive(owner: str) -> bool:
    """False only when ``owner`` is a process of this host that no longer exists."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return True
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


class Storage:
    """Synchronous access to the tables (called from a worker thread by EventLog)."""

    def __init__(self, url: str, busy_timeout: float = 30.0) -> None:
        self.url = url
        self.engine = make_engine(url, busy_timeout)
        metadata.create_all(self.engine)
        self.owner: str | None = None
        """This server's lease owner id once :meth:`acquire_lease` succeeded."""
        self.lease_ttl = LEASE_TTL

    # --- the lease ---------------------------------------------------------------------
    def acquire_lease(self, owner: str | None = None, ttl: float = LEASE_TTL) -> str:
        """Take the database's lease for this process; LeaseHeld if another live server
        holds it. Returns the owner id."""
        owner = owner or new_owner()
        self.lease_ttl = ttl
        now = time.time()
        with self.engine.begin() as conn:
            row = conn.execute(select(lease_t).where(lease_t.c.name == "server")).first()
            if row is None:
                try:
                    conn.execute(
                        lease_t.insert().values(
                            name="server", owner=owner, heartbeat=now, expires=now + ttl
                        )
                    )
                except sa_exc.IntegrityError:
                    raise LeaseHeld(self._held_message(None)) from None
            else:
                if row.owner != owner and row.expires > now and _owner_alive(row.owner):
                    raise LeaseHeld(self._held_message(row))
                done = conn.execute(
                    update(lease_t)
                    .where(lease_t.c.name == "server", lease_t.c.owner == row.owner)
                    .values(owner=owner, heartbeat=now, expires=now + ttl)
                )
                if done.rowcount != 1:  # another server took it at the same moment
                    raise LeaseHeld(self._held_message(None))
        self.owner = owner
        return owner

    def _held_message(self, row: Any) -> str:
        who = f" ({row.owner}, renewed {time.time() - row.heartbeat:.0f} s ago)" if row else ""
        return (
            f"another folkcards server is using this database{who}. Two servers on one "
            "database would corrupt its tables: stop the other one, or give this one its "
            "own --db. (uvicorn --workers N is not supported: one process per database.)"
        )

    def lease_holder(self) -> dict[str, Any] | None:
        """The current lease row, if any (for ``folkcards db check``)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(lease_t).where(lease_t.c.name == "server")).first()
        if row is None:
            return None
        return {
            "owner": row.owner,
            "heartbeat": row.heartbeat,
            "expires": row.expires,
            "live": row.expires > time.time() and _owner_alive(row.owner),
        }

    def renew_lease(self) -> None:
        """Extend the lease (LeaseLost if another server has it now)."""
        with self.engine.begin() as conn:
            self._renew(conn)

    def _renew(self, conn: Any) -> None:
        if self.owner is None:
            return
        now = time.time()
        done = conn.execute(
            update(lease_t)
            .where(lease_t.c.name == "server", lease_t.c.owner == self.owner)
            .values(heartbeat=now, expires=now + self.lease_ttl)
        )
        if done.rowcount != 1:
            raise LeaseLost("another server took over this database; this one stops writing")

    def release_lease(self) -> None:
        """Give the lease up (at shutdown)."""
        if self.owner is None:
            return
        with contextlib.suppress(Exception), self.engine.begin() as conn:
            conn.execute(
                delete(lease_t).where(lease_t.c.name == "server", lease_t.c.owner == self.owner)
            )
        self.owner = None

    # --- quarantine ----------------------------------------------------------------------
    def quarantine(self, table_id: str, reason: str) -> None:
        """Mark a table whose log cannot be replayed: it is not served, and ``folkcards db
        check`` lists it with ``reason``."""
        now = time.time()
        with self.engine.begin() as conn:
            self._renew(conn)
            r = conn.execute(select(tables_t.c.status).where(tables_t.c.id == table_id)).first()
            previous = r.status if r is not None else ""
            if previous == "quarantined":
                return
            conn.execute(delete(quarantine_t).where(quarantine_t.c.table_id == table_id))
            conn.execute(
                quarantine_t.insert().values(
                    table_id=table_id, reason=reason[:500], previous_status=previous, at=now
                )
            )
            conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(status="quarantined")
            )

    def quarantined(self) -> list[dict[str, Any]]:
        """Every quarantined table and why."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(quarantine_t).order_by(quarantine_t.c.at)).all()
        return [
            {"id": r.table_id, "reason": r.reason, "previous_status": r.previous_status, "at": r.at}
            for r in rows
        ]

    def drop_table(self, table_id: str) -> None:
        """Delete a table, its events and its quarantine note."""
        with self.engine.begin() as conn:
            conn.execute(delete(events_t).where(events_t.c.table_id == table_id))
            conn.execute(delete(quarantine_t).where(quarantine_t.c.table_id == table_id))
            conn.execute(delete(tables_t).where(tables_t.c.id == table_id))

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    def create_table(self, table_id: str, game: str, title: str, summary: dict[str, Any]) -> None:
        """Insert the lobby row of a new table."""
        now = time.time()
        with self.engine.begin() as conn:
            self._renew(conn)
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
            self._renew(conn)  # only the lease holder writes (fencing)
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


def transient(exc: BaseException) -> bool:
    """True for a refused write worth retrying: a lock past the busy timeout, a full disk,
    a lost connection (SQLAlchemy's OperationalError); False for a refusal that will not
    change (a duplicate event, a damaged file, a lost lease)."""
    return isinstance(exc, sa_exc.OperationalError) and not isinstance(exc, LeaseLost)


class EventLog:
    """Asynchronous, group-committing front of :class:`Storage`.

    ``await append(...)`` returns once the event is committed. Events queued while a
    commit runs go together into the next one, in arrival order. A transaction refused for
    a passing reason (:func:`transient`) is retried, with the same events in the same
    order, after ``retry_first`` seconds, doubling up to ``retry_max``; ``trouble`` holds
    the reason meanwhile, and ``on_trouble(reason or None)`` is called when trouble starts
    and when it ends. Any other refusal fails the waiters of that transaction with
    :class:`StorageError` (nothing of it was stored).

    The transactions run one at a time in a writer thread of the log's own, driven from
    the event loop by callbacks rather than by a task: an event appended while no commit
    runs starts one at once, the thread's completion is handled in the loop's next
    iteration (which starts the next commit of whatever arrived meanwhile), and an event's
    ``on_commit`` is called right there — an action's acknowledgement is queued without
    waiting for the task that appended it to be resumed. On a busy loop each hop from one
    callback to the next waits for the other callbacks ready before it, so the hops
    between an action and its acknowledgement are kept few.
    """

    def __init__(
        self, storage: Storage, *, retry_first: float = 0.05, retry_max: float = 2.0
    ) -> None:
        self.storage = storage
        self.retry_first = retry_first
        self.retry_max = retry_max
        self._events: list[tuple[str, int, str, dict[str, Any]]] = []
        self._rows: dict[str, tuple[str, dict[str, Any]]] = {}
        self._waiters: list[_Waiter] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writer: ThreadPoolExecutor | None = None
        self._writing = False
        self._retry: asyncio.TimerHandle | None = None
        self._delay = retry_first
        self.commits = 0
        self.retries = 0
        self.trouble: str | None = None
        self.on_trouble: Callable[[str | None], None] | None = None

    async def append(
        self,
        table_id: str,
        seq: int,
        kind: str,
        data: dict[str, Any],
        row: tuple[str, dict[str, Any]] | None = None,
        on_commit: Callable[[], None] | None = None,
    ) -> None:
        """Queue one event (and optionally the table's new lobby row); wait for its commit.
        ``on_commit`` is called once it is committed, before this returns (an error it
        raises is ignored: the event is stored)."""
        loop = self._loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._events.append((table_id, seq, kind, data))
        if row is not None:
            self._rows[table_id] = row
        self._waiters.append(_Waiter(fut, on_commit))
        self._start()
        await fut

    def _set_trouble(self, reason: str | None) -> None:
        was, self.trouble = self.trouble, reason
        if (was is None) != (reason is None) and self.on_trouble is not None:
            with contextlib.suppress(Exception):  # telling the tables never stops the writer
                self.on_trouble(reason)

    def _start(self) -> None:
        """Commit everything queued, unless a commit runs or a retry waits (each starts the
        next when it ends)."""
        if self._writing or self._retry is not None or not (self._events or self._rows):
            return
        loop = self._loop
        assert loop is not None
        events, self._events = self._events, []
        batch_rows, self._rows = self._rows, {}
        waiters, self._waiters = self._waiters, []
        rows = [(t, s, d) for t, (s, d) in batch_rows.items()]
        if self._writer is None:
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="folkcards-log")
        self._writing = True
        done = self._writer.submit(self.storage.write_batch, events, rows)

        def written(f: Future[None]) -> None:  # in the writer thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._written, f, events, batch_rows, waiters)

        done.add_done_callback(written)

    def _written(
        self,
        done: Future[None],
        events: list[tuple[str, int, str, dict[str, Any]]],
        batch_rows: dict[str, tuple[str, dict[str, Any]]],
        waiters: list[_Waiter],
    ) -> None:
        """A transaction ended (on the loop): tell its waiters, or put it back to retry."""
        self._writing = False
        exc = done.exception() if not done.cancelled() else StorageError("the writer stopped")
        if exc is None:
            self._delay = self.retry_first
            self.commits += 1
            if self.trouble is not None:
                self._set_trouble(None)
            for w in waiters:
                if w.on_commit is not None:
                    with contextlib.suppress(Exception):  # it is stored, whatever the hook did
                        w.on_commit()
                if not w.done.done():
                    w.done.set_result(None)
        elif transient(exc):
            # nothing of it was stored: put it back in front, in order, and retry
            self.retries += 1
            self._events = events + self._events
            batch_rows.update(self._rows)
            self._rows = batch_rows
            self._waiters = waiters + self._waiters
            self._set_trouble(_reason(exc))
            assert self._loop is not None
            self._retry = self._loop.call_later(self._delay, self._retry_now)
            self._delay = min(self.retry_max, self._delay * 2)
            return
        else:
            if isinstance(exc, LeaseLost):
                self._set_trouble(str(exc))  # for good: this server must not write
            for w in waiters:  # every waiter learns that its write failed
                if not w.done.done():
                    w.done.set_exception(StorageError(_reason(exc)))
        self._start()

    def _retry_now(self) -> None:
        self._retry = None
        self._start()

    async def heartbeat(self, every: float) -> None:
        """Renew the lease every ``every`` seconds while the log is idle (forever)."""
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(self.storage.renew_lease)
            except LeaseLost as exc:
                self._set_trouble(str(exc))
            except Exception:  # a passing refusal: the next beat (or write) renews it
                pass

    async def close(self) -> None:
        """Stop the writer once everything queued is committed (or, while storage refuses
        writes, after a few seconds: what is not stored was never acknowledged)."""
        deadline = time.monotonic() + 5
        while self._events or self._rows or self._writing or self._waiters_pending():
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.01)
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        if self._writer is not None:
            self._writer.shutdown(wait=False)
            self._writer = None

    def _waiters_pending(self) -> bool:
        return any(not w.done.done() for w in self._waiters)


@dataclass
class _Waiter:
    """An appended event's caller: the future it awaits, and what to call at the commit."""

    done: asyncio.Future[None]
    on_commit: Callable[[], None] | None


def _reason(exc: BaseException) -> str:
    """A one-line description of a database error (the driver's message)."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


class StorageError(RuntimeError):
    """A database write that failed; the action it carried was not applied."""
