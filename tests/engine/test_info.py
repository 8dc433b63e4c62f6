"""Every game's ``Observation.info`` is its typed, frozen :class:`Info` dataclass, which also
reads as the mapping of its fields, at every point of random deals, for every seat and for
a spectator."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
from typing import Any

import pytest

from folkcards.engine.api import SPECTATOR, Game, MalformedRecord
from folkcards.engine.info import Info
from folkcards.games import GAMES


def variant_for(game: Game, rng: random.Random) -> dict[str, Any]:
    """A random variant the rules accept (each listed value of each option)."""
    while True:
        raw = {o.key: rng.choice(o.choices) for o in game.variant_options if o.choices}
        try:
            return game.normalize_variant(raw)
        except MalformedRecord:
            continue


TYPED = {
    "huutopussi": "HuutopussiInfo",
    "sasku": "SaskuInfo",
    "scopone": "ScoponeInfo",
    "sheepshead": "SheepsheadInfo",
    "satat": "SatatInfo",
}


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Toy(Info):
    trump: str | None
    tricks: list[int]


def test_an_info_reads_as_a_mapping_and_stays_frozen() -> None:
    info = Toy("H", [1, 2])
    assert info["trump"] == info.trump == "H" and info.get("tricks") == [1, 2]
    assert list(info) == ["trump", "tricks"] == list(Toy.keys_of()) and len(info) == 2
    assert "trump" in info and "points" not in info and info.get("points") is None
    assert info == {"trump": "H", "tricks": [1, 2]} and info != {"trump": "S", "tricks": [1, 2]}
    assert dict(info) == info.to_dict() == {"trump": "H", "tricks": [1, 2]}
    with pytest.raises(KeyError):
        info["points"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.trump = "S"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(info)) == info and copy.deepcopy(info) == info
    assert repr(info) == "Toy(trump='H', tricks=[1, 2])"
    assert Toy(tricks=[1, 2], trump="H") == info  # the slot-filling constructor, by keyword
    with pytest.raises(TypeError):
        Toy("H")  # type: ignore[call-arg]


@pytest.mark.parametrize("name", sorted(TYPED))
def test_every_observation_carries_the_games_typed_info(name: str) -> None:
    game = GAMES[name]
    package = __import__(f"folkcards.games.{name}", fromlist=[TYPED[name]])
    cls = getattr(package, TYPED[name])
    assert issubclass(cls, Info) and dataclasses.is_dataclass(cls)
    rng = random.Random(f"info-{name}")
    seen = 0
    for _ in range(6):
        state = game.random_deal(rng, variant_for(game, rng), dealer=rng.randrange(4))
        while True:
            for viewer in (SPECTATOR, *range(state.num_seats)):
                obs = (
                    state.public_observation() if viewer == SPECTATOR else state.observation(viewer)
                )
                info = obs.info
                assert type(info) is cls, f"{name}: {type(info).__name__}"
                as_dict = info.to_dict()
                assert list(as_dict) == list(cls.keys_of()) == list(info)
                assert dict(info) == as_dict and obs.to_dict()["info"] == as_dict
                for key in cls.keys_of():
                    assert info[key] is getattr(info, key)
                json.dumps(as_dict)  # JSON-ready
                back = pickle.loads(pickle.dumps(obs))
                assert back == obs and type(back.info) is cls
                seen += 1
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
    assert seen > 100
