"""A full Scopone deal consistent with one observation, built from it alone.

Only hands are hidden (SCO-9), and play reveals nothing about the cards a seat still
holds: a card that is not played is under no obligation (SCO-4.3 binds only the card
played), so no inference narrows them. The unseen cards are dealt uniformly to the other
seats in their public hand sizes; the deal is rebuilt as it began (each hand plus the
cards its seat has played, the initial table) and then set to the present.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from folkcards.cards import BIT, DECK_40, Card, CardSet, iter_cards, parse_card, to_mask
from folkcards.engine.api import Observation

from .actions import parse_play
from .deal import ScoponeDeal
from .fast import action_for, value_key
from .rules import rules_of

if TYPE_CHECKING:
    from .game import ScoponeGame


def _cards(texts: list[str]) -> list[Card]:
    return [parse_card(t, DECK_40) for t in texts]


def _deal_unseen(obs: Observation, seen: CardSet, rng: random.Random) -> list[CardSet]:
    """Every seat's hand now: the observer's own, and the cards nobody has seen shuffled
    and dealt to the others in their public hand sizes."""
    sizes = list(obs.info["hand_sizes"])
    unseen = list(iter_cards(DECK_40 & ~(obs.hand | seen)))
    rng.shuffle(unseen)
    hands = [0, 0, 0, 0]
    hands[obs.seat] = obs.hand
    pos = 0
    for s in range(4):
        if s == obs.seat:
            continue
        for c in unseen[pos : pos + sizes[s]]:
            hands[s] |= BIT[c]
        pos += sizes[s]
    if pos != len(unseen):
        raise ValueError("observation is inconsistent: hand sizes do not match unseen cards")
    return hands


def determinize(game: ScoponeGame, obs: Observation, rng: random.Random) -> ScoponeDeal:
    """A full deal consistent with ``obs``: the other hands drawn from the unseen cards."""
    info = obs.info
    variant = game.normalize_variant(dict(obs.variant))
    table = to_mask(_cards(info["table"]))
    piles = [to_mask(_cards(p)) for p in info["piles"]]
    hands = _deal_unseen(obs, table | piles[0] | piles[1], rng)
    history = [parse_play(t) for t in obs.history]
    played = [0, 0, 0, 0]
    for (c, _), actor in zip(history, obs.actors, strict=True):
        played[actor] |= BIT[c]
    dealt = tuple(tuple(iter_cards(hands[s] | played[s])) for s in range(4))
    init_table = tuple(_cards(info["initial_table"]))
    state = ScoponeDeal(
        game, rules_of(variant), variant, obs.dealer, hands, to_mask(init_table), None, dealt,
        init_table,
    )  # fmt: skip
    state.table = table  # then moved from the start of the deal to the present
    state.piles = piles
    state.sweeps = list(info["sweeps"])
    state.last_capture = info["last_capture"]
    state.turn = info["turn"]
    state._vkey = value_key(table)
    state.history = [action_for(c, take or 0) for c, take in history]
    state.actors = list(obs.actors)
    state.redeal = bool(info["redeal"])  # the table now may hold 3 kings mid-deal
    state.to_act = obs.to_act
    state.phase = obs.phase
    return state
