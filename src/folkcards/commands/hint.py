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
from folkcards.rl import register_bots_for


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
    p.add_argument(
        "--lang", default="en", choices=("en", "fa"), help="language of the text (en, fa)"
    )
    p.add_argument(
        "--bidi",
        default="auto",
        choices=("auto", "logical", "visual"),
        help="how Persian is written to the terminal (see folkcards play --help)",
    )


def load_position(obj: object) -> DealState:
    """The current deal of a deal or match record."""
    if isinstance(obj, dict) and "deals" in obj:
        return load_match(obj).current
    return load_deal(obj)


def format_hint(h: dict[str, Any]) -> str:
    """A hint as text a player can read: who asks, the recommendation first, then the
    alternatives on one labelled scale (and why the choice stands over a higher mean)."""
    from folkcards.tui import i18n
    from folkcards.tui.hints import lines

    game = str(h["game"])
    phase = str(h["phase"])
    if i18n.lang() != i18n.LANGS[0]:
        phase = i18n.maybe(f"phases.{phase}") or phase
    head = i18n.t(
        "terminal.hint.head",
        game=i18n.game_title(game, game),
        seat=h["seat"],
        phase=phase,
        bot=i18n.bot_level(str(h["bot"])),
    )
    body = lines(h, limit=8)
    body[0] = i18n.t("terminal.hint.choice", action=i18n.action_words(str(h["choice"]), game))
    return "\n".join([head, *body])


def _write(text: str, args: argparse.Namespace) -> None:
    """Print ``text`` in the order ``--bidi`` asks for (visual: reordered line by line)."""
    from folkcards.tui import i18n

    if i18n.rtl() and not args.json:
        try:
            from folkcards.tui.bidi import VisualFile, available, choose
        except ImportError:  # the terminal extra is not installed: logical order
            print(text)
            return
        import os

        if choose(args.bidi, sys.stdout, os.environ) == "visual" and available():
            out = VisualFile(sys.stdout)
            out.write(text + "\n")
            out.flush()
            return
    print(text)


def run(args: argparse.Namespace) -> int:
    """Print the hint; exit 2 on an unknown bot, 1 on a bad record or a seat not to act."""
    try:
        register_bots_for([args.bot])
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
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    from folkcards.tui import i18n

    i18n.set_lang(args.lang)
    _write(format_hint(out), args)
    return 0
