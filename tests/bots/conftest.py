"""Shared fixtures of the bot tests: the toy game (importable as ``toygame``) and
``toy_registered``, which puts it in the engine's registry for a test that plays it and
takes it out again after (other tests list the registered games)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import toygame  # noqa: E402

from folkcards.engine.registry import GAMES, register  # noqa: E402


@pytest.fixture
def toy_registered() -> Iterator[None]:
    """The toy game in the engine's registry, where the bots find a game by name (it has
    no bot kit: its heuristic is the small search a game without one gets)."""
    added = "toy" not in GAMES
    register(toygame.GAME)
    yield
    if added:
        GAMES.pop("toy", None)
