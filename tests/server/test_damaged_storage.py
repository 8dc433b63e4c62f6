"""One bad table does not stop the server; a damaged file is refused with its repair path.

The findings: one altered event made startup exit (an AssertionError while replaying the
log); 4 KiB of garbage in the SQLite file: ``database disk image is malformed``. Both are
reproduced on real files with ``folkcards serve`` and ``folkcards db`` as subprocesses."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

from folkcards.games import GAMES

from .conftest import STEADY, Client, http, step
from .harness import free_port, server_process


def folkcards(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "folkcards.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def human_tables(url: str, count: int, actions: int) -> list[tuple[str, dict[int, str]]]:
    """``count`` tables of people (nothing moves unless they act), ``actions`` played."""
    g = GAMES[STEADY]
    n = g.num_seats(g.normalize_variant({}))
    ws = url.replace("http", "ws") + "/ws"
    out = []
    for _ in range(count):
        _, res = http(
            url, "/api/tables", {"game": STEADY, "name": "P0", "seats": [{"kind": "human"}] * n}
        )
        tokens = {0: res["token"]}
        for s in range(1, n):
            tokens[s] = http(url, f"/api/tables/{res['id']}/join", {"name": f"P{s}"})[1]["token"]
        clients = {s: Client(ws, res["id"], tokens[s]) for s in range(n)}
        rng = random.Random(3)
        for _ in range(actions):
            assert step(clients, rng)
        for c in clients.values():
            c.close()
        out.append((res["id"], tokens))
    return out


def lobby(url: str) -> set[str]:
    return {t["id"] for t in http(url, "/api/tables")[1]["tables"]}


def test_an_altered_event_quarantines_its_table_and_the_others_serve(tmp_path: Path) -> None:
    path = tmp_path / "alter.db"
    db = f"sqlite:///{path}"
    with server_process(db, free_port()) as (_proc, url):
        (bad, _), (good, tokens) = human_tables(url, 2, 4)
    with sqlite3.connect(path) as conn:  # one action of one table is changed in the file
        conn.execute(
            "UPDATE folkcards_events SET data = json_set(data, '$.action', 'play XX') "
            "WHERE table_id = ? AND kind = 'act' AND seq = (SELECT max(seq) FROM "
            "folkcards_events WHERE table_id = ? AND kind = 'act')",
            (bad, bad),
        )
    with server_process(db, free_port()) as (_proc, url):
        assert lobby(url) == {good}
        status, err = http(url, f"/api/tables/{bad}")
        assert status == 409 and err["error"] == "quarantined", err
        assert "event" in err["message"]
        # the good table plays on: its seat is back where it was
        me = Client(url.replace("http", "ws") + "/ws", good, tokens[0])
        assert (
            me.seat == 0
            and len(me.wait_state(lambda s: s["obs"] is not None)["obs"]["history"]) == 4
        )
        me.close()
    check = folkcards("db", "check", "--db", db)
    assert check.returncode == 0, check.stdout + check.stderr  # quarantined: nothing else wrong
    assert f"quarantined {bad}" in check.stdout and "XX" in check.stdout
    repair = folkcards("db", "repair", "--drop", "--db", db)
    assert repair.returncode == 0 and f"dropped {bad}" in repair.stdout, (
        repair.stdout + repair.stderr
    )
    with sqlite3.connect(path) as conn:
        assert conn.execute(
            "SELECT count(*) FROM folkcards_events WHERE table_id = ?", (bad,)
        ).fetchone() == (0,)


def test_garbage_in_the_file_is_refused_with_the_repair_path_then_repaired(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    db = f"sqlite:///{path}"
    with server_process(db, free_port()) as (_proc, url):
        tables = human_tables(url, 3, 3)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (root,) = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'ix_folkcards_events_table_seq'"
        ).fetchone()
        (page,) = conn.execute("PRAGMA page_size").fetchone()
    with open(path, "r+b") as f:  # 4 KiB of garbage over the events index
        f.seek((root - 1) * page)
        f.write(random.Random(1).randbytes(4096))
    served = folkcards("serve", "--port", str(free_port()), "--db", db, timeout=30)
    assert served.returncode == 4, served.stderr
    assert "damaged" in served.stderr and "folkcards db repair" in served.stderr
    check = folkcards("db", "check", "--db", db)
    assert check.returncode == 1 and "integrity check failed" in check.stdout, check.stdout
    repair = folkcards("db", "repair", "--db", db)
    assert repair.returncode == 0, repair.stdout + repair.stderr
    assert "damaged file is kept" in repair.stdout
    assert any(p.name.startswith("garbage.db.damaged-") for p in tmp_path.iterdir())
    with server_process(db, free_port()) as (_proc, url):
        assert lobby(url) == {tid for tid, _ in tables}  # every row was readable: all back
        tid, tokens = tables[0]
        me = Client(url.replace("http", "ws") + "/ws", tid, tokens[0])
        assert len(me.wait_state(lambda s: s["obs"] is not None)["obs"]["history"]) == 3
        me.close()
    assert os.path.getsize(path) > 0
