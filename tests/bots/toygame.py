"""A tiny trick game on the engine API, so the bots and tournaments are tested on a game
that exists whatever else is registered: 4 seats in two teams, 16 cards (A K Q J), one
hidden card passed between partners, a trump choice, four tricks with follow-suit."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from folkcards.cards import CARD_NAMES, SUIT_MASK, Card, iter_cards, mask_text, ranks_mask
from folkcards.engine.actions import Action, ActionTable
from folkcards.engine.api import (
    JSON,
    SPECTATOR,
    DealState,
    Game,
    MatchState,
    Observation,
    SimpleDeal,
    Variant,
    VariantOption,
)
from folkcards.engine.card import NO_TRUMP, GameCard, suit_run, teams

DECK = ranks_mask("AKQJ")
TEXTS = (
    [f"give {CARD_NAMES[c]}" for c in iter_cards(DECK)]
    + [f"play {CARD_NAMES[c]}" for c in iter_cards(DECK)]
    + [f"trump {s}" for s in "CSHD"]
    + ["notrump"]
)
TABLE = ActionTable(TEXTS, DECK)


class ToyState(SimpleDeal):
    """A deal of the toy game (phases ``give``, ``trump``, ``play``)."""

    def __init__(self, game: ToyGame, variant: Variant, dealer: int, hands: list[int]) -> None:
        self.game = game
        self.variant = variant
        self.dealer = dealer
        self.num_seats = 4
        self.hands = hands
        self.start = list(hands)
        self.phase = "give"
        self.to_act: int | None = (dealer + 1) % 4
        self.history: list[Action] = []
        self.actors: list[int] = []
        self._legal = None
        self.trump: int | None = None
        self.trick: list[tuple[int, Card]] = []
        self.tricks = [0, 0]
        self.given: list[tuple[int, Card]] = []
        self.played = 0

    def _generate_legal(self) -> tuple[Action, ...]:
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        if self.phase == "give":
            if self.given:  # the card received cannot go straight back
                hand &= ~(1 << self.given[0][1])
            return tuple(TABLE[f"give {CARD_NAMES[c]}"] for c in iter_cards(hand))
        if self.phase == "trump":
            return tuple(TABLE[t] for t in ["notrump"] + [f"trump {s}" for s in "CSHD"])
        cards = hand
        if self.trick:
            suit = SUIT_MASK[self.trick[0][1] // 13]
            if hand & suit:
                cards = hand & suit
        return tuple(TABLE[f"play {CARD_NAMES[c]}"] for c in iter_cards(cards))

    def _apply(self, action: Action) -> None:
        seat = self.to_act
        assert seat is not None
        verb, _, arg = action.text.partition(" ")
        if verb == "give":
            c = CARD_NAMES.index(arg)
            self.hands[seat] &= ~(1 << c)
            self.hands[(seat + 2) % 4] |= 1 << c
            self.given.append((seat, c))
            if len(self.given) == 2:
                self.phase = "trump"
            self.to_act = (seat + 2) % 4
            return
        if verb in ("trump", "notrump"):
            self.trump = "CSHD".index(arg) if arg else None
            self.phase = "play"
            return
        c = CARD_NAMES.index(arg)
        self.hands[seat] &= ~(1 << c)
        self.played |= 1 << c
        self.trick.append((seat, c))
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        led = self.trick[0][1] // 13

        def power(c: Card) -> int:
            return (200 if c // 13 == self.trump else 100 if c // 13 == led else 0) - c % 13

        winner = max(self.trick, key=lambda sc: power(sc[1]))[0]
        self.tricks[winner % 2] += 1
        self.trick = []
        self.to_act = None if sum(self.tricks) == 4 else winner

    def explain_illegal(self, action: Action) -> str:
        return f"{action.text} is not legal now (TOY-1)"

    def result(self) -> dict[str, JSON]:
        if self.to_act is not None:
            raise ValueError("the deal is not over")
        t0, t1 = self.tricks
        return {"score": [int(t0 > t1), int(t1 > t0)], "tricks": list(self.tricks)}

    def observation(self, seat: int) -> Observation:
        history = tuple(
            "give ?" if a.text.startswith("give") and seat % 2 != self.actors[i] % 2 else a.text
            for i, a in enumerate(self.history)
        )
        mine = seat % 2 == (self.dealer + 1) % 2
        info: dict[str, Any] = {
            "trump": None if self.trump is None else "CSHD"[self.trump],
            "trick": [[s, CARD_NAMES[c]] for s, c in self.trick],
            "tricks": list(self.tricks),
            "played": mask_text(self.played),
            "given": [[g, CARD_NAMES[c]] for g, c in self.given] if mine else [],
            "hand_sizes": [h.bit_count() for h in self.hands],
        }
        return Observation(
            game="toy",
            variant=dict(self.variant),
            seat=seat,
            num_seats=4,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            hand=self.hands[seat],
            legal=self.legal_actions() if seat == self.to_act else (),
            history=history,
            actors=tuple(self.actors),
            info=info,
            result=self.result() if self.to_act is None else None,
        )

    def public_observation(self) -> Observation:
        """A spectator's view: no hand, every passed card hidden (``give ?``)."""
        obs = self.observation(0)
        return Observation(
            game="toy",
            variant=obs.variant,
            seat=SPECTATOR,
            num_seats=4,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            hand=0,
            legal=(),
            history=tuple("give ?" if t.startswith("give") else t for t in obs.history),
            actors=obs.actors,
            info={**obs.info, "given": []},
            result=obs.result,
        )

    def clone(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        other.__dict__.update(self.__dict__)
        other.hands = list(self.hands)
        other.history = list(self.history)
        other.actors = list(self.actors)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other.given = list(self.given)
        return other

    def setup_record(self) -> dict[str, JSON]:
        return {"dealer": self.dealer, "hands": [mask_text(h) for h in self.start]}


class ToyGame(Game):
    """The toy game's facts."""

    name = "toy"
    title = "Toy"
    deck = DECK
    variant_options = (VariantOption("spare", False, "an option that changes nothing"),)

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        # a singleton like the registered games, but not in folkcards.games.GAMES (where
        # Game.__reduce__ looks): a pickled toy state (a tournament worker's) finds it here
        return (_the_game, ())

    def parse_action(self, text: str, variant: Variant) -> Action:
        return TABLE.parse(text)

    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """The toy's game card: two teams, a deal's score 1-0 (no finer shaping key, so the
        bots shape utilities by the score on ``margin_scale``)."""
        return GameCard(
            name=self.name,
            title=self.title,
            variant=self.normalize_variant(variant),
            seats=4,
            sides=teams(4, True),
            partnership=True,
            direction="clockwise",
            deck=DECK,
            pack="french",
            phases=("give", "trump", "play"),
            utility_bounds=(0, 1),
            margin_scale=5.0,
            shaping=None,
            suit_order="CSHD",
            suit_ranks={x: suit_run("AKQJ", x) for x in "CSHD"},
            trump_groups={NO_TRUMP: ()},
            table_keys=("trump", "trick", "tricks"),
            rules="toy",
        )

    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> ToyState:
        if hands is None:
            assert deck is not None
            hands = [deck[4 * i : 4 * i + 4] for i in range(4)]
        return ToyState(self, variant, dealer, [sum(1 << c for c in h) for h in hands])

    def determinize(self, obs: Observation, rng: random.Random) -> ToyState:
        state = ToyState(self, obs.variant, obs.dealer, [0, 0, 0, 0])
        info = obs.info
        known = obs.hand | sum(1 << CARD_NAMES.index(t) for t in info["played"])
        for _, t in info["trick"]:
            known |= 1 << CARD_NAMES.index(t)
        sizes = list(info["hand_sizes"])
        state.hands[obs.seat] = obs.hand
        fixed = [0, 0, 0, 0]
        for giver, text in info["given"]:
            c = CARD_NAMES.index(text)
            receiver = (giver + 2) % 4
            if not known >> c & 1 and receiver != obs.seat:
                fixed[receiver] |= 1 << c
                known |= 1 << c
        state.given = [(g, CARD_NAMES.index(t)) for g, t in info["given"]]
        pool = [c for c in iter_cards(DECK) if not known >> c & 1]
        rng.shuffle(pool)
        for s in range(4):
            if s == obs.seat:
                continue
            need = sizes[s] - fixed[s].bit_count()
            state.hands[s] = fixed[s] | sum(1 << c for c in pool[:need])
            pool = pool[need:]
        state.phase = obs.phase
        state.to_act = obs.to_act
        state.trump = None if info["trump"] is None else "CSHD".index(info["trump"])
        state.trick = [(s, CARD_NAMES.index(t)) for s, t in info["trick"]]
        state.tricks = list(info["tricks"])
        state.played = sum(1 << CARD_NAMES.index(t) for t in info["played"])
        return state

    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        return MatchState(totals=[0, 0], next_dealer=None, carry={})

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        score = deal.result()["score"]
        totals = [match.totals[i] + score[i] for i in range(2)]
        over = max(totals) >= 3 and totals[0] != totals[1]
        winner = totals.index(max(totals)) if over else None
        return MatchState(
            totals=totals,
            next_dealer=(deal.dealer + 1) % 4,
            carry={},
            over=over,
            winner=winner,
            deals=match.deals + 1,
        )


GAME = ToyGame()


def _the_game() -> ToyGame:
    return GAME
