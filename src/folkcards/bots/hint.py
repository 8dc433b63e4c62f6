"""Hints: a bot's choice and its evaluation of every legal action, for one seat's view.

The base of hints in the terminal and the web table (and of ``folkcards hint``): the
caller passes the observation of the seat to act — never the state — so a hint reveals
nothing that seat could not know.
"""

from __future__ import annotations

import random
from typing import Any

from folkcards.bots.base import Bot, BotError
from folkcards.bots.registry import make_bot
from folkcards.engine.api import Observation


def hint(
    obs: Observation, bot: Bot | str = "search", rng: random.Random | None = None
) -> dict[str, Any]:
    """The bot's choice and a value per legal action (best first) for ``obs``.

    ``obs`` must be the observation of the seat to act. The result is JSON-ready:
    ``{"game", "seat", "phase", "bot", "choice", "scale", "actions": [{"action",
    "value", …}]}``.
    """
    if obs.to_act != obs.seat or not obs.legal:
        raise BotError(f"seat {obs.seat} is not to act (to act: {obs.to_act})")
    if isinstance(bot, str):
        bot = make_bot(bot)
    ev = bot.evaluate(obs, rng if rng is not None else random.Random(0))
    out: dict[str, Any] = {"game": obs.game, "seat": obs.seat, "phase": obs.phase, "bot": bot.name}
    out.update(ev.to_dict())
    return out
