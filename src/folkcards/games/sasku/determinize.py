"""``determinize``: a full Sasku deal consistent with one seat's observation (SAS-19).

Built from the :class:`~folkcards.engine.api.Observation` alone, on the engine's kit
(:mod:`folkcards.engine.determinize`):

1. **Facts** (:class:`Facts`, read once per observation): the public history walked to
   learn who holds which known card now — the observer's hand, the cards dealt face up
   (SAS-6.4), the given picture (SAS-7.3), a return the observer saw (SAS-7.7) — the cards
   each seat played, what each seat cannot hold (voids and failures to beat read from the
   play, :func:`play_exclusions`), the exact number of pictures of each seat asked in the
   exchange (SAS-7.1: a giver has none once it gave, a seat that kept has one, two if its
   partner then gave it a picture), bid lengths (SAS-8.4) and the named trump's length
   (SAS-9.1).
2. **A draw**: a hidden return's card is chosen first (it fixes a card in the giver's
   hand), then the current hands are dealt under the facts (:class:`Constraints`); where
   plain draws keep missing a seat's bid length, later draws deal it enough potential
   trumps of a suit first.
3. **The rebuild**: the hands after the exchange (current hands plus cards played) have
   the exchanges undone into the dealt hands, which are laid out as the record's deck (the
   dealing method's positions, face-up cards in place, SAS-6.3) or its hands; the history
   is replayed through the rules — which checks every condition left exactly (a skipped
   seat was not eligible, every bid and play legal) — and the world's observation must be
   the one given. A world that fails is drawn again.

In card play, :func:`determinize_hands` makes the same draws and returns only the hands
now, for a batched search: each draw gets the verdict step 3 would give it, by the dealing
positions and the decisions before the first card replayed from the dealt hands
(:func:`_check`), without laying the deal out or replaying its cards.

The history is read through its :class:`~folkcards.engine.actions.Step` entries — verb,
cards, number, suit, whether the card is hidden — and replayed with each visible entry's own
``action``; no history text is parsed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from folkcards.cards import BIT, SUITS, Card, CardSet, card_of, cards_list
from folkcards.engine.actions import Action, Step
from folkcards.engine.api import IllegalAction, Observation
from folkcards.engine.determinize import (
    Constraints,
    Infeasible,
    LastRead,
    Reject,
    rejection_sample,
)
from folkcards.engine.tricks import TrumpConfig

from .actions import RETURN
from .deal import SaskuState
from .fast import shuffled_pack
from .rules import (
    CUT,
    DEAL_SLOTS,
    DECK,
    DIAMONDS_SUIT,
    EXCHANGE,
    PICTURES,
    PLAY_PHASE,
    SUIT_CARDS,
    SUIT_CARDS_OF,
    TRUMP_CONFIGS,
    TRUMPS_OF,
    hand_length,
    potential_trumps,
)

if TYPE_CHECKING:
    from .game import SaskuGame

MAX_DRAWS = 3000
"""Draws before giving up on an observation (the median observation needs one)."""
PLAIN_DRAWS = 2
"""Draws that leave bid lengths to chance before the draws that steer them."""


def play_exclusions(
    history: Sequence[Step], actors: Sequence[int], config: TrumpConfig, must_beat: bool
) -> list[CardSet]:
    """Per seat, the cards its public plays show it does not hold (now or later).

    A follower who did not follow the led class is void in it, and void in trumps too when
    it did not trump (SAS-10.3); with ``must_beat`` (SAS-17.2) a follower whose card did
    not beat the winning card holds no card of the class it played that would have. The
    determinizer and the heuristic bot's inference both read the play this way, from the
    ``play`` steps of an observation's history (every card played is public, SAS-19.1).
    """
    out = [0, 0, 0, 0]
    trick: list[Card] = []
    winning = -1
    for step, actor in zip(history, actors, strict=True):
        if step.kind != "play":
            continue
        c = step.cards[0]
        if not trick:
            winning = c
        else:
            led_class = config.class_of[trick[0]]
            if not led_class >> c & 1:
                out[actor] |= led_class  # void in the led class
                if not config.trumps >> c & 1:
                    out[actor] |= config.trumps  # ... and in trumps
            beaten = config.beats[winning]
            if beaten >> c & 1:
                winning = c
            elif must_beat:  # it had no card of the class it played that beats
                if led_class >> c & 1:
                    out[actor] |= led_class & beaten
                elif config.trumps >> c & 1:
                    out[actor] |= config.trumps & beaten
        trick.append(c)
        if len(trick) == 4:
            trick = []
    return out


@dataclass
class Exchange:
    """One lone-picture exchange as the observer saw it (SAS-7.3, SAS-7.4)."""

    giver: int
    picture: Card
    returner: int
    returned: Card | None = None
    """The returned card when the observer saw it (a giver, a returner), else None."""
    done: bool = False
    """The return has been made (seen or not)."""


@dataclass
class Facts:
    """What one observation says about the hidden hands (see the module docstring)."""

    me: int
    method: str | None
    face_up: list[Card]
    """The cards dealt face up by ``deal to X``, in deck order (SAS-6.4)."""
    face_up_of: list[CardSet]
    sizes: list[int]
    known: list[CardSet] = field(default_factory=lambda: [0] * 4)
    played: list[CardSet] = field(default_factory=lambda: [0] * 4)
    forbidden: list[CardSet] = field(default_factory=lambda: [0] * 4)
    pictures: list[int | None] = field(default_factory=lambda: [None] * 4)
    """Exact pictures of a seat's hand after the exchange (current hand + cards played)."""
    max_bid: list[int] = field(default_factory=lambda: [0] * 4)
    claim: tuple[int, int, int] | None = None
    """(declarer, suit, bid) of a named C, S or H: potential trumps ≥ bid (SAS-9.1)."""
    exchanges: list[Exchange] = field(default_factory=list)

    @classmethod
    def of(cls, obs: Observation) -> Facts:
        """The facts of ``obs``: one walk through its public history."""
        info = obs.info
        face_up = [(card_of(c), s) for c, s in info["face_up"]]
        face_up_of = [0, 0, 0, 0]
        for c, s in face_up:
            face_up_of[s] |= BIT[c]
        dealt_face_up = [c for c, _ in face_up]
        facts = cls(obs.seat, info["deal"], dealt_face_up, face_up_of, list(info["hand_sizes"]))
        owner = dict(face_up)  # SAS-6.4: who received each card dealt face up
        facts._walk(obs, owner)
        if info["trump"] is not None:  # play starts once the trump is fixed: it rules all tricks
            config = TRUMP_CONFIGS[SUITS.index(info["trump"])]
            must_beat = obs.variant["must_beat"]
            facts.forbidden = play_exclusions(obs.history, obs.actors, config, must_beat)
        for c, s in owner.items():
            facts.known[s] |= BIT[c]
        facts.known[obs.seat] = obs.hand
        return facts

    def _walk(self, obs: Observation, owner: dict[Card, int]) -> None:
        """Follow the public history: known cards moving, plays, bids, exchanges."""
        kept = [False] * 4
        received_later = [False] * 4
        high_bid = 0
        for step, actor in zip(obs.history, obs.actors, strict=True):
            kind = step.kind
            if kind == "play":
                c = step.cards[0]
                self.played[actor] |= BIT[c]
                owner.pop(c, None)
            elif kind == "give":  # SAS-7.3: the lone picture, face up to the partner
                partner = (actor + 2) & 3
                picture = step.cards[0]
                owner[picture] = partner
                self.exchanges.append(Exchange(actor, picture, partner))
                if kept[partner]:
                    received_later[partner] = True
            elif kind == "return":  # SAS-7.4, SAS-7.7: seen by the giver and returner only
                ex = self.exchanges[-1]
                ex.done = True
                if not step.hidden:
                    ex.returned = step.cards[0]
                    owner[ex.returned] = ex.giver
            elif kind == "keep":
                kept[actor] = True
            elif kind == "bid":  # SAS-8.4: the bid is at most the hand's length
                bid = step.number
                assert bid is not None  # ``bid N`` names its number (SAS-8.3, SAS-8.4)
                high_bid = bid
                self.max_bid[actor] = max(self.max_bid[actor], high_bid)
            elif kind == "trump":
                suit = step.suit
                assert suit is not None  # ``trump X`` names its suit (SAS-9.1)
                x = SUITS.index(suit)
                if x != DIAMONDS_SUIT:
                    self.claim = (actor, x, high_bid)  # SAS-9.1: potential ≥ bid
        for c in [c for c, s in owner.items() if s == self.me]:
            del owner[c]
        for ex in self.exchanges:  # SAS-7.1: the giver gave its one picture away
            self.pictures[ex.giver] = 0
        for s in range(4):
            if kept[s]:  # one picture, two if its partner gave it one afterwards
                self.pictures[s] = 2 if received_later[s] else 1
        asked = obs.to_act
        pending = bool(self.exchanges) and not self.exchanges[-1].done
        if obs.phase == EXCHANGE and asked is not None and not pending:
            self.pictures[asked] = 1  # the seat asked now holds one picture (SAS-7.1)

    def constraints(self) -> Constraints:
        """The current hands as constraints: sizes, known cards, what a seat cannot hold,
        exact picture counts (of the hand after the exchange, less the pictures played)."""
        played = self.played[0] | self.played[1] | self.played[2] | self.played[3]
        cons = Constraints(DECK & ~played, self.sizes)
        for s in range(4):
            cons.hold(s, self.known[s])
            if s == self.me:
                continue
            cons.cannot_hold(s, self.forbidden[s])
            exact = self.pictures[s]
            if exact is not None:
                cons.exactly(s, PICTURES, exact - (self.played[s] & PICTURES).bit_count())
        return cons

    def fits(self, seat: int, after_exchange: CardSet) -> bool:
        """The seat's bids and named trump on its hand after the exchange: length ≥ each
        bid (SAS-8.4), potential trumps in the named suit ≥ the bid (SAS-9.1)."""
        if self.max_bid[seat] and hand_length(after_exchange) < self.max_bid[seat]:
            return False
        claim = self.claim
        return not (
            claim is not None
            and claim[0] == seat
            and potential_trumps(after_exchange, claim[1]) < claim[2]
        )


