"""The public conformance kit, ``folkcards.engine.testing.check_game``, on every registered
game — and on a broken game, which it must catch."""

from __future__ import annotations

import random

import pytest

from folkcards.engine.api import DealState, MalformedRecord
from folkcards.engine.testing import check_game
from folkcards.games import GAMES


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_conforms(name: str) -> None:
    counters = check_game(GAMES[name])
    # every action of every deal was checked in depth (determinize, public view, pickle…)
    assert counters.deals == 12 and counters.matches == 2
    assert counters.actions > 12 * 4 and counters.deep == counters.actions


def test_a_game_whose_legal_actions_are_unsorted_fails_with_a_reproducing_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = GAMES["sasku"]
    state_class = type(game.random_deal(random.Random(0)))
    original = state_class.legal_actions

    def reversed_legal(self: DealState) -> tuple[object, ...]:
        legal = original(self)
        return tuple(reversed(legal))

    monkeypatch.setattr(state_class, "legal_actions", reversed_legal)
    with pytest.raises(AssertionError) as caught:
        check_game(game, deals=3, matches=0)
    message = str(caught.value)
    assert "legal.sorted" in message and "folkcards selfcheck sasku" in message
    assert '"actions":' in message  # the record that reproduces it


def test_a_fixed_variant_is_checked_alone() -> None:
    counters = check_game(GAMES["huutopussi"], deals=2, matches=0, variant={"players": 3})
    assert counters.deals == 2
    with pytest.raises(MalformedRecord, match=r"HUU-11\.5"):
        check_game(GAMES["huutopussi"], deals=1, matches=0, variant={"players": 3, "tie": "draw"})
