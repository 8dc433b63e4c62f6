"""Satat worlds from one seat's observation: a full deal that shows that seat exactly what
it saw (``docs/engine.md`` §2), built from the observation alone.

Two steps. :func:`knowledge` reads once what the observation says about the unseen cards
(:class:`Knowledge`): the cards the seat knows where they are — its own, the played ones,
the turned card, the cards it gave and received, an announced 2♥, a Trup Kasiet trump card
it may know — and where the others cannot be: public voids (the 2♥ excepted, SAT-8.3), a
partner's ``propose`` (no trumps, SAT-6.1), the cards a loser's forced give shows he did
not hold (SAT-7.6), the turned card's whereabouts after an exchange (SAT-19.2). Then each
attempt rebuilds a world (:func:`_rebuild`): a Trup Kasiet trump card drawn from the public
candidates (SAT-15.3, SAT-15.4), the other cards dealt at random where they may be, the
exchange of the passing pair the seat was not part of undone by gives the rules allow
(SAT-7.6, SAT-7.7), the cards put back in the order dealt (SAT-4.2, SAT-4.4), and the
visible history replayed with its hidden steps filled (:func:`_replay`). An attempt that
cannot be completed, or whose world shows the seat anything else, is drawn again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from folkcards.cards import BIT, RANKS, SUIT_MASK, SUITS, Card, CardSet, iter_cards, parse_card
from folkcards.cards import ranks_mask as _ranks_mask
from folkcards.engine.api import FolkcardsError, Observation

from .deal import SatatState
from .rules import (
    A_PASS,
    A_SILENT,
    B2H,
    GIVE,
    HIDE,
    NOT_2H,
    PH_ANNOUNCE,
    PH_PROPOSE,
    PICTURES,
    TABLE,
    card_subsets,
    deck_from_hands,
    loser_gives_ok,
    winner_gives_ok,
)

if TYPE_CHECKING:
    from .game import SatatGame

ATTEMPTS = 500
"""Worlds drawn before :func:`determinize` gives up."""
_ALL_CARDS: CardSet = (1 << 52) - 1


def determinize(game: SatatGame, obs: Observation, rng: random.Random) -> SatatState:
    """A full deal consistent with ``obs`` (``SatatGame.determinize``): its observation of
    ``obs.seat`` equals ``obs``. FolkcardsError for a spectator's observation, or when no
    consistent world turns up in :data:`ATTEMPTS` draws."""
    if not 0 <= obs.seat < 4:
        raise FolkcardsError("only a seat's observation can be determinized, not a spectator's")
    first = obs.history[0] if obs.history else None
    kn = None if first is None or first == "redeal" else knowledge(obs)
    for _ in range(ATTEMPTS):
        state = _before_trump(game, obs, first, rng) if kn is None else _rebuild(game, obs, kn, rng)
        if state is not None and state.observation(obs.seat) == obs:
            return state
    raise FolkcardsError("no deal consistent with this observation was found")


def _cards_of(texts: Sequence[str]) -> CardSet:
    m = 0
    for t in texts:
        m |= BIT[parse_card(t)]
    return m


# --- before trump: five cards each --------------------------------------------------------


def _before_trump(
    game: SatatGame, obs: Observation, first: str | None, rng: random.Random
) -> SatatState | None:
    """A world while trump is not made, or after a no-picture redeal: each seat has only
    its first five so far (SAT-5.1), the trump maker's without pictures after ``redeal``
    (SAT-5.4)."""
    me, tm = obs.seat, (obs.dealer + 1) % 4
    rest = list(iter_cards(_ALL_CARDS & ~obs.hand))
    rng.shuffle(rest)
    hands: list[list[Card]] = [[] for _ in range(4)]
    hands[me] = list(iter_cards(obs.hand))
    if first == "redeal" and tm != me:
        plain = [c for c in rest if not PICTURES >> c & 1][:5]
        if len(plain) < 5:
            return None
        hands[tm] = plain
        rest = [c for c in rest if c not in plain]
    for s in range(4):
        while len(hands[s]) < 5:
            hands[s].append(rest.pop())
    for s in range(4):
        hands[s] += [rest.pop() for _ in range(8)]
    return _replay(game, obs, deck_from_hands(hands, obs.dealer), {}, -1, rng)


# --- what the observation says about the unseen cards -------------------------------------


@dataclass(frozen=True)
class Knowledge:
    """The constraints one observation puts on the unseen cards, once trump is made.

    ``post_known[s]``: the cards known to be (or to have been, played) in seat ``s``'s hand
    now; ``allowed[s]``: where the unplaced cards may go; ``pool`` the unplaced cards and
    ``need[s]`` how many of them each seat holds. ``giver`` is the seat whose give this
    seat received (−1 before an exchange); ``turned``/``tcard`` the turned card and the
    known Trup Kasiet trump card (−1 if none or unknown).
    """

    me: int
    tm: int
    tk: bool
    first: str
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
    for text, s in zip(obs.history, obs.actors, strict=True):
        if text.startswith("play "):
            played[s] |= BIT[parse_card(text.split(" ")[1])]
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
    proposed = "propose" in obs.history
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
    low = max(c % 13 for c in iter_cards(odd))
    higher = 0
    for r in range(low):
        higher |= _ranks_mask(RANKS[r])
    return NOT_2H[trump] | (higher & ~SUIT_MASK[trump])


# --- one world ----------------------------------------------------------------------------


def _rebuild(
    game: SatatGame, obs: Observation, kn: Knowledge, rng: random.Random
) -> SatatState | None:
    """One attempt at a world consistent with ``kn`` (None if this attempt failed)."""
    me, tm = kn.me, kn.tm
    pool, need, post_known = kn.pool, list(kn.need), list(kn.post_known)
    tcard = kn.tcard
    if kn.tk and tm != me and tcard < 0:
        tcard = _draw_trump_card(kn, rng)
        if tcard < 0:
            return None
        if not (post_known[tm] & ~kn.played[tm]) >> tcard & 1:
            pool &= ~BIT[tcard]
            post_known[tm] |= BIT[tcard]
            need[tm] -= 1
    dealt = _assign(pool, need, list(kn.allowed), rng)
    if dealt is None:
        return None
    post = [post_known[s] | dealt[s] for s in range(4)]
    undone = _undo_exchange(kn, post, rng) if kn.exchanged else (post, {})
    if undone is None:
        return None
    pre, gifts = undone
    if kn.turned >= 0 and not pre[tm] >> kn.turned & 1:
        return None
    hands = _in_dealt_order(kn, pre, tcard, rng)
    if hands is None:
        return None
    return _replay(game, obs, deck_from_hands(hands, obs.dealer), gifts, tcard, rng)


def _draw_trump_card(kn: Knowledge, rng: random.Random) -> Card:
    """SAT-15.3: the Trup Kasiet trump card, one of the trump maker's cards still in his
    hand, of a suit the public deduction allows (SAT-15.4); it may be one this seat knows he
    holds (an announced 2♥, SAT-16.3: hearts trump). −1 if there is none."""
    tm = kn.tm
    held = kn.post_known[tm] & ~kn.played[tm]
    cands = [SUITS.index(x) for x in kn.candidates]
    rng.shuffle(cands)
    for t in cands:
        fresh = kn.pool & SUIT_MASK[t] & kn.allowed[tm] if kn.need[tm] else 0
        options = list(iter_cards(fresh | held & SUIT_MASK[t]))
        if options:
            return rng.choice(options)
    return -1


def _assign(
    pool: CardSet, need: list[int], allowed: list[CardSet], rng: random.Random
) -> list[CardSet] | None:
    """Deal ``pool`` to seats with ``need[s]`` cards each, card c only where allowed; the
    most constrained cards first, each to a seat drawn by its remaining need."""
    cards = list(iter_cards(pool))
    rng.shuffle(cards)
    cards.sort(key=lambda c: sum(1 for s in range(4) if need[s] and allowed[s] >> c & 1))
    left = list(need)
    out = [0, 0, 0, 0]
    for c in cards:
        seats = [s for s in range(4) if left[s] and allowed[s] >> c & 1]
        if not seats:
            return None
        s = rng.choices(seats, weights=[left[x] for x in seats])[0]
        out[s] |= BIT[c]
        left[s] -= 1
    return out if not any(left) else None


def _undo_exchange(
    kn: Knowledge, post: list[CardSet], rng: random.Random
) -> tuple[list[CardSet], dict[int, CardSet]] | None:
    """The hands before card passing, and each seat's give: this seat's pair from what it
    gave and received; the other pair (winner ``w``, loser ``w+1``) from gives the rules
    allow (SAT-7.6, SAT-7.7) drawn at random. None if the other pair has none."""
    me, q, k = kn.me, kn.giver, kn.cards
    pre = list(post)
    pre[me] = (post[me] & ~kn.received) | kn.gave
    pre[q] = (post[q] & ~kn.gave) | kn.received
    gifts = {me: kn.gave, q: kn.received}
    a = next(s for s in range(4) if s not in (me, q))
    w = a if a % 2 == kn.winners else (a + 3) % 4
    lo = (w + 1) % 4
    cw = card_subsets(post[lo] & ~B2H, k)  # what the winner may have given
    cl = card_subsets(post[w] & ~B2H, k)  # what the loser may have given
    rng.shuffle(cw)
    rng.shuffle(cl)
    for gl in cl:
        for gw in cw:
            pw = (post[w] & ~gl) | gw
            pl = (post[lo] & ~gw) | gl
            if winner_gives_ok(pw, gw, k) and loser_gives_ok(pl, gl, kn.trump, k):
                pre[w], pre[lo] = pw, pl
                gifts[w], gifts[lo] = gw, gl
                return pre, gifts
    return None


def _in_dealt_order(
    kn: Knowledge, pre: list[CardSet], tcard: Card, rng: random.Random
) -> list[list[Card]] | None:
    """Each hand as a list in the order received, shuffled but for the trump maker's trump
    card: the turned card at its blind position (SAT-4.4), a hidden card among his first
    five (SAT-15.2). None if the trump maker does not hold it."""
    hands: list[list[Card]] = []
    for s in range(4):
        cards = list(iter_cards(pre[s]))
        rng.shuffle(cards)
        hands.append(cards)
    special = kn.turned if kn.turned >= 0 else tcard
    lst = hands[kn.tm]
    if kn.first.startswith("blind"):
        n = int(kn.first.split(" ")[1])
        if special < 0 or special not in lst:
            return None
        lst.remove(special)
        lst.insert(8 + n, special)
    elif kn.first.startswith("hide") and tcard >= 0:
        if tcard not in lst:
            return None
        lst.remove(tcard)
        lst.insert(rng.randrange(5), tcard)
    return hands


# --- the history replayed -----------------------------------------------------------------


def _replay(
    game: SatatGame,
    obs: Observation,
    deck: list[Card],
    gifts: Mapping[int, CardSet],
    tcard: int,
    rng: random.Random,
) -> SatatState | None:
    """Replay the visible history on ``deck``, filling the hidden steps: the private
    ``pass``/``silent`` this seat did not see (SAT-19.1), ``hide ?`` with the trump card,
    ``give ?`` with the gives rebuilt (or any legal one)."""
    me = obs.seat
    try:
        st = game.new_deal(game.normalize_variant(obs.variant), obs.dealer, deck, carry=obs.carry)
        for text, actor in zip(obs.history, obs.actors, strict=True):
            while st.to_act is not None and st.to_act != me:
                if st.ph == PH_PROPOSE and text != "propose":
                    st.apply(A_PASS)
                elif st.ph == PH_ANNOUNCE and text != "announce":
                    st.apply(A_SILENT)
                else:
                    break
            if st.to_act != actor:
                return None
            if "?" in text:
                if text.startswith("hide"):
                    if tcard < 0:
                        return None
                    act = HIDE[tcard]
                elif actor in gifts:
                    act = GIVE[gifts[actor]]
                else:
                    act = rng.choice(st.legal_actions())
            else:
                act = TABLE.by_text[text]
            if act not in st.legal_actions():
                return None
            st.apply(act)
        if obs.legal:
            while st.to_act is not None and st.to_act != me and st.ph in (PH_PROPOSE, PH_ANNOUNCE):
                st.apply(A_PASS if st.ph == PH_PROPOSE else A_SILENT)
    except FolkcardsError:
        return None
    return st
