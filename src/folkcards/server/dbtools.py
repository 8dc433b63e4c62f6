"""``folkcards db check`` and ``folkcards db repair``: find and mend damaged tables.

*check* reads every table's events and replays them through the engine (the server's own
restore, :meth:`TableState.from_events`), lists each table that cannot be rebuilt and why,
lists the quarantined ones, shows the lease, and on SQLite runs ``PRAGMA integrity_check``.

*repair* holds the database's lease (so no server writes meanwhile) and:

* on a SQLite file whose pages are damaged (``database disk image is malformed``) copies
  every row that can still be read — table by table, row by row by rowid, skipping the
  unreadable stretches — into a new file, keeps the damaged one beside it as
  ``<name>.damaged-<time>`` and puts the copy in its place;
* then quarantines every table whose log does not replay (``--drop``: deletes it).

A quarantined table is not served (its page answers ``quarantined``); the rest are.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import DatabaseError

from folkcards.server.state import CorruptLog, TableState
from folkcards.server.storage import Storage, tables_t


@dataclass
class Report:
    """What :func:`check` found."""

    url: str
    integrity: list[str] = field(default_factory=list)
    """SQLite's integrity_check messages (["ok"] when the file is sound; [] elsewhere)."""
    tables: int = 0
    bad: list[dict[str, Any]] = field(default_factory=list)
    quarantined: list[dict[str, Any]] = field(default_factory=list)
    lease: dict[str, Any] | None = None
    error: str | None = None
    """Why the database could not be read at all."""

    @property
    def damaged_file(self) -> bool:
        """True when SQLite reports damaged pages (repair copies what it can read)."""
        return self.error is not None or (bool(self.integrity) and self.integrity != ["ok"])

    @property
    def ok(self) -> bool:
        """Nothing to repair."""
        return not self.damaged_file and not self.bad

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "url": self.url,
            "ok": self.ok,
            "integrity": self.integrity,
            "tables": self.tables,
            "bad": self.bad,
            "quarantined": self.quarantined,
            "lease": self.lease,
            "error": self.error,
        }


def sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///`` URL (None for another database or in-memory)."""
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///") :].split("?", 1)[0]
    return Path(path) if path and path != ":memory:" else None


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    lines = str(orig if orig is not None else exc).splitlines()
    return (lines[0] if lines else type(exc).__name__)[:300]


def integrity(path: Path, pragma: str = "integrity_check") -> list[str]:
    """SQLite's ``PRAGMA integrity_check`` of a file (its messages; ``["ok"]`` if sound)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            rows = conn.execute(f"PRAGMA {pragma}(100)").fetchall()
        return [str(r[0]) for r in rows]
    except sqlite3.DatabaseError as exc:
        return [f"cannot check: {exc}"]


def quick_check(path: Path) -> list[str]:
    """SQLite's faster ``PRAGMA quick_check`` (pages and b-trees, not index contents)."""
    return integrity(path, "quick_check")


def check_tables(storage: Storage) -> tuple[int, list[dict[str, Any]]]:
    """Every table's log replayed: (how many tables, the ones that fail and why)."""
    with storage.engine.connect() as conn:
        rows = conn.execute(select(tables_t.c.id, tables_t.c.status)).all()
    bad = []
    for r in rows:
        if r.status == "quarantined":
            continue
        try:
            TableState.from_events(r.id, storage.events(r.id))
        except CorruptLog as exc:
            bad.append({"id": r.id, "status": r.status, "reason": str(exc)})
        except Exception as exc:
            bad.append(
                {"id": r.id, "status": r.status, "reason": f"unreadable: {_first_line(exc)}"}
            )
    return len(rows), bad


def check(url: str) -> Report:
    """Look at a database without changing it."""
    report = Report(url)
    path = sqlite_path(url)
    if path is not None:
        if not path.exists():
            report.error = f"no such file: {path}"
            return report
        report.integrity = integrity(path)
    try:
        storage = Storage(url, busy_timeout=5)
    except DatabaseError as exc:
        report.error = _first_line(exc)
        return report
    try:
        report.tables, report.bad = check_tables(storage)
        report.quarantined = storage.quarantined()
        report.lease = storage.lease_holder()
    except DatabaseError as exc:
        report.error = _first_line(exc)
    finally:
        storage.close()
    return report


