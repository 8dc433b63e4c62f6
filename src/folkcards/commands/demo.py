"""``folkcards demo GAME``: bots play a whole match and the log is printed trick by trick.

folkcards demo sasku --seed 1
folkcards demo huutopussi --bots search:iters=50,heuristic,heuristic,heuristic --seed 4
"""

from __future__ import annotations

import argparse
from typing import Any

from folkcards.engine.api import FolkcardsError


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser("demo", help="watch bots play a whole match, trick by trick")
    p.add_argument("game", help="sasku, scopone, sheepshead, satat or huutopussi")
    p.add_argument(
        "--variant", action="append", default=[], metavar="KEY=VALUE", help="a variant option"
    )
    p.add_argument(
        "--bots",
        default="heuristic",
        metavar="LEVEL",
        help="one bot for every seat, or one per seat separated by commas (default heuristic)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed the shuffles and the bots")
    p.add_argument("--deals", type=int, default=None, help="stop after this many deals")
    from folkcards.commands.play import add_language_options

    add_language_options(p)


def run(args: argparse.Namespace) -> int:
    """Print the match; exit status 2 for bad options."""
    from rich.console import Console

    from folkcards.commands.play import language_console, parse_variant
    from folkcards.games import get_game
    from folkcards.tui.demo import run_demo

    err = Console(stderr=True, highlight=False)
    try:
        game = get_game(args.game)
        variant = parse_variant(game, args.variant)
        if args.deals is not None and args.deals < 1:
            raise FolkcardsError("--deals must be at least 1")
        run_demo(game, variant, args.bots, args.seed, language_console(args), args.deals)
    except FolkcardsError as exc:
        err.print(f"folkcards demo: {exc}")
        return 2
    return 0