def _choose_returns(facts: Facts, cons: Constraints, rng: random.Random) -> dict[int, Card]:
    """The card of each return hidden from the observer (by exchange index), placed in the
    giver's hand: a card of the returner's dealt face up that the giver played must be it;
    else any suit card the giver may hold now or played, not one dealt to the giver face up
    — a card of the returner's dealt face up included, which then moves (SAS-7.4)."""
    returned: dict[int, Card] = {}
    for idx, ex in enumerate(facts.exchanges):
        if not ex.done or ex.returned is not None:
            continue
        g, r = ex.giver, ex.returner
        fu_r = facts.face_up_of[r] & SUIT_CARDS
        candidates = facts.played[g] & fu_r
        if not candidates:
            candidates = (
                (facts.played[g] & SUIT_CARDS & ~facts.face_up_of[g])
                | (cons.pool & SUIT_CARDS & ~facts.forbidden[g])
                | (fu_r & cons.known[r] & ~facts.forbidden[g])
            )
        if not candidates:
            raise Reject("no card can have been returned")
        x = rng.choice(cards_list(candidates))
        returned[idx] = x
        if cons.known[r] >> x & 1:
            cons.release(r, BIT[x])
        if not facts.played[g] >> x & 1:
            cons.hold(g, BIT[x])
    return returned


