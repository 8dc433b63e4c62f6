"""``folkcards play GAME``: a match at the terminal against bots, or hot-seat among people.

folkcards play sasku --seat 0 --bots heuristic --seed 7 --save match.json
folkcards play --resume match.json
folkcards play scopone --variant scientifico=true --hotseat
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from folkcards.engine.api import FolkcardsError, Game
from folkcards.engine.match import Match
from folkcards.engine.records import RecordError, load_json


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "play",
        help="play a match in the terminal against bots (or hot-seat)",
        description="Play a match in the terminal. At a prompt type a number from the list, "
        "an action ('play TH', 'bid 6'), a card alone (10h), '?' for a hint, 'why CARD', "
        "'history', 'help' or 'quit'.",
    )
    p.add_argument("game", nargs="?", help="sasku, scopone, sheepshead, satat or huutopussi")
    p.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a variant option of the game's rules (repeatable), e.g. target=12",
    )
    p.add_argument("--seat", type=int, default=None, help="your seat (default 0)")
    p.add_argument(
        "--bots", default=None, metavar="LEVEL", help="bot for the other seats (default heuristic)"
    )
    p.add_argument(
        "--hint", default=None, metavar="BOT", help="bot that answers '?' (default search)"
    )
    p.add_argument(
        "--seed", type=int, default=None, help="seed the shuffles and the bots (reproducible)"
    )
    p.add_argument("--save", default=None, metavar="FILE", help="keep the match record in FILE")
    p.add_argument(
        "--hotseat",
        action="store_true",
        default=None,
        help="every seat is a person at this terminal",
    )
    p.add_argument("--resume", default=None, metavar="FILE", help="continue a saved match")
    p.add_argument(
        "--no-explain",
        action="store_true",
        help="leave out the one-line explanations, jump-bid confirmations and signal "
        "questions (for players who know the game; 'explain on' at the table turns them on)",
    )
    add_language_options(p)


def add_language_options(p: Any) -> None:
    """``--lang`` and ``--bidi``, shared by the terminal commands."""
    p.add_argument(
        "--lang",
        default="en",
        choices=("en", "fa"),
        help="language of the table: its prompts, menus, narration, explanations, hints and "
        "rules pages (en English, fa Persian)",
    )
    p.add_argument(
        "--bidi",
        default="auto",
        choices=("auto", "logical", "visual"),
        help="how right-to-left text is written: logical (for terminals that do their own "
        "bidi: GNOME Terminal and other VTE terminals, Konsole, mlterm), visual (reordered "
        "and shaped here: xterm, tmux, screen, the Linux console, Windows Terminal), or auto "
        "(FOLKCARDS_BIDI, else chosen from the terminal; the default)",
    )


def language_console(args: argparse.Namespace) -> Any:
    """Set the table's language from ``--lang`` and make its console in the order ``--bidi``
    asks for (``folkcards.tui.console``)."""
    from folkcards.tui import i18n
    from folkcards.tui.console import bidi_mode, make_console

    i18n.set_lang(getattr(args, "lang", "en") or "en")
    return make_console(bidi_order=bidi_mode(getattr(args, "bidi", "auto") or "auto"))


EXTRA_OF = {"rich": "tui"}
"""The optional dependency each missing import belongs to (pyproject extras)."""


def missing_extra(exc: ModuleNotFoundError) -> str | None:
    """'pip install folkcards[tui]' when ``exc`` is a missing optional dependency."""
    top = (exc.name or "").split(".")[0]
    extra = EXTRA_OF.get(top)
    if extra is None:
        return None
    return (
        f"the terminal table needs the {top!r} package, which is not installed: "
        f"pip install 'folkcards[{extra}]'"
    )


def parse_variant(game: Game, pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs typed on the command line, as values of the options' types."""
    options = {o.key: o for o in game.variant_options}
    out: dict[str, Any] = {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq:
            raise FolkcardsError(f"--variant needs KEY=VALUE, not {pair!r}")
        if key not in options:
            known = ", ".join(options) or "none"
            raise FolkcardsError(f"unknown variant key {key!r} for {game.name} (known: {known})")
        kind = type(options[key].default)
        value: Any
        if kind is bool:
            low = raw.lower()
            if low not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                raise FolkcardsError(f"variant {key!r} is true or false, not {raw!r}")
            value = low in ("true", "yes", "1", "on")
        elif kind is int:
            try:
                value = int(raw)
            except ValueError:
                raise FolkcardsError(f"variant {key!r} needs an integer, not {raw!r}") from None
        else:
            value = raw
        out[key] = value
    game.normalize_variant(out)
    return out


def run(args: argparse.Namespace) -> int:
    """Set the table up and play; exit status 2 for bad options (or a missing terminal
    extra), 1 for an unreadable record."""
    import sys

    try:
        from folkcards.tui.console import make_console
        from folkcards.tui.session import PlaySession, Seating, check_people, seating_from_meta
    except ModuleNotFoundError as exc:
        message = missing_extra(exc)
        if message is None:
            raise
        print(f"folkcards play: {message}", file=sys.stderr)
        return 2
    from folkcards.games import get_game
    from folkcards.tui.players import check_spec

    console = language_console(args)
    err = make_console(stderr=True)
    rng = random.Random(args.seed) if args.seed is not None else random.Random()
    try:
        stored: dict[str, Any] = {}
        if args.resume:
            try:
                obj = load_json(args.resume)
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                err.print(f"folkcards play: cannot read {args.resume}: {exc}")
                return 1
            try:
                match = Match.from_record(obj, rng=rng)
            except RecordError as exc:
                err.print(f"folkcards play: {args.resume} is not a match record to continue: {exc}")
                return 1
            if args.game and args.game != match.game.name:
                raise FolkcardsError(f"{args.resume} is a {match.game.name} match, not {args.game}")
            if args.variant:
                raise FolkcardsError("--variant cannot change a saved match")
            stored = seating_from_meta(obj)
        else:
            if not args.game:
                raise FolkcardsError("name a game (or --resume FILE)")
            game = get_game(args.game)
            match = Match(game, parse_variant(game, args.variant), rng=rng)
        n = match.game.num_seats(match.variant)
        hotseat = bool(args.hotseat if args.hotseat is not None else stored.get("hotseat", False))
        if hotseat:
            people = list(range(n))
        elif args.seat is not None:
            people = [args.seat]
        else:
            raw = stored.get("people", [0])
            people = [int(s) for s in raw] if isinstance(raw, list) else [0]
        check_people(people, n)
        bots = args.bots or stored.get("bots") or "heuristic"
        check_spec(bots)
        hint = args.hint or "search"
        seating = Seating(people=people, bots=bots, hotseat=hotseat, hint=hint)
        save_path = Path(args.save) if args.save else (Path(args.resume) if args.resume else None)
        session = PlaySession(
            match=match,
            seating=seating,
            console=console,
            read=console.input,
            save_path=save_path,
            seed=args.seed,
            explain=not getattr(args, "no_explain", False),
            lang=getattr(args, "lang", "en"),
        )
    except FolkcardsError as exc:
        err.print(f"folkcards play: {exc}")
        return 2
    return session.run()
