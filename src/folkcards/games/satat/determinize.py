"""``determinize``: a full Satat deal consistent with one seat's observation (SAT-19).

Built from the :class:`~folkcards.engine.api.Observation` alone, on the engine's kit
(:mod:`folkcards.engine.determinize`):

1. **Knowledge** (:func:`knowledge`, read once per observation): the cards the seat knows
   where they are — its own, the played ones, the turned card, the cards it gave and
   received, an announced 2♥, a Trup Kasiet trump card it may know — and where the others
   cannot be: public voids (the 2♥ excepted, SAT-8.3), a partner's ``propose`` (no trumps,
   SAT-6.1), the cards a loser's forced give shows he did not hold (SAT-7.6), the turned
   card's whereabouts after an exchange (SAT-19.2). :meth:`Knowledge.constraints` puts it
   on the four hands after card passing, cards played included (:class:`Constraints`);
   constraints that admit no deal raise :class:`Infeasible` at once.
2. **A draw**: a Trup Kasiet trump card the seat does not know is chosen first — a suit
   of the public candidates at random, then one of the trump maker's possible cards of it
   (SAT-15.3, SAT-15.4) — and held by the trump maker; the hands are then dealt under the
   constraints (the kit's draw never dead-ends).
3. **The rebuild**: the exchange of the passing pair the seat was not part of undone by
   gives the rules allow (SAT-7.6, SAT-7.7), the cards put back in the order dealt (the
   trump maker's shuffled around his trump card, SAT-4.2, SAT-4.4, SAT-15.2; the others'
   in card order, which nothing reads), and the visible history replayed with its hidden
   steps filled (:func:`_replay`): a ``pass``/``silent`` the seat did not see (SAT-19.1),
   ``hide ?``, ``give ?``. A world that cannot be completed, or that shows the seat anything
   else, is drawn again (:func:`~folkcards.engine.determinize.rejection_sample`).

In card play :func:`determinize_hands` makes the same draws and gives only the hands now
(and the trump maker's first five) to a batched search, judging each draw by
:func:`_check` — the verdict of the rebuild without replaying the card play.

The history is read from its steps' structure (:class:`~folkcards.engine.actions.Step`),
never from their text: a step the seat saw whole carries the action itself, which the
replay takes as it is; a masked one (``hide ?``, ``give ?``, SAT-19.3) only its kind.

Before trump is made (or after a no-picture redeal) only the first fives are dealt: the
seat's own, the others' at random, the trump maker's without pictures after ``redeal``
(SAT-5.1, SAT-5.4), and the 32 cards still to come at random (:func:`_first_fives`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from folkcards.cards import BIT, RANKS, SUIT_MASK, SUITS, Card, CardSet, cards_list, parse_card
from folkcards.cards import ranks_mask as _ranks_mask
from folkcards.engine.actions import Step
from folkcards.engine.api import FolkcardsError, Observation
from folkcards.engine.determinize import Constraints, Infeasible, LastRead, Reject, rejection_sample

from .deal import SatatState
from .rules import (
    A_PASS,
    A_SILENT,
    B2H,
    GIVE,
    HIDE,
    NOT_2H,
    PH_ANNOUNCE,
    PH_PLAY,
    PH_PROPOSE,
    PICTURES,
    card_subsets,
    deck_from_hands,
)

if TYPE_CHECKING:
    from .game import SatatGame

ATTEMPTS = 500
"""Worlds drawn before :func:`determinize` gives up."""
_ALL_CARDS: CardSet = (1 << 52) - 1


def determinize(game: SatatGame, obs: Observation, rng: random.Random) -> SatatState:
    """A full deal whose ``observation(obs.seat)`` equals ``obs`` (``SatatGame.determinize``;
    see the module docstring). FolkcardsError for a spectator's observation;
    :class:`~folkcards.engine.determinize.Infeasible` at once when the cards the
    observation shows admit no deal; :class:`~folkcards.engine.determinize.DeterminizeError`
    when no consistent world turns up in :data:`ATTEMPTS` draws."""
    if not 0 <= obs.seat < 4:
        raise FolkcardsError("only a seat's observation can be determinized, not a spectator's")
    prep = _prepared(obs)

    def attempt(rng: random.Random, k: int) -> SatatState:
        if isinstance(prep, Constraints):
            state = _before_trump(game, obs, prep, rng)
            if state.observation(obs.seat) != obs:
                raise Reject("observation differs")
            return state
        return _build(game, obs, prep, _draw(prep, rng), rng)

    return rejection_sample(attempt, rng, ATTEMPTS, "this Satat observation")


def _cards_of(texts: Sequence[str]) -> CardSet:
    """The card set of card texts."""
    m = 0
    for t in texts:
        m |= BIT[parse_card(t)]
    return m


# --- before trump: five cards each --------------------------------------------------------


def _first_fives(obs: Observation) -> Constraints:
    """Before trump is made, or after a no-picture redeal: five places for the seats' first
    fives (SAT-5.1) and one for the 32 cards still to be dealt; the trump maker's five hold
    no picture after ``redeal`` (SAT-5.4). One class of restricted cards at most, so the
    kit's draw is uniform."""
    me, tm = obs.seat, (obs.dealer + 1) % 4
    cons = Constraints(_ALL_CARDS, (5, 5, 5, 5, 32))
    cons.hold(me, obs.hand)
    if obs.history and tm != me:  # the history is ("redeal",)
        cons.cannot_hold(tm, PICTURES)
    if not cons.feasible():
        raise Infeasible("no deal of first fives fits this observation (determinize)")
    return cons


