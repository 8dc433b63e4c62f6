"""Batched Huutopussi card play (HUU-7 – HUU-9, HUU-12, HUU-13): must follow, must trump,
must beat; trump made in mid-play by a declared marriage or an answered ask (HUU-8), each
suit once; Erlangen's first trick, its window after every trick and kontra/re; the three-
player deal; and every scoring rule (läpäri, Porvoo, Erlangen's doubling and rounding)."""

from __future__ import annotations

from typing import Any

import numpy as np

from folkcards.batch._jit import (
    ZERO,
    below,
    bit,
    has,
    njit,
    swing_choice,
    trick_choice,
    xorshift,
)
from folkcards.batch.core import Arrays, GameKernel, power_table
from folkcards.engine.api import DealState
from folkcards.games.huutopussi import rules as HS
from folkcards.games.huutopussi import rules as HT

SCHEMES = tuple(HT.POINT_SCHEMES)
CONFIGS = HT.CONFIGS  # 0..3: that suit trump; 4: no trump
BEATS = np.array([list(c.beats) + [0] * 12 for c in CONFIGS], np.uint64)
CLASS = np.array([list(c.class_of) + [0] * 12 for c in CONFIGS], np.uint64)
TRUMPS = np.array([c.trumps for c in CONFIGS], np.uint64)


def _points(scheme: str) -> list[int]:
    values = HT.POINT_SCHEMES[scheme]
    return [values.get(c % 13, 0) if c < 52 and HT.DECK >> c & 1 else 0 for c in range(64)]


POINTS = np.array([_points(s) for s in SCHEMES], np.int64)
POWER = np.array([power_table(c) for c in CONFIGS], np.int64)
KINGS = np.array(HT.KINGS, np.int64)
QUEENS = np.array(HT.QUEENS, np.int64)
PAIR = np.array(HT.PAIR, np.uint64)
ACES = np.uint64(HT.ACES)
SPADES = np.uint64(HT.SPADES)
WORD_ORDER = np.array(HT.SUIT_ORDER_WORDS, np.int64)

DECLARE, ASK_HALF, ASK_MARRIAGE, ANSWER_SUIT, ANSWER_NO, ANSWER_YES, KONTRA, RE = (
    64, 68, 72, 73, 77, 78, 79, 80
)  # fmt: skip


@njit
def _partner_of(seat: int, nseats: int, declarer: int) -> int:
    """HUU-2.1/2.3: the partner for declarations, or -1 (the 3-player declarer)."""
    if nseats == 4:
        return (seat + 2) & 3
    if declarer < 0 or seat == declarer:
        return -1
    return 3 - seat - declarer


@njit
def _card_mask(
    hand: np.uint64, n: int, led: int, win: int, t: int, erl: bool, first: bool
) -> np.uint64:
    """HUU-7.3 (and HUU-12.4 on Erlangen's first trick): the playable cards."""
    if n == 0:
        if erl and first:
            m = hand & ACES
            if m == ZERO:
                m = hand & SPADES
            if m == ZERO:
                m = hand
            return m
        return hand
    r = led % 13
    if erl and first and r != 0 and has(hand, led - r):
        return bit(led - r)
    m = hand & CLASS[t, led]
    if m == ZERO:
        m = hand & TRUMPS[t]
        if m == ZERO:
            m = hand
    g = m & BEATS[t, win]
    return g if g != ZERO else m


@njit
def _round5(x: int) -> int:
    r = x % 5
    return x - r if r <= 2 else x + 5 - r


