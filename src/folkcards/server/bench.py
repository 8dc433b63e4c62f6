"""``folkcards bench server``: the web table as people use it, at 50, 200 or 1,000 tables.

The server runs as a subprocess (``folkcards serve`` on a fresh SQLite file, the default
storage and the default bot delay and worker pool). Each table has one person — a websocket
from this process that thinks 0.5–1.5 × ``think`` seconds before each action and says
``ready`` when a deal ends — and bots in every other seat, played by the server (decisions
in its worker processes, at the table's bot delay). Deals end and the next one starts.

Reported: the person's action latency (``act`` sent → ``ack`` received, the ack coming only
after the commit) p50/p99/max, the bots' pace (bot actions per second, all tables), the
server's CPU per action (its own process, and its worker processes), and its memory per
table (resident memory added by the tables, divided by their number).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from folkcards.server.launch import free_port, http_json, server_process

SIZES = (50, 200, 1000)


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


class _Person:
    """One table's person: acts after thinking, says ready between deals."""

    def __init__(self, url: str, table: str, token: str, rng: random.Random, think: float) -> None:
        self.url = url
        self.table = table
        self.token = token
        self.rng = rng
        self.think = think
        self.latencies: list[float] = []
        self.bot_actions = 0
        self.errors = 0
        self.deals = 0
        self._sent_at: float | None = None
        self._pending: asyncio.Task[None] | None = None
        self._seen = (0, 0)  # (deal_no, history length) last counted
        self.finished = 0
        self._finished = 0

    async def run(self, ready: asyncio.Event, started: asyncio.Event, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        async with connect(self.url, max_size=2**22, ping_interval=None, compression=None) as ws:
            await ws.send(json.dumps({"type": "hello", "table": self.table, "token": self.token}))
            closer = asyncio.create_task(self._close_on(stop, ws))
            attached = False
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "ack" and self._sent_at is not None:
                    self.latencies.append(time.perf_counter() - self._sent_at)
                    self._sent_at = None
                elif kind == "error":
                    self.errors += 1
                    self._sent_at = None
                elif kind == "state":
                    if not attached:
                        attached = True
                        ready.set()
                        await started.wait()
                    self._count(msg)
                    self._react(ws, msg)
                if stop.is_set():
                    break
            closer.cancel()
            if self._pending is not None:
                self._pending.cancel()

    def _count(self, msg: dict[str, Any]) -> None:
        obs = msg["obs"]
        if obs is None:
            return
        deal_no, n = msg["deal_no"], len(obs["history"])
        last_deal, last_n = self._seen
        if deal_no != last_deal:
            last_n = 0
            self.deals += 1
        if obs["result"] is not None and self._finished != deal_no:
            self._finished = deal_no
            self.finished += 1
        new = obs["actors"][last_n:n] if n > last_n else []
        self.bot_actions += sum(1 for a in new if a != msg["you"])
        self._seen = (deal_no, max(n, last_n))

    def _react(self, ws: Any, msg: dict[str, Any]) -> None:
        obs = msg["obs"]
        if obs is None or self._pending is not None:
            return
        if obs["result"] is not None:
            self._pending = asyncio.create_task(self._later(ws, {"type": "ready"}, 0.2))
        elif obs["to_act"] == msg["you"] and obs["legal"]:
            act = {
                "type": "act",
                "action": self.rng.choice(obs["legal"]),
                "expect": len(obs["history"]),
            }
            self._pending = asyncio.create_task(
                self._later(ws, act, self.rng.uniform(0.5, 1.5) * self.think)
            )

    async def _later(self, ws: Any, msg: dict[str, Any], delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            if msg["type"] == "act":
                self._sent_at = time.perf_counter()
            with contextlib.suppress(Exception):  # the run ended meanwhile
                await ws.send(json.dumps(msg))
        finally:
            self._pending = None

    @staticmethod
    async def _close_on(stop: asyncio.Event, ws: Any) -> None:
        await stop.wait()
        await ws.close()


async def _drive(
    ws_url: str, seats: list[tuple[str, str]], seconds: float, seed: int, think: float
) -> tuple[list[_Person], float]:
    rng = random.Random(seed)
    people = [_Person(ws_url, t, tok, random.Random(rng.random()), think) for t, tok in seats]
    # this process's collector must not pause the clients mid-measurement (its pauses
    # would count as the server's latency): everything made so far is frozen, and the
    # collector is off while the clock runs
    gc.collect()
    gc.freeze()
    gc.disable()
    stop, started = asyncio.Event(), asyncio.Event()
    readies = [asyncio.Event() for _ in people]
    tasks = []
    for i in range(0, len(people), 100):  # connect in batches
        tasks += [
            asyncio.create_task(p.run(r, started, stop))
            for p, r in zip(people[i : i + 100], readies[i : i + 100], strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies[i : i + 100])), 120)
    started.set()
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    stop.set()
    elapsed = time.perf_counter() - t0
    await asyncio.gather(*tasks, return_exceptions=True)
    gc.enable()
    gc.unfreeze()
    return people, elapsed


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q * (len(values) - 1))))
    return values[k]


def run_server_bench(
    tables: int,
    seconds: float,
    game: str = "sasku",
    seed: int = 1,
    think: float = 1.0,
    level: str = "heuristic",
) -> dict[str, Any]:
    """Drive ``tables`` tables (one person each, bots in the other seats) for ``seconds``."""
    from folkcards.games import GAMES

    if game not in GAMES:
        game = sorted(GAMES)[0]
    g = GAMES[game]
    n = g.num_seats(g.normalize_variant({}))
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
            workers0 = _children(proc.pid)
            cpu0 = _proc_cpu(proc.pid)
            wcpu0 = sum(_proc_cpu(w) for w in workers0)
            me0 = time.process_time()
            people, elapsed = asyncio.run(_drive(ws_url, seats, seconds, seed, think))
            client_cpu = time.process_time() - me0
            cpu = _proc_cpu(proc.pid) - cpu0
            workers = _children(proc.pid)
            wcpu = sum(_proc_cpu(w) for w in workers) - wcpu0
            rss = _rss(proc.pid)
    lat = [x for p in people for x in p.latencies]
    bot_actions = sum(p.bot_actions for p in people)
    actions = bot_actions + len(lat)
    return {
        "game": game,
        "tables": tables,
        "bots": f"{n - 1} × {level} per table",
        "think_s": think,
        "seconds": round(elapsed, 1),
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
        "client_cpu_share": round(client_cpu / elapsed, 2) if elapsed else None,
        "memory_kib_per_table": round((rss - rss0) / tables / 1024, 1),
        "deals_started": sum(p.deals for p in people),
        "deals_finished": sum(p.finished for p in people),
        "errors": sum(p.errors for p in people),
    }
