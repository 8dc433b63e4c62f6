"""Satat (Mauritius): four players in fixed partnerships race to seven of thirteen tricks.

Implements ``/work/shared/rules/satat.md`` (rule prefix ``SAT``) on the engine API:
the 52-card pack, the trump maker's choice from his first five cards or blind from his
last four (SAT-5), the no-picture redeal and the partner's no-trump redeal (SAT-5.4,
SAT-6), card passing after a 7-0 or 13-0 (SAT-7), play where the 2♥ is free and
supreme (SAT-8), the 7-0 continuation (SAT-9), dealer rotation and carried state
(SAT-12), the first-dealer draw and match counting (SAT-3, SAT-13), and the variants
Trup Kasiet (hidden trump, SAT-15) and table signals (SAT-16).

Use it through the registry (``folkcards.games.GAMES["satat"]``) or :data:`GAME`::

    >>> import random
    >>> from folkcards.games.satat import GAME
    >>> state = GAME.random_deal(random.Random(1), {}, dealer=0)
    >>> state.phase, state.to_act
    ('trump', 1)

The package follows the rules file: :mod:`.rules` (cards, the 2♥, trump configurations,
variants, phases, the action table), :mod:`.deal` (:class:`SatatState`, the phases in the
rules' order), :mod:`.scoring` (result, next deal, first-dealer draw, match count),
:mod:`.observe` (observations, masked private steps, events), :mod:`.explain` (why an
action is illegal), :mod:`.determinize` (worlds from an observation), :mod:`.fast` (the hot
path's precomputed tables) and :mod:`.game` (:class:`SatatGame`).

Hot path: hands are bitmasks; actions come from one :class:`ActionTable` whose codes
index precomputed ``KIND``/``ARG`` tables; follow-suit and trick winners come from a
:class:`TrumpConfig` per trump suit built once with the 2♥ as ``supreme`` card and as a
``free`` card of ``follow``; legal play tuples are built from lazily filled per-suit
tables, so a legal list costs a few index operations.

``Observation.info`` is a :class:`SatatInfo` (``observe.py``): trump maker and partner,
the trump as this seat knows it and whether the table knows it, the trump candidates of
the public deduction, the blind position and turned card, Trup Kasiet's trump card as this
seat knows it, the cards given and received, the cards known to be in each hand, public
voids, the 2♥ announcer, tricks, the current trick and its leader, the completed tricks
and the 7-0 continuation, each field documented there.

Private steps (SAT-19.1): a partner's ``pass`` and an announce-phase ``silent`` do not
appear in other seats' histories; while such a step is pending, the other seats see the
phase and seat that follow if it is declined (with an empty ``legal``), so that waiting
reveals nothing. A give is shown to others as ``give ?`` (``give ? ?``) and, once the
exchange is done, in full to its receiver; ``hide C`` is ``hide ?`` to all but its maker.

``public_observation()`` is the same view for a viewer at no seat (``SPECTATOR``): no hand,
no legal actions, every pass and announce-phase ``silent`` left out and pending ones masked
as for an uninvolved seat, every give ``give ?``, ``gave``/``received`` empty and
``known_cards`` only the public ones (SAT-19.2): the turned card while it is known to be in
the trump maker's hand (until a card-passing exchange) and an announced 2♥.

A state pickles by value (``__getstate__``): phases are compared as numbers (``ph``), never
by identity, so an unpickled state plays on exactly like the original.

The names below are those other modules import from ``folkcards.games.satat`` (the batched
kernel reads ``_KIND``/``_ARG``, the old names of :data:`.rules.KIND`/:data:`.rules.ARG`).
"""

from __future__ import annotations

from folkcards.engine.registry import register

from .deal import SatatState
from .fast import FOLLOW_OF, KEEP_OF
from .game import SatatGame
from .observe import SatatInfo
from .rules import ARG as _ARG
from .rules import (
    B2H,
    CONFIGS,
    K_CONTINUE,
    K_GIVE,
    K_HIDE,
    K_PASS,
    K_PLAY,
    K_STOP,
    PH_CONTINUE,
    PH_LESE,
    PHASES,
    PICTURES,
    TABLE,
    TWO_H,
    deck_from_hands,
    hands_from_deck,
)
from .rules import KIND as _KIND

GAME = register(SatatGame())
"""The registry's Satat instance."""

__all__ = [
    "B2H",
    "CONFIGS",
    "FOLLOW_OF",
    "GAME",
    "KEEP_OF",
    "K_CONTINUE",
    "K_GIVE",
    "K_HIDE",
    "K_PASS",
    "K_PLAY",
    "K_STOP",
    "PHASES",
    "PH_CONTINUE",
    "PH_LESE",
    "PICTURES",
    "TABLE",
    "TWO_H",
    "_ARG",
    "_KIND",
    "SatatGame",
    "SatatInfo",
    "SatatState",
    "deck_from_hands",
    "hands_from_deck",
]
