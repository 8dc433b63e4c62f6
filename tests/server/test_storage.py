"""Storage: the event log on SQLite and (when FOLKCARDS_TEST_PG_URL is set) PostgreSQL."""

from __future__ import annotations

import asyncio
import random

from folkcards.games import GAMES
from folkcards.server.storage import EventLog, Storage

from .conftest import STEADY, Client, at_len, http, step
from .harness import ServerThread


def test_events_append_in_order_and_group_commit(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        storage.create_table("t1", "sasku", "one", {"x": 1})
        storage.create_table("t2", "sasku", "two", {})
        log = EventLog(storage)

        async def many() -> None:
            await asyncio.gather(
                *(
                    log.append(t, i, "act", {"i": i}, ("playing", {"i": i}))
                    for t in ("t1", "t2")
                    for i in range(150)
                )
            )
            await log.close()

        asyncio.run(many())
        assert log.commits < 300  # events that arrived together were committed together
        for t in ("t1", "t2"):
            evs = storage.events(t)
            assert [e.seq for e in evs] == list(range(150))
            assert [e.data["i"] for e in evs] == list(range(150))
        row = storage.table_row("t1")
        assert row is not None and row["status"] == "playing" and row["summary"] == {"i": 149}
        assert set(storage.table_ids(["playing"])) == {"t1", "t2"}
        assert storage.table_ids(["open"]) == []
        assert storage.table_row("missing") is None
    finally:
        storage.close()


def test_duplicate_sequence_number_is_refused(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        storage.create_table("t", "sasku", "", {})
        log = EventLog(storage)

        async def twice() -> BaseException | None:
            await log.append("t", 0, "act", {})
            try:
                await log.append("t", 0, "act", {})
            except Exception as exc:
                return exc
            finally:
                await log.close()
            return None

        assert asyncio.run(twice()) is not None
        assert len(storage.events("t")) == 1
    finally:
        storage.close()


def test_tables_survive_a_server_restart(db_url: str) -> None:
    game = STEADY
    g = GAMES[game]
    n = g.num_seats(g.normalize_variant({}))
    rng = random.Random(5)
    with ServerThread(db_url) as srv:
        status, res = http(
            srv.url, "/api/tables", {"game": game, "name": "A", "seats": [{"kind": "human"}] * n}
        )
        assert status == 200
        tid = res["id"]
        tokens = {0: res["token"]}
        for s in range(1, n):
            tokens[s] = http(srv.url, f"/api/tables/{tid}/join", {"name": f"P{s}"})[1]["token"]
        clients = {s: Client(srv.ws_url, tid, tokens[s]) for s in range(n)}
        for _ in range(6):
            assert step(clients, rng)
        before = {s: c.wait_state(at_len(6))["obs"] for s, c in clients.items()}
        for c in clients.values():
            c.close()
    with ServerThread(db_url) as srv:
        clients = {s: Client(srv.ws_url, tid, tokens[s]) for s in range(n)}
        for s, c in clients.items():
            assert c.wait_state(lambda x: x["obs"] is not None)["obs"] == before[s]
        lobby = http(srv.url, "/api/tables")[1]
        assert any(t["id"] == tid and t["status"] == "playing" for t in lobby["tables"])
        while step(clients, rng):  # the restored table plays on to the end of the deal
            pass
        for c in clients.values():
            c.close()
