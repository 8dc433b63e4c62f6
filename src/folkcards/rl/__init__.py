"""Research interfaces: PettingZoo and Gymnasium environments, OpenSpiel registration.

Needs the ``rl`` extra (``pip install 'folkcards[rl]'``); the core package does not.
``folkcards.rl.env("sasku", **variant)`` is the PettingZoo AEC environment. This module
itself imports none of the extra, so a command can call :func:`register_bots_for` to make
the rl bots (``openspiel``) known to ``folkcards.bots.make_bot`` only when a spec names one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from folkcards.bots.base import BotError

RL_BOTS = ("openspiel",)
"""The bots ``folkcards.rl`` registers in the bot registry (``folkcards.rl.openspiel_bot``)."""


def register_bots_for(specs: Iterable[str]) -> None:
    """Register the rl bots if any of the bot ``specs`` names one (importing
    ``folkcards.rl.openspiel_bot``, which registers ``openspiel``); BotError naming the rl
    extra when it is not installed."""
    if not any(spec.strip().split(":")[0] in RL_BOTS for spec in specs):
        return
    try:
        import folkcards.rl.openspiel_bot  # noqa: F401  (registers the bot on import)
    except ImportError as exc:  # the rl extra is not installed
        raise BotError(
            f"openspiel needs the rl extra (pip install 'folkcards[rl]'): {exc}"
        ) from None


def env(game: str, render_mode: str | None = None, illegal: str = "raise", **variant: Any) -> Any:
    """The PettingZoo AEC environment of ``game`` (see :mod:`folkcards.rl.pettingzoo_env`)."""
    from folkcards.rl.pettingzoo_env import env as make

    return make(game, render_mode=render_mode, illegal=illegal, **variant)
