"""The ``heuristic`` bot: a rule-based player per game, encoding the tactics of the rules
files and their seeds (each game's module in this package says which).

A game module ``folkcards.bots.heuristic.<game>`` exports ``evaluate(obs) -> {action:
score}``: a score for every legal action (higher is better), whose best is played. It may
also export ``playout_evaluate(obs)``, a cheaper scorer for the playouts of the search
bots (Sasku's leaves out its endgame solver there), and hooks for the search bots, read
through :func:`module_attribute`: ``rollout(legal, rng)`` (a fast playout policy),
``leaf(state)`` (an exact endgame value that ends a playout), ``models(obs)`` (where the
playout scorer is what the heuristic plays, for inference from play) and
``SEARCH_TUNING`` (the game's own ``search`` options) and ``BATCH_TUNING`` (its own
``bsearch`` options). For a
game without such a module (a game that landed before its heuristic), the bot falls back
to a small flat Monte-Carlo search (a few random playouts per action over
determinizations), which is still far better than random and uses the same observation.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from folkcards.bots.base import Bot, Evaluation, argmax, make_evaluation
from folkcards.engine.actions import Action
from folkcards.engine.api import Observation

Scorer = Callable[[Observation], Mapping[Action, float]]

HEURISTIC_GAMES = ("sasku", "scopone", "sheepshead", "satat", "huutopussi")
"""Games whose heuristic module is written."""


def _module(game: str) -> ModuleType | None:
    if game not in HEURISTIC_GAMES:
        return None
    return importlib.import_module(f"folkcards.bots.heuristic.{game}")


_ATTRIBUTES: dict[tuple[str, str], Any] = {}


def module_attribute(game: str, name: str) -> Any:
    """``name`` of the game's heuristic module (a scorer, the playout hooks ``rollout``
    and ``leaf``, ``SEARCH_TUNING``…), looked up once; None when the game has no module
    or the module no such attribute."""
    key = (game, name)
    if key not in _ATTRIBUTES:
        module = _module(game)
        _ATTRIBUTES[key] = getattr(module, name, None) if module is not None else None
    return _ATTRIBUTES[key]


def scorer_for(game: str, name: str = "evaluate") -> Scorer | None:
    """The per-game scoring function ``name`` (``evaluate``, or ``playout_evaluate`` which
    falls back to ``evaluate``), or None when the game has no heuristic module."""
    fn: Scorer | None = module_attribute(game, name) or module_attribute(game, "evaluate")
    return fn


def explains(obs: Observation, action: Action) -> bool | None:
    """Whether the heuristic would play ``action`` at ``obs`` (one of the best by its
    playout scorer); None when the game has no heuristic, or where its module's
    ``models(obs)`` says the playout scorer is not what the heuristic plays there (Sasku's
    endgame solver). The search's inference from play (``infer``) weights deals by it."""
    scorer = scorer_for(obs.game, "playout_evaluate")
    models: Callable[[Observation], bool] | None = module_attribute(obs.game, "models")
    if scorer is None or (models is not None and not models(obs)):
        return None
    scores = scorer(obs)
    best = max(scores.get(a, 0.0) for a in obs.legal)
    return scores.get(action, 0.0) >= best - 1e-9


class HeuristicBot(Bot):
    """Plays the per-game rule-based choice; falls back to a small search for games
    without a heuristic module."""

    name = "heuristic"

    def __init__(self, fallback_playouts: int = 4) -> None:
        self.fallback_playouts = fallback_playouts

    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        """The game's heuristic scores (or the fallback search's values)."""
        scorer = scorer_for(obs.game)
        if scorer is not None:
            values = dict(scorer(obs))
            missing = [a for a in obs.legal if a not in values]
            for a in missing:
                values[a] = 0.0
            return make_evaluation({a: values[a] for a in obs.legal}, rng, "heuristic")
        from folkcards.bots.search import PIMCBot

        budget = self.fallback_playouts * len(obs.legal)
        return PIMCBot(iterations=budget).evaluate(obs, rng)

    def quick_choice(
        self, obs: Observation, rng: random.Random, scorer_name: str = "evaluate"
    ) -> Action:
        """The heuristic's choice without the fallback search (random when the game has no
        heuristic module), by the module's ``evaluate``, or by its cheaper
        ``playout_evaluate`` for the playouts of the search bots."""
        scorer = scorer_for(obs.game, scorer_name)
        if scorer is None:
            return obs.legal[rng.randrange(len(obs.legal))]
        values = dict(scorer(obs))
        return argmax({a: values.get(a, 0.0) for a in obs.legal}, rng)


HEURISTIC = HeuristicBot()
"""A shared instance (the bot keeps no state between decisions)."""
