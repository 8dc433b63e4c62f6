"""OpenSpiel's IS-MCTS as a folkcards bot, to compare search bots at equal time per decision.

The bot gets an observation like every folkcards bot. It builds one world with
``Game.determinize`` only to give OpenSpiel a root state; OpenSpiel's IS-MCTS then samples
its own worlds with ``resample_from_infostate`` (= ``determinize``) at every simulation,
so the search sees only the seat's information. Budget: ``iterations`` simulations, or
``ms`` milliseconds per decision (the number of simulations is calibrated from the time
the previous decisions took).

Importing this module registers the bot as ``openspiel`` in the bot registry
(``make_bot("openspiel:iters=400")``, ``folkcards.bots.registry.register_bot``): the
registry imports nothing of ``rl``, whose dependencies the core package does not need.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms import mcts as os_mcts

from folkcards.bots.base import Bot, Evaluation, game_of
from folkcards.bots.registry import register_bot
from folkcards.engine.api import Observation
from folkcards.rl.encoding import Encoder
from folkcards.rl.openspiel import FolkcardsSpielState, register, short_name


class OpenSpielISMCTSBot(Bot):
    """OpenSpiel's Python IS-MCTS (random rollouts) deciding for one seat."""

    def __init__(
        self, iterations: int = 200, ms: float | None = None, name: str = "openspiel"
    ) -> None:
        self.iterations = iterations
        self.ms = ms
        self.name = name
        self._sec_per_sim: float | None = None
        self._games: dict[str, Any] = {}

    def _spiel_game(self, obs: Observation) -> Any:
        # the variant as a record spells it (only what differs from the defaults): a full
        # normal form may name options the rules forbid one to give (HUU-11.5, 3 players)
        minimal = game_of(obs).variant_diff(obs.variant)
        key = json.dumps([obs.game, minimal], sort_keys=True)
        if key not in self._games:
            register([obs.game])
            self._games[key] = pyspiel.load_game(
                short_name(obs.game),
                {"variant": json.dumps(minimal), "dealer": obs.dealer},
            )
        return self._games[key]

    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        """Visit shares of OpenSpiel's IS-MCTS root policy as the values."""
        game = game_of(obs)
        spiel_game = self._spiel_game(obs)
        root = spiel_game.new_initial_state()
        assert isinstance(root, FolkcardsSpielState)
        root.deal = game.determinize(obs, rng)
        sims = self.iterations
        if self.ms is not None:
            sims = max(4, int(self.ms / 1000 / self._sec_per_sim)) if self._sec_per_sim else 16
        seed = rng.getrandbits(31)
        bot = ismcts.ISMCTSBot(
            spiel_game,
            os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)),
            uct_c=2.0,
            max_simulations=sims,
            random_state=np.random.RandomState(seed + 1),
        )
        t0 = time.perf_counter()
        policy, _ = bot.step_with_policy(root)
        per_sim = (time.perf_counter() - t0) / sims
        self._sec_per_sim = (
            per_sim if self._sec_per_sim is None else 0.7 * self._sec_per_sim + 0.3 * per_sim
        )
        encoder: Encoder = spiel_game.encoder
        by_index = encoder.legal_indices(obs.legal)
        values = {by_index[a].text: float(p) for a, p in policy if a in by_index}
        best = max(obs.legal, key=lambda a: (values.get(a.text, 0.0), -int(a)))
        return Evaluation(best, values, "visits")


def make_openspiel_bot(opts: dict[str, Any], name: str) -> Bot:
    """The ``openspiel`` bot of a spec: ``iters=N`` simulations a decision (default 200) or
    ``ms=T`` a time budget instead."""
    return OpenSpielISMCTSBot(iterations=opts.get("iters", 200), ms=opts.get("ms"), name=name)


register_bot("openspiel", make_openspiel_bot, {"iters": int, "ms": float})