def _before_trump(
    game: SatatGame, obs: Observation, cons: Constraints, rng: random.Random
) -> SatatState:
    """A world of ``cons`` (:func:`_first_fives`): each seat's five (in card order: no rule
    reads it), then eight of the others in a random order, which places the last four
    (SAT-4.2, SAT-4.4); the visible history replayed."""
    drawn = cons.draw(rng)
    rest = cards_list(drawn[4])
    rng.shuffle(rest)
    hands = [cards_list(drawn[s]) + rest[8 * s : 8 * s + 8] for s in range(4)]
    return _replay(game, obs, deck_from_hands(hands, obs.dealer), {}, -1, rng)


# --- what the observation says about the unseen cards -------------------------------------


@dataclass(frozen=True)
class Knowledge:
    """The constraints one observation puts on the unseen cards, once trump is made.

    ``post_known[s]``: the cards known to be (or to have been, played) in seat ``s``'s hand
    after card passing; ``allowed[s]``: where the unplaced cards may go; ``pool`` the
    unplaced cards and ``need[s]`` how many of them each seat holds. ``giver`` is the seat
    whose give this seat received (−1 before an exchange); ``turned``/``tcard`` the turned
    card and the known Trup Kasiet trump card (−1 if none or unknown).
    """

    me: int
    tm: int
    tk: bool
    first: Step  # the trump maker's step: trump X, blind N, or (Trup Kasiet) hide ? / hide C
    trump: int
    cards: int  # cards each seat gives (SAT-7.1), 0 without passing
    winners: int  # the passing winners' team, −1 without passing
    played: tuple[CardSet, ...]
    gave: CardSet
    received: CardSet
    exchanged: bool
    giver: int
    turned: Card
    tcard: Card
    candidates: tuple[str, ...]
    post_known: tuple[CardSet, ...]
    allowed: tuple[CardSet, ...]
    pool: CardSet
    need: tuple[int, ...]

    def receiver(self, seat: int) -> int:
        """Whom ``seat`` gives to (SAT-7.4)."""
        return _receiver(seat, self.winners)

    @property
    def hidden_tcard(self) -> bool:
        """A Trup Kasiet trump card this seat does not know, to be drawn (SAT-19.3)."""
        return self.tk and self.tm != self.me and self.tcard < 0

    def constraints(self) -> Constraints:
        """The four hands after card passing (13 each, cards played included) as the kit's
        constraints: each seat holds its known cards, and no unplaced card it may not."""
        cons = Constraints(_ALL_CARDS, (13, 13, 13, 13))
        for s in range(4):
            cons.hold(s, self.post_known[s])
            cons.cannot_hold(s, self.pool & ~self.allowed[s])
        return cons


def _receiver(seat: int, winners: int) -> int:
    """SAT-7.4: a winner gives to his left, a loser to his right."""
    return (seat + 1) % 4 if seat % 2 == winners else (seat + 3) % 4


def knowledge(obs: Observation) -> Knowledge:
    """What ``obs`` says about the unseen cards (its history begins with trump making):
    the cards it places, then where the others may go."""
    return _narrowed(_placed(obs), obs)


