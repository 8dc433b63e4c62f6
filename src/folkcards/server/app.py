"""The web table's HTTP and websocket application (Starlette).

Routes (the protocol is documented in the README, "The web table"):

* ``GET /`` and ``GET /t/{id}`` — the browser client (static files from ``folkcards/web``);
* ``GET /api/games`` — registered games, their variant options and the bot levels;
* ``GET /api/tables`` / ``POST /api/tables`` — the lobby: list, create;
* ``GET /api/tables/{id}``, ``POST /api/tables/{id}/join``, ``POST /api/tables/{id}/start``;
* ``GET /api/tables/{id}/record`` — the finished deals as a match record (download);
* ``GET /api/tables/{id}/replay/{deal}`` and ``POST /api/replay`` — step-by-step views;
* ``WS /ws`` — a seat's (or a spectator's) live connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from folkcards.games import GAMES
from folkcards.server import botbridge
from folkcards.server.replays import ReplayError, replay_frames
from folkcards.server.storage import EventLog, Storage
from folkcards.server.tables import Connection, Table, TableError, TableManager

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 512 * 1024
MAX_WS_MESSAGE = 8 * 1024
WS_RATE = 20.0  # messages per second, sustained
WS_BURST = 40.0
CREATE_PER_MINUTE = 30
IDLE_AFTER = 900.0
"""Seconds a live table may go with nobody attached before it ends as abandoned."""
MAX_RATE_ENTRIES = 10_000
"""Per-address rate limiters kept at most; idle ones (back to a full burst) are dropped."""

HTTP_STATUS = {
    "not_found": 404,
    "forbidden": 403,
    "too_large": 413,
    "rate_limited": 429,
    "busy": 503,
}
"""HTTP status of each error code; every other code is a 400."""


class TokenBucket:
    """A rate limit: ``rate`` events per second with bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.at = time.monotonic()

    def idle(self) -> bool:
        """True when the bucket has refilled to a full burst (nothing to remember)."""
        return self.level + (time.monotonic() - self.at) * self.rate >= self.burst

    def take(self) -> bool:
        """True when one more event is allowed now."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


class BodyLimit:
    """ASGI middleware: requests whose body exceeds ``limit`` bytes get 413."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await JSONResponse(error_body("too_large", "request body too large"), 413)(
                    scope, receive, send
                )
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise TableError("too_large", "request body too large")
            return msg

        await self.app(scope, limited, send)


