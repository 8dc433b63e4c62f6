"""Sheepshead's determinizer on the engine's kit (SHP-13.1): worlds from every seat and from
the spectator's public observation have exactly that observation, at random points of
random deals of every variant option value; the draw reaches every consistent world of a
small position and nothing else; an impossible observation is ``Infeasible``."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from folkcards.cards import CARD_NAMES, DECK_32, cards_list, parse_card
from folkcards.engine.api import SPECTATOR, Observation
from folkcards.engine.determinize import Infeasible
from folkcards.engine.selfcheck import plan_variants, variant_for
from folkcards.games.sheepshead import GAME, SheepsheadDeal

TARGETS = plan_variants(GAME)[0]


def random_deal(rng: random.Random, target: Any) -> SheepsheadDeal:
    variant = GAME.normalize_variant(variant_for(GAME, target, rng))
    stake = rng.choice([1, 2, 8]) if variant["no_pick"] == "doubler" else 1
    state = GAME.random_deal(rng, variant, rng.randrange(5), {"stake": stake})
    assert isinstance(state, SheepsheadDeal)
    return state


def check_worlds(state: SheepsheadDeal, rng: random.Random) -> None:
    """From every seat and from the spectator: the world's observation of that viewer is
    the one it came from, and its public observation is the deal's."""
    pub = state.public_observation()
    for seat in [*range(5), SPECTATOR]:
        obs = state.observation(seat)
        for _ in range(2):
            world = GAME.determinize(obs, rng)
            assert world.observation(seat) == obs, seat
            assert world.public_observation() == pub, seat
            assert world.to_act == state.to_act and world.phase == state.phase


@pytest.mark.parametrize("ti", range(len(TARGETS)), ids=[str(t) for t in TARGETS])
@pytest.mark.parametrize("seed", range(3))
def test_worlds_have_the_observation_at_random_points(ti: int, seed: int) -> None:
    """SHP-13.1: seeded random deals of every variant option value, checked at random
    points (about one action in four, and at the end) from all five seats and a spectator."""
    rng = random.Random(f"shp-det:{ti}:{seed}")
    state = random_deal(rng, TARGETS[ti])
    while not state.is_over:
        if rng.random() < 0.25:
            check_worlds(state, rng)
        state.apply(rng.choice(state.legal_actions()))
    check_worlds(state, rng)


# --- exactness on a small position -----------------------------------------------------------


def _hidden_key(world: SheepsheadDeal, viewer: int) -> tuple[int, ...]:
    """What ``viewer`` cannot see of a world: the other hands, a bury it did not see, a
    blind nobody has taken."""
    key = [world.hands[s] for s in range(5) if s != viewer]
    key.append(world.bury if world.picker not in (-1, viewer) else 0)
    key.append(world.blind_mask if world.picker < 0 else 0)
    return tuple(key)


def _world_of(state: SheepsheadDeal, viewer: int, key: tuple[int, ...]) -> SheepsheadDeal | None:
    """The deal with the hidden holdings ``key`` (as :func:`_hidden_key` lists them) and
    the rest of ``state``, built and replayed independently of the determinizer; None
    when the rules refuse the history."""
    hands = list(state.hands)
    others = [s for s in range(5) if s != viewer]
    for s, h in zip(others, key, strict=False):
        hands[s] = h
    bury = key[len(others)] if state.picker not in (-1, viewer) else state.bury
    played = [0] * 5
    for a, who in zip(state.history, state.actors, strict=True):
        if a.text.startswith("play "):
            played[who] |= 1 << parse_card(a.text[5:], DECK_32)
    dealt = [hands[s] | played[s] for s in range(5)]
    blind = cards_list(state.blind_mask)
    if state.picker >= 0:  # any two of the picker's eight cards: the pick shows none
        eight = dealt[state.picker] | bury
        blind = cards_list(eight)[:2]
        dealt[state.picker] = eight & ~(1 << blind[0] | 1 << blind[1])
    world = GAME.new_deal(
        dict(state.variant), state.dealer, hands=[cards_list(h) for h in dealt],
        extra={"blind": blind},
    )  # fmt: skip
    buries = iter(cards_list(bury))
    try:
        for a in state.history:
            world.apply(
                f"bury {CARD_NAMES[next(buries)]}" if a.text.startswith("bury ") else a.text
            )
    except Exception:  # an illegal replay: not a consistent world
        return None
    return world  # type: ignore[return-value]


def _consistent(state: SheepsheadDeal, viewer: int, obs: Observation) -> set[tuple[int, ...]]:
    """Every hidden layout (by brute force) whose world has the observation ``obs``."""
    true_key = _hidden_key(state, viewer)
    slots = [i for i, h in enumerate(true_key) for _ in range(h.bit_count())]
    pool = 0
    for h in true_key:
        pool |= h
    found = set()
    for perm in set(itertools.permutations(slots)):
        key = [0] * len(true_key)
        for c, i in zip(cards_list(pool), perm, strict=True):
            key[i] |= 1 << c
        world = _world_of(state, viewer, tuple(key))
        if world is not None and world.observation(viewer) == obs:
            found.add(tuple(key))
    return found


def _last_trick_positions(n: int) -> list[tuple[SheepsheadDeal, int]]:
    """Called-game positions at the start of the sixth trick, with a viewer that is not
    the picker (four hidden hands of one card and the hidden bury)."""
    rng = random.Random(11)
    out = []
    while len(out) < n:
        state = GAME.random_deal(rng, GAME.normalize_variant({}), rng.randrange(5))
        while not state.is_over and not (state.phase == "play" and state.trick_no == 5):
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over or state.mode != "called" or state.trick:
            continue
        out.append((state, rng.choice([s for s in range(5) if s != state.picker])))
    return out


@pytest.mark.parametrize("case", range(4))
def test_the_draw_reaches_exactly_the_consistent_worlds(case: int) -> None:
    """SHP-6.2–6.6, SHP-7.3, SHP-7.5, SHP-7.6: the constraints exclude no consistent world
    (each comes out) and admit no other (the verify step would otherwise reject), and no
    world is drawn far more often than the average."""
    state, viewer = _last_trick_positions(4)[case]
    obs = state.observation(viewer)
    consistent = _consistent(state, viewer, obs)
    assert _hidden_key(state, viewer) in consistent
    rng = random.Random(case)
    draws = 60 * len(consistent)
    seen = Counter(_hidden_key(GAME.determinize(obs, rng), viewer) for _ in range(draws))
    assert set(seen) == consistent
    assert max(seen.values()) < 4 * draws / len(consistent)


def test_an_impossible_observation_is_infeasible() -> None:
    """Hand sizes that do not add up to the hidden cards: ``Infeasible`` at once."""
    state = GAME.random_deal(random.Random(2), GAME.normalize_variant({}), 0)
    state.apply(state.legal_actions()[0])
    obs = state.observation(3)
    sizes = list(obs.info["hand_sizes"])
    sizes[0] += 1
    bad = dataclasses.replace(obs, info=dataclasses.replace(obs.info, hand_sizes=sizes))
    with pytest.raises(Infeasible):
        GAME.determinize(bad, random.Random(0))
