"""Deals pickled by the Huutopussi of before the package split still load (HUU-14, HUU-9.5).

``pickles/*.pickle`` were written (protocol 4) by the package's first layout, whose deal
class was ``folkcards.games.huutopussi.state.HuutopussiState`` and whose variants hold the
marked defaults ``folkcards.games.huutopussi.game._FilledStr``/``_FilledInt``; each
``.json`` beside it holds what that code said of the deal: its record, phase, legal
actions, every seat's and a spectator's observation, and the result after playing on with
the first legal action at every step. A pickle must load as today's deal and say and do
the same.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from folkcards.engine.records import load_deal
from folkcards.games.huutopussi import GAME, HuutopussiState

HERE = Path(__file__).parent / "pickles"
NAMES = ("four_player_state", "three_player_state", "erlangen_state")


def _load(name: str) -> tuple[HuutopussiState, dict[str, Any]]:
    data = (HERE / f"{name}.pickle").read_bytes()
    assert b"folkcards.games.huutopussi.state" in data  # the old class path, indeed
    state = pickle.loads(data)
    return state, json.loads((HERE / f"{name}.json").read_text())


def _stored(data: dict[str, Any]) -> dict[str, Any]:
    """An observation's dict as stored before observations said the seat's ``task`` (the
    task is checked against the replayed twin's instead)."""
    return {k: v for k, v in data.items() if k != "task"}


@pytest.mark.parametrize("name", NAMES)
def test_an_old_pickle_loads_and_shows_the_same_deal(name: str) -> None:
    state, want = _load(name)
    assert type(state) is HuutopussiState and state.game is GAME
    assert state.record() == want["record"]
    assert state.phase == want["phase"] and state.legal_texts() == want["legal"]
    for seat in range(state.num_seats):
        assert _stored(state.observation(seat).to_dict()) == want["observations"][str(seat)]
    assert _stored(state.public_observation().to_dict()) == want["observations"]["spectator"]
    twin = load_deal(want["record"])
    assert all(twin.observation(s) == state.observation(s) for s in range(state.num_seats))
    assert all(
        twin.observation(s).task == state.observation(s).task for s in range(state.num_seats)
    )


@pytest.mark.parametrize("name", NAMES)
def test_an_old_pickle_plays_on_to_the_same_result(name: str) -> None:
    state, want = _load(name)
    played = []
    while not state.is_over:
        action = state.legal_actions()[0]
        played.append(action.text)
        state.apply(action)
    assert played == want["played_on"]
    assert state.result() == want["result"]
    again = pickle.loads(pickle.dumps(state))  # and pickles again in today's layout
    assert again.result() == want["result"] and again.record() == state.record()
