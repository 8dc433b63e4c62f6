"""Work that must not run on the server's event loop: bot decisions, hints, replays, rebuilds.

:class:`WorkerPool` is a :class:`concurrent.futures.ProcessPoolExecutor` of ``workers``
processes (spawned, niced so that the event loop's process always wins the CPU) behind a
fair scheduler on the event loop:

* at most ``workers`` jobs run at once (the global CPU budget); the others wait;
* a table has at most one job waiting or running (its bot's decision, one per turn);
* each table may use ``table_share`` worker CPU seconds per second (bursts of
  ``table_burst``): a table over its budget waits before its next job is queued, so a
  table of search bots gets its share and no more;
* waiting jobs are served by *virtual time*: each table is charged the worker CPU its jobs
  used, and the waiting job of the table charged least goes first (a newcomer starts where
  the last job started): tables that want the workers at the same time share them
  fairly;
* the waiting queue is bounded (``max_waiting``); past it a job is refused with
  :class:`PoolBusy` (a bot then plays a uniformly random legal action that turn);
* jobs that waited are sent to a freed worker together (up to ``batch``), so under load the
  event loop hands the pool many decisions per round trip.

The worker functions get only pickled plain data: a seat's :class:`Observation`, a seed, a
record. A seat bot's randomness is a fresh seed per decision from the server's secure
source, so no bot state needs to live in a worker.

A pool that makes its own executor starts its processes as it is made
(:meth:`WorkerPool.start`, a few ms, nothing waited for), and each worker warms the batched
search's kernels as it starts (:func:`init_worker`, the pool's initializer): a background
thread of the worker imports numba and loads every game's kernels already in numba's disk
cache, and has the others compiled by a niced process of its own
(:func:`folkcards.server.botbridge.start_warming`), so that a table's first ``search``
decision finds them warm. The initializer itself only starts that thread: the worker takes
jobs at once; a quick bot never waits for it, and a ``search`` decision or hint waits at
most :data:`~folkcards.server.botbridge.WARM_WAIT` for a load in progress before it is
searched beside it (scalar). Nothing is warmed without numpy and numba or
with ``FOLKCARDS_NO_NUMBA`` set.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import importlib
import itertools
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from folkcards.engine.api import Observation

log = logging.getLogger("folkcards.server")

T = TypeVar("T")

WORKER_NICE = 10
"""How much lower the workers' CPU priority is than the server's."""


def default_workers() -> int:
    """One worker per core but one (the event loop keeps a core), at least one, at most 4."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


# --- what runs in a worker process -----------------------------------------------------------
_BOTS: dict[str, Any] = {}
_initialized = False


def init_worker(warm_bots: bool = True) -> None:
    """The pool's initializer, run once as a worker process starts (a second call does
    nothing): the worker niced by :data:`WORKER_NICE`, and with ``warm_bots`` the batched
    search's warming started in a background thread (see the module docstring); returns
    at once."""
    global _initialized
    if _initialized:
        return
    _initialized = True
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    if not warm_bots:
        return
    try:
        # Every game's modules first, here: a job's observation unpickled by this thread
        # imports them, and so do the kernels the warming thread loads; two threads
        # importing the same packages at once may meet a circular wait on Python's module
        # locks, which kills this worker (_DeadlockError). Once imported, neither imports.
        importlib.import_module("folkcards.games")
        from folkcards.server import botbridge

        botbridge.start_warming()
    except Exception:  # a worker without the warming still plays (scalar search)
        log.exception("could not start warming the batched search in a bot worker")


def decide(level: str, obs: Observation, seed: int) -> str:
    """A bot's action for a seat's observation (one of ``obs.legal``)."""
    from folkcards.server import botbridge

    bot = _BOTS.get(level)
    if bot is None:
        bot = _BOTS[level] = botbridge.SeatBot(level, 0)
    bot.rng = random.Random(seed)
    return bot.choose(obs)


def bot_status() -> dict[str, Any]:
    """This worker's warming of the batched search (:func:`folkcards.server.botbridge.status`)
    and its process id (``pid``): for tests and diagnostics; it decides nothing."""
    from folkcards.server import botbridge

    return {**botbridge.status(), "pid": os.getpid()}


def hint(obs: Observation, seed: int) -> dict[str, Any]:
    """The search bot's suggestion for the seat to act: ``{"action", "hint"}`` (see
    :func:`folkcards.server.botbridge.hint`)."""
    from folkcards.server import botbridge

    return botbridge.hint(obs, seed)


