"""Sasku (Saskop, Lambapea): the Estonian four-player partnership trump game.

Normative rules: ``rules/sasku.md`` (rule IDs ``SAS-n.m``, cited in comments where a
rule is implemented). One deal runs through the phases

``cut`` → ``exchange`` → ``auction`` → ``declare`` → ``override`` → ``play``

(a replay deal after 60–60 skips the auction: ``cut`` → ``exchange`` → ``play``), and
a match adds deals until a team reaches ``target`` strokes.

The package follows the rules file: :mod:`.rules` (cards, orders, points, dealing layouts,
variants: SAS-2 … SAS-6, SAS-17), :mod:`.actions` (the action space, SAS-20.3),
:mod:`.deal` (the deal's state machine, SAS-6 … SAS-12), :mod:`.scoring` (SAS-13,
SAS-14), :mod:`.observe` (observations and events, SAS-19), :mod:`.explain` (why an action
is illegal, SAS-20.2), :mod:`.determinize` (worlds from an observation), :mod:`.game` (the
Game: records, matches, SAS-15, SAS-16) and :mod:`.fast` (the hot path's tables).

Representation
    Cards are the engine's ints (``suit * 13 + rank``); hands are bitmasks. All twelve
    Kings, Queens and Jacks — the *pictures* — are permanent trumps (SAS-1.2), so every
    trump suit gets its own precomputed :class:`~folkcards.engine.tricks.TrumpConfig`
    (``TRUMP_CONFIGS``); the whole action space is one :class:`ActionTable` (``ACTIONS``)
    whose codes follow the conventions' sort order, so legal lists are built from
    precomputed tuples without sorting.

Observation ``info`` is a :class:`SaskuInfo` (``observe.py``): cutter and eldest, how the
cards were dealt and which were dealt face up, the exchanges (a returned card ``?`` to the
seats that may not see it, SAS-7.7), the auction (bid, bidder, who passed), trump and
declarer, the trick in progress and its leader, tricks played, points and tricks per team,
hand sizes, each field documented there.

A record's carried-over key ``replay`` (SAS-15.2) appears as ``Observation.carry``.
``public_observation()`` is the view of a seat that took part in no exchange, with no
hand and no legal actions (``seat`` = SPECTATOR): every returned card is ``?``.
"""

from __future__ import annotations

from folkcards.engine.registry import register

from .actions import ACTIONS, K_RETURN, KIND
from .deal import SaskuDeal, SaskuState
from .determinize import play_exclusions
from .fast import CARD_OF_PLAY, shuffled_pack
from .game import SaskuGame
from .observe import SaskuInfo
from .rules import (
    CARD_POINTS,
    DEAL_SLOTS,
    DECK,
    PICTURES,
    PLAIN_RANKS,
    PLAY_PHASE,
    SUIT_CARDS,
    SUIT_CARDS_OF,
    TRUMP_CONFIGS,
    TRUMPS_OF,
    hand_length,
    potential_trumps,
    trump_order,
)

GAME = register(SaskuGame())
"""The registry's Sasku instance."""

__all__ = [
    "ACTIONS",
    "CARD_OF_PLAY",
    "CARD_POINTS",
    "DEAL_SLOTS",
    "DECK",
    "GAME",
    "KIND",
    "K_RETURN",
    "PICTURES",
    "PLAIN_RANKS",
    "PLAY_PHASE",
    "SUIT_CARDS",
    "SUIT_CARDS_OF",
    "TRUMPS_OF",
    "TRUMP_CONFIGS",
    "SaskuDeal",
    "SaskuGame",
    "SaskuInfo",
    "SaskuState",
    "hand_length",
    "play_exclusions",
    "potential_trumps",
    "shuffled_pack",
    "trump_order",
]