@njit
def _run(
    hands: np.ndarray,
    nseats: np.ndarray,
    trick: np.ndarray,
    ntrick: np.ndarray,
    leader: np.ndarray,
    to_act: np.ndarray,
    answering: np.ndarray,
    tricks_done: np.ndarray,
    trump: np.ndarray,
    used: np.ndarray,
    broken: np.ndarray,
    window: np.ndarray,
    asker: np.ndarray,
    ask_suit: np.ndarray,
    tricks: np.ndarray,
    points: np.ndarray,
    marriages: np.ndarray,
    calls: np.ndarray,
    declarer: np.ndarray,
    contract: np.ndarray,
    bid: np.ndarray,
    erlangen: np.ndarray,
    porvoo: np.ndarray,
    last_trick: np.ndarray,
    total_tricks: np.ndarray,
    scheme: np.ndarray,
    marriage_values: np.ndarray,
    discard_points: np.ndarray,
    forced: np.ndarray,
    nforced: np.ndarray,
    seeds: np.ndarray,
    policy: int,
    record: np.ndarray,
    nrec: np.ndarray,
    score: np.ndarray,
    shaping: np.ndarray,
    bad: np.ndarray,
) -> int:
    total = 0
    rec_cap = record.shape[1]
    h = np.zeros(4, np.uint64)
    opts = np.zeros(40, np.int64)
    side = np.zeros(4, np.int64)
    pside = np.zeros(4, np.int64)  # who plays with whom: 3 players, the defenders together
    for b in range(hands.shape[0]):
        ns = nseats[b]
        for k in range(4):
            h[k] = hands[b, k]
            side[k] = k if ns == 3 else k & 1
            pside[k] = (1 if k == declarer[b] else 0) if ns == 3 else k & 1
        pts = POINTS[scheme[b]]
        erl = erlangen[b] != 0
        d = declarer[b]
        mv = marriage_values[b]
        s = seeds[b]
        n = ntrick[b]
        lead = leader[b]
        cur = to_act[b]
        ans = answering[b] != 0
        done = tricks_done[b]
        t = trump[b] if trump[b] >= 0 else 4
        us = used[b]
        br = broken[b]
        wnd = window[b] != 0
        ak = asker[b]
        ax = ask_suit[b]
        cl = calls[b]
        ntot = total_tricks[b]
        win = 0
        wseat = lead
        tp = 0
        for i in range(n):
            c = trick[b, i]
            tp += pts[c]
            if i == 0 or has(BEATS[t, win], c):
                win = c
                wseat = (lead + i) % ns
        step = 0
        finished = False
        while not finished:
            hand = h[cur]
            # --- the legal actions (codes) -------------------------------------------
            no = 0
            cards = ZERO
            if ans:  # HUU-8.4, HUU-8.5: the partner answers
                if ax >= 0:
                    opts[0] = ANSWER_YES if hand & PAIR[ax] != ZERO else ANSWER_NO
                    no = 1
                else:
                    for j in range(4):
                        y = WORD_ORDER[j]
                        if (us >> y) & 1 == 0 and hand & PAIR[y] == PAIR[y]:
                            opts[no] = ANSWER_SUIT + y
                            no += 1
                    if no == 0:
                        opts[0] = ANSWER_NO
                        no = 1
            else:
                if wnd:  # HUU-8.3 – HUU-8.5 (HUU-12.6)
                    partner = _partner_of(cur, ns, d)
                    own_broken = (br >> cur) & 1
                    pstate = -1 if partner < 0 else (br >> partner) & 1
                    for j in range(4):
                        x = WORD_ORDER[j]
                        if (us >> x) & 1:
                            continue
                        kk = has(hand, KINGS[x])
                        qq = has(hand, QUEENS[x])
                        if kk and qq and own_broken == 0:
                            opts[no] = DECLARE + x
                            no += 1
                        if partner >= 0 and (kk != qq or (erl and not (kk and qq))):
                            opts[no] = ASK_HALF + x
                            no += 1
                    if pstate == 0:
                        opts[no] = ASK_MARRIAGE
                        no += 1
                if erl and d >= 0 and cl < 9:  # HUU-12.9
                    nth = cl + 1
                    hc = 0
                    mm = hand
                    while mm != ZERO:
                        mm = mm & (mm - np.uint64(1))
                        hc += 1
                    if hc >= 10 - nth:
                        ours = side[cur] == side[d]
                        if nth & 1 and not ours:
                            opts[no] = KONTRA
                            no += 1
                        elif nth & 1 == 0 and ours:
                            opts[no] = RE
                            no += 1
                led = trick[b, 0] if n > 0 else 0
                cards = _card_mask(hand, n, led, win, t, erl, done == 0)
                mm = cards
                while mm != ZERO:
                    low = mm & (~mm + np.uint64(1))
                    c = 0
                    while low > np.uint64(1):
                        low = low >> np.uint64(1)
                        c += 1
                    opts[no] = c
                    no += 1
                    mm = mm & (mm - np.uint64(1))
            # --- the choice --------------------------------------------------------------
            p = policy & 15
            if policy >= 16:  # a share of random moves (policy >> 4 %)
                s = xorshift(s)
                if below(s, 100) < (policy >> 4):
                    p = 0
            if step < nforced[b]:
                code = forced[b, step]
                ok = False
                for j in range(no):
                    if opts[j] == code:
                        ok = True
                if not ok:
                    bad[b] = 1
                    break
            elif p == 0:
                s = xorshift(s)
                code = opts[below(s, no)]
            else:
                code = -1
                best = -1
                for j in range(no):  # declare the richest marriage; answer the richest
                    o = opts[j]
                    if (DECLARE <= o < DECLARE + 4) or (ANSWER_SUIT <= o < ANSWER_SUIT + 4):
                        v = mv[o - DECLARE] if o < ASK_HALF else mv[o - ANSWER_SUIT]
                        if v > best:
                            best = v
                            code = o
                if code < 0 and not ans and wnd:  # ask only where the partner can answer
                    partner = _partner_of(cur, ns, d)
                    for j in range(no):
                        o = opts[j]
                        if ASK_HALF <= o < ASK_HALF + 4:
                            x = o - ASK_HALF
                            if (
                                h[partner] & PAIR[x] != ZERO
                                and hand & PAIR[x] != ZERO
                                and mv[x] > best
                            ):
                                best = mv[x]
                                code = o
                        elif o == ASK_MARRIAGE and code < 0:
                            for y in range(4):
                                if (us >> y) & 1 == 0 and h[partner] & PAIR[y] == PAIR[y]:
                                    code = o
                if code < 0 and ans:
                    code = opts[0]
                if code < 0:
                    after = ZERO
                    for k in range(n + 1, ns):
                        after = after | h[(lead + k) % ns]
                    others = ZERO
                    for k in range(ns):
                        if k != cur:
                            others = others | h[k]
                    if ns == 3:
                        friend = n > 0 and (wseat == d) == (cur == d)
                    else:
                        friend = n > 0 and (wseat & 1) == (cur & 1)
                    if p == 1:
                        lc = CLASS[t, trick[b, 0]] if n > 0 else ZERO
                        code = swing_choice(
                            cards, n, win, friend, cur, lead, ns, h, pside, lc, CLASS[t],
                            BEATS[t], POWER[t], pts, TRUMPS[t], True,
                            d >= 0 and pside[cur] == pside[d], tp, 0.0,
                        )  # fmt: skip
                    else:
                        code = trick_choice(
                            cards, n, win, friend, after, others, BEATS[t], POWER[t], pts,
                            TRUMPS[t], tp,
                        )  # fmt: skip
            if step < rec_cap:
                record[b, step] = code
            step += 1
            total += 1
            # --- applying it --------------------------------------------------------------
            if code < 64:
                c = code
                h[cur] = hand ^ bit(c)
                trick[b, n] = c
                tp += pts[c]
                if n == 0:
                    wnd = False
                    lead = cur
                    win = c
                    wseat = cur
                elif has(BEATS[t, win], c):
                    win = c
                    wseat = cur
                n += 1
                if n < ns:
                    cur = (cur + 1) % ns
                    continue
                sd = side[wseat]  # HUU-7.5
                tricks[b, sd] += 1
                n = 0
                done += 1
                if done == ntot:
                    points[b, sd] += tp + last_trick[b]  # HUU-1.4
                    finished = True
                else:
                    points[b, sd] += tp
                    wnd = erl or lead == wseat  # HUU-8.1, HUU-12.5
                    lead = wseat
                    cur = wseat
                tp = 0
            elif code < ASK_HALF:  # declare X (HUU-8.3)
                wnd = False
                x = code - DECLARE
                t = x
                us = us | (1 << x)
                marriages[b, side[cur]] += mv[x]
            elif code <= ASK_MARRIAGE:  # HUU-8.4, HUU-8.5
                wnd = False
                ak = cur
                ax = code - ASK_HALF if code < ASK_MARRIAGE else -1
                ans = True
                cur = _partner_of(cur, ns, d)
            elif code < KONTRA:  # the answers
                if code < ANSWER_NO:
                    x = code - ANSWER_SUIT
                    t = x
                    us = us | (1 << x)
                    marriages[b, side[ak]] += mv[x]
                    br = br | (1 << ak)
                elif code == ANSWER_YES and h[ak] & PAIR[ax] != ZERO:
                    t = ax
                    us = us | (1 << ax)
                    marriages[b, side[ak]] += mv[ax]
                    br = br | (1 << ak) | (1 << cur)
                ans = False
                cur = ak
                ak = -1
                ax = -1
            else:  # kontra, re (HUU-12.9)
                cl += 1
        nrec[b] = step
        for k in range(4):
            hands[b, k] = h[k]
        calls[b] = cl
        seeds[b] = s
        nsd = 3 if ns == 3 else 2
        for k in range(3):
            score[b, k] = 0
        if not finished:
            continue
        # --- the score (HUU-9, HUU-12.7 – HUU-12.9, HUU-13.4) ------------------------------
        c = contract[b]
        if d < 0:  # HUU-12.2
            for k in range(nsd):
                score[b, k] = _round5(points[b, k] + marriages[b, k])
        elif ns == 3:
            points[b, d] += discard_points[b]  # HUU-6.2
            made = points[b, d] + marriages[b, d] >= c
            for k in range(3):
                if k == d:
                    score[b, k] = c if made else -c
                elif tricks[b, k] == 0:
                    score[b, k] = -bid[b] if made else 0
                else:
                    score[b, k] = points[b, k] + marriages[b, k]
        else:
            ds = side[d]
            os = 1 - ds
            made = points[b, ds] + marriages[b, ds] >= c  # HUU-9.2
            if erl:
                if tricks[b, ds] == 0:  # HUU-12.8
                    score[b, ds] = -2 * c
                elif made:
                    score[b, ds] = c << cl
                else:
                    kk = cl - 1 if (tricks[b, os] == 0 and cl >= 1) else cl
                    score[b, ds] = -(c << kk)
                if tricks[b, os] == 0:
                    score[b, os] = -2 * c if made else 0
                else:
                    score[b, os] = _round5(points[b, os] + marriages[b, os])
            else:
                score[b, ds] = c if made else -c
                score[b, os] = points[b, os] + marriages[b, os]  # HUU-9.3
                if porvoo[b] != 0:  # HUU-11.4
                    for k in range(2):
                        if tricks[b, k] == 0:
                            score[b, k] = -c
                elif tricks[b, os] == 0:  # HUU-9.4
                    score[b, os] = -bid[b]
        for k in range(3):
            shaping[b, k] = score[b, k]
    return total


