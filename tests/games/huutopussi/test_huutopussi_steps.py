"""Huutopussi's history as structured steps (docs/engine.md §2; HUU-14.3, 14.4, 14.6).

On random seeded deals of every variant, at every point and for every seat and the
spectator, each entry of the observation's ``history`` is a
:class:`~folkcards.engine.actions.Step`:

* exactly where the rules hide the entry's card from that viewer it is the shared masked
  step — ``give ?`` but to the giver and the declarer, its partner (HUU-14.3, HUU-5.1);
  ``return ?`` but to the declarer, who returns, and its partner (HUU-14.4); ``discard ?``
  but to the declarer, who discards (HUU-14.6) — with ``hidden`` 1, no cards, no ``action``;
* everywhere else it is the played action's own step: its text, ``hidden`` 0 and ``action``
  the very action of ``state.history``.

A world determinized from a seat's observation replays that history through the rules with
each visible step's ``action``: the world's history holds those very actions, and an action
of the same verb in each hidden entry's place.
"""

from __future__ import annotations

import random

from test_copies_and_spectators import VARIANTS, choose, new_deal

from folkcards.engine.testing import check_history_steps, check_world_history
from folkcards.games.huutopussi import GAME, HuutopussiState
from folkcards.games.huutopussi.rules import K_DISCARD, K_GIVE, K_RETURN, KIND

SEEDS = range(70)
MASKED = {K_GIVE: "give ?", K_RETURN: "return ?", K_DISCARD: "discard ?"}


def seen_by(action: int, actor: int) -> tuple[int, ...] | None:
    """The seats that see the card of ``action`` by ``actor``, None when all do: a give by
    the giver and the declarer (HUU-14.3), a return by the declarer and its partner
    (HUU-14.4) — in both, the actor and the seat opposite — a discard by the declarer
    only (HUU-14.6)."""
    kind = KIND[action]
    if kind in (K_GIVE, K_RETURN):
        return actor, (actor + 2) % 4
    if kind == K_DISCARD:
        return (actor,)
    return None


def check_history(state: HuutopussiState) -> int:
    """Every viewer's history against the rules; the number of hidden entries seen."""

    def hidden_as(viewer: int, i: int) -> str | None:
        action = state.history[i]
        seers = seen_by(action, state.actors[i])
        return MASKED[KIND[action]] if seers is not None and viewer not in seers else None

    return check_history_steps(state, hidden_as)


def test_hidden_entries_are_masked_exactly_where_the_rules_hide_them() -> None:
    hidden = {K_GIVE: 0, K_RETURN: 0, K_DISCARD: 0}
    for seed in SEEDS:
        rng = random.Random(seed)
        state = new_deal(VARIANTS[seed % len(VARIANTS)], rng)
        check_history(state)
        while not state.is_over:
            state.apply(choose(state, rng))
            check_history(state)
            kind = KIND[state.history[-1]]
            if kind in hidden:
                hidden[kind] += 1
    assert all(n > 20 for n in hidden.values()), hidden


def test_worlds_replay_the_visible_steps_own_actions() -> None:
    worlds = hidden_steps = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        state = new_deal(VARIANTS[seed % len(VARIANTS)], rng)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if rng.random() < 0.15:
                obs = state.observation(seat)
                world = GAME.determinize(obs, rng)
                assert world.observation(seat) == obs
                hidden_steps += check_world_history(obs, world)
                worlds += 1
            state.apply(choose(state, rng))
    assert worlds > 100 and hidden_steps > 50
