"""Tables and memos for Huutopussi's hot path, each beside the plain reference that a test
(``tests/games/huutopussi/test_fast.py``) compares it with.

Built once at import, or filled on first use. A deal's ``legal_actions`` and ``apply``
(:mod:`.deal`) only index these:

* ``PLAY_TABS`` … ``DISCARD_TABS``: one verb's actions of every 9-bit rank pattern of one
  suit, so a card set's actions are at most four lookups (:func:`mask_actions`;
  reference :func:`card_actions`), and ``ONE_SUIT_PLAYS`` the ``play`` actions of every
  set of cards of one suit (most followers) in one lookup; ``PLAY_CARD`` the card of a
  ``play`` action.
* The memos (:class:`~folkcards.engine.memo.Memo`, named ``huutopussi.…``): the bidding
  turn's actions (HUU-4.2–4.7), the contract's (HUU-5.2, HUU-6.3) and a declaration
  window's attempts (HUU-8.3–8.5, HUU-12.6). Each memo's compute function is the plain
  reference itself.
* ``DEAL_PICKS``: the deck positions dealt to each seat (HUU-3.2), so that a hand is one
  ``sum`` (:func:`deal_deck`; reference :func:`deal_deck_reference`).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from folkcards.cards import BIT, CardSet, iter_cards
from folkcards.engine.actions import Action
from folkcards.engine.memo import Memo

from .rules import (
    ARG,
    ASK_HALF,
    ASK_MARRIAGE,
    BID,
    BID_VALUES,
    CONTRACT,
    DECK,
    DECLARE,
    DISCARD,
    GIVE,
    K_PLAY,
    KIND,
    KINGS,
    PASS,
    PLAY,
    QUEENS,
    REDEAL,
    RETURN,
    SUIT_ORDER_WORDS,
)

# --- one verb's actions of a card set -------------------------------------------------------

SuitTables = tuple[tuple[tuple[Action, ...], ...], ...]


def _suit_tables(by_card: tuple[Action, ...]) -> SuitTables:
    """For each suit, the action tuple of every 9-bit pattern of its cards (ranks A..6)."""
    tables = []
    for s in range(4):
        table: list[tuple[Action, ...]] = [()] * 512
        for m in range(1, 512):  # a pattern's actions: its lowest card's, then the rest's
            low = m & -m
            table[m] = (by_card[s * 13 + low.bit_length() - 1], *table[m ^ low])
        tables.append(tuple(table))
    return tuple(tables)


PLAY_TABS = _suit_tables(PLAY)
GIVE_TABS = _suit_tables(GIVE)
RETURN_TABS = _suit_tables(RETURN)
DISCARD_TABS = _suit_tables(DISCARD)


def mask_actions(mask: CardSet, tabs: SuitTables) -> tuple[Action, ...]:
    """The actions of a card set (one verb), in card order, from the per-suit tables."""
    if not mask:
        return ()
    suit = ((mask & -mask).bit_length() - 1) // 13
    rest = mask >> (13 * suit)
    if rest < 512:  # all in one suit: one lookup (the common case when following)
        return tabs[suit][rest]
    return (
        tabs[0][mask & 511]
        + tabs[1][(mask >> 13) & 511]
        + tabs[2][(mask >> 26) & 511]
        + tabs[3][(mask >> 39) & 511]
    )


def card_actions(mask: CardSet, by_card: tuple[Action, ...]) -> tuple[Action, ...]:
    """The reference of :func:`mask_actions`: ``by_card[c]`` of each card, in card order."""
    return tuple(by_card[c] for c in iter_cards(mask))


ONE_SUIT_PLAYS: dict[CardSet, tuple[Action, ...]] = {
    bits << (13 * suit): PLAY_TABS[suit][bits] for suit in range(4) for bits in range(1, 512)
}
"""The ``play`` actions of every non-empty set of cards of one suit (2,044 sets)."""
PLAY_CARD: tuple[int, ...] = tuple(ARG[a] if KIND[a] == K_PLAY else -1 for a in range(len(KIND)))
"""``PLAY_CARD[code]``: the card of a ``play`` action, −1 for every other action."""

# --- memos of the turns that are not plays ------------------------------------------------------

BiddingKey = tuple[int, int, bool, bool, bool]


def bidding_actions(key: BiddingKey) -> tuple[Action, ...]:
    """``(max_bid, lowest, only50, can_pass, can_redeal)`` → ``bid N`` for ``lowest ≤ N ≤
    max_bid`` (or only ``bid 50``, HUU-4.3 under HUU-4.7), then ``pass`` and ``redeal``."""
    most, lowest, only50, can_pass, can_redeal = key
    if only50:
        bids: tuple[Action, ...] = (BID[50],)
    else:
        bids = tuple(BID[n] for n in BID_VALUES if lowest <= n <= most)
    return bids + ((PASS,) if can_pass else ()) + ((REDEAL,) if can_redeal else ())


BIDDING: Memo[BiddingKey, tuple[Action, ...]] = Memo(
    "huutopussi.bidding", bidding_actions, limit=1 << 12
)
"""A bidding turn's legal actions (HUU-4.2–4.7), by :func:`bidding_actions`' key."""


def contract_actions(key: tuple[int, int]) -> tuple[Action, ...]:
    """``(bid, max_bid)`` → ``contract N`` for ``bid ≤ N ≤ max_bid`` (HUU-5.2, HUU-6.3)."""
    bid, most = key
    return tuple(CONTRACT[n] for n in BID_VALUES if bid <= n <= most)


CONTRACTS: Memo[tuple[int, int], tuple[Action, ...]] = Memo(
    "huutopussi.contracts", contract_actions, limit=1 << 12
)
"""The contract's legal actions, by :func:`contract_actions`' key."""

DeclarationKey = tuple[CardSet, int, int, int, bool]


def declaration_actions(key: DeclarationKey) -> tuple[Action, ...]:
    """``(kings and queens held, suits used, own marriages broken, the partner's state,
    erlangen)`` → the attempts open in a declaration window, asks before declares
    (HUU-8.3–8.5, HUU-8.7, HUU-12.6). The partner's state is −1 without a partner (the
    3-player declarer), else 1 when its marriages are broken (HUU-8.6), else 0."""
    hand, used, own_broken, partner_state, erl = key
    asks: list[Action] = []
    declares: list[Action] = []
    for x in SUIT_ORDER_WORDS:
        if used >> x & 1:  # HUU-8.7
            continue
        k = hand >> KINGS[x] & 1
        q = hand >> QUEENS[x] & 1
        if k and q and not own_broken:
            declares.append(DECLARE[x])
        if partner_state >= 0 and ((k ^ q) or (erl and not (k and q))):
            asks.append(ASK_HALF[x])
    if partner_state == 0:
        asks.append(ASK_MARRIAGE)
    return (*asks, *declares)


DECLARATIONS: Memo[DeclarationKey, tuple[Action, ...]] = Memo(
    "huutopussi.declarations", declaration_actions, limit=1 << 16
)
"""A declaration window's attempts, by :func:`declaration_actions`' key."""

# --- HUU-3.2 dealing -----------------------------------------------------------------------------

DEAL_PICKS: dict[int, tuple[tuple[Any, ...], ...]] = {
    n: tuple(
        tuple(
            itemgetter(*range((s - dealer - 1) % n, n * (11 if n == 3 else 9), n)) for s in range(n)
        )
        for dealer in range(n)
    )
    for n in (3, 4)
}
"""``DEAL_PICKS[players][dealer][seat]``: picks the deck positions dealt to ``seat`` (the
cards go one at a time from the dealer's left, HUU-3.2), so a hand is one ``sum``."""


def deal_deck(cards: Sequence[int], players: int, dealer: int) -> list[CardSet] | None:
    """The hands dealt from ``cards`` (HUU-3.2), or None unless ``cards`` are the 36
    cards of the pack, each once (the rest after the hands is the widow, HUU-3.3)."""
    if len(cards) != 36:
        return None
    try:
        hands = [sum(map(BIT.__getitem__, pick(cards))) for pick in DEAL_PICKS[players][dealer]]
        total = sum(hands) + sum(
            map(BIT.__getitem__, cards[players * (11 if players == 3 else 9) :])
        )
    except (IndexError, TypeError):
        return None
    # 36 one-card sets summing to the pack are 36 different cards of it (no carries); a
    # negative number would index BIT from the end, hence the min().
    if total != DECK or min(cards) < 0:
        return None
    return hands


def deal_deck_reference(cards: Sequence[object], players: int, dealer: int) -> list[CardSet] | None:
    """The reference of :func:`deal_deck`: the cards one at a time from the dealer's left,
    after checking that they are the pack's 36 cards."""
    if len(cards) != 36 or any(type(c) is not int for c in cards):
        return None
    ints = [c for c in cards if type(c) is int]
    if len(set(ints)) != 36 or any(not 0 <= c < 52 or not DECK >> c & 1 for c in ints):
        return None
    hands = [0] * players
    for i, c in enumerate(ints[: players * (11 if players == 3 else 9)]):
        hands[(dealer + 1 + i) % players] |= 1 << c
    return hands
