"""The ``random`` bot: uniform over the legal actions (the baseline of every table)."""

from __future__ import annotations

import random

from folkcards.bots.base import Bot, Evaluation
from folkcards.engine.actions import Action
from folkcards.engine.api import Observation


class RandomBot(Bot):
    """Chooses uniformly among ``obs.legal`` with the given RNG."""

    name = "random"

    def choose(self, obs: Observation, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return obs.legal[rng.randrange(len(obs.legal))]

    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        """Every action valued equally; the choice is a uniform draw."""
        choice = self.choose(obs, rng)
        p = 1.0 / len(obs.legal)
        return Evaluation(choice, {a.text: p for a in obs.legal}, "uniform")
