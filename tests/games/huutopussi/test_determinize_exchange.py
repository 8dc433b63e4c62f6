"""HUU-5.3, HUU-14.3, HUU-14.4: ``determinize`` when the declarer returns cards its partner gave.

A bots run reported "no deal is consistent with this observation" after ``give KD`` …
``return KD``. A card given and returned is back in the giver's hand, and both partners saw
it go and come back; opponents saw only ``give ?`` / ``return ?``. These deals pin that path
for every seat at every decision point from the first ``give`` to the end of the deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from folkcards.games.huutopussi import GAME, HuutopussiState

# dealer 3: seat 0 declares, partner 2 gives its diamond marriage and 7H (HANDS4)
BIDDING = ["bid 50", "pass", "pass", "pass"]
GIVES = ["give KD", "give QD", "give 7H", "contract 60"]
RETURNS = {
    "all given cards back": ["return KD", "return QD", "return 7H"],
    "one given card back": ["return KD", "return AH", "return 6C"],
    "two back, out of order": ["return AH", "return QD", "return KD"],
}


@pytest.mark.parametrize("returns", list(RETURNS.values()), ids=list(RETURNS))
@pytest.mark.parametrize("seed", range(4))
def test_huu_5_3_given_then_returned_cards_determinize_for_every_seat(
    returns: list[str], seed: int, deal: Callable[..., HuutopussiState]
) -> None:
    """HUU-5.3 / HUU-14.3–14.4: a given-then-returned card is sampled into the partner's hand."""
    rng = random.Random(seed)
    state = deal(actions=BIDDING)
    script = [*GIVES, *returns]
    step = 0
    while not state.is_over:
        for seat in range(state.num_seats):
            obs = state.observation(seat)
            world = GAME.determinize(obs, random.Random(1000 * seed + 10 * step + seat))
            assert isinstance(world, HuutopussiState)
            assert world.observation(seat) == obs
            if seat in (0, 2) and len(state.returned) == len(returns):
                # both partners know the exchange: the sampled world repeats it exactly, and
                # the returned cards not yet played sit in the partner's (the giver's) hand
                assert world.given == state.given and world.returned == state.returned
                back = sum(1 << c for c in state.returned)
                assert world.hands[2] & back == state.hands[2] & back
        action = state.parse_action(script.pop(0)) if script else rng.choice(state.legal_actions())
        state.apply(action)
        step += 1