def rebuild(table_id: str, events: list[Any]) -> Any:
    """A finished table's :class:`~folkcards.server.state.TableState` from its events."""
    from folkcards.server.state import TableState

    return TableState.from_events(table_id, events)


def replay(record: object, deal: int | None, extra: dict[str, Any] | None = None) -> str:
    """The replay frames of a record (one deal of it, or all) as JSON text, within caps."""
    from folkcards.server.replays import replay_text

    return replay_text(record, deal, extra)


def run_batch(
    jobs: list[tuple[Callable[..., Any], tuple[Any, ...]]],
) -> list[tuple[bool, Any, float]]:
    """Several jobs in one round trip: per job (ok, result or exception, CPU seconds).

    A job is charged the CPU of the thread that ran it, not the process's: the worker's
    warming thread (numba's import, kernel loads) may run beside a decision, and a table
    charged for that would wait for a budget it never used."""
    out: list[tuple[bool, Any, float]] = []
    for fn, args in jobs:
        start = time.thread_time()
        try:
            value = fn(*args)
            ok = True
        except Exception as exc:  # handed back to the job's caller
            value, ok = exc, False
        out.append((ok, value, time.thread_time() - start))
    return out


def new_executor(workers: int, *, warm_bots: bool = True) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned, niced worker processes, each warming the batched
    search as it starts unless ``warm_bots`` is False (:func:`init_worker`)."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=init_worker,
        initargs=(warm_bots,),
    )


# --- the scheduler on the event loop ----------------------------------------------------------
class PoolBusy(Exception):
    """The waiting queue is full: the job was not run."""


@dataclass(order=True)
class _Job:
    vtime: float
    order: int
    key: str = field(compare=False)
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    done: asyncio.Future[Any] = field(compare=False)


