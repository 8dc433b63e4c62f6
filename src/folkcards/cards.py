"""Cards, suits, ranks, decks and their notation (conventions.md, "Cards").

A card is a small integer ``suit * 13 + rank`` where suits are numbered in the
card order ``C S H D`` and ranks in the plain order ``A K Q J T 9 8 7 6 5 4 3 2``.
Sorting card numbers therefore gives the conventions' *card order* for every deck,
the Italian one included (its ranks ``A K Q J 7 6 5 4 3 2`` are a subsequence).

Sets of cards (hands, piles, decks) are Python integers used as bitmasks: bit ``c``
is set when card ``c`` is in the set. ``Card`` objects never appear inside the
engine; text is only for the edges (records, actions, screens).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar

Card = int
"""A card number 0..51 (``suit * 13 + rank``)."""

CardSet = int
"""A set of cards as a bitmask over card numbers."""

SUITS = "CSHD"
RANKS = "AKQJT98765432"
SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
ITALIAN_SUIT_NAMES = {"C": "batons", "S": "swords", "H": "cups", "D": "coins"}

CLUBS, SPADES, HEARTS, DIAMONDS = 0, 1, 2, 3
ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN, SIX, FIVE, FOUR, THREE, TWO = range(13)

CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""Canonical text of each card number."""

CARD_NUMBERS: dict[str, Card] = {name: c for c, name in enumerate(CARD_NAMES)}
"""The card number of each canonical text (``CARD_NAMES`` inverted): ``CARD_NUMBERS["TH"]``;
``.get(token)`` for a token that may not be a card."""

BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
"""``BIT[c]`` is the one-card set of card ``c``."""

SUIT_MASK: tuple[CardSet, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
"""``SUIT_MASK[s]``: all 13 cards of suit ``s``."""

RANK_MASK: tuple[CardSet, ...] = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
"""``RANK_MASK[r]``: the four cards of rank ``r``."""


def card(rank: str, suit: str) -> Card:
    """The card number of a rank letter and a suit letter (``card("T", "H")``)."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def suit_of(c: Card) -> int:
    """The suit number (0 = C, 1 = S, 2 = H, 3 = D) of card ``c``."""
    return c // 13


def rank_of(c: Card) -> int:
    """The rank number (0 = A … 12 = 2) of card ``c``."""
    return c % 13


def card_name(c: Card) -> str:
    """Canonical text of card ``c`` (``"TH"``)."""
    return CARD_NAMES[c]


def ranks_mask(ranks: str) -> CardSet:
    """All cards, in all four suits, whose rank letter is in ``ranks``."""
    m = 0
    for r in ranks:
        m |= RANK_MASK[RANKS.index(r)]
    return m


DECK_52: CardSet = (1 << 52) - 1
"""Satat's full French pack."""
DECK_36: CardSet = ranks_mask("AKQJT9876")
"""Sasku and Huutopussi: 6..A in each suit."""
DECK_32: CardSet = ranks_mask("AKQJT987")
"""Sheepshead: 7..A in each suit."""
DECK_40: CardSet = ranks_mask("AKQJ765432")
"""Scopone's Italian pack (J fante, Q cavallo, K re)."""


class CardError(ValueError):
    """A card text that does not name a card of the deck in use."""


def parse_card(text: str, deck: CardSet = DECK_52) -> Card:
    """Read a card: case-insensitive, ``10`` for ``T``; it must belong to ``deck``.

    >>> card_name(parse_card("10h"))
    'TH'
    """
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(f"{text!r} is not a card (rank then suit, e.g. 'TH', '10h', '7D')")
    c = card(t[0], t[1])
    if not deck >> c & 1:
        raise CardError(f"{CARD_NAMES[c]} is not a card of this deck")
    return c


def card_of(text: str) -> Card:
    """The card whose canonical text is ``text`` (``"TH"``), for machine text (records,
    actions); CardError if it names none. :func:`parse_card` reads what a person types."""
    c = CARD_NUMBERS.get(text)
    if c is None:
        raise CardError(f"{text!r} is not a card (canonical text: rank then suit, e.g. 'TH')")
    return c


def iter_cards(cards: CardSet) -> Iterator[Card]:
    """The cards of a set in card order (lowest bit first)."""
    while cards:
        low = cards & -cards
        yield low.bit_length() - 1
        cards ^= low


N = TypeVar("N", int, float)


def sum_over(cards: CardSet, table: Sequence[N]) -> N:
    """The sum of ``table[c]`` over the cards ``c`` of a set (card points, capture values):
    one loop over the set bits, for the hot paths that total a per-card table."""
    total = table[0] * 0
    while cards:
        low = cards & -cards
        total += table[low.bit_length() - 1]
        cards ^= low
    return total


def cards_list(cards: CardSet) -> list[Card]:
    """The cards of a set as a list in card order."""
    out = []
    while cards:
        low = cards & -cards
        out.append(low.bit_length() - 1)
        cards ^= low
    return out


def to_mask(cards: Iterable[Card]) -> CardSet:
    """The set of the given card numbers."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_text(cards: CardSet) -> list[str]:
    """Canonical texts of a set's cards in card order (machine output of a hand)."""
    return [CARD_NAMES[c] for c in iter_cards(cards)]


def deck_cards(deck: CardSet) -> list[Card]:
    """The cards of a deck in card order (a fresh, unshuffled pack)."""
    return cards_list(deck)


def lowest(cards: CardSet) -> Card:
    """The first card of a non-empty set in card order."""
    return (cards & -cards).bit_length() - 1
