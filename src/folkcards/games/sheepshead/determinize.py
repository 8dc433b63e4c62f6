"""A full Sheepshead deal built from one seat's observation alone (``Game.determinize``).

Two steps. **Constraints**: the public history and the seat's own facts say which hidden
card may lie in which hidden pile — the other seats' hands, the picker's bury while other
seats see it as ``bury ?``, the blind while nobody has taken it. A seat that did not follow
is void in the led suit (SHP-7.3); the picker never holds the called card, and a ten call
means it holds all three fail aces (SHP-6.2–6.4); the called card is never buried, nor with
a seat that played to the current trick led in its suit without it (SHP-6.6, SHP-7.6.1);
the picker still holds a card of the called suit while its history needs one (SHP-6.2,
SHP-7.5). **A world**: the hidden cards dealt into the piles, each card only where Hall's
condition still allows a completion (so no draw is thrown away), then the deal rebuilt from
hands and blind and the history replayed through the rules — so the world's
``observation(seat)`` is exactly the observation it came from.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from folkcards.cards import BIT, DECK_32, Card, CardSet, cards_list, iter_cards, parse_card, to_mask
from folkcards.engine.api import SPECTATOR, FolkcardsError, Observation

from .rules import BURY, CLASS, FAIL_ACES, FAIL_TENS, SEATS, TRICKS

if TYPE_CHECKING:
    from .deal import SheepsheadState
    from .game import SheepsheadGame


def determinize(game: SheepsheadGame, obs: Observation, rng: random.Random) -> SheepsheadState:
    """A deal consistent with ``obs``, drawn at random under every inference it allows."""
    seen = _walk(obs)
    layout = _layout(obs, seen)
    allowed = _allowed(layout, seen)
    forced = _forced(layout, allowed, seen, rng)
    dealt = _draw(layout, allowed, forced, seen.picker, rng)
    return _rebuild(game, obs, seen, layout, dealt, rng)


# --- constraints ----------------------------------------------------------------------------


@dataclass
class _Seen:
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
    x_led: bool = False
    called_played: bool = False
    picker_x_after: list[int] = field(default_factory=list)
    """Where in its plays the picker threw off a card of the called suit before it was led
    (SHP-7.5: it held another one then)."""


def _walk(obs: Observation) -> _Seen:
    """Read the call from ``obs.info`` and walk the history: who played what, the voids
    it revealed (SHP-7.3), the called card's fate, the picker's discards of the called suit."""
    info = obs.info
    picker = info["picker"] if info["picker"] is not None else -1
    called = parse_card(info["called"], DECK_32) if info["called"] is not None else -1
    x_mask = CLASS[called] if called >= 0 else 0
    seen = _Seen(obs.seat, picker, called, x_mask)
    trick_no = 0
    for text, who in zip(obs.history, obs.actors, strict=True):
        verb, _, arg = text.partition(" ")
        if verb == "bury":
            if arg == "?":
                seen.bury_hidden += 1
            else:
                seen.bury_known.append(parse_card(arg, DECK_32))
            continue
        if verb != "play":
            continue
        c = parse_card(arg, DECK_32)
        trick = seen.trick
        if trick:
            led_class = CLASS[trick[0]]
            if not led_class >> c & 1:
                seen.voids[who] |= led_class
                if (
                    who == picker
                    and called >= 0
                    and not seen.x_led
                    and trick_no < TRICKS - 1
                    and x_mask >> c & 1
                ):
                    seen.picker_x_after.append(len(seen.played_seq[who]))
        elif x_mask >> c & 1:
            seen.x_led = True
        if c == called:
            seen.called_played = True
        seen.played[who] |= BIT[c]
        seen.played_seq[who].append(c)
        trick.append(c)
        seen.trick_seats.append(who)
        if len(trick) == SEATS:
            seen.trick, seen.trick_seats = [], []
            trick_no += 1
    return seen


@dataclass
class _Layout:
    """The hidden piles of a world and the cards the observer knows the place of."""

    pool: CardSet  # the hidden cards
    piles: list[tuple[str, int]]  # ("hand", seat), ("bury", picker) or ("blind", -1)
    caps: list[int]  # how many hidden cards each pile takes
    hand_index: dict[int, int]  # seat → its pile
    bury_index: int  # the bury's pile, or -1
    blind_known: list[Card] | None
    bury_mask_known: CardSet


def _layout(obs: Observation, seen: _Seen) -> _Layout:
    """The piles: the other seats' hands, then the bury while it is hidden, then the blind
    while nobody has taken it or seen it (SHP-13.1); and the pool of hidden cards."""
    info = obs.info
    seat, picker = seen.seat, seen.picker
    known = obs.hand
    for s in range(SEATS):
        known |= seen.played[s]
    blind_known: list[Card] | None = None
    if info["blind"] is not None:
        blind_known = [parse_card(t, DECK_32) for t in info["blind"]]
    bury_mask_known = to_mask(seen.bury_known)
    if info["bury"] is not None:
        bury_mask_known |= to_mask(parse_card(t, DECK_32) for t in info["bury"])
    known |= bury_mask_known
    picked = picker >= 0
    if blind_known is not None and not picked:
        known |= to_mask(blind_known)
    if picked and picker == seat:
        assert blind_known is not None
    sizes = info["hand_sizes"]
    piles: list[tuple[str, int]] = [("hand", s) for s in range(SEATS) if s != seat]
    caps = [sizes[s] for s in range(SEATS) if s != seat]
    if picked and picker != seat and info["bury"] is None and seen.bury_hidden:
        piles.append(("bury", picker))
        caps.append(seen.bury_hidden)
    if not picked and blind_known is None:
        piles.append(("blind", -1))
        caps.append(2)
    return _Layout(
        pool=DECK_32 & ~known,
        piles=piles,
        caps=caps,
        hand_index={s: i for i, (kind, s) in enumerate(piles) if kind == "hand"},
        bury_index=next((i for i, (kind, _) in enumerate(piles) if kind == "bury"), -1),
        blind_known=blind_known,
        bury_mask_known=bury_mask_known,
    )


def _allowed(layout: _Layout, seen: _Seen) -> dict[Card, int]:
    """Per hidden card, the piles it may lie in (bit ``i`` for ``layout.piles[i]``)."""
    full = (1 << len(layout.piles)) - 1
    hand_index = layout.hand_index
    allowed: dict[Card, int] = {}
    for c in iter_cards(layout.pool):
        sig = full
        for s, i in hand_index.items():
            if seen.voids[s] >> c & 1:  # SHP-7.3: a revealed void
                sig &= ~(1 << i)
        allowed[c] = sig
    picker, called = seen.picker, seen.called
    if called < 0:
        return allowed
    picker_hidden = picker >= 0 and picker != seen.seat
    if picker_hidden:
        # SHP-6.2/6.3/6.4: the picker does not hold the called card; a ten call means it
        # holds all three fail aces (hand or bury).
        picker_bits = 1 << hand_index[picker]
        if layout.bury_index >= 0:
            picker_bits |= 1 << layout.bury_index
        for c in allowed:
            if c == called:
                allowed[c] &= ~picker_bits
            elif called in FAIL_TENS and c in FAIL_ACES:
                allowed[c] &= picker_bits
    if not seen.called_played and called in allowed:
        # SHP-6.6: the called card is in a defender-or-partner hand, never in the bury;
        # SHP-7.6.1: not with a seat that already played to the current trick led in X.
        sig = allowed[called]
        if layout.bury_index >= 0:
            sig &= ~(1 << layout.bury_index)
        if seen.trick and CLASS[seen.trick[0]] == seen.x_mask:
            for s in seen.trick_seats:
                if s in hand_index:
                    sig &= ~(1 << hand_index[s])
        allowed[called] = sig
    return allowed


def _forced(
    layout: _Layout, allowed: dict[Card, int], seen: _Seen, rng: random.Random
) -> list[Card]:
    """The cards of the called suit that may be the one the picker must still hold, in the
    order to try them (SHP-6.2: a hold card; SHP-7.5: each discard of the suit before it was
    led left one more); ``[-1]`` when no such duty binds the draw."""
    picker, x_mask = seen.picker, seen.x_mask
    if seen.called < 0 or picker < 0 or picker == seen.seat:
        return [-1]
    seq = seen.played_seq[picker]
    need = 1 - sum(1 for c in seq if x_mask >> c & 1)
    for i in seen.picker_x_after:
        need = max(need, 2 - sum(1 for c in seq[i:] if x_mask >> c & 1))
    if need <= 0:
        return [-1]
    hand_bit = 1 << layout.hand_index[picker]
    candidates = [c for c in allowed if x_mask >> c & 1 and allowed[c] & hand_bit]
    rng.shuffle(candidates)
    return candidates


def _draw(
    layout: _Layout,
    allowed: dict[Card, int],
    forced: list[Card],
    picker: int,
    rng: random.Random,
) -> list[list[Card]]:
    """The hidden cards of each pile: the first forced card that still leaves a complete
    deal goes to the picker's hand, the rest by :class:`_Piles`."""
    sampler = _Piles(layout.caps)
    for f in forced:
        trial = dict(allowed)
        if f >= 0:
            trial[f] = 1 << layout.hand_index[picker]
        dealt = sampler.sample(trial, rng)
        if dealt is not None:
            return dealt
    raise FolkcardsError("no deal is consistent with this observation")


