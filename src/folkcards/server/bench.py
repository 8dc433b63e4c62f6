"""``folkcards bench server``: the web table as people use it, at 50, 200 or 1,000 tables.

The server runs as a subprocess (``folkcards serve`` on a fresh SQLite file, the default
storage and the default bot delay and worker pool). Each table has one person — a websocket
that thinks 0.5–1.5 × ``think`` seconds before each action and says ``ready`` when a deal
ends — and bots in every other seat, played by the server (decisions in its worker
processes, at the table's bot delay). Deals end and the next one starts.

The people are played by client processes of their own (``clients``, each with its own
event loop and a share of the tables), never by the server's process nor by this one,
which only sets up, watches the clock and reads the processes' CPU from ``/proc``. Their
websockets ask for per-message deflate, as browsers do, so the server compresses every
frame as it does for its real clients.

The tables do not all start together: each person makes its first move at a random moment
of a warm-up about one deal long, so that when the clock starts the tables are spread over
every stage of a deal — bidding, play, a deal's end and the next deal — as a server's
tables are in use, and the server's memory (and its garbage collector) is past its
start-up. Only what happens between the end of the warm-up and the end of the run counts.

Reported: the person's action latency (``act`` sent → ``ack`` received, the ack coming only
after the commit) p50/p99/max, the bots' pace (bot actions per second, all tables), the
server's CPU per action (its own process, and its worker processes), its memory per table
(resident memory added by the tables, divided by their number), deals started and finished
while the clock ran, and the clients' own load: their CPU share and the lag of their event
loops (p99, max) — a client whose loop lags would count its own delay as the server's, so
the lag says how much of a latency could be the clients'.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import statistics
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from folkcards.server.launch import free_port, http_json, server_process

SIZES = (50, 200, 1000)

TABLES_PER_CLIENT = 500
"""Tables one client process plays (its event loop stays far from busy)."""


def _proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of one process, from /proc."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid:
            out.append(int(entry))
    return out


def _rss(pid: int) -> int:
    """Resident memory of a process in bytes."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class _Window:
    """The run's clock, in ``time.monotonic()`` (the same in every process of the host):
    the people start moving from ``start`` (each at its own moment of the warm-up), and
    only what happens between ``counts`` and ``end`` counts."""

    def __init__(self, start: float, counts: float, end: float) -> None:
        self.start = start
        self.counts = counts
        self.end = end

    def counting(self) -> bool:
        return self.counts <= time.monotonic() < self.end


