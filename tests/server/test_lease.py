"""Two server processes on one database: the second is refused (the finding: ``uvicorn
--workers 2`` corrupted tables). The lease row is taken at startup, renewed, checked by
every write, and given up at shutdown; a holder that died on this host is taken over."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from folkcards.server.storage import LeaseHeld, LeaseLost, Storage

from .conftest import http
from .harness import free_port, server_process


def test_a_second_server_on_the_same_database_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'one.db'}"
    with server_process(db, free_port()) as (first, url):
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "folkcards.cli",
                "serve",
                "--port",
                str(free_port()),
                "--db",
                db,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 3
        assert "another folkcards server is using this database" in second.stderr
        assert http(url, "/api/tables")[0] == 200  # the first one serves on
        first.send_signal(signal.SIGKILL)
        first.wait()
    # its holder is dead: the next server takes the database over at once
    with server_process(db, free_port()) as (_proc, url):
        assert http(url, "/api/tables")[0] == 200


def test_a_server_whose_lease_was_taken_stops_writing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'lease.db'}"
    a, b = Storage(url), Storage(url)
    try:
        a.acquire_lease(ttl=30)
        with pytest.raises(LeaseHeld):
            b.acquire_lease(ttl=30)
        a.create_table("t", "sasku", "", {})
        a.write_batch([("t", 0, "create", {})], [])
        # a's lease runs out (it stopped renewing) and b takes the database
        with a.engine.begin() as conn:
            from sqlalchemy import update

            from folkcards.server.storage import lease_t

            conn.execute(update(lease_t).values(expires=time.time() - 1))
        b.acquire_lease(ttl=30)
        with pytest.raises(LeaseLost):
            a.write_batch([("t", 1, "act", {})], [])
        assert [e.seq for e in b.events("t")] == [0]  # nothing of a's was written
        b.release_lease()
        assert b.lease_holder() is None
    finally:
        a.close()
        b.close()