def _placed(obs: Observation) -> Knowledge:
    """The cards ``obs`` places — its own hand, the cards played, the cards it knows in
    other hands (``known_cards``), the cards it gave — with only the public voids to say
    where the others may not go."""
    me, d, info = obs.seat, obs.dealer, obs.info
    passing = dict(obs.carry).get("passing")
    winners = passing["winners"] if passing else -1
    played = [0, 0, 0, 0]
    for step, s in zip(obs.history, obs.actors, strict=True):
        if step.kind == "play":  # every play is public (SAT-19): its card is the first named
            played[s] |= BIT[step.cards[0]]
    known = [_cards_of(cards) for cards in info["known_cards"]]
    gave = _cards_of(info["gave"])
    post_known = [played[s] | known[s] for s in range(4)]
    post_known[me] = obs.hand | played[me]
    located = post_known[me] | gave
    for s in range(4):
        located |= post_known[s]
    exchanged = bool(info["received"])
    giver = (
        next(s for s in range(4) if s != me and _receiver(s, winners) == me) if exchanged else -1
    )
    return Knowledge(
        me=me,
        tm=(d + 1) % 4,
        tk=bool(obs.variant["trup_kasiet"]),
        first=obs.history[0],
        trump=SUITS.index(info["trump"]) if info["trump"] is not None else -1,
        cards=passing["cards"] if passing else 0,
        winners=winners,
        played=tuple(played),
        gave=gave,
        received=_cards_of(info["received"]),
        exchanged=exchanged,
        giver=giver,
        turned=parse_card(info["turned"]) if info["turned"] else -1,
        tcard=parse_card(info["trump_card"]) if info["trump_card"] else -1,
        candidates=tuple(info["trump_candidates"]),
        post_known=tuple(post_known),
        allowed=tuple(_ALL_CARDS & ~v for v in _voids(info["voids"])),
        pool=_ALL_CARDS & ~located,
        need=tuple(0 if s == me else 13 - post_known[s].bit_count() for s in range(4)),
    )


def _voids(voids: Sequence[Sequence[str]]) -> list[CardSet]:
    """The cards each seat has publicly shown it lacks (the 2♥ excepted, SAT-8.3)."""
    out = [0, 0, 0, 0]
    for s, suits in enumerate(voids):
        for x in suits:
            out[s] |= NOT_2H[SUITS.index(x)]
    return out


def _narrowed(kn: Knowledge, obs: Observation) -> Knowledge:
    """``kn`` with fewer places for the unplaced cards: besides the voids, a partner who
    held no trump (SAT-6.1), a loser who gave this seat his forced give (SAT-7.6) and the
    turned card's whereabouts after an exchange (SAT-19.2)."""
    me, tm, trump = kn.me, kn.tm, kn.trump
    allowed = list(kn.allowed)
    proposed = any(step.kind == "propose" for step in obs.history)
    # A seat shown to act with nothing legal in the give or announce phase waits for the
    # partner's private propose step (SAT-19.1 masks it as what follows a pass): the partner
    # holds no trump then, as in every world that shows this seat the same.
    waits = obs.to_act == me and not obs.legal and obs.phase in ("give", "announce")
    if not kn.tk and (proposed or waits) and not kn.exchanged and trump >= 0:
        allowed[(tm + 2) % 4] &= ~SUIT_MASK[trump]  # SAT-6.1: the partner held no trump
    if kn.exchanged:
        if kn.giver % 2 != kn.winners:  # a loser's gift says which cards he could not hold
            allowed[kn.giver] &= ~_loser_could_not_hold(kn.received, trump) | B2H
        if kn.turned >= 0 and kn.pool >> kn.turned & 1:  # kept, or given to tm's receiver
            r = kn.receiver(tm)
            for s in range(4):
                if s not in (tm, r):
                    allowed[s] &= ~BIT[kn.turned]
    return replace(kn, allowed=tuple(allowed))


def _loser_could_not_hold(received: CardSet, trump: int) -> CardSet:
    """SAT-7.6 read backwards: a loser who gave ``received`` with a card other than a trump
    gave all his trumps, and held no plain card higher than the lowest plain card he gave;
    one who gave only trumps may hold more of anything."""
    tr = received & NOT_2H[trump]
    odd = received & ~tr
    if not odd:
        return 0
    low = max(c % 13 for c in cards_list(odd))
    higher = 0
    for r in range(low):
        higher |= _ranks_mask(RANKS[r])
    return NOT_2H[trump] | (higher & ~SUIT_MASK[trump])