class _Person:
    """One table's person: acts after thinking, says ready between deals."""

    def __init__(
        self,
        url: str,
        table: str,
        token: str,
        rng: random.Random,
        think: float,
        first: float,
        compression: str | None = "deflate",
    ) -> None:
        self.url = url
        self.compression = compression
        """``"deflate"``: ask for per-message deflate, as browsers do; None: do not."""
        self.table = table
        self.token = token
        self.rng = rng
        self.think = think
        self.first = first
        """When (monotonic) this person may make its first move."""
        self.latencies: list[float] = []
        self.bot_actions = 0
        self.errors = 0
        self.deals = 0
        self.finished = 0
        self._sent_at: float | None = None
        self._counted = False
        self._pending: asyncio.Task[None] | None = None
        self._last: dict[str, Any] | None = None
        self._seen = (0, 0)  # (deal_no, history length) last counted
        self._finished = 0

    async def run(
        self, attached: asyncio.Event, window: asyncio.Future[_Window], stop: asyncio.Event
    ) -> None:
        from websockets.asyncio.client import connect

        async with connect(
            self.url, max_size=2**22, ping_interval=None, compression=self.compression
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "table": self.table, "token": self.token}))
            closer = asyncio.create_task(self._close_on(stop, ws))
            clock: _Window | None = None
            async for raw in ws:
                if isinstance(raw, str) and raw.startswith('{"type":"ack"'):
                    now = time.perf_counter()  # taken before anything else is done
                    if self._sent_at is not None:
                        if self._counted:
                            self.latencies.append(now - self._sent_at)
                        self._sent_at = None
                    continue
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "error" and clock is not None:
                    self.errors += clock.counting()
                    self._sent_at = None
                    if self._last is not None:  # (a stale move: try again from the last view)
                        self._react(ws, self._last, clock)
                elif kind == "state":
                    if clock is None:
                        attached.set()
                        clock = await window
                        delay = self.first - time.monotonic()
                        if delay > 0:
                            await asyncio.sleep(delay)
                    self._count(msg, clock.counting())
                    self._last = msg
                    self._react(ws, msg, clock)
                if stop.is_set():
                    break
            closer.cancel()
            if self._pending is not None:
                self._pending.cancel()

    def _count(self, msg: dict[str, Any], counting: bool) -> None:
        """Follow the deals and the bots' actions a frame shows; count them while the
        clock runs."""
        obs = msg["obs"]
        if obs is None:
            return
        deal_no, n = msg["deal_no"], len(obs["history"])
        last_deal, last_n = self._seen
        if deal_no != last_deal:
            last_n = 0
            self.deals += counting
        if obs["result"] is not None and self._finished != deal_no:
            self._finished = deal_no
            self.finished += counting
        if counting and n > last_n:
            self.bot_actions += sum(1 for a in obs["actors"][last_n:n] if a != msg["you"])
        self._seen = (deal_no, max(n, last_n))

    def _react(self, ws: Any, msg: dict[str, Any], clock: _Window) -> None:
        obs = msg["obs"]
        if obs is None or self._pending is not None:
            return
        if obs["result"] is not None:
            self._pending = asyncio.create_task(self._later(ws, {"type": "ready"}, 0.2, clock))
        elif obs["to_act"] == msg["you"] and obs["legal"]:
            act = {
                "type": "act",
                "action": self.rng.choice(obs["legal"]),
                "expect": len(obs["history"]),
            }
            delay = self.rng.uniform(0.5, 1.5) * self.think
            self._pending = asyncio.create_task(self._later(ws, act, delay, clock))

    async def _later(self, ws: Any, msg: dict[str, Any], delay: float, clock: _Window) -> None:
        try:
            await asyncio.sleep(delay)
            if msg["type"] == "act":
                self._counted = clock.counting()
                self._sent_at = time.perf_counter()
            with contextlib.suppress(Exception):  # the run ended meanwhile
                await ws.send(json.dumps(msg))
        finally:
            self._pending = None

    @staticmethod
    async def _close_on(stop: asyncio.Event, ws: Any) -> None:
        await stop.wait()
        await ws.close()


async def _lag_monitor(clock: asyncio.Future[_Window], out: list[float]) -> None:
    """How late this process's event loop wakes from 5 ms sleeps while the clock runs."""
    window = await clock
    while time.monotonic() < window.end:
        t = time.perf_counter()
        await asyncio.sleep(0.005)
        if window.counting():
            out.append(time.perf_counter() - t - 0.005)


