"""Shared helpers of the Sheepshead tests: fixed hands, records, playouts and a naive
referee written straight from the rules text (independent of the module's tables)."""

from __future__ import annotations

import random
from typing import Any

from folkcards.engine.records import load_deal, replay
from folkcards.games.sheepshead import GAME, SheepsheadDeal

# Dealer 0, so seat 1 is eldest. Seat 1 can pick, bury KS TD and call AC (held by seat 2).
HANDS_A = [
    "JD KC 8S 7S KH 8H",  # seat 0 (dealer)
    "QC QS QH JC 7C KS",  # seat 1 (eldest)
    "AC TC 9C QD JS 7H",  # seat 2
    "AS TS 9S JH 8D 7D",  # seat 3
    "AH TH 9H KD 9D 8C",  # seat 4
]
BLIND_A = "AD TD"

# The hand-checked deal of HANDS_A: seat 1 picks, buries KS TD (14), calls AC; seat 2
# is the partner; the picker side takes all six tricks.
ACTIONS_A = [
    "pick", "bury KS", "bury TD", "call AC",
    "play QC", "play JS", "play 7D", "play KD", "play JD",  # seat 1 wins 11
    "play 7C", "play AC", "play 9S", "play 8C", "play KC",  # seat 2 wins 15
    "play TC", "play AS", "play 9D", "play 8H", "play AD",  # seat 1 wins 32
    "play QS", "play QD", "play 8D", "play AH", "play 7S",  # seat 1 wins 17
    "play QH", "play 9C", "play JH", "play TH", "play KH",  # seat 1 wins 19
    "play JC", "play 7H", "play TS", "play 9H", "play 8S",  # seat 1 wins 12
]  # fmt: skip


def record(
    hands: list[str] | None = None,
    blind: str | None = None,
    actions: list[str] | None = None,
    dealer: int = 0,
    variant: dict[str, Any] | None = None,
    **keys: Any,
) -> dict[str, Any]:
    """A deal record with ``hands`` (default HANDS_A) and ``extra.blind``."""
    rec: dict[str, Any] = {
        "game": "sheepshead",
        "variant": variant or {},
        "dealer": dealer,
        "hands": [h.split() for h in (hands or HANDS_A)],
        "extra": {"blind": (blind or BLIND_A).split()},
        "actions": list(actions or []),
    }
    rec.update(keys)
    return rec


def state(actions: list[str], **kw: Any) -> SheepsheadDeal:
    """The state after ``actions`` on HANDS_A (or the given hands)."""
    st = load_deal(record(actions=actions, **kw))
    assert isinstance(st, SheepsheadDeal)
    return st


def out(actions: list[str], **kw: Any) -> dict[str, Any]:
    """``replay`` of a HANDS_A record."""
    return replay(record(actions=actions, **kw))


def legal(actions: list[str], **kw: Any) -> list[str]:
    """The legal list after ``actions`` (the deal must be in progress)."""
    o = out(actions, **kw)
    assert o["ok"] and not o["over"], o
    return list(o["legal"])


def playout(
    rng: random.Random, variant: dict[str, Any] | None = None, dealer: int = 0, stake: int = 1
) -> SheepsheadDeal:
    """A complete random legal deal."""
    st = GAME.random_deal(
        rng, GAME.normalize_variant(variant or {}), dealer, carry={"stake": stake}
    )
    assert isinstance(st, SheepsheadDeal)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    return st


# --- naive referee (from the rules text only) ---------------------------------------------

TRUMP_TEXT = ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D"]
FAIL_TEXT = ["A", "T", "K", "9", "8", "7"]
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def effsuit(card: str) -> str:
    """SHP-1.2: 'T' for trump, else the printed suit."""
    return "T" if card in TRUMP_TEXT else card[1]


def trick_winner(cards: list[str]) -> int:
    """SHP-7.7: index of the winning card."""
    trumps = [i for i, c in enumerate(cards) if c in TRUMP_TEXT]
    if trumps:
        return min(trumps, key=lambda i: TRUMP_TEXT.index(cards[i]))
    led = cards[0][1]
    same = [i for i, c in enumerate(cards) if c[1] == led]
    return min(same, key=lambda i: FAIL_TEXT.index(cards[i][0]))


