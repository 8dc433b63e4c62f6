"""The websocket side of the protocol: one :func:`serve_socket` per connection.

A connection must say ``hello`` within ``hello_timeout`` seconds or it is closed; then each
message goes through :data:`HANDLERS` (one function per message type). Sends are queued per
connection (:class:`~folkcards.server.tables.Connection`), with a send timeout, and a
client that stops reading is dropped without a flush.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from folkcards.server.guard import ABORT
from folkcards.server.limits import TokenBucket
from folkcards.server.tables import Connection, Table, TableError
from folkcards.server.views import NOT_YOUR_TURN, explanation

if TYPE_CHECKING:
    from folkcards.server.app import Server

MAX_WS_MESSAGE = 8 * 1024
WS_RATE = 20.0  # messages per second, sustained
WS_BURST = 40.0
HELLO_TIMEOUT = 10.0
"""Seconds a new websocket has to send its ``hello``."""


def _ref(value: object) -> int | str | None:
    """A client's message reference, echoed in replies: a small integer or a short
    printable text (anything else is dropped rather than echoed)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if -(2**53) < value < 2**53 else None
    if isinstance(value, str) and len(value) <= 64 and value.isprintable():
        return value
    return None


@dataclass
class Session:
    """One websocket's state between messages."""

    server: Server
    conn: Connection
    hinting: bool = False

    def seated(self) -> tuple[Table, int]:
        """The table and seat of a seated player (TableError for a spectator)."""
        table = self.attached()
        if self.conn.seat is None:
            raise TableError("forbidden", "spectators cannot do that")
        return table, self.conn.seat

    def attached(self) -> Table:
        """The table this connection watches (TableError before ``hello``)."""
        if self.conn.table is None:
            raise TableError("bad_request", "send hello first")
        return self.conn.table


Handler = Callable[[Session, dict[str, Any], "int | str | None"], Awaitable[None]]