async def _drive(
    pipe: Connection,
    ws_url: str,
    seats: list[tuple[str, str]],
    seed: int,
    think: float,
    warmup: float,
    compression: str | None,
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    rng = random.Random(seed)
    people = [
        _Person(ws_url, t, tok, random.Random(rng.random()), think, 0.0, compression)
        for t, tok in seats
    ]
    stop = asyncio.Event()
    window: asyncio.Future[_Window] = loop.create_future()
    attached = [asyncio.Event() for _ in people]
    tasks = []
    for i in range(0, len(people), 100):  # connect in batches
        tasks += [
            asyncio.create_task(p.run(a, window, stop))
            for p, a in zip(people[i : i + 100], attached[i : i + 100], strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(a.wait() for a in attached[i : i + 100])), 120)
    # this process's collector must not pause the clients mid-measurement (its pauses
    # would count as the server's latency): everything made so far is frozen, and the
    # collector is off while the clock runs
    gc.collect()
    gc.freeze()
    gc.disable()
    pipe.send("attached")
    start, counts, end = await loop.run_in_executor(None, pipe.recv)
    for p in people:
        p.first = start + rng.uniform(0.0, warmup)
    lags: list[float] = []
    monitor = asyncio.create_task(_lag_monitor(window, lags))
    clock = _Window(start, counts, end)
    window.set_result(clock)
    await asyncio.sleep(max(0.0, counts - time.monotonic()))
    cpu1 = time.process_time()
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    cpu2 = time.process_time()
    stop.set()
    await asyncio.gather(*tasks, monitor, return_exceptions=True)
    gc.enable()
    gc.unfreeze()
    return {
        "latencies": [x for p in people for x in p.latencies],
        "bot_actions": sum(p.bot_actions for p in people),
        "errors": sum(p.errors for p in people),
        "deals": sum(p.deals for p in people),
        "finished": sum(p.finished for p in people),
        "cpu": cpu2 - cpu1,
        "lags": lags,
    }


def _client(
    pipe: Connection,
    ws_url: str,
    seats: list[tuple[str, str]],
    seed: int,
    think: float,
    warmup: float,
    compression: str | None,
) -> None:
    """A client process: plays its people on its own event loop (uvloop when installed,
    like the server) and sends back what it measured."""
    try:
        import uvloop

        run: Any = uvloop.run
    except ImportError:
        run = asyncio.run
    try:
        pipe.send(run(_drive(pipe, ws_url, seats, seed, think, warmup, compression)))
    except BaseException as exc:  # told to the parent, which stops the run
        pipe.send(f"error: {type(exc).__name__}: {exc}")
    finally:
        pipe.close()


def _receive(pipe: Connection, timeout: float, what: str) -> Any:
    """A client's next message; RuntimeError if it sends none in time, dies or fails."""
    try:
        if not pipe.poll(timeout):
            raise RuntimeError(f"a bench client did not {what} within {timeout:.0f} s")
        msg = pipe.recv()
    except EOFError:
        raise RuntimeError(f"a bench client died before it could {what}") from None
    if isinstance(msg, str) and msg.startswith("error:"):
        raise RuntimeError(f"a bench client failed: {msg[6:].strip()}")
    return msg


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q * (len(values) - 1))))
    return values[k]


def deal_seconds(game: str, think: float = 1.0, bot_delay: float = 0.7, deals: int = 30) -> float:
    """About how long one deal of ``game`` lasts at a table of one person and bots: the
    mean number of actions of random deals times the mean time per action."""
    from folkcards.games import GAMES

    g = GAMES[game]
    v = g.normalize_variant({})
    n = g.num_seats(v)
    rng = random.Random(0)
    lengths = []
    for _ in range(deals):
        st = g.random_deal(rng, v)
        while not st.is_over:
            st.apply(rng.choice(st.legal_actions()))
        lengths.append(len(st.history))
    per_action = ((n - 1) * bot_delay + think) / n
    return statistics.mean(lengths) * per_action


