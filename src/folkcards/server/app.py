"""The web table's HTTP and websocket application (Starlette).

Routes (the protocol is documented in docs/web.md), module-level functions
that find the server's state in ``request.app.state.server``:

* ``GET /`` and ``GET /t/{id}`` — the browser client (static files from ``folkcards/web``);
* ``GET /api/games`` — registered games, their variant options and the bot levels;
* ``GET /api/tables`` / ``POST /api/tables`` — the lobby: list, create;
* ``GET /api/tables/{id}``, ``POST /api/tables/{id}/join``, ``POST /api/tables/{id}/start``,
  ``POST /api/tables/{id}/again`` (play again);
* ``POST /api/records``, ``GET /api/records/{id}`` — shared replays (:mod:`folkcards.server.club`);
* ``GET /api/tables/{id}/record`` — the finished deals as a match record (download);
* ``GET /api/tables/{id}/replay/{deal}`` and ``POST /api/replay[?deal=k]`` — step-by-step views;
* ``WS /ws`` — a seat's (or a spectator's) live connection (:mod:`folkcards.server.sockets`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from folkcards.games import GAMES
from folkcards.server import botbridge, club, workers
from folkcards.server.limits import MAX_RATE_ENTRIES, AddressLimits, TokenBucket
from folkcards.server.replays import ReplayError
from folkcards.server.sockets import HELLO_TIMEOUT, MAX_WS_MESSAGE, serve_socket
from folkcards.server.storage import LEASE_TTL, EventLog, Storage
from folkcards.server.tables import SEND_TIMEOUT, Table, TableError, TableManager
from folkcards.server.workers import WorkerPool

__all__ = [
    "MAX_RATE_ENTRIES",
    "MAX_WS_MESSAGE",
    "Server",
    "TokenBucket",
    "create_app",
]

log = logging.getLogger("folkcards.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 512 * 1024
CREATE_PER_MINUTE = 30
REPLAY_PER_MINUTE = 30
"""Replays (``POST /api/replay``, ``GET .../replay/{k}``) per minute per address (bursts of 10)."""
IDLE_AFTER = 900.0
"""Seconds a live table may go with nobody attached before it ends as abandoned."""
BOTS_IDLE_AFTER = 60.0
"""The same for a table where only bots play."""
MIN_BOT_DELAY = 0.3
"""Seconds every bot waits at least before it acts (tables are anonymous)."""
MAX_CONNECTIONS_PER_ADDRESS = 256
"""Websockets one client address may hold open at once."""

GC_THRESHOLDS = (3_000, 10, 100)
"""The server process's garbage collector (Python's default is ``(700, 10, 10)``). A server
keeps many objects alive for a second or so — a bot's pending move, a websocket message
on its way — and at the default they were promoted to the oldest generation within a
second, whose full collections then came every few seconds at 1,000 tables, each pausing
every table for 0.1–0.2 s of CPU, and the collector took a tenth of the server's CPU. Here
a young collection comes after 3,000 new objects, a middle one after ten of those, and a
full one is considered only after a hundred middle ones (minutes apart), and then only when
the long-lived objects grew by a quarter, as always: at 1,000 tables the collector takes
about 2 % of the server's CPU, in pauses of 15–35 ms (the larger the young generation, the
rarer but the longer its collections; ``folkcards bench server``, docs/performance.md)."""

SWITCH_INTERVAL = 0.001
"""Seconds the event loop's thread may keep the interpreter lock while another thread of
the process waits for it (Python's default is 0.005): the thread that commits the event
log, and those that hand the bots' jobs to their worker processes, wait at most this long
behind a busy event loop — and an action's acknowledgement waits for its commit."""


def tune_interpreter() -> None:
    """Set the process's interpreter for a long-running server: what start-up loaded
    (modules, the games' tables) is frozen — kept out of every later garbage collection,
    which need not scan it again —, the collector's generations are :data:`GC_THRESHOLDS`
    and the threads' switch interval :data:`SWITCH_INTERVAL`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)


HTTP_STATUS = {
    "not_found": 404,
    "forbidden": 403,
    "quarantined": 409,
    "too_large": 413,
    "rate_limited": 429,
    "busy": 503,
    "storage": 503,
}
"""HTTP status of each error code; every other code is a 400."""


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
    """The application state: storage, log, tables, workers, per-client limits."""

    def __init__(
        self,
        db_url: str,
        *,
        restore: bool = True,
        create_rate: float = CREATE_PER_MINUTE,
        replay_rate: float = REPLAY_PER_MINUTE,
        share_rate: float = club.SHARES_PER_MINUTE,
        idle_after: float = IDLE_AFTER,
        bots_idle_after: float = BOTS_IDLE_AFTER,
        min_bot_delay: float = MIN_BOT_DELAY,
        bot_workers: int | None = None,
        pool: WorkerPool | None = None,
        busy_timeout: float = 30.0,
        retry_max: float = 2.0,
        hello_timeout: float = HELLO_TIMEOUT,
        send_timeout: float = SEND_TIMEOUT,
        max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
        lease_ttl: float = LEASE_TTL,
        take_lease: bool = True,
        max_tables_per_address: int = TableManager.MAX_LIVE_PER_ADDRESS,
        tune_process: bool = True,
    ) -> None:
        check_file(db_url)
        self.storage = Storage(db_url, busy_timeout=busy_timeout)
        self.lease_ttl = lease_ttl
        if take_lease:
            try:
                self.storage.acquire_lease(ttl=lease_ttl)  # LeaseHeld: another server runs
            except BaseException:
                self.storage.close()
                raise
        self.log = EventLog(self.storage, retry_max=retry_max)
        self.own_pool = pool is None
        self.pool = pool if pool is not None else WorkerPool(bot_workers)
        self.tables = TableManager(
            self.log,
            idle_after=idle_after,
            bots_idle_after=bots_idle_after,
            min_bot_delay=min_bot_delay,
            pool=self.pool,
        )
        self.tables.MAX_LIVE_PER_ADDRESS = max_tables_per_address
        self.restore = restore
        self.create_rate = create_rate
        self.creates = AddressLimits(create_rate, max(10.0, create_rate))
        self.create_limits = self.creates.buckets
        self.replays = AddressLimits(replay_rate, max(10.0, replay_rate / 3))
        self.records = club.SharedRecords(self.storage.engine)
        """Uploaded records shared by link (``/api/records``)."""
        self.shares = AddressLimits(share_rate, max(1.0, share_rate))
        self.hello_timeout = hello_timeout
        self.send_timeout = send_timeout
        self.max_connections_per_address = max_connections_per_address
        self.sockets: dict[str, int] = {}
        """Open websockets per client address."""
        self.restored = 0
        self._heartbeat: asyncio.Task[None] | None = None
        self.tune_process = tune_process
        """Tune the process's interpreter at start (:func:`tune_interpreter`): the server owns
        its process (``folkcards serve``); tests serving in their own process turn it off."""

    def prune_limits(self) -> None:
        """Forget idle per-address rate limiters once there are many."""
        self.creates.prune()

    async def start(self) -> None:
        """Tune the process, restore the tables, start the sweeper and the lease's
        heartbeat."""
        if self.tune_process:
            tune_interpreter()  # before the tables: a restored table is not frozen
        if self.restore:
            self.restored = await self.tables.restore()
        self.tables.start_sweeping()
        if self.storage.owner is not None:
            beat = max(0.05, self.lease_ttl / 3)
            self._heartbeat = asyncio.get_running_loop().create_task(self.log.heartbeat(beat))

    async def stop(self) -> None:
        """Flush the log, stop the workers, give the lease up."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        await self.tables.shutdown()
        if self.own_pool:
            self.pool.close()
        await asyncio.to_thread(self.storage.release_lease)
        self.storage.close()

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


class DamagedDatabase(RuntimeError):
    """The database file's pages are damaged: the server does not start on it."""


def check_file(db_url: str) -> None:
    """Refuse a SQLite file whose pages are damaged (``PRAGMA quick_check``), naming the
    repair path: writing on into such a file would lose more."""
    from folkcards.server.dbtools import quick_check, sqlite_path

    path = sqlite_path(db_url)
    if path is None or not path.exists():
        return
    problems = quick_check(path)
    if problems != ["ok"]:
        raise DamagedDatabase(
            f"the database file {path} is damaged ({problems[0][:200]}). "
            f"'folkcards db check --db {db_url}' lists what is wrong; "
            f"'folkcards db repair --db {db_url}' copies every readable row into a new file "
            "(keeping the damaged one beside it) and quarantines the tables that do not "
            "replay; then start the server again."
        )


def server_of(request: Request | WebSocket) -> Server:
    """The :class:`Server` of the application handling ``request``."""
    srv: Server = request.app.state.server
    return srv


def client_address(request: Request | WebSocket) -> str:
    """The client's address (``?`` when the server does not know it)."""
    return request.client.host if request.client else "?"


def handler(
    fn: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """A route whose TableError becomes the JSON error answer with its HTTP status."""

    async def wrapped(request: Request) -> Response:
        try:
            return await fn(request)
        except TableError as exc:
            status = HTTP_STATUS.get(exc.code, 400)
            return JSONResponse(error_body(exc.code, str(exc), exc.rule), status)

    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


async def read_json(request: Request) -> Any:
    """The request's JSON body (``{}`` when empty); TableError ``bad_json`` if it is not."""
    body = await request.body()
    if not body:
        return {}
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        # ValueError covers malformed JSON, bad UTF-8 and integers over Python's
        # 4,300-digit conversion limit
        raise TableError("bad_json", "the request body is not JSON") from None


async def read_object(request: Request) -> dict[str, Any]:
    """The request's JSON body, which must be an object."""
    body = await read_json(request)
    if not isinstance(body, dict):
        raise TableError("bad_request", "the body must be a JSON object")
    return body


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
                **club.game_extras(g),
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
    return JSONResponse({"tables": server_of(request).tables.lobby()})


@handler
async def create_table(request: Request) -> Response:
    server = server_of(request)
    ip = client_address(request)
    if not server.creates.take(ip):
        raise TableError("rate_limited", "too many tables created; wait a little")
    body = await read_object(request)
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
    t = await server_of(request).get_table(request.path_params["tid"])
    return JSONResponse({"ok": True, "table": t.summary()})


@handler
async def join_table(request: Request) -> Response:
    t = await server_of(request).get_table(request.path_params["tid"])
    body = await read_object(request)
    seat, token = await t.join(body.get("name"), body.get("seat"))
    pending = t.seats[seat].claim is not None  # an offered seat: it is yours from the next deal
    return JSONResponse({"ok": True, "id": t.id, "seat": seat, "token": token, "pending": pending})


@handler
async def again_table(request: Request) -> Response:
    server = server_of(request)
    old = await server.get_table(request.path_params["tid"])
    body = await read_object(request)
    ip = client_address(request)
    if old.state.again is None and not server.creates.take(ip):
        raise TableError("rate_limited", "too many tables created; wait a little")
    token = body.get("token")
    new = await server.tables.again(old, token, address=ip)
    return JSONResponse({"ok": True, "id": new.id, "seat": new.seat_of_token(token)})


@handler
async def start_table(request: Request) -> Response:
    t = await server_of(request).get_table(request.path_params["tid"])
    body = await read_json(request)
    if not isinstance(body, dict) or t.seat_of_token(body.get("token")) is None:
        raise TableError("forbidden", "only a seated player can start the table")
    await t.fill_with_bots()
    t.scheduler.schedule()
    return JSONResponse({"ok": True})


@handler
async def table_record(request: Request) -> Response:
    t = await server_of(request).get_table(request.path_params["tid"])
    rec = t.match.record()
    finished = [d for d, st in zip(rec["deals"], t.match.deals, strict=True) if st.is_over]
    if not finished:
        raise TableError("no_record", "no deal of this table has finished yet")
    rec["deals"] = finished
    rec["meta"] = {"table": t.id, "title": t.state.title, "players": [s.name for s in t.seats]}
    return JSONResponse(
        rec,
        headers={"Content-Disposition": f'attachment; filename="folkcards-{t.id}.json"'},
    )


async def _replay(
    request: Request, record: object, deal: int | None, extra: dict[str, Any]
) -> Response:
    server = server_of(request)
    ip = client_address(request)
    if not server.replays.take(ip):
        raise TableError("rate_limited", "too many replays asked for; wait a little")
    try:
        text = await server.pool.run(f"replay:{ip}", workers.replay, record, deal, extra)
    except workers.PoolBusy:
        raise TableError("busy", "the server is busy; try again in a moment") from None
    except ReplayError as exc:
        code = "too_large" if type(exc).__name__ == "ReplayTooLarge" else "bad_record"
        raise TableError(code, str(exc)) from None
    return Response(text, media_type="application/json")


@handler
async def table_replay(request: Request) -> Response:
    t = await server_of(request).get_table(request.path_params["tid"])
    try:
        k = int(request.path_params["deal"])
    except ValueError:
        raise TableError("bad_request", "deal must be a number") from None
    if not 0 <= k < len(t.match.deals) or not t.match.deals[k].is_over:
        raise TableError("not_found", "no finished deal with that number")
    rec = t.match.deals[k].record()
    return await _replay(request, rec, None, {"players": [s.name for s in t.seats]})


@handler
async def upload_replay(request: Request) -> Response:
    raw = request.query_params.get("deal")
    deal: int | None = None
    if raw is not None:
        if not raw.isdigit() or len(raw) > 6:
            raise TableError("bad_request", "deal must be a deal number (0, 1, …)")
        deal = int(raw)
    body = await read_json(request)
    return await _replay(request, body, deal, {})


async def ws_endpoint(ws: WebSocket) -> None:
    server = server_of(ws)
    ip = client_address(ws)
    open_now = server.sockets.get(ip, 0)
    await ws.accept()
    if open_now >= server.max_connections_per_address:
        with contextlib.suppress(Exception):
            await ws.send_text(
                json.dumps(
                    error_body("too_many_connections", "too many connections from your address")
                    | {"type": "error"}
                )
            )
            await ws.close(1008)
        return
    server.sockets[ip] = open_now + 1
    try:
        await serve_socket(server, ws)
    finally:
        left = server.sockets.get(ip, 1) - 1
        if left > 0:
            server.sockets[ip] = left
        else:
            server.sockets.pop(ip, None)


ROUTES = [
    Route("/", index),
    Route("/t/{tid}", index),
    Route("/replay", index),
    Route("/api/games", games),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{tid}", get_table),
    Route("/api/tables/{tid}/join", join_table, methods=["POST"]),
    Route("/api/tables/{tid}/start", start_table, methods=["POST"]),
    Route("/api/tables/{tid}/again", again_table, methods=["POST"]),
    Route("/api/tables/{tid}/record", table_record),
    Route("/api/tables/{tid}/replay/{deal}", table_replay),
    Route("/api/replay", upload_replay, methods=["POST"]),
    WebSocketRoute("/ws", ws_endpoint),
    Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    Mount("/guide", StaticFiles(directory=club.GUIDE_DIR, check_dir=False), name="guide"),
]


def create_app(db_url: str, **options: Any) -> Starlette:
    """The Starlette application serving one database (options: :class:`Server`'s).

    ``create_rate`` limits new tables per minute per client address (bursts of up to 10, or
    ``create_rate`` if larger); ``idle_after`` is how long a table may go unwatched before
    it ends as abandoned (``bots_idle_after`` when only bots play); ``min_bot_delay`` is
    every bot's least delay. Raises :class:`~folkcards.server.storage.LeaseHeld` when
    another server holds the database."""
    server = Server(db_url, **options)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        yield
        await server.stop()

    routes = list(ROUTES) + club.record_routes(server.records, server.shares)
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
