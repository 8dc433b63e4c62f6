"""Huutopussi heuristic (rules/huutopussi.md and its seed's tactics section).

* bidding: value the hand in points — aces and tens, kings and queens, and above all
  **marriages** (K+Q of a suit: 40/60/80/100 when declared) and half marriages the
  partner may complete — plus what the partner's three best cards bring; bid while the
  estimate covers the next bid; overbid the partner only with a much stronger hand; ask a
  ``redeal`` with a hand that allows it and is weak; when the opponents are near 500,
  bid harder (the declarer's side can keep them from scoring — **aim at läpäri**);
* exchange: **the partner gives the best three cards** (aces, tens, marriage halves);
  the declarer returns its least useful cards and sets the **contract as high as the
  hand allows** (its estimate after the exchange, never below the bid);
* declarations: declare the most valuable marriage at once; else ask the partner for
  the half of a marriage, else for a marriage; answer with the most valuable suit;
* Erlangen: ``kontra``/``re`` with many aces and tens;
* play: win tricks with aces and tens, give points to a partner who is sure to win,
  throw cheap cards otherwise; near 500, a declarer takes every trick it can.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from folkcards.bots.heuristic.common import (
    TrickView,
    card_of,
    play_actions,
    played_cards,
    score_plays,
)
from folkcards.cards import BIT, CARD_NAMES, RANKS, SUIT_MASK, SUITS, Card, CardSet, iter_cards
from folkcards.engine.actions import Action
from folkcards.engine.api import Observation
from folkcards.games.huutopussi.rules import (
    DECK,
    MARRIAGE_VALUES,
    POINT_SCHEMES,
    TRICK_ORDER,
    rules_of,
)

_POINTS_BY_LETTER: dict[str, Mapping[str, int]] = {
    scheme: MappingProxyType({RANKS[r]: p for r, p in points.items()})
    for scheme, points in POINT_SCHEMES.items()
}
_MARRIAGES_BY_LETTER: dict[tuple[int, ...], Mapping[str, int]] = {
    values: MappingProxyType(dict(zip(SUITS, values, strict=True)))
    for values in MARRIAGE_VALUES.values()
}


def card_points(variant: Any) -> Mapping[str, int]:
    """Card points by rank letter for the variant (HUU-1.3, HUU-11.1, HUU-12.1): the
    game's point scheme for it (``rules_of``; the variant is the normalized one of an
    observation)."""
    return _POINTS_BY_LETTER[rules_of(variant).point_scheme]


def marriage_values(variant: Any) -> Mapping[str, int]:
    """Marriage value per suit letter (HUU-1.5, HUU-11.3): the game's own for the variant
    (``rules_of``)."""
    return _MARRIAGES_BY_LETTER[rules_of(variant).marriage_values]


def power(c: Card) -> int:
    """Plain ordinal 1–9 (A highest, HUU-1.2)."""
    return 9 - TRICK_ORDER.index(c % 13)


def has(hand: CardSet, name: str) -> bool:
    """True when ``hand`` holds the card named ``name``."""
    return bool(hand >> card_of(name) & 1)


def estimate(hand: CardSet, variant: Any, used: frozenset[str] = frozenset()) -> float:
    """Points the hand's side can expect as declarer: its winners, its marriages and
    half marriages, and the partner's help (a rough, deliberately cautious figure)."""
    pts = card_points(variant)
    mv = marriage_values(variant)
    est = 45.0
    for s, letter in enumerate(SUITS):
        suit = hand & SUIT_MASK[s]
        a, t = has(hand, "A" + letter), has(hand, "T" + letter)
        k, q = has(hand, "K" + letter), has(hand, "Q" + letter)
        n = suit.bit_count()
        if a:
            est += pts["A"] + 3
        if t:
            est += pts["T"] * (0.9 if a else 0.5 if n >= 3 else 0.3)
        if letter in used:
            continue
        if k and q:
            est += mv[letter] * 0.8
        elif k or q:
            est += mv[letter] * 0.15
        est += max(0, n - 3) * 4
    return est


