"""Shared helpers for the Satat tests: records, random playouts and independent oracles.

The oracles re-state SAT-8.3, SAT-8.5 and SAT-7.6/SAT-7.7 directly from the rules file
(lists of card texts, no bitmasks, no TrumpConfig), so that the engine is checked
against a second, naive reading of the rules.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from folkcards.cards import CARD_NAMES, DECK_52, iter_cards
from folkcards.engine import replay
from folkcards.games.satat import GAME, SatatState

VARIANTS: list[dict[str, Any]] = [
    {},
    {"trup_kasiet": True},
    {"signals": "home"},
    {"signals": "all"},
    {"trup_kasiet": True, "signals": "home"},
    {"trup_kasiet": True, "signals": "all", "match_target": 3},
]
ALL_VARIANTS: list[dict[str, Any]] = [
    {"trup_kasiet": tk, "signals": sig} for tk in (False, True) for sig in ("none", "home", "all")
]
"""Every combination of the rule-changing options (SAT-15 × SAT-16 levels)."""
CARRIES: list[dict[str, Any]] = [
    {"redeals": 0, "passing": None},
    {"redeals": 2, "passing": None},
    {"redeals": 0, "passing": {"winners": 0, "cards": 1}},
    {"redeals": 1, "passing": {"winners": 1, "cards": 2}},
]
RANKS = "AKQJT98765432"


def suit_cards(suit: str) -> list[str]:
    """The 13 cards of a suit, A first."""
    return [r + suit for r in RANKS]


def deal(
    rng: random.Random,
    variant: dict[str, Any] | None = None,
    carry: dict[str, Any] | None = None,
    dealer: int | None = None,
) -> SatatState:
    """A random deal of a variant with carried state (passing dropped in Trup Kasiet)."""
    v = GAME.normalize_variant(variant or {})
    deck = list(iter_cards(DECK_52))
    rng.shuffle(deck)
    if carry and v["trup_kasiet"]:
        carry = {"redeals": carry["redeals"], "passing": None}
    return GAME.new_deal(v, rng.randrange(4) if dealer is None else dealer, deck, carry=carry)


def playout(state: SatatState, rng: random.Random, check: Any = None) -> SatatState:
    """Random legal actions until the deal ends; ``check(state)`` before each action."""
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "legal is never empty while a seat acts"
        if check is not None:
            check(state)
        state.apply(rng.choice(legal))
    return state


def rec(hands: list[list[str]], actions: list[str], dealer: int = 0, **keys: Any) -> dict[str, Any]:
    """A Satat deal record from hands (each in the order received)."""
    out: dict[str, Any] = {"game": "satat", "dealer": dealer, "hands": hands, "actions": actions}
    out.update(keys)
    return out


def run(record: dict[str, Any]) -> dict[str, Any]:
    """``replay`` of a record."""
    return replay(record)


def suit_deal() -> list[list[str]]:
    """Seat 0 all clubs, 1 all spades, 2 all hearts, 3 all diamonds."""
    return [suit_cards("C"), suit_cards("S"), suit_cards("H"), suit_cards("D")]


def names(mask: int) -> list[str]:
    """Card texts of a mask in machine order."""
    return [CARD_NAMES[c] for c in iter_cards(mask)]


# --- oracles ---------------------------------------------------------------------------


def oracle_legal_cards(hand: list[str], led: str, trump: str, trump_known: bool) -> list[str]:
    """SAT-8.3, literally."""
    if led == "2H":
        if trump_known and any(c[1] == trump for c in hand):
            return [c for c in hand if c[1] == trump]
        return list(hand)
    f = [c for c in hand if c[1] == led[1] and c != "2H"]
    if f:
        return f + (["2H"] if "2H" in hand else [])
    return list(hand)


def oracle_winner(cards: list[str], trump: str) -> int:
    """SAT-8.5, literally: index of the winning card."""
    if "2H" in cards:
        return cards.index("2H")
    trumps = [i for i, c in enumerate(cards) if c[1] == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c[1] == cards[0][1]]
    return min(pool, key=lambda i: RANKS.index(cards[i][0]))


def oracle_gives(hand: list[str], trump: str, winner: bool, k: int) -> list[tuple[str, ...]]:
    """SAT-7.5–SAT-7.7, literally, as sorted tuples of card texts."""
    cards = [c for c in hand if c != "2H"]
    out = []
    for combo in combinations(cards, k):
        if winner:
            before = {c[1] for c in cards}
            after = {c[1] for c in cards if c not in combo}
            ok = before == after
        else:
            tr = [c for c in cards if c[1] == trump]
            others = [c for c in cards if c[1] != trump]
            if len(tr) >= k:
                ok = all(c in tr for c in combo)
            else:
                n = k - len(tr)
                rest = [c for c in combo if c not in tr]
                need = sorted(RANKS.index(c[0]) for c in others)[:n]
                ok = all(c in combo for c in tr) and sorted(RANKS.index(c[0]) for c in rest) == need
        if ok:
            out.append(
                tuple(sorted(combo, key=lambda c: "CSHD".index(c[1]) * 13 + RANKS.index(c[0])))
            )
    return sorted(out, key=lambda t: ["CSHD".index(c[1]) * 13 + RANKS.index(c[0]) for c in t])
