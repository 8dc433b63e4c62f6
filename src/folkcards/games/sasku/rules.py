"""Sasku's cards, orders, points, dealing layouts and variants (SAS-2 … SAS-6, SAS-17).

Everything here is a fact of ``rules/sasku.md`` built once at import: the pictures and suit
cards, the trump order of each trump suit and its :class:`~folkcards.engine.tricks.TrumpConfig`,
card points, a hand's potential trumps and length, the deck-index → seat mapping of the five
dealing methods, the phases, and a variant read into frozen :class:`SaskuRules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from folkcards.cards import (
    CARD_NAMES,
    CARD_NUMBERS,
    DECK_36,
    SUIT_MASK,
    SUITS,
    Card,
    CardSet,
    ranks_mask,
)
from folkcards.engine.api import VariantOption
from folkcards.engine.memo import Memo
from folkcards.engine.tricks import TrumpConfig

# --- SAS-2 deck and card classes ----------------------------------------------------------

DECK: CardSet = DECK_36
"""The 36-card pack, ``A K Q J T 9 8 7 6`` in ``C S H D`` (SAS-2.1)."""

PICTURES: CardSet = ranks_mask("KQJ")
"""The twelve Kings, Queens and Jacks — permanent trumps (SAS-2.2, SAS-1.2)."""

SUIT_CARDS: CardSet = DECK & ~PICTURES
"""The 24 A T 9 8 7 6 cards (SAS-2.2)."""

SUIT_CARDS_OF: tuple[CardSet, ...] = tuple(SUIT_MASK[s] & SUIT_CARDS for s in range(4))
"""``SUIT_CARDS_OF[s]``: the six suit cards of suit ``s`` — a plain suit's whole class (SAS-2.4)."""

TRUMPS_OF: tuple[CardSet, ...] = tuple(PICTURES | SUIT_CARDS_OF[s] for s in range(4))
"""``TRUMPS_OF[s]``: the 18 trumps when ``s`` is trump (SAS-2.3)."""

DIAMONDS_SUIT = 3
"""Diamonds, the trump of ``diamonds``, of the override and of a passed deal (SAS-8.6, SAS-9.4)."""

# --- SAS-3 card ranking, SAS-4 card points ------------------------------------------------

PLAIN_RANKS: tuple[int, ...] = tuple("AKQJT98765432".index(r) for r in "AT9876")
"""Rank numbers of a plain suit, highest first (SAS-3.2)."""


def trump_order(trump: int) -> list[Card]:
    """The 18 trumps, highest first, when suit ``trump`` is trump (SAS-3.1, SAS-3.3)."""
    letter = SUITS[trump]
    names = [f"6{letter}"]
    names += [r + s for r in "KQJ" for s in SUITS]  # pictures: K > Q > J, then C > S > H > D
    names += [r + letter for r in "AT987"]
    return [CARD_NUMBERS[n] for n in names]


TRUMP_CONFIGS: tuple[TrumpConfig, ...] = tuple(
    TrumpConfig(DECK, trump_order(t), PLAIN_RANKS) for t in range(4)
)
"""The precomputed classes, powers and beat-sets for each trump suit (SAS-10.4, SAS-11)."""

CARD_POINTS: tuple[int, ...] = tuple(
    {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}.get(name[0], 0) for name in CARD_NAMES
)
"""Card points by card number (SAS-4.1); the pack totals 120."""

# --- SAS-8.1 potential trumps and length -------------------------------------------------


def potential_trumps(hand: CardSet, suit: int) -> int:
    """Pictures plus suit cards of ``suit`` in ``hand`` (SAS-8.1)."""
    return (hand & TRUMPS_OF[suit]).bit_count()


def hand_length(hand: CardSet) -> int:
    """The hand's *length*: its largest potential trumps over the four suits (SAS-8.1)."""
    return (hand & PICTURES).bit_count() + max(
        (hand & SUIT_CARDS_OF[0]).bit_count(),
        (hand & SUIT_CARDS_OF[1]).bit_count(),
        (hand & SUIT_CARDS_OF[2]).bit_count(),
        (hand & SUIT_CARDS_OF[3]).bit_count(),
    )


# --- SAS-6 dealing -----------------------------------------------------------------------

