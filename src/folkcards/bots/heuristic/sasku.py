"""Sasku heuristic (rules/sasku.md and its seed's advice).

* cut: ``deal threes`` (the method of a cutter who "says nothing", SAS-6.2);
* lone-picture exchange: give the lone picture (it strengthens the partner's trumps,
  SAS-7); return the cheapest suit card of the shortest plain suit;
* auction: *bid by potential trumps* (SAS-8.1) — a hand's strength is its pictures
  and cards of its longest suit, weighted by rank; bid the lowest legal number while
  the strength supports it; say ``diamonds`` with a diamond-led hand (the diamond
  column pays more, SAS-13.5) or **when rivals threaten lambapea** (a bid of 8 or 9
  by an opponent, SAS-13.1);
* declaration: the suit with the most potential trumps (diamonds on a tie: it pays
  more); override with ``diamonds`` when an opponent's trump stands and our diamond
  hand is good enough, or the opponents bid high;
* play: draw trumps with sure winners when declaring, cash plain aces, give points to
  a partner who is sure to win, win cheaply, throw the cheapest card otherwise.
"""

from __future__ import annotations

from folkcards.bots.heuristic.common import (
    TrickView,
    card_of,
    play_actions,
    played_cards,
    score_plays,
)
from folkcards.cards import BIT, CARD_NAMES, SUIT_MASK, Card, CardSet, iter_cards, ranks_mask
from folkcards.engine.actions import Action
from folkcards.engine.api import Observation
from folkcards.engine.tricks import TrumpConfig

DECK: CardSet = ranks_mask("AKQJT9876")
PICTURES: CardSet = ranks_mask("KQJ")
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
PLAIN_RANKS = tuple("AKQJT98765432".index(r) for r in "AT9876")


def _trump_order(suit: int) -> list[Card]:
    letter = "CSHD"[suit]
    names = [f"6{letter}"] + [r + s for r in "KQJ" for s in "CSHD"]
    names += [r + letter for r in "AT987"]
    return [CARD_NAMES.index(n) for n in names]


CONFIGS = tuple(TrumpConfig(DECK, _trump_order(t), PLAIN_RANKS) for t in range(4))
POWER: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (30 - _trump_order(t).index(c))
        if c in _trump_order(t)
        else (6 - PLAIN_RANKS.index(c % 13) if c % 13 in PLAIN_RANKS else 0)
        for c in range(52)
    )
    for t in range(4)
)
"""A small ordinal per card and trump suit: trumps 13–30, plain cards 1–6."""
BID_BASE = 6.5
BID_STEP = 0.8
DIAMONDS_AT = 7.0
PICTURE_WEIGHT = {"K": 1.4, "Q": 1.1, "J": 0.9}
TRUMP_WEIGHT = {"6": 1.6, "A": 0.8, "T": 0.7, "9": 0.5, "8": 0.5, "7": 0.5}


def points(c: Card) -> int:
    """Sasku card points (SAS-4.1)."""
    return POINTS.get(CARD_NAMES[c][0], 0)


def potential(hand: CardSet, suit: int) -> int:
    """Pictures plus cards of ``suit`` (SAS-8.1)."""
    return (hand & PICTURES).bit_count() + (hand & SUIT_MASK[suit] & ~PICTURES).bit_count()


def strength(hand: CardSet, suit: int) -> float:
    """Expected tricks-ish of a hand with ``suit`` trump: weighted trumps plus plain aces."""
    s = 0.0
    for c in iter_cards(hand):
        name = CARD_NAMES[c]
        if name[0] in PICTURE_WEIGHT:
            s += PICTURE_WEIGHT[name[0]]
        elif c // 13 == suit:
            s += TRUMP_WEIGHT.get(name[0], 0.5)
        elif name[0] == "A":
            s += 0.7
    return s


def best_suit(hand: CardSet, allowed: tuple[int, ...] = (0, 1, 2, 3)) -> tuple[int, float]:
    """The suit (of ``allowed``) that makes the strongest trump, diamonds on near-ties."""
    best = max(allowed, key=lambda t: (strength(hand, t) + (0.3 if t == 3 else 0.0), -t))
    return best, strength(hand, best)


