"""``determinize``: a full Sheepshead deal consistent with one observation (SHP-13.1).

Built from the :class:`~folkcards.engine.api.Observation` alone — a seat's, or a
spectator's public one — on the engine's kit (:mod:`folkcards.engine.determinize`):

1. **Facts** (:class:`Facts`, read once per observation): the call as ``info`` states it,
   and the public history walked — who played what, the voids it revealed (SHP-7.3), the
   picker's buries as the observer saw them, the trick in progress, whether the called
   suit has been led and the called card played, the picker's discards of the called suit.
2. **Constraints** (:func:`constraints`): the places that hold the hidden cards — the other
   seats' hands, the picker's bury while the observer sees it as ``bury ?``, the blind
   while nobody has taken it or seen it — each the size the observation shows. A seat that
   did not follow cannot hold the led suit (SHP-7.3); the picker holds neither the called
   card in hand nor in bury, and a ten call means it holds every fail ace still hidden
   (SHP-6.2–6.4); the called card is never buried, nor with a seat that played to the
   current trick led in its suit without it (SHP-6.6, SHP-7.6.1); the picker still holds a
   card of the called suit while its history needs one (SHP-6.2, SHP-7.5: ``at_least``).
   The kit draws them (Hall's condition: never a dead end).
3. **The rebuild** (:func:`_rebuild`): each seat's six cards (held now or played), the
   blind — when nobody saw it after the pick, two of the picker's eight cards, uniformly —
   then the history replayed through the rules with each ``bury ?`` a card of the drawn
   bury; a world the rules refuse, or whose observation differs from the one given, is
   drawn again (:func:`~folkcards.engine.determinize.rejection_sample`).

The history is read through its :class:`~folkcards.engine.actions.Step` entries (verb,
cards, whether the card is hidden) and replayed with each visible entry's own ``action``;
no history text is parsed.

Distribution: with no void or call constraint binding, the draw is a uniform deal of the
hidden cards. The hold card (SHP-6.2/7.5) is drawn as one card of the called suit first,
so picker hands with more of that suit come out a little more often than uniformly — as
before the kit, whose sampler forced one such card the same way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from folkcards.cards import BIT, DECK_32, Card, CardSet, cards_list, parse_card, to_mask
from folkcards.engine.actions import Step
from folkcards.engine.api import SPECTATOR, IllegalAction, Observation
from folkcards.engine.determinize import Constraints, Infeasible, LastRead, Reject, rejection_sample

from .rules import BURY, CLASS, FAIL_ACES, FAIL_TENS, SEATS, TRICKS

if TYPE_CHECKING:
    from .deal import SheepsheadState
    from .game import SheepsheadGame

MAX_DRAWS = 200
"""Draws before giving up on an observation (the constraints are exact: one draw is
nearly always enough; the replay and the observation check are a safety net)."""

HAND, BURY_PILE, BLIND = "hand", "bury", "blind"
"""The kinds of hidden place."""


# --- facts ----------------------------------------------------------------------------------


@dataclass
class Facts:
    """The call as the observation states it, and what its public history shows."""

    seat: int
    picker: int  # -1: nobody picked (yet)
    called: Card  # -1: no call (yet)
    x_mask: CardSet  # the called suit's cards (0 without a call)
    played: list[CardSet] = field(default_factory=lambda: [0] * SEATS)
    played_seq: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    voids: list[CardSet] = field(default_factory=lambda: [0] * SEATS)
    bury_known: list[Card] = field(default_factory=list)  # the picker's own buries, in order
    bury_hidden: int = 0  # buries seen as ``bury ?``
    trick: list[Card] = field(default_factory=list)  # the trick in progress
    trick_seats: list[int] = field(default_factory=list)
    trick_no: int = 0
    x_led: bool = False
    called_played: bool = False
    picker_x_after: list[int] = field(default_factory=list)
    """Where in its plays the picker threw off a card of the called suit before it was led
    (SHP-7.5: it held another one then)."""

    @classmethod
    def of(cls, obs: Observation) -> Facts:
        """The facts of ``obs``: one walk through its public history."""
        info = obs.info
        picker = info["picker"] if info["picker"] is not None else -1
        called = parse_card(info["called"], DECK_32) if info["called"] is not None else -1
        facts = cls(obs.seat, picker, called, CLASS[called] if called >= 0 else 0)
        for step, who in zip(obs.history, obs.actors, strict=True):
            kind = step.kind
            if kind == "bury":
                if step.hidden:  # SHP-13.1: only the picker sees what it buries
                    facts.bury_hidden += 1
                else:
                    facts.bury_known.append(step.cards[0])
            elif kind == "play":
                facts._play(who, step.cards[0])
        return facts

    def _play(self, who: int, c: Card) -> None:
        """One card played: a void revealed (SHP-7.3), the called suit led, the picker's
        discard of the called suit before it was led (SHP-7.5), the trick completed."""
        trick = self.trick
        if trick:
            led_class = CLASS[trick[0]]
            if not led_class >> c & 1:
                self.voids[who] |= led_class
                if (
                    who == self.picker
                    and self.called >= 0
                    and not self.x_led
                    and self.trick_no < TRICKS - 1
                    and self.x_mask >> c & 1
                ):
                    self.picker_x_after.append(len(self.played_seq[who]))
        elif self.x_mask >> c & 1:
            self.x_led = True
        if c == self.called:
            self.called_played = True
        self.played[who] |= BIT[c]
        self.played_seq[who].append(c)
        trick.append(c)
        self.trick_seats.append(who)
        if len(trick) == SEATS:
            self.trick, self.trick_seats = [], []
            self.trick_no += 1

    def hold_cards_needed(self) -> int:
        """How many cards of the called suit the picker must still hold in hand: one while
        no card of it has been played from its hand (SHP-6.2), one more than it played since
        each discard of the suit before the suit was led (SHP-7.5)."""
        x_mask = self.x_mask
        seq = self.played_seq[self.picker]
        need = 1 - sum(1 for c in seq if x_mask >> c & 1)
        for i in self.picker_x_after:
            need = max(need, 2 - sum(1 for c in seq[i:] if x_mask >> c & 1))
        return need


# --- constraints ----------------------------------------------------------------------------


@dataclass
class Layout:
    """The hidden places of a world and the cards the observer knows the place of."""

    pool: CardSet  # the hidden cards
    places: list[tuple[str, int]]  # (HAND, seat), (BURY_PILE, picker) or (BLIND, -1)
    sizes: list[int]  # how many hidden cards each place takes
    hand_index: dict[int, int]  # seat → its place
    bury_index: int  # the bury's place, or -1
    blind_known: list[Card] | None
    bury_mask_known: CardSet

    @classmethod
    def of(cls, obs: Observation, facts: Facts) -> Layout:
        """The places: the other seats' hands, then the bury while it is hidden, then the
        blind while nobody has taken it or seen it (SHP-13.1); and the hidden cards."""
        info = obs.info
        seat, picker = facts.seat, facts.picker
        known = obs.hand
        for s in range(SEATS):
            known |= facts.played[s]
        blind_known = None
        if info["blind"] is not None:
            blind_known = [parse_card(t, DECK_32) for t in info["blind"]]
        bury_mask_known = to_mask(facts.bury_known)
        if info["bury"] is not None:
            bury_mask_known |= to_mask(parse_card(t, DECK_32) for t in info["bury"])
        known |= bury_mask_known
        picked = picker >= 0
        if blind_known is not None and not picked:
            known |= to_mask(blind_known)
        sizes = info["hand_sizes"]
        places = [(HAND, s) for s in range(SEATS) if s != seat]
        counts = [sizes[s] for s in range(SEATS) if s != seat]
        if picked and picker != seat and info["bury"] is None and facts.bury_hidden:
            places.append((BURY_PILE, picker))
            counts.append(facts.bury_hidden)
        if not picked and blind_known is None:
            places.append((BLIND, -1))
            counts.append(2)
        return cls(
            pool=DECK_32 & ~known,
            places=places,
            sizes=counts,
            hand_index={s: i for i, (kind, s) in enumerate(places) if kind == HAND},
            bury_index=next((i for i, (kind, _) in enumerate(places) if kind == BURY_PILE), -1),
            blind_known=blind_known,
            bury_mask_known=bury_mask_known,
        )


def constraints(facts: Facts, layout: Layout) -> Constraints:
    """The hidden cards in the places of ``layout`` under every inference of ``facts``
    (see the module docstring)."""
    pool, hand_index = layout.pool, layout.hand_index
    cons = Constraints(pool, layout.sizes)
    for s, i in hand_index.items():
        cons.cannot_hold(i, facts.voids[s] & pool)  # SHP-7.3: a revealed void
    called = facts.called
    if called < 0:
        return cons
    picker_places = []
    if facts.picker >= 0 and facts.picker != facts.seat:
        picker_places = [hand_index[facts.picker]]
        if layout.bury_index >= 0:
            picker_places.append(layout.bury_index)
    called_bit = BIT[called] & pool
    for i in picker_places:  # SHP-6.2/6.3: the picker does not hold the called card
        cons.cannot_hold(i, called_bit)
    if picker_places and called in FAIL_TENS:  # SHP-6.4: it holds all three fail aces
        aces = to_mask(FAIL_ACES) & pool
        for i in range(len(layout.places)):
            if i not in picker_places:
                cons.cannot_hold(i, aces)
    if called_bit and not facts.called_played:
        # SHP-6.6: the called card is in a defender-or-partner hand, never in the bury;
        # SHP-7.6.1: not with a seat that already played to the current trick led in X.
        if layout.bury_index >= 0:
            cons.cannot_hold(layout.bury_index, called_bit)
        if facts.trick and CLASS[facts.trick[0]] == facts.x_mask:
            for s in facts.trick_seats:
                if s in hand_index:
                    cons.cannot_hold(hand_index[s], called_bit)
    if picker_places:  # SHP-6.2, SHP-7.5: the picker's hold card(s)
        need = facts.hold_cards_needed()
        if need > 0:
            cons.at_least(picker_places[0], facts.x_mask, need)
    return cons


# --- a world --------------------------------------------------------------------------------


def _rebuild(
    game: SheepsheadGame,
    obs: Observation,
    prep: Prepared,
    drawn: list[CardSet],
    rng: random.Random,
) -> SheepsheadState:
    """The deal with the drawn places: each seat's six cards (held now or played), the
    blind (two of the picker's eight cards, uniformly, when nobody saw it), then the
    history replayed, each ``bury ?`` a card of the drawn bury."""
    facts, layout = prep.facts, prep.layout
    picker = facts.picker
    remaining = [0] * SEATS
    if facts.seat != SPECTATOR:  # a spectator's observation (no hand) determinizes too
        remaining[facts.seat] = obs.hand
    bury_cards = list(facts.bury_known)
    blind = list(layout.blind_known) if layout.blind_known is not None else []
    for (kind, s), cards in zip(layout.places, drawn, strict=True):
        if kind == HAND:
            remaining[s] |= cards
        elif kind == BURY_PILE:
            bury_cards += cards_list(cards)
        else:
            blind = cards_list(cards)
    if obs.info["bury"] is not None and not facts.bury_known:
        bury_cards = cards_list(layout.bury_mask_known)
    hands0 = [cards_list(remaining[s] | facts.played[s]) for s in range(SEATS)]
    if picker >= 0:
        full8 = remaining[picker] | facts.played[picker] | to_mask(bury_cards)
        if not blind:
            blind = rng.sample(cards_list(full8), 2)
        hands0[picker] = cards_list(full8 & ~to_mask(blind))
    state = game.new_deal(
        dict(obs.variant), obs.dealer, hands=hands0, extra={"blind": blind}, carry=obs.carry
    )
    _replay(state, obs.history, bury_cards)
    return state


def _replay(state: SheepsheadState, history: Sequence[Step], buries: Sequence[Card]) -> None:
    """The history through the rules, each visible step as its own ``action`` and each
    ``bury ?`` (SHP-13.1) as ``bury`` the next card of ``buries`` (which lists every buried
    card, seen ones included, in order): every condition it implies is checked exactly (a
    refusal draws again)."""
    it = iter(buries)
    try:
        for step in history:
            action = step.action
            if action is None:  # ``bury ?``: the only entry a viewer does not see whole
                state.apply(BURY[next(it)])  # type: ignore[arg-type]
            else:
                if step.kind == "bury":
                    next(it)
                state.apply(action)
    except IllegalAction as exc:
        raise Reject(str(exc)) from None


@dataclass
class Prepared:
    """An observation read for drawing: its facts, its places and their constraints."""

    facts: Facts
    layout: Layout
    base: Constraints

    @classmethod
    def of(cls, obs: Observation) -> Prepared:
        """Read ``obs``; :class:`Infeasible` at once when no deal holds what it shows."""
        facts = Facts.of(obs)
        layout = Layout.of(obs, facts)
        base = constraints(facts, layout)
        if not base.feasible():
            raise Infeasible("no deal holds the cards this observation shows (determinize)")
        return cls(facts, layout, base)


_prepared: LastRead[Prepared] = LastRead(Prepared.of)
"""The last observation read: a search bot draws many worlds from one."""


def determinize(game: SheepsheadGame, obs: Observation, rng: random.Random) -> SheepsheadState:
    """A full deal whose ``observation(obs.seat)`` equals ``obs`` (see the module docstring).

    :class:`~folkcards.engine.determinize.Infeasible` at once when the observation admits
    no deal; :class:`~folkcards.engine.determinize.DeterminizeError` when no draw succeeds.
    """
    prep = _prepared(obs)

    def attempt(rng: random.Random, k: int) -> SheepsheadState:
        state = _rebuild(game, obs, prep, prep.base.draw(rng), rng)
        if state.observation(obs.seat) != obs:
            raise Reject("observation differs")
        return state

    return rejection_sample(attempt, rng, MAX_DRAWS, "this Sheepshead observation")
