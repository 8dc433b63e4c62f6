"""The other seats' bots and the hint adviser, through the ``folkcards.bots`` registry.

Bots decide from one seat's observation and an RNG. If the bots package cannot be
imported (a checkout without it), a uniform-random player stands in and hints say
they are unavailable, so the table still plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from folkcards.engine.actions import Action
from folkcards.engine.api import FolkcardsError, Observation
from folkcards.tui import i18n

Decide = Callable[[Observation, random.Random], Action]


def _random_choice(obs: Observation, rng: random.Random) -> Action:
    return obs.legal[rng.randrange(len(obs.legal))]


def make_player(spec: str) -> Decide:
    """A function choosing one of ``obs.legal`` for the bot ``spec`` (``random``,
    ``heuristic``, ``search:iters=100`` …); FolkcardsError for an unknown spec."""
    try:
        from folkcards.bots import make_bot
    except ImportError:
        if spec.split(":")[0] != "random":
            raise FolkcardsError(
                f"bot {spec!r} needs folkcards.bots; only 'random' is available"
            ) from None
        return _random_choice
    bot = make_bot(spec)

    def decide(obs: Observation, rng: random.Random) -> Action:
        choice = bot.choose(obs, rng)
        for a in obs.legal:
            if a == choice:
                return a
        raise FolkcardsError(f"bot {spec} chose {choice!r}, which is not legal")

    return decide


def check_spec(spec: str) -> None:
    """Raise FolkcardsError when ``spec`` names no bot."""
    make_player(spec)


def suggest(obs: Observation, spec: str, rng: random.Random) -> dict[str, Any] | str:
    """The adviser's suggestion for the seat to act (``folkcards.bots.hint``): a dict with
    ``choice`` and ``actions`` (best first), or a message saying why there is none."""
    try:
        from folkcards.bots import hint
    except ImportError:
        return i18n.t("terminal.hint.unavailable")
    try:
        out: dict[str, Any] = hint(obs, spec, rng)
    except Exception as exc:  # advice must never end the person's match
        return i18n.t("terminal.hint.failed", error=str(exc) or type(exc).__name__)
    return out
