"""Sheepshead heuristic (rules/sheepshead.md and its seed).

* pick **by trump strength**: queens and jacks count most, then the ace and ten of
  diamonds and the other diamonds, plus fail aces; later seats pick a little lighter;
* bury: fail tens and kings (their points count for the picker, SHP-5.2), preferring
  cards that make a fail suit void — but keep a hold card for the call;
* call the ace of the suit where the picker holds the fewest cards (one hold card is
  classic); go ``alone`` with an overwhelming hand;
* play: the picker's side draws trumps with sure winners; defenders lead the called
  suit; every seat **schmears** (gives points) to a partner who is sure to win the
  trick, wins tricks cheaply and throws its cheapest card otherwise;
* leaster: take as few points as possible — duck under the winning card, dump points
  on tricks someone else wins.
"""

from __future__ import annotations

from folkcards.bots.heuristic.common import (
    TrickView,
    card_of,
    play_actions,
    played_cards,
    score_plays,
)
from folkcards.cards import BIT, CARD_NAMES, DECK_32, Card, CardSet, iter_cards
from folkcards.engine.actions import Action
from folkcards.engine.api import Observation
from folkcards.games.sheepshead import FAIL_RANKS, POINTS, TRUMP_ORDER, TRUMPS

DECK: CardSet = DECK_32
"""The Sheepshead pack (SHP-1.1); the rules (trump order, fail ranks, card points) are the
game module's own."""
PICK_WEIGHT = dict(
    zip(
        TRUMP_ORDER,
        [3.0, 2.8, 2.6, 2.4, 2.1, 2.0, 1.9, 1.8, 1.6, 1.5, 1.3, 1.2, 1.2, 1.2],
        strict=True,
    )
)


def points(c: Card) -> int:
    """Card points (SHP-1.5)."""
    return POINTS[c]


def is_trump(c: Card) -> bool:
    """Queens, jacks and diamonds (SHP-1.2)."""
    return bool(TRUMPS >> c & 1)


def power(c: Card) -> int:
    """Small ordinal: trumps 17–30, fail cards 1–6 (SHP-1.3, SHP-1.4)."""
    if is_trump(c):
        return 30 - TRUMP_ORDER.index(c)
    return 6 - FAIL_RANKS.index(c % 13)


def beats(c: Card, w: Card, led: Card) -> bool:
    """Card ``c`` takes the lead from winning card ``w`` in a trick led with ``led``."""
    if is_trump(c):
        return not is_trump(w) or power(c) > power(w)
    if is_trump(w):
        return False
    return c // 13 == w // 13 and power(c) > power(w)


def fail_suit(c: Card) -> int | None:
    """The effective fail suit of a card, None for a trump."""
    return None if is_trump(c) else c // 13


def strength(hand: CardSet) -> float:
    """Pick strength: weighted trumps plus fail aces."""
    s = 0.0
    for c in iter_cards(hand):
        if is_trump(c):
            s += PICK_WEIGHT[c]
        elif CARD_NAMES[c][0] == "A":
            s += 1.0
    return s


