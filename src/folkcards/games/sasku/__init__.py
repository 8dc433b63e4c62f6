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

Observation ``info`` (all JSON values; cards as canonical text)
    ``cutter``, ``eldest``       seats (SAS-5.3)
    ``deal``                     ``"threes" | "ones" | "nines" | "cover" | "to"`` or null
                                 (before the cut, or a record that gave ``hands``)
    ``face_up``                  ``[[card, seat], …]`` the cards dealt face up by
                                 ``deal to X``, in deck order (SAS-6.4)
    ``exchanges``                ``[{"giver", "picture", "returner", "returned"}, …]``;
                                 ``returned`` is the card, ``"?"`` when hidden from this
                                 seat (SAS-7.7), or null while the return is pending
    ``bid``, ``bidder``          highest bid so far and its seat, or null
    ``passed``                   seats that passed in the auction, ascending
    ``trump``                    ``"C" | "S" | "H" | "D"`` or null while undecided
    ``declarer``                 seat whose trump stands (SAS-9.5) or null
    ``passed_deal``              true when all four passed (or a replay of such a deal)
    ``leader``                   seat that led the current trick (null before play)
    ``trick``                    ``[[seat, card], …]`` cards of the current trick
    ``tricks_played``            completed tricks, 0–9
    ``points``, ``tricks``       per team, from completed tricks
    ``hand_sizes``               cards held by each seat now

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
    "SaskuState",
    "hand_length",
    "play_exclusions",
    "potential_trumps",
    "shuffled_pack",
    "trump_order",
]