class HuutopussiKernel(GameKernel):
    """Huutopussi's card play in a batch (4 players, 3 players, Erlangen)."""

    game = "huutopussi"
    sides = 3
    max_steps = 60
    state_keys = (
        "hands",
        "nseats",
        "trick",
        "ntrick",
        "leader",
        "to_act",
        "answering",
        "tricks_done",
        "trump",
        "used",
        "broken",
        "window",
        "asker",
        "ask_suit",
        "tricks",
        "points",
        "marriages",
        "calls",
        "declarer",
        "contract",
        "bid",
        "erlangen",
        "porvoo",
        "last_trick",
        "total_tricks",
        "scheme",
        "marriage_values",
        "discard_points",
    )
    result_keys = (
        ("score", "score"),
        ("tricks", "tricks"),
        ("points", "points"),
        ("marriages", "marriages"),
    )

    def accepts(self, state: DealState) -> bool:
        st: Any = state
        return not st.is_over and st.ph in (HS.P_PLAY, HS.P_ANSWER)

    def num_sides(self, state: DealState) -> int:
        return 3 if state.num_seats == 3 else 2

    def encode_one(self, state: DealState) -> dict[str, Any]:
        st: Any = state
        if not self.accepts(st):
            raise ValueError(f"a Huutopussi deal in phase {st.phase!r} is not in card play")
        r = st.rules
        k = len(st.tricks)
        trick = list(st.trick)
        pad = [0] * (3 - k)
        return {
            "hands": list(st.hands) + [0] * (4 - st.num_seats),
            "nseats": st.num_seats,
            "trick": trick + [0] * (4 - len(trick)),
            "ntrick": len(trick),
            "leader": st.leader,
            "to_act": st.to_act,
            "answering": int(st.ph == HS.P_ANSWER),
            "tricks_done": st.tricks_done,
            "trump": st.trump,
            "used": st.used,
            "broken": st.broken,
            "window": int(bool(st.window)),
            "asker": st.asker,
            "ask_suit": st.ask_suit,
            "tricks": list(st.tricks) + pad,
            "points": list(st.points) + pad,
            "marriages": list(st.marriages) + pad,
            "calls": st.calls,
            "declarer": st.declarer,
            "contract": st.contract,
            "bid": st.bid,
            "erlangen": int(r.erlangen),
            "porvoo": int(r.porvoo),
            "last_trick": r.last_trick,
            "total_tricks": r.tricks,
            "scheme": SCHEMES.index(r.point_scheme),
            "marriage_values": list(r.marriage_values),
            "discard_points": sum(r.card_points[c] for c in st.discards),
        }

    def run(self, a: Arrays, policy: int) -> int:
        fn: Any = _run
        return int(fn(*(a[k] for k in self.state_keys), a["forced"], a["nforced"],
                        a["seeds"], policy, a["record"], a["nrec"], a["score"],
                        a["shaping"], a["bad"]))  # fmt: skip

    def action_code(self, state: DealState, action: Any) -> int:
        kind, arg = HT.KIND[action], HT.ARG[action]
        codes = {
            HT.K_PLAY: arg,
            HT.K_DECLARE: DECLARE + arg,
            HT.K_ASK_HALF: ASK_HALF + arg,
            HT.K_ASK_MARRIAGE: ASK_MARRIAGE,
            HT.K_ANSWER_SUIT: ANSWER_SUIT + arg,
            HT.K_ANSWER_NO: ANSWER_NO,
            HT.K_ANSWER_YES: ANSWER_YES,
            HT.K_KONTRA: KONTRA,
            HT.K_RE: RE,
        }
        return int(codes.get(kind, -1))

    def mismatches(self, a: Arrays, row: int, state: DealState) -> list[str]:
        if not state.is_over:
            return [f"the scalar deal is not over after the batch's {a['nrec'][row]} actions"]
        result = state.result()
        out = []
        for name, key in self.result_keys:
            want = result[key]
            got = [int(x) for x in a[name][row][: len(want)]]
            if got != want:
                out.append(f"{key}: batch {got}, scalar {want}")
        return out


KERNEL = HuutopussiKernel()
