"""Positions worth a decision, reached by the heuristic bot: what a warm-up, a benchmark or
a test needs when it wants a real choice of card play (or of another phase) rather than a
random one."""

from __future__ import annotations

import random

from folkcards.bots.registry import make_bot
from folkcards.engine.api import DealState, Game


def phase_position(
    game: Game, rng: random.Random, phase: str, nth: int = 1, choices: int = 1, deals: int = 50
) -> DealState | None:
    """The state at the ``nth`` decision of ``phase`` (``play``, a Huutopussi ``give``, a
    Sasku ``auction``) with at least ``choices`` legal actions, in a deal played by the
    heuristic bot from ``rng`` — deal after deal until one gets there; None if none of
    ``deals`` deals does."""
    heuristic = make_bot("heuristic")
    for _ in range(deals):
        state = game.random_deal(rng)
        seen = 0
        while not state.is_over:
            assert state.to_act is not None
            obs = state.observation(state.to_act)
            if obs.phase == phase and len(obs.legal) >= choices:
                seen += 1
                if seen == nth:
                    return state
            state.apply(heuristic.choose(obs, rng))
    return None


def card_play_position(
    game: Game, rng: random.Random, nth: int = 1, choices: int = 2, deals: int = 50
) -> DealState | None:
    """The state at the ``nth`` decision of card play with at least ``choices`` legal
    actions (:func:`phase_position` of phase ``play``)."""
    return phase_position(game, rng, "play", nth, choices, deals)