def _steer(facts: Facts, cons: Constraints, rng: random.Random) -> None:
    """Deal each bidder enough potential trumps of one suit for its bids (SAS-8.4): the
    named trump's suit for the declarer (SAS-9.1), a random suit for the others."""
    for s in range(4):
        length = facts.max_bid[s]
        if s == facts.me or not length:
            continue
        claim = facts.claim
        suit = claim[1] if claim is not None and claim[0] == s else rng.randrange(4)
        exact = facts.pictures[s]
        kind = TRUMPS_OF[suit] if exact is None else SUIT_CARDS_OF[suit]
        want = length - (exact or 0) - (facts.played[s] & kind).bit_count()
        if want > 0:
            cons.at_least(s, kind, want)


def _undo_exchanges(
    facts: Facts, after: list[CardSet], returned: dict[int, Card]
) -> tuple[list[CardSet], list[Action]]:
    """The dealt hands from the hands after the exchange, and the action of each hidden
    return (``return ?``, SAS-7.7) with its drawn card, in the history's order (SAS-7.3,
    SAS-7.4)."""
    dealt = after.copy()
    hidden: list[Action] = []
    for idx, ex in enumerate(facts.exchanges):
        g, p, r = ex.giver, BIT[ex.picture], ex.returner
        if not ex.done:  # the picture is given, the return still to come
            dealt[g] |= p
            dealt[r] &= ~p
            continue
        x = ex.returned
        if x is None:
            x = returned[idx]
            hidden.append(RETURN[x])
        dealt[g] = dealt[g] & ~BIT[x] | p
        dealt[r] = dealt[r] & ~p | BIT[x]
    if any(h.bit_count() != 9 for h in dealt):
        raise Reject("dealt hands")
    return dealt, hidden