# --- an observation read once -------------------------------------------------------------


def _trump_card_options(kn: Knowledge, suit: int) -> CardSet:
    """SAT-15.3: the cards of ``suit`` that may be the Trup Kasiet trump card: the trump
    maker's cards still in his hand — one this seat knows he holds (an announced 2♥,
    SAT-16.3: hearts trump) or one he may hold."""
    tm = kn.tm
    held = kn.post_known[tm] & ~kn.played[tm]
    fresh = kn.pool & kn.allowed[tm] if kn.need[tm] else 0
    return (held | fresh) & SUIT_MASK[suit]


@dataclass(frozen=True)
class _Prepared:
    """An observation read for drawing, once trump is made: its :class:`Knowledge` and the
    constraints it puts on the hands."""

    kn: Knowledge
    base: Constraints
    before_play: int
    """How many steps of the history come before the first card (for :func:`_check`)."""


def _prepare(obs: Observation) -> _Prepared | Constraints:
    """``obs`` read for drawing: before trump, the first fives' constraints
    (:func:`_first_fives`); else its knowledge, checked exactly for a deal (and, where the
    trump card is drawn, for one of a candidate suit that admits a deal)."""
    if not obs.history or obs.history[0].kind == "redeal":
        return _first_fives(obs)
    kn = knowledge(obs)
    base = kn.constraints()
    if not base.feasible():
        raise Infeasible("no deal holds the cards this observation shows (determinize)")
    if kn.hidden_tcard:
        options = 0
        for x in kn.candidates:
            options |= _trump_card_options(kn, SUITS.index(x))
        if not any(_holds_feasible(base, kn.tm, c) for c in cards_list(options)):
            raise Infeasible("no candidate trump card fits this observation (SAT-15.4)")
    first_play = next((i for i, st in enumerate(obs.history) if st.kind == "play"), None)
    return _Prepared(kn, base, len(obs.history) if first_play is None else first_play)


def _holds_feasible(cons: Constraints, seat: int, card: Card) -> bool:
    """Whether ``cons`` admits a deal with ``card`` in ``seat``'s hand."""
    if cons.known[seat] >> card & 1:
        return True
    trial = cons.copy()
    trial.hold(seat, BIT[card])
    return trial.feasible()


_prepared: LastRead[_Prepared | Constraints] = LastRead(_prepare)
"""The last observation read: a search bot draws many worlds from one."""


# --- one world ----------------------------------------------------------------------------


@dataclass
class _Draw:
    """One draw of the hidden cards of a trump-made observation: the Trup Kasiet trump card
    (−1 if none), the hands after card passing (cards played included), each seat's give,
    the hands before it, and the trump maker's hand in the order dealt (SAT-4.2)."""

    tcard: Card
    post: list[CardSet]
    gifts: dict[int, CardSet]
    pre: list[CardSet]
    tm: int
    tm_order: list[Card]

    def dealt(self) -> list[list[Card]]:
        """Each hand in the order dealt: the trump maker's as drawn, the others' in card
        order (:func:`_in_dealt_order`)."""
        hands = [cards_list(hand) for hand in self.pre]
        hands[self.tm] = self.tm_order
        return hands


def _draw(prep: _Prepared, rng: random.Random) -> _Draw:
    """Steps 2 and 3 of the module docstring short of the replay: the trump card, the hands,
    the exchange undone and the cards put in the order dealt. Reject if the other passing
    pair has no legal gives or the trump maker was not dealt the turned or hidden card."""
    kn, cons, tcard = prep.kn, prep.base, prep.kn.tcard
    if kn.hidden_tcard:
        tcard = _draw_trump_card(kn, rng)
        if not cons.known[kn.tm] >> tcard & 1:
            cons = cons.copy()
            cons.hold(kn.tm, BIT[tcard])  # Infeasible: drawn again
    post = cons.draw(rng)
    pre, gifts = _undo_exchange(kn, post, rng) if kn.exchanged else (post, {})
    if kn.turned >= 0 and not pre[kn.tm] >> kn.turned & 1:
        raise Reject("the turned card was not dealt to the trump maker")
    return _Draw(tcard, post, gifts, pre, kn.tm, _in_dealt_order(kn, pre[kn.tm], tcard, rng))


