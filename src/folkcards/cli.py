"""The ``folkcards`` command: replay, bench, play, serve, tournament, hint, demo.

Each subcommand lives in ``folkcards.commands.<name>`` with ``add_parser`` and ``run``;
this module only dispatches, so a client's heavy imports load only when it is used.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

COMMANDS = (
    "play",
    "serve",
    "db",
    "replay",
    "hint",
    "tournament",
    "bench",
    "demo",
    "selfcheck",
    "rules",
)


def _modules() -> dict[str, ModuleType]:
    return {name: importlib.import_module(f"folkcards.commands.{name}") for name in COMMANDS}


def build_parser(modules: dict[str, ModuleType]) -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="folkcards",
        description="Sasku, Scopone, Sheepshead, Satat and Huutopussi, exactly by their rules.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in modules.values():
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    modules = _modules()
    parser = build_parser(modules)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    code: int = modules[args.command].run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
