"""History entries are :class:`~folkcards.engine.actions.Step` values, and Scopone hides
none of them (SCO-9: every play and every capture is public).

At every point of random seeded deals of every SCO-8 option, each seat's observation and
the spectator's hold one entry per action played, each the very Play's step: seen whole
(``hidden`` 0), its ``action`` the Play itself, its cards the card played then the cards
taken (SCO-4.5), its text the Play's text. A world determinized from an observation
replays those same Plays.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from folkcards.cards import BIT, CARD_NAMES, iter_cards
from folkcards.engine import SPECTATOR, Step
from folkcards.games.scopone import GAME, Play, ScoponeState

VARIANTS: list[dict[str, Any]] = [
    {},
    {"scientifico": True},
    {"re_bello": True, "napola": True, "dealer_last_sweep": True},
    {"scientifico": True, "primiera_pictures": "graded"},
]


def check_history(state: ScoponeState) -> None:
    """Every seat's and the spectator's history: the Plays of the deal, seen whole."""
    played = state.history
    for viewer in (0, 1, 2, 3, SPECTATOR):
        obs = state.observation(viewer) if viewer >= 0 else state.public_observation()
        assert len(obs.history) == len(played)
        assert list(obs.actors) == list(state.actors)
        for step, play in zip(obs.history, played, strict=True):
            assert isinstance(step, Step) and isinstance(play, Play)
            assert step.hidden == 0 and "?" not in step  # SCO-9: nothing is hidden
            assert step.action is play  # the Play played itself
            assert step == play.text and step.kind == "play"
            words = play.text.split(" ")  # SCO-4.5: play C [take X …], read as an oracle
            assert [CARD_NAMES[c] for c in step.cards] == [words[1], *words[3:]]
            assert step.cards[0] == play.card
            assert step.card_set == BIT[play.card] | play.take
            assert list(step.cards[1:]) == list(iter_cards(play.take))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_sco_9_history_entries_are_the_plays_seen_whole(variant: dict[str, Any], seed: int) -> None:
    rng = random.Random(f"steps-{seed}-{sorted(variant.items())}")
    state = GAME.random_deal(rng, GAME.normalize_variant(variant), dealer=rng.randrange(4))
    while not state.is_over:
        check_history(state)
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        world = GAME.determinize(obs, random.Random(seed))
        assert list(world.history) == [step.action for step in obs.history]
        assert all(a is step.action for a, step in zip(world.history, obs.history, strict=True))
        assert world.observation(seat) == obs
        state.apply(rng.choice(state.legal_actions()))
    check_history(state)
