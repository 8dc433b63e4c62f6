"""The fast view of the history against its plain reference (HUU-14.3, 14.4, 14.6).

``HuutopussiState.visible_history`` copies everything from the first card played on,
because only gives, returns and discards hide a card and they all come before play; the
reference is :meth:`visible_text` of each entry. They must agree for every seat and a
spectator at every point of random deals of every variant.
"""

from __future__ import annotations

import random

from test_copies_and_spectators import VARIANTS, choose, new_deal

from folkcards.engine.api import SPECTATOR


def test_visible_history_matches_visible_text() -> None:
    rng = random.Random("huutopussi-visible-history")
    hidden = 0
    for variant in VARIANTS:
        for _ in range(8):
            state = new_deal(variant, rng)
            while not state.is_over:
                for seat in (*range(state.num_seats), SPECTATOR):
                    fast = state.visible_history(seat)
                    reference = tuple(
                        state.visible_text(i, seat) for i in range(len(state.history))
                    )
                    assert fast == reference, (seat, state.record())
                    hidden += any(t.endswith(" ?") for t in fast)
                state.apply(choose(state, rng))
    assert hidden > 100, "few hidden cards were reached: the comparison would prove little"
