"""``folkcards serve``: the web table on http://127.0.0.1:8000 (SQLite in the user's data dir)."""

from __future__ import annotations

import argparse
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
    p.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    try:
        import uvicorn

        from folkcards.server.app import create_app
        from folkcards.server.storage import default_db_url
    except ImportError as exc:
        print(f"folkcards serve needs the web extra: pip install -e '.[web]' ({exc})")
        return 2
    url = args.db or default_db_url()
    app = create_app(url, create_rate=args.create_rate, idle_after=args.idle_after)
    print(
        f"folkcards web table on http://{args.host}:{args.port}  (database: {_safe(url)})",
        flush=True,
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=65536)
    return 0


def _safe(url: str) -> str:
    """The URL without its password, for printing."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        cred, host = rest.rsplit("@", 1)
        return f"{scheme}://{cred.split(':')[0]}:***@{host}"
    return url
