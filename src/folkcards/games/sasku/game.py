"""The Sasku :class:`~folkcards.engine.api.Game`: facts, variants, deals, records, matches.

A deal starts from a deck (the cutter then chooses how it is dealt, SAS-6) or from dealt
hands (SAS-6.6); the ``replay`` deal-record key carries the trump and declarer of a 60–60
deal into its replay (SAS-15.2); a match adds strokes until a team reaches ``target``
(SAS-16). Determinization is :mod:`.determinize`'s.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from folkcards.cards import CARD_NAMES, SUITS, Card, CardSet, mask_text
from folkcards.engine.actions import Action
from folkcards.engine.api import DealState, Game, MalformedRecord, MatchState, Observation, Variant
from folkcards.engine.card import NO_TRUMP, GameCard, cards_of, suit_run, teams
from folkcards.engine.conservation import Aside, CardView
from folkcards.engine.task import Task

from . import determinize as _determinize
from .actions import ACTIONS, parse_action
from .deal import SaskuState
from .fast import DECK_SET, shuffled_pack
from .observe import cards_aside
from .rules import (
    AUCTION,
    CUT,
    DECK,
    DECLARE,
    DEFAULT_VARIANT,
    EXCHANGE,
    OVERRIDE,
    PLAY_PHASE,
    VARIANT_OPTIONS,
    trump_order,
)
from .task import task_of


def read_replay_key(value: object) -> dict[str, Any]:
    """The ``replay`` deal-record key, validated and canonical (SAS-15.2)."""
    if not isinstance(value, dict) or set(value) != {"trump", "declarer"}:
        raise MalformedRecord("'replay' must be an object with exactly 'trump' and 'declarer'")
    trump = value["trump"]
    if not isinstance(trump, str) or trump.upper() not in ("C", "S", "H", "D"):
        raise MalformedRecord('\'replay.trump\' must be one of "C", "S", "H", "D"')
    trump = trump.upper()
    declarer = value["declarer"]
    if declarer is not None and (type(declarer) is not int or not 0 <= declarer <= 3):
        raise MalformedRecord("'replay.declarer' must be a seat 0–3 or null")
    if declarer is None and trump != "D":
        raise MalformedRecord("'replay' of a passed deal (declarer null) needs trump \"D\"")
    return {"trump": trump, "declarer": declarer}


def _replay_of(carry: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The carried-over ``replay`` key, validated, or None for an ordinary deal."""
    if carry and carry.get("replay") is not None:
        return read_replay_key(carry["replay"])
    return None


def _check_dealer(dealer: object) -> None:
    if type(dealer) is not int or not 0 <= dealer <= 3:
        raise MalformedRecord("'dealer' must be an integer seat 0–3")


