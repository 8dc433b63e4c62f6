"""Sheepshead's ``heuristic`` playout policy and its reading of the play: the heuristic
bot's card play written into the batched kernel, each seat knowing what SHP-13.1 lets it
know (its hand, the played cards, the picker its blind and bury, the partner once the
called card falls), in called, alone and leaster deals (SHP-6, SHP-9)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from folkcards.batch import kernel_for  # noqa: E402
from folkcards.batch.exact import check, positions  # noqa: E402
from folkcards.bots.heuristic import sheepshead as HEUR  # noqa: E402
from folkcards.bots.kits import find_kit  # noqa: E402
from folkcards.bots.registry import make_bot  # noqa: E402
from folkcards.bots.search import sample  # noqa: E402
from folkcards.engine.api import DealState  # noqa: E402
from folkcards.games import GAMES  # noqa: E402

POSITIONS = 300


@pytest.fixture(scope="module")
def states() -> list[DealState]:
    return positions(GAMES["sheepshead"], POSITIONS, seed=13)


def test_the_heuristic_policy_plays_exactly_by_the_rules(states: list[DealState]) -> None:
    report = check(GAMES["sheepshead"], states, "heuristic", seed=4)
    assert report.positions == POSITIONS and report.actions > POSITIONS
    assert not report.failures, "\n".join(report.failures)


def test_every_card_of_a_playout_is_one_the_heuristic_rates_best(
    states: list[DealState], heuristic_playouts: Any
) -> None:
    """Each row is played out by the kernel's ``heuristic`` policy; replayed through the
    scalar engine, every recorded card must be one of the best by the heuristic's
    ``evaluate`` from that seat's observation, in every mode."""
    checked, misses = heuristic_playouts(
        "sheepshead", states, HEUR.evaluate, lambda st, obs: obs.info["mode"]
    )
    assert checked["called"] > 300 and checked["alone"] > 300 and checked["leaster"] > 10, checked
    assert not misses, misses[:10]


def test_the_kernels_reading_of_the_play_is_the_searchs_likelihood() -> None:
    """``SheepsheadKernel.likelihoods`` weights sampled deals exactly as the scalar
    search's inference from play weights their picks, passes (SHP-4.1) and card play:
    ``miss`` per pick, pass or card of another seat the heuristic would not have made,
    with each sampled deal's own six cards dealt, blind, bury and partner. Without the
    picks read the kernel weights many of the same deals otherwise."""
    game = GAMES["sheepshead"]
    kernel = kernel_for("sheepshead")
    kit = find_kit("sheepshead")
    assert kernel is not None and kit is not None
    rng = random.Random(3)
    heuristic = make_bot("heuristic")

    def card_play_likelihood(world: Any, seat: int, miss: float) -> float:
        fresh = game.deal_from_record(world.setup_record(), world.variant)
        weight = 1.0
        for action, actor in zip(world.history, world.actors, strict=True):
            if (
                fresh.phase in ("pick", "play")
                and actor != seat
                and len(fresh.legal_actions()) > 1
                and kit.explains(fresh.observation(actor), action) is False
            ):
                weight *= miss
            fresh.apply(action)
        return weight

    compared: Counter[str] = Counter()
    missed = by_picks = 0
    for d in range(40):
        deal: Any = game.random_deal(random.Random(d), dealer=d % 5)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if deal.phase == "play" and len(deal.history) % 4 == 0:
                worlds = [sample(game, obs, rng) for _ in range(3)]
                got = kernel.likelihoods(worlds, obs.seat, 0.25)
                for world, w in zip(worlds, got, strict=True):
                    want = card_play_likelihood(world, obs.seat, 0.25)
                    assert w == pytest.approx(want, rel=1e-12)
                    compared[obs.info["mode"]] += 1
                    missed += want < 1
                plays_only = kernel.likelihoods(worlds, obs.seat, 0.25, bids=False)
                by_picks += int((plays_only != got).sum())
            deal.apply(heuristic.evaluate(obs, rng).choice)
    assert sum(compared.values()) > 300 and compared["called"] and compared["leaster"]
    assert missed > sum(compared.values()) // 5 and by_picks > sum(compared.values()) // 10
