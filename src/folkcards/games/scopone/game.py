"""Scopone's :class:`~folkcards.engine.Game`: its facts, its deals, its game card and the
match (SCO-7)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from folkcards.cards import DECK_40, Card, mask_text
from folkcards.engine.actions import Action
from folkcards.engine.api import (
    DealState,
    Game,
    MalformedRecord,
    MatchState,
    Observation,
    Variant,
)
from folkcards.engine.card import NO_TRUMP, GameCard, suit_run, teams
from folkcards.engine.conservation import Aside, CardView
from folkcards.engine.task import Task

from .actions import parse_play
from .deal import ScoponeDeal, deal_from_hands
from .determinize import determinize
from .fast import action_for, deal_deck
from .observe import cards_aside
from .rules import VARIANT_OPTIONS, rules_of
from .task import task_of


class ScoponeGame(Game):
    """Scopone's facts, deals, determinization and match rules (SCO-7)."""

    name = "scopone"
    title = "Scopone"
    deck = DECK_40
    partnership = True
    variant_options = VARIANT_OPTIONS

    def parse_action(self, text: str, variant: Variant) -> Action:
        """The action a text names, without a state: ``play C`` means no capture."""
        c, take = parse_play(text)
        return action_for(c, take or 0)

    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> ScoponeDeal:
        """Deal from a deck order (SCO-3.1 / SCO-3.2) or take dealt hands + table (SCO-3.5)."""
        if type(dealer) is not int or not 0 <= dealer < 4:
            raise MalformedRecord("'dealer' must be an integer seat 0–3")
        if deck is not None:
            if hands is not None or extra:
                raise MalformedRecord("a deal needs exactly one of 'deck' or 'hands'")
            # SCO-3.1 / SCO-3.2, here rather than behind a helper: every deal starts here
            rules = rules_of(variant)
            deck_t = tuple(deck)
            dealt = deal_deck(deck_t, dealer, rules)
            if dealt is None:
                raise MalformedRecord("'deck' must hold the 40 Scopone cards, each once (SCO-10.1)")
            hands_dealt, table, table_order = dealt
            return ScoponeDeal(
                self, rules, variant, dealer, hands_dealt, table, deck_t, None, table_order
            )
        if hands is None:
            raise MalformedRecord("a deal needs 'deck' or 'hands'")
        return deal_from_hands(self, variant, dealer, hands, extra)

    def deal_from_record(self, record: Mapping[str, Any], variant: Variant) -> DealState:
        """The generic reader, plus SCO-3.5's shape of ``extra`` (``{}`` is malformed)."""
        if "hands" in record and "deck" not in record:
            if "extra" in record:
                extra = record["extra"]
                if not isinstance(extra, dict) or set(extra) != {"table"}:
                    raise MalformedRecord("'extra' must be exactly {\"table\": [cards]} (SCO-3.5)")
            elif not variant["scientifico"]:
                raise MalformedRecord(
                    "a classic 'hands' record needs 'extra': {\"table\": [4 cards]} (SCO-3.5)"
                )
        return super().deal_from_record(record, variant)

    def cards_aside(self, view: CardView) -> Aside:
        """Where the cards out of hand and unplayed are (:func:`.observe.cards_aside`)."""
        return cards_aside(view)

    def determinize(self, obs: Observation, rng: random.Random) -> ScoponeDeal:
        """A full deal consistent with ``obs`` (:mod:`.determinize`): the other hands drawn
        uniformly from the unseen cards (SCO-9)."""
        return determinize(self, obs, rng)

    def task(self, obs: Observation) -> Task | None:
        """The decision of ``obs``'s seat, from ``obs`` alone (:mod:`.task`)."""
        return task_of(obs)

    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """Scopone's game card: the Italian pack, no trump, each suit by capture value
        K Q J 7 … A (SCO-1.2); play counter-clockwise (SCO-2.2)."""
        v = self.normalize_variant(variant)
        turns = 20 if v["scientifico"] else 18  # each team's turns in a deal (SCO-4.1)
        most = turns + 4 + (1 if v["re_bello"] else 0) + (10 if v["napola"] else 0)
        return GameCard(
            name=self.name,
            title=self.title,
            variant=v,
            seats=4,
            sides=teams(4, True),
            partnership=True,
            direction="counter-clockwise",
            deck=DECK_40,
            pack="italian",
            phases=("play",),
            utility_bounds=(0, most),
            margin_scale=3.0,
            shaping=None,
            suit_order="CSHD",
            suit_ranks={x: suit_run("KQJ765432A", x) for x in "CSHD"},
            trump_groups={NO_TRUMP: ()},
            table_keys=("table", "piles", "sweeps", "last_capture", "hand_sizes", "turn"),
            rules="SCO",
            notes={
                "utility_bounds": "a bound, not a likely score: cards, coins, settebello and "
                "primiera, a sweep on every turn of one team, re bello and napola (SCO-6.7)",
            },
            tricks=False,  # cards are played to the table and captured from it (SCO-4)
            hidden_keys=("turn", "initial_table"),
            fact_keys=("sweeps",),
            match_target=v["target"],  # at the target the higher total wins (SCO-7.3)
            encoding_phases=("play",),
        )

    def describe(self, state: DealState) -> str:
        """One line: turn, table, and who acts."""
        assert isinstance(state, ScoponeDeal)
        table = " ".join(mask_text(state.table)) or "-"
        who = "over" if state.to_act is None else f"seat {state.to_act} to play"
        return f"Scopone · turn {state.turn} · table {table} · {who}"

    # --- SCO-7 the match -----------------------------------------------------------------
    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        """Totals 0–0; the first dealer is the record's (or drawn by the live table, SCO-7.1)."""
        return MatchState(totals=[0, 0], next_dealer=None, carry={})

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        """Add the deal's score (SCO-7.2), pass the deal (SCO-7.1), decide the match (SCO-7.3)."""
        assert isinstance(deal, ScoponeDeal)
        res = deal.result()
        if res["redeal"]:  # SCO-3.4 / SCO-7.1: same dealer, nothing scored
            return MatchState(
                totals=list(match.totals), next_dealer=deal.dealer, carry={}, deals=match.deals + 1
            )
        totals = [match.totals[0] + res["score"][0], match.totals[1] + res["score"][1]]
        over, winner = False, None
        capotto = res.get("capotto")
        if capotto is not None:  # SCO-8.4: all ten coins win at once
            over, winner = True, capotto
        elif max(totals) >= deal.rules.target and totals[0] != totals[1]:
            over, winner = True, (0 if totals[0] > totals[1] else 1)
        return MatchState(
            totals=totals,
            next_dealer=(deal.dealer + 1) & 3,
            carry={},
            over=over,
            winner=winner,
            draw=False,
            deals=match.deals + 1,
        )