def evaluate(obs: Observation) -> dict[Action, float]:
    """A score per legal action (higher is better)."""
    texts = {a.text: a for a in obs.legal}
    phase = obs.phase
    hand = obs.hand
    info = obs.info
    me = obs.seat
    out = dict.fromkeys(obs.legal, 0.0)
    if phase == "cut":
        if "deal threes" in texts:
            out[texts["deal threes"]] = 1.0
        return out
    if phase == "exchange":
        for a in obs.legal:
            verb, _, arg = a.text.partition(" ")
            if verb == "give":
                out[a] = 1.0
            elif verb == "return":
                c = card_of(arg)
                short = (hand & SUIT_MASK[c // 13] & ~PICTURES).bit_count()
                out[a] = -points(c) - 2.0 * short
        return out
    if phase == "auction":
        return _auction(obs, texts, out)
    if phase == "declare":
        for a in obs.legal:
            t = "CSHD".index(a.text[-1])
            out[a] = strength(hand, t) + (0.3 if t == 3 else 0.0)
        return out
    if phase == "override":
        declarer = info.get("declarer")
        if declarer is None:
            declarer = info.get("bidder")
        friend = declarer is not None and declarer % 2 == me % 2
        d_strength = strength(hand, 3)
        bid = info.get("bid") or 0
        want = not friend and (
            d_strength >= DIAMONDS_AT or (bid >= 8 and d_strength >= DIAMONDS_AT - 2)
        )
        if "diamonds" in texts:
            out[texts["diamonds"]] = 1.0 if want else -1.0
        return out
    if phase == "play":
        return _play(obs)
    return out


def _auction(
    obs: Observation, texts: dict[str, Action], out: dict[Action, float]
) -> dict[Action, float]:
    hand = obs.hand
    info = obs.info
    me = obs.seat
    suit, s = best_suit(hand)
    length = potential(hand, suit)
    bidder = info.get("bidder")
    bid = info.get("bid") or 0
    partner_bid = bidder is not None and bidder % 2 == me % 2
    rival_bid = bidder is not None and not partner_bid
    # how high the hand supports: 5 needs a fair hand, each step a bit more
    supported = 0
    for n in range(5, 10):
        if length >= n and s >= BID_BASE + BID_STEP * (n - 5):
            supported = n
    if "pass" in texts:
        out[texts["pass"]] = 0.0
    if "diamonds" in texts:
        d = strength(hand, 3)
        threat = rival_bid and bid >= 8
        good_d = suit == 3 and s >= DIAMONDS_AT
        out[texts["diamonds"]] = 2.0 if (good_d or (threat and d >= DIAMONDS_AT - 2)) else -1.0
    for a in obs.legal:
        if a.text.startswith("bid "):
            n = int(a.text.split()[1])
            if n <= supported and not (partner_bid and supported - bid < 2):
                out[a] = 1.0 + 0.1 * (10 - n)  # the lowest supported bid
            else:
                out[a] = -1.0
    return out


def _play(obs: Observation) -> dict[Action, float]:
    info = obs.info
    me = obs.seat
    trump = "CSHD".index(info["trump"])
    config = CONFIGS[trump]
    trick = [(int(s), card_of(c)) for s, c in info["trick"]]
    seen = obs.hand | played_cards(obs.history)
    for _, c in trick:
        seen |= BIT[c]
    declarer = info.get("declarer")
    view = TrickView(
        seat=me,
        hand=obs.hand,
        trick=trick,
        beats=lambda c, w: config.beats_card(c, w),
        power=lambda c: POWER[trump][c],
        points=points,
        is_trump=lambda c: bool(config.trumps >> c & 1),
        friend=lambda s: s % 2 == me % 2,
        unseen=DECK & ~seen,
        to_come=3 - len(trick),
        my_side_declares=declarer is not None and declarer % 2 == me % 2,
        partner_to_come=len(trick) < 2,
    )
    return score_plays(view, play_actions(obs.legal))
