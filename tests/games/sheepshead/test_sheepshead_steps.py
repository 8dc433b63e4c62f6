"""Sheepshead's history as structured steps (docs/engine.md §2; SHP-13.1).

On random seeded deals, at every point and for every seat and the spectator, each entry of
the observation's ``history`` is a :class:`~folkcards.engine.actions.Step`:

* exactly where the rules hide the entry from that viewer — a ``bury X``, whose card only
  the picker sees (SHP-13.1; the bury is shown once the deal ends, in ``info`` and the
  result, not in the history) — it is the shared masked step ``bury ?``: ``hidden`` 1, no
  cards, no ``action``;
* everywhere else it is the played action's own step: its text, ``hidden`` 0 and ``action``
  the very action of ``state.history``.

A world determinized from a seat's observation replays that history through the rules with
each visible step's ``action``: the world's history holds those very actions, and a ``bury``
in each hidden entry's place.
"""

from __future__ import annotations

import random

from folkcards.engine import SPECTATOR, Action
from folkcards.engine.testing import check_history_steps, check_world_history
from folkcards.games.sheepshead import GAME, SheepsheadState
from folkcards.games.sheepshead.rules import K_BURY, KIND

SEEDS = range(80)


def hidden_from(viewer: int, action: int, actor: int) -> bool:
    """SHP-13.1: the buried cards are seen by the picker, who buries them, only."""
    return KIND[action] == K_BURY and viewer != actor


def check_history(state: SheepsheadState) -> int:
    """Every viewer's history against the rules; the number of hidden entries seen."""
    return check_history_steps(
        state,
        lambda viewer, i: (
            "bury ?" if hidden_from(viewer, state.history[i], state.actors[i]) else None
        ),
    )


def random_deal(seed: int) -> SheepsheadState:
    """A random deal of a random variant (SHP-12)."""
    rng = random.Random(seed)
    variant = GAME.normalize_variant({"no_pick": rng.choice(["leaster", "doubler"])})
    state = GAME.random_deal(rng, variant, rng.randrange(5))
    assert isinstance(state, SheepsheadState)
    return state


def choose(state: SheepsheadState, rng: random.Random) -> Action:
    """A random legal action, ``pick`` more often than not (so that there is a bury)."""
    legal = state.legal_actions()
    picks = [a for a in legal if a.text == "pick"]
    return picks[0] if picks and rng.random() < 0.5 else rng.choice(legal)


def test_hidden_entries_are_masked_exactly_where_the_rules_hide_them() -> None:
    hidden = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        state = random_deal(seed)
        hidden += check_history(state)
        while not state.is_over:
            state.apply(choose(state, rng))
            hidden += check_history(state)
    assert hidden > 1000


def test_worlds_replay_the_visible_steps_own_actions() -> None:
    worlds = hidden_buries = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        state = random_deal(seed)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if rng.random() < 0.15:
                for viewer in (seat, SPECTATOR):
                    public = viewer == SPECTATOR
                    obs = state.public_observation() if public else state.observation(viewer)
                    world = GAME.determinize(obs, rng)
                    assert (
                        world.public_observation() if public else world.observation(seat)
                    ) == obs
                    hidden_buries += check_world_history(obs, world)
                    worlds += 1
            state.apply(choose(state, rng))
    assert worlds > 100 and hidden_buries > 50
