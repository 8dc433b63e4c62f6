"""The determinization kit: hidden cards dealt to the places an observation leaves open.

``Game.determinize(obs, rng)`` builds a full deal from one seat's observation alone
(``docs/engine.md`` §2). Every game's determinizer does the same three things, and this
module holds the shared part of each:

1. **Constraints** (:class:`Constraints`): what the observation says about each *place* —
   a hand, or a hidden pile such as a packet in transit or a widow: how many cards it holds
   (``sizes``), the cards it is known to hold (``hold``: the observer's own hand, a card
   dealt face up, a card it was shown), the cards it cannot hold (``cannot_hold``: a void
   shown in play, a card that would have had to be played), and how many cards of a *kind*
   it holds (``exactly``/``at_least``: pictures asked in an exchange, trumps behind a bid).
   Kinds are card sets, as every card set in folkcards is an int bitmask
   (:mod:`folkcards.cards`).
2. **A draw** (:meth:`Constraints.draw`): the known cards placed, the rest dealt among the
   places so that every constraint holds. The draw is exact about feasibility — it checks
   Hall's condition before it starts and before every card it places, so it never deals
   itself into a dead end, and every deal that satisfies the constraints can come out —
   and uniform where the constraints leave every place open (then it is a plain shuffle);
   otherwise close to uniform (see :func:`deal_hidden`).
3. **Verification** (:func:`rejection_sample`): a game's own conditions that are not cards
   in places (a bid's length, an eligibility a skipped seat lacked, the history replayed
   through the rules) are checked on the rebuilt world, and a world that fails is drawn
   again (:class:`Reject`).

Constraints that admit no deal at all raise :class:`Infeasible` at once (a
:class:`DeterminizeError`, itself a :class:`~folkcards.engine.api.FolkcardsError`);
rejection that keeps failing raises :class:`DeterminizeError`.

The feasibility checks run over the subsets of places (2^m for m places once counted
kinds are split off), so the kit is meant for a handful of places — a table's hidden
hands and piles — not for dozens.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from folkcards.cards import CardSet, cards_list
from folkcards.engine.api import FolkcardsError

T = TypeVar("T")


class DeterminizeError(FolkcardsError):
    """No world consistent with an observation could be drawn."""


class Infeasible(DeterminizeError):
    """The constraints admit no deal at all (found exactly, before any card is drawn)."""


class Reject(Exception):
    """A drawn world that breaks one of the game's own conditions: draw again.

    Raised by a game's rebuild or verify step inside :func:`rejection_sample`; its message
    says which condition failed (the last one is reported if every draw fails).
    """


# ----------------------------------------------------------------------------------------
# The transportation draw: cards into places with sizes and masks (Hall's condition)
# ----------------------------------------------------------------------------------------

_DECREMENTS: dict[tuple[int, int, int], tuple[int, ...]] = {}
"""``(m, i, sig)`` → the proper subsets T of m places with ``i`` in T and ``sig`` not in T:
the subsets whose slack drops when a card of signature ``sig`` goes to place ``i``."""


def _decrements(m: int, i: int, sig: int) -> tuple[int, ...]:
    key = (m, i, sig)
    subsets = _DECREMENTS.get(key)
    if subsets is None:
        full, bit = (1 << m) - 1, 1 << i
        subsets = tuple(t for t in range(1, full) if t & bit and sig & ~t)
        _DECREMENTS[key] = subsets
    return subsets


def _classes(pool: CardSet, allowed: Sequence[CardSet]) -> list[tuple[CardSet, int]]:
    """The cards of ``pool`` grouped by *signature*: the set of places (bit ``i`` for
    ``allowed[i]``) that may take them. Cards of one signature are interchangeable for
    feasibility, so the checks below count classes, not cards."""
    parts = [(pool, 0)] if pool else []
    for i, mask in enumerate(allowed):
        bit = 1 << i
        split = []
        for cards, sig in parts:
            inside = cards & mask
            if inside:
                split.append((inside, sig | bit))
            if cards & ~mask:
                split.append((cards & ~mask, sig))
        parts = split
    return parts


def _slacks(need: Sequence[int], constrained: Sequence[tuple[CardSet, int]]) -> list[int]:
    """Hall's slack of every set T of places: ``need(T)`` minus the cards that only T's
    places may take. A deal exists iff no slack is negative (and the sizes add up)."""
    m = len(need)
    size = 1 << m
    within = [0] * size
    for cards, sig in constrained:
        within[sig] += cards.bit_count()
    for i in range(m):  # the zeta transform: within[T] = cards whose signature ⊆ T
        bit = 1 << i
        for t in range(size):
            if t & bit:
                within[t] += within[t ^ bit]
    total = [0] * size
    for t in range(1, size):
        low = t & -t
        total[t] = total[t ^ low] + need[low.bit_length() - 1]
    return [total[t] - within[t] for t in range(size)]


def hall_feasible(pool: CardSet, needs: Sequence[int], allowed: Sequence[CardSet]) -> bool:
    """True iff the cards of ``pool`` can be dealt so that place ``j`` gets exactly
    ``needs[j]`` cards, all of ``allowed[j]`` (Hall's condition for the transportation
    problem: every set of places can be filled by the cards only they may take, and no
    card is left that no place may take)."""
    if sum(needs) != pool.bit_count() or min(needs, default=0) < 0:
        return False
    active = [j for j, n in enumerate(needs) if n]
    parts = _classes(pool, [allowed[j] for j in active])
    if any(sig == 0 for _, sig in parts):
        return False
    full = (1 << len(active)) - 1
    slack = _slacks([needs[j] for j in active], [p for p in parts if p[1] != full])
    return min(slack) >= 0


def deal_hidden(
    pool: CardSet, needs: Sequence[int], allowed: Sequence[CardSet], rng: random.Random
) -> list[CardSet]:
    """Deal every card of ``pool``: ``needs[j]`` cards to place ``j``, each from
    ``allowed[j]``. Infeasible when no such deal exists (:func:`hall_feasible`).

    Cards that every place may take are dealt last, by a plain shuffle; each other card,
    in random order, goes to a place that may take it with probability proportional to the
    place's remaining need, among the places where a deal can still be completed (Hall's
    slack of every set of places is tracked, so the draw never dead-ends). With no masks
    that bind, this is exactly a uniform deal; otherwise it is close to uniform, and every
    deal that satisfies the constraints has a positive probability.
    """
    if sum(needs) != pool.bit_count() or min(needs, default=0) < 0:
        raise Infeasible(f"{pool.bit_count()} hidden cards for places that take {sum(needs)}")
    active = [j for j, n in enumerate(needs) if n]
    m = len(active)
    full = (1 << m) - 1
    parts = _classes(pool, [allowed[j] for j in active])
    if any(sig == 0 for _, sig in parts):
        raise Infeasible("a hidden card that no place may hold")
    need = [needs[j] for j in active]
    constrained = [p for p in parts if p[1] != full]
    got = [0] * m
    if constrained:
        slack = _slacks(need, constrained)
        if min(slack) < 0:
            raise Infeasible("the places cannot be filled (Hall's condition fails)")
        _deal_constrained(constrained, need, slack, got, m, rng)
    free = [c for cards, sig in parts if sig == full for c in cards_list(cards)]
    rng.shuffle(free)
    k = 0
    for i in range(m):
        for c in free[k : k + need[i]]:
            got[i] |= 1 << c
        k += need[i]
    out = [0] * len(needs)
    for i, j in enumerate(active):
        out[j] = got[i]
    return out


def _deal_constrained(
    constrained: Sequence[tuple[CardSet, int]],
    need: list[int],
    slack: list[int],
    got: list[CardSet],
    m: int,
    rng: random.Random,
) -> None:
    """Place the cards that not every place may take, one at a time (see
    :func:`deal_hidden`); ``need``, ``slack`` and ``got`` are updated in place.

    Placing a card of signature ``sig`` at place ``i`` lowers by one the slack of exactly
    the sets T holding ``i`` but not all of ``sig``; so the move keeps a deal possible iff
    none of those sets is tight (slack 0), that is iff ``sig`` lies within every tight set
    holding ``i``: within their intersection ``within[i]``, kept up to date as sets turn
    tight. Slacks never rise: a tight set stays tight.
    """
    full = (1 << m) - 1
    within = [-1] * m  # no tight set yet: every signature fits
    for t in range(1, full):
        if not slack[t]:
            _tighten(within, t)
    cards = [(c, sig) for mask, sig in constrained for c in cards_list(mask)]
    rng.shuffle(cards)
    random_ = rng.random
    for c, sig in cards:
        options: list[int] = []
        total = 0
        rest = sig
        while rest:
            low = rest & -rest
            rest ^= low
            i = low.bit_length() - 1
            if need[i] and not sig & ~within[i]:
                options.append(i)
                total += need[i]
        if not options:  # the slack bookkeeping guarantees a place; never reached
            raise AssertionError("determinize: the draw dealt itself into a dead end")
        pick = random_() * total
        for i in options:
            pick -= need[i]
            if pick < 0:
                break
        need[i] -= 1
        got[i] |= 1 << c
        for t in _decrements(m, i, sig):
            left = slack[t] - 1
            slack[t] = left
            if not left:
                _tighten(within, t)


def _tighten(within: list[int], t: int) -> None:
    """Set ``t`` of places has turned tight: each of its places now takes only cards whose
    signature lies within ``t``."""
    rest = t
    while rest:
        low = rest & -rest
        rest ^= low
        within[low.bit_length() - 1] &= t


# ----------------------------------------------------------------------------------------
# Constraints on places
# ----------------------------------------------------------------------------------------


class Constraints:
    """What an observation says about the hidden places, and draws that respect it.

    ``cards`` is every card the places hold together; ``sizes[p]`` how many place ``p``
    holds (known cards included). Then, per place: the cards it is known to hold
    (:meth:`hold`), the cards it cannot hold (:meth:`cannot_hold`), and how many cards of
    a kind it holds (:meth:`exactly`, :meth:`at_least`; one place's kinds must not
    overlap). Everything counts the place's whole holding, known cards included.
    """

    __slots__ = ("cannot", "cards", "counts", "known", "sizes")

    def __init__(self, cards: CardSet, sizes: Sequence[int]) -> None:
        self.cards = cards
        self.sizes = list(sizes)
        n = len(self.sizes)
        self.known: list[CardSet] = [0] * n
        self.cannot: list[CardSet] = [0] * n
        self.counts: list[list[tuple[CardSet, int, bool]]] = [[] for _ in range(n)]

    @property
    def places(self) -> int:
        """The number of places."""
        return len(self.sizes)

    def copy(self) -> Constraints:
        """An independent copy (for a draw's own extra constraints)."""
        new = Constraints(self.cards, self.sizes)
        new.known = self.known.copy()
        new.cannot = self.cannot.copy()
        new.counts = [list(c) for c in self.counts]
        return new

    def hold(self, place: int, cards: CardSet) -> None:
        """``place`` holds ``cards`` (known to the observer)."""
        self.known[place] |= cards

    def release(self, place: int, cards: CardSet) -> None:
        """``place`` is no longer known to hold ``cards`` (a card moved unseen)."""
        self.known[place] &= ~cards

    def cannot_hold(self, place: int, cards: CardSet) -> None:
        """``place`` holds none of ``cards`` (a void, a card it would have had to play)."""
        self.cannot[place] |= cards

    def exactly(self, place: int, kind: CardSet, n: int) -> None:
        """``place`` holds exactly ``n`` cards of ``kind``."""
        self.counts[place].append((kind, n, True))

    def at_least(self, place: int, kind: CardSet, n: int) -> None:
        """``place`` holds at least ``n`` cards of ``kind``. (Drawn as ``n`` cards of the
        kind plus any others, so a holding with more of the kind comes out a little more
        often than under a uniform draw; feasibility stays exact.)"""
        self.counts[place].append((kind, n, False))

    @property
    def pool(self) -> CardSet:
        """The cards not known to be anywhere: what a draw deals."""
        placed = 0
        for k in self.known:
            placed |= k
        return self.cards & ~placed

    def _subplaces(self) -> tuple[list[int], list[CardSet], list[int]]:
        """The draw as a plain transportation problem: each counted kind of a place is a
        place of its own (``needs``, ``allowed``, and the place each stands for)."""
        self._check_known()
        pool = self.pool
        needs: list[int] = []
        allowed: list[CardSet] = []
        owners: list[int] = []
        for p, size in enumerate(self.sizes):
            known = self.known[p]
            rest_need = size - known.bit_count()
            rest_allowed = pool & ~self.cannot[p]
            seen = 0
            for kind, n, exact in self.counts[p]:
                if kind & seen:
                    raise ValueError(f"place {p}: counted kinds overlap")
                seen |= kind
                want = n - (known & kind).bit_count()
                if want < 0 and exact:
                    raise Infeasible(f"place {p} is known to hold more than {n} of a kind")
                want = max(want, 0)
                needs.append(want)
                allowed.append(rest_allowed & kind)
                owners.append(p)
                rest_need -= want
                if exact:
                    rest_allowed &= ~kind
            if rest_need < 0:
                raise Infeasible(f"place {p} holds {size} cards: too few for what it must hold")
            needs.append(rest_need)
            allowed.append(rest_allowed)
            owners.append(p)
        return needs, allowed, owners

    def _check_known(self) -> None:
        placed = 0
        for p, known in enumerate(self.known):
            if known & placed or known & ~self.cards:
                raise Infeasible(f"place {p} is known to hold a card held elsewhere or by none")
            if known & self.cannot[p]:
                raise Infeasible(f"place {p} is known to hold a card it cannot hold")
            placed |= known
        if sum(self.sizes) != self.cards.bit_count():
            raise Infeasible(
                f"{self.cards.bit_count()} cards for places that hold {sum(self.sizes)}"
            )

    def feasible(self) -> bool:
        """True iff some deal satisfies every constraint (exact: Hall's condition)."""
        try:
            needs, allowed, _ = self._subplaces()
        except Infeasible:
            return False
        return hall_feasible(self.pool, needs, allowed)

    def draw(self, rng: random.Random) -> list[CardSet]:
        """Every place's holding: its known cards and the hidden cards dealt to it
        (:func:`deal_hidden`); Infeasible when no deal satisfies the constraints."""
        needs, allowed, owners = self._subplaces()
        hands = self.known.copy()
        for p, cards in zip(owners, deal_hidden(self.pool, needs, allowed, rng), strict=True):
            hands[p] |= cards
        return hands

    def satisfied_by(self, hands: Sequence[CardSet]) -> bool:
        """True iff ``hands`` (one card set per place) satisfies every constraint."""
        if len(hands) != self.places:
            return False
        seen = 0
        for p, hand in enumerate(hands):
            if hand & seen or hand.bit_count() != self.sizes[p]:
                return False
            seen |= hand
            if self.known[p] & ~hand or hand & self.cannot[p]:
                return False
            for kind, n, exact in self.counts[p]:
                have = (hand & kind).bit_count()
                if have < n or (exact and have != n):
                    return False
        return seen == self.cards


# ----------------------------------------------------------------------------------------
# Rejection with verification
# ----------------------------------------------------------------------------------------


def rejection_sample(
    attempt: Callable[[random.Random, int], T], rng: random.Random, tries: int, what: str
) -> T:
    """``attempt(rng, k)`` for k = 0, 1, … until one returns a world; an attempt raises
    :class:`Reject` (or :class:`Infeasible`, for constraints it added itself) to be drawn
    again. :class:`DeterminizeError` naming ``what`` and the last reason after ``tries``.
    The attempt number lets a game steer later draws where plain ones keep failing."""
    last = "no draw"
    for k in range(tries):
        try:
            return attempt(rng, k)
        except (Reject, Infeasible) as exc:
            last = str(exc)
    raise DeterminizeError(f"cannot determinize {what} ({last}; {tries} draws)")


class LastRead(Generic[T]):
    """A determinizer's reading of the last observation it was asked about, kept.

    A search bot draws many worlds from one observation, and reading it (its facts, the
    constraints, their feasibility) is most of a world's cost, so each game keeps the last
    reading: ``read(obs, *context)`` runs only when ``obs`` is not the observation read
    last (by identity: an observation is not changed once made). A reading that raises
    (:class:`Infeasible`) is not kept."""

    __slots__ = ("_last", "_read")

    def __init__(self, read: Callable[..., T]) -> None:
        self._read = read
        self._last: tuple[object, T] | None = None

    def __call__(self, obs: object, *context: object) -> T:
        """The reading of ``obs`` (``context``: what ``read`` needs besides, e.g. the game)."""
        last = self._last
        if last is None or last[0] is not obs:
            last = self._last = (obs, self._read(obs, *context))
        return last[1]


__all__ = [
    "Constraints",
    "DeterminizeError",
    "Infeasible",
    "LastRead",
    "Reject",
    "deal_hidden",
    "hall_feasible",
    "rejection_sample",
]