class _Piles:
    """Sampling hidden cards into piles of fixed sizes, each card allowed in some piles.

    Feasibility is Hall's condition over pile subsets (at most six piles), checked on the
    counts of cards per allowed-pile signature, so every step keeps a completion possible.
    """

    def __init__(self, caps: list[int]) -> None:
        self.caps = caps
        self.n = len(caps)

    def feasible(self, caps: list[int], sig_counts: dict[int, int]) -> bool:
        """Hall's condition: the cards can still fill every pile to ``caps``."""
        n = self.n
        cap_of = [0] * (1 << n)
        for q in range(1, 1 << n):
            low = q & -q
            cap_of[q] = cap_of[q ^ low] + caps[low.bit_length() - 1]
        total = sum(sig_counts.values())
        if total != cap_of[(1 << n) - 1]:
            return False
        for q in range(1, 1 << n):
            need = 0
            for sig, k in sig_counts.items():
                if sig & ~q == 0:
                    need += k
            if need > cap_of[q]:
                return False
        return True

    def sample(self, allowed: dict[Card, int], rng: random.Random) -> list[list[Card]] | None:
        """Each card, in random order, to a random pile among those that keep a complete
        deal possible; None when no complete deal exists at all."""
        caps = list(self.caps)
        counts: dict[int, int] = {}
        for sig in allowed.values():
            counts[sig] = counts.get(sig, 0) + 1
        if not self.feasible(caps, counts):
            return None
        out: list[list[Card]] = [[] for _ in range(self.n)]
        cards = sorted(allowed)
        rng.shuffle(cards)
        for c in cards:
            sig = allowed[c]
            counts[sig] -= 1
            if not counts[sig]:
                del counts[sig]
            options = [p for p in range(self.n) if sig >> p & 1 and caps[p] > 0]
            rng.shuffle(options)
            for p in options:
                caps[p] -= 1
                if self.feasible(caps, counts):
                    out[p].append(c)
                    break
                caps[p] += 1
            else:  # pragma: no cover - excluded by the feasibility invariant
                return None
        return out


