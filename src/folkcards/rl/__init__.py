"""Research interfaces: PettingZoo and Gymnasium environments, OpenSpiel registration.

Needs the ``rl`` extra (``pip install 'folkcards[rl]'``); the core package does not.
``folkcards.rl.env("sasku", **variant)`` is the PettingZoo AEC environment.
"""

from __future__ import annotations

from typing import Any


def env(game: str, render_mode: str | None = None, illegal: str = "raise", **variant: Any) -> Any:
    """The PettingZoo AEC environment of ``game`` (see :mod:`folkcards.rl.pettingzoo_env`)."""
    from folkcards.rl.pettingzoo_env import env as make

    return make(game, render_mode=render_mode, illegal=illegal, **variant)
