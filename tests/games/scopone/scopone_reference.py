"""An independent, deliberately naive Scopone referee used to cross-check the engine.

Written straight from the rules file with lists of card texts and ``itertools`` (no
bitmasks, no memo tables, no code shared with ``folkcards.games.scopone``), so an
agreement between the two over many random deals is real evidence.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

RANKS = "A234567JQK"
VALUE = {r: i + 1 for i, r in enumerate(RANKS)}  # SCO-1.2
ORDER_RANKS = "AKQJ765432"  # SCO-1.4 card order within a suit
PRIMIERA = {
    "7": 21,
    "6": 18,
    "A": 16,
    "5": 15,
    "4": 14,
    "3": 13,
    "2": 12,
    "J": 10,
    "Q": 10,
    "K": 10,
}
GRADED = dict(PRIMIERA, J=8, Q=9, K=10)
DECK = [r + s for s in "CSHD" for r in ORDER_RANKS]  # the 40 cards in card order


def order(card: str) -> int:
    """Position of a card in the card order (suits C S H D, ranks A K Q J 7 … 2)."""
    return "CSHD".index(card[1]) * 10 + ORDER_RANKS.index(card[0])


def deal(deck: list[str], dealer: int, scientifico: bool) -> tuple[list[list[str]], list[str]]:
    """Deal procedurally as the seed says (SCO-3.1 / SCO-3.2): packets round the table."""
    hands: list[list[str]] = [[], [], [], []]
    table: list[str] = []
    pos = 0
    seats = [(dealer + k) % 4 for k in (1, 2, 3, 4)]

    def give(seat: int | None, n: int) -> None:
        nonlocal pos
        (table if seat is None else hands[seat]).extend(deck[pos : pos + n])
        pos += n

    if scientifico:
        for _ in range(2):
            for s in seats:
                give(s, 5)
    else:
        for rnd in range(3):
            for s in seats:
                give(s, 3)
            if rnd < 2:
                give(None, 2)
    assert pos == 40
    return hands, table


def options(card: str, table: list[str]) -> list[list[str]]:
    """SCO-4.2 by brute force: singles first, else every ≥2-subset of the right sum."""
    v = VALUE[card[0]]
    singles = [t for t in table if VALUE[t[0]] == v]
    if singles:
        return sorted([[t] for t in singles], key=lambda o: [order(x) for x in o])
    out = []
    tbl = sorted(table, key=order)
    for k in range(2, len(tbl) + 1):
        for combo in combinations(tbl, k):
            if sum(VALUE[t[0]] for t in combo) == v:
                out.append(list(combo))
    return sorted(out, key=lambda o: [order(x) for x in o])


def legal(hand: list[str], table: list[str]) -> list[str]:
    """SCO-4.3 / SCO-4.5: the canonical legal texts in order."""
    out = []
    for c in sorted(hand, key=order):
        opts = options(c, table)
        if not opts:
            out.append(f"play {c}")
        for o in opts:
            out.append(f"play {c} take {' '.join(o)}")
    return out


def play(
    hands: list[list[str]],
    table: list[str],
    dealer: int,
    variant: dict[str, Any],
    actions: list[str],
    check_legal: Any = None,
) -> dict[str, Any] | None:
    """Play canonical actions; return the SCO-6.8 result when the deal is complete.

    ``check_legal(turn_index, seat, texts)`` is called before every action when given.
    """
    hands = [list(h) for h in hands]
    table = list(table)
    if not variant.get("scientifico") and sum(t[0] == "K" for t in table) >= 3:
        assert not actions
        return {"score": [0, 0], "redeal": True}
    final = 40 if variant.get("scientifico") else 36
    piles: list[list[str]] = [[], []]
    sweeps = [0, 0]
    last = None
    seat = (dealer + 1) % 4
    for i, text in enumerate(actions):
        if check_legal is not None:
            check_legal(i, seat, legal(hands[seat], table))
        assert text in legal(hands[seat], table), (i, text)
        words = text.split()
        c = words[1]
        take = words[3:]
        hands[seat].remove(c)
        if take:
            for t in take:
                table.remove(t)
            piles[seat % 2] += [c, *take]
            last = seat
            if not table and (i + 1 != final or variant.get("dealer_last_sweep")):
                sweeps[seat % 2] += 1
        else:
            table.append(c)
        seat = (seat + 1) % 4
    if len(actions) < final:
        if check_legal is not None:
            check_legal(len(actions), seat, legal(hands[seat], table))
        return None
    assert last is not None
    piles[last % 2] += table
    return score(piles, sweeps, last, variant)


def score(
    piles: list[list[str]], sweeps: list[int], last: int, variant: dict[str, Any]
) -> dict[str, Any]:
    """SCO-6: the result object from the two team piles."""
    cards = [len(p) for p in piles]
    coins = [sum(c[1] == "D" for c in p) for p in piles]
    sette = 0 if "7D" in piles[0] else 1
    table = GRADED if variant.get("primiera_pictures") == "graded" else PRIMIERA
    prim = []
    for p in piles:
        best = {}
        for c in p:
            best[c[1]] = max(best.get(c[1], 0), table[c[0]])
        prim.append(sum(best.values()) if len(best) == 4 else 0)
    sc = list(sweeps)
    for t in (0, 1):
        o = 1 - t
        sc[t] += int(cards[t] > cards[o]) + int(coins[t] > coins[o]) + int(prim[t] > prim[o])
    sc[sette] += 1
    res: dict[str, Any] = {
        "score": sc,
        "redeal": False,
        "cards": cards,
        "coins": coins,
        "settebello": sette,
        "primiera": prim,
        "sweeps": list(sweeps),
        "last_capture": last,
    }
    if variant.get("re_bello"):
        rb = 0 if "KD" in piles[0] else 1
        sc[rb] += 1
        res["re_bello"] = rb
    if variant.get("napola"):
        nap = []
        for p in piles:
            n = 0
            for r in RANKS:
                if r + "D" in p:
                    n += 1
                else:
                    break
            nap.append(n if n >= 3 else 0)
        sc[0] += nap[0]
        sc[1] += nap[1]
        res["napola"] = nap
        res["capotto"] = 0 if coins[0] == 10 else 1 if coins[1] == 10 else None
    return res


def replay_deal(rec: dict[str, Any], check_legal: Any = None) -> dict[str, Any] | None:
    """The reference result of a deal record with canonical actions (None if unfinished)."""
    variant = rec.get("variant", {})
    sci = bool(variant.get("scientifico"))
    if "deck" in rec:
        hands, table = deal([c.upper() for c in rec["deck"]], rec["dealer"], sci)
    else:
        hands = [[c.upper() for c in h] for h in rec["hands"]]
        table = [c.upper() for c in rec.get("extra", {}).get("table", [])]
    return play(hands, table, rec["dealer"], variant, rec["actions"], check_legal)
