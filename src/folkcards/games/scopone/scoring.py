"""Scoring a Scopone deal (SCO-6), with re bello and napola (SCO-8.3, SCO-8.4).

After the leftover (SCO-5.3) the two team piles hold the whole pack, so team 1's counts
are the rest of team 0's: 40 cards, 10 coins. A point each for more than 20 cards
(SCO-6.1), more than 5 coins (SCO-6.2), the settebello (SCO-6.3) and the higher primiera
(SCO-6.4); one per sweep (SCO-6.5); the variants' points (SCO-6.6); ties score nothing
(SCO-10.7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from folkcards.cards import CardSet
from folkcards.engine.api import JSON

from .fast import primiera_both
from .rules import COINS, NAPOLA_RUN, NAPOLA_START, PRIMIERA_TABLES, RE_BELLO, SETTEBELLO

if TYPE_CHECKING:
    from .deal import ScoponeDeal


def primiera(pile: CardSet, pictures: str = "flat") -> int:
    """A pile's primiera (SCO-6.4): the sum of its best card per suit (SCO-1.3, SCO-8.6),
    or 0 when it lacks a suit — so any four-suit primiera beats one missing a suit."""
    table = PRIMIERA_TABLES[pictures]
    total = 0
    for s in range(4):
        best = table[(pile >> (13 * s)) & 0x1FFF]
        if not best:
            return 0
        total += best
    return total


def napola_points(pile: CardSet) -> int:
    """Napola (SCO-8.4): the length of the unbroken coin run from the ace if it reaches
    the 3 (A 2 3 … 7 J Q K: 3 to 10), else 0."""
    if pile & NAPOLA_START != NAPOLA_START:
        return 0
    n = 3
    while n < 10 and pile >> NAPOLA_RUN[n] & 1:
        n += 1
    return n


def deal_result(deal: ScoponeDeal) -> dict[str, JSON]:
    """The result object of SCO-6.8 (a void deal, SCO-3.4: ``{"score": [0, 0], "redeal":
    true}``); ValueError while the deal goes on."""
    if deal.to_act is not None:
        raise ValueError("the deal is not over")
    if deal.redeal:
        return {"score": [0, 0], "redeal": True}
    rules = deal.rules
    p0, p1 = deal.piles
    c0 = p0.bit_count()  # the piles hold all 40 cards and 10 coins now (SCO-5.3)
    d0 = (p0 & COINS).bit_count()
    sette = 0 if p0 >> SETTEBELLO & 1 else 1
    prim0, prim1 = primiera_both(p0, rules.primiera_pictures)  # SCO-6.4
    s0, s1 = deal.sweeps
    score = [  # SCO-6.7: SCO-6.1 cards, SCO-6.2 coins, SCO-6.4 primiera, SCO-6.5 sweeps
        s0 + (c0 > 20) + (d0 > 5) + (prim0 > prim1),
        s1 + (c0 < 20) + (d0 < 5) + (prim1 > prim0),
    ]
    score[sette] += 1  # SCO-6.3
    out: dict[str, JSON] = {
        "score": score,
        "redeal": False,
        "cards": [c0, 40 - c0],
        "coins": [d0, 10 - d0],
        "settebello": sette,
        "primiera": [prim0, prim1],
        "sweeps": [s0, s1],
        "last_capture": deal.last_capture,
    }
    if rules.re_bello:  # SCO-8.3
        rb = 0 if p0 >> RE_BELLO & 1 else 1
        score[rb] += 1
        out["re_bello"] = rb
    if rules.napola:  # SCO-8.4
        nap = [napola_points(p0), napola_points(p1)]
        score[0] += nap[0]
        score[1] += nap[1]
        out["napola"] = nap
        out["capotto"] = 0 if d0 == 10 else 1 if d0 == 0 else None  # all ten coins
    return out
