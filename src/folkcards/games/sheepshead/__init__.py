"""Sheepshead for five players, called ace (``rules/sheepshead.md``, prefix SHP).

A deal goes through four phases: ``pick`` (each seat from eldest may take the two-card
blind), ``bury`` (the picker lays two cards away; they count for it), ``call`` (the picker
names the ace — or ten — whose holder becomes its secret partner, or goes ``alone``) and
``play`` (six tricks; trump is a suit of its own: all queens, all jacks, all diamonds).
Nobody picking gives a *leaster* or, in the ``doubler`` variant, a redeal at double stake.

Use it through the registry (``folkcards.games.GAMES["sheepshead"]``) or :data:`GAME`::

    >>> import random
    >>> from folkcards.games.sheepshead import GAME
    >>> state = GAME.random_deal(random.Random(1), {}, dealer=0)
    >>> state.phase, state.to_act
    ('pick', 1)

The modules follow the rules file: :mod:`.rules` (SHP-1 cards, SHP-2 seats, SHP-10 phases,
SHP-12 variants, SHP-14.1 actions, as data), :mod:`.deal` (the state machine, SHP-3 to
SHP-7 and SHP-9), :mod:`.scoring` (SHP-8, SHP-9), :mod:`.observe` (SHP-13 and the events),
:mod:`.explain` (SHP-14.2), :mod:`.determinize`, :mod:`.game` (the ``Game``: deals from
records, the game card, SHP-11 matches) and :mod:`.fast` (the hot path's action tables).

Hands, the blind and the bury are bitmasks over the engine's card numbers; actions come
from one :class:`~folkcards.engine.actions.ActionTable` whose codes follow the canonical
order, so a legal tuple is built from precomputed per-suit slices and never sorted.
Following suit and trick winners use the shared :class:`~folkcards.engine.tricks.TrumpConfig`
tables (SHP-1.3, SHP-1.4, SHP-7.3, SHP-7.7); only the call-an-ace duties (SHP-7.5, SHP-7.6)
are written here.

``Observation.info`` is a :class:`SheepsheadInfo` (``observe.py``): stake, mode, picker,
called card, partner (if this seat may know it), blind and bury (to whom they are shown),
the trick in progress, its leader and number, whether the called suit was led, tricks and
card points per seat, hand sizes and the last complete trick, each field documented there.

History: every action is public except ``bury C``, which other seats see as ``bury ?``.

``public_observation()`` (a spectator, SHP-13.1) has the same keys, as a seat that is neither
picker nor partner sees them: ``bury ?`` for both buries, ``blind``/``bury`` null until a
played-out deal ends, ``partner`` null until the called card is played; no hand, no legal.

Phases and modes are int codes inside a state (``PH_*``, ``M_*``), compared by value, so a
pickled or copied state behaves exactly like the original; ``phase`` and ``mode`` give
their public names.
"""

from __future__ import annotations

from folkcards.engine.registry import register

from .deal import SheepsheadDeal, SheepsheadState
from .game import SheepsheadGame
from .observe import SheepsheadInfo
from .rules import (
    ACTIONS,
    BEATS,
    CARD_OF,
    CLASS,
    FAIL_RANKS,
    K_ALONE,
    K_BURY,
    K_CALL,
    K_PASS,
    K_PICK,
    K_PLAY,
    KIND,
    M_ALONE,
    M_CALLED,
    M_DOUBLER,
    M_LEASTER,
    M_NONE,
    POINTS,
    TRUMP,
    TRUMP_ORDER,
    TRUMPS,
    SheepsheadRules,
    mask_points,
    rules_of,
)
from .scoring import outcome

GAME = register(SheepsheadGame())
"""The registry's Sheepshead."""

__all__ = [
    "ACTIONS",
    "BEATS",
    "CARD_OF",
    "CLASS",
    "FAIL_RANKS",
    "GAME",
    "KIND",
    "K_ALONE",
    "K_BURY",
    "K_CALL",
    "K_PASS",
    "K_PICK",
    "K_PLAY",
    "M_ALONE",
    "M_CALLED",
    "M_DOUBLER",
    "M_LEASTER",
    "M_NONE",
    "POINTS",
    "TRUMP",
    "TRUMPS",
    "TRUMP_ORDER",
    "SheepsheadDeal",
    "SheepsheadGame",
    "SheepsheadInfo",
    "SheepsheadRules",
    "SheepsheadState",
    "mask_points",
    "outcome",
    "rules_of",
]
