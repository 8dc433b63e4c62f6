"""The ``folkcards.games.satat`` package: what other code imports from it, the variant's
frozen rules (SAT-14) against the game card, and the determinizer's constraint reading
(SAT-19) at random points of random deals of every variant."""

from __future__ import annotations

import random

import pytest
from satat_helpers import ALL_VARIANTS, CARRIES, deal

import folkcards.games.satat as satat
from folkcards.games.satat import GAME
from folkcards.games.satat.determinize import knowledge
from folkcards.games.satat.rules import KIND, PHASES, SatatRules, rules_of

IMPORTED = [
    "B2H",
    "CONFIGS",
    "FOLLOW_OF",
    "GAME",
    "KEEP_OF",
    "K_CONTINUE",
    "K_GIVE",
    "K_HIDE",
    "K_PASS",
    "K_PLAY",
    "K_STOP",
    "PHASES",
    "PH_CONTINUE",
    "PH_LESE",
    "PICTURES",
    "TABLE",
    "TWO_H",
    "_ARG",
    "_KIND",
    "SatatGame",
    "SatatInfo",
    "SatatState",
    "deck_from_hands",
    "hands_from_deck",
]
"""The names the batched kernel, the bots and the tests import from the package."""


def test_the_package_keeps_every_imported_name() -> None:
    assert sorted(satat.__all__) == sorted(IMPORTED)
    for name in IMPORTED:
        assert getattr(satat, name) is not None, name
    assert satat._KIND is KIND  # the batched kernel's old name of the kind table


@pytest.mark.parametrize(
    "variant", ALL_VARIANTS, ids=lambda v: f"{v['trup_kasiet']}-{v['signals']}"
)
def test_rules_of_a_variant_give_the_cards_phases(variant: dict[str, object]) -> None:
    """SAT-4.7, SAT-15.6, SAT-15.7, SAT-16.3, SAT-16.5: the phases a deal can pass through."""
    v = GAME.normalize_variant(variant)
    rules = rules_of(v)
    assert isinstance(rules, SatatRules) and rules is rules_of(dict(v))
    assert rules.phases == GAME.card(v).phases
    assert set(rules.phases) <= set(PHASES) - {"over"}
    assert ("give" in rules.phases) is not rules.trup_kasiet
    assert ("lese" in rules.phases) is (variant["signals"] == "all")


def test_the_constraints_place_every_card_once() -> None:
    """SAT-19: the cards a seat's observation places and the pool of the others add up to
    the pack, the pool to what the other seats still hold, and each seat's own cards are
    allowed where they are."""
    rng = random.Random(3)
    checked = 0
    for i in range(40):
        state = deal(rng, ALL_VARIANTS[i % len(ALL_VARIANTS)], CARRIES[i % len(CARRIES)])
        while not state.is_over:
            if state.trump >= 0 and state.history:
                seat = rng.randrange(4)
                obs = state.observation(seat)
                kn = knowledge(obs)
                placed = 0
                for s in range(4):
                    assert not placed & kn.post_known[s]
                    placed |= kn.post_known[s]
                assert not placed & kn.pool and (placed | kn.pool | kn.gave) == (1 << 52) - 1
                assert sum(kn.need) == kn.pool.bit_count()
                assert kn.need[seat] == 0 and kn.first == obs.history[0]
                for s in range(4):
                    held = state.hands[s] & kn.pool
                    assert not held & ~kn.allowed[s], (s, state.record())
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 500
