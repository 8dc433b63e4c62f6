"""Huutopussi — the Finnish bidding game with trump declarations by marriages (rules: HUU).

Four players in two partnerships (or three players, ``players: 3``; or the Erlangen rules,
``erlangen: true``) bid for the right to exchange cards with a partner and set a contract;
there is no trump until a player who led and won a trick declares a marriage, and the trump
can change several times in a deal. The match is played to 500.

Use it through the registry (``folkcards.games.GAMES["huutopussi"]``) or :data:`GAME`::

    >>> import random
    >>> from folkcards.games.huutopussi import GAME
    >>> state = GAME.random_deal(random.Random(1), {}, dealer=0)
    >>> state.phase, state.to_act
    ('bidding', 1)

``Observation.info`` (``state.observation(seat).info``) holds, JSON-ready:

``players``
    3 or 4.
``banned``
    seats under huutokielto this deal (HUU-4.7).
``high_bid``, ``high_bidder``, ``passed``
    the bidding so far (null while nobody has bid; ``passed`` a list of seats).
``declarer``, ``bid``, ``contract``
    the declarer, the final bid and the contract once known (null before).
``hand_sizes``
    the number of cards in each seat's hand.
``given``, ``returned``
    the exchanged cards (HUU-14.3/14.4) for the declarer and its partner; null for others
    and for a spectator, who see only ``given_count`` and ``returned_count``.
``widow``
    3 players: the widow once the declarer took it (public, HUU-14.6); else null.
``discards``
    3 players: the declarer's discards, for the declarer only (null otherwise, and for a
    spectator); ``discard_count`` for everyone.
``trump``
    the current trump suit letter or null.
``declarations``
    every successful declaration in order: ``{"seat", "suit", "at"}`` where ``at`` is the
    history index of the action that made the trump (a ``declare`` or an ``answer``).
``broken``
    seats whose marriages are broken (HUU-8.6).
``leader``, ``trick``, ``tricks_played``
    the leader and cards of the trick in progress, and the number of completed tricks.
``tricks``, ``points``, ``marriages``
    per side (team with 4 players, seat with 3): tricks won, card points won in tricks
    (plus the last trick once won; a 3-player declarer's discards are added only in the
    result) and marriage values declared.
``window``
    true when the seat to act may make a declaration attempt now (HUU-8.1).
``asker``, ``ask``
    in phase ``answer``: who asked and what (``"marriage"`` or ``"half X"``).
``calls``
    kontra/re calls so far (Erlangen).

``Observation.carry`` is ``{"totals": [...]}``, the match totals before the deal (HUU-10.3).

``state.public_observation()`` (also ``observation(SPECTATOR)``) is a spectator's view: the
same keys, no hand, no legal actions, and the history and ``info`` of a seat that took no part
in the exchange or the discard (``give ?``, ``return ?``, ``discard ?``), HUU-14.

The package follows the rules file: :mod:`.rules` (the pack, orders, points, phases, the
action table and a variant's frozen rules: HUU-1, HUU-11, HUU-16), :mod:`.deal` (the deal's
state machine, phases in the rules' order: HUU-4 … HUU-8), :mod:`.scoring` (HUU-9, HUU-12,
HUU-13), :mod:`.observe` (observations and events, HUU-14), :mod:`.explain` (why an action
is illegal, HUU-17.2), :mod:`.determinize` (worlds from an observation), :mod:`.fast` (the
hot path's tables and memos) and :mod:`.game` (the Game: variants, records, the match,
HUU-10, HUU-11.5).

A state pickles (its game by name, its tables rebuilt on loading) and ``copy.copy`` /
``copy.deepcopy`` are ``clone()``; a pickle of the package's first layout (class
``folkcards.games.huutopussi.state.HuutopussiState``) loads too, through the module alias
below. Variants: see ``HuutopussiGame.normalize_variant`` (HUU-11.5: what is *given*
decides) and ``renormalize_variant`` (a normal form, maybe from JSON).
"""

from __future__ import annotations

import sys

from folkcards.engine.registry import register

from . import deal
from .deal import HuutopussiDeal, HuutopussiState
from .game import HuutopussiGame

sys.modules.setdefault(f"{__name__}.state", deal)
"""``….huutopussi.state``, the deal's module in the first layout, is :mod:`.deal`: what
``pickle`` imports to load a state pickled then."""

GAME = register(HuutopussiGame())
"""The registry's Huutopussi."""

__all__ = ["GAME", "HuutopussiDeal", "HuutopussiGame", "HuutopussiState"]
