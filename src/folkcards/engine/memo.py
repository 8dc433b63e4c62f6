"""Global memo tables behind one small type, :class:`Memo`.

A game's hot path remembers what recurs from deal to deal — Scopone's capture options by
the values on the table, the no-capture actions of half a hand, its interned actions — in
module-level tables. Each such table is a :class:`Memo`: a plain ``dict`` (``table``), the
function that computes a missing value, an optional bound (a full table is emptied before
it grows further, so a long run cannot fill memory), and statistics.

The hot path indexes the dict itself and asks the memo only on a miss::

    try:
        info = TABLE_INFO.table[key]
    except KeyError:
        info = TABLE_INFO.miss(key)

which costs nothing over a bare dict (a ``try`` is free when nothing is raised); the
hottest may index it under a module-level name that :meth:`Memo.alias` binds. Anything
else calls ``memo(key)``, which does the same. Read ``memo.table`` where it is used, or
through an alias, or keep it where :meth:`Memo.follow` keeps it current, and never
otherwise: :meth:`Memo.count_hits` swaps it for a counting dict (and rebinds the aliases
and calls the followers).

Statistics: ``size``, ``misses`` (values computed and stored) and ``clears`` (times
emptied, by :meth:`Memo.clear` or by the bound) are always exact. ``hits`` are counted only while
:meth:`Memo.count_hits` is on: counting a hit costs a Python call per lookup (a Scopone
playout does about 140 lookups a deal), so it is off unless someone asks.

Every memo created is listed by :func:`all_memos` while it lives; :func:`clear_all`
empties them (a benchmark that measures new deals, a test that wants a cold start) and
:func:`summary` adds up the statistics of the memos that share a name.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

__all__ = ["Memo", "MemoStats", "all_memos", "clear_all", "counting", "summary"]


@dataclass(frozen=True)
class MemoStats:
    """One memo's statistics (or the sum over memos of one name, ``count`` of them)."""

    name: str
    size: int
    misses: int
    hits: int | None
    """Lookups answered from the table while hits were counted; None if never counted."""
    clears: int
    limit: int | None
    count: int = 1

    @property
    def hit_rate(self) -> float | None:
        """``hits / (hits + misses)``, or None when hits were not counted (or no lookup)."""
        if self.hits is None or not self.hits + self.misses:
            return None
        return self.hits / (self.hits + self.misses)

    def __add__(self, other: MemoStats) -> MemoStats:
        hits = (
            None
            if self.hits is None and other.hits is None
            else (self.hits or 0) + (other.hits or 0)
        )
        limit = None if self.limit is None or other.limit is None else self.limit + other.limit
        return MemoStats(
            self.name,
            self.size + other.size,
            self.misses + other.misses,
            hits,
            self.clears + other.clears,
            limit,
            self.count + other.count,
        )


class _CountingTable(dict[K, V]):
    """The ``table`` of a memo while it counts hits: a dict whose lookups count."""

    __slots__ = ("hits",)

    def __init__(self, items: dict[K, V]) -> None:
        super().__init__(items)
        self.hits = 0

    def __getitem__(self, key: K) -> V:
        value = dict.__getitem__(self, key)  # a KeyError is a miss: the memo counts it
        self.hits += 1
        return value

    def get(self, key: K, default: Any = None) -> Any:
        value = dict.get(self, key, _ABSENT)
        if value is _ABSENT:
            return default
        self.hits += 1
        return value


_ABSENT: Any = object()
"""What ``dict.get`` gives for a key that is not there (a memo may hold None)."""


def _no_compute(key: Any) -> Any:
    """The ``compute`` of a memo that has none (an index): every miss is a KeyError."""
    raise KeyError(key)


_LIVE: weakref.WeakSet[Memo[Any, Any]] = weakref.WeakSet()