# --- a world --------------------------------------------------------------------------------


def _rebuild(
    game: SheepsheadGame,
    obs: Observation,
    seen: _Seen,
    layout: _Layout,
    dealt: list[list[Card]],
    rng: random.Random,
) -> SheepsheadState:
    """The deal with the dealt piles: each seat's six cards (held now or played), the blind
    (the picker's two cards of its eight when nobody saw it), then the history replayed,
    each ``bury ?`` as a card of the drawn bury."""
    seat, picker = seen.seat, seen.picker
    remaining = [0] * SEATS
    if seat != SPECTATOR:  # a spectator's observation (no hand) determinizes too
        remaining[seat] = obs.hand
    bury_cards = list(seen.bury_known)
    blind: list[Card] = list(layout.blind_known) if layout.blind_known is not None else []
    for (kind, s), cards in zip(layout.piles, dealt, strict=True):
        if kind == "hand":
            remaining[s] |= to_mask(cards)
        elif kind == "bury":
            bury_cards += cards
        else:
            blind = list(cards)
    if obs.info["bury"] is not None and not seen.bury_known:
        bury_cards = cards_list(layout.bury_mask_known)
    hands0 = [cards_list(remaining[s] | seen.played[s]) for s in range(SEATS)]
    if picker >= 0:
        full8 = remaining[picker] | seen.played[picker] | to_mask(bury_cards)
        if not blind:
            blind = rng.sample(cards_list(full8), 2)
        hands0[picker] = cards_list(full8 & ~to_mask(blind))
    state = game.new_deal(
        dict(obs.variant), obs.dealer, hands=hands0, extra={"blind": blind}, carry=obs.carry
    )
    buries = iter(bury_cards)
    for text in obs.history:
        if text == "bury ?":
            state.apply(BURY[next(buries)])  # type: ignore[arg-type]
        else:
            if text.startswith("bury "):
                next(buries)
            state.apply(text)
    return state
