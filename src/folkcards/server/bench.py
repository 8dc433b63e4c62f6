"""``folkcards bench server``: many live tables driven over websockets from another process.

Seats act at a player's pace (``think`` seconds, default 1) or flat out (``think=0``).
The server runs as a subprocess (``folkcards serve`` on a fresh SQLite file, the default
storage). This process opens one websocket per seat for ``tables`` tables whose seats are
all players, and each seat plays a random legal action whenever it is to act — bot-filled
tables whose bots live on the far side of the network. An action's latency is the time from
sending ``act`` to receiving its ``ack``, which the server sends only after the action is
committed to the database. Deals follow one another without pause for the whole run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from folkcards.server.harness import free_port, http_json, server_process


class _Seat:
    def __init__(self, url: str, table: str, token: str, rng: random.Random, think: float) -> None:
        self.think = think
        self.pending: asyncio.Task[None] | None = None
        self.url = url
        self.table = table
        self.token = token
        self.rng = rng
        self.sent_at: float | None = None
        self.latencies: list[float] = []
        self.errors = 0
        self.last: dict[str, Any] | None = None

    async def run(self, ready: asyncio.Event, started: asyncio.Event, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        async with connect(self.url, max_size=2**22, ping_interval=None, compression=None) as ws:
            await ws.send(json.dumps({"type": "hello", "table": self.table, "token": self.token}))
            closer = asyncio.create_task(self._close_on(stop, ws))
            attached = False
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg["type"]
                if not attached and kind == "state":
                    attached = True
                    ready.set()
                    self.last = msg
                    await started.wait()
                elif kind == "ack" and self.sent_at is not None:
                    self.latencies.append(time.perf_counter() - self.sent_at)
                    self.sent_at = None
                elif kind == "error":
                    self.errors += 1
                    self.sent_at = None
                elif kind == "state":
                    self.last = msg
                if stop.is_set():
                    break
                if self.sent_at is None and self.last is not None and self.pending is None:
                    if self.think:
                        self.pending = asyncio.create_task(self._act_later(ws))
                    else:
                        await self._maybe_act(ws)
            closer.cancel()
            if self.pending is not None:
                self.pending.cancel()

    async def _act_later(self, ws: Any) -> None:
        """Act after a think time drawn around ``think`` (a table at a player's pace)."""
        msg = self.last
        obs = msg["obs"] if msg is not None else None
        if msg is not None and obs and obs["result"] is None and obs["to_act"] == msg["you"]:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
            if self.last is msg and self.sent_at is None:
                with contextlib.suppress(Exception):  # the run ended meanwhile
                    await self._maybe_act(ws)
        self.pending = None

    @staticmethod
    async def _close_on(stop: asyncio.Event, ws: Any) -> None:
        await stop.wait()
        await ws.close()

    async def _maybe_act(self, ws: Any) -> None:
        msg = self.last
        assert msg is not None
        obs = msg["obs"]
        if obs and obs["result"] is None and obs["to_act"] == msg["you"] and obs["legal"]:
            self.last = None
            action = self.rng.choice(obs["legal"])
            self.sent_at = time.perf_counter()
            await ws.send(
                json.dumps({"type": "act", "action": action, "expect": len(obs["history"])})
            )


async def _drive(
    ws_url: str, seats: list[tuple[str, str]], seconds: float, seed: int, think: float = 0.0
) -> list[_Seat]:
    rng = random.Random(seed)
    clients = [_Seat(ws_url, t, tok, random.Random(rng.random()), think) for t, tok in seats]
    stop = asyncio.Event()
    started = asyncio.Event()
    readies = [asyncio.Event() for _ in clients]
    tasks = [
        asyncio.create_task(c.run(r, started, stop)) for c, r in zip(clients, readies, strict=True)
    ]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), timeout=120)
    started.set()  # every connection is open and attached: go
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return clients


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q * (len(values) - 1))))
    return values[k]


def run_server_bench(
    tables: int, seconds: float, game: str = "sasku", seed: int = 1, think: float = 1.0
) -> dict[str, Any]:
    """Drive ``tables`` live tables for ``seconds``; report actions/s and ack latency (ms).

    Each seat waits about ``think`` seconds (uniformly 0.5–1.5 × think) before acting, the
    pace of a quick player or a bot at the web table's default speed; ``think=0`` drives every
    table flat out (the server's saturation throughput)."""
    from folkcards.games import GAMES

    if game not in GAMES:
        game = sorted(GAMES)[0]
    g = GAMES[game]
    n = g.num_seats(g.normalize_variant({}))
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        extra = ["--create-rate", str(max(60, tables * 2))]
        with server_process(db, free_port(), extra) as (_proc, url):
            seats: list[tuple[str, str]] = []
            for _ in range(tables):
                status, res = http_json(
                    url,
                    "/api/tables",
                    {
                        "game": game,
                        "name": "bench",
                        "seats": [{"kind": "human"}] * n,
                        "options": {"deal_pause": 0, "bot_delay": 0},
                    },
                )
                if status != 200:
                    raise RuntimeError(f"could not create a table: {res}")
                seats.append((res["id"], res["token"]))
                for s in range(1, n):
                    status, j = http_json(url, f"/api/tables/{res['id']}/join", {"name": f"b{s}"})
                    if status != 200:
                        raise RuntimeError(f"could not join: {j}")
                    seats.append((res["id"], j["token"]))
            ws_url = url.replace("http://", "ws://") + "/ws"
            clients = asyncio.run(_drive(ws_url, seats, seconds, seed, think))
            elapsed = seconds
    lat = [x for c in clients for x in c.latencies]
    return {
        "game": game,
        "tables": tables,
        "think_s": think,
        "connections": len(seats),
        "seconds": round(elapsed, 2),
        "actions": len(lat),
        "actions_per_s": round(len(lat) / elapsed, 1) if elapsed > 0 else 0.0,
        "p50_ms": round(statistics.median(lat) * 1000, 2) if lat else None,
        "p99_ms": round(_percentile(lat, 0.99) * 1000, 2) if lat else None,
        "max_ms": round(max(lat) * 1000, 2) if lat else None,
        "errors": sum(c.errors for c in clients),
    }
