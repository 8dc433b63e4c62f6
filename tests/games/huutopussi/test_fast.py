"""Every speed piece of :mod:`folkcards.games.huutopussi.fast` against its plain reference.

* a card set's actions from the per-suit tables (``mask_actions``, ``ONE_SUIT_PLAYS``)
  against ``card_actions`` (HUU-16.3: card order);
* the inlined legal play of ``legal_actions`` (HUU-7.3 on the bound trump tables) and the
  memos of bidding, contract and declaration turns against ``_generate_legal``, the path
  through ``TrumpConfig.follow`` and the memos' own compute functions, at every step of
  random deals of every variant — also with every ``huutopussi.`` memo emptied on the way;
* dealing a deck in one pass (``deal_deck``, HUU-3.2, HUU-3.3) against the reference deal
  one card at a time, on good and bad decks.
"""

from __future__ import annotations

import random

from test_copies_and_spectators import VARIANTS, choose, new_deal

from folkcards.cards import DECK_36, iter_cards
from folkcards.engine.memo import all_memos, clear_all
from folkcards.games.huutopussi.fast import (
    BIDDING,
    CONTRACTS,
    DECLARATIONS,
    DISCARD_TABS,
    GIVE_TABS,
    ONE_SUIT_PLAYS,
    PLAY_CARD,
    PLAY_TABS,
    RETURN_TABS,
    bidding_actions,
    card_actions,
    contract_actions,
    deal_deck,
    deal_deck_reference,
    declaration_actions,
    mask_actions,
)
from folkcards.games.huutopussi.rules import ARG, DISCARD, GIVE, K_PLAY, KIND, PLAY, RETURN

CARDS = list(iter_cards(DECK_36))


def test_card_set_actions_match_the_reference() -> None:
    rng = random.Random("huutopussi-mask-actions")
    tables = ((PLAY_TABS, PLAY), (GIVE_TABS, GIVE), (RETURN_TABS, RETURN), (DISCARD_TABS, DISCARD))
    for _ in range(3000):
        mask = sum(1 << c for c in rng.sample(CARDS, rng.randrange(12)))
        for tabs, by_card in tables:
            assert mask_actions(mask, tabs) == card_actions(mask, by_card)
    for mask, plays in ONE_SUIT_PLAYS.items():
        assert plays == card_actions(mask, PLAY)
        assert len({c // 13 for c in iter_cards(mask)}) == 1
    assert len(ONE_SUIT_PLAYS) == 4 * 511
    for code, c in enumerate(PLAY_CARD):
        assert c == (ARG[code] if KIND[code] == K_PLAY else -1)


def test_legal_actions_match_the_reference_paths() -> None:
    """HUU-4 … HUU-8, HUU-12: at every step the legal tuple equals the reference's."""
    rng = random.Random("huutopussi-legal-reference")
    steps = plays = 0
    for i in range(70):
        state = new_deal(VARIANTS[i % len(VARIANTS)], rng)
        while not state.is_over:
            if rng.random() < 0.02:
                assert clear_all("huutopussi.") == len(all_memos("huutopussi."))
            fast = state.legal_actions()
            assert fast == state._generate_legal(), state.record()
            assert list(fast) == sorted(fast)  # HUU-16.3
            plays += state.phase == "play"
            steps += 1
            state.apply(choose(state, rng))
    assert steps > 3000 and plays > 2000


def test_the_memos_hold_what_they_compute() -> None:
    """Each memo's entries (filled by the deals above or here) are its compute's values."""
    rng = random.Random(7)
    for _ in range(20):
        state = new_deal(VARIANTS[rng.randrange(len(VARIANTS))], rng)
        while not state.is_over:
            state.apply(choose(state, rng))
    checked = 0
    for memo, compute in (
        (BIDDING, bidding_actions),
        (CONTRACTS, contract_actions),
        (DECLARATIONS, declaration_actions),
    ):
        assert memo.name.startswith("huutopussi.") and memo.limit is not None
        for key, value in memo.table.items():
            assert compute(key) == value
            checked += 1
    assert checked > 20


def test_dealing_a_deck_matches_the_reference() -> None:
    rng = random.Random("huutopussi-deal")
    for i in range(400):
        deck = list(CARDS)
        rng.shuffle(deck)
        players = 3 + i % 2
        dealer = rng.randrange(players)
        if i % 4 == 1:  # a duplicate
            deck[rng.randrange(36)] = deck[rng.randrange(36)]
        elif i % 8 == 3:  # a card not of the pack, or no card at all
            deck[rng.randrange(36)] = rng.choice((1, 13 * 2 + 10, -1, 52, 99))
        elif i % 8 == 7:  # too short or too long
            deck = deck[:35] if i % 16 == 7 else [*deck, deck[0]]
        fast = deal_deck(deck, players, dealer)
        assert fast == deal_deck_reference(deck, players, dealer), (deck, players, dealer)
        if i % 4 in (0, 2):
            assert fast is not None and sum(fast) | sum(1 << c for c in deck[-3:]) == DECK_36
