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

``Observation.info`` (``state.observation(seat).info``) is a :class:`HuutopussiInfo`
(``observe.py``): the players, huutokielto, the bidding, declarer, bid and contract, hand
sizes, the exchanged cards (to the declarer and partner) and how many, the widow and the
discards (3 players), trump and every declaration, broken marriages, the trick in progress,
tricks, points and marriages per side, the declaration window, a pending question and the
Erlangen calls, each field documented there.

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
from .observe import HuutopussiInfo

sys.modules.setdefault(f"{__name__}.state", deal)
"""``….huutopussi.state``, the deal's module in the first layout, is :mod:`.deal`: what
``pickle`` imports to load a state pickled then."""

GAME = register(HuutopussiGame())
"""The registry's Huutopussi."""

__all__ = ["GAME", "HuutopussiDeal", "HuutopussiGame", "HuutopussiInfo", "HuutopussiState"]
