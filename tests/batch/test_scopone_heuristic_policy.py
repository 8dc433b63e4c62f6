"""Scopone's ``heuristic`` playout policy and its reading of the play: the heuristic bot's
``evaluate`` written into the batched kernel (SCO-4.2 options, SCO-5.1 sweeps), each seat
knowing its own hand and the unseen cards, as the bot does."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from folkcards.batch import kernel_for  # noqa: E402
from folkcards.batch.exact import check, positions  # noqa: E402
from folkcards.bots.heuristic import scopone as HEUR  # noqa: E402
from folkcards.bots.kits import find_kit  # noqa: E402
from folkcards.bots.registry import make_bot  # noqa: E402
from folkcards.bots.search import sample  # noqa: E402
from folkcards.engine.api import DealState  # noqa: E402
from folkcards.games import GAMES  # noqa: E402

POSITIONS = 300
VARIANTS = ({}, {"scientifico": True}, {"re_bello": True}, {"scientifico": True, "re_bello": True})


@pytest.fixture(scope="module")
def states() -> list[DealState]:
    return positions(GAMES["scopone"], POSITIONS, seed=12)


def test_the_heuristic_policy_plays_exactly_by_the_rules(states: list[DealState]) -> None:
    report = check(GAMES["scopone"], states, "heuristic", seed=4)
    assert report.positions == POSITIONS and report.actions > POSITIONS
    assert not report.failures, "\n".join(report.failures)


def test_every_play_of_a_playout_is_one_the_heuristic_rates_best(
    states: list[DealState], heuristic_playouts: Any
) -> None:
    """Each row is played out by the kernel's ``heuristic`` policy; replayed through the
    scalar engine, every recorded play must be one of the best by the heuristic's
    ``evaluate`` from that seat's observation."""
    checked, misses = heuristic_playouts("scopone", states, HEUR.evaluate, lambda st, obs: "play")
    assert checked["play"] > 2 * POSITIONS
    assert not misses, misses[:10]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_kernels_reading_of_the_play_is_the_searchs_likelihood(
    variant: dict[str, Any],
) -> None:
    """``ScoponeKernel.likelihoods`` weights sampled deals exactly as the scalar search's
    inference from play (:func:`folkcards.bots.search.likelihood`): ``miss`` per play of
    another seat the heuristic would not have made, nothing for a seat with one option."""
    game = GAMES["scopone"]
    kernel = kernel_for("scopone")
    kit = find_kit("scopone")
    assert kernel is not None and kit is not None
    rng = random.Random(3)
    heuristic = make_bot("heuristic")

    def likelihood(world: Any, seat: int, miss: float) -> float:
        fresh = game.deal_from_record(world.setup_record(), world.variant)
        weight = 1.0
        for action, actor in zip(world.history, world.actors, strict=True):
            if (
                actor != seat
                and len(fresh.legal_actions()) > 1
                and kit.explains(fresh.observation(actor), action) is False
            ):
                weight *= miss
            fresh.apply(action)
        return weight

    compared = missed = 0
    for d in range(6):
        deal: Any = game.random_deal(random.Random(d), variant, dealer=d % 4)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if deal.turn % 4 == 2:
                worlds = [sample(game, obs, rng) for _ in range(4)]
                got = kernel.likelihoods(worlds, obs.seat, 0.25)
                for world, w in zip(worlds, got, strict=True):
                    want = likelihood(world, obs.seat, 0.25)
                    assert w == pytest.approx(want, rel=1e-12)
                    compared += 1
                    missed += want < 1
            deal.apply(heuristic.evaluate(obs, rng).choice)
    assert compared > 100 and missed > compared // 4