def referee(rec: dict[str, Any]) -> dict[str, Any]:
    """The result of a complete deal record, computed naively from SHP-4..SHP-9."""
    variant = {"no_pick": "leaster", "double_on_bump": False, **rec.get("variant", {})}
    dealer = rec["dealer"]
    stake = rec.get("stake", 1)
    if "hands" in rec:
        hands = [list(h) for h in rec["hands"]]
        blind = list(rec["extra"]["blind"])
    else:
        deck = rec["deck"]
        hands = [[] for _ in range(5)]
        for i in range(5):
            seat = (dealer + 1 + i) % 5
            hands[seat] = deck[3 * i : 3 * i + 3] + deck[17 + 3 * i : 20 + 3 * i]
        blind = deck[15:17]
    acts = list(rec["actions"])
    picker = None
    seat = (dealer + 1) % 5
    k = 0
    while acts[k] == "pass":
        k += 1
        seat = (seat + 1) % 5
        if k == 5:
            break
    if k == 5 and variant["no_pick"] == "doubler":
        return {"mode": "doubler", "score": [0] * 5, "redeal": True, "stake": stake}
    bury: list[str] = []
    called = None
    mode = "leaster"
    if k < 5:
        assert acts[k] == "pick"
        picker = seat
        hands[picker] += blind
        k += 1
        for _ in range(2):
            c = acts[k].split()[1]
            hands[picker].remove(c)
            bury.append(c)
            k += 1
        if acts[k] == "alone":
            mode = "alone"
        else:
            mode = "called"
            called = acts[k].split()[1]
        k += 1
    partner = None
    if called is not None:
        partner = next(s for s in range(5) if called in hands[s])
    tricks = [0] * 5
    points = [0] * 5
    leader = (dealer + 1) % 5
    plays = [a.split()[1] for a in acts[k:]]
    assert len(plays) == 30
    last_winner = None
    for t in range(6):
        cards = plays[5 * t : 5 * t + 5]
        w = (leader + trick_winner(cards)) % 5
        tricks[w] += 1
        points[w] += sum(POINTS[c[0]] for c in cards)
        leader = last_winner = w
    res: dict[str, Any] = {"mode": mode, "tricks": tricks, "stake": stake, "redeal": False}
    if mode == "leaster":
        assert last_winner is not None
        points[last_winner] += sum(POINTS[c[0]] for c in blind)
        low = min(points[s] for s in range(5) if tricks[s])
        winners = [s for s in range(5) if tricks[s] and points[s] == low]
        n = len(winners)
        res.update(points=points, leaster_winners=winners)
        res["score"] = [(5 - n) if s in winners else -n for s in range(5)]
        return res
    assert picker is not None
    points[picker] += sum(POINTS[c[0]] for c in bury)
    side = [picker] if partner is None else [picker, partner]
    p = sum(points[s] for s in side)
    t = sum(tricks[s] for s in side)
    if t == 6:
        won, level = "picker", 3
    elif t == 0:
        won, level = "defenders", 3
    elif p >= 91:
        won, level = "picker", 2
    elif p >= 61:
        won, level = "picker", 1
    elif p >= 31:
        won, level = "defenders", 1
    else:
        won, level = "defenders", 2
    u = stake * (2 if won == "defenders" and variant["double_on_bump"] else 1)
    score = [0] * 5
    for s in range(5):
        if mode == "alone":
            score[s] = (4 * level * u if s == picker else -level * u) * (
                1 if won == "picker" else -1
            )
        elif won == "defenders" and level == 3:
            score[s] = -9 * u if s == picker else 0 if s == partner else 3 * u
        else:
            share = 2 * level if s == picker else level if s == partner else -level
            score[s] = share * u * (1 if won == "picker" else -1)
    res.update(
        score=score,
        picker=picker,
        partner=partner,
        called=called,
        bury=sorted(bury, key=lambda c: ("CSHD".index(c[1]), "AKQJT987".index(c[0]))),
        points=points,
        picker_points=p,
        picker_tricks=t,
        won_by=won,
        level=level,
    )
    return res
