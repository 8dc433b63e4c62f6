"""Cards and notation (conventions.md, "Cards")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from folkcards.cards import (
    CARD_NAMES,
    DECK_32,
    DECK_36,
    DECK_40,
    DECK_52,
    CardError,
    card,
    card_name,
    cards_list,
    iter_cards,
    mask_text,
    parse_card,
    rank_of,
    suit_of,
    sum_over,
    to_mask,
)


def test_decks_have_the_sizes_of_the_five_games() -> None:
    assert DECK_36.bit_count() == 36  # Sasku, Huutopussi: 6..A
    assert DECK_32.bit_count() == 32  # Sheepshead: 7..A
    assert DECK_52.bit_count() == 52  # Satat
    assert DECK_40.bit_count() == 40  # Scopone: A 2..7 J Q K
    assert mask_text(DECK_40 & 0x1FFF) == [
        "AC",
        "KC",
        "QC",
        "JC",
        "7C",
        "6C",
        "5C",
        "4C",
        "3C",
        "2C",
    ]
    assert mask_text(DECK_36)[:9] == ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C"]


@pytest.mark.parametrize(
    ("text", "canon"), [("10h", "TH"), ("th", "TH"), ("As", "AS"), (" 7d ", "7D"), ("10D", "TD")]
)
def test_parse_is_case_insensitive_and_reads_10_as_T(text: str, canon: str) -> None:
    assert card_name(parse_card(text)) == canon


@pytest.mark.parametrize("text", ["", "1H", "TX", "AKS", "11H", "H7", "T"])
def test_parse_rejects_non_cards_with_a_clear_error(text: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


def test_a_card_outside_the_deck_is_rejected() -> None:
    with pytest.raises(CardError, match="5H is not a card of this deck"):
        parse_card("5h", DECK_36)
    with pytest.raises(CardError, match="TD is not a card of this deck"):
        parse_card("10d", DECK_40)


def test_card_order_is_suits_CSHD_then_ranks_high_to_low() -> None:
    names = [
        CARD_NAMES[c]
        for c in sorted([card("6", "C"), card("A", "D"), card("K", "S"), card("A", "C")])
    ]
    assert names == ["AC", "6C", "KS", "AD"]
    assert suit_of(card("Q", "H")) == 2 and rank_of(card("Q", "H")) == 2


@given(st.sets(st.integers(0, 51)))
def test_masks_round_trip_in_card_order(cards: set[int]) -> None:
    m = to_mask(cards)
    assert cards_list(m) == sorted(cards) == list(iter_cards(m))


@given(st.integers(0, (1 << 52) - 1))
def test_sum_over_totals_a_per_card_table(cards: int) -> None:
    points = [c % 7 for c in range(52)]
    worth = [0.5 * c for c in range(52)]
    assert sum_over(cards, points) == sum(points[c] for c in iter_cards(cards))
    assert sum_over(cards, worth) == sum(worth[c] for c in iter_cards(cards))
    assert type(sum_over(0, worth)) is float and sum_over(0, points) == 0
