"""Connections that would hold the server's resources forever: a client that stops reading,
half-sent headers, a websocket that never says hello, too many connections from one
address, and thousands of spectators on one table. Each is reproduced on raw sockets (or
websockets) against a real server on 127.0.0.1, with bounded loops."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import select
import socket
import time
from pathlib import Path

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from folkcards.server.guard import ConnectionGuard

from .conftest import Client, http
from .harness import ServerThread

RANDOM = [{"kind": "bot", "level": "random"}] * 4


def raw_websocket(port: int, hello: dict[str, object]) -> socket.socket:
    """A websocket opened by hand on a socket with a tiny receive buffer, ``hello`` sent;
    the caller then never reads from it (a client that stopped reading)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16))
    s.sendall(
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    payload = json.dumps(hello).encode()
    mask = os.urandom(4)
    assert len(payload) < 126
    frame = bytes([0x81, 0x80 | len(payload)]) + mask
    frame += bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    s.sendall(frame)
    return s


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """True when the server closes ``sock`` within ``within`` seconds (what it had sent
    is read and thrown away)."""
    deadline = time.time() + within
    sock.setblocking(False)
    while time.time() < deadline:
        ready, _, _ = select.select([sock], [], [], 0.2)
        if not ready:
            continue
        try:
            if not sock.recv(65536):
                return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except BlockingIOError:
            continue
    return False


def test_a_client_that_stops_reading_is_dropped(tmp_path: Path) -> None:
    with ServerThread(f"sqlite:///{tmp_path / 'slow.db'}", send_timeout=0.5) as server:
        opts = {"bot_delay": 0, "deal_pause": 0}
        _, res = http(
            server.url, "/api/tables", {"game": "satat", "seats": RANDOM, "options": opts}
        )
        table = server.server_state.tables.tables[res["id"]]
        sock = raw_websocket(server.port, {"type": "hello", "table": res["id"]})
        deadline = time.time() + 30
        while not table.spectators:
            assert time.time() < deadline
            time.sleep(0.01)
        # the bots play on flat out; the spectator reads nothing, so its sends stall
        while table.spectators:
            assert time.time() < deadline, "the connection that stopped reading is still held"
            time.sleep(0.05)
        assert closed_by_server(sock, 30)
        sock.close()
        # the table was not held up by it
        assert table.state.actions_applied > 0 and not table.closed


def test_a_websocket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'hello.db'}"
    with ServerThread(db, hello_timeout=0.5) as server, connect(server.ws_url) as ws:
        for i in range(3):  # pings do not put the deadline off
            ws.send(json.dumps({"type": "ping", "ref": i}))
            assert json.loads(ws.recv(timeout=10))["type"] == "pong"
            time.sleep(0.1)
        msg = json.loads(ws.recv(timeout=10))
        assert msg["type"] == "error" and msg["error"] == "timeout"
        try:
            ws.recv(timeout=10)
            raise AssertionError("the connection stayed open")
        except ConnectionClosed:
            pass


def test_half_sent_headers_are_cut_off_and_one_address_is_capped(tmp_path: Path) -> None:
    # the header deadline outlasts opening the 500 sockets even under load: an admitted
    # one cut off while they are still being opened would free its place for another
    guard = ConnectionGuard(max_per_address=50, header_timeout=3.0)
    with ServerThread(f"sqlite:///{tmp_path / 'slowloris.db'}", guard=guard) as server:
        trickle = socket.create_connection(("127.0.0.1", server.port))
        trickle.sendall(b"GET /api/tables HTTP/1.1\r\n")
        socks = []
        for _ in range(500):
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")  # and never the end
            socks.append(s)
        deadline = time.time() + 20
        trickling = True
        while guard.open:  # every one is closed: at once past the cap, else at the deadline
            assert time.time() < deadline, f"{sum(guard.open.values())} connections still open"
            if trickling:
                try:  # a header byte now and then does not extend the deadline
                    trickle.send(b"X")
                except OSError:
                    trickling = False
            time.sleep(0.1)
        assert not trickling or closed_by_server(trickle, 5)
        # past the cap at once; the admitted ones are cut by the header deadline (how many
        # the deadline itself cut, rather than uvicorn closing a connection first, depends
        # on scheduling: 50 on a quiet machine, as few as 6 seen at load average 10)
        assert guard.refused >= 450 and guard.timed_out >= 1
        assert all(closed_by_server(s, 5) for s in socks[:60])
        for s in [*socks, trickle]:
            s.close()
        assert http(server.url, "/api/tables")[0] == 200  # honest requests are served


