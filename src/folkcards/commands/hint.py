"""``folkcards hint RECORD [--seat N]``: a bot's choice and its value of every legal action.

RECORD is a deal or match record (a file, or ``-`` for standard input) whose last deal is
in progress; the hint is for the seat to act, computed from that seat's observation only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from folkcards.bots.base import BotError
from folkcards.bots.hint import hint
from folkcards.bots.registry import make_bot
from folkcards.engine.api import DealState, FolkcardsError
from folkcards.engine.records import load_deal, load_match


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "hint",
        help="a bot's choice and evaluation of each legal action for a recorded position",
        description="Load a deal or match record, and print the bot's choice and its value "
        "of every legal action of the seat to act (from that seat's observation only).",
    )
    p.add_argument("record", help="a deal or match record file, or - for standard input")
    p.add_argument("--seat", type=int, default=None, help="the seat asking (must be to act)")
    p.add_argument(
        "--bot",
        default="search",
        help="bot spec (default: search; e.g. heuristic, ismcts:iters=1000, pimc:ms=500)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the bot's RNG")
    p.add_argument("--json", action="store_true", help="print JSON")


def load_position(obj: object) -> DealState:
    """The current deal of a deal or match record."""
    if isinstance(obj, dict) and "deals" in obj:
        return load_match(obj).current
    return load_deal(obj)


def format_hint(h: dict[str, Any]) -> str:
    """A hint as text a player can read: who asks, the recommendation first, then the
    alternatives on one labelled scale (and why the choice stands over a higher mean)."""
    from folkcards.tui.hints import lines

    head = f"{h['game']} · seat {h['seat']} · phase {h['phase']} · bot {h['bot']}"
    body = lines(h, limit=8)
    body[0] = f"choice: {h['choice']} (recommended)"
    return "\n".join([head, *body])


def run(args: argparse.Namespace) -> int:
    """Print the hint; exit 2 on an unknown bot, 1 on a bad record or a seat not to act."""
    try:
        bot = make_bot(args.bot)
    except BotError as exc:
        print(f"folkcards hint: {exc}", file=sys.stderr)
        return 2
    try:
        if args.record == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(args.record, "rb") as fh:
                text = fh.read().decode("utf-8")
        obj = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"folkcards hint: cannot read {args.record}: {exc}", file=sys.stderr)
        return 1
    try:
        state = load_position(obj)
        if state.is_over:
            raise FolkcardsError("the deal is over: there is nothing to decide")
        seat = state.to_act if args.seat is None else args.seat
        assert seat is not None
        if not 0 <= seat < state.num_seats:
            raise FolkcardsError(f"seat must be 0–{state.num_seats - 1}")
        out = hint(state.observation(seat), bot, random.Random(args.seed))
    except FolkcardsError as exc:
        print(f"folkcards hint: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(out, ensure_ascii=False) if args.json else format_hint(out))
    return 0
