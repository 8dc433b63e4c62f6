"""``folkcards db check|repair``: the web table's database — find and mend damaged tables."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "db",
        help="check or repair the web table's database",
        description="check: list tables whose log does not replay (and why), quarantined "
        "tables, the server lease, and SQLite's integrity check. repair: copy what can be "
        "read out of a damaged SQLite file into a new one (the damaged file is kept beside "
        "it), then quarantine (or --drop) every table that does not replay. Stop the server "
        "first: repair refuses while a server holds the database.",
    )
    p.add_argument("action", choices=["check", "repair"])
    p.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="SQLAlchemy database URL (default: the server's SQLite file)",
    )
    p.add_argument("--drop", action="store_true", help="repair: delete bad tables instead")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    """0: nothing wrong (check) or repaired (repair); 1: problems found; 3: a server runs."""
    try:
        from folkcards.server import dbtools
        from folkcards.server.storage import LeaseHeld, default_db_url
    except ImportError as exc:
        print(f"folkcards db needs the web extra: pip install -e '.[web]' ({exc})")
        return 2
    url = args.db or default_db_url()
    if args.action == "check":
        report = dbtools.check(url)
        if args.json:
            print(json.dumps(report.to_dict(), indent=2))
        else:
            _print_report(report)
        return 0 if report.ok else 1
    try:
        result = dbtools.repair(url, drop=args.drop)
    except LeaseHeld as exc:
        print(f"folkcards db repair: {exc}", file=sys.stderr)
        return 3
    after = dbtools.check(url)
    if args.json:
        print(json.dumps({"repair": result.to_dict(), "check": after.to_dict()}, indent=2))
    else:
        if result.recovered is not None:
            print(f"recovered the readable rows into {result.recovered}")
            print(f"  the damaged file is kept as {result.backup}")
            for t, n in result.copied.items():
                print(
                    f"  {t}: {n} rows copied, {result.skipped.get(t, 0)} damaged stretches skipped"
                )
        for q in result.quarantined:
            print(f"quarantined {q['id']}: {q['reason']}")
        for tid in result.dropped:
            print(f"dropped {tid}")
        if result.recovered is None and not result.quarantined and not result.dropped:
            print("nothing to repair")
        _print_report(after)
    return 0 if not after.bad and not after.damaged_file else 1


def _print_report(report: Any) -> None:
    if report.error:
        print(f"cannot read the database: {report.error}")
    if report.integrity and report.integrity != ["ok"]:
        print("SQLite integrity check failed:")
        for line in report.integrity[:20]:
            print(f"  {line}")
    elif report.integrity:
        print("SQLite integrity check: ok")
    print(f"tables: {report.tables}")
    for b in report.bad:
        print(f"bad table {b['id']} ({b['status']}): {b['reason']}")
    for q in report.quarantined:
        print(f"quarantined {q['id']}: {q['reason']}")
    lease = report.lease
    if lease is not None and lease["live"]:
        print(f"a server holds the database: {lease['owner']}")
    if report.ok:
        print("ok")