def _build(
    game: SatatGame, obs: Observation, prep: _Prepared, draw: _Draw, rng: random.Random
) -> SatatState:
    """The deal of a draw, its whole visible history replayed (:func:`_replay`): Reject
    unless its observation is ``obs``."""
    deck = deck_from_hands(draw.dealt(), obs.dealer)
    state = _replay(game, obs, deck, draw.gifts, draw.tcard, rng)
    if state.observation(obs.seat) != obs:
        raise Reject("observation differs")
    return state


def _check(
    game: SatatGame, obs: Observation, prep: _Prepared, draw: _Draw, rng: random.Random
) -> None:
    """The verdict of :func:`_build` on a draw of a card-play observation, without the card
    play: :class:`Reject` exactly when :func:`_build` would reject it.

    What :func:`_build` checks beyond the draw is the history before the first card: the
    trump made (SAT-5), the gives of this seat's passing partner (SAT-7.6, SAT-7.7), the
    partner's ``propose`` (SAT-6.1), an announced 2♥ (SAT-16.3), with the private steps of
    other seats filled (SAT-19.1). Those are replayed through the rules on the dealt deck
    (:func:`_replay` up to the first card), after which the trump maker must be the one to
    lead it (SAT-8.1). The cards played need no replay: every play is public (SAT-19), each
    seat holds the cards it played, and the public voids (SAT-8.3, the 2♥ excepted) forbid
    it every card whose holding would have made one of its plays illegal, so a hand drawn
    under them replays every play; the lese, 7-0 and signal steps (SAT-16.5, SAT-9.2,
    SAT-16.6) ask nothing of the hands, and the observation then follows from the
    knowledge the draw was made under. Before the first card there is no card play to
    skip, and the deal is built.

    Without card passing nothing before the first card can refuse a draw either: a
    ``trump X`` or ``blind N`` is legal on any five (SAT-5.5), a hidden card and a turned
    one are placed in the trump maker's hand (:func:`_in_dealt_order`), a partner shown
    to ``propose`` is drawn without trumps (SAT-6.1, :func:`_narrowed`), a seat shown to
    ``announce`` holds the 2♥ (SAT-16.3), and the private ``pass`` and ``silent`` steps are
    taken by whichever seat the deal asks (SAT-19.1). So only a draw with card passing is
    replayed. ``tests/games/satat`` compares the two verdicts draw by draw."""
    if not prep.kn.exchanged:
        return
    n = prep.before_play
    if n == len(obs.history):
        _build(game, obs, prep, draw, rng)
        return
    deck = deck_from_hands(draw.dealt(), obs.dealer)
    st = _replay(game, obs, deck, draw.gifts, draw.tcard, rng, n)
    _skip_private(st, obs.seat, "play")
    if st.ph != PH_PLAY or st.to_act != obs.actors[n]:
        raise Reject("the card play would not begin with the trump maker's lead")


def _hands_row(obs: Observation, prep: _Prepared, draw: _Draw) -> list[CardSet]:
    """The hands now of a draw, then the trump maker's first five (SAT-4.2), which the
    kernel's reading of the trump choice needs (``SatatKernel.hands_of``)."""
    played = prep.kn.played
    row = [draw.post[s] & ~played[s] for s in range(4)]
    first = 0
    for c in draw.tm_order[:5]:
        first |= BIT[c]
    return [*row, first]


def _draw_trump_card(kn: Knowledge, rng: random.Random) -> Card:
    """SAT-15.3, SAT-15.4: the Trup Kasiet trump card — a candidate suit drawn at random
    among those with a possible card (each such suit alike, whatever number of deals it
    admits), then one of its possible cards (:func:`_trump_card_options`)."""
    suits = [SUITS.index(x) for x in kn.candidates]
    rng.shuffle(suits)
    for t in suits:
        options = cards_list(_trump_card_options(kn, t))
        if options:
            return rng.choice(options)
    raise Reject("no trump card")  # ruled out by _prepare


