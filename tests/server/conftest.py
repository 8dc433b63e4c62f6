"""Fixtures for the web table's tests: a real server on a loopback port and websocket clients."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from .harness import ServerThread, http_json

http = http_json


class Client:
    """One websocket viewer of a table; keeps every frame it received."""

    def __init__(self, ws_url: str, table: str, token: str | None) -> None:
        # entered as a context manager (closed by close()), as websockets asks; no bound on
        # the frames queued unread (a test may read one client of several only at the end):
        # with the default bound the reader thread stops, and close() waits its whole
        # close_timeout for the server's close frame behind the unread ones
        self.ws: ClientConnection = connect(ws_url, max_size=2**22, max_queue=None).__enter__()
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.send({"type": "hello", "table": table, "token": token})
        welcome = self.recv_until(lambda m: m["type"] in ("welcome", "error"))
        self.seat = welcome.get("seat")

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(msg)
        if msg["type"] == "state":
            self.state = msg
        return msg

    def recv_until(self, pred: Any, timeout: float = 30) -> dict[str, Any]:
        while True:
            m = self.recv(timeout)
            if pred(m):
                return m

    def wait_state(self, pred: Any, timeout: float = 60) -> dict[str, Any]:
        """The first state frame (the current one included) that satisfies ``pred``."""
        if self.state is not None and pred(self.state):
            return self.state
        return self.recv_until(lambda m: m["type"] == "state" and pred(m), timeout)

    def act(self, action: str) -> dict[str, Any]:
        """Play ``action``: the ``ack`` comes first, then the state that shows it (returned)."""
        assert self.state is not None and self.state["obs"] is not None
        k = len(self.state["obs"]["history"])
        self.send({"type": "act", "action": action})
        reply = self.recv_until(lambda m: m["type"] in ("ack", "error"))
        assert reply["type"] == "ack", reply
        return self.recv_until(lambda m: m["type"] == "state" and len(m["obs"]["history"]) > k)

    def close(self) -> None:
        self.ws.close()


def my_turn(seat: int) -> Any:
    """A predicate: ``seat`` has legal actions now (a game may show a seat as next while
    another seat makes a private choice, with no legal actions for it yet)."""
    return lambda s: (
        s["obs"] is not None
        and s["obs"]["to_act"] == seat
        and s["obs"]["result"] is None
        and bool(s["obs"]["legal"])
    )


def deal_over(s: dict[str, Any]) -> bool:
    return s["obs"] is not None and s["obs"]["result"] is not None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(f"sqlite:///{tmp_path / 'web.db'}") as srv:
        yield srv


def db_urls() -> list[Any]:
    """SQLite always; PostgreSQL too when FOLKCARDS_TEST_PG_URL is set (CI)."""
    urls: list[Any] = ["sqlite"]
    pg = os.environ.get("FOLKCARDS_TEST_PG_URL")
    urls.append(
        pytest.param(pg, id="postgresql")
        if pg
        else pytest.param(
            None, id="postgresql", marks=pytest.mark.skip(reason="FOLKCARDS_TEST_PG_URL is not set")
        )
    )
    return urls


@pytest.fixture(params=db_urls())
def db_url(request: Any, tmp_path: Path) -> Iterator[str]:
    """A fresh database URL: a SQLite file, or a fresh schema-isolated PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    from sqlalchemy import text

    from folkcards.server.storage import make_engine

    eng = make_engine(request.param)
    with eng.begin() as conn:  # start from empty tables
        for name in ("events", "quarantine", "lease", "tables"):
            conn.execute(text(f"DROP TABLE IF EXISTS folkcards_{name}"))
    eng.dispose()
    yield request.param


def at_len(k: int) -> Any:
    """A predicate: the state's deal history has exactly ``k`` actions."""
    return lambda s: s["obs"] is not None and len(s["obs"]["history"]) == k


def past_len(k: int) -> Any:
    """A predicate: the state's deal history has more than ``k`` actions."""
    return lambda s: s["obs"] is not None and len(s["obs"]["history"]) > k


def step(clients: dict[int, Client], rng: Any) -> bool:
    """The seat to act (all seats are ``clients``) plays a random legal action, waits for the
    acknowledgement and for seat 0 to see it; False when the deal is already over."""
    st = clients[0].wait_state(lambda s: s["obs"] is not None)
    if deal_over(st):
        return False
    seat, k = st["obs"]["to_act"], len(st["obs"]["history"])
    mine = clients[seat].wait_state(at_len(k))
    clients[seat].send({"type": "act", "action": rng.choice(mine["obs"]["legal"]), "expect": k})
    reply = clients[seat].recv_until(lambda m: m["type"] in ("ack", "error"))
    assert reply["type"] == "ack", reply
    clients[0].wait_state(past_len(k))
    return True


STEADY = "sasku"
"""A game whose deals never end before every seat has played (no redeal action): Sasku."""
