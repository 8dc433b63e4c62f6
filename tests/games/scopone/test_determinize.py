"""Scopone's determinizer on the engine's kit (SCO-9): worlds from every seat and from the
spectator's public observation have exactly that observation, at random points of random
deals of every variant option value; the unseen cards are dealt uniformly; an impossible
observation is ``Infeasible``."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from folkcards.cards import iter_cards
from folkcards.engine.api import SPECTATOR
from folkcards.engine.determinize import Infeasible
from folkcards.engine.selfcheck import plan_variants, variant_for
from folkcards.games.scopone import GAME, ScoponeState

TARGETS = plan_variants(GAME)[0]


def random_deal(rng: random.Random, target: Any) -> ScoponeState:
    variant = GAME.normalize_variant(variant_for(GAME, target, rng))
    state = GAME.random_deal(rng, variant, rng.randrange(4))
    assert isinstance(state, ScoponeState)
    return state


def check_worlds(state: ScoponeState, rng: random.Random) -> None:
    """From every seat and from the spectator: the world's observation of that viewer is
    the one it came from (a spectator's is ``public_observation()``), its public
    observation is the deal's, and it plays on."""
    pub = state.public_observation()
    for seat in [*range(4), SPECTATOR]:
        obs = pub if seat == SPECTATOR else state.observation(seat)
        world = GAME.determinize(obs, rng)
        if seat != SPECTATOR:
            assert world.observation(seat) == obs, seat
        assert world.public_observation() == pub, seat
        assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
        if not world.is_over:
            world.apply(rng.choice(world.legal_actions()))


@pytest.mark.parametrize("ti", range(len(TARGETS)), ids=[str(t) for t in TARGETS])
@pytest.mark.parametrize("seed", range(2))
def test_worlds_have_the_observation_at_random_points(ti: int, seed: int) -> None:
    """SCO-9: seeded random deals of every variant option value, checked at random points
    (about one action in five, and at the end) from all four seats and a spectator."""
    rng = random.Random(f"sco-det:{ti}:{seed}")
    state = random_deal(rng, TARGETS[ti])
    while not state.is_over:
        if rng.random() < 0.2:
            check_worlds(state, rng)
        state.apply(rng.choice(state.legal_actions()))
    check_worlds(state, rng)


def test_the_unseen_cards_are_dealt_uniformly() -> None:
    """SCO-9: nothing narrows a hidden hand, so each unseen card lies in each other seat's
    hand with probability proportional to that hand's size."""
    rng = random.Random(4)
    state = GAME.random_deal(rng, GAME.normalize_variant({}), 0)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    obs = state.observation(0)
    unseen = [c for s in (1, 2, 3) for c in iter_cards(state.hands[s])]
    sizes = [state.hands[s].bit_count() for s in range(4)]
    n = 3000
    counts = {(c, s): 0 for c in unseen for s in (1, 2, 3)}
    for _ in range(n):
        world = GAME.determinize(obs, rng)
        for s in (1, 2, 3):
            for c in iter_cards(world.hands[s]):
                counts[c, s] += 1
    for (_, s), k in counts.items():
        p = sizes[s] / len(unseen)
        assert abs(k / n - p) < 5 * (p * (1 - p) / n) ** 0.5


def test_an_impossible_observation_is_infeasible() -> None:
    """Hand sizes that do not add up to the unseen cards: ``Infeasible`` (it was a bare
    ``ValueError`` before the kit)."""
    state = GAME.random_deal(random.Random(2), GAME.normalize_variant({}), 0)
    obs = state.observation(1)
    sizes = list(obs.info["hand_sizes"])
    sizes[2] += 1
    bad = dataclasses.replace(obs, info=dataclasses.replace(obs.info, hand_sizes=sizes))
    with pytest.raises(Infeasible):
        GAME.determinize(bad, random.Random(0))