def keep_value(c: Card, hand: CardSet, variant: Any) -> float:
    """How much the declarer wants to keep card ``c`` (returns and discards give the
    lowest first)."""
    name = CARD_NAMES[c]
    letter = name[1]
    pts = card_points(variant)
    mv = marriage_values(variant)
    v = float(pts.get(name[0], 0)) + power(c) * 0.5
    if name[0] == "A":
        v += 15
    if name[0] == "T" and has(hand, "A" + letter):
        v += 8
    if name[0] in "KQ":
        other = ("Q" if name[0] == "K" else "K") + letter
        v += mv[letter] * (0.5 if has(hand, other) else 0.1)
    v += (hand & SUIT_MASK[c // 13]).bit_count() * 1.5  # long suits run
    return v


def evaluate(obs: Observation) -> dict[Action, float]:
    """A score per legal action (higher is better)."""
    info = obs.info
    hand = obs.hand
    variant = obs.variant
    me = obs.seat
    n = obs.num_seats
    out = dict.fromkeys(obs.legal, 0.0)
    phase = obs.phase
    pts = card_points(variant)
    mv = marriage_values(variant)
    totals = list(obs.carry.get("totals", [0] * (2 if n == 4 else n)))
    side = me % 2 if n == 4 else me
    opp_best = max((t for i, t in enumerate(totals) if i != side), default=0)
    if phase == "bidding":
        est = estimate(hand, variant) + (20 if opp_best >= 400 else 0)
        high = info.get("high_bid") or 0
        bidder = info.get("high_bidder")
        partner_high = n == 4 and bidder is not None and bidder % 2 == me % 2
        for a in obs.legal:
            step = a.step
            kind = step.kind
            if kind == "bid":
                b = step.number
                assert b is not None  # ``bid N`` names its number (HUU-4.2)
                ok = b <= est and not (partner_high and est < high + 30)
                out[a] = (1.0 - b / 1000.0) if ok else -1.0 - b / 1000.0
            elif kind == "redeal":
                out[a] = 0.5 if est < 70 else -2.0
        return out
    if phase == "give":
        for a in obs.legal:  # ``give C`` (HUU-5.1)
            c = a.step.cards[0]
            name = CARD_NAMES[c]
            v = float(pts.get(name[0], 0)) + (12 if name[0] == "A" else 0)
            if name[0] in "KQ":
                other = ("Q" if name[0] == "K" else "K") + name[1]
                v += mv[name[1]] * (0.3 if has(hand, other) else 0.1)
            out[a] = v + power(c) * 0.1
        return out
    if phase in ("return", "discard"):
        for a in obs.legal:  # ``return C`` (HUU-5.3), ``discard C`` (HUU-6.2)
            c = a.step.cards[0]
            v = -keep_value(c, hand, variant)
            if phase == "discard":
                v += pts.get(CARD_NAMES[c][0], 0) * 0.6  # discards count for the declarer
            out[a] = v
        return out
    if phase == "contract":
        used = frozenset(d["suit"] for d in info.get("declarations", []))
        target = 5 * int((estimate(hand, variant, used) - 15) // 5)
        bid = info.get("bid") or 0
        want = max(bid, target)
        for a in obs.legal:
            contract = a.step.number
            assert contract is not None  # ``contract N`` names its number (HUU-5.2, HUU-6.3)
            out[a] = -abs(contract - want)
        return out
    if phase == "answer":
        for a in obs.legal:  # ``answer X`` by the marriage's value; ``no``, ``yes`` 0
            suit = a.step.suit
            out[a] = float(mv[suit]) if suit is not None else 0.0
        return out
    if phase == "play":
        return _play(obs, out)
    return out


def _play(obs: Observation, out: dict[Action, float]) -> dict[Action, float]:
    info = obs.info
    hand = obs.hand
    variant = obs.variant
    me = obs.seat
    n = obs.num_seats
    mv = marriage_values(variant)
    pts = card_points(variant)
    declarer = info.get("declarer")
    cards = play_actions(obs.legal)
    aces_tens = sum(1 for c in iter_cards(hand) if CARD_NAMES[c][0] in "AT")
    for a in obs.legal:
        step = a.step
        kind, suit = step.kind, step.suit
        if kind == "declare":  # ``declare X`` (HUU-8.3)
            assert suit is not None
            out[a] = 1000.0 + mv[suit]
        elif kind == "ask" and suit is not None:  # ``ask half X`` (HUU-8.5)
            out[a] = 500.0 + mv[suit] * 0.4
        elif kind == "ask":  # ``ask marriage`` (HUU-8.4)
            out[a] = 450.0
        elif kind in ("kontra", "re"):  # HUU-12.9
            out[a] = 800.0 if aces_tens >= 5 else -800.0
    if not cards:
        return out
    trump_letter = info.get("trump")
    trump = SUITS.index(trump_letter) if trump_letter else None
    leader = info.get("leader")
    trick_cards = [card_of(t) for t in info["trick"]]
    trick = [((leader + i) % n, c) for i, c in enumerate(trick_cards)] if leader is not None else []
    seen = hand | played_cards(obs.history)
    for c in trick_cards:
        seen |= BIT[c]
    for t in info.get("discards") or []:  # a 3-player declarer's discards are out of play
        seen |= BIT[card_of(t)]

    def is_trump(c: Card) -> bool:
        return trump is not None and c // 13 == trump

    def beats(c: Card, w: Card) -> bool:
        if is_trump(c):
            return not is_trump(w) or power(c) > power(w)
        if is_trump(w):
            return False
        return c // 13 == w // 13 and power(c) > power(w)

    if n == 4:

        def friend(s: int) -> bool:
            return s % 2 == me % 2
    else:

        def friend(s: int) -> bool:
            return s == me or (me != declarer and s != declarer)

    partner_seats = [s for s in range(n) if s != me and friend(s)]
    to_come = n - 1 - len(trick)
    after = [(me + k) % n for k in range(1, to_come + 1)]
    totals = list(obs.carry.get("totals", [0] * (2 if n == 4 else n)))
    side = me % 2 if n == 4 else me
    opp_best = max((t for i, t in enumerate(totals) if i != side), default=0)
    view = TrickView(
        seat=me,
        hand=hand,
        trick=trick,
        beats=beats,
        power=lambda c: power(c) + (15 if is_trump(c) else 0),
        points=lambda c: pts.get(CARD_NAMES[c][0], 0),
        is_trump=is_trump,
        friend=friend,
        unseen=DECK & ~seen,
        to_come=to_come,
        my_side_declares=declarer is not None and friend(declarer),
        partner_to_come=any(s in partner_seats for s in after),
    )
    scores = score_plays(view, cards)
    lapari = declarer == me and opp_best >= 400
    for a, v in scores.items():
        out[a] = v + (5.0 if lapari and v > 15 else 0.0)
    return out


BATCH_TUNING = {"leaf": 3, "only": "play+give+return+contract"}
"""Huutopussi's settings for ``bsearch`` (``folkcards.bots.batched.batch_tuning``): the
playouts stop with three tricks left, which the kernel's double-dummy solver
(``folkcards.batch.huutopussi._dd``: the cards and the declarations, asks, answers and
calls, HUU-7 – HUU-9, HUU-12) then values exactly; three-player deals, which it does not
solve, are played out. Against ``heuristic`` (100 boards a seed) it won 69.5, 69.5, 65.0
and 72.0 % on seeds 3, 4, 6 and 7, against 64.5, 66.5, 62.5 and 67.0 % without it, and
63.0 against 60.0 % on seed 8, played after the choice; 8–10 ms a decision instead of
6–7 (docs/bots.md, "Batched search").

The partner's gift, the declarer's return and the contract (HUU-5, HUU-6) are searched
too, through the bridge (the heuristic's six best choices, each applied to every sampled
deal and the cards played by the kernel): on 200 boards of seed 48 against ``heuristic``
77.6 % against 68.4 % with the card play alone (paired +9.2 [+5.7, +13.0]), 58.4 % head
to head, at 15 ms a decision; on seed 49, played after the choice, 75.1 against 64.9 %
(+10.2 [+5.8, +14.5]), 58.2 % head to head (docs/bots.md, "Searching before card
play")."""