# --- copying what can be read out of a damaged SQLite file ---------------------------------
def _readable_rows(
    conn: sqlite3.Connection, table: str, columns: list[str]
) -> tuple[list[tuple[Any, ...]], int]:
    """Every row of ``table`` that can be read, by rowid, skipping damaged stretches;
    returns (rows, how many stretches were skipped)."""
    cols = ", ".join(["rowid", *columns])
    out: list[tuple[Any, ...]] = []
    skipped = 0
    last = -(2**63)
    try:
        top = conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0]
    except sqlite3.DatabaseError:
        top = None
    top = top if isinstance(top, int) else 10**7
    while True:
        try:
            for row in conn.execute(
                f"SELECT {cols} FROM {table} WHERE rowid > ? ORDER BY rowid", (last,)
            ):
                out.append(tuple(row[1:]))
                last = row[0]
            return out, skipped
        except sqlite3.DatabaseError:
            skipped += 1
            # find the next rowid that can be read, in growing steps
            step = 1
            while True:
                probe = max(last, 0) + step
                if probe > top + 1:
                    return out, skipped
                try:
                    nxt = conn.execute(
                        f"SELECT rowid FROM {table} WHERE rowid >= ? ORDER BY rowid LIMIT 1",
                        (probe,),
                    ).fetchone()
                except sqlite3.DatabaseError:
                    step *= 2
                    continue
                if nxt is None:
                    return out, skipped
                last = nxt[0] - 1
                break


@dataclass
class Repair:
    """What :func:`repair` did."""

    recovered: Path | None = None
    backup: Path | None = None
    copied: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    quarantined: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "recovered": str(self.recovered) if self.recovered else None,
            "backup": str(self.backup) if self.backup else None,
            "copied": self.copied,
            "skipped_stretches": self.skipped,
            "quarantined": self.quarantined,
            "dropped": self.dropped,
        }


COPIED = {
    "folkcards_tables": ["id", "game", "title", "status", "created", "updated", "summary"],
    "folkcards_events": ["id", "table_id", "seq", "kind", "data", "at"],
    "folkcards_quarantine": ["table_id", "reason", "previous_status", "at"],
}


def recover_sqlite(path: Path, result: Repair) -> None:
    """Copy every readable row of a damaged file into a new one, then swap them (the
    damaged file is kept as ``<name>.damaged-<time>``)."""
    new = path.with_name(path.name + ".recovering")
    for p in (new, Path(f"{new}-wal"), Path(f"{new}-shm")):
        p.unlink(missing_ok=True)
    Storage(f"sqlite:///{new}").close()  # the schema
    src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    dst = sqlite3.connect(str(new))
    try:
        for table, columns in COPIED.items():
            try:
                rows, skipped = _readable_rows(src, table, columns)
            except sqlite3.DatabaseError:
                rows, skipped = [], 1
            marks = ", ".join("?" for _ in columns)
            n = 0
            for row in rows:
                with contextlib.suppress(
                    sqlite3.DatabaseError
                ):  # e.g. an event whose table is gone
                    dst.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", row)
                    n += 1
            dst.commit()
            result.copied[table] = n
            result.skipped[table] = skipped
        # events of tables whose row was lost cannot be served: drop them
        dst.execute(
            "DELETE FROM folkcards_events WHERE table_id NOT IN (SELECT id FROM folkcards_tables)"
        )
        dst.commit()
    finally:
        src.close()
        dst.close()
    backup = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    os.replace(path, backup)
    for suffix in ("-wal", "-shm"):
        side = Path(f"{path}{suffix}")
        if side.exists():
            os.replace(side, Path(f"{backup}{suffix}"))
    os.replace(new, path)
    result.recovered = path
    result.backup = backup


def repair(url: str, drop: bool = False) -> Repair:
    """Mend a database (see the module docstring); LeaseHeld if a server is using it."""
    result = Repair()
    path = sqlite_path(url)
    if path is not None and path.exists():
        report = check(url)
        if report.damaged_file:
            # nobody may be writing while the file is swapped: take the lease if it can be read
            with contextlib.suppress(DatabaseError):
                probe = Storage(url, busy_timeout=5)
                try:
                    probe.acquire_lease()
                    probe.release_lease()
                finally:
                    probe.close()
            recover_sqlite(path, result)
    storage = Storage(url, busy_timeout=5)
    try:
        storage.acquire_lease()
        _total, bad = check_tables(storage)
        for b in bad:
            if drop:
                storage.drop_table(b["id"])
                result.dropped.append(b["id"])
            else:
                storage.quarantine(b["id"], b["reason"])
                result.quarantined.append(b)
        if drop:
            for q in storage.quarantined():
                storage.drop_table(q["id"])
                result.dropped.append(q["id"])
    finally:
        storage.release_lease()
        storage.close()
    return result


__all__ = ["Repair", "Report", "check", "repair", "sqlite_path"]
