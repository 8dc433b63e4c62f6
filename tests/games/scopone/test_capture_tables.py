"""The capture tables of ``legal_actions`` (value templates, SCO-4.2) against brute force.

Random playouts rarely reach big tables or tables with several equal values, where a sum
may take only some of the equal cards (SCO-10.3); here such positions are built directly,
and every legal list is compared with the naive referee's (texts and order, SCO-4.5) and
every action with the one ``parse_action`` names (same interned object and code).
"""

from __future__ import annotations

import random

import pytest
import scopone_reference as ref

from folkcards.cards import CARD_NAMES, DECK_40, iter_cards, parse_card
from folkcards.games.scopone import GAME, ScoponeState, value_key

CARDS = [CARD_NAMES[c] for c in iter_cards(DECK_40)]


def position(hand: list[str], table: list[str], dealer: int = 0) -> ScoponeState:
    """A deal state where the eldest holds ``hand`` and ``table`` lies on the table."""
    rest = [c for c in CARDS if c not in hand and c not in table]
    deck = [parse_card(c, DECK_40) for c in CARDS]
    state = GAME.new_deal(GAME.normalize_variant({}), dealer, deck)
    seat = state.to_act
    assert seat is not None
    state.hands = [0, 0, 0, 0]
    for c in hand:
        state.hands[seat] |= 1 << parse_card(c, DECK_40)
    others = [s for s in range(4) if s != seat]
    for i, c in enumerate(rest):
        state.hands[others[i % 3]] |= 1 << parse_card(c, DECK_40)
    state.table = 0
    for c in table:
        state.table |= 1 << parse_card(c, DECK_40)
    state._vkey = value_key(state.table)
    state._legal = None
    return state


def check(hand: list[str], table: list[str]) -> None:
    state = position(hand, table)
    legal = state.legal_actions()
    assert [a.text for a in legal] == ref.legal(hand, table)
    assert list(legal) == sorted(legal)
    for a in legal:
        named = state.parse_action(a.text)
        assert named is a or (int(named) == int(a) and named.text == a.text)


@pytest.mark.parametrize("seed", range(20))
def test_random_big_tables_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        cards = CARDS[:]
        rng.shuffle(cards)
        n_table = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12])
        n_hand = rng.randint(1, 10)
        check(cards[n_table : n_table + n_hand], cards[:n_table])


@pytest.mark.parametrize("seed", range(20))
def test_tables_of_repeated_values_match_brute_force(seed: int) -> None:
    """Few distinct values, many equal cards: sums taking some of the equal cards."""
    rng = random.Random(1000 + seed)
    for _ in range(60):
        ranks = rng.sample("A234567", rng.randint(1, 4))
        pool = [c for c in CARDS if c[0] in ranks]
        rng.shuffle(pool)
        table = pool[: rng.randint(2, min(10, len(pool)))]
        hand = rng.sample([c for c in CARDS if c not in table], rng.randint(1, 10))
        check(hand, table)


def test_examples() -> None:
    # SCO-4.5's example.
    check(["KC", "5C", "JS", "2C"], ["3C", "5S", "5H", "JD"])
    # Three 3s on the table: a 6 takes two of them in three ways (SCO-10.3).
    check(["6C", "7C", "JC", "KC"], ["3S", "3H", "3D", "AS", "AH", "2D"])
    # Every card of value below 10 on the table: many ways to make 10.
    check(["KC", "QC", "JC", "7C"], ["AS", "2S", "3S", "4S", "5S", "6S", "AH", "2H", "3H"])
