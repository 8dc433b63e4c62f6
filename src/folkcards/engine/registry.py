"""The registry of games: one :class:`~folkcards.engine.api.Game` instance per name.

A game module registers its game when it is imported (``GAME = register(SaskuGame())``);
``folkcards.games`` imports the five built-in games, so they are registered in its order.
:func:`get` is how the engine itself finds a game by name (records, pickled states): on
a name it does not know yet it imports ``folkcards.games`` once, which registers the
built-in games, and looks again. ``folkcards.games.GAMES`` is this module's :data:`GAMES`
(the same dict).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from folkcards.engine.api import FolkcardsError

if TYPE_CHECKING:
    from folkcards.engine.api import Game

GAMES: dict[str, Game] = {}
"""Every registered game by name, in the order registered. Read it; add a game with
:func:`register` (tests may add a toy game and remove it again)."""

BUILTIN = "folkcards.games"
"""The package whose import registers the built-in games."""


def register(game: Game) -> Game:
    """Add ``game`` under ``game.name`` and return it; ValueError if another game already
    holds that name (registering the same instance again is allowed)."""
    held = GAMES.get(game.name)
    if held is not None and held is not game:
        raise ValueError(f"a different game is already registered as {game.name!r}")
    GAMES[game.name] = game
    return game


def load_builtin() -> dict[str, Game]:
    """Every registered game, the built-in ones included (imports :data:`BUILTIN`)."""
    importlib.import_module(BUILTIN)
    return GAMES


def get(name: str) -> Game:
    """The game registered as ``name``; FolkcardsError listing the valid names otherwise."""
    game = GAMES.get(name)
    if game is None:
        game = load_builtin().get(name)
        if game is None:
            raise FolkcardsError(f"unknown game {name!r} (valid: {', '.join(GAMES)})")
    return game
