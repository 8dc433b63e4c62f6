"""Scopone — the four-player Italian fishing game (``rules/scopone.md``, rule prefix SCO).

One phase (``play``): each seat in turn (counter-clockwise = ``seat + 1``) plays one card;
a card equal in value to a table card must take one such card, otherwise it may take any
set of two or more table cards whose values add up to its own, otherwise it lies on the
table. A capture that empties the table is a *sweep* (scopa). At the end the team of the
last capture takes what is left, and the deal scores cards, coins, settebello, primiera
and the sweeps (plus re bello / napola in their variants).

Use it through the registry (``folkcards.games.GAMES["scopone"]``) or :data:`GAME`::

    >>> import random
    >>> from folkcards.games.scopone import GAME
    >>> state = GAME.random_deal(random.Random(7), {}, dealer=0)
    >>> state.phase, state.to_act
    ('play', 1)

The package follows the rules file: :mod:`.rules` the cards, seats, deal tables and
variants (SCO-1, SCO-2, SCO-3, SCO-8); :mod:`.actions` the action text (SCO-4.5,
SCO-4.6); :mod:`.deal` the deal as a state machine (SCO-3 … SCO-5, SCO-10);
:mod:`.scoring` the result (SCO-6); :mod:`.observe` what each seat knows and the events
(SCO-9); :mod:`.determinize` a world from one observation; :mod:`.game` the
:class:`ScoponeGame` and the match (SCO-7); :mod:`.fast` the capture tables and memos
behind ``legal_actions``, each beside its plain reference.

Actions are :class:`Play` values (``play C`` / ``play C take X Y …``) with stable codes
that sort like ``legal`` (SCO-4.5); :func:`action_for` gives the interned Play of a card
and a take set, :func:`parse_play` reads the text.

Observation ``info`` is a :class:`ScoponeInfo` (``observe.py``): turns played, the table
now and as dealt, both team piles, sweeps per team, the seat of the last capture, hand sizes
and whether the deal is void, each field documented there.

Only the hands are hidden: every play and capture is public (SCO-9), so ``history`` holds
every action seen whole — each entry the Play's :class:`~folkcards.engine.actions.Step`,
its text with its cards (the card played first) and the Play itself as ``action`` — and
``public_observation()`` (``seat`` = SPECTATOR) is any seat's observation without its
hand and legal actions.

A state pickles by value (its game by name, its history as (card, take) pairs, its rules
rebuilt on loading), and ``copy.copy`` / ``copy.deepcopy`` are ``clone()``.
"""

from __future__ import annotations

from folkcards.engine.registry import register

from .actions import Play, parse_play
from .deal import ScoponeDeal, capture_options
from .fast import action_for, value_key
from .game import ScoponeGame
from .observe import ScoponeInfo
from .rules import (
    COINS,
    NAPOLA_RUN,
    PRIMIERA_TABLES,
    RE_BELLO,
    SETTEBELLO,
    VALUE,
    capture_value,
)
from .scoring import napola_points, primiera

ScoponeState = ScoponeDeal
"""The deal state's earlier name, kept: callers (``tests/engine/test_selfcheck.py``) and
pickles made by the single-module ``folkcards.games.scopone`` name it."""

GAME = register(ScoponeGame())
"""The registry's Scopone instance."""

__all__ = [
    "COINS",
    "GAME",
    "NAPOLA_RUN",
    "PRIMIERA_TABLES",
    "RE_BELLO",
    "SETTEBELLO",
    "VALUE",
    "Play",
    "ScoponeDeal",
    "ScoponeGame",
    "ScoponeInfo",
    "ScoponeState",
    "action_for",
    "capture_options",
    "capture_value",
    "napola_points",
    "parse_play",
    "primiera",
    "value_key",
]
