"""A tiny four-seat trick game used only by the terminal tests.

It implements the whole engine API in a few lines (a bid phase with a private
``mark`` action, then tricks with follow-suit) so that the terminal client's
mechanics — prompts, short forms, hidden information, save/resume, match end — are
tested even in a checkout where no real game has landed yet. Rule IDs are ``TOY-n``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from folkcards.cards import SUIT_MASK, Card, iter_cards, mask_text, ranks_mask, suit_of
from folkcards.engine.actions import Action, ActionTable, Step, masked
from folkcards.engine.api import (
    DealState,
    Game,
    MatchState,
    Observation,
    SimpleDeal,
    Variant,
    VariantOption,
)

DECK = ranks_mask("AKQJ")
TEXTS = (
    ["pass", "mark"]
    + [f"bid {n}" for n in (1, 2, 3)]
    + [f"play {c}" for c in mask_text(DECK)]
    + [f"hide {c}" for c in mask_text(DECK)]
)


class ToyDeal(SimpleDeal):
    """A deal of the toy game: bids, one private ``hide`` by the top bidder, four tricks."""

    def __init__(self, game: ToyGame, variant: Variant, dealer: int, hands: list[int]) -> None:
        self.game = game
        self.variant = variant
        self.dealer = dealer
        self.num_seats = 4
        self.hands = hands
        self.start = list(hands)
        self.to_act: int | None = (dealer + 1) % 4
        self.phase = "bid"
        self.history: list[Action] = []
        self.actors: list[int] = []
        self._legal = None
        self.bids: list[int | None] = [None] * 4
        self.declarer: int | None = None
        self.hidden: Card | None = None
        self.trick: list[tuple[int, Card]] = []
        self.tricks = [0, 0]

    def _generate_legal(self) -> tuple[Action, ...]:
        t = self.game.table
        seat = self.to_act
        assert seat is not None
        if self.phase == "bid":
            top = max((b for b in self.bids if b is not None), default=0)
            return tuple(
                sorted([t["pass"]] + [t[f"bid {n}"] for n in (1, 2, 3) if n > top], key=int)
            )
        if self.phase == "hide":
            return tuple(t[f"hide {c}"] for c in mask_text(self.hands[seat]))
        hand = self.hands[seat]
        if self.trick:
            same = hand & SUIT_MASK[suit_of(self.trick[0][1])]
            if same:
                hand = same
        return tuple(t[f"play {c}"] for c in mask_text(hand))

    def _apply(self, action: Action) -> None:
        seat = self.to_act
        assert seat is not None
        verb, *args = action.text.split()
        if self.phase == "bid":
            self.bids[seat] = int(args[0]) if verb == "bid" else 0
            if all(b is not None for b in self.bids):
                best = max(range(4), key=lambda s: (self.bids[s] or 0, -((s - self.dealer) % 4)))
                self.declarer = best
                self.phase, self.to_act = "hide", best
            else:
                self.to_act = (seat + 1) % 4
            return
        card = self.game.deck_index[args[0]]
        if self.phase == "hide":
            self.hidden = card
            self.phase, self.to_act = "play", (self.dealer + 1) % 4
            return
        self.hands[seat] &= ~(1 << card)
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        led = suit_of(self.trick[0][1])
        win = min(
            (p for p in self.trick if suit_of(p[1]) == led),
            key=lambda p: p[1],
        )[0]
        self.tricks[win % 2] += 1
        self.trick = []
        self.to_act = None if sum(self.tricks) == 4 else win

    def explain_illegal(self, action: Action) -> str:
        if self.to_act is None:
            return "the deal is over (TOY-9)"
        verb, *args = action.text.split()
        if self.phase == "play" and verb == "play":
            card = self.game.deck_index[args[0]]
            if not self.hands[self.to_act] >> card & 1:
                return f"{args[0]} is not in your hand (TOY-3)"
            return f"{args[0]}: you must follow suit (TOY-4)"
        return f"{action.text!r} is not allowed in phase {self.phase} (TOY-2)"

    def result(self) -> dict[str, Any]:
        if self.to_act is not None:
            raise ValueError("the deal is not over")
        win = (
            0 if self.tricks[0] > self.tricks[1] else 1 if self.tricks[1] > self.tricks[0] else None
        )
        score = [0, 0]
        if win is not None:
            score[win] = 1
        return {"score": score, "tricks": list(self.tricks), "declarer": self.declarer}

    def observation(self, seat: int) -> Observation:
        history: list[Step] = []
        for a, who in zip(self.history, self.actors, strict=True):
            if a.step.kind == "hide" and who != seat:
                history.append(masked("hide ?"))  # only the hider sees the card hidden
            else:
                history.append(a.step)
        info: dict[str, Any] = {
            "bids": list(self.bids),
            "declarer": self.declarer,
            "trick": [mask_text(1 << c)[0] for _, c in self.trick],
            "tricks": list(self.tricks),
        }
        if seat == self.declarer and self.hidden is not None:
            info["hidden"] = mask_text(1 << self.hidden)[0]
        return Observation(
            game=self.game.name,
            variant=self.variant,
            seat=seat,
            num_seats=4,
            dealer=self.dealer,
            phase=self.phase if self.to_act is not None else "over",
            to_act=self.to_act,
            hand=self.hands[seat],
            legal=self.legal_actions() if seat == self.to_act else (),
            history=tuple(history),
            actors=tuple(self.actors),
            info=info,
            result=self.result() if self.to_act is None else None,
        )

    def public_observation(self) -> Observation:
        obs = self.observation(-1)
        info = dict(obs.info)
        info.pop("hidden", None)
        from dataclasses import replace

        return replace(obs, hand=0, legal=(), info=info)

    def clone(self) -> ToyDeal:
        other = ToyDeal(self.game, self.variant, self.dealer, list(self.start))
        for a in self.history:
            other.apply(a)
        return other

    def setup_record(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "hands": [mask_text(h) for h in self.start]}


class ToyGame(Game):
    """The toy game's facts: 16 cards, four seats in two teams, first team to ``target`` wins."""

    name = "toy"
    title = "Toy tricks"
    deck = DECK
    variant_options = (VariantOption("target", 2, "deals to win", minimum=1),)

    def __init__(self) -> None:
        self.table = ActionTable(TEXTS, DECK)
        self.deck_index = {mask_text(1 << c)[0]: c for c in iter_cards(DECK)}

    def parse_action(self, text: str, variant: Variant) -> Action:
        return self.table.parse(text)

    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> ToyDeal:
        if hands is None:
            assert deck is not None
            hands = [deck[4 * s : 4 * s + 4] for s in range(4)]
        masks = [sum(1 << c for c in h) for h in hands]
        return ToyDeal(self, variant, dealer, masks)

    def determinize(self, obs: Observation, rng: random.Random) -> DealState:
        raise NotImplementedError

    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        return MatchState(totals=[0, 0], next_dealer=None, carry={})

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        res = deal.result()
        totals = [a + b for a, b in zip(match.totals, res["score"], strict=True)]
        target = deal.variant["target"]
        over = max(totals) >= target
        winner = totals.index(max(totals)) if over else None
        return MatchState(totals, (deal.dealer + 1) % 4, {}, over, winner, False, match.deals + 1)


GAME = ToyGame()


def install() -> None:
    """Register the toy game in the registry of this process."""
    from folkcards.games import GAMES

    GAMES.setdefault("toy", GAME)
