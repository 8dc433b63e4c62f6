"""Sasku's history as structured steps (docs/engine.md §2; SAS-7.7, SAS-19.1).

On random seeded deals, at every point and for every seat and the spectator, each entry of
the observation's ``history`` is a :class:`~folkcards.engine.actions.Step`:

* exactly where the rules hide the entry from that viewer — a ``return X``, whose card only
  the two partners see, the returner and the giver (SAS-7.7, SAS-19.1) — it is the shared
  masked step ``return ?``: ``hidden`` 1, no cards, no ``action``;
* everywhere else it is the played action's own step: its text, ``hidden`` 0 and ``action``
  the very action of ``state.history``.

A world determinized from a seat's observation replays that history through the rules with
each visible step's ``action``: the world's history holds those very actions, and a ``return``
in each hidden entry's place.
"""

from __future__ import annotations

import random

from sasku_helpers import LONE_KS, TWO_LONE, deal

from folkcards.engine.testing import check_history_steps, check_world_history
from folkcards.games.sasku import GAME, SaskuState, shuffled_pack
from folkcards.games.sasku.actions import K_RETURN, KIND

SEEDS = range(60)


def hidden_from(viewer: int, action: int, actor: int) -> bool:
    """SAS-7.7: a return's card is seen only by the returner and its partner, the giver."""
    return KIND[action] == K_RETURN and viewer not in (actor, (actor + 2) & 3)


def check_history(state: SaskuState) -> int:
    """Every viewer's history against the rules; the number of hidden entries seen."""
    return check_history_steps(
        state,
        lambda viewer, i: (
            "return ?" if hidden_from(viewer, state.history[i], state.actors[i]) else None
        ),
    )


def random_deal(seed: int) -> SaskuState:
    """A random deal, the exchange on (SAS-7) in most, from a pack or from hands."""
    rng = random.Random(seed)
    variant = GAME.normalize_variant(
        {"must_beat": rng.random() < 0.5, "exchange": rng.random() < 0.9}
    )
    if seed % 3 == 0:  # SAS-6.6: hands, no cut
        pack = shuffled_pack(rng)
        hands = [pack[9 * s : 9 * s + 9] for s in range(4)]
        return GAME.new_deal(variant, rng.randrange(4), None, hands=hands)
    return GAME.new_deal(variant, rng.randrange(4), shuffled_pack(rng))


def test_hidden_entries_are_masked_exactly_where_the_rules_hide_them() -> None:
    hidden = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        state = random_deal(seed)
        hidden += check_history(state)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            hidden += check_history(state)
    for hands in (LONE_KS, TWO_LONE):  # an exchange for certain
        rng = random.Random(1)
        state = deal(hands)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            hidden += check_history(state)
    assert hidden > 200


def test_worlds_replay_the_visible_steps_own_actions() -> None:
    worlds = hidden_returns = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        state = random_deal(seed)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if rng.random() < 0.1:
                obs = state.observation(seat)
                world = GAME.determinize(obs, rng)
                assert world.observation(seat) == obs
                hidden_returns += check_world_history(obs, world)
                worlds += 1
            state.apply(rng.choice(state.legal_actions()))
    assert worlds > 50 and hidden_returns > 0