def evaluate(obs: Observation) -> dict[Action, float]:
    """A score per legal action (higher is better)."""
    hand = obs.hand
    out = dict.fromkeys(obs.legal, 0.0)
    if obs.phase == "pick":
        passes = sum(1 for step in obs.history if step.kind == "pass")
        want = strength(hand) >= 9.5 - 0.4 * passes
        for a in obs.legal:
            out[a] = (1.0 if want else -1.0) if a.step.kind == "pick" else 0.0
        return out
    if obs.phase == "bury":
        return _bury(obs, out)
    if obs.phase == "call":
        for a in obs.legal:
            if a.step.kind == "alone":
                out[a] = 1.0 if strength(hand) >= 17 else -5.0
            else:  # ``call X`` (SHP-6.1)
                c = a.step.cards[0]
                hold = sum(1 for h in iter_cards(hand) if fail_suit(h) == c // 13)
                out[a] = 5.0 - hold
        return out
    if obs.phase == "play":
        return _play(obs)
    return out


def _bury(obs: Observation, out: dict[Action, float]) -> dict[Action, float]:
    hand = obs.hand
    counts = [0, 0, 0, 0]
    for h in iter_cards(hand):
        s = fail_suit(h)
        if s is not None:
            counts[s] += 1
    aces = {s for s in range(3) if hand >> (s * 13) & 1}  # AC, AS, AH
    callable_suits = [s for s in range(3) if counts[s] and s not in aces]
    for a in obs.legal:
        c = a.step.cards[0]  # ``bury X`` (SHP-5.1)
        if is_trump(c):
            out[a] = -10.0 - power(c)
            continue
        s = c // 13
        score = points(c) * 0.5 + (4.0 if counts[s] == 1 else 0.0)
        if CARD_NAMES[c][0] == "A":
            score -= 6.0  # a fail ace wins its trick
        if callable_suits == [s] and counts[s] == 1:
            score -= 8.0  # the last hold card for a call
        out[a] = score
    return out


def _play(obs: Observation) -> dict[Action, float]:
    info = obs.info
    me = obs.seat
    n = obs.num_seats
    leader = info["leader"]
    trick_cards = [card_of(t) for t in info["trick"]]
    trick = [((leader + i) % n, c) for i, c in enumerate(trick_cards)]
    seen = obs.hand | played_cards(obs.history)
    for c in trick_cards:
        seen |= BIT[c]
    if info.get("bury"):
        for t in info["bury"]:
            seen |= BIT[card_of(t)]
    if info.get("blind"):
        for t in info["blind"]:
            seen |= BIT[card_of(t)]
    unseen = DECK & ~seen
    cards = play_actions(obs.legal)
    mode = info["mode"]
    if mode == "leaster":
        return _leaster(trick, cards, unseen, n)
    picker = info["picker"]
    partner = info["partner"]
    called = info["called"]
    i_hold_called = called is not None and bool(obs.hand >> card_of(called) & 1)
    picker_side = me in (picker, partner) or i_hold_called
    led = trick[0][1] if trick else None

    def friend(s: int) -> bool:
        if s == me:
            return True
        if picker_side:
            return s == picker or (partner is not None and s == partner)
        # a defender: every seat but the picker and the known partner
        return s != picker and (partner is None or s != partner)

    if picker_side:
        partner_to_come = partner is not None and any(
            (me + k) % n in (picker, partner) for k in range(1, n - len(trick))
        )
    else:
        partner_to_come = len(trick) < n - 2
    view = TrickView(
        seat=me,
        hand=obs.hand,
        trick=trick,
        beats=lambda c, w: beats(c, w, led if led is not None else c),
        power=power,
        points=points,
        is_trump=is_trump,
        friend=friend,
        unseen=unseen,
        to_come=n - 1 - len(trick),
        my_side_declares=picker_side,
        partner_to_come=partner_to_come,
    )
    scores = score_plays(view, cards)
    if not trick and not picker_side and called is not None:
        suit = card_of(called) // 13
        for a, c in cards.items():
            if fail_suit(c) == suit:
                scores[a] += 12.0  # defenders lead the called suit
    return scores


def _leaster(
    trick: list[tuple[int, Card]], cards: dict[Action, Card], unseen: CardSet, n: int
) -> dict[Action, float]:
    out: dict[Action, float] = {}
    if not trick:
        for a, c in cards.items():
            out[a] = -power(c) - points(c) * 0.2  # lead low
        return out
    led = trick[0][1]
    view_beats = [(s, c) for s, c in trick]
    _, w = winning_of(view_beats, led)
    for a, c in cards.items():
        if beats(c, w, led):
            out[a] = -10.0 - points(c) - sum(points(x) for _, x in trick)
        else:
            out[a] = points(c) + 0.1 * power(c)  # duck, dumping points on the winner
    return out


def winning_of(trick: list[tuple[int, Card]], led: Card) -> tuple[int, Card]:
    """(seat, card) winning a non-empty trick."""
    seat, w = trick[0]
    for s, c in trick[1:]:
        if beats(c, w, led):
            seat, w = s, c
    return seat, w


BATCH_TUNING = {"worlds": 80, "leaf": 3, "hidden": 1}
"""Sheepshead's settings for ``bsearch`` (``folkcards.bots.batched.batch_tuning``): 80
sampled deals rather than 64; the last three tricks of each playout solved double dummy
by the kernel (``folkcards.batch.sheepshead._dd``, the picker's side against the
defenders, SHP-8); and playouts in which the called partner is known only to itself until
the called card falls (SHP-7.5; ``hidden``), where the fast policy would otherwise let
every seat play as if it knew the sides. Each measured alone was within a point of the
plain 64-deal search (61.0–61.3 % against 61.7 % on seed 1, 30 boards); together they won
63.3 % on seed 1 and 59.7 % on seed 2 (58.3 % before); docs/bots.md, "Batched search"."""
