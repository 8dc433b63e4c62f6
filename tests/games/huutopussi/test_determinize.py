"""The determinizer on the engine's kit (HUU-14): the constraints an observation gives, the
worlds drawn under them, and observations that admit no world.

* The real deal satisfies the constraints read from any seat's observation — its hands and
  its hidden piles (a packet in transit, the widow, the discards) are one of the draws the
  constraints allow — and its pair conditions (HUU-8.4, HUU-8.5), so nothing true is ever
  excluded.
* A drawn world shows the observer exactly the observation, and the draws differ: hidden
  cards are really drawn, not copied.
* An observation that no deal fits raises :class:`DeterminizeError`.
"""

from __future__ import annotations

import dataclasses
import random

from test_copies_and_spectators import VARIANTS, choose, new_deal

from folkcards.cards import parse_card
from folkcards.engine.determinize import DeterminizeError
from folkcards.games.huutopussi import GAME, HuutopussiState
from folkcards.games.huutopussi.determinize import prepare


def _real_places(state: HuutopussiState, extras: list[str]) -> list[int]:
    """The real holding of each place of the constraints: the hands, then the piles."""
    piles = {
        "give": state.packet,
        "return": state.packet,
        "widow": sum(1 << c for c in state.widow),
        "discards": sum(1 << c for c in state.discards),
    }
    return [*state.hands, *(piles[name] for name in extras)]


def test_the_real_deal_satisfies_every_observation_s_constraints() -> None:
    rng = random.Random("huutopussi-constraints")
    checked = piles = 0
    for i in range(60):
        state = new_deal(VARIANTS[i % len(VARIANTS)], rng)
        while True:
            if rng.random() < 0.15 or state.is_over:
                for seat in range(state.num_seats):
                    prep = prepare(GAME, state.observation(seat))
                    real = _real_places(state, prep.extras)
                    assert prep.base.satisfied_by(real), (seat, prep.extras, state.record())
                    assert prep.facts.pairs_hold(list(state.hands)), state.record()
                    checked += 1
                    piles += bool(prep.extras)
            if state.is_over:
                break
            state.apply(choose(state, rng))
    assert checked > 500 and piles > 100


def test_worlds_show_the_observation_and_vary() -> None:
    rng = random.Random("huutopussi-worlds")
    varied = 0
    for i in range(35):
        state = new_deal(VARIANTS[i % len(VARIANTS)], rng)
        while not state.is_over:
            if rng.random() < 0.1:
                seat = rng.randrange(state.num_seats)
                obs = state.observation(seat)
                worlds = [GAME.determinize(obs, random.Random(k)) for k in range(4)]
                for world in worlds:
                    assert world.observation(seat) == obs
                    assert world.hands[seat] == state.hands[seat]
                others = {tuple(w.hands) for w in worlds}
                varied += len(others) > 1
            state.apply(choose(state, rng))
    assert varied > 30


def test_an_observation_no_deal_fits_raises() -> None:
    """A seat shown holding a card already played, or a hand of the wrong size: no world."""
    state = new_deal({}, random.Random(3))
    rng = random.Random(4)
    while len(state.history) < 20 or state.phase != "play" or not state.trick:
        state.apply(choose(state, rng))
    obs = state.observation(0)
    played = parse_card(state.observation(0).info["trick"][0])
    bad = [
        dataclasses.replace(obs, hand=obs.hand | 1 << played),
        dataclasses.replace(obs, info={**obs.info, "hand_sizes": [9, 9, 9, 9]}),
    ]
    for wrong in bad:
        try:
            GAME.determinize(wrong, random.Random(1))
        except DeterminizeError:
            continue
        raise AssertionError("a world was drawn for an impossible observation")
