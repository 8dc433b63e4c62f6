"""``folkcards replay FILE|-``: print the replay contract's JSON object for a record."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from folkcards.engine.records import error_output, replay_text


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser("replay", help="replay a deal or match record and print the JSON result")
    p.add_argument("file", help="a record file, or - for standard input")


def run(args: argparse.Namespace) -> int:
    """Print one JSON object; exit status 1 on an error object."""
    try:
        if args.file == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(args.file, "rb") as fh:
                text = fh.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        out = error_output(f"cannot read {args.file}: {exc}")
    else:
        out = replay_text(text)
    print(json.dumps(out, ensure_ascii=False))
    return 0 if out["ok"] else 1
