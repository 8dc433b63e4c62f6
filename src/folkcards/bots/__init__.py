"""folkcards bots: ``random``, per-game ``heuristic``, and search (PIMC, IS-MCTS).

Every bot decides from one seat's :class:`~folkcards.engine.api.Observation` and an RNG;
see :mod:`folkcards.bots.base` for the contract and :func:`play_deal` for the driver.
What the bots know of each game is its bot kit (:mod:`folkcards.bots.kits`).

>>> from folkcards.bots import make_bot, BOT_NAMES
>>> BOT_NAMES
('random', 'heuristic', 'search', 'pimc', 'ismcts', 'bpimc', 'bsearch')

(``openspiel`` joins them once ``folkcards.rl.openspiel_bot`` is imported: the rl extra.)
"""

from __future__ import annotations

from folkcards.bots.base import Bot, BotError, Evaluation, SeatClock, play_deal, utilities
from folkcards.bots.hint import explain_hint, hint
from folkcards.bots.registry import BOT_NAMES, make_bot

__all__ = [
    "BOT_NAMES",
    "Bot",
    "BotError",
    "Evaluation",
    "SeatClock",
    "explain_hint",
    "hint",
    "make_bot",
    "play_deal",
    "utilities",
]
