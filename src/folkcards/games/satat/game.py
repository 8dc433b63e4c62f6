"""The Satat game: its facts and game card, action text, deals from records (SAT-4), the
carried-over keys (SAT-4.6), determinization and matches (SAT-3, SAT-12, SAT-13)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from folkcards.cards import BIT, CARD_NAMES, DECK_52, SUITS, Card, CardError, CardSet, parse_card
from folkcards.engine.actions import Action, ActionSyntaxError, canonical_tokens
from folkcards.engine.api import (
    JSON,
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

from . import determinize as _determinize
from . import scoring
from .deal import SatatState
from .fast import DEAL_GET
from .observe import cards_aside
from .rules import TABLE, TWO_H, VARIANT_OPTIONS, deck_from_hands, rules_of
from .task import task_of


class SatatGame(Game):
    """Satat's facts, records, matches and determinization."""

    name = "satat"
    title = "Satat"
    deck = DECK_52
    partnership = True
    variant_options = VARIANT_OPTIONS
    deal_keys = ("redeals", "passing")
    derived_deal_keys = ("redeals", "passing")  # SAT-4.6: derived in a match
    match_keys = ("draw",)

    # --- the game card and actions --------------------------------------------------------
    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """Satat's game card: the trump suit sorts first once it is known; hearts start
        with the 2H, the highest card (SAT-1.3); plain order A … 2 (SAT-1.2)."""
        v = self.normalize_variant(variant)
        ranks = {x: suit_run("AKQJT98765432", x) for x in SUITS}
        ranks["H"] = (TWO_H, *ranks["H"][:-1])
        groups = {NO_TRUMP: ()} | {x: ranks[x] for x in SUITS}
        return GameCard(
            name=self.name,
            title=self.title,
            variant=v,
            seats=4,
            sides=teams(4, True),
            partnership=True,
            direction="clockwise",
            deck=DECK_52,
            pack="french",
            phases=rules_of(v).phases,
            utility_bounds=(0, 1),  # a deal won scores 1 (SAT-10)
            margin_scale=1.0,
            shaping=("tricks", 2.0),
            suit_order=SUITS,
            suit_ranks=ranks,
            trump_groups=groups,
            table_keys=(
                "trump_maker",
                "trump",
                "trump_known",
                "blind",
                "turned",
                "announced",
                "leader",
                "trick",
                "tricks",
                "continuing",
            ),
            rules="SAT",
            notes={
                "phases": "propose, consent and give happen only when their rule calls for them"
            },
            hidden_keys=("leader", "won", "trump_known"),
            fact_keys=("trump", "trump_maker", "tricks"),
            choice_notes=("blind", "redeal", "grate", "lese", "announce", "propose"),
            match_target=v["match_target"] or None,  # deals won; 0: no fixed end (SAT-13.3)
            # the learning encoding's phase block as first laid out: only trump, play and
            # continue are phases of the deal; kept so that a trained agent's inputs hold
            encoding_phases=("trump", "redeal", "blind", "pass", "play", "continue"),
        )

    def all_actions(self, variant: Variant) -> tuple[Action, ...]:
        """Every Satat action, codes 0..n-1 in the conventions' order (learning envs)."""
        return TABLE.actions

    def parse_action(self, text: str, variant: Variant) -> Action:
        """SAT-17.2: any accepted spelling; ``give`` cards may come in either order."""
        if not isinstance(text, str):
            raise ActionSyntaxError("an action must be a text", "not_text")
        tokens = canonical_tokens(text, DECK_52)  # its errors carry their codes
        if tokens[0] == "give" and len(tokens) == 3 and tokens[1] != tokens[2]:
            try:
                a, b = parse_card(tokens[1]), parse_card(tokens[2])
            except CardError:
                pass
            else:
                tokens[1:] = [CARD_NAMES[min(a, b)], CARD_NAMES[max(a, b)]]
        try:
            return TABLE.by_text[" ".join(tokens)]
        except KeyError:
            raise ActionSyntaxError(
                f"{text.strip()!r} is not a Satat action (SAT-17.3)",
                "not_an_action",
                {"action": text.strip()},
            ) from None

    # --- deals ----------------------------------------------------------------------------
    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> SatatState:
        """A deal from a deck (SAT-4.2) or from hands in the order received (SAT-4.5), with
        the carried-over keys of SAT-4.6; MalformedRecord for anything else (SAT-18.1)."""
        if type(dealer) is not int or not 0 <= dealer < 4:
            raise MalformedRecord("'dealer' must be an integer seat 0–3")
        if extra:
            raise MalformedRecord(
                "Satat deals no extra piles: 'extra' must be absent or {} (SAT-4.5)"
            )
        hands_record: list[list[Card]] | None = None
        if hands is not None:
            if len(hands) != 4 or any(len(h) != 13 for h in hands):
                raise MalformedRecord("'hands' must be 4 lists of 13 cards (SAT-4.5)")
            hands_record = [list(h) for h in hands]
            deck_list = deck_from_hands(hands_record, dealer)
        elif deck is not None:
            deck_list = list(deck)
        else:
            raise MalformedRecord("a deal needs a deck or hands")
        hand_sets = _dealt_hands(deck_list, dealer)
        # SAT-4.6: the carried keys checked as a record's are (absent = start of a match;
        # ``passing`` with Trup Kasiet is malformed), whoever passes them in
        c = self.normalize_carry(carry or {}, variant)
        redeals, passing = c["redeals"], c["passing"]
        return SatatState(
            self, variant, dealer, deck_list, hand_sets, hands_record, redeals, passing
        )

    def normalize_carry(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """SAT-4.6: ``redeals`` (0–2) and ``passing`` (null or winners/cards)."""
        redeals = record.get("redeals", 0)
        if type(redeals) is not int or not 0 <= redeals <= 2:
            raise MalformedRecord(f"'redeals' must be an integer 0–2, not {json_repr(redeals)}")
        passing = record.get("passing")
        if passing is not None:
            ok = (
                isinstance(passing, Mapping)
                and set(passing) == {"winners", "cards"}
                and type(passing["winners"]) is int
                and passing["winners"] in (0, 1)
                and type(passing["cards"]) is int
                and passing["cards"] in (1, 2)
            )
            if not ok:
                raise MalformedRecord(
                    '\'passing\' must be null or {"winners": 0|1, "cards": 1|2}, '
                    f"not {json_repr(passing)}"
                )
            if variant["trup_kasiet"]:
                raise MalformedRecord("'passing' is not allowed in Trup Kasiet (SAT-4.6, SAT-15.7)")
            passing = {"winners": passing["winners"], "cards": passing["cards"]}
        return {"redeals": redeals, "passing": passing}

    def cards_aside(self, view: CardView) -> Aside:
        """Where the cards out of hand and unplayed are (:func:`.observe.cards_aside`)."""
        return cards_aside(view)

    def determinize(self, obs: Observation, rng: random.Random) -> SatatState:
        """A full deal consistent with ``obs``, built from ``obs`` alone
        (:mod:`.determinize`)."""
        return _determinize.determinize(self, obs, rng)

    def determinize_hands(self, obs: Observation, rng: random.Random) -> list[CardSet] | None:
        """In card play, the hands now of a deal drawn as :meth:`determinize` draws it and
        the trump maker's first five (:func:`.determinize.determinize_hands`); None before
        it, and while this seat does not know a Trup Kasiet trump card."""
        return _determinize.determinize_hands(self, obs, rng)

    def task(self, obs: Observation) -> Task | None:
        """The decision of ``obs``'s seat, from ``obs`` alone (:mod:`.task`)."""
        return task_of(obs)

    # --- matches --------------------------------------------------------------------------
    def new_match_keys(self, variant: Variant, rng: random.Random) -> dict[str, Any]:
        """SAT-3.1–SAT-3.3: draw cards until one seat has the unique highest."""
        return {"draw": scoring.new_draw(rng)}

    def check_match_keys(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """SAT-3.4/SAT-3.5: validate ``draw``; returns it in canonical notation."""
        if "draw" not in record:
            return {}
        return {"draw": scoring.check_draw(record["draw"])}

    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        """SAT-3.2: the first dealer sits on the right of the highest draw."""
        return scoring.start_match(match_keys)

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        """SAT-12 and SAT-13: count the deal, carry dealer, redeals and passing."""
        return scoring.count_deal(match, deal)

    def match_result(self, match: MatchState) -> dict[str, JSON]:
        """SAT-13.4: totals, sevens, thirteens, match_over, winner, draw."""
        out = super().match_result(match)
        out["sevens"] = list(match.extra.get("sevens", [0, 0]))
        out["thirteens"] = list(match.extra.get("thirteens", [0, 0]))
        return out


def _dealt_hands(deck: list[Card], dealer: int) -> list[CardSet]:
    """Each seat's 13 cards as a set, the deck checked on the way: 52 cards of the pack,
    each once (SAT-1.1, SAT-18.1)."""
    hand_sets: list[CardSet] = []
    if len(deck) == 52:
        try:  # SAT-4.2: fives, then fours twice — each seat's positions picked at once
            hand_sets = [sum(map(BIT.__getitem__, pick(deck))) for pick in DEAL_GET[dealer]]
        except (IndexError, TypeError):
            hand_sets = []
    # 52 one-card sets summing to the pack are 52 different cards (no carries); a
    # negative number would index BIT from the end, hence the min().
    if not hand_sets or sum(hand_sets) != DECK_52 or min(deck) < 0:
        raise MalformedRecord("'deck' must hold the 52 cards of the pack, each once (SAT-1.1)")
    return hand_sets