class SaskuGame(Game):
    """Sasku's facts, variants, records, determinization and match rules."""

    name = "sasku"
    title = "Sasku"
    deck = DECK
    partnership = True
    variant_options = VARIANT_OPTIONS
    deal_keys = ("replay",)
    # SAS-14.1: ``replay`` is "exactly what the next deal record must carry", and SAS-16.3
    # checks it against SAS-16.2: a deal of a match may not leave it out (it is no derived
    # key); absent, it is an ordinary deal's, which disagrees with a 60-60 before it.
    derived_deal_keys = ()

    def all_actions(self, variant: Variant) -> tuple[Action, ...]:
        """Every Sasku action, codes 0..123 in the conventions' order (learning envs)."""
        return ACTIONS.actions

    def parse_action(self, text: str, variant: Variant) -> Action:
        """The action ``text`` names (SAS-20.3), with a specific message when it names none."""
        return parse_action(text)

    # --- deals (SAS-6, SAS-15.2) -----------------------------------------------------------
    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> SaskuState:
        """A deal from a deck (top card first; the cutter chooses how it is dealt) or from
        dealt hands (SAS-6.6). ``carry`` may hold ``replay`` (SAS-15.2)."""
        _check_dealer(dealer)
        if extra:
            raise MalformedRecord(
                "Sasku deals no extra piles: 'extra' must be absent or {} (SAS-6.6)"
            )
        replay = _replay_of(carry)
        if (deck is None) == (hands is None):
            raise MalformedRecord("a Sasku deal needs exactly one of a deck or hands")
        if deck is not None:
            deck_list = list(deck)
            if len(deck_list) != 36 or set(deck_list) != DECK_SET:
                raise MalformedRecord("'deck' must hold the 36 Sasku cards, each once (SAS-2.1)")
            return SaskuState(self, variant, dealer, deck_list, None, replay)
        assert hands is not None
        hand_lists = [list(h) for h in hands]
        if len(hand_lists) != 4 or any(len(h) != 9 for h in hand_lists):
            raise MalformedRecord("'hands' must be 4 lists of 9 cards (SAS-6.6)")
        if {c for h in hand_lists for c in h} != DECK_SET:
            raise MalformedRecord("'hands' must together be the 36 Sasku cards (SAS-6.6)")
        return SaskuState(self, variant, dealer, None, hand_lists, replay)

    def random_deal(
        self,
        rng: random.Random,
        variant: Variant | None = None,
        dealer: int = 0,
        carry: Mapping[str, Any] | None = None,
    ) -> SaskuState:
        """A new deal from a deck shuffled by ``rng`` (the cutter still chooses the method).

        Every order of the pack is equally likely (:func:`.fast.shuffled_pack`); the pack it
        has just shuffled is not validated again, since every random playout starts here.
        """
        v = DEFAULT_VARIANT if not variant else self.normalize_variant(variant)
        if type(dealer) is not int or not 0 <= dealer <= 3:  # inline: every playout starts here
            _check_dealer(dealer)
        replay = _replay_of(carry)
        return SaskuState(self, v, dealer, shuffled_pack(rng), None, replay)

    def normalize_carry(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """The ``replay`` key (SAS-15.2), validated; ``{}`` for an ordinary deal."""
        if "replay" not in record:
            return {}
        return {"replay": read_replay_key(record["replay"])}

    def cards_aside(self, view: CardView) -> Aside:
        """Where the cards out of hand and unplayed are (:func:`.observe.cards_aside`)."""
        return cards_aside(view)

    def determinize(self, obs: Observation, rng: random.Random) -> SaskuState:
        """A full deal consistent with ``obs``, built from ``obs`` alone
        (:func:`.determinize.determinize`)."""
        return _determinize.determinize(self, obs, rng)

    def determinize_hands(self, obs: Observation, rng: random.Random) -> list[CardSet] | None:
        """In card play, the hands now of a deal drawn as :meth:`determinize` draws it
        (:func:`.determinize.determinize_hands`); None before it."""
        if obs.phase != PLAY_PHASE:
            return None
        return _determinize.determinize_hands(self, obs, rng)

    def task(self, obs: Observation) -> Task | None:
        """The decision of ``obs``'s seat, from ``obs`` alone (:mod:`.task`)."""
        return task_of(obs)

    # --- matches (SAS-16) ------------------------------------------------------------------
    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        """Totals 0–0; the first dealer is any seat (SAS-16.1, SAS-16.2)."""
        return MatchState(totals=[0, 0], next_dealer=None, carry={})

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        """Add the deal's strokes; next dealer and ``replay`` by SAS-16.2; winner by SAS-16.1."""
        res = deal.result()
        score = res["score"]
        totals = [match.totals[0] + score[0], match.totals[1] + score[1]]
        target = deal.variant["target"]
        if res["redeal"]:
            next_dealer, carry = deal.dealer, {"replay": dict(res["replay"])}
        else:
            next_dealer, carry = (deal.dealer + 1) % 4, {}
        winner = None
        for team in (0, 1):
            if totals[team] >= target:
                winner = team
        return MatchState(
            totals=totals,
            next_dealer=next_dealer,
            carry=carry,
            over=winner is not None,
            winner=winner,
            draw=False,
            deals=match.deals + 1,
        )

    # --- for clients -----------------------------------------------------------------------
    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """Sasku's game card: pictures are the trump group before the trump is named
        (SAS-1.2), then the SAS-3.1 trump order; plain suits A T 9 8 7 6 (SAS-3.2)."""
        v = self.normalize_variant(variant)
        groups = {NO_TRUMP: cards_of(" ".join(r + x for r in "KQJ" for x in SUITS))}
        for t in range(4):
            groups[SUITS[t]] = tuple(trump_order(t))
        phases = [CUT, EXCHANGE, AUCTION, DECLARE, OVERRIDE, PLAY_PHASE]
        if not v["exchange"]:
            phases.remove(EXCHANGE)
        return GameCard(
            name=self.name,
            title=self.title,
            variant=v,
            seats=4,
            sides=teams(4, True),
            partnership=True,
            direction="clockwise",
            deck=DECK,
            pack="french",
            phases=tuple(phases),
            utility_bounds=(0, max(v["target"], 8)),  # lambapea scores the target (SAS-13.1)
            margin_scale=4.0,
            shaping=("points", 15.0),
            suit_order=SUITS,
            suit_ranks={x: suit_run("AT9876", x) for x in SUITS},
            trump_groups=groups,
            table_keys=(
                "trump",
                "declarer",
                "bid",
                "bidder",
                "passed",
                "leader",
                "trick",
                "points",
                "tricks",
                "hand_sizes",
                "face_up",
            ),
            rules="SAS",
            notes={
                "phases": "a replay deal after 60–60 skips the auction, declare and "
                "override (SAS-15.2); a record with hands starts at the exchange",
                "utility_bounds": "strokes per team and deal: 8 at most, the target on a "
                "lambapea (SAS-13)",
            },
            hidden_keys=("cutter", "eldest", "leader", "tricks_played"),
            fact_keys=("trump", "bid", "bidder", "declarer", "points", "tricks"),
            points_key="points",
            card_points={"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2},  # SAS-4.1: 120 in all
            tally=True,  # the match counts strokes (SAS-13)
            default_actions={CUT: "deal threes"},  # "when the cutter says nothing" (SAS-6.2)
            choice_notes=("diamonds", "keep"),
            match_target=v["target"],  # the first team to the target strokes wins (SAS-16)
            encoding_phases=("cut", "exchange", "auction", "declare", "override", "play"),
            encoding_scalars=(("bid", 9.0), ("declarer", 4.0)),
        )

    def describe(self, state: DealState) -> str:
        """A few lines: phase, seat to act, trump, hands and the current trick."""
        assert isinstance(state, SaskuState)
        lines = [f"Sasku · dealer {state.dealer} · phase {state.phase} · to act {state.to_act}"]
        if state.trump >= 0:
            lines.append(f"trump {SUITS[state.trump]} · declarer {state.declarer}")
        for seat in range(4):
            lines.append(f"  seat {seat}: {' '.join(mask_text(state.hands[seat]))}")
        if state.trick:
            lines.append("  trick: " + " ".join(CARD_NAMES[c] for c in state.trick))
        lines.append(f"  points {state.points} · tricks {state.tricks}")
        return "\n".join(lines)
