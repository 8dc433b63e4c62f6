"""Precomputed action tuples for Sheepshead's hot path: a set of cards → its ``play`` (or
``bury``) actions in canonical order (SHP-10.2), by table look-up, never by sorting.

The action codes of :data:`~folkcards.games.sheepshead.rules.ACTIONS` follow card order, so
the actions of one suit's cards are a slice per 8-bit pattern of ranks A..7, and a whole
hand is the concatenation of its suits' slices. ``legal_actions`` looks the legal card set
up in :data:`PLAY_CACHE` first and calls :func:`play_miss` only when it is not there.
"""

from __future__ import annotations

from folkcards.cards import CardSet
from folkcards.engine.actions import Action
from folkcards.engine.memo import Memo

from .rules import BURY, PASS, PICK, PLAY

PICK_LEGAL: tuple[Action, Action] = (PASS, PICK)
"""The picking phase's legal tuple, always the same (SHP-4.1)."""


def _slices(table: tuple[Action | None, ...]) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """Per suit, per 8-bit pattern of ranks A..7, the actions of those cards in order."""
    out = []
    for s in range(4):
        row = []
        for pattern in range(256):
            acts = []
            for r in range(8):
                if pattern >> r & 1:
                    a = table[s * 13 + r]
                    assert a is not None
                    acts.append(a)
            row.append(tuple(acts))
        out.append(tuple(row))
    return tuple(out)


_BURY_SLICES = _slices(BURY)
_PS0, _PS1, _PS2, _PS3 = _slices(PLAY)
_PLAY_CS: list[tuple[Action, ...] | None] = [None] * 65536
"""Lazily filled: ``play`` actions of the clubs+spades part of a set, by 16-bit pattern."""
_PLAY_HD: list[tuple[Action, ...] | None] = [None] * 65536
"""Lazily filled: ``play`` actions of the hearts+diamonds part of a set."""


def play_miss(cards: CardSet) -> tuple[Action, ...]:
    """Fill :data:`PLAY_CACHE` for ``cards`` and return its ``play`` actions
    (``Memo.miss``, inlined: the play phase misses often enough to count)."""
    table = PLAY_CACHE.table
    if len(table) >= _PLAY_CACHE_LIMIT:
        PLAY_CACHE.clear()
    legal = table[cards] = play_actions_of(cards)
    return legal


def play_actions_of(cards: CardSet) -> tuple[Action, ...]:
    """The ``play`` actions of a set of cards, in canonical order (no sorting needed).

    Two table look-ups (clubs+spades, hearts+diamonds, each a 16-bit pattern of ranks
    A..7) and one concatenation.
    """
    i = cards & 0xFF | cards >> 5 & 0xFF00
    a = _PLAY_CS[i]
    if a is None:
        a = _PLAY_CS[i] = _PS0[i & 0xFF] + _PS1[i >> 8]
    j = cards >> 26 & 0xFF | cards >> 31 & 0xFF00
    b = _PLAY_HD[j]
    if b is None:
        b = _PLAY_HD[j] = _PS2[j & 0xFF] + _PS3[j >> 8]
    return a + b


_PLAY_CACHE_LIMIT = 1 << 16
PLAY_CACHE: Memo[CardSet, tuple[Action, ...]] = Memo(
    "sheepshead.plays", play_actions_of, limit=_PLAY_CACHE_LIMIT
)
"""Recently used ``play`` tuples by card set (:func:`play_actions_of`; bounded)."""


def bury_actions_of(cards: CardSet) -> tuple[Action, ...]:
    """The ``bury`` actions of a set of cards, in canonical order (SHP-5.1)."""
    b = _BURY_SLICES
    return (
        b[0][cards & 0xFF]
        + b[1][cards >> 13 & 0xFF]
        + b[2][cards >> 26 & 0xFF]
        + b[3][cards >> 39 & 0xFF]
    )
