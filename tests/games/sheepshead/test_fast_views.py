"""The history a Sheepshead seat sees, against its plain reference (SHP-13.1, SHP-5).

``visible_history`` stops looking for buries at the first card played, because only the
picker buries and only before play; the reference reads every action. They must agree for
every seat and for a spectator at every point of random deals of every variant.
"""

from __future__ import annotations

import random

from folkcards.engine import SPECTATOR
from folkcards.engine.api import MalformedRecord
from folkcards.games import GAMES
from folkcards.games.sheepshead.observe import visible_history, visible_history_reference


def test_visible_history_matches_reference() -> None:
    game = GAMES["sheepshead"]
    rng = random.Random("shp-visible-history")
    hidden = 0
    variants = [
        {o.key: rng.choice(o.choices) for o in game.variant_options if o.choices} for _ in range(40)
    ]
    for raw in variants:
        try:
            variant = game.normalize_variant(raw)
        except MalformedRecord:  # a combination the rules forbid
            continue
        state = game.random_deal(rng, variant, dealer=rng.randrange(5))
        while True:
            for viewer in (SPECTATOR, *range(5)):
                fast = visible_history(state, viewer)
                assert fast == visible_history_reference(state, viewer), state.record()
                hidden += "bury ?" in fast
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
    assert hidden > 100, "few buries were hidden: the comparison would prove little"
