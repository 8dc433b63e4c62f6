"""Sheepshead's cards, seats, actions, phases and variants: ``rules/sheepshead.md`` SHP-1,
SHP-2, SHP-10, SHP-11.2, SHP-12 and SHP-14.1, as data.

Everything here is a fact of the rules, not of the engine: the 32-card pack with its
fourteen trumps and three fail suits (SHP-1.2), the trump and fail orders (SHP-1.3,
SHP-1.4) as the shared :class:`~folkcards.engine.tricks.TrumpConfig` tables, the card
points (SHP-1.5), the callable aces and tens (SHP-6.2, SHP-6.4), the five seats clockwise
(SHP-2.1), the 73 actions in the conventions' order (SHP-14.1, SHP-10.2), the phase and
mode names (SHP-10.1, SHP-10.2), the doubler stake (SHP-11.2) and the variant options
(SHP-12) with :func:`rules_of`, which turns a normalized variant into one frozen
:class:`SheepsheadRules`.

A state keeps its phase and mode as small int codes (``PH_*``, ``M_*``) and every test of
them compares by value: a copied state (pickle, copy) holds equal but not identical
strings and actions, so nothing may compare them by identity.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from folkcards.cards import (
    BIT,
    CARD_NAMES,
    DECK_32,
    SUIT_MASK,
    Card,
    CardSet,
    iter_cards,
    parse_card,
    sum_over,
)
from folkcards.engine.actions import Action, ActionTable
from folkcards.engine.api import Variant, VariantOption
from folkcards.engine.memo import Memo
from folkcards.engine.tricks import TrumpConfig

# --- SHP-1 cards ----------------------------------------------------------------------------


def _c(text: str) -> Card:
    return parse_card(text, DECK_32)


CARDS_32: tuple[Card, ...] = tuple(iter_cards(DECK_32))
"""The 32 cards (SHP-1.1: A K Q J T 9 8 7 of C S H D) in card order (SHP-10.2)."""

_TRUMP_TEXT = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D"
TRUMP_ORDER: tuple[Card, ...] = tuple(_c(t) for t in _TRUMP_TEXT.split(" "))
"""The fourteen trumps, highest first (SHP-1.3)."""
FAIL_RANKS: tuple[int, ...] = tuple("AKQJT98765432".index(r) for r in "ATK987")
"""The rank numbers of a fail suit, highest first (SHP-1.4)."""
TRUMP = TrumpConfig(DECK_32, TRUMP_ORDER, FAIL_RANKS)
"""The shared follow/winner tables: trump is one class of 14 cards (SHP-1.2)."""

TRUMPS: CardSet = TRUMP.trumps
"""The trump suit as a set: every queen, every jack, every diamond (SHP-1.2)."""
FAIL: tuple[CardSet, CardSet, CardSet] = (
    SUIT_MASK[0] & DECK_32 & ~TRUMPS,
    SUIT_MASK[1] & DECK_32 & ~TRUMPS,
    SUIT_MASK[2] & DECK_32 & ~TRUMPS,
)
"""The six cards of each fail suit C, S, H (SHP-1.2)."""
CLASS: tuple[CardSet, ...] = TRUMP.class_of
"""``CLASS[c]``: the effective suit of card ``c`` as a set (trump or its fail suit)."""
BEATS: tuple[CardSet, ...] = TRUMP.beats
"""``BEATS[c]``: the cards that take a trick from ``c`` when ``c`` is winning it (SHP-7.7)."""

_POINTS_BY_RANK = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
POINTS: tuple[int, ...] = tuple(
    _POINTS_BY_RANK.get(CARD_NAMES[c][0], 0) if DECK_32 >> c & 1 else 0 for c in range(52)
)
"""``POINTS[c]``: the card points of card ``c`` (SHP-1.5; 120 in the pack)."""


def mask_points(cards: CardSet) -> int:
    """Card points of a set (SHP-1.5)."""
    return sum_over(cards, POINTS)


FAIL_ACES: tuple[Card, Card, Card] = (_c("AC"), _c("AS"), _c("AH"))
"""The aces the picker may call (SHP-6.2); ``AD`` is a trump and never called."""
FAIL_TENS: tuple[Card, Card, Card] = (_c("TC"), _c("TS"), _c("TH"))
"""The tens the picker calls when it holds all three fail aces (SHP-6.4)."""
ALL_FAIL_ACES: CardSet = BIT[FAIL_ACES[0]] | BIT[FAIL_ACES[1]] | BIT[FAIL_ACES[2]]
CALLABLE: tuple[Card, ...] = FAIL_ACES + FAIL_TENS
"""The six cards a ``call`` may name (SHP-6.2, SHP-6.4)."""
SUIT_INDEX: dict[Card, int] = {c: c // 13 for c in CALLABLE}
"""``SUIT_INDEX[c]``: the fail suit (0 C, 1 S, 2 H) of a callable card."""

# --- SHP-2 seats, SHP-3 the deal ------------------------------------------------------------

SEATS = 5
HAND_SIZE = 6
TRICKS = 6
NEXT: tuple[int, ...] = (1, 2, 3, 4, 0)
"""``NEXT[s]``: the seat after ``s`` clockwise (SHP-2.1)."""
SEAT_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple((lead + i) % 5 for i in range(5)) for lead in range(5)
)
"""``SEAT_AT[leader][i]``: the seat that played the ``i``-th card of a trick (SHP-7.2)."""

# --- SHP-14.1 actions, in the order of SHP-10.2 ----------------------------------------------

ACTIONS = ActionTable(
    ["pick", "pass", "alone"]
    + [f"bury {CARD_NAMES[c]}" for c in CARDS_32]
    + [f"call {CARD_NAMES[c]}" for c in CALLABLE]
    + [f"play {CARD_NAMES[c]}" for c in CARDS_32],
    DECK_32,
)
"""The 73 actions; their codes follow the canonical order, so sorted codes sort ``legal``."""
PICK = ACTIONS["pick"]
PASS = ACTIONS["pass"]
ALONE = ACTIONS["alone"]

K_PICK, K_PASS, K_ALONE, K_BURY, K_CALL, K_PLAY = range(6)
_KIND_OF_VERB = {"pick": K_PICK, "pass": K_PASS, "alone": K_ALONE, "bury": K_BURY}
_KIND_OF_VERB.update({"call": K_CALL, "play": K_PLAY})
KIND: tuple[int, ...] = tuple(_KIND_OF_VERB[a.step.kind] for a in ACTIONS.actions)
"""``KIND[code]``: the verb of an action, as a ``K_*`` code."""
CARD_OF: tuple[Card, ...] = tuple(a.step.cards[0] if a.step.cards else -1 for a in ACTIONS.actions)
"""``CARD_OF[code]``: the card an action names, or -1 (``pick``, ``pass``, ``alone``)."""
PLAY: tuple[Action | None, ...] = tuple(
    ACTIONS.by_text.get(f"play {CARD_NAMES[c]}") for c in range(52)
)
"""``PLAY[c]``: the action ``play c`` (None for a card outside the pack)."""
BURY: tuple[Action | None, ...] = tuple(
    ACTIONS.by_text.get(f"bury {CARD_NAMES[c]}") for c in range(52)
)
"""``BURY[c]``: the action ``bury c`` (None for a card outside the pack)."""
CALL: dict[Card, Action] = {c: ACTIONS[f"call {CARD_NAMES[c]}"] for c in CALLABLE}

# --- SHP-10 phases and modes ----------------------------------------------------------------

CALLED, ALONE_MODE, LEASTER, DOUBLER = "called", "alone", "leaster", "doubler"
P_PICK, P_BURY, P_CALL, P_PLAY, P_OVER = "pick", "bury", "call", "play", "over"
"""The public names of the phases (``state.phase``, observations, ``replay``; SHP-10.2)."""

PH_PICK, PH_BURY, PH_CALL, PH_PLAY, PH_OVER = range(5)
PHASE_NAMES: tuple[str, ...] = (P_PICK, P_BURY, P_CALL, P_PLAY, P_OVER)
PHASE_CODE: dict[str, int] = {name: code for code, name in enumerate(PHASE_NAMES)}
M_NONE, M_CALLED, M_ALONE, M_LEASTER, M_DOUBLER = range(5)
MODE_NAMES: tuple[str | None, ...] = (None, CALLED, ALONE_MODE, LEASTER, DOUBLER)
"""``MODE_NAMES[code]``: the public ``mode`` (SHP-10.1); ``None`` until it is decided."""

# --- SHP-11.2 the stake, SHP-12 variants ------------------------------------------------------

VARIANT_OPTIONS = (
    VariantOption(
        "no_pick", "leaster", "nobody picks: leaster or doubler (SHP-9)", ("leaster", "doubler")
    ),
    VariantOption("double_on_bump", False, "picker-side losses count double (SHP-8.6)"),
    VariantOption("match_deals", 5, "played-out deals before a match may end (SHP-11.3)", None, 1),
)
"""The variant keys of SHP-12.1 with their defaults."""


class SheepsheadRules(NamedTuple):
    """The switches of one normalized variant (SHP-12.1), derived once. A named tuple: a
    state keeps it in a slot, shared by its copies like the other immutable parts."""

    doubler: bool
    """``no_pick: "doubler"``: five passes redeal at double stake (SHP-9.5), else a leaster."""
    double_on_bump: bool
    """Every picker-side loss counts double (SHP-8.6, SHP-12.2)."""
    match_deals: int
    """Played-out deals before a match may end (SHP-11.3)."""


RULES: Memo[tuple[Any, ...], SheepsheadRules] = Memo("sheepshead.rules", limit=1 << 10)
"""One :class:`SheepsheadRules` per variant met (match lengths are unbounded)."""


def rules_of(variant: Mapping[str, Any]) -> SheepsheadRules:
    """The :class:`SheepsheadRules` of a normalized variant (cached by the options' values)."""
    key = (variant["no_pick"], variant["double_on_bump"], variant["match_deals"])
    r = RULES.table.get(key)
    if r is None:
        r = RULES.store(
            key,
            SheepsheadRules(
                doubler=variant["no_pick"] == DOUBLER,
                double_on_bump=bool(variant["double_on_bump"]),
                match_deals=int(variant["match_deals"]),
            ),
        )
    return r


def carry_of(variant: Variant, stake: int) -> dict[str, Any]:
    """The carried-over deal keys (SHP-11.2): ``{"stake": n}`` under ``doubler``, else none
    (under ``leaster`` the stake is always 1 and the key is not allowed)."""
    return {"stake": stake} if variant["no_pick"] == DOUBLER else {}


def is_stake(value: object) -> bool:
    """True for a JSON integer power of two ≥ 1 (SHP-11.2)."""
    return type(value) is int and value >= 1 and value & (value - 1) == 0