DEAL_METHODS: tuple[str, ...] = ("threes", "ones", "nines", "cover", "to")
"""Dealing methods; ``to`` is ``deal to X`` (SAS-6.2)."""


def deal_layout(method: str) -> tuple[tuple[int, int], ...]:
    """For each deck index i: (seat offset from the dealer, position p) — the SAS-6.3 table."""
    out = []
    for i in range(36):
        if method == "threes":
            out.append(((1 + i // 3) % 4, 3 * (i // 12) + i % 3))
        elif method == "ones":
            out.append(((1 + i) % 4, i // 4))
        elif method in ("nines", "to"):
            out.append(((1, 2, 3, 0)[i // 9], i % 9))
        elif method == "cover":
            out.append(((1, 2, 0, 3)[i // 9], i % 9))
        else:
            raise ValueError(f"unknown dealing method {method!r}")
    return tuple(out)


DEAL_LAYOUTS: dict[str, tuple[tuple[int, int], ...]] = {m: deal_layout(m) for m in DEAL_METHODS}

DEAL_SLOTS: dict[str, tuple[tuple[int, ...], ...]] = {
    m: tuple(
        tuple(i for p in range(9) for i in range(36) if lay[i] == (off, p)) for off in range(4)
    )
    for m, lay in DEAL_LAYOUTS.items()
}
"""``DEAL_SLOTS[method][offset]``: the deck indices the seat ``dealer + offset`` receives,
in the order it receives them (SAS-6.3, SAS-6.7)."""

# --- SAS-21.1 phases ---------------------------------------------------------------------

CUT, EXCHANGE, AUCTION, DECLARE, OVERRIDE, PLAY_PHASE, OVER = (
    "cut",
    "exchange",
    "auction",
    "declare",
    "override",
    "play",
    "over",
)
PHASES: tuple[str, ...] = (CUT, EXCHANGE, AUCTION, DECLARE, OVERRIDE, PLAY_PHASE, OVER)
"""Every phase of a deal in order, ``over`` last (SAS-21.1)."""

# --- SAS-17 variants ---------------------------------------------------------------------

VARIANT_OPTIONS: tuple[VariantOption, ...] = (
    VariantOption("must_beat", True, "a follower who can beat the winning card must (SAS-17.2)"),
    VariantOption(
        "target", 16, "strokes that win the match; lambapea scores it (SAS-17.3)", minimum=1
    ),
    VariantOption("exchange", True, "the lone-picture exchange takes place (SAS-17.4)"),
)
"""The three variant keys of SAS-17 with their defaults."""

DEFAULT_VARIANT: dict[str, Any] = {o.key: o.default for o in VARIANT_OPTIONS}
"""The default variant, normalized (every key at its default)."""


@dataclass(frozen=True)
class SaskuRules:
    """A variant read once into the rules it selects (SAS-17)."""

    must_beat: bool
    """SAS-17.2: a follower who can beat the winning card must (SAS-10.3 steps 3–4)."""
    target: int
    """SAS-17.3: strokes that win the match; a lambapea scores exactly this."""
    exchange: bool
    """SAS-17.4: the lone-picture exchange takes place (SAS-7)."""


DEFAULT_RULES = SaskuRules(
    DEFAULT_VARIANT["must_beat"], DEFAULT_VARIANT["target"], DEFAULT_VARIANT["exchange"]
)
"""The rules of :data:`DEFAULT_VARIANT`."""

RULES: Memo[tuple[bool, int, bool], SaskuRules] = Memo("sasku.rules", limit=1 << 10)
"""One shared :class:`SaskuRules` per variant (match targets are unbounded, hence the bound)."""
RULES.store((DEFAULT_RULES.must_beat, DEFAULT_RULES.target, DEFAULT_RULES.exchange), DEFAULT_RULES)


def rules_of(variant: Mapping[str, Any]) -> SaskuRules:
    """The frozen rules of a normalized variant (one shared instance per variant)."""
    if variant is DEFAULT_VARIANT:  # every random deal of the default variant
        return DEFAULT_RULES
    key = (variant["must_beat"], variant["target"], variant["exchange"])
    rules = RULES.table.get(key)
    if rules is None:
        rules = RULES.store(key, SaskuRules(*key))
    return rules