def test_one_address_may_hold_only_so_many_websockets(tmp_path: Path) -> None:
    with ServerThread(f"sqlite:///{tmp_path / 'cap.db'}", max_connections_per_address=3) as server:
        # every seat a person's: nothing moves while the crowd attaches (a bot's move would
        # be one more frame for everybody, and the count below would depend on timing)
        body = {"game": "sasku", "name": "A", "seats": [{"kind": "human"}] * 4}
        _, res = http(server.url, "/api/tables", body)
        held = [Client(server.ws_url, res["id"], None) for _ in range(3)]
        with connect(server.ws_url) as ws:
            err = json.loads(ws.recv(timeout=10))
            assert err["error"] == "too_many_connections"
        for c in held:
            c.close()


def test_two_thousand_spectators_attach_and_share_one_frame(tmp_path: Path) -> None:
    """The finding: 2,000 spectators took 298 s to attach. Each newcomer now gets the one
    shared spectators' frame and nobody else is sent anything; a change is serialized once
    for all of them."""
    count = 2000
    guard = ConnectionGuard(max_per_address=count + 50)
    with ServerThread(
        f"sqlite:///{tmp_path / 'crowd.db'}", guard=guard, max_connections_per_address=count + 50
    ) as server:
        _, res = http(server.url, "/api/tables", {"game": "sasku", "name": "A"})
        tid = res["id"]
        table = server.server_state.tables.tables[tid]
        built = table.views.built

        async def crowd() -> list[int]:
            from websockets.asyncio.client import connect as aconnect

            async def one() -> tuple[object, int]:
                ws = await aconnect(server.ws_url, ping_interval=None, compression=None)
                await ws.send(json.dumps({"type": "hello", "table": tid}))
                frames = 0
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    if m["type"] == "state":
                        frames += 1
                        return ws, frames

            out: list[tuple[object, int]] = []
            for i in range(0, count, 250):
                out += await asyncio.gather(*(one() for _ in range(min(250, count - i))))
            # a change everybody sees: the host's seat connects
            host = Client(server.ws_url, tid, res["token"])
            before = table.views.built
            received = await asyncio.gather(*(_next_state(ws) for ws, _ in out))
            after = table.views.built
            host.close()
            for ws, _ in out:
                await ws.close()  # type: ignore[attr-defined]
            return [*received, after - before]

        received = asyncio.run(crowd())
        per_change = received.pop()
        assert all(received), "a spectator was not sent the change"
        # attaching: one frame built per newcomer (no broadcast to the others)
        # (a little slack for frames of the table's own steps during the minute of attaching;
        # a broadcast to the others would build about count * count / 2)
        assert table.views.built - built <= count + 2 * per_change + 25
        assert per_change <= 3  # the host's seat and the spectators' shared frame


async def _next_state(ws: object) -> bool:
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 60))  # type: ignore[attr-defined]
        if m["type"] == "state":
            return True


def test_websockets_are_not_compressed(tmp_path: Path) -> None:
    """A browser asks for permessage-deflate; the server declines (PER_MESSAGE_DEFLATE): it
    would compress every frame once per connection, however many share the frame."""
    db = f"sqlite:///{tmp_path / 'c.db'}"
    with ServerThread(db) as server, connect(server.ws_url, compression="deflate") as ws:
        assert ws.protocol.extensions == []