def error_body(code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    """The JSON body of every error."""
    return {"ok": False, "error": code, "message": message, "rule": rule}


class Server:
    """The application state: storage, log, tables, per-client limits."""

    def __init__(
        self,
        db_url: str,
        *,
        restore: bool = True,
        create_rate: float = CREATE_PER_MINUTE,
        idle_after: float = IDLE_AFTER,
    ) -> None:
        self.storage = Storage(db_url)
        self.log = EventLog(self.storage)
        self.tables = TableManager(self.log, idle_after=idle_after)
        self.restore = restore
        self.create_limits: dict[str, TokenBucket] = {}
        self.create_rate = create_rate
        self.restored = 0

    def prune_limits(self) -> None:
        """Forget the rate limiters of addresses that are idle again (their bucket refilled),
        once there are many, so the table of addresses stays bounded."""
        if len(self.create_limits) < MAX_RATE_ENTRIES:
            return
        for ip in [ip for ip, b in self.create_limits.items() if b.idle()]:
            del self.create_limits[ip]
        while len(self.create_limits) >= MAX_RATE_ENTRIES:  # all busy: drop the oldest
            del self.create_limits[next(iter(self.create_limits))]

    async def get_table(self, table_id: str) -> Table:
        """A live table or a finished one rebuilt from the log; TableError if none."""
        t = self.tables.tables.get(table_id)
        if t is not None:
            return t
        if len(table_id) > 32:
            raise TableError("not_found", "no such table")
        t = await self.tables.load_finished(table_id)
        if t is None:
            raise TableError("not_found", "no such table")
        return t


def create_app(
    db_url: str,
    *,
    restore: bool = True,
    create_rate: float = CREATE_PER_MINUTE,
    idle_after: float = IDLE_AFTER,
) -> Starlette:
    """The Starlette application serving one database; ``create_rate`` limits new tables per
    minute per client address (bursts of up to 10, or ``create_rate`` if larger);
    ``idle_after`` is how long a table may go unwatched before it ends as abandoned."""
    server = Server(db_url, restore=restore, create_rate=create_rate, idle_after=idle_after)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if server.restore:
            server.restored = await server.tables.restore()
        server.tables.start_sweeping()
        yield
        await server.tables.shutdown()
        server.storage.close()

    def handler(
        fn: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            try:
                return await fn(request)
            except TableError as exc:
                status = HTTP_STATUS.get(exc.code, 400)
                return JSONResponse(error_body(exc.code, str(exc), exc.rule), status)

        return wrapped

    async def read_json(request: Request) -> Any:
        body = await request.body()
        if not body:
            return {}
        try:
            return json.loads(body)
        except (ValueError, RecursionError):
            # ValueError covers malformed JSON, bad UTF-8 and integers over Python's
            # 4,300-digit conversion limit
            raise TableError("bad_json", "the request body is not JSON") from None

    async def index(request: Request) -> Response:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @handler
    async def games(request: Request) -> Response:
        out = []
        for g in GAMES.values():
            v = g.normalize_variant({})
            out.append(
                {
                    "name": g.name,
                    "title": g.title,
                    "partnership": g.partnership,
                    "seats": g.num_seats(v),
                    "options": [
                        {
                            "key": o.key,
                            "default": o.default,
                            "help": o.help,
                            "choices": list(o.choices) if o.choices is not None else None,
                            "minimum": o.minimum,
                            "maximum": o.maximum,
                            "type": type(o.default).__name__,
                        }
                        for o in g.variant_options
                    ],
                    "seats_by_variant": _seats_by_variant(g),
                }
            )
        return JSONResponse(
            {
                "games": out,
                "levels": botbridge.levels(),
                "default_level": botbridge.default_level(),
            }
        )

    @handler
    async def list_tables(request: Request) -> Response:
        return JSONResponse({"tables": server.tables.lobby()})

    @handler
    async def create_table(request: Request) -> Response:
        ip = request.client.host if request.client else "?"
        server.prune_limits()
        bucket = server.create_limits.setdefault(
            ip, TokenBucket(server.create_rate / 60, max(10.0, server.create_rate))
        )
        if not bucket.take():
            raise TableError("rate_limited", "too many tables created; wait a little")
        body = await read_json(request)
        if not isinstance(body, dict):
            raise TableError("bad_request", "the body must be a JSON object")
        table, seat, token = await server.tables.create(
            body.get("game"),
            body.get("variant"),
            body.get("seats"),
            body.get("options"),
            body.get("title"),
            body.get("name"),
            address=ip,
        )
        return JSONResponse({"ok": True, "id": table.id, "seat": seat, "token": token})

    @handler
    async def get_table(request: Request) -> Response:
        t = await server.get_table(request.path_params["tid"])
        return JSONResponse({"ok": True, "table": t.summary()})

    @handler
    async def join_table(request: Request) -> Response:
        t = await server.get_table(request.path_params["tid"])
        body = await read_json(request)
        if not isinstance(body, dict):
            raise TableError("bad_request", "the body must be a JSON object")
        seat, token = await t.join(body.get("name"), body.get("seat"))
        return JSONResponse({"ok": True, "id": t.id, "seat": seat, "token": token})

    @handler
    async def start_table(request: Request) -> Response:
        t = await server.get_table(request.path_params["tid"])
        body = await read_json(request)
        if not isinstance(body, dict) or t.seat_of_token(body.get("token")) is None:
            raise TableError("forbidden", "only a seated player can start the table")
        await t.fill_with_bots()
        t.schedule()
        return JSONResponse({"ok": True})

    @handler
    async def table_record(request: Request) -> Response:
        t = await server.get_table(request.path_params["tid"])
        rec = t.match.record()
        finished = [d for d, st in zip(rec["deals"], t.match.deals, strict=True) if st.is_over]
        if not finished:
            raise TableError("no_record", "no deal of this table has finished yet")
        rec["deals"] = finished
        rec["meta"] = {"table": t.id, "title": t.title, "players": [s.name for s in t.seats]}
        return JSONResponse(
            rec,
            headers={"Content-Disposition": f'attachment; filename="folkcards-{t.id}.json"'},
        )

    @handler
    async def table_replay(request: Request) -> Response:
        t = await server.get_table(request.path_params["tid"])
        try:
            k = int(request.path_params["deal"])
        except ValueError:
            raise TableError("bad_request", "deal must be a number") from None
        if not 0 <= k < len(t.match.deals) or not t.match.deals[k].is_over:
            raise TableError("not_found", "no finished deal with that number")
        rec = t.match.deals[k].record()
        out = await asyncio.to_thread(replay_frames, rec)
        out["players"] = [s.name for s in t.seats]
        return JSONResponse(out)

    @handler
    async def upload_replay(request: Request) -> Response:
        body = await read_json(request)
        try:
            out = await asyncio.to_thread(replay_frames, body)
        except ReplayError as exc:
            raise TableError("bad_record", str(exc)) from None
        return JSONResponse(out)

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        await serve_socket(server, ws)

    routes = [
        Route("/", index),
        Route("/t/{tid}", index),
        Route("/replay", index),
        Route("/api/games", games),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{tid}", get_table),
        Route("/api/tables/{tid}/join", join_table, methods=["POST"]),
        Route("/api/tables/{tid}/start", start_table, methods=["POST"]),
        Route("/api/tables/{tid}/record", table_record),
        Route("/api/tables/{tid}/replay/{deal}", table_replay),
        Route("/api/replay", upload_replay, methods=["POST"]),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    return app


def _seats_by_variant(g: Any) -> dict[str, int]:
    """Seat counts for variant options that change them (e.g. 3-player Huutopussi)."""
    out: dict[str, int] = {}
    for o in g.variant_options:
        if o.choices is None:
            continue
        for c in o.choices:
            try:
                n = g.num_seats(g.normalize_variant({o.key: c}))
            except Exception:
                continue
            if n != g.num_seats(g.normalize_variant({})):
                out[f"{o.key}={json.dumps(c)}"] = n
    return out


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


async def serve_socket(server: Server, ws: WebSocket) -> None:
    """One websocket: a ``hello`` attaches it to a table; then act/explain/hint/ready/ping."""

    async def send(text: str) -> None:
        await ws.send_text(text)

    async def close() -> None:
        with contextlib.suppress(Exception):
            await ws.close(1008)

    conn = Connection(send, close)
    bucket = TokenBucket(WS_RATE, WS_BURST)
    hinting = False
    limited = False
    try:
        while True:
            try:
                raw = await ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                break
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None:
                conn.push(
                    {"type": "error", "error": "bad_request", "message": "messages are JSON text"}
                )
                continue
            if len(text) > MAX_WS_MESSAGE:
                conn.push({"type": "error", "error": "too_large", "message": "message too large"})
                continue
            if not bucket.take():
                if not limited:  # one error per burst, not one per dropped message
                    conn.push(
                        {
                            "type": "error",
                            "error": "rate_limited",
                            "message": "too many messages; slow down",
                        }
                    )
                limited = True
                continue
            limited = False
            try:
                msg = json.loads(text)
            except (ValueError, RecursionError):  # also integers over 4,300 digits
                conn.push({"type": "error", "error": "bad_json", "message": "not JSON"})
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                conn.push(
                    {"type": "error", "error": "bad_request", "message": "a message is {type: ...}"}
                )
                continue
            kind = msg["type"]
            ref = _ref(msg.get("ref"))
            try:
                if kind == "ping":
                    conn.push({"type": "pong", "ref": ref})
                elif kind == "hello":
                    if conn.table is not None:
                        raise TableError("bad_request", "already attached to a table")
                    tid = msg.get("table")
                    if not isinstance(tid, str):
                        raise TableError("bad_request", "hello needs a table id")
                    table = await server.get_table(tid)
                    seat = table.seat_of_token(msg.get("token")) if msg.get("token") else None
                    if msg.get("token") and seat is None:
                        conn.push(
                            {
                                "type": "error",
                                "error": "bad_token",
                                "message": "unknown seat token; watching",
                            }
                        )
                    conn.push({"type": "welcome", "table": table.id, "seat": seat, "ref": ref})
                    table.attach(conn, seat)
                else:
                    if conn.table is None:
                        raise TableError("bad_request", "send hello first")
                    table = conn.table
                    seat = conn.seat
                    if kind in ("act", "explain", "hint", "ready") and seat is None:
                        raise TableError("forbidden", "spectators cannot do that")
                    assert seat is not None or kind not in ("act", "explain", "hint", "ready")
                    if kind == "act":
                        expect = msg.get("expect")
                        if expect is not None and (
                            not isinstance(expect, int) or isinstance(expect, bool)
                        ):
                            raise TableError("bad_request", "expect must be an integer")
                        # the ack goes out before the state frame that shows the action
                        await table.act(
                            seat,  # type: ignore[arg-type]
                            msg.get("action"),
                            expect=expect,
                            acknowledge=functools.partial(conn.push, {"type": "ack", "ref": ref}),
                        )
                    elif kind == "explain":
                        ex = table.explain(seat, msg.get("action"))  # type: ignore[arg-type]
                        conn.push({"type": "explain", "ref": ref, **ex})
                    elif kind == "hint":
                        if hinting:
                            raise TableError("rate_limited", "a hint is already being computed")
                        hinting = True
                        try:
                            action = await table.hint(seat)  # type: ignore[arg-type]
                        finally:
                            hinting = False
                        conn.push({"type": "hint", "ref": ref, "action": action})
                    elif kind == "ready":
                        await table.ready(seat)  # type: ignore[arg-type]
                        conn.push({"type": "ack", "ref": ref})
                    else:
                        raise TableError("bad_request", f"unknown message type {kind[:20]!r}")
            except TableError as exc:
                conn.push(
                    {
                        "type": "error",
                        "ref": ref,
                        "error": exc.code,
                        "message": str(exc),
                        "rule": exc.rule,
                    }
                )
            except Exception as exc:  # never let one message kill the connection silently
                conn.push(
                    {
                        "type": "error",
                        "ref": ref,
                        "error": "server_error",
                        "message": str(exc)[:200],
                    }
                )
    finally:
        if conn.table is not None:
            conn.table.detach(conn)
        conn.stop()
