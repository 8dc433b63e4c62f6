"""Tables nobody watches end, and one address cannot fill the live-table cap."""

from __future__ import annotations

import time
from pathlib import Path

from folkcards.server.tables import TableManager

from .conftest import Client, http
from .harness import ServerThread

BOTS = [{"kind": "bot", "level": "random"}] * 4


def lobby_ids(url: str) -> set[str]:
    status, res = http(url, "/api/tables")
    assert status == 200
    return {t["id"] for t in res["tables"]}


def test_an_unwatched_table_ends_as_abandoned_and_a_watched_one_plays_on(tmp_path: Path) -> None:
    with ServerThread(f"sqlite:///{tmp_path / 'idle.db'}", idle_after=0.6) as server:
        body = {"game": "sasku", "name": "A", "seats": BOTS, "options": {"bot_delay": 0.2}}
        _, left = http(server.url, "/api/tables", body)
        _, watched = http(server.url, "/api/tables", body)
        spectator = Client(server.ws_url, watched["id"], None)
        assert {left["id"], watched["id"]} <= lobby_ids(server.url)
        deadline = time.time() + 10
        while left["id"] in lobby_ids(server.url):
            assert time.time() < deadline, "the table nobody watches did not end"
            time.sleep(0.1)
        status, res = http(server.url, f"/api/tables/{left['id']}")
        assert status == 200 and res["table"]["status"] == "finished"
        assert watched["id"] in lobby_ids(server.url)
        _, res = http(server.url, f"/api/tables/{watched['id']}")
        assert res["table"]["status"] == "playing"
        spectator.close()


def test_one_address_may_have_only_so_many_live_tables(tmp_path: Path) -> None:
    with ServerThread(f"sqlite:///{tmp_path / 'cap.db'}", create_rate=10_000) as server:
        body = {"game": "scopone", "name": "A"}  # a human seat: nothing plays, nothing ends
        for _ in range(TableManager.MAX_LIVE_PER_ADDRESS):
            status, res = http(server.url, "/api/tables", body)
            assert status == 200, res
        status, res = http(server.url, "/api/tables", body)
        assert status == 429 and res["error"] == "rate_limited" and "live tables" in res["message"]
