"""Precomputed tables of Sasku's hot path: legal tuples, play lookups, dealing, shuffling.

Built once at import. A deal's ``legal_actions`` and ``apply`` (:mod:`.deal`) only index
these: the auction's legal tuple by (lowest bid, length), a card set's ``play`` actions by
four 9-bit rank patterns (or one memo hit), a ``play`` action's card, the nine deck
positions a seat receives. A random deal's pack is one ``randrange(36!)`` draw.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from operator import itemgetter

from folkcards.cards import BIT, Card, CardSet
from folkcards.engine.actions import Action
from folkcards.engine.memo import Memo

from .actions import ACTIONS, ARG, BID, DECK_LIST, DIAMONDS, K_PLAY, KIND, PASS, PLAY
from .rules import DEAL_SLOTS

AUCTION_LEGAL: dict[tuple[int, int], tuple[Action, ...]] = {
    (lo, hi): (*(BID[n] for n in range(lo, hi + 1)), DIAMONDS, PASS)
    for lo in range(5, 11)
    for hi in range(0, 10)
}
"""Auction legal tuples: bids ``lo..hi`` (empty when ``lo > hi``), then diamonds, pass
(SAS-8.3, SAS-8.4, in the SAS-21.2 order)."""

OVERRIDE_LEGAL: tuple[Action, ...] = (DIAMONDS, PASS)
"""The override's choices (SAS-9.3)."""


def _play_table(suit: int) -> tuple[tuple[Action, ...], ...]:
    out = []
    for bits in range(512):
        out.append(tuple(PLAY[suit * 13 + r] for r in range(9) if bits >> r & 1))
    return tuple(out)


PLAY_BY_SUIT: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(_play_table(s) for s in range(4))
"""``PLAY_BY_SUIT[s][bits]``: the ``play`` actions of suit ``s`` for the 9-bit rank pattern
``bits`` (A..6), in card order — so legal plays are four lookups, no sorting."""
PLAY_C, PLAY_S, PLAY_H, PLAY_D = PLAY_BY_SUIT

PLAYS_SEEN_LIMIT = 1 << 15
PLAYS_SEEN: Memo[CardSet, tuple[Action, ...]] = Memo("sasku.plays", limit=PLAYS_SEEN_LIMIT)
"""Memo of card set → ``play`` actions (:func:`play_actions`, filled by the play phase).
Legal sets repeat a lot across deals (most are a few cards of one class), so about three
lookups in four are one dict hit; bounded at :data:`PLAYS_SEEN_LIMIT` entries (a few MB)."""


def play_actions(cards: CardSet) -> tuple[Action, ...]:
    """The ``play X`` actions of a card set, in card order."""
    return (
        PLAY_C[cards & 0x1FF]
        + PLAY_S[cards >> 13 & 0x1FF]
        + PLAY_H[cards >> 26 & 0x1FF]
        + PLAY_D[cards >> 39 & 0x1FF]
    )


CARD_OF_PLAY: tuple[int, ...] = tuple(ARG[a] if KIND[a] == K_PLAY else -1 for a in ACTIONS.actions)
"""``CARD_OF_PLAY[code]``: the card of a ``play`` action."""

DEAL_GETTERS: dict[str, tuple[Callable[[Sequence[Card]], tuple[Card, ...]], ...]] = {
    m: tuple(itemgetter(*slots[off]) for off in range(4)) for m, slots in DEAL_SLOTS.items()
}
"""``DEAL_GETTERS[method][offset](deck)``: that seat's nine cards, in one C call (SAS-6.3)."""

BIT_OF = BIT.__getitem__
"""A card's one-card set, as a function for ``map``."""

DECK_SET = frozenset(DECK_LIST)
_ORDERS_OF_THE_PACK = math.factorial(36)
_SWAP_BOUNDS = tuple((i, i + 1) for i in range(35, 0, -1))


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The 36 cards in a uniformly random order, drawn with one ``rng.randrange`` call.

    A uniform number below 36! read as mixed-radix digits gives exactly the independent
    uniform swap positions of a Fisher–Yates shuffle; one big draw instead of 35 small
    ones halves the cost of ``rng.shuffle``, which matters in random playouts (SAS-6.1).
    """
    n = rng.randrange(_ORDERS_OF_THE_PACK)
    deck = DECK_LIST[:]  # a slice, not .copy(): see deal._PLAYS_SEEN
    for i, bound in _SWAP_BOUNDS:
        j = n % bound
        n //= bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck
