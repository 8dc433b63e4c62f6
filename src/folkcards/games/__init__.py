"""The registry of games: ``GAMES[name]`` is the :class:`~folkcards.engine.Game` of each.

Each game lives in its own module ``folkcards.games.<name>`` exporting ``GAME``.
"""

from __future__ import annotations

import importlib

from folkcards.engine.api import FolkcardsError, Game

GAME_NAMES = ("sasku", "scopone", "sheepshead", "satat", "huutopussi")


def _load() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for name in GAME_NAMES:
        try:
            module = importlib.import_module(f"folkcards.games.{name}")
        except ModuleNotFoundError as exc:  # a game not written yet in this checkout
            if exc.name == f"folkcards.games.{name}":
                continue
            raise
        games[name] = module.GAME
    return games


GAMES: dict[str, Game] = _load()


def get_game(name: str) -> Game:
    """The game called ``name``; an error listing the valid names otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise FolkcardsError(f"unknown game {name!r} (valid: {', '.join(GAMES)})") from None
