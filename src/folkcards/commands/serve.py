"""``folkcards serve``: the web table on http://127.0.0.1:8000 (SQLite in the user's data dir)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "serve",
        help="play in the browser with friends and bots (web table)",
        description="Start the web table. Tables survive restarts: every action is stored "
        "before it is acknowledged, and unfinished tables are restored on start.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="SQLAlchemy database URL (default: SQLite in the user's data directory; "
        "PostgreSQL: postgresql://user:pass@host/db)",
    )
    p.add_argument(
        "--create-rate",
        type=float,
        default=30,
        help="new tables per minute per client address (default 30)",
    )
    p.add_argument(
        "--idle-after",
        type=float,
        default=900,
        help="seconds a table may go with nobody watching before it ends (default 900)",
    )
    p.add_argument(
        "--bots-idle-after",
        type=float,
        default=60,
        help="seconds a table where only bots play may go unwatched before it ends (default 60)",
    )
    p.add_argument(
        "--min-bot-delay",
        type=float,
        default=0.3,
        help="seconds every bot waits at least before acting, whatever a table asks (default 0.3)",
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        help="processes that run bot decisions, hints and replays (default: cores - 1, 1–4)",
    )
    p.add_argument(
        "--max-connections-per-address",
        type=int,
        default=256,
        help="connections one client address may hold open at once (default 256)",
    )
    p.add_argument(
        "--max-tables-per-address",
        type=int,
        default=20,
        help="live tables one client address may have created (default 20)",
    )
    p.add_argument(
        "--header-timeout",
        type=float,
        default=10,
        help="seconds a client has to send a request's headers (default 10)",
    )
    p.add_argument(
        "--hello-timeout",
        type=float,
        default=10,
        help="seconds a new websocket has to say hello (default 10)",
    )
    p.add_argument(
        "--send-timeout",
        type=float,
        default=10,
        help="seconds a send to a client may take before it is dropped (default 10)",
    )
    p.add_argument(
        "--busy-timeout",
        type=float,
        default=30,
        help="SQLite: seconds a write waits for a lock before it is retried (default 30)",
    )
    p.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    try:
        import uvicorn
        from sqlalchemy.exc import DatabaseError

        from folkcards.server.app import DamagedDatabase, create_app
        from folkcards.server.guard import ConnectionGuard
        from folkcards.server.storage import LeaseHeld, default_db_url
    except ImportError as exc:
        print(f"folkcards serve needs the web extra: pip install -e '.[web]' ({exc})")
        return 2
    url = args.db or default_db_url()
    try:
        app = create_app(
            url,
            create_rate=args.create_rate,
            idle_after=args.idle_after,
            bots_idle_after=args.bots_idle_after,
            min_bot_delay=args.min_bot_delay,
            bot_workers=args.bot_workers,
            hello_timeout=args.hello_timeout,
            send_timeout=args.send_timeout,
            busy_timeout=args.busy_timeout,
            max_connections_per_address=args.max_connections_per_address,
            max_tables_per_address=args.max_tables_per_address,
        )
    except LeaseHeld as exc:
        print(f"folkcards serve: {exc}", file=sys.stderr)
        return 3
    except DamagedDatabase as exc:
        print(f"folkcards serve: {exc}", file=sys.stderr)
        return 4
    except DatabaseError as exc:
        print(
            f"folkcards serve: the database cannot be read ({_first_line(exc)}).\n"
            f"  folkcards db check --db {_safe(url)}   says what is wrong;\n"
            f"  folkcards db repair --db {_safe(url)}  copies what can be read into a new file.",
            file=sys.stderr,
        )
        return 4
    guard = ConnectionGuard(args.max_connections_per_address, args.header_timeout)
    print(
        f"folkcards web table on http://{args.host}:{args.port}  (database: {_safe(url)})",
        flush=True,
    )
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=65536,
        **guard.uvicorn_options(),
    )
    return 0


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    lines = str(orig if orig is not None else exc).splitlines()
    return lines[0] if lines else type(exc).__name__


def _safe(url: str) -> str:
    """The URL without its password, for printing."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        cred, host = rest.rsplit("@", 1)
        return f"{scheme}://{cred.split(':')[0]}:***@{host}"
    return url
