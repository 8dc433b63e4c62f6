"""``determinize``: a full Scopone deal consistent with one observation (SCO-9).

Built from the :class:`~folkcards.engine.api.Observation` alone — a seat's, or a
spectator's public one — on the engine's kit (:mod:`folkcards.engine.determinize`):

1. **Constraints** (:func:`constraints`): only hands are hidden (SCO-9), and play reveals
   nothing about the cards a seat still holds — a card that is not played is under no
   obligation (SCO-4.3 binds only the card played) — so the places are the other seats'
   hands, each its public size, and no mask narrows them. The cards nobody has seen (not
   in the observer's hand, on the table or in a pile) are dealt among them: a uniform
   deal, a plain shuffle. Sizes that do not add up to the unseen cards are
   :class:`~folkcards.engine.determinize.Infeasible`.
2. **The rebuild** (:func:`_rebuild`): the deal as it began (each hand plus the cards its
   seat has played, the initial table), then set to the present from the observation —
   table, piles, sweeps, turn, history. Nothing is inferred, so no draw can be refused:
   every world has the observation it came from (the tests check it).

Every play is public (SCO-9), so every entry of the history is a step the seat saw whole:
its ``action`` is the :class:`~.actions.Play` itself, and the history is taken from the
steps as it is, never read back from their text.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from folkcards.cards import DECK_40, Card, CardSet, iter_cards, parse_card, to_mask
from folkcards.engine.api import SPECTATOR, Observation
from folkcards.engine.determinize import Constraints, Infeasible, LastRead

from .actions import Play
from .deal import ScoponeDeal
from .fast import value_key
from .rules import ScoponeRules, rules_of

if TYPE_CHECKING:
    from .game import ScoponeGame

SEATS = 4


def _cards(texts: list[str]) -> list[Card]:
    return [parse_card(t, DECK_40) for t in texts]


def constraints(obs: Observation, seen: CardSet) -> tuple[list[int], Constraints]:
    """The hidden hands as places (the seats other than the observer, in seat order) and
    their constraints: the cards not in ``obs.hand`` nor ``seen``, each hand its public
    size (SCO-9)."""
    sizes = obs.info["hand_sizes"]
    others = [s for s in range(SEATS) if s != obs.seat]
    cons = Constraints(DECK_40 & ~(obs.hand | seen), [sizes[s] for s in others])
    return others, cons


@dataclass
class Prepared:
    """An observation read for drawing: the places and their constraints, and everything
    the rebuild takes from the observation (the same for every world drawn from it)."""

    others: list[int]
    cons: Constraints
    table: CardSet
    piles: list[CardSet]
    played: list[CardSet]
    """The cards each seat has played (SCO-9: every play is public)."""
    init_table: tuple[Card, ...]
    history: list[Play]
    variant: dict[str, Any]
    rules: ScoponeRules

    @classmethod
    def of(cls, game: ScoponeGame, obs: Observation) -> Prepared:
        """Read ``obs``; :class:`~folkcards.engine.determinize.Infeasible` at once when the
        public hand sizes do not match the unseen cards."""
        info = obs.info
        table = to_mask(_cards(info["table"]))
        piles = [to_mask(_cards(p)) for p in info["piles"]]
        others, cons = constraints(obs, table | piles[0] | piles[1])
        if not cons.feasible():
            raise Infeasible("the hand sizes do not match the unseen cards (determinize)")
        # SCO-9: nothing is hidden, so each step's action is the Play that was made
        history = cast("list[Play]", [step.action for step in obs.history])
        played = [0] * SEATS
        for play, actor in zip(history, obs.actors, strict=True):
            played[actor] |= play.bit
        variant = game.normalize_variant(dict(obs.variant))
        return cls(
            others, cons, table, piles, played, tuple(_cards(info["initial_table"])),
            history, variant, rules_of(variant),
        )  # fmt: skip


def _rebuild(
    game: ScoponeGame, obs: Observation, prep: Prepared, hands: list[CardSet]
) -> ScoponeDeal:
    """The deal with these current hands: begun from each hand plus its seat's plays and
    the initial table, then moved to the present the observation shows."""
    info = obs.info
    played = prep.played
    dealt = tuple(tuple(iter_cards(hands[s] | played[s])) for s in range(SEATS))
    init_table = prep.init_table
    state = ScoponeDeal(
        game, prep.rules, dict(prep.variant), obs.dealer, hands, to_mask(init_table), None,
        dealt, init_table,
    )  # fmt: skip
    table = prep.table
    state.table = table  # then moved from the start of the deal to the present
    state.piles = list(prep.piles)
    state.sweeps = list(info["sweeps"])
    state.last_capture = info["last_capture"]
    state.turn = info["turn"]
    state._vkey = value_key(table)
    state.history = list(prep.history)
    state.actors = list(obs.actors)
    state.redeal = bool(info["redeal"])  # the table now may hold 3 kings mid-deal
    state.to_act = obs.to_act
    state.phase = obs.phase
    return state


_prepared: LastRead[Prepared] = LastRead(lambda obs, game: Prepared.of(game, obs))
"""The last observation read (``_prepared(obs, game)``): a search bot draws many worlds from one."""


def determinize(game: ScoponeGame, obs: Observation, rng: random.Random) -> ScoponeDeal:
    """A full deal whose ``observation(obs.seat)`` equals ``obs``: the other hands drawn
    from the unseen cards (see the module docstring).

    :class:`~folkcards.engine.determinize.Infeasible` when the public hand sizes do not
    match the unseen cards.
    """
    prep = _prepared(obs, game)
    hands = [0] * SEATS
    if obs.seat != SPECTATOR:
        hands[obs.seat] = obs.hand
    for s, hand in zip(prep.others, prep.cons.draw(rng), strict=True):
        hands[s] = hand
    return _rebuild(game, obs, prep, hands)
