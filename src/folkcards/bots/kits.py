"""Each game's bot kit: its play knowledge for the bots, one typed object per game.

A :class:`BotKit` holds what the bots know of one game beyond its rules: the heuristic's
scorer, the cheaper scorer the search plays its playouts with, a fast rollout policy, an
exact endgame value that ends a playout, where the playout scorer may stand in for the
heuristic in inference from play, and the game's measured ``search`` and ``bsearch``
settings. The tactics themselves live in the game's heuristic module
(``folkcards.bots.heuristic.<game>``); this module builds the five built-in kits from
them at import and keeps every kit by game name.

A game without a kit (a game that landed before its heuristic, a toy game in tests) is
still played: :func:`find_kit` gives None and each bot says what it does instead (the
heuristic bot a small flat Monte-Carlo search, the playout policies a random card).
Tests give a toy game a kit with :func:`register_kit` and take it away with
:func:`unregister_kit`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from folkcards.bots.base import BotError, argmax
from folkcards.bots.heuristic import huutopussi, sasku, satat, scopone, sheepshead
from folkcards.engine.actions import Action
from folkcards.engine.api import DealState, Observation

Scorer = Callable[[Observation], Mapping[Action, float]]
"""A score per legal action of the seat to act (higher is better; a missing action is 0)."""

Rollout = Callable[[tuple[Action, ...], random.Random], Action]
"""A playout choice among the legal actions, from their texts alone (no observation)."""

LeafSolver = Callable[[DealState], list[float] | None]
"""Every seat's utility of a determinized deal small enough to solve exactly, else None."""

Models = Callable[[Observation], bool]
"""Whether the playout scorer is what the heuristic plays at an observation."""


@dataclass(frozen=True, eq=False)
class BotKit:
    """One game's play knowledge for the bots (one kit per game, compared by identity).

    ``evaluate`` is the heuristic: the ``heuristic`` bot plays its best action, and the
    search bots keep its choice (``keep``), use its ranking as a prior (``prior``) and let
    it decide the phases they do not search. ``playout_evaluate`` is the scorer inside the
    search's ``heuristic`` playouts and its inference from play (None: ``evaluate``); a
    game gives a cheaper one where ``evaluate`` is too dear to run at every playout step
    (Sasku leaves out its endgame solver). ``rollout`` is the ``fast`` playout policy
    (None: random). ``leaf_solver`` ends a playout with an exact value (``dd``, Sasku's
    last three tricks solved double dummy). ``inference_models`` says where
    ``playout_evaluate`` models the heuristic's own play (None: everywhere), so inference
    from play (``infer``) has no opinion elsewhere. ``search_tuning`` and
    ``batch_tuning`` are the game's measured options of ``search`` and ``bsearch``
    (docs/bots.md, "Measured strength"), which a spec's own options override.
    """

    game: str
    evaluate: Scorer
    playout_evaluate: Scorer | None = None
    rollout: Rollout | None = None
    leaf_solver: LeafSolver | None = None
    inference_models: Models | None = None
    search_tuning: Mapping[str, float] = field(default_factory=dict)
    batch_tuning: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # the tunings are read by every bot: nobody may change them through one kit
        object.__setattr__(self, "search_tuning", MappingProxyType(dict(self.search_tuning)))
        object.__setattr__(self, "batch_tuning", MappingProxyType(dict(self.batch_tuning)))

    def scorer(self, playout: bool = False) -> Scorer:
        """``evaluate``, or for ``playout`` the playout scorer (``playout_evaluate``, else
        ``evaluate``)."""
        if playout and self.playout_evaluate is not None:
            return self.playout_evaluate
        return self.evaluate

    def scores(self, obs: Observation, playout: bool = False) -> dict[Action, float]:
        """The scorer's value of every legal action of ``obs`` (0 for one it leaves out)."""
        values = self.scorer(playout)(obs)
        return {a: values.get(a, 0.0) for a in obs.legal}

    def choice(self, obs: Observation, rng: random.Random, playout: bool = False) -> Action:
        """The scorer's best legal action (ties broken by ``rng``)."""
        return argmax(self.scores(obs, playout), rng)

    def explains(self, obs: Observation, action: Action) -> bool | None:
        """Whether the heuristic would play ``action`` at ``obs`` (one of the best by the
        playout scorer); None where ``inference_models`` says that scorer is not what the
        heuristic plays there. The search's inference from play (``infer``) weights its
        sampled deals by it."""
        if self.inference_models is not None and not self.inference_models(obs):
            return None
        scores = self.scorer(playout=True)(obs)
        best = max(scores.get(a, 0.0) for a in obs.legal)
        return scores.get(action, 0.0) >= best - 1e-9


KITS: dict[str, BotKit] = {}
"""Every registered kit by game name, the built-in ones first. Read it; add a kit with
:func:`register_kit`."""


def register_kit(kit: BotKit) -> BotKit:
    """Add ``kit`` under its game's name and return it; ValueError if another kit already
    holds that name (registering the same kit again is allowed)."""
    held = KITS.get(kit.game)
    if held is not None and held is not kit:
        raise ValueError(f"a different bot kit is already registered for {kit.game!r}")
    KITS[kit.game] = kit
    return kit


def unregister_kit(game: str) -> None:
    """Remove the kit of ``game`` if there is one (a test's toy kit)."""
    KITS.pop(game, None)


def find_kit(game: str) -> BotKit | None:
    """The kit of ``game``, or None for a game that has none."""
    return KITS.get(game)


def get_kit(game: str) -> BotKit:
    """The kit of ``game``; BotError naming the games that have one otherwise."""
    kit = KITS.get(game)
    if kit is None:
        raise BotError(f"no bot kit for game {game!r} (games with one: {', '.join(KITS)})")
    return kit


# --- the built-in kits, in the order of the games ------------------------------------

register_kit(
    BotKit(
        "sasku",
        evaluate=sasku.evaluate,
        playout_evaluate=sasku.playout_evaluate,
        leaf_solver=sasku.leaf,
        inference_models=sasku.models,
        search_tuning=sasku.SEARCH_TUNING,
        batch_tuning=sasku.BATCH_TUNING,
    )
)
register_kit(
    BotKit(
        "scopone",
        evaluate=scopone.evaluate,
        rollout=scopone.rollout,
        batch_tuning=scopone.BATCH_TUNING,
    )
)
register_kit(
    BotKit("sheepshead", evaluate=sheepshead.evaluate, batch_tuning=sheepshead.BATCH_TUNING)
)
register_kit(BotKit("satat", evaluate=satat.evaluate, batch_tuning=satat.BATCH_TUNING))
register_kit(
    BotKit("huutopussi", evaluate=huutopussi.evaluate, batch_tuning=huutopussi.BATCH_TUNING)
)
