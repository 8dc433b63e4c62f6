"""The deals of one learning episode, dealt as a match deals them.

A deal can be over before anyone acts: in Scopone's classic deal three or four kings on
the table void the deal (SCO-3.4), and the **same dealer deals again** (SCO-7.1). An
environment cannot hand such a deal to an agent (there is no decision, no mask bit and
nothing to learn), so every environment of :mod:`folkcards.rl` — PettingZoo, Gymnasium
and OpenSpiel alike — treats it as the match would: the void deal is scored into a match
state with the game's own ``after_deal`` (for Scopone: nothing scored, the same dealer),
and the next deal is dealt by the dealer and with the carried-over state that this gives,
from the next shuffle of the same RNG (OpenSpiel: from a new round of chance nodes).
The void deals stay visible (``void_deals`` of the environment, ``"void_deals"`` in the
infos).

Of the registered games only Scopone's classic deal can be over before its first action
(``scientifico`` has no table cards, so no redeal check, SCO-8.1). Every other deal
starts with a seat to act in every variant and with any carried-over state: Sasku's cut
(SAS-6.2), Sheepshead's pick (SHP-4.1), Satat's trump choice (SAT-5.1), Huutopussi's
bidding (HUU-4.1). Their redeals — Satat's ``redeal``/``accept`` (SAT-5.4, SAT-6.3),
Huutopussi's ``redeal`` (HUU-4.6), Sheepshead's doubler, Sasku's 60–60 (SAS-13.2) — are
agents' actions or outcomes of play, so those deals are ordinary episodes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from folkcards.cards import iter_cards
from folkcards.engine.api import DealState, FolkcardsError, Game, MatchState, Variant

MAX_VOID_DEALS = 1000
"""Void deals in a row after which dealing gives up (a void Scopone deal has p ≈ 0.0016)."""


class EpisodeDeals:
    """Deals one episode's deals in a row, starting with ``dealer``, as a match would.

    ``deal(deck)`` deals ``deck`` (top card first) by the current dealer; a deal that is
    over before its first action is kept in :attr:`void`, scored into :attr:`match`
    (the game's ``after_deal``: next dealer, carried-over state), and ``None`` is
    returned: the caller deals the next deck. ``playable(rng)`` does that with decks
    shuffled by ``rng`` until a deal has a seat to act.
    """

    def __init__(self, game: Game, variant: Variant, dealer: int) -> None:
        self.game = game
        self.variant: Variant = game.normalize_variant(dict(variant))
        self.dealer = dealer
        self.match: MatchState = game.start_match(
            self.variant, game.check_match_keys({}, self.variant)
        )
        self.void: list[DealState] = []
        """The deals skipped, in order: over before any seat acted (or, in the Gymnasium
        wrapper, before the learner's first turn: :meth:`skip`)."""

    @property
    def carry(self) -> Mapping[str, Any]:
        """The state the next deal carries over from the deals before (match rules)."""
        return self.match.carry

    def deal(self, deck: list[int]) -> DealState | None:
        """The deal of ``deck`` by the current dealer, or None when it is void."""
        state = self.game.new_deal(self.variant, self.dealer, deck, carry=dict(self.match.carry))
        if not state.is_over:
            return state
        self.skip(state)
        return None

    def skip(self, state: DealState) -> None:
        """Score the finished ``state`` into the match and move to the deal after it
        (its dealer and carried-over state by the game's match rules)."""
        if len(self.void) >= MAX_VOID_DEALS:
            raise FolkcardsError(f"{MAX_VOID_DEALS} deals in a row were over before a decision")
        self.void.append(state)
        self.match = self.game.after_deal(self.match, state)
        if self.match.over:  # no registered game ends a match with a void deal
            raise FolkcardsError(f"{self.game.name}: a deal with no decision ended the match")
        if self.match.next_dealer is not None:
            self.dealer = self.match.next_dealer

    def shuffled(self, rng: random.Random) -> list[int]:
        """The game's pack shuffled by ``rng`` (as ``Game.random_deal`` shuffles it)."""
        deck = list(iter_cards(self.game.deck))
        rng.shuffle(deck)
        return deck

    def playable(self, rng: random.Random) -> DealState:
        """The next deal, from decks shuffled by ``rng``, that has a seat to act."""
        while True:
            state = self.deal(self.shuffled(rng))
            if state is not None:
                return state