def _undo_exchange(
    kn: Knowledge, post: list[CardSet], rng: random.Random
) -> tuple[list[CardSet], dict[int, CardSet]]:
    """The hands before card passing, and each seat's give: this seat's pair from what it
    gave and received; the other pair (winner ``w``, loser ``w+1``) from gives the rules
    allow (:func:`_other_pair_gives`). Reject if the other pair has none."""
    me, q = kn.me, kn.giver
    pre = list(post)
    pre[me] = (post[me] & ~kn.received) | kn.gave
    pre[q] = (post[q] & ~kn.gave) | kn.received
    gifts = {me: kn.gave, q: kn.received}
    a = next(s for s in range(4) if s not in (me, q))
    w = a if a % 2 == kn.winners else (a + 3) % 4
    lo = (w + 1) % 4
    gw, gl = _other_pair_gives(post[w], post[lo], kn.trump, kn.cards, rng)
    pre[w], pre[lo] = (post[w] & ~gl) | gw, (post[lo] & ~gw) | gl
    gifts[w], gifts[lo] = gw, gl
    return pre, gifts


def _other_pair_gives(
    post_w: CardSet, post_lo: CardSet, trump: int, k: int, rng: random.Random
) -> tuple[CardSet, CardSet]:
    """The gives ``(winner's, loser's)`` of a passing pair from their hands after the
    exchange: the first pair of legal gives (SAT-7.6, SAT-7.7) in a random order of the
    loser's possible gives, then of the winner's. The rules' checks are read for this
    search (``tests/games/satat`` compares it with the plain search over every pair):

    * the winner's give is legal exactly when he keeps a card of every suit he gives
      (SAT-7.7: his cards after giving are ``post_w`` less the loser's give, and the 2♥ is
      never given);
    * the loser's: a loser who gave a card other than a trump gave all his trumps, and the
      rest of his give is the highest of his plain cards (SAT-7.6), that is, no plain card
      he kept ranks above one he gave (:func:`_no_higher_kept`)."""
    cw = card_subsets(post_lo & ~B2H, k)  # what the winner may have given
    cl = card_subsets(post_w & ~B2H, k)  # what the loser may have given
    rng.shuffle(cw)
    rng.shuffle(cl)
    trumps = NOT_2H[trump]
    plain = _ALL_CARDS & ~SUIT_MASK[trump] & ~B2H
    # A loser who gave a plain card kept no trump: every trump he holds now is the winner's.
    lo_trumps = post_lo & trumps
    facts = [(gw, _suits(gw), gw & lo_trumps == lo_trumps) for gw in cw]
    for gl in cl:
        gl_trumps = gl & trumps
        only_trumps = gl_trumps == gl
        if not only_trumps and lo_trumps.bit_count() > k:
            continue
        kept = _suits(post_w & ~gl)
        for gw, suits, brings_them in facts:
            if suits & ~kept or not (only_trumps or brings_them):
                continue
            pl = (post_lo & ~gw) | gl  # the loser's hand before giving
            tr = pl & trumps
            if tr.bit_count() >= k:
                if only_trumps:
                    return gw, gl
            elif not tr & ~gl and _no_higher_kept(gl & ~tr, pl & plain & ~gl):
                return gw, gl
    raise Reject("no gives of the other passing pair fit")


def _no_higher_kept(gave: CardSet, kept: CardSet) -> bool:
    """Whether no card of ``kept`` ranks above a card of ``gave`` (ranks alone, plain
    order, suits ignored): then ``gave`` holds the highest ranks of the two together,
    duplicates counted (SAT-7.6)."""
    if not kept:
        return True
    lowest_given = _rank_bits(gave).bit_length() - 1  # rank index 0 is the ace
    best_kept = _rank_bits(kept)
    return (best_kept & -best_kept).bit_length() - 1 >= lowest_given


def _rank_bits(cards: CardSet) -> int:
    """Bit r set when ``cards`` hold a card of rank index r (0 the ace … 12 the two)."""
    return (cards | cards >> 13 | cards >> 26 | cards >> 39) & 0x1FFF


def _suits(cards: CardSet) -> int:
    """The suits (bit s for suit s) of ``cards`` other than the 2♥ (SAT-7.7)."""
    return sum(1 << s for s in range(4) if cards & NOT_2H[s])


