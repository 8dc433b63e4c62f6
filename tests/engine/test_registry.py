"""The engine's game registry and the deal-state contract's shape (docs/engine.md §1)."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest

import folkcards.games
from folkcards.engine import registry
from folkcards.engine.api import DealState, FolkcardsError, SimpleDeal
from folkcards.engine.records import load_deal
from folkcards.games import GAME_NAMES, GAMES, get_game


def test_folkcards_games_exports_the_engine_registry_itself() -> None:
    assert GAMES is registry.GAMES
    assert get_game is registry.get
    assert list(GAMES)[: len(GAME_NAMES)] == list(GAME_NAMES)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_game_module_registers_its_game(name: str) -> None:
    module = sys.modules[f"folkcards.games.{name}"]
    assert registry.get(name) is module.GAME is GAMES[name]
    assert registry.register(module.GAME) is module.GAME  # the same instance again: fine


def test_another_game_under_a_taken_name_is_refused() -> None:
    other = type(GAMES["sasku"])()
    with pytest.raises(ValueError, match="already registered as 'sasku'"):
        registry.register(other)
    assert GAMES["sasku"] is folkcards.games.sasku.GAME


def test_an_unknown_name_lists_the_valid_ones() -> None:
    with pytest.raises(FolkcardsError, match=r"unknown game 'nope' \(valid: sasku, scopone"):
        registry.get("nope")
    with pytest.raises(FolkcardsError, match=r"unknown game \"nope\" \(known: sasku"):
        load_deal({"game": "nope"})


def test_a_pickled_state_finds_its_game_through_the_registry() -> None:
    state = GAMES["satat"].random_deal(random.Random(3))
    data = pickle.dumps(state)
    assert b"folkcards.engine.registry" in data  # the game by name, not its tables
    assert pickle.loads(data).game is GAMES["satat"]


def test_the_engine_imports_no_game_until_it_looks_one_up() -> None:
    code = """
import sys
import folkcards.engine
assert "folkcards.games" not in sys.modules, "a game module imported at import time"
from folkcards.engine.records import RecordError, load_deal
try:
    load_deal({"game": "nope"})
except RecordError as exc:
    assert "known: sasku, scopone, sheepshead, satat, huutopussi" in str(exc), exc
assert "folkcards.games" in sys.modules
"""
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_game_implements_legal_actions_and_apply_itself(name: str) -> None:
    """The contract: a registered game writes its own legal_actions and apply (its hot
    path) and shares DealState's one slow path, _checked; none overrides _checked."""
    cls = type(GAMES[name].random_deal(random.Random(1)))
    assert {"legal_actions", "apply"} <= DealState.__abstractmethods__  # the contract
    assert not issubclass(cls, SimpleDeal)  # not the plain path of small games
    assert cls.legal_actions is not DealState.legal_actions
    assert cls.apply is not DealState.apply
    assert cls._checked is DealState._checked
