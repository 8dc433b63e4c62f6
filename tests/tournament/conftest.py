"""The tournament tests use the bots' toy game (importable as ``toygame``)."""

from __future__ import annotations

import sys
from pathlib import Path

BOTS = str(Path(__file__).parents[1] / "bots")
if BOTS not in sys.path:
    sys.path.insert(0, BOTS)

import toygame  # noqa: E402

from folkcards.bots.base import EXTRA_GAMES  # noqa: E402

EXTRA_GAMES.setdefault("toy", toygame.GAME)
