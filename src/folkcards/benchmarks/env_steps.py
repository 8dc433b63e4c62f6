"""PettingZoo environment steps per second per game (needs the ``rl`` extra)."""

from __future__ import annotations

import random
import time

from folkcards.engine.api import Game


def env_steps(game: Game, seconds: float, seed: int = 0) -> float:
    """Steps per second of random masked play in ``folkcards.rl.env(game)``, observing
    the acting agent before each step (what a learning loop does). Episode ``k`` is reset
    with seed ``seed + k``; a void deal (SCO-3.4) is dealt again by ``reset`` itself
    (:mod:`folkcards.rl.deals`), so every selected agent has a legal action."""
    import numpy as np

    from folkcards.rl import env as make_env

    e = make_env(game.name)
    rng = random.Random(1)
    steps = 0
    episode = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset(seed=seed + episode)
        episode += 1
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if not len(legal):
                raise RuntimeError(
                    f"{game.name}: {agent} must act with no legal action (episode seed "
                    f"{seed + episode - 1})"
                )
            e.step(rng.choice(list(legal)))
            steps += 1
    return steps / (time.perf_counter() - start)
