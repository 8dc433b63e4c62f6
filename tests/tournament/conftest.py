"""The tournament tests use the bots' toy game (importable as ``toygame``), registered in
the engine's registry for each test and taken out again after it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

BOTS = str(Path(__file__).parents[1] / "bots")
if BOTS not in sys.path:
    sys.path.insert(0, BOTS)

import toygame  # noqa: E402

from folkcards.engine.registry import GAMES, register  # noqa: E402


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    """The toy game in the engine's registry, where the bots find a game by name."""
    added = "toy" not in GAMES
    register(toygame.GAME)
    yield
    if added:
        GAMES.pop("toy", None)
