"""Scopone's cards, seats, deals and variants: ``rules/scopone.md`` SCO-1, SCO-2, SCO-3's
deal tables and SCO-8, as data.

Everything here is a fact of the rules, not of the engine: the 40-card Italian pack and
each card's capture value (SCO-1.2) and primiera value (SCO-1.3, SCO-8.6), the special
cards, the partnerships and the order of play (SCO-2), the deck positions each seat and
the table receive (SCO-3.1, SCO-3.2), and the variant options (SCO-8) with
:func:`rules_of`, which turns a normalized variant into one frozen :class:`ScoponeRules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from folkcards.cards import BIT, CARD_NAMES, DECK_40, RANK_MASK, SUIT_MASK, Card, CardSet, card
from folkcards.cards import iter_cards as _iter_cards
from folkcards.engine.api import VariantOption
from folkcards.engine.memo import Memo

# --- SCO-1 cards ----------------------------------------------------------------------------

CARDS_40: tuple[Card, ...] = tuple(_iter_cards(DECK_40))
"""The 40 Scopone cards (SCO-1.1: A 2 3 4 5 6 7 J Q K of C S H D) in card order (SCO-1.4)."""

RANK_VALUE: Mapping[str, int] = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10,
}  # fmt: skip
"""SCO-1.2: the capture value of each rank; every rank has its own value."""

VALUE: list[int] = [RANK_VALUE.get(CARD_NAMES[c][0], 0) for c in range(52)]
"""Capture value of each card number (SCO-1.2); 0 for a card outside the Italian pack."""

SAME_RANK: list[CardSet] = [RANK_MASK[c % 13] & DECK_40 for c in range(52)]
"""The cards of the same rank — the same capture value, SCO-1.2 — as card ``c``, ``c``
included: the cards a single match takes (SCO-4.2.1)."""

VALUE_CARDS: tuple[CardSet, ...] = tuple(
    sum(BIT[c] for c in CARDS_40 if VALUE[c] == v) for v in range(11)
)
"""``VALUE_CARDS[v]``: the four cards of capture value ``v`` (1..10; 0 is empty)."""


def capture_value(c: Card) -> int:
    """The capture value of a Scopone card (SCO-1.2): A=1, 2..7, J=8, Q=9, K=10."""
    return VALUE[c]


SETTEBELLO: Card = card("7", "D")
"""SCO-1.5: the settebello, worth a point to the team holding it (SCO-6.3)."""
RE_BELLO: Card = card("K", "D")
"""SCO-1.5: the re bello, a point with variant ``re_bello`` (SCO-8.3)."""
COINS: CardSet = SUIT_MASK[3] & DECK_40
"""The ten coins (``D``), counted by SCO-6.2."""
NAPOLA_RUN: tuple[Card, ...] = tuple(card(r, "D") for r in "A234567JQK")
"""SCO-8.4: the coins in napola order A 2 3 4 5 6 7 J Q K."""
NAPOLA_START: CardSet = BIT[NAPOLA_RUN[0]] | BIT[NAPOLA_RUN[1]] | BIT[NAPOLA_RUN[2]]
"""SCO-8.4: A, 2 and 3 of coins, without which there is no napola."""

PRIMIERA_VALUES: Mapping[str, Mapping[str, int]] = {
    "flat": {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10},
    "graded": {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 8, "Q": 9, "K": 10},
}  # fmt: skip
"""SCO-1.3: the primiera value of each rank; ``graded`` pictures K 10, Q 9, J 8 (SCO-8.6)."""


def _best_by_pattern(pictures: str) -> tuple[int, ...]:
    """The highest primiera value among the cards of every 13-bit suit pattern (0: none)."""
    values = PRIMIERA_VALUES[pictures]
    per_rank = [values.get(CARD_NAMES[r][0], 0) for r in range(13)]  # suit C: ranks 0..12
    best = [0] * (1 << 13)
    for pattern in range(1, 1 << 13):  # the better of its lowest card and the rest's best
        low = pattern & -pattern
        best[pattern] = max(per_rank[low.bit_length() - 1], best[pattern ^ low])
    return tuple(best)


PRIMIERA_TABLES: Mapping[str, tuple[int, ...]] = {p: _best_by_pattern(p) for p in PRIMIERA_VALUES}
"""``PRIMIERA_TABLES[pictures][pattern]``: a suit's best primiera card value (SCO-1.3 /
SCO-8.6) among the cards of a 13-bit suit pattern; 0 when the pattern holds no card."""

# --- SCO-2 seats and partnerships -------------------------------------------------------------

SEATS = 4
"""SCO-2.1: exactly four seats."""
TEAM: tuple[int, ...] = (0, 1, 0, 1)
"""SCO-2.1: the team of each seat (``seat % 2``), one tuple index on the hot path."""
NEXT_SEAT: tuple[int, ...] = (1, 2, 3, 0)
"""SCO-2.2: who plays after each seat (``seat + 1 mod 4``: counter-clockwise)."""

# --- SCO-3 the deals ---------------------------------------------------------------------------

CLASSIC_HANDS: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 14, 15, 16, 28, 29, 30),
    (3, 4, 5, 17, 18, 19, 31, 32, 33),
    (6, 7, 8, 20, 21, 22, 34, 35, 36),
    (9, 10, 11, 23, 24, 25, 37, 38, 39),
)
"""SCO-3.1: the deck positions of the hands of p1 (eldest), p2, p3 and p4 (the dealer)."""
CLASSIC_TABLE: tuple[int, ...] = (12, 13, 26, 27)
"""SCO-3.1: the deck positions of the four table cards, in the order dealt (SCO-3.3)."""
SCIENTIFICO_HANDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(5 * p, 5 * p + 5)) + tuple(range(20 + 5 * p, 25 + 5 * p)) for p in range(4)
)
"""SCO-3.2: two rounds of five — the deck positions of p1 (eldest) … p4 (the dealer)."""

DEAL_ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple((dealer + 1 + i) % SEATS for i in range(SEATS)) for dealer in range(SEATS)
)
"""``DEAL_ORDER[dealer]``: the seats p1 … p4 — from the eldest (``dealer + 1``) round to
the dealer, who receives last (SCO-2.2, SCO-3.1)."""

# --- SCO-8 variants ------------------------------------------------------------------------------

VARIANT_OPTIONS: tuple[VariantOption, ...] = (
    VariantOption("scientifico", False, "10 cards each, none to the table (SCO-8.1)"),
    VariantOption(
        "dealer_last_sweep",
        False,
        "a capture on the final turn that empties the table is a sweep (SCO-8.2)",
    ),
    VariantOption("re_bello", False, "1 point for the team holding KD (SCO-8.3)"),
    VariantOption("napola", False, "napola points for a coin run A-2-3…; capotto wins (SCO-8.4)"),
    VariantOption("target", 11, "score needed to win the match (SCO-8.5)", minimum=1),
    VariantOption(
        "primiera_pictures",
        "flat",
        "primiera value of the pictures: flat (all 10) or graded (K 10, Q 9, J 8) (SCO-8.6)",
        choices=("flat", "graded"),
    ),
)
"""The ``variant`` keys of SCO-8, with their defaults (the seed's main rules)."""


@dataclass(frozen=True)
class ScoponeRules:
    """One normalized variant's rules, derived once: the SCO-8 options and what they set.

    ``hands``/``table``: the deck positions of SCO-3.1 (classic) or SCO-3.2 (scientifico);
    ``hand_size`` 9 or 10 and ``table_size`` 4 or 0 (SCO-3.5); ``final_turn`` 36 or 40
    (SCO-4.1), the turn that is no sweep unless ``dealer_last_sweep`` (SCO-5.1, SCO-8.2).
    """

    scientifico: bool
    dealer_last_sweep: bool
    re_bello: bool
    napola: bool
    target: int
    primiera_pictures: str
    hands: tuple[tuple[int, ...], ...]
    table: tuple[int, ...]
    hand_size: int
    table_size: int
    final_turn: int


def _make_rules(key: tuple[Any, ...]) -> ScoponeRules:
    """The rules of the SCO-8 values ``key`` (in :class:`ScoponeRules`' field order)."""
    sci, last_sweep, re_bello, napola, target, pictures = key
    return ScoponeRules(
        scientifico=sci,
        dealer_last_sweep=last_sweep,
        re_bello=re_bello,
        napola=napola,
        target=target,
        primiera_pictures=pictures,
        hands=SCIENTIFICO_HANDS if sci else CLASSIC_HANDS,  # SCO-8.1 / SCO-3.2
        table=() if sci else CLASSIC_TABLE,
        hand_size=10 if sci else 9,
        table_size=0 if sci else 4,
        final_turn=40 if sci else 36,  # SCO-4.1
    )


RULES: Memo[tuple[Any, ...], ScoponeRules] = Memo("scopone.rules", _make_rules, limit=1 << 10)
"""The rules of each variant met, by the values of its six options."""


def rules_of(variant: Mapping[str, Any]) -> ScoponeRules:
    """The :class:`ScoponeRules` of a normalized variant (every SCO-8 key present)."""
    key = (
        variant["scientifico"],
        variant["dealer_last_sweep"],
        variant["re_bello"],
        variant["napola"],
        variant["target"],
        variant["primiera_pictures"],
    )  # in ScoponeRules' field order
    got = RULES.table.get(key)
    return RULES.miss(key) if got is None else got