async def on_ping(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    s.conn.push({"type": "pong", "ref": ref})


async def on_hello(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    conn = s.conn
    if conn.table is not None:
        raise TableError("bad_request", "already attached to a table")
    tid = msg.get("table")
    if not isinstance(tid, str):
        raise TableError("bad_request", "hello needs a table id")
    table = await s.server.get_table(tid)
    token = msg.get("token")
    seat = table.seat_of_token(token) if token else None
    pending = table.claim_of_token(token) if token and seat is None else None
    conn.creator = bool(token) and table.is_creator(token)
    if token and seat is None and pending is None and not conn.creator:
        conn.push(
            {"type": "error", "error": "bad_token", "message": "unknown seat token; watching"}
        )
    welcome = {"type": "welcome", "table": table.id, "seat": seat, "ref": ref}
    conn.push(welcome | {"pending": pending, "creator": conn.creator, "chat": table.state.chat})
    table.attach(conn, seat, pending)


async def on_act(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    table, seat = s.seated()
    expect = msg.get("expect")
    if expect is not None and (not isinstance(expect, int) or isinstance(expect, bool)):
        raise TableError("bad_request", "expect must be an integer")
    # the ack goes out before the state frame that shows the action
    try:
        await table.act(
            seat,
            msg.get("action"),
            expect=expect,
            acknowledge=functools.partial(s.conn.push, {"type": "ack", "ref": ref}),
        )
    except TableError as exc:
        if exc.code not in ("illegal", "not_your_turn"):
            raise
        # the structured reason, for the client to say in the player's words and language
        ex = explanation(table.deal, msg["action"]) if exc.code == "illegal" else NOT_YOUR_TURN
        rules = ", ".join(ex["rules"]) if ex and ex["rules"] else exc.rule
        s.conn.push({**_error(exc.code, str(exc), ref, rules), "explanation": ex})


async def on_explain(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    table, seat = s.seated()
    answer = table.explain(seat, msg.get("action"))
    ex: dict[str, Any] | None = None
    if not answer["legal"]:
        deal = table.deal
        ex = explanation(deal, msg["action"]) if deal and deal.to_act == seat else NOT_YOUR_TURN
        if ex and ex["rules"]:
            answer["rule"] = ", ".join(ex["rules"])
    s.conn.push({"type": "explain", "ref": ref, **answer, "explanation": ex})


async def on_hint(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    table, seat = s.seated()
    if s.hinting:
        raise TableError("rate_limited", "a hint is already being computed")
    s.hinting = True
    try:
        out = await table.hint(seat)
    finally:
        s.hinting = False
    s.conn.push({"type": "hint", "ref": ref, "action": out["action"], "hint": out["hint"]})


async def on_ready(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    table, seat = s.seated()
    await table.ready(seat)
    s.conn.push({"type": "ack", "ref": ref})


async def on_offer_seat(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    table = s.attached()
    if s.conn.seat is None and not s.conn.creator:
        raise TableError("forbidden", "only a seated player or the table's creator can offer")
    await table.offer(msg.get("seat"))
    s.conn.push({"type": "ack", "ref": ref})


async def on_leave(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    table, seat = s.seated()
    await table.leave(seat)
    s.conn.push({"type": "ack", "ref": ref})


async def on_resign(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    table, seat = s.seated()
    await table.end_now("resigned", seat)
    s.conn.push({"type": "ack", "ref": ref})


async def on_close(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    table = s.attached()
    if not s.conn.creator:
        raise TableError("forbidden", "only the table's creator can close it")
    await table.end_now("closed")
    s.conn.push({"type": "ack", "ref": ref})


async def on_chat(s: Session, msg: dict[str, Any], ref: int | str | None) -> None:
    table, seat = s.seated()
    await table.chat(seat, msg.get("phrase"), msg.get("text"))


HANDLERS: dict[str, Handler] = {
    "ping": on_ping,
    "hello": on_hello,
    "act": on_act,
    "explain": on_explain,
    "hint": on_hint,
    "ready": on_ready,
    "offer_seat": on_offer_seat,
    "leave": on_leave,
    "resign": on_resign,
    "close": on_close,
    "chat": on_chat,
}
"""The handler of each client message type."""


def _error(
    code: str, message: str, ref: int | str | None = None, rule: str | None = None
) -> dict[str, Any]:
    return {"type": "error", "ref": ref, "error": code, "message": message, "rule": rule}


async def serve_socket(server: Server, ws: WebSocket) -> None:
    """One websocket: a ``hello`` attaches it to a table; then act/explain/hint/ready/ping."""

    async def send(text: str) -> None:
        await ws.send_text(text)

    async def close() -> None:
        with contextlib.suppress(Exception):
            await ws.close(1008)

    abort = ws.scope.get("extensions", {}).get(ABORT)
    conn = Connection(send, close, abort, send_timeout=server.send_timeout)
    session = Session(server, conn)
    bucket = TokenBucket(WS_RATE, WS_BURST)
    limited = False
    loop = asyncio.get_running_loop()
    hello_by = loop.time() + server.hello_timeout  # from the connection, not the last message
    try:
        while True:
            try:
                if conn.table is None:
                    raw = await _receive_within(ws, max(0.0, hello_by - loop.time()))
                    if raw is None:
                        conn.push(_error("timeout", "no hello in time; closing"))
                        break
                else:
                    raw = await ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                break
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None:
                conn.push(_error("bad_request", "messages are JSON text"))
                continue
            if len(text) > MAX_WS_MESSAGE:
                conn.push(_error("too_large", "message too large"))
                continue
            if not bucket.take():
                if not limited:  # one error per burst, not one per dropped message
                    conn.push(_error("rate_limited", "too many messages; slow down"))
                limited = True
                continue
            limited = False
            try:
                msg = json.loads(text)
            except (ValueError, RecursionError):  # also integers over 4,300 digits
                conn.push(_error("bad_json", "not JSON"))
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                conn.push(_error("bad_request", "a message is {type: ...}"))
                continue
            kind = msg["type"]
            ref = _ref(msg.get("ref"))
            handler = HANDLERS.get(kind)
            try:
                if handler is None:
                    raise TableError("bad_request", f"unknown message type {kind[:20]!r}")
                await handler(session, msg, ref)
            except TableError as exc:
                conn.push(_error(exc.code, str(exc), ref, exc.rule))
            except Exception as exc:  # never let one message kill the connection silently
                conn.push(_error("server_error", str(exc)[:200], ref))
    finally:
        if conn.table is not None:
            conn.table.detach(conn)
        elif not conn.dropped:
            # closed before or for want of its hello: send what is queued, then close
            with contextlib.suppress(Exception):
                await asyncio.wait_for(_flush_and_close(conn), server.send_timeout)
        conn.stop()


async def _receive_within(ws: WebSocket, timeout: float) -> Any:
    try:
        return await asyncio.wait_for(ws.receive(), timeout)
    except TimeoutError:
        return None


async def _flush_and_close(conn: Connection) -> None:
    conn.queue.put_nowait(None)  # the sender closes once what is queued has gone out
    await conn.task
