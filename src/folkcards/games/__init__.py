"""The built-in games. Importing this package registers them, in :data:`GAME_NAMES`'
order, in the engine's registry (:mod:`folkcards.engine.registry`): each module
``folkcards.games.<name>`` registers its ``GAME`` when it is imported.

``GAMES[name]`` is the :class:`~folkcards.engine.Game` of each (``GAMES`` is the engine
registry's dict itself); :func:`get_game` finds one by name.
"""

from __future__ import annotations

import importlib

from folkcards.engine.registry import GAMES
from folkcards.engine.registry import get as get_game

GAME_NAMES = ("sasku", "scopone", "sheepshead", "satat", "huutopussi")
"""The built-in games, in registration order."""

for _name in GAME_NAMES:
    importlib.import_module(f"{__name__}.{_name}")

__all__ = ["GAMES", "GAME_NAMES", "get_game"]