def _new_deal(
    game: SaskuGame, obs: Observation, facts: Facts, dealt: list[CardSet], rng: random.Random
) -> SaskuState:
    """The deal with these dealt hands: a record's hands in a random received order, or a
    deck with the face-up cards in place and each seat's other cards in its positions of
    the dealing method (SAS-6.3, SAS-6.4)."""
    variant, carry = dict(obs.variant), dict(obs.carry)
    if facts.method is None:  # a record that gave hands (SAS-6.6)
        lists = []
        for hand in dealt:
            cards = cards_list(hand)
            rng.shuffle(cards)
            lists.append(cards)
        return game.new_deal(variant, obs.dealer, None, hands=lists, carry=carry)
    deck: list[Card] = [-1] * 36
    deck[: len(facts.face_up)] = facts.face_up
    slots = DEAL_SLOTS[facts.method]
    for s in range(4):
        free = [i for i in slots[(s - obs.dealer) & 3] if deck[i] < 0]
        cards = cards_list(dealt[s] & ~facts.face_up_of[s])
        if len(cards) != len(free):
            raise Reject("face-up cards")
        rng.shuffle(cards)
        for i, c in zip(free, cards, strict=True):
            deck[i] = c
    return game.new_deal(variant, obs.dealer, deck, carry=carry)


def _replay(state: SaskuState, history: Sequence[Step], hidden: Sequence[Action]) -> None:
    """The history through the rules, each visible step as its own ``action`` and each
    hidden return (``return ?``) as the next action of ``hidden``: every condition it
    implies is checked exactly."""
    returns = iter(hidden)
    try:
        for step in history:
            action = step.action
            state.apply(next(returns) if action is None else action)
    except IllegalAction as exc:
        raise Reject(str(exc)) from None


@dataclass
class _Prepared:
    """An observation read for drawing: its facts, their constraints, and what the draws
    must do besides (choose a hidden return's card, steer bid lengths)."""

    facts: Facts
    base: Constraints
    hidden_return: bool
    steer: bool
    before_play: tuple[Step, ...]
    """The history before the first card, less the cut (for :func:`_check`)."""
    free: tuple[int, ...] | None
    """Per seat, the deck positions its dealing method gives it that no face-up card
    fills (SAS-6.3, SAS-6.4); None for a record that gave hands."""
    replay: dict[str, Any] | None
    """The tied deal's trump and declarer in a replay deal (SAS-15.2), else None."""

    @classmethod
    def of(cls, obs: Observation) -> _Prepared:
        facts = Facts.of(obs)
        base = facts.constraints()
        hidden_return = any(ex.done and ex.returned is None for ex in facts.exchanges)
        if not hidden_return and not base.feasible():
            raise Infeasible("no deal holds the cards this observation shows (determinize)")
        steer = any(facts.max_bid[s] for s in range(4) if s != facts.me)
        before: list[Step] = []
        for step in obs.history:
            if step.kind == "play":
                break
            if step.kind != "deal":
                before.append(step)
        free = None
        if facts.method is not None:
            slots, shown = DEAL_SLOTS[facts.method], len(facts.face_up)
            free = tuple(
                sum(1 for i in slots[(s - obs.dealer) & 3] if i >= shown) for s in range(4)
            )
        carried = obs.carry.get("replay")
        replay = None if carried is None else dict(carried)
        return cls(facts, base, hidden_return, steer, tuple(before), free, replay)


_prepared: LastRead[_Prepared] = LastRead(_Prepared.of)
"""The last observation read: a search bot draws many worlds from one."""


@dataclass
class _Draw:
    """One draw of the hidden cards: the hands now, the hands as dealt, and the cards of
    the hidden returns (``return ?``) as actions, in the history's order."""

    hands: list[CardSet]
    dealt: list[CardSet]
    hidden: list[Action]


def _draw(prepared: _Prepared, rng: random.Random, k: int) -> _Draw:
    """Draw ``k`` of an observation (step 2 of the module docstring): the hidden returns'
    cards, the current hands under the facts, the bid lengths, the exchanges undone."""
    facts = prepared.facts
    cons = prepared.base.copy()
    returned = _choose_returns(facts, cons, rng) if prepared.hidden_return else {}
    if prepared.steer and k >= PLAIN_DRAWS:
        _steer(facts, cons, rng)
    hands = cons.draw(rng)
    after = [hand | played for hand, played in zip(hands, facts.played, strict=True)]
    if not all(facts.fits(s, after[s]) for s in range(4) if s != facts.me):
        raise Reject("no hand fits a seat's bids")
    dealt, hidden = _undo_exchanges(facts, after, returned)
    return _Draw(hands, dealt, hidden)


