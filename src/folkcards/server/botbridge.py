"""How the web table asks bots for moves and hints.

Bots see only an :class:`~folkcards.engine.api.Observation` (a seat's view), never the
state. The levels are those of :mod:`folkcards.bots` (``random``, ``heuristic``,
``search``); if that package cannot be imported, a uniform-random chooser local to this
module keeps the table playable.
"""

from __future__ import annotations

import random
from typing import Any

from folkcards.engine.api import Observation

WEB_LEVELS = ("random", "heuristic", "search")
"""The levels the lobby offers, weakest first."""

HINT_SPEC = "search"


def _bots() -> Any:
    try:
        import folkcards.bots as bots
    except ImportError:  # pragma: no cover - only without the bots package
        return None
    return bots


def levels() -> list[str]:
    """The bot levels a table may seat, weakest first."""
    bots = _bots()
    if bots is None:
        return ["random"]
    return [lv for lv in WEB_LEVELS if lv in bots.BOT_NAMES]


def default_level() -> str:
    """The level of new bot seats and of bots taking over an absent player's seat."""
    lv = levels()
    return "heuristic" if "heuristic" in lv else lv[-1]


class SeatBot:
    """One bot playing one seat: ``choose(obs)`` returns an action text from ``obs.legal``."""

    def __init__(self, level: str, seed: int) -> None:
        self.level = level
        self.rng = random.Random(seed)
        bots = _bots()
        self.impl: Any = bots.make_bot(level) if bots is not None else None

    @property
    def slow(self) -> bool:
        """True when a decision may take long enough to be worth a worker thread."""
        return self.level not in ("random", "heuristic")

    def choose(self, obs: Observation) -> str:
        """The bot's action for this observation (always one of ``obs.legal``)."""
        if not obs.legal:
            raise ValueError("no legal action to choose from")
        if self.impl is None:
            return str(self.rng.choice(obs.legal))
        return str(self.impl.choose(obs, self.rng))


def hint(obs: Observation, seed: int = 0) -> dict[str, Any]:
    """The search bot's suggestion for this observation (the seat to act's own view):
    ``{"action": <its choice>, "hint": <folkcards.bots.explain_hint of it>}``."""
    bots = _bots()
    if bots is None:
        action = str(random.Random(seed).choice(obs.legal))
        rows = [{"action": action, "value": None, "diff": None, "reason": None}]
        plain = {"choice": action, "scale": "none", "bot_scale": "uniform", "samples": None}
        return {"action": action, "hint": {**plain, "rows": rows, "reason": None}}
    out = bots.hint(obs, HINT_SPEC, random.Random(seed))
    return {"action": str(out["choice"]), "hint": bots.explain_hint(out)}
