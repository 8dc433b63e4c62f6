"""Shared fixtures of the bot tests: the toy game (importable as ``toygame``)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import toygame  # noqa: E402

from folkcards.bots.base import EXTRA_GAMES  # noqa: E402

EXTRA_GAMES.setdefault("toy", toygame.GAME)
