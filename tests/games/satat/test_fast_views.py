"""The fast view of the history against its plain reference (SAT-19.1, SAT-19.3).

``SatatState.visible_history`` copies everything from the first card played on without
looking at it, because only steps before play can be private; the reference walks every
step. They must agree for every seat and for a spectator at every point of random deals of
every variant and carried state.
"""

from __future__ import annotations

import pickle
import random

from satat_helpers import ALL_VARIANTS, CARRIES, deal, playout

from folkcards.engine import SPECTATOR
from folkcards.games.satat import SatatState


def test_visible_history_matches_reference() -> None:
    rng = random.Random("visible-history")
    private = 0  # views in which some step was left out or masked

    def check(state: SatatState) -> None:
        nonlocal private
        for seat in (0, 1, 2, 3, SPECTATOR):
            fast = state.visible_history(seat)
            assert fast == state.visible_history_reference(seat), (seat, state.record())
            private += len(fast[0]) != len(state.history) or any("?" in t for t in fast[0])

    for variant in ALL_VARIANTS:
        for carry in CARRIES:
            for _ in range(6):
                playout(deal(rng, variant, carry), rng, check)
    assert private > 100, "few private steps were reached: the comparison would prove little"


def test_public_voids_match_reference_at_every_point() -> None:
    """The voids shared by a point's observations are those of every trick played, also on
    clones and unpickled copies that play on."""
    rng = random.Random("public-voids")
    shown = 0

    def check(state: SatatState) -> None:
        nonlocal shown
        assert state.public_voids() == state.public_voids_reference(), state.record()
        for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
            copy.apply(rng.choice(copy.legal_actions()))
            assert copy.public_voids() == copy.public_voids_reference(), copy.record()
        assert state.public_voids() == state.public_voids_reference(), state.record()
        shown += any(state.public_voids())

    for variant in ALL_VARIANTS:
        for _ in range(5):
            playout(deal(rng, variant), rng, check)
    assert shown > 100, "no seat showed a void: the comparison would prove little"
