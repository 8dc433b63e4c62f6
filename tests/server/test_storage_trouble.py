"""The database refusing writes: a lock held past the busy timeout, a full disk.

The findings: such a write froze the table silently, and the event had been applied in
memory before its commit (a spectator saw an action that was then lost). Now nothing is
applied or shown before its commit, every viewer is told (an ``error`` ``storage`` and
``table.storage: "trouble"``), the write is retried with backoff, and the table carries on
once the database takes writes again, without a restart."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import event

from folkcards.games import GAMES
from folkcards.server.storage import EventLog, Storage

from .conftest import STEADY, Client, at_len, http, step
from .harness import ServerThread


def test_a_lock_past_the_busy_timeout_holds_the_action_back_until_it_is_stored(
    tmp_path: Path,
) -> None:
    path = tmp_path / "locked.db"
    g = GAMES[STEADY]
    n = g.num_seats(g.normalize_variant({}))
    with ServerThread(f"sqlite:///{path}", busy_timeout=0.2, retry_max=0.2) as server:
        _, res = http(
            server.url,
            "/api/tables",
            {"game": STEADY, "name": "P0", "seats": [{"kind": "human"}] * n},
        )
        tid, tokens = res["id"], {0: res["token"]}
        for s in range(1, n):
            tokens[s] = http(server.url, f"/api/tables/{tid}/join", {"name": f"P{s}"})[1]["token"]
        clients = {s: Client(server.ws_url, tid, tokens[s]) for s in range(n)}
        watcher = Client(server.ws_url, tid, None)
        rng = random.Random(2)
        for _ in range(3):
            assert step(clients, rng)
        st = clients[0].wait_state(at_len(3))
        seat = st["obs"]["to_act"]
        actor = clients[seat]
        legal = actor.wait_state(at_len(3))["obs"]["legal"]
        locker = sqlite3.connect(path, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")  # another program holds the write lock
        try:
            actor.send({"type": "act", "action": legal[0], "ref": "held"})
            # every viewer is told, and nobody is shown the action
            for c in [watcher, *clients.values()]:
                err = c.recv_until(lambda m: m["type"] in ("error", "ack"), timeout=20)
                assert err["type"] == "error" and err["error"] == "storage", err
                trouble = c.wait_state(lambda s: s["table"]["storage"] == "trouble")
                assert len(trouble["obs"]["history"]) == 3
            late = Client(server.ws_url, tid, None)  # the old server showed it the action
            assert len(late.wait_state(lambda s: s["obs"] is not None)["obs"]["history"]) == 3
            other = clients[(seat + 1) % n]
            other.send({"type": "act", "action": legal[0], "ref": "again"})
            again = other.recv_until(
                lambda m: m["type"] in ("error", "ack") and m.get("ref") == "again"
            )
            assert again["error"] == "storage"  # refused at once, not queued behind the lock
            assert not any(f.get("ref") == "held" for f in actor.frames)  # no ack yet
        finally:
            locker.execute("COMMIT")
            locker.close()
        ack = actor.recv_until(lambda m: m["type"] == "ack", timeout=20)
        assert ack["ref"] == "held"
        for c in [watcher, late, *clients.values()]:
            ok = c.wait_state(
                lambda s: s["table"]["storage"] == "ok" and len(s["obs"]["history"]) == 4
            )
            assert ok["obs"]["actors"][-1] == seat
        assert step(clients, rng)  # and the table plays on, no restart
        log = server.server_state.log
        assert log.retries >= 1 and log.trouble is None
        for c in [watcher, late, *clients.values()]:
            c.close()
    # the restarted server has exactly what was acknowledged
    with ServerThread(f"sqlite:///{path}") as server:
        c = Client(server.ws_url, tid, tokens[0])
        assert len(c.wait_state(lambda s: s["obs"] is not None)["obs"]["history"]) == 5
        c.close()


def test_a_full_disk_is_retried_in_order_until_it_has_room(tmp_path: Path) -> None:
    """SQLite's own 'database or disk is full' (the file may not grow past max_page_count)."""
    storage = Storage(f"sqlite:///{tmp_path / 'full.db'}")
    storage.create_table("t", "sasku", "", {})
    limit = {"pages": 0}

    @event.listens_for(storage.engine, "connect")
    def _cap(dbapi_conn: Any, _rec: Any) -> None:
        cur = dbapi_conn.cursor()
        (count,) = cur.execute("PRAGMA page_count").fetchone()
        cur.execute(f"PRAGMA max_page_count = {limit['pages'] or count}")
        cur.close()

    storage.engine.dispose()  # new connections get the cap
    troubles: list[str | None] = []
    log = EventLog(storage, retry_first=0.01, retry_max=0.05)
    log.on_trouble = troubles.append

    async def main() -> None:
        big = {"pad": "x" * 3000}
        writes = [
            asyncio.ensure_future(log.append("t", i, "act", dict(big, i=i))) for i in range(40)
        ]
        while log.trouble is None:
            await asyncio.sleep(0.01)
            assert not all(w.done() for w in writes), "the disk never filled"
        assert not all(w.done() for w in writes)
        limit["pages"] = 10_000  # room again (new connections see it)
        storage.engine.dispose()
        await asyncio.wait_for(asyncio.gather(*writes), 30)
        await log.close()

    try:
        asyncio.run(main())
        assert troubles[0] is not None and "full" in troubles[0] and troubles[-1] is None
        assert [e.data["i"] for e in storage.events("t")] == list(range(40))
    finally:
        storage.close()
