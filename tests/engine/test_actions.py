"""Action text and its sorting (conventions.md, "Actions", "Text input, everywhere")."""

from __future__ import annotations

import pickle

import pytest

from folkcards.cards import DECK_36, DECK_52
from folkcards.engine.actions import (
    Action,
    ActionSyntaxError,
    ActionTable,
    canonical_tokens,
    sorted_texts,
)


def test_canonical_tokens_fold_case_blanks_tens_and_numbers() -> None:
    assert canonical_tokens("  PLAY\t10h ", DECK_52) == ["play", "TH"]
    assert canonical_tokens("bid 050", DECK_52) == ["bid", "50"]
    assert canonical_tokens("Trump h", DECK_52) == ["trump", "H"]


def test_card_outside_the_deck_is_a_syntax_error() -> None:
    with pytest.raises(ActionSyntaxError, match="5H is not a card"):
        canonical_tokens("play 5h", DECK_36)


@pytest.mark.parametrize("bad", ["", "   ", "play ☃"])
def test_empty_and_non_ascii_actions_are_rejected(bad: str) -> None:
    with pytest.raises(ActionSyntaxError):
        canonical_tokens(bad, DECK_52)


def test_sorting_compares_token_by_token_numbers_cards_words() -> None:
    texts = [
        "pass",
        "bid 10",
        "bid 9",
        "play AS grate",
        "play AS",
        "play KC",
        "diamonds",
        "trump D",
    ]
    assert sorted_texts(texts, DECK_52) == [
        "bid 9",
        "bid 10",
        "diamonds",
        "pass",
        "play KC",
        "play AS",
        "play AS grate",
        "trump D",
    ]


def test_action_table_codes_follow_the_sort_order_and_parse_any_spelling() -> None:
    table = ActionTable(["pass", "bid 6", "bid 5", "play TH", "play 6C"], DECK_36)
    assert [a.text for a in table.actions] == ["bid 5", "bid 6", "pass", "play 6C", "play TH"]
    assert [int(a) for a in table.actions] == [0, 1, 2, 3, 4]
    assert table.parse("PLAY 10h") is table["play TH"]
    with pytest.raises(ActionSyntaxError, match="not an action"):
        table.parse("bid 7")


def test_actions_are_ints_with_text_and_survive_pickling() -> None:
    a = Action(7, "play TH")
    assert a == 7 and str(a) == "play TH"
    b = pickle.loads(pickle.dumps(a))
    assert b == a and b.text == "play TH"
