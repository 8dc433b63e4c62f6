"""Matches: deals in sequence, with what the rules carry from one deal to the next.

:class:`Match` is the live driver used by bots, tournaments, the terminal and the web
table: it deals each new deal from a shuffled deck (randomness only from its RNG),
passes the carried-over state (dealer, redeals, Sasku's replay trump, Satat's trump
maker…) that the game's ``after_deal`` computes, and writes the match record.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from folkcards.cards import iter_cards
from folkcards.engine.api import JSON, DealState, FolkcardsError, Game, MatchState, Variant
from folkcards.engine.records import MatchReplay, load_match


class Match:
    """A match in progress. ``current`` is the deal being played (None between deals)."""

    def __init__(
        self,
        game: Game,
        variant: Mapping[str, Any] | None = None,
        *,
        rng: random.Random | None = None,
        dealer: int | None = None,
        match_keys: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.variant: Variant = game.normalize_variant(dict(variant or {}))
        self.rng = rng if rng is not None else random.Random()
        keys = (
            dict(match_keys)
            if match_keys is not None
            else game.new_match_keys(self.variant, self.rng)
        )
        self.match_keys: dict[str, Any] = game.check_match_keys(keys, self.variant)
        self.state: MatchState = game.start_match(self.variant, self.match_keys)
        self.first_dealer = dealer
        self.deals: list[DealState] = []

    @property
    def current(self) -> DealState | None:
        """The deal in progress, if any."""
        if self.deals and not self.deals[-1].is_over:
            return self.deals[-1]
        return None

    @property
    def is_over(self) -> bool:
        """True when the match has ended by the game's own rule."""
        return self.state.over

    def next_dealer(self) -> int:
        """Who deals the next deal."""
        if self.state.next_dealer is not None:
            return self.state.next_dealer
        if self.first_dealer is not None:
            return self.first_dealer
        return self.rng.randrange(self.game.num_seats(self.variant))

    def new_deal(self, deck: list[int] | None = None) -> DealState:
        """Start the next deal from ``deck`` (top card first) or a deck shuffled by the RNG."""
        if self.current is not None:
            raise FolkcardsError("the current deal is not over")
        if self.state.over:
            raise FolkcardsError("the match is over")
        if deck is None:
            deck = list(iter_cards(self.game.deck))
            self.rng.shuffle(deck)
        deal = self.game.new_deal(
            self.variant, self.next_dealer(), deck, carry=dict(self.state.carry)
        )
        self.deals.append(deal)
        return deal

    def finish_deal(self) -> MatchState:
        """Score the finished current deal into the match (call once the deal is over)."""
        deal = self.deals[-1] if self.deals else None
        if deal is None or not deal.is_over:
            raise FolkcardsError("there is no finished deal to score")
        if self.state.deals >= len(self.deals):
            return self.state
        self.state = self.game.after_deal(self.state, deal)
        return self.state

    def record(self) -> dict[str, JSON]:
        """The match record of everything played so far."""
        rec: dict[str, JSON] = {
            "game": self.game.name,
            "variant": self.game.variant_diff(self.variant),
        }
        rec.update(self.match_keys)
        deals = []
        for d in self.deals:
            r = d.record()
            del r["game"], r["variant"]
            deals.append(r)
        rec["deals"] = deals
        return rec

    @classmethod
    def from_record(cls, obj: object, rng: random.Random | None = None) -> Match:
        """Continue a recorded match (RecordError if the record is bad)."""
        rep: MatchReplay = load_match(obj)
        m = cls(rep.game, rep.variant, rng=rng, match_keys=rep.match_keys)
        m.deals = list(rep.deals)
        if rep.match is not None:
            m.state = rep.match
        return m
