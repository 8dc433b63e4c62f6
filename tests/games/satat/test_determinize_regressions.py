"""Deals where determinization once found no consistent world (found by ``folkcards
selfcheck``): Trup Kasiet with the 2H as the hidden trump card (hidden, or the blind), announced by the trump
maker, and the trump then known by deduction (SAT-15.3, SAT-15.4, SAT-16.3). The sampler
drew the trump card only among cards it had not yet placed, never the announced 2H."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from folkcards.engine.records import start_deal
from folkcards.games import GAMES

CASES = sorted((Path(__file__).parent / "determinize_cases").glob("*.json"))


def test_the_cases_are_there() -> None:
    assert len(CASES) == 3


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_every_seat_can_determinize_at_every_point(path: Path) -> None:
    game = GAMES["satat"]
    record = json.loads(path.read_text())
    assert record["variant"]["trup_kasiet"] is True
    state, actions = start_deal(game, record)
    state.apply(actions[0])  # hide 2H, or a blind that turns out to be the 2H
    assert state.public_observation().info["trump_card"] is None
    assert state.observation(state.to_act or 0).info["trump_card"] in (None, "2H")
    rng = random.Random(path.stem)
    for action in actions[1:]:
        state.apply(action)
        for seat in range(4):
            obs = state.observation(seat)
            world = game.determinize(obs, rng)
            assert world.observation(seat) == obs
            assert world.public_observation() == state.public_observation()
