"""Shared helpers of the Sasku tests: fixed hands, records, playouts, a naive referee."""

from __future__ import annotations

import random
from typing import Any

from folkcards.cards import CARD_NAMES, parse_card
from folkcards.engine.records import replay
from folkcards.games.sasku import GAME, SaskuState

# Each seat holds one suit's nine cards: three pictures, six suit cards; nobody can
# exchange (three pictures each) and every length is 9.
SUIT_PER_SEAT = [
    "KC QC JC AC TC 9C 8C 7C 6C",
    "KS QS JS AS TS 9S 8S 7S 6S",
    "KH QH JH AH TH 9H 8H 7H 6H",
    "KD QD JD AD TD 9D 8D 7D 6D",
]

# Dealer 0: seat 1 (eldest) holds one picture (KS); lengths 7, 9, 9, 7 for seats 1, 2, 3, 0.
LONE_KS = [
    "KC QC JC 9C 8C 7C 6C 7D 6D",
    "KS AS TS 9S 8S 7S 6S AC TC",
    "KH QH JH AH TH 9H 8H 7H 6H",
    "KD QD JD QS JS AD TD 9D 8D",
]

# Dealer 0: seats 1 and 3 (partners) each hold one picture.
TWO_LONE = [
    "KC QC JC QD JD QS JS 7C 6C",
    "KS AS TS 9S 8S 7S 6S AC TC",
    "KH QH JH AH TH 9H 8H 7H 6H",
    "KD AD TD 9D 8D 7D 6D 9C 8C",
]

# Dealer 0: seat 1 holds one picture, seat 3 (its partner) none.
PARTNER_BARE = [
    "KC QC JC KD QD JD QS JS 6C",
    "KS AS TS 9S 8S 7S 6S AC TC",
    "KH QH JH AH TH 9H 8H 7H 6H",
    "AD TD 9D 8D 7D 6D 9C 8C 7C",
]

# Dealer 0: seat 3 holds nine pictures, so its partner seat 1 (one picture) is not asked.
NINE_PICTURES = [
    "JH JD 9C 8C 7C 6C AD TD 9D",
    "JS AS TS 9S 8S 7S 6S AC TC",
    "AH TH 9H 8H 7H 6H 8D 7D 6D",
    "KC KS KH KD QC QS QH QD JC",
]

# Dealer 0, for play tests with the exchange off: seat 2 is void in clubs and spades.
MIXED = [
    "KC QC JC QS JS TC 9C 6H 6D",
    "AC 6C KS AS TS 9S 8S 7S 6S",
    "7D 8H 7H KH QH JH AH TH 9H",
    "8C 7C KD QD JD AD TD 9D 8D",
]


def cards(text: str) -> list[int]:
    """Card numbers of a space-separated card text."""
    return [parse_card(t) for t in text.split()]


def deal(
    hands: list[str], dealer: int = 0, variant: dict[str, Any] | None = None, **carry: Any
) -> SaskuState:
    """A deal from fixed hands (SAS-6.6: it starts at the exchange)."""
    v = GAME.normalize_variant(variant or {})
    return GAME.new_deal(v, dealer, hands=[cards(h) for h in hands], carry=carry)


def hands_record(
    hands: list[str], actions: list[str], dealer: int = 0, **extra: Any
) -> dict[str, Any]:
    """A deal record with ``hands``."""
    rec: dict[str, Any] = {
        "game": "sasku",
        "dealer": dealer,
        "hands": [h.split() for h in hands],
        "actions": actions,
    }
    rec.update(extra)
    return rec


def run(rec: dict[str, Any]) -> dict[str, Any]:
    """The replay output of a record."""
    return replay(rec)


def legal(state: SaskuState) -> list[str]:
    """The legal texts of a state."""
    return state.legal_texts()


def texts(verb: str, cards_text: str) -> list[str]:
    """``verb X`` for each card of a space-separated card text."""
    return [f"{verb} {c}" for c in cards_text.split()]


def apply_all(state: SaskuState, actions: str) -> SaskuState:
    """Apply ';'-separated actions."""
    for a in actions.split(";"):
        if a.strip():
            state.apply(a.strip())
    return state


def random_playout(
    rng: random.Random, variant: dict[str, Any] | None = None, dealer: int = 0, **carry: Any
) -> SaskuState:
    """A complete random deal."""
    v = GAME.normalize_variant(variant or {})
    state = GAME.random_deal(rng, v, dealer, carry=carry)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


# --- a naive referee, written from SAS-3 and SAS-10 with lists, to cross-check -----------

_PICTURE_ORDER = [r + s for r in "KQJ" for s in "CSHD"]


def naive_trumps(trump: str) -> list[str]:
    """SAS-3.1 written out: trumps high → low."""
    return ["6" + trump] + _PICTURE_ORDER + [r + trump for r in "AT987"]


def naive_class(card: str, trump: str) -> str:
    """SAS-2.4: 'trump' or the printed suit."""
    return "trump" if card in naive_trumps(trump) else card[1]


def naive_beats(card: str, winning: str, trump: str) -> bool:
    """SAS-10.4."""
    order = naive_trumps(trump)
    c_t, w_t = card in order, winning in order
    if c_t and not w_t:
        return True
    if c_t and w_t:
        return order.index(card) < order.index(winning)
    if not c_t and not w_t and card[1] == winning[1]:
        plain = "AT9876"
        return plain.index(card[0]) < plain.index(winning[0])
    return False


def naive_legal(hand: list[str], trick: list[str], trump: str, must_beat: bool) -> set[str]:
    """SAS-10.3 step by step (and SAS-17.2 without must-beat)."""
    if not trick:
        return set(hand)
    led = naive_class(trick[0], trump)
    winning = trick[0]
    for c in trick[1:]:
        if naive_beats(c, winning, trump):
            winning = c
    f = [c for c in hand if naive_class(c, trump) == led]
    r = [c for c in hand if naive_class(c, trump) == "trump"]
    choice = f or r or hand
    if not must_beat:
        return set(choice)
    b = [c for c in choice if naive_beats(c, winning, trump)]
    return set(b or choice)


def naive_winner(trick: list[str], trump: str) -> int:
    """SAS-11.1: index of the winning card."""
    best = 0
    for i in range(1, 4):
        if naive_beats(trick[i], trick[best], trump):
            best = i
    return best


NAIVE_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def card_names(mask: int) -> list[str]:
    """Canonical texts of a mask."""
    return [CARD_NAMES[c] for c in range(52) if mask >> c & 1]