class Memo(Generic[K, V]):
    """A global memo table: ``table`` (a dict) filled by ``compute`` on a miss, bounded.

    ``compute(key)`` is the value of a key that is not in the table; a memo without one is
    an index that its owner fills with :meth:`store`. ``limit``: the most entries it holds
    (None: no bound — for a table whose keys are finitely many by construction); a full
    table is emptied before the next value is stored, so a value may be computed again,
    never lost.
    """

    __slots__ = (
        "__weakref__", "_aliases", "_compute", "_dropped", "_followers", "_full", "_hits",
        "clears", "limit", "name", "table",
    )  # fmt: skip

    def __init__(
        self, name: str, compute: Callable[[K], V] | None = None, *, limit: int | None = None
    ) -> None:
        if limit is not None and limit < 1:
            raise ValueError(f"memo {name!r}: limit must be at least 1, not {limit}")
        self.name = name
        self.table: dict[K, V] = {}
        self.limit = limit
        self.clears = 0
        self._full = sys.maxsize if limit is None else limit  # one int compare per store
        self._dropped = 0  # values forgotten by clear(): misses = _dropped + len(table)
        self._compute: Callable[[K], V] = _no_compute if compute is None else compute
        self._hits: int | None = None
        self._aliases: list[tuple[dict[str, Any], str]] = []
        self._followers: list[Callable[[dict[K, V]], None]] = []
        _LIVE.add(self)

    def __repr__(self) -> str:
        return f"<Memo {self.name} size={len(self.table)} misses={self.misses}>"

    def __len__(self) -> int:
        return len(self.table)

    def __call__(self, key: K) -> V:
        """The value of ``key``: from the table, or computed and stored (a miss)."""
        value = self.table.get(key, _ABSENT)
        if value is _ABSENT:
            return self.miss(key)
        return value  # type: ignore[no-any-return]  # not _ABSENT: a value of the table

    def miss(self, key: K) -> V:
        """Compute the value of ``key`` (not in the table), store it and return it: what a
        hot path calls when its own ``table[key]`` raised KeyError. KeyError for a memo
        without ``compute``."""
        value = self._compute(key)
        table = self.table  # :meth:`store`, inline: a call less per miss
        if len(table) >= self._full:
            self.clear()
        table[key] = value
        return value

    def store(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` and return it — a miss whose value the caller
        computed (or an entry of an index) — emptying a full table first."""
        table = self.table
        if len(table) >= self._full:
            self.clear()
        table[key] = value
        return value

    @property
    def misses(self) -> int:
        """Values computed and stored (each after a lookup that found nothing): what the
        table holds plus what :meth:`clear` dropped — nothing to count on the way."""
        return self._dropped + len(self.table)

    def clear(self) -> None:
        """Forget every value (the table is emptied in place); statistics are kept."""
        self._dropped += len(self.table)
        self.table.clear()
        self.clears += 1

    def alias(self, namespace: dict[str, Any], name: str) -> dict[K, V]:
        """Bind ``namespace[name]`` (a module's ``globals()``) to the table and return it,
        for a hot path that indexes the table under its own global name — one attribute
        load less than ``memo.table`` per lookup. :meth:`count_hits` rebinds the name
        whenever it swaps the table."""
        self._aliases.append((namespace, name))
        namespace[name] = self.table
        return self.table

    def follow(self, callback: Callable[[dict[K, V]], None]) -> None:
        """Call ``callback(table)`` now and whenever :meth:`count_hits` swaps the table: for
        a hot path that keeps the table inside a lookup structure of its own (a row of a
        precomputed tuple) rather than under a global name (:meth:`alias`)."""
        self._followers.append(callback)
        callback(self.table)

    def _swap(self, table: dict[K, V]) -> None:
        self.table = table
        for namespace, name in self._aliases:
            namespace[name] = table
        for callback in self._followers:
            callback(table)

    @property
    def hits(self) -> int | None:
        """Lookups the table answered while hits were counted; None if never counted."""
        table = self.table
        if isinstance(table, _CountingTable):
            return (self._hits or 0) + table.hits
        return self._hits

    def count_hits(self, on: bool = True) -> None:
        """Start (or stop) counting hits: ``table`` (and every alias) becomes a counting
        dict with the same entries, or a plain one again. Counts add up over every period."""
        table = self.table
        if on and not isinstance(table, _CountingTable):
            self._hits = self._hits or 0
            self._swap(_CountingTable(table))
        elif not on and isinstance(table, _CountingTable):
            self._hits = (self._hits or 0) + table.hits
            self._swap(dict(table))

    def stats(self) -> MemoStats:
        """The statistics now: size, misses, hits (None if never counted), clears, limit."""
        return MemoStats(
            self.name, len(self.table), self.misses, self.hits, self.clears, self.limit
        )


def all_memos(prefix: str = "") -> list[Memo[Any, Any]]:
    """Every live memo whose name starts with ``prefix`` (``"scopone."``), by name."""
    return sorted((m for m in _LIVE if m.name.startswith(prefix)), key=lambda m: m.name)


def clear_all(prefix: str = "") -> int:
    """Empty every live memo whose name starts with ``prefix``; the number emptied."""
    memos = all_memos(prefix)
    for memo in memos:
        memo.clear()
    return len(memos)


def summary(prefix: str = "") -> dict[str, MemoStats]:
    """The statistics of the live memos named ``prefix…``, added up per name (a game may
    keep one memo per card under one name), in name order."""
    out: dict[str, MemoStats] = {}
    for memo in all_memos(prefix):
        got = memo.stats()
        out[memo.name] = out[memo.name] + got if memo.name in out else got
    return out


@contextmanager
def counting(prefix: str = "") -> Iterator[None]:
    """Count the hits of every live memo named ``prefix…`` inside a ``with`` block (a
    memo that was counting already goes on counting after it)."""
    memos = [m for m in all_memos(prefix) if not isinstance(m.table, _CountingTable)]
    for memo in memos:
        memo.count_hits(True)
    try:
        yield
    finally:
        for memo in memos:
            memo.count_hits(False)
