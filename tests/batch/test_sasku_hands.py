"""Sasku's deals given by their hands alone (``SaskuKernel.draws_hands``).

In card play a batched search needs nothing of a sampled deal but its hands: the trick,
the points and what the play showed are public (SAS-19.1) and the same in every deal
sampled from one observation. ``encode_hands`` and ``likelihoods_hands`` must give exactly
what ``encode`` and ``likelihoods`` give for the whole deals (a search that draws the hands
alone, ``Game.determinize_hands``, is tested in ``test_sasku_heuristic_policy.py``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from folkcards.batch import kernel_for  # noqa: E402
from folkcards.bots.search import quick_choice, sample  # noqa: E402
from folkcards.engine.api import Observation  # noqa: E402
from folkcards.games import GAMES  # noqa: E402


def card_play_observations(deals: int, seed: int) -> list[Observation]:
    """Observations of a seat to play with a choice, heuristic deals of every dealer and
    both ``must_beat`` variants (SAS-17.2)."""
    game = GAMES["sasku"]
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        deal: Any = game.random_deal(rng, {"must_beat": d % 2 == 0}, dealer=d % 4)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if deal.phase == "play" and len(obs.legal) > 1 and len(deal.history) % 4 == d % 4:
                out.append(obs)
            deal.apply(quick_choice(obs, rng))
    return out


def test_hands_alone_encode_and_read_as_whole_deals(read_as_whole: Any) -> None:
    """SAS-19.1: rows built from one whole deal and the others' hands equal the rows of
    the whole deals, key by key, and so do the weights of the reading (SAS-10.3, SAS-8.4:
    the play and the bids read)."""
    game = GAMES["sasku"]
    kernel: Any = kernel_for("sasku")
    assert kernel is not None and kernel.draws_hands
    rng = random.Random(3)
    compared = weighted = 0
    for obs in card_play_observations(10, 7):
        worlds = [sample(game, obs, rng) for _ in range(5)]
        for want in read_as_whole(kernel, worlds, obs.seat, (True, False)):
            weighted += int((want < 1).sum())
        compared += 1
    assert compared > 50 and weighted > 20  # the reading did weigh deals down