def _in_dealt_order(kn: Knowledge, held: CardSet, tcard: Card, rng: random.Random) -> list[Card]:
    """The trump maker's hand (``held``, before card passing) as a list in the order
    received: shuffled but for his trump card — the turned card at its blind position
    (SAT-4.4), a hidden card among his first five (SAT-15.2). Reject if he does not hold
    it. The others' cards are dealt in card order (:meth:`_Draw.dealt`), since no rule and
    no observation reads the order in which another seat received its cards: only the
    trump maker chooses from his first five (SAT-5)."""
    lst = cards_list(held)
    rng.shuffle(lst)
    special = kn.turned if kn.turned >= 0 else tcard
    first = kn.first
    if first.kind == "blind":
        n = first.number
        assert n is not None  # blind N names its position (SAT-5.3)
        if special < 0 or special not in lst:
            raise Reject("the blind card is not the trump maker's")
        lst.remove(special)
        lst.insert(8 + n, special)
    elif first.kind == "hide" and tcard >= 0:
        if tcard not in lst:
            raise Reject("the hidden card is not the trump maker's")
        lst.remove(tcard)
        lst.insert(rng.randrange(5), tcard)
    return lst


# --- the history replayed -----------------------------------------------------------------


def _replay(
    game: SatatGame,
    obs: Observation,
    deck: list[Card],
    gifts: Mapping[int, CardSet],
    tcard: int,
    rng: random.Random,
    upto: int | None = None,
) -> SatatState:
    """Replay the visible history on ``deck`` (its first ``upto`` steps if given), filling
    the hidden steps: the private ``pass``/``silent`` this seat did not see (SAT-19.1) —
    and, when this seat is to act after the whole history, those still pending before it —
    ``hide ?`` with the trump card, ``give ?`` with the gives rebuilt (or any legal one). A
    step seen whole is replayed as the action it carries. Reject if a step is not legal on
    this deck."""
    me = obs.seat
    steps = obs.history if upto is None else obs.history[:upto]
    try:
        st = game.new_deal(game.normalize_variant(obs.variant), obs.dealer, deck, carry=obs.carry)
        for step, actor in zip(steps, obs.actors[: len(steps)], strict=True):
            _skip_private(st, me, step.kind)
            if st.to_act != actor:
                raise Reject(f"{step!r} is not the step of seat {actor} here")
            act = step.action
            if act is None:  # masked (SAT-19.3): hide ?, give ? / give ? ?
                if step.kind == "hide":
                    if tcard < 0:
                        raise Reject("no trump card to hide")
                    act = HIDE[tcard]
                elif actor in gifts:
                    act = GIVE[gifts[actor]]
                else:
                    act = rng.choice(st.legal_actions())
            if act not in st.legal_actions():
                raise Reject(f"{act.text!r} is not legal here")
            st.apply(act)
        if obs.legal and upto is None:
            _skip_private(st, me, "")
    except FolkcardsError:
        raise Reject("the history does not replay on this deck") from None
    return st


def _skip_private(st: SatatState, me: int, kind: str) -> None:
    """Take the private steps of other seats that this seat's history does not show before
    its next step, of verb ``kind`` ("" after the last one) (SAT-19.1, SAT-16.7): a
    partner's ``pass`` (unless the next step is his ``propose``), an announce-phase
    ``silent`` (unless it is the ``announce``)."""
    while st.to_act is not None and st.to_act != me:
        if st.ph == PH_PROPOSE and kind != "propose":
            st.apply(A_PASS)
        elif st.ph == PH_ANNOUNCE and kind != "announce":
            st.apply(A_SILENT)
        else:
            break


def determinize_hands(
    game: SatatGame, obs: Observation, rng: random.Random
) -> list[CardSet] | None:
    """For a card-play observation, the hands now of a deal drawn as :func:`determinize`
    draws it, then the trump maker's first five (:func:`_hands_row`), without the card
    play replayed: the same draws with the same verdicts (:func:`_check`), so the same
    distribution. None before card play, and where the deals drawn differ in more than
    their hands (a Trup Kasiet trump card this seat does not know, SAT-19.3): a batched
    search then takes whole deals (``GameKernel.encode_hands``)."""
    if obs.phase not in _CARD_PLAY or not 0 <= obs.seat < 4:
        return None
    prep = _prepared(obs)
    if isinstance(prep, Constraints) or prep.kn.hidden_tcard:
        return None

    def attempt(rng: random.Random, k: int) -> list[CardSet]:
        draw = _draw(prep, rng)
        _check(game, obs, prep, draw, rng)
        return _hands_row(obs, prep, draw)

    return rejection_sample(attempt, rng, ATTEMPTS, "this Satat observation")


_CARD_PLAY = frozenset({"play", "lese", "continue"})
"""The phases of card play (SAT-8, SAT-16.5, SAT-9.2)."""