class WorkerPool:
    """A bounded, fair pool of worker processes (see the module docstring).

    Jobs that wait while every worker is busy are sent together, up to ``batch`` in one
    round trip, when a worker frees up (one job alone when a worker is idle): under load the
    server makes one hand-off to the pool for many decisions."""

    def __init__(
        self,
        workers: int | None = None,
        max_waiting: int = 4000,
        executor: ProcessPoolExecutor | None = None,
        *,
        table_share: float = 0.5,
        table_burst: float = 2.0,
        batch: int = 64,
        warm_bots: bool = True,
        start_workers: bool = True,
    ) -> None:
        self.workers = workers if workers is not None else default_workers()
        self.warm_bots = warm_bots
        """Whether the workers this pool starts warm the batched search (:func:`init_worker`)."""
        self.max_waiting = max_waiting
        self.table_share = table_share
        self.table_burst = table_burst
        self.batch = batch
        self._budget: dict[str, tuple[float, float]] = {}
        """Per key: CPU seconds it may still use, and when that was computed."""
        self._executor: ProcessPoolExecutor | None = executor
        self._own_executor = executor is None
        """False when the executor is shared (tests): :meth:`close` leaves it running."""
        self._running = 0
        """Batches in the workers now."""
        self._waiting: list[_Job] = []
        self._busy: set[str] = set()
        """Keys (tables) with a job in the workers."""
        self._vtime: dict[str, float] = {}
        self._order = itertools.count()
        self._clock = 0.0
        """The virtual time of the job started last (where a newcomer starts)."""
        self.jobs = 0
        """Jobs run in worker processes."""
        self.batches = 0
        """Round trips to the workers (several jobs each under load)."""
        self.cpu = 0.0
        """Worker CPU seconds those jobs used."""
        self.max_running = 0
        self.refused = 0
        self.throttled = 0
        """Jobs that waited because their table was over its CPU budget."""
        if self._executor is None and start_workers:
            self.start()

    # executor --------------------------------------------------------------------------
    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = new_executor(self.workers, warm_bots=self.warm_bots)
            self._own_executor = True
        return self._executor

    def start(self) -> None:
        """Start the worker processes now, without waiting for them (a few ms: their
        imports and their warming run in them, niced); done as the pool is made unless
        ``start_workers`` is False or the executor is shared, so that the workers are warm
        by the time the first table needs them."""
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(init_worker, self.warm_bots)

    def warm(self) -> None:
        """Start the worker processes now (else on the first job); each starts warming the
        batched search then (:func:`init_worker`), which this does not wait for."""
        pool = self._pool()
        for f in [pool.submit(init_worker, self.warm_bots) for _ in range(self.workers)]:
            f.result()

    def close(self) -> None:
        """Stop the worker processes (running jobs are abandoned)."""
        if self._executor is not None and self._own_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    # scheduling -------------------------------------------------------------------------
    def busy(self, key: str) -> bool:
        """True while ``key`` has a job in the workers."""
        return key in self._busy

    def forget(self, key: str) -> None:
        """Drop a finished table's accounting."""
        if key not in self._busy:
            self._vtime.pop(key, None)
            self._budget.pop(key, None)

    def _level(self, key: str) -> float:
        level, at = self._budget.get(key, (self.table_burst, time.monotonic()))
        return min(self.table_burst, level + (time.monotonic() - at) * self.table_share)

    async def run(self, key: str, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in a worker on behalf of ``key`` (a table id): one job per key
        in the workers at a time (a second one waits behind the first); PoolBusy when the
        waiting queue is full."""
        if len(self._waiting) >= self.max_waiting:
            self.refused += 1
            raise PoolBusy("the bot workers are saturated")
        level = self._level(key)
        if level < 0:  # over its budget: wait until it has earned the next job
            self.throttled += 1
            await asyncio.sleep(-level / self.table_share)
        vt = max(self._vtime.get(key, 0.0), self._clock)
        self._vtime[key] = vt
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, _Job(vt, next(self._order), key, fn, args, done))
        self._dispatch()
        out: T = await done  # a cancelled caller leaves its job to be skipped or ignored
        return out

    def _dispatch(self) -> None:
        while self._running < self.workers and self._waiting:
            held: list[_Job] = []  # jobs of keys that have one in the workers already
            chosen: list[_Job] = []
            keys: set[str] = set()
            while self._waiting and len(chosen) < self.batch:
                job = heapq.heappop(self._waiting)  # the least charged first
                if job.done.done():  # its caller went away
                    continue
                if job.key in self._busy or job.key in keys:
                    held.append(job)
                    continue
                chosen.append(job)
                keys.add(job.key)
            for job in held:
                heapq.heappush(self._waiting, job)
            if not chosen:
                return
            self._busy |= keys
            self._running += 1
            self.max_running = max(self.max_running, self._running)
            self._clock = max(self._clock, chosen[-1].vtime)
            asyncio.get_running_loop().create_task(self._send(chosen))

    async def _send(self, jobs: list[_Job]) -> None:
        try:
            results = await self._submit(run_batch, [(j.fn, j.args) for j in jobs])
        except BaseException as exc:
            for j in jobs:
                if not j.done.done():
                    j.done.set_exception(
                        exc if isinstance(exc, Exception) else RuntimeError(str(exc))
                    )
            results = None
        finally:
            self._running -= 1
            for j in jobs:
                self._busy.discard(j.key)
        if results is not None:
            self.batches += 1
            for j, (ok, value, used) in zip(jobs, results, strict=True):
                self.jobs += 1
                self.cpu += used
                self._vtime[j.key] = self._vtime.get(j.key, 0.0) + used
                self._budget[j.key] = (self._level(j.key) - used, time.monotonic())
                if j.done.done():
                    continue
                if ok:
                    j.done.set_result(value)
                else:
                    j.done.set_exception(value)
        self._dispatch()

    async def _submit(self, fn: Callable[..., T], *args: Any) -> T:
        for attempt in (0, 1):
            try:
                return await asyncio.wrap_future(self._pool().submit(fn, *args))
            except BrokenProcessPool:
                # a worker died (killed, out of memory): start a new pool and try once more
                log.error("a bot worker process died; restarting the worker pool")
                old, self._executor = self._executor, None
                if old is not None:
                    old.shutdown(wait=False, cancel_futures=True)
                self._own_executor = True
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def stats(self) -> dict[str, Any]:
        """Counters for tests and the benchmark."""
        return {
            "workers": self.workers,
            "jobs": self.jobs,
            "batches": self.batches,
            "cpu_s": round(self.cpu, 3),
            "running": self._running,
            "waiting": len(self._waiting),
            "max_running": self.max_running,
            "refused": self.refused,
            "throttled": self.throttled,
        }