def run_server_bench(
    tables: int,
    seconds: float,
    game: str = "sasku",
    seed: int = 1,
    think: float = 1.0,
    level: str = "heuristic",
    *,
    warmup: float | None = None,
    clients: int | None = None,
    compression: str | None = "deflate",
) -> dict[str, Any]:
    """Drive ``tables`` tables (one person each, bots in the other seats) for ``seconds``
    after a warm-up of ``warmup`` seconds (default: about one deal, :func:`deal_seconds`),
    the people played by ``clients`` processes (default: one per
    :data:`TABLES_PER_CLIENT` tables), their websockets asking for per-message deflate as
    browsers do (``compression=None``: not)."""
    from folkcards.games import GAMES

    if game not in GAMES:
        game = sorted(GAMES)[0]
    g = GAMES[game]
    n = g.num_seats(g.normalize_variant({}))
    if warmup is None:
        warmup = min(60.0, deal_seconds(game, think))
    if clients is None:
        clients = max(1, -(-tables // TABLES_PER_CLIENT))
    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        extra = [
            "--create-rate", str(max(60, tables * 2)),
            "--max-tables-per-address", str(tables + 10),
            "--max-connections-per-address", str(tables + 50),
        ]  # fmt: skip
        with server_process(db, free_port(), extra) as (proc, url):
            rss0 = _rss(proc.pid)
            seats: list[tuple[str, str]] = []
            for _ in range(tables):
                status, res = http_json(
                    url,
                    "/api/tables",
                    {
                        "game": game,
                        "name": "person",
                        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": level}] * (n - 1),
                    },
                )
                if status != 200:
                    raise RuntimeError(f"could not create a table: {res}")
                seats.append((res["id"], res["token"]))
            ws_url = url.replace("http://", "ws://") + "/ws"
            procs, pipes = [], []
            for i in range(clients):
                mine, theirs = ctx.Pipe()
                share = seats[i::clients]
                args = (theirs, ws_url, share, seed * 1000 + i, think, warmup, compression)
                p = ctx.Process(target=_client, args=args, daemon=True)
                p.start()
                procs.append(p)
                pipes.append(mine)
            try:
                for pipe in pipes:  # every person attached, the clients' collectors frozen
                    if _receive(pipe, 300, "attach its people") != "attached":
                        raise RuntimeError("a bench client did not attach its people")
                start = time.monotonic() + 0.5
                counts = start + warmup
                end = counts + seconds
                for pipe in pipes:
                    pipe.send((start, counts, end))
                time.sleep(max(0.0, counts - time.monotonic()))
                workers0 = _children(proc.pid)
                cpu0 = _proc_cpu(proc.pid)
                wcpu0 = {w: _proc_cpu(w) for w in workers0}
                t0 = time.monotonic()
                time.sleep(max(0.0, end - time.monotonic()))
                cpu = _proc_cpu(proc.pid) - cpu0
                wcpu = sum(_proc_cpu(w) - wcpu0.get(w, 0.0) for w in _children(proc.pid))
                elapsed = time.monotonic() - t0
                rss = _rss(proc.pid)
                results = []
                for pipe in pipes:
                    results.append(_receive(pipe, 120, "report"))
            finally:
                for p in procs:
                    p.join(10)
                    if p.is_alive():
                        p.kill()
    lat = [x for r in results for x in r["latencies"]]
    lags = [x for r in results for x in r["lags"]]
    bot_actions = sum(r["bot_actions"] for r in results)
    actions = bot_actions + len(lat)
    return {
        "game": game,
        "tables": tables,
        "bots": f"{n - 1} × {level} per table",
        "think_s": think,
        "warmup_s": round(warmup, 1),
        "seconds": round(elapsed, 1),
        "client_processes": clients,
        "client_compression": compression,  # what the clients ask for (see guard)
        "person_actions": len(lat),
        "bot_actions_per_s": round(bot_actions / elapsed, 1) if elapsed else 0.0,
        "actions_per_s": round(actions / elapsed, 1) if elapsed else 0.0,
        "ack_p50_ms": round(statistics.median(lat) * 1000, 2) if lat else None,
        "ack_p99_ms": round(_percentile(lat, 0.99) * 1000, 2) if lat else None,
        "ack_max_ms": round(max(lat) * 1000, 2) if lat else None,
        "server_cpu_ms_per_action": round(cpu / actions * 1000, 3) if actions else None,
        "worker_cpu_ms_per_action": round(wcpu / actions * 1000, 3) if actions else None,
        "server_cpu_share": round(cpu / elapsed, 2) if elapsed else None,
        "worker_cpu_share": round(wcpu / elapsed, 2) if elapsed else None,
        "client_cpu_share": round(sum(r["cpu"] for r in results) / elapsed, 2) if elapsed else None,
        "client_lag_p99_ms": round(_percentile(lags, 0.99) * 1000, 2) if lags else None,
        "client_lag_max_ms": round(max(lags) * 1000, 2) if lags else None,
        "memory_kib_per_table": round((rss - rss0) / tables / 1024, 1),
        "deals_started": sum(r["deals"] for r in results),
        "deals_finished": sum(r["finished"] for r in results),
        "errors": sum(r["errors"] for r in results),
    }


def run_bot_table_bench(
    game: str,
    level: str = "search",
    decisions: int = 40,
    *,
    bot_delay: float = 0.0,
    workers: int | None = None,
    timeout: float = 600.0,
    warmup: int = 4,
) -> dict[str, Any]:
    """Milliseconds per bot decision at a web table whose every seat is a ``level`` bot, as
    the table plays them: ``folkcards serve`` as a subprocess (``--min-bot-delay 0``, its
    worker pool of ``workers`` processes or the default), one such table at a time and one
    spectator watching it, until ``decisions`` steps were seen. A step's time is from the frame that
    shows the deal at one position to the frame at the next, less the table's
    ``bot_delay``: the decision in a worker process, its way there and back, the commit and
    the broadcast. Steps across deals (the pause between deals) are not counted; a step a
    spectator cannot see (Satat's private ``silent`` and ``pass``, SAT-19.1) is counted with
    the next one it sees. The first ``warmup`` steps are not counted (the worker processes
    start and load the bots then). Frames the server sends together show as one long step
    and one short one, so the mean is the figure to read; the percentiles say how uneven
    the steps are. A match that ends before then (Scopone's to 11 can take three deals) is
    followed by another table of the same bots; ``tables`` says how many were watched."""
    from folkcards.games import GAMES

    if game not in GAMES:
        raise ValueError(f"no game {game!r} (valid: {', '.join(GAMES)})")
    g = GAMES[game]
    n = g.num_seats(g.normalize_variant({}))
    extra = ["--min-bot-delay", "0"] + ([] if workers is None else ["--bot-workers", str(workers)])
    steps: list[float] = []
    tables = 0
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        with server_process(db, free_port(), extra) as (proc, url):
            workers0 = _children(proc.pid)
            cpu0 = _proc_cpu(proc.pid)
            wcpu0 = {w: _proc_cpu(w) for w in workers0}
            t0 = time.monotonic()
            deadline = t0 + timeout
            while len(steps) < decisions + warmup and time.monotonic() < deadline:
                # a match can end before enough steps were seen: then another table
                _watch_bot_table(
                    url, game, level, n, bot_delay, steps, decisions + warmup, deadline
                )
                tables += 1
            elapsed = time.monotonic() - t0
            cpu = _proc_cpu(proc.pid) - cpu0
            wcpu = sum(_proc_cpu(w) - wcpu0.get(w, 0.0) for w in _children(proc.pid))
    steps = steps[warmup : warmup + decisions]
    if not steps:
        raise RuntimeError(f"no bot decision was seen in {timeout:.0f} s")
    ms = sorted(s * 1000 for s in steps)
    return {
        "game": game,
        "bots": f"{n} × {level}",
        "bot_delay_s": bot_delay,
        "decisions": len(ms),
        "ms_per_decision_p50": round(statistics.median(ms), 1),
        "ms_per_decision_p90": round(_percentile(ms, 0.9), 1),
        "ms_per_decision_max": round(ms[-1], 1),
        "ms_per_decision_mean": round(statistics.fmean(ms), 1),
        "server_cpu_ms_per_decision": round(cpu / len(ms) * 1000, 2),
        "worker_cpu_ms_per_decision": round(wcpu / len(ms) * 1000, 1),
        "seconds": round(elapsed, 1),
        "tables": tables,
    }


def _watch_bot_table(
    url: str,
    game: str,
    level: str,
    seats: int,
    bot_delay: float,
    steps: list[float],
    wanted: int,
    deadline: float,
) -> None:
    """Create a table of ``seats`` ``level`` bots and watch it as a spectator, adding to
    ``steps`` the seconds of each step seen, until ``wanted`` steps, the ``deadline`` or the
    end of the table's match (see :func:`run_bot_table_bench`)."""
    from websockets.sync.client import connect

    status, res = http_json(
        url,
        "/api/tables",
        {
            "game": game,
            "name": "bench",
            "seats": [{"kind": "bot", "level": level}] * seats,
            "options": {"bot_delay": bot_delay, "deal_pause": 0},
        },
    )
    if status != 200:
        raise RuntimeError(f"could not create a table: {res}")
    with connect(url.replace("http://", "ws://") + "/ws", max_size=2**22) as ws:
        ws.send(json.dumps({"type": "hello", "table": res["id"], "token": None}))
        last: tuple[int, int, float] | None = None  # deal number, history length, when
        while len(steps) < wanted and time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            now = time.monotonic()
            if msg.get("type") != "state":
                continue
            if msg.get("obs") is not None:
                deal = int(msg["deal_no"])
                at = len(msg["obs"]["history"])
                if last is not None and last[0] == deal and at > last[1] and last[1] > 0:
                    steps.extend([(now - last[2] - bot_delay) / (at - last[1])] * (at - last[1]))
                if last is None or (deal, at) != last[:2]:
                    last = (deal, at, now)
            if (msg.get("table") or {}).get("status") == "finished":
                return
