"""Sheepshead's :class:`~folkcards.engine.Game`: its facts and variants (SHP-12), deals from
a deck or from hands (SHP-3), the doubler stake (SHP-11.2), determinization, the game card
and the match (SHP-11).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from folkcards.cards import BIT, CARD_NAMES, DECK_32, Card, to_mask
from folkcards.engine.actions import Action
from folkcards.engine.api import (
    DealState,
    Game,
    MalformedRecord,
    MatchState,
    Observation,
    Variant,
    json_repr,
)
from folkcards.engine.card import NO_TRUMP, GameCard, suit_run, teams
from folkcards.engine.conservation import Aside, CardView
from folkcards.engine.task import Task

from .deal import SheepsheadState
from .determinize import determinize
from .observe import cards_aside
from .rules import (
    ACTIONS,
    DOUBLER,
    HAND_SIZE,
    NEXT,
    P_BURY,
    P_CALL,
    P_PICK,
    P_PLAY,
    SEATS,
    TRUMP_ORDER,
    VARIANT_OPTIONS,
    carry_of,
    is_stake,
)
from .task import task_of

_BAD_STAKE = "'stake' must be an integer power of two ≥ 1, not {} (SHP-11.2)"
_DECK_OR_HANDS = "a deal record needs exactly one of 'deck' or 'hands'"


class SheepsheadGame(Game):
    """Sheepshead, five players, called ace: the facts, variants, deals and matches."""

    name = "sheepshead"
    title = "Sheepshead"
    deck = DECK_32
    partnership = False
    variant_options = VARIANT_OPTIONS
    deal_keys = ("stake",)
    derived_deal_keys = ("stake",)
    """SHP-11.2: a deal inside a match may leave ``stake`` out; it is then the stake the deals
    before give (2^k after k doubler pass-outs). A ``stake`` it gives must equal it."""

    def num_seats(self, variant: Variant) -> int:
        """Always five (SHP-2.1)."""
        return SEATS

    def parse_action(self, text: str, variant: Variant) -> Action:
        """The action named by ``text`` (SHP-14.1), or ActionSyntaxError."""
        return ACTIONS.parse(text)

    def all_actions(self, variant: Variant) -> tuple[Action, ...]:
        """The 73 actions in canonical order, codes 0..72 (a fixed action space)."""
        return ACTIONS.actions

    # --- SHP-3 deals, SHP-11.2 the stake ------------------------------------------------------
    def normalize_carry(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """The record's ``stake`` (SHP-11.2): a power of two, only under ``doubler``."""
        if "stake" not in record:
            return carry_of(variant, 1)
        stake = record["stake"]
        if variant["no_pick"] != DOUBLER:
            raise MalformedRecord(
                "'stake' is allowed only with variant no_pick \"doubler\" (SHP-11.2)"
            )
        if not is_stake(stake):
            raise MalformedRecord(_BAD_STAKE.format(json_repr(stake)))
        return {"stake": stake}

    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> SheepsheadState:
        """A deal from a deck (top card first, dealt by SHP-3.1) or from hands + blind (SHP-3.3)."""
        if type(dealer) is not int or not 0 <= dealer < SEATS:
            raise MalformedRecord("'dealer' must be an integer seat 0–4")
        stake = _stake_of(carry, variant) if carry else 1  # SHP-11.2
        if deck is not None:
            if hands is not None or extra is not None:
                raise MalformedRecord(_DECK_OR_HANDS)
            return self._from_deck(variant, dealer, tuple(deck), stake)
        if hands is None:
            raise MalformedRecord(_DECK_OR_HANDS)
        return self._from_hands(variant, dealer, hands, extra or {}, stake)

    def _from_deck(
        self, variant: Variant, dealer: int, deck: tuple[Card, ...], stake: int
    ) -> SheepsheadState:
        """SHP-3.1: 3 each from eldest, 2 to the blind, 3 each again (the deck is a tuple:
        clones share it)."""
        b = BIT
        masks = [0] * SEATS
        seat = dealer
        try:
            for i in range(0, 15, 3):
                seat = NEXT[seat]
                j = i + 17
                masks[seat] = (
                    b[deck[i]]
                    | b[deck[i + 1]]
                    | b[deck[i + 2]]
                    | b[deck[j]]
                    | b[deck[j + 1]]
                    | b[deck[j + 2]]
                )
            everything = masks[0] | masks[1] | masks[2] | masks[3] | masks[4]
            everything |= b[deck[15]] | b[deck[16]]
        except (IndexError, TypeError):
            everything = -1
        # 32 entries whose union is the pack: each card exactly once.
        if len(deck) != 32 or everything != DECK_32:
            raise MalformedRecord("'deck' must hold the 32 cards of the Sheepshead pack, each once")
        return SheepsheadState(
            self, variant, dealer, masks, (deck[15], deck[16]), stake, deck, None
        )

    def _from_hands(
        self,
        variant: Variant,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        extra: Mapping[str, Sequence[Card]],
        stake: int,
    ) -> SheepsheadState:
        """SHP-3.3: five hands of six in seat order and ``extra.blind``, the 32 cards."""
        if len(hands) != SEATS or any(len(h) != HAND_SIZE for h in hands):
            raise MalformedRecord("'hands' must be 5 lists of 6 cards (SHP-3.3)")
        if set(extra) != {"blind"}:
            raise MalformedRecord("'extra' must be exactly {\"blind\": [2 cards]} (SHP-3.3)")
        blind = list(extra["blind"])
        if len(blind) != 2:
            raise MalformedRecord("'extra.blind' must hold 2 cards (SHP-3.3)")
        seen = [c for h in hands for c in h] + blind
        if len(seen) != 32 or to_mask(seen) != DECK_32:
            raise MalformedRecord(
                "'hands' and 'extra.blind' together must be the 32 cards (SHP-3.3)"
            )
        hands0 = tuple(tuple(h) for h in hands)  # immutable: clones share it
        masks = [to_mask(h) for h in hands0]
        return SheepsheadState(
            self, variant, dealer, masks, (blind[0], blind[1]), stake, None, hands0
        )

    def cards_aside(self, view: CardView) -> Aside:
        """Where the cards out of hand and unplayed are (:func:`.observe.cards_aside`)."""
        return cards_aside(view)

    def determinize(self, obs: Observation, rng: random.Random) -> SheepsheadState:
        """A full deal consistent with ``obs``: hidden cards sampled under every inference the
        rules allow (revealed voids, the called card's possible holders, the picker's call and
        hold-rule duties, the aces a ten call implies)."""
        return determinize(self, obs, rng)

    def task(self, obs: Observation) -> Task | None:
        """The decision of ``obs``'s seat, from ``obs`` alone (:mod:`.task`)."""
        return task_of(obs)

    # --- the game card ------------------------------------------------------------------------
    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """Sheepshead's game card: five seats scoring alone; the fourteen trumps (queens,
        jacks, diamonds, SHP-1.3) sort first, then the fail suits A T K 9 8 7 (SHP-1.4)."""
        v = self.normalize_variant(variant)
        bump = 2 if v["double_on_bump"] else 1
        return GameCard(
            name=self.name,
            title=self.title,
            variant=v,
            seats=SEATS,
            sides=teams(SEATS, False),
            partnership=False,
            direction="clockwise",
            deck=DECK_32,
            pack="french",
            phases=(P_PICK, P_BURY, P_CALL, P_PLAY),
            utility_bounds=(-12 * bump, 12),  # alone: ±4 × level 3 (SHP-8.5), at stake 1
            margin_scale=3.0,
            shaping=None,
            suit_order="CSHD",
            suit_ranks={x: suit_run("ATK987", x) for x in "CSH"},
            trump_groups={NO_TRUMP: TRUMP_ORDER},
            table_keys=(
                "picker",
                "called",
                "partner",
                "mode",
                "stake",
                "leader",
                "trick",
                "trick_number",
                "tricks",
                "taken",
                "hand_sizes",
            ),
            rules="SHP",
            notes={
                "utility_bounds": "at stake 1: a doubler stake multiplies them (SHP-8.6, SHP-11.2)",
                "phases": "nobody picking skips bury and call (leaster) or ends the deal "
                "(doubler, SHP-9)",
            },
            hidden_keys=("leader", "trick_number"),
            fact_keys=("picker", "called", "partner", "mode", "stake", "taken", "tricks"),
            points_key="taken",
            card_points={"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2},  # SHP-1.5: 120 in all
            phase_cards={P_BURY: 2},  # the picker buries two cards, one action each (SHP-5.1)
            choice_notes=("pick", "alone"),
            match_deals=v["match_deals"],  # then the single leader wins (SHP-11.3)
            encoding_phases=(P_PICK, P_BURY, P_CALL, P_PLAY),
        )

    def describe(self, state: DealState) -> str:
        """One line: phase, seat to act, picker and call."""
        assert isinstance(state, SheepsheadState)
        parts = [f"Sheepshead · dealer {state.dealer} · phase {state.phase}"]
        if state.picker >= 0:
            parts.append(f"picker {state.picker}")
        if state.mode is not None:
            parts.append(state.mode + (f" {CARD_NAMES[state.called]}" if state.called >= 0 else ""))
        if state.to_act is not None:
            parts.append(f"to act {state.to_act}")
        return " · ".join(parts)

    # --- SHP-11 matches -----------------------------------------------------------------------
    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        """Totals 0, any first dealer, stake 1."""
        return MatchState(
            totals=[0] * SEATS,
            next_dealer=None,
            carry=carry_of(variant, 1),
            extra={"played": 0},
        )

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        """Add the deal's score; next dealer; doubler stake; end with a single top total."""
        assert isinstance(deal, SheepsheadState)
        res = deal.result()
        totals = [t + s for t, s in zip(match.totals, res["score"], strict=True)]
        played = match.extra.get("played", 0)
        if res["redeal"]:  # SHP-9.5, SHP-11.2: the next deal is played at double stake
            carry = {"stake": deal.stake * 2}
        else:
            carry = carry_of(deal.variant, 1)
            played += 1
        over, winner = False, None
        top = max(totals)
        if not res["redeal"] and played >= deal.rules.match_deals and totals.count(top) == 1:
            over, winner = True, totals.index(top)  # SHP-11.3
        return MatchState(
            totals=totals,
            next_dealer=(deal.dealer + 1) % SEATS,  # SHP-11.1
            carry=carry,
            over=over,
            winner=winner,
            draw=False,
            deals=match.deals + 1,
            extra={"played": played},
        )


def _stake_of(carry: Mapping[str, Any], variant: Variant) -> int:
    """The deal's stake from its carried-over keys (SHP-11.2): 1 unless a doubler carry
    gives a power of two."""
    stake = carry.get("stake", 1)
    if not is_stake(stake):
        raise MalformedRecord(_BAD_STAKE.format(json_repr(stake)))
    if stake != 1 and variant["no_pick"] != DOUBLER:
        raise MalformedRecord('the stake is always 1 under no_pick "leaster" (SHP-11.2)')
    return int(stake)