def _build(
    game: SaskuGame, obs: Observation, prepared: _Prepared, draw: _Draw, rng: random.Random
) -> SaskuState:
    """The deal of a draw, rebuilt and replayed through the rules (step 3 of the module
    docstring): :class:`Reject` unless its observation is ``obs``."""
    state = _new_deal(game, obs, prepared.facts, draw.dealt, rng)
    _replay(state, obs.history, draw.hidden)
    if state.observation(prepared.facts.me) != obs:
        raise Reject("observation differs")
    return state


def _check(game: SaskuGame, obs: Observation, prepared: _Prepared, draw: _Draw) -> None:
    """The verdict of :func:`_build` on a draw of a card-play observation, without building
    the deal: :class:`Reject` exactly when :func:`_build` would reject it.

    What :func:`_build` checks beyond the facts is the dealing method's positions for the
    cards not dealt face up (SAS-6.3) and the decisions before card play: which seats the
    exchange asked (SAS-7.1, SAS-7.2, SAS-7.5), the picture given (SAS-7.3), the bids
    (SAS-8.4), the trump named (SAS-9.1). Those are checked here by the rules themselves,
    on a deal that starts from the dealt hands (:meth:`SaskuState.from_dealt`) and replays
    the history up to the first card, after which the card play must have begun. The cards played need no replay: every card played is
    public (SAS-19.1) and the facts already forbid each seat every card its plays show it
    lacks (:func:`play_exclusions`), which is the whole of SAS-10.3 and SAS-17.2, so a hand
    drawn under them makes every play of the history legal; the observation then follows
    from the facts (the known cards, sizes and exchanges). ``tests/sasku`` compares the two
    verdicts draw by draw."""
    free = prepared.free
    if free is not None:
        face_up_of = prepared.facts.face_up_of
        for s in range(4):
            if (draw.dealt[s] & ~face_up_of[s]).bit_count() != free[s]:
                raise Reject("face-up cards")
    state = SaskuState.from_dealt(game, obs.variant, obs.dealer, draw.dealt, prepared.replay)
    _replay(state, prepared.before_play, draw.hidden)
    if state.phase != PLAY_PHASE:  # e.g. the exchange would still ask a seat (SAS-7.2)
        raise Reject(f"the card play would not have begun: phase {state.phase}")


def determinize(game: SaskuGame, obs: Observation, rng: random.Random) -> SaskuState:
    """A full deal whose ``observation(obs.seat)`` equals ``obs`` (see the module docstring).

    :class:`~folkcards.engine.determinize.DeterminizeError` when no draw succeeds;
    :class:`~folkcards.engine.determinize.Infeasible` at once when the cards the
    observation shows admit no deal at all.
    """
    if obs.phase == CUT and not obs.history:  # nothing dealt yet: any pack (SAS-6.1)
        return game.new_deal(dict(obs.variant), obs.dealer, shuffled_pack(rng), carry=obs.carry)
    prepared = _prepared(obs)

    def attempt(rng: random.Random, k: int) -> SaskuState:
        return _build(game, obs, prepared, _draw(prepared, rng, k), rng)

    return rejection_sample(attempt, rng, MAX_DRAWS, "this Sasku observation")


def determinize_hands(game: SaskuGame, obs: Observation, rng: random.Random) -> list[CardSet]:
    """The hands now of a deal drawn as :func:`determinize` draws it for a card-play
    observation, without the deal: the same draws with the same verdicts (:func:`_check`),
    so the same distribution, at about half the cost. A batched search that needs only the
    hands of its sampled deals (``GameKernel.encode_hands``) draws them this way.
    ValueError outside card play."""
    if obs.phase != PLAY_PHASE:
        raise ValueError(f"hands alone are drawn in card play, not in phase {obs.phase!r}")
    prepared = _prepared(obs)

    def attempt(rng: random.Random, k: int) -> list[CardSet]:
        draw = _draw(prepared, rng, k)
        _check(game, obs, prepared, draw)
        return draw.hands

    return rejection_sample(attempt, rng, MAX_DRAWS, "this Sasku observation")
