"""Shared card-play tactics of the trick-taking heuristics (Sasku, Sheepshead, Satat,
Huutopussi): win a trick cheaply when it is worth it, give points (*schmear*) to a
partner who is sure to win, throw the cheapest card otherwise, and lead sure winners or
low cards from short suits.

A game describes its trick with a :class:`TrickView` (who is on which side, how cards
beat each other, what they are worth); :func:`score_plays` returns a score per card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from folkcards.cards import BIT, CARD_NAMES, SUIT_MASK, Card, CardSet, iter_cards
from folkcards.engine.actions import Action, Step

_CARD_NUMBERS: dict[str, Card] = {name: c for c, name in enumerate(CARD_NAMES)}


def card_of(text: str) -> Card:
    """The card number of a canonical card text (ValueError for a text that names none)."""
    c = _CARD_NUMBERS.get(text)
    if c is None:
        raise ValueError(f"{text!r} is not a card")
    return c


def played_cards(history: Sequence[Step]) -> CardSet:
    """Every card played to a trick so far: the card of each ``play X …`` step of the
    history (the first card a play names; a play is never hidden)."""
    out = 0
    for step in history:
        if step.kind == "play" and step.cards:
            out |= BIT[step.cards[0]]
    return out


def play_actions(legal: Sequence[Action]) -> dict[Action, Card]:
    """The legal ``play X`` actions (plain: one card and no other word, such as Satat's
    signal suffixes) with their cards."""
    out = {}
    for a in legal:
        step = a.step
        if step.kind == "play" and len(step.cards) == 1 and step.count(" ") == 1:
            out[a] = step.cards[0]
    return out


@dataclass
class TrickView:
    """One seat's view of the current trick, enough to rate each card it may play.

    ``beats(c, w)`` is True when card ``c`` played now takes the lead from winning card
    ``w``; ``power(c)`` is a small ordinal (about 0–30) ordering cards of one class, trumps
    above plain cards; ``points(c)`` is its card points;
    ``is_trump(c)``; ``friend(s)`` is True for the seat itself and its partners;
    ``unseen`` the cards this seat cannot place (in others' hands); ``to_come`` how many
    seats play after it in this trick; ``my_side_declares``: whether its side must make
    a contract (leads trumps to draw them) or defends.
    """

    seat: int
    hand: CardSet
    trick: Sequence[tuple[int, Card]]
    beats: Callable[[Card, Card], bool]
    power: Callable[[Card], int]
    points: Callable[[Card], int]
    is_trump: Callable[[Card], bool]
    friend: Callable[[int], bool]
    unseen: CardSet
    to_come: int
    my_side_declares: bool = False
    partner_to_come: bool = False
    stronger: Callable[[Card], CardSet] | None = None
    """Optional: the set of cards that would beat ``c`` (a fast path for :func:`is_boss`;
    it must agree with ``beats``)."""


def winning(view: TrickView) -> tuple[int, Card]:
    """(seat, card) currently winning the trick (trick must be non-empty)."""
    seat, w = view.trick[0]
    for s, c in view.trick[1:]:
        if view.beats(c, w):
            seat, w = s, c
    return seat, w


def is_boss(view: TrickView, c: Card, over: Card | None = None) -> bool:
    """True when no unseen card could beat ``c`` (led, or winning over ``over``)."""
    if view.stronger is not None:
        return not view.unseen & view.stronger(c)
    return not any(view.beats(u, c) for u in iter_cards(view.unseen))


def score_plays(view: TrickView, cards: Mapping[Action, Card]) -> dict[Action, float]:
    """A score per legal card: higher is better for the seat's side."""
    out: dict[Action, float] = {}
    if not view.trick:
        for a, c in cards.items():
            out[a] = _lead_score(view, c)
        return out
    w_seat, w = winning(view)
    trick_points = sum(view.points(c) for _, c in view.trick)
    friend_winning = view.friend(w_seat)
    friend_safe = friend_winning and (view.to_come == 0 or is_boss(view, w))
    for a, c in cards.items():
        pts = view.points(c)
        trump = view.is_trump(c)
        cheap = -0.02 * view.power(c) - (0.5 if trump else 0.0)
        if friend_safe:
            # schmear: give the partner points, but not a trump that will win tricks later
            out[a] = pts - (2.0 + 0.2 * view.power(c) if trump else 0.05 * view.power(c))
        elif view.beats(c, w):
            safe = view.to_come == 0 or is_boss(view, c)
            value = trick_points + pts
            if safe:
                out[a] = 20 + value + cheap * 3
            elif view.partner_to_come:
                out[a] = 2 + 0.3 * value + cheap * 3 - 0.3 * pts
            else:
                out[a] = 5 + 0.5 * value + cheap * 3 - 0.5 * pts
        else:
            out[a] = -pts + cheap * 2 - (0.1 * view.power(c) if trump else 0.0)  # lose little
    return out


def _lead_score(view: TrickView, c: Card) -> float:
    """Leading: sure winners first (trumps when the side declares), else low cards from
    short plain suits; keep points back."""
    pts = view.points(c)
    boss = is_boss(view, c)
    if view.is_trump(c):
        opp_trumps = any(view.is_trump(u) for u in iter_cards(view.unseen))
        if boss and view.my_side_declares and opp_trumps:
            return 30 + 0.1 * view.power(c)
        if boss:
            return 8 + 0.01 * view.power(c)
        return -5 - pts - 0.05 * view.power(c)
    if boss:
        return 15 + pts * 0.2
    if not any(view.beats(u, c) and not view.is_trump(u) for u in iter_cards(view.unseen)):
        # the top card of its plain suit: cash it while the others still follow
        out_there = sum(
            1
            for u in iter_cards(view.unseen)
            if not view.beats(u, c) and u // 13 == c // 13 and not view.is_trump(u)
        )
        return 6 + 0.5 * pts + out_there
    suit = SUIT_MASK[c // 13]
    length = (view.hand & suit).bit_count()
    return -pts - 0.02 * view.power(c) - 0.5 * length
