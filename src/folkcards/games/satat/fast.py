"""Tables precomputed for Satat's hot path: dealing a deck, the trump maker's choices and
the legal ``play`` lists, so that a legal list costs a few index operations.

* ``DEAL_GET`` picks each seat's deck positions (SAT-4.2) in one ``itemgetter`` call.
* ``TRUMP_LEGAL`` holds the main game's trump-making choices (SAT-5.5).
* ``FOLLOW_OF``/``KEEP_OF`` spell SAT-8.3 rule 2 out per led card: whether a follower can
  follow (its suit without the 2♥) and what he may then play (the suit and the 2♥) — the
  same obligations as ``TrumpConfig.follow`` with the 2♥ as a free card.
* ``P0`` … ``P3`` give the ``play`` actions of every 13-bit pattern of one suit, and
  ``SIGNAL_ROWS`` each card's ``play`` with its signal suffixes (SAT-16.6).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from folkcards.cards import SUIT_MASK, Card, CardSet
from folkcards.engine.actions import Action
from folkcards.engine.memo import Memo

from .rules import A_REDEAL, B2H, BLIND, NOT_2H, PLAY, TRUMP, TWO_H

# --- SAT-4.2 dealing ----------------------------------------------------------------------

_DECK_REL: tuple[int, ...] = tuple((i // 5) if i < 20 else ((i - 20) // 4) % 4 for i in range(52))
"""The relative seat (0 = trump maker … 3 = dealer) of each deck index (SAT-4.2)."""
_REL_CARDS = tuple(tuple(i for i in range(52) if _DECK_REL[i] == r) for r in range(4))
DEAL_GET: tuple[tuple[Any, ...], ...] = tuple(
    tuple(itemgetter(*_REL_CARDS[(s - dealer - 1) % 4]) for s in range(4)) for dealer in range(4)
)
"""``DEAL_GET[dealer][seat]``: picks the deck positions dealt to ``seat`` (SAT-4.2), so a
hand is one ``sum`` of the picked card bits."""

# --- SAT-5.5 trump making -----------------------------------------------------------------

TRUMP_LEGAL: tuple[tuple[Action, ...], tuple[Action, ...]] = (
    tuple(sorted([*BLIND[1:], *TRUMP])),
    tuple(sorted([*BLIND[1:], *TRUMP, A_REDEAL])),
)
"""Main game trump-making choices (SAT-5.5), without and with ``redeal`` (SAT-5.4)."""

# --- SAT-8.3 following --------------------------------------------------------------------

FOLLOW_OF: tuple[CardSet, ...] = tuple(NOT_2H[c // 13] for c in range(52))
"""``FOLLOW_OF[led]``: the cards that follow ``led`` (its suit without the 2♥, SAT-8.3)."""
KEEP_OF: tuple[CardSet, ...] = tuple(SUIT_MASK[c // 13] | B2H for c in range(52))
"""``KEEP_OF[led]``: what a follower who can follow ``led`` may play: the suit and the 2♥."""

# --- legal play lists ---------------------------------------------------------------------


def _suit_plays(suit: int) -> tuple[tuple[Action, ...], ...]:
    """``play C`` tuples for every 13-bit pattern of one suit, in card order."""
    table: list[tuple[Action, ...]] = [()] * 8192
    for bits in range(1, 8192):
        low = bits & -bits
        table[bits] = (PLAY[13 * suit + low.bit_length() - 1][0], *table[bits ^ low])
    return tuple(table)


P0, P1, P2, P3 = (_suit_plays(s) for s in range(4))
"""``Pn[bits]``: the plain ``play`` actions of the cards ``bits`` of suit n, in card order."""


def plays(mask: CardSet) -> tuple[Action, ...]:
    """``play C`` for every card of ``mask`` in card order (no suffixes)."""
    return (
        P0[mask & 0x1FFF] + P1[(mask >> 13) & 0x1FFF] + P2[(mask >> 26) & 0x1FFF] + P3[mask >> 39]
    )


PLAYS_SEEN_LIMIT = 1 << 15
PLAYS_SEEN: Memo[CardSet, tuple[Action, ...]] = Memo("satat.plays", plays, limit=PLAYS_SEEN_LIMIT)
"""Memo of a follower's card set (cards of the led suit, maybe with the 2♥) → plain
``play`` actions (:func:`plays`): these sets repeat a lot across deals; bounded at
``PLAYS_SEEN_LIMIT`` entries (a few MB)."""


def _signal_row(c: Card, vire: bool) -> tuple[Action, ...]:
    row = PLAY[c]
    return (row[0], row[1], *(() if c == TWO_H else (row[2],)), *((row[3],) if vire else ()))


SIGNAL_ROWS: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(_signal_row(c, vire) for c in range(52)) for vire in (False, True)
)
"""``SIGNAL_ROWS[vire][c]``: ``play C`` plain, ``grate``, ``pile`` (not for the 2♥, SAT-16.1)
and, when ``vire`` is open, ``vire`` (SAT-16.4), in SAT-16.6's order."""
