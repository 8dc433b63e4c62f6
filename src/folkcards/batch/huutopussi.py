"""Batched Huutopussi card play (HUU-7 – HUU-9, HUU-12, HUU-13): must follow, must trump,
must beat; trump made in mid-play by a declared marriage or an answered ask (HUU-8), each
suit once; Erlangen's first trick, its window after every trick and kontra/re; the three-
player deal; and every scoring rule (läpäri, Porvoo, Erlangen's doubling and rounding).

The ``heuristic`` policy (:func:`_mimic`) plays the heuristic bot's own choice — cards,
declarations, asks, answers, kontra and re — from what the seat may know (HUU-14), and
:meth:`HuutopussiKernel.likelihoods` (:func:`_weights`) reads the card play by it, as the
search's inference from play does, for ``bpimc``/``bsearch`` with ``read``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from folkcards.batch._jit import (
    ONE,
    ZERO,
    below,
    bit,
    follow_score,
    has,
    lowest,
    njit,
    popcount,
    swing_choice,
    trick_choice,
    tt_probe,
    tt_store,
    xorshift,
)
from folkcards.batch.core import Arrays, GameKernel, power_table
from folkcards.bots.heuristic import huutopussi as HEUR
from folkcards.cards import RANK_MASK, SUIT_MASK, TEN
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
ACES_TENS = np.uint64(HT.ACES | (RANK_MASK[TEN] & HT.DECK))
"""The aces and tens: what the heuristic counts for kontra and re (HUU-12.9)."""
SUIT = np.array([SUIT_MASK[c // 13] & HT.DECK if c < 52 else 0 for c in range(64)], np.uint64)
"""``SUIT[c]``: the cards of card ``c``'s suit."""
H_POWER = np.array(
    [
        [
            float(HEUR.power(c) + (15 if cfg.trumps >> c & 1 else 0)) if HT.DECK >> c & 1 else 0.0
            for c in range(64)
        ]
        for cfg in CONFIGS
    ],
    np.float64,
)
"""``H_POWER[t, c]``: the heuristic's ordinal of card ``c`` under trump ``t`` (its
``TrickView.power``: ``folkcards.bots.heuristic.huutopussi.power``, trumps 15 higher)."""
LAPARI_TOTAL = 400
"""The heuristic's läpäri threshold: a declarer whose opponents have this many match
points (HUU-10) plays harder for every trick (HUU-9.4)."""

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
def _options(
    hand: np.uint64,
    ns: int,
    cur: int,
    d: int,
    erl: bool,
    ans: bool,
    ax: int,
    us: int,
    br: int,
    wnd: bool,
    cl: int,
    n: int,
    led: int,
    win: int,
    t: int,
    first: bool,
    opts: np.ndarray,
) -> tuple[int, np.uint64]:
    """The legal actions (codes) of seat ``cur`` holding ``hand``, written to ``opts``:
    how many, and the playable cards among them. Answering: the one truthful answer,
    or each marriage held (HUU-8.4, HUU-8.5); else the window's declarations and asks
    (HUU-8.3 – HUU-8.5, HUU-12.6), kontra or re (HUU-12.9), the cards (HUU-7.3,
    HUU-12.4 on the first trick: ``first``)."""
    no = 0
    cards = ZERO
    if ans:
        if ax >= 0:
            opts[0] = ANSWER_YES if hand & PAIR[ax] != ZERO else ANSWER_NO
            return 1, cards
        for j in range(4):
            y = WORD_ORDER[j]
            if (us >> y) & 1 == 0 and hand & PAIR[y] == PAIR[y]:
                opts[no] = ANSWER_SUIT + y
                no += 1
        if no == 0:
            opts[0] = ANSWER_NO
            no = 1
        return no, cards
    if wnd:
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
    if erl and d >= 0 and cl < 9:
        nth = cl + 1
        if popcount(hand) >= 10 - nth:
            ours = cur == d if ns == 3 else (cur & 1) == (d & 1)
            if nth & 1 and not ours:
                opts[no] = KONTRA
                no += 1
            elif nth & 1 == 0 and ours:
                opts[no] = RE
                no += 1
    cards = _card_mask(hand, n, led, win, t, erl, first)
    mm = cards
    while mm != ZERO:
        opts[no] = lowest(mm)
        no += 1
        mm = mm & (mm - ONE)
    return no, cards


@njit
def _friend(s: int, me: int, ns: int, d: int) -> bool:
    """Whether seat ``s`` plays with ``me`` as the heuristic sees it: partners by seat
    parity with four players (HUU-2.1); with three, everyone but the declarer against
    the declarer (HUU-2.3, HUU-13)."""
    if ns == 4:
        return (s & 1) == (me & 1)
    return s == me or (me != d and s != d)


@njit
def _mimic(
    opts: np.ndarray,
    no: int,
    h: np.ndarray,
    ns: int,
    cur: int,
    d: int,
    n: int,
    lead: int,
    win: int,
    wseat: int,
    tp: int,
    t: int,
    pts: np.ndarray,
    aside: np.uint64,
    lapari: bool,
    mv: np.ndarray,
    probe: int,
    vals: np.ndarray,
) -> int:
    """The heuristic's action (:func:`folkcards.bots.heuristic.huutopussi.evaluate`)
    among the legal ``opts[:no]`` of seat ``cur``, from what it may know (HUU-14): its
    hand, the cards played, the trick, and — with three players — the declarer's own
    discards (``aside``: unseen by the others, HUU-14.6). Declare the richest marriage
    (1000 + its value, HUU-8.3), kontra or re with five aces and tens (± 800, HUU-12.9),
    ask for a half marriage (500 + 0.4 × its value, HUU-8.5), else for a marriage (450,
    HUU-8.4), answer with the richest marriage (its value; ``no``/``yes`` 0); the cards
    by the shared tactics of ``common.score_plays`` (sides: HUU-2.1, HUU-13), a declarer
    whose opponents have ``LAPARI_TOTAL`` match points scoring its cards above 15 five
    higher (``lapari``: aim at läpäri, HUU-9.4). The first best action is taken;
    ``vals`` receives the best value and action ``probe``'s."""
    hand = h[cur]
    best = -1
    bv = -1e300
    vals[1] = -1e300
    cards = False
    for j in range(no):
        if opts[j] < 64:
            cards = True
    # the cards' context (``_play``): what the seat cannot place, and the sides
    unseen = ZERO
    ptc = False
    msd = False
    safe_friend = False
    lap = False
    opp_trumps = False
    to_come = ns - 1 - n
    trumps = TRUMPS[t]
    if cards:
        for k in range(ns):
            if k != cur:
                unseen = unseen | h[k]
        if not (ns == 3 and cur == d):
            unseen = unseen | aside
        for k in range(1, to_come + 1):
            o = (cur + k) % ns
            if o != cur and _friend(o, cur, ns, d):
                ptc = True
        msd = d >= 0 and _friend(d, cur, ns, d)
        lap = lapari and cur == d
        opp_trumps = unseen & trumps != ZERO
        if n > 0:
            safe_friend = _friend(wseat, cur, ns, d) and (
                to_come == 0 or unseen & BEATS[t, win] == ZERO
            )
    for j in range(no):
        o = opts[j]
        if o < 64:
            c = o
            p = pts[c]
            pw = H_POWER[t, c]
            trump = has(trumps, c)
            if n == 0:  # ``_lead_score``
                boss = unseen & BEATS[t, c] == ZERO
                if trump:
                    if boss and msd and opp_trumps:
                        v = 30 + 0.1 * pw
                    elif boss:
                        v = 8 + 0.01 * pw
                    else:
                        v = -5 - p - 0.05 * pw
                elif boss:
                    v = 15 + p * 0.2
                elif unseen & BEATS[t, c] & ~trumps == ZERO:  # the top of its plain suit
                    out_there = popcount(unseen & ~BEATS[t, c] & SUIT[c] & ~trumps)
                    v = 6 + 0.5 * p + out_there
                else:
                    v = -p - 0.02 * pw - 0.5 * popcount(hand & SUIT[c])
            else:  # ``score_plays`` with a trick on the table
                sure = to_come == 0 or unseen & BEATS[t, c] == ZERO
                v = follow_score(p, pw, trump, safe_friend, has(BEATS[t, win], c), sure, ptc,
                                 tp)  # fmt: skip
            if lap and v > 15:
                v = v + 5.0
        elif o < ASK_HALF:  # declare X (HUU-8.3)
            v = 1000.0 + mv[o - DECLARE]
        elif o < ASK_MARRIAGE:  # ask half X (HUU-8.5)
            v = 500.0 + mv[o - ASK_HALF] * 0.4
        elif o == ASK_MARRIAGE:  # HUU-8.4
            v = 450.0
        elif o < ANSWER_NO:  # answer X (HUU-8.4)
            v = float(mv[o - ANSWER_SUIT])
        elif o < KONTRA:  # answer no, answer yes
            v = 0.0
        else:  # kontra, re (HUU-12.9)
            v = 800.0 if popcount(hand & ACES_TENS) >= 5 else -800.0
        if o == probe:
            vals[1] = v
        if v > bv:
            bv = v
            best = o
    vals[0] = bv
    return best


@njit
def _weights(
    hands: np.ndarray,
    aside: np.ndarray,
    codes: np.ndarray,
    ns: int,
    first: int,
    erl: bool,
    d: int,
    lapari: bool,
    scheme: int,
    mv: np.ndarray,
    me: int,
    miss: float,
    out: np.ndarray,
) -> None:
    """Inference from play: each row's weight is ``miss`` to the power of the actions of
    the card play so far (``codes``, from its first action, by ``first`` the leader:
    HUU-7.1, HUU-12.2, HUU-13.2) by seats other than ``me`` that the heuristic
    (:func:`_mimic`) would not have chosen with the row's hands (``hands``: as the play
    began) and the declarer's discards (``aside``). An answer (HUU-8.4, HUU-8.5: the
    phase ``answer``, not ``play``) and a step with one legal action tell nothing. The
    play is replayed by the rules of :func:`_run` (HUU-7.3 – HUU-7.5, HUU-8, HUU-12.4 –
    HUU-12.6, HUU-12.9); the scores are not needed."""
    vals = np.zeros(2, np.float64)
    opts = np.zeros(40, np.int64)
    h = np.zeros(4, np.uint64)
    pts = POINTS[scheme]
    for b in range(hands.shape[0]):
        for k in range(4):
            h[k] = hands[b, k]
        w = 1.0
        cur = first
        lead = first
        n = 0
        led = 0
        win = 0
        wseat = first
        tp = 0
        done = 0
        t = 4
        us = 0
        br = 0
        wnd = False
        ans = False
        ak = -1
        ax = -1
        cl = 0
        for i in range(codes.shape[0]):
            code = codes[i]
            no, _ = _options(h[cur], ns, cur, d, erl, ans, ax, us, br, wnd, cl, n, led, win,
                             t, done == 0, opts)  # fmt: skip
            if cur != me and not ans and no > 1:
                _mimic(opts, no, h, ns, cur, d, n, lead, win, wseat, tp, t, pts, aside[b],
                       lapari, mv, code, vals)  # fmt: skip
                if vals[1] < vals[0] - 1e-9:
                    w *= miss
            if code < 64:  # HUU-7.4, HUU-7.5
                h[cur] = h[cur] ^ bit(code)
                tp += pts[code]
                if n == 0:
                    wnd = False  # HUU-8.2
                    lead = cur
                    led = code
                    win = code
                    wseat = cur
                elif has(BEATS[t, win], code):
                    win = code
                    wseat = cur
                n += 1
                if n < ns:
                    cur = (cur + 1) % ns
                else:
                    n = 0
                    tp = 0
                    done += 1
                    wnd = erl or lead == wseat  # HUU-8.1, HUU-12.5
                    lead = wseat
                    cur = wseat
            elif code < ASK_HALF:  # declare X (HUU-8.3)
                wnd = False
                t = code - DECLARE
                us = us | (1 << t)
            elif code <= ASK_MARRIAGE:  # HUU-8.4, HUU-8.5
                wnd = False
                ak = cur
                ax = code - ASK_HALF if code < ASK_MARRIAGE else -1
                ans = True
                cur = _partner_of(cur, ns, d)
            elif code < KONTRA:  # the answers (HUU-8.4 – HUU-8.6, HUU-12.6)
                if code < ANSWER_NO:
                    t = code - ANSWER_SUIT
                    us = us | (1 << t)
                    br = br | (1 << ak)
                elif code == ANSWER_YES and h[ak] & PAIR[ax] != ZERO:
                    t = ax
                    us = us | (1 << ax)
                    br = br | (1 << ak) | (1 << cur)
                ans = False
                cur = ak
                ak = -1
                ax = -1
            else:  # kontra, re (HUU-12.9)
                cl += 1
        out[b] = w


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
    discards: np.ndarray,
    lapari: np.ndarray,
    forced: np.ndarray,
    nforced: np.ndarray,
    seeds: np.ndarray,
    policy: int,
    record: np.ndarray,
    nrec: np.ndarray,
    score: np.ndarray,
    shaping: np.ndarray,
    bad: np.ndarray,
    stop: int,
) -> int:
    total = 0
    rec_cap = record.shape[1]
    vals = np.zeros(2, np.float64)
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
            if stop > 0 and step >= nforced[b] and ntot - done <= stop:
                break  # the last ``stop`` tricks are left to the solver (:func:`_dd`)
            hand = h[cur]
            # --- the legal actions (codes) -------------------------------------------
            led = trick[b, 0] if n > 0 else 0
            no, cards = _options(hand, ns, cur, d, erl, ans, ax, us, br, wnd, cl, n, led, win,
                                 t, done == 0, opts)  # fmt: skip
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
            elif p == 3:  # the heuristic bot's own choice, from what the seat may know
                code = _mimic(opts, no, h, ns, cur, d, n, lead, win, wseat, tp, t, pts,
                              discards[b], lapari[b] != 0, mv, -1, vals)  # fmt: skip
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
        ntrick[b] = n  # the whole position, for a row stopped for the solver
        leader[b] = lead
        to_act[b] = cur
        answering[b] = 1 if ans else 0
        tricks_done[b] = done
        trump[b] = t if t < 4 else -1
        used[b] = us
        broken[b] = br
        window[b] = 1 if wnd else 0
        asker[b] = ak
        ask_suit[b] = ax
        seeds[b] = s
        for k in range(3):
            score[b, k] = 0
        if not finished:
            continue
        # --- the score (HUU-9, HUU-12.7 – HUU-12.9, HUU-13.4) ------------------------------
        c = contract[b]
        if ns == 4:  # HUU-9, HUU-11.4, HUU-12.2, HUU-12.7 – HUU-12.9
            tk = (1 if tricks[b, 0] else 0) | (2 if tricks[b, 1] else 0)
            s0, s1 = _scores4(points[b, 0] + marriages[b, 0], points[b, 1] + marriages[b, 1],
                              tk, cl, d, c, bid[b], erl, porvoo[b] != 0)  # fmt: skip
            score[b, 0] = s0
            score[b, 1] = s1
        elif d < 0:  # HUU-12.2
            for k in range(3):
                score[b, k] = _round5(points[b, k] + marriages[b, k])
        else:  # HUU-13.4: three players, each for itself
            points[b, d] += discard_points[b]  # HUU-6.2
            made = points[b, d] + marriages[b, d] >= c
            for k in range(3):
                if k == d:
                    score[b, k] = c if made else -c
                elif tricks[b, k] == 0:
                    score[b, k] = -bid[b] if made else 0
                else:
                    score[b, k] = points[b, k] + marriages[b, k]
        for k in range(3):
            shaping[b, k] = score[b, k]
    return total


# --- the double-dummy solver (four players) ----------------------------------------------------

TT_BITS = 16
"""The solver's transposition table holds ``2 ** TT_BITS`` trick-start positions."""
TT_MASK = np.uint64((1 << TT_BITS) - 1)
S13, S16, S21, S25, S26, S32, S38, S39, S43, S51 = (
    np.uint64(k) for k in (13, 16, 21, 25, 26, 32, 38, 39, 43, 51)
)  # fmt: skip
WIDE = 1 << 60
"""Beyond any value of :func:`_value`."""
LOW = 1 << 20
"""Offsets team 0's score in a value (every score is within ± 420 × 2^9 < 2^20)."""
# The columns of a search frame (``_dd``'s ``f_s``): the position, then the search.
N_, LEAD_, CUR_, WIN_, WS_, TP_, T_, US_, BR_, WND_, ANS_, AK_, AX_, CL_, DONE_ = range(15)
T0_, T1_, TK_, LED_ = 15, 16, 17, 18
POSITION = 19
"""Columns 0..18 are the position (copied to a child), the rest the search's."""
ALPHA_, BETA_, A0_, B0_, BEST_, NM_, K_, SLOT_, TAG_ = range(19, 28)
MOVES = 40
"""Room for the moves of one position (at most 4 asks, ask marriage, 4 declarations, a
call and 9 cards; 4 answers)."""


@njit
def _tt_slot(h: np.ndarray, tag: int) -> np.int64:
    """The table slot of a trick-start position: its hands and ``tag`` folded by shifts and
    xors (which never overflow)."""
    g = np.uint64(tag)
    x = h[0] ^ (h[1] << S13) ^ (h[1] >> S51) ^ (h[2] << S26) ^ (h[2] >> S38)
    x = x ^ (h[3] << S39) ^ (h[3] >> S25) ^ g ^ (g << S21) ^ (g >> S43)
    x = x ^ (x >> S32)
    x = x ^ (x >> S16)
    return np.int64(x & TT_MASK)


@njit
def _scores4(
    t0: int, t1: int, tk: int, cl: int, d: int, c: int, bid: int, erl: bool, porvoo: bool
) -> tuple[int, int]:
    """The two teams' scores of a finished four-player deal (HUU-9, HUU-11.4, HUU-12.2,
    HUU-12.7 – HUU-12.9) from their totals ``t0``, ``t1`` (points with the last trick,
    and marriages), who took a trick (``tk``: bit k for team k), the calls ``cl``, the
    declarer ``d`` (-1: no contract), the contract ``c`` and the highest ``bid``: what
    :func:`_run` writes and :func:`_value` orders."""
    if d < 0:  # HUU-12.2: no contract
        return _round5(t0), _round5(t1)
    ds = d & 1
    td = t0 if ds == 0 else t1
    to = t1 if ds == 0 else t0
    ours = (tk >> ds) & 1 != 0
    theirs = (tk >> (1 - ds)) & 1 != 0
    made = td >= c  # HUU-9.2
    if erl:
        if not ours:  # HUU-12.8
            sd = -2 * c
        elif made:  # HUU-12.9
            sd = c << cl
        else:
            kk = cl - 1 if (not theirs and cl >= 1) else cl
            sd = -(c << kk)
        so = (-2 * c if made else 0) if not theirs else _round5(to)  # HUU-12.7
    else:
        sd = c if made else -c
        so = to  # HUU-9.3
        if porvoo:  # HUU-11.4
            if not ours:
                sd = -c
            if not theirs:
                so = -c
        elif not theirs:  # HUU-9.4
            so = -bid
    return (sd, so) if ds == 0 else (so, sd)


@njit
def _value(
    t0: int, t1: int, tk: int, cl: int, d: int, c: int, bid: int, erl: bool, porvoo: bool
) -> int:
    """The finished deal's scores ``s0``, ``s1`` (:func:`_scores4`) as one number:
    ``(s0 - s1) * 2^21 + s0 + 2^20``. Its order is that of the margin ``s0 - s1`` first
    (every seat's utility is strictly monotone in it), then of ``s0``: the solver's value
    is the margin, and ``s0`` a line's that reaches it."""
    s0, s1 = _scores4(t0, t1, tk, cl, d, c, bid, erl, porvoo)
    return (s0 - s1) * (1 << 21) + s0 + LOW


@njit
def _moves(f_h: np.ndarray, f_s: np.ndarray, e: int, erl: bool, d: int, out: np.ndarray) -> int:
    """The legal actions (codes) of frame ``e``'s position, in the engine's order
    (HUU-16.3): the answer (HUU-8.4, HUU-8.5); else the window's asks then declarations
    (HUU-8.3 – HUU-8.5, HUU-12.6), kontra, the cards (HUU-7.3, HUU-12.4), re (HUU-12.9)."""
    cur = f_s[e, CUR_]
    hand = f_h[e, cur]
    us = f_s[e, US_]
    no = 0
    if f_s[e, ANS_] != 0:
        ax = f_s[e, AX_]
        if ax >= 0:
            out[0] = ANSWER_YES if hand & PAIR[ax] != ZERO else ANSWER_NO
            return 1
        for j in range(4):
            y = WORD_ORDER[j]
            if (us >> y) & 1 == 0 and hand & PAIR[y] == PAIR[y]:
                out[no] = ANSWER_SUIT + y
                no += 1
        if no == 0:
            out[0] = ANSWER_NO
            no = 1
        return no
    br = f_s[e, BR_]
    if f_s[e, WND_] != 0:
        partner = (cur + 2) & 3  # HUU-2.1
        for j in range(4):  # ask half X (HUU-8.5, HUU-12.6)
            x = WORD_ORDER[j]
            if (us >> x) & 1 == 0:
                kk = has(hand, KINGS[x])
                qq = has(hand, QUEENS[x])
                if kk != qq or (erl and not (kk and qq)):
                    out[no] = ASK_HALF + x
                    no += 1
        if (br >> partner) & 1 == 0:  # HUU-8.4, HUU-8.6
            out[no] = ASK_MARRIAGE
            no += 1
        if (br >> cur) & 1 == 0:  # declare X (HUU-8.3)
            for j in range(4):
                x = WORD_ORDER[j]
                if (us >> x) & 1 == 0 and has(hand, KINGS[x]) and has(hand, QUEENS[x]):
                    out[no] = DECLARE + x
                    no += 1
    call = -1
    cl = f_s[e, CL_]
    if erl and d >= 0 and cl < 9 and popcount(hand) >= 9 - cl:  # HUU-12.9
        ours = (cur & 1) == (d & 1)
        if cl & 1 == 0 and not ours:
            out[no] = KONTRA
            no += 1
        elif cl & 1 == 1 and ours:
            call = RE
    n = f_s[e, N_]
    cards = _card_mask(
        hand, n, f_s[e, LED_], f_s[e, WIN_], f_s[e, T_], erl, f_s[e, DONE_] == 0
    )  # fmt: skip
    while cards != ZERO:
        out[no] = lowest(cards)
        no += 1
        cards = cards & (cards - ONE)
    if call >= 0:
        out[no] = call
        no += 1
    return no


@njit
def _apply(
    f_h: np.ndarray,
    f_s: np.ndarray,
    e: int,
    code: int,
    pts: np.ndarray,
    mv: np.ndarray,
    erl: bool,
    lt: int,
    ntot: int,
) -> None:
    """Frame ``e``'s position after action ``code``, in place (as :func:`_run` applies it;
    the teams' totals ``T0_``/``T1_`` are points and marriages together)."""
    cur = f_s[e, CUR_]
    if code < 64:  # a card (HUU-7.4, HUU-7.5)
        f_h[e, cur] = f_h[e, cur] ^ bit(code)
        n = f_s[e, N_]
        if n == 0:
            f_s[e, WND_] = 0  # HUU-8.2
            f_s[e, LEAD_] = cur
            f_s[e, LED_] = code
            f_s[e, WIN_] = code
            f_s[e, WS_] = cur
            f_s[e, TP_] = pts[code]
        else:
            f_s[e, TP_] += pts[code]
            if has(BEATS[f_s[e, T_], f_s[e, WIN_]], code):
                f_s[e, WIN_] = code
                f_s[e, WS_] = cur
        n += 1
        if n < 4:
            f_s[e, N_] = n
            f_s[e, CUR_] = (cur + 1) & 3
            return
        ws = f_s[e, WS_]
        sd = ws & 1
        f_s[e, N_] = 0
        f_s[e, TK_] = f_s[e, TK_] | (1 << sd)
        done = f_s[e, DONE_] + 1
        f_s[e, DONE_] = done
        gain = f_s[e, TP_]
        if done == ntot:
            gain += lt  # HUU-1.4
        else:
            f_s[e, WND_] = 1 if (erl or f_s[e, LEAD_] == ws) else 0  # HUU-8.1, HUU-12.5
        f_s[e, T0_ + sd] += gain
        f_s[e, LEAD_] = ws
        f_s[e, CUR_] = ws
        f_s[e, TP_] = 0
    elif code < ASK_HALF:  # declare X (HUU-8.3, HUU-8.9)
        x = code - DECLARE
        f_s[e, WND_] = 0
        f_s[e, T_] = x
        f_s[e, US_] = f_s[e, US_] | (1 << x)
        f_s[e, T0_ + (cur & 1)] += mv[x]
    elif code <= ASK_MARRIAGE:  # HUU-8.4, HUU-8.5, HUU-8.10
        f_s[e, WND_] = 0
        f_s[e, AK_] = cur
        f_s[e, AX_] = code - ASK_HALF if code < ASK_MARRIAGE else -1
        f_s[e, ANS_] = 1
        f_s[e, CUR_] = (cur + 2) & 3
    elif code < KONTRA:  # the answers (HUU-8.4 – HUU-8.6, HUU-12.6)
        ak = f_s[e, AK_]
        ax = f_s[e, AX_]
        if code < ANSWER_NO:
            x = code - ANSWER_SUIT
            f_s[e, T_] = x
            f_s[e, US_] = f_s[e, US_] | (1 << x)
            f_s[e, T0_ + (ak & 1)] += mv[x]
            f_s[e, BR_] = f_s[e, BR_] | (1 << ak)
        elif code == ANSWER_YES and f_h[e, ak] & PAIR[ax] != ZERO:
            f_s[e, T_] = ax
            f_s[e, US_] = f_s[e, US_] | (1 << ax)
            f_s[e, T0_ + (ak & 1)] += mv[ax]
            f_s[e, BR_] = f_s[e, BR_] | (1 << ak) | (1 << cur)
        f_s[e, ANS_] = 0
        f_s[e, CUR_] = ak
        f_s[e, AK_] = -1
        f_s[e, AX_] = -1
    else:  # kontra, re (HUU-12.9)
        f_s[e, CL_] += 1


@njit
def _dd(
    f_h: np.ndarray,
    f_s: np.ndarray,
    f_mv: np.ndarray,
    pts: np.ndarray,
    mv: np.ndarray,
    erl: bool,
    porvoo: bool,
    lt: int,
    ntot: int,
    d: int,
    c: int,
    bid: int,
    tt_hands: np.ndarray,
    tt_tag: np.ndarray,
    tt_bounds: np.ndarray,
    nodes: np.ndarray,
) -> int:
    """The value (:func:`_value`) of the position in frame 0 of ``f_h`` (hands) and ``f_s``
    when every hand is open, team 0 (seats 0, 2) maximises it and team 1 minimises it.

    Alpha-beta (fail-soft) over every legal action of the rules in the engine's order
    (:func:`_moves`: cards, the window's declarations and asks, the answers, kontra/re),
    with a transposition table of trick-start positions — hands, leader, trump, the suits
    used, the broken marriages, the open window, the calls, the teams' totals so far and
    who has taken a trick: all that the rest of the deal and its score depend on — holding
    a lower and an upper bound. The search keeps its own stack of frames (one per action)
    rather than recursing, because numba's on-disk cache does not reload recursive
    functions."""
    k = 0
    f_s[0, ALPHA_] = -WIDE
    f_s[0, BETA_] = WIDE
    entering = True
    returning = False
    rv = 0
    while True:
        if entering:
            entering = False
            nodes[0] += 1
            f_s[k, SLOT_] = -1
            if f_s[k, DONE_] >= ntot:  # the deal is over
                rv = _value(f_s[k, T0_], f_s[k, T1_], f_s[k, TK_], f_s[k, CL_], d, c, bid,
                            erl, porvoo)  # fmt: skip
                returning = True
            elif f_s[k, N_] == 0 and f_s[k, ANS_] == 0:
                tag = (
                    f_s[k, LEAD_]
                    | f_s[k, T_] << 2
                    | f_s[k, US_] << 5
                    | f_s[k, BR_] << 9
                    | f_s[k, WND_] << 13
                    | f_s[k, CL_] << 14
                    | f_s[k, TK_] << 18
                    | f_s[k, T0_] << 20
                    | f_s[k, T1_] << 32
                )  # the totals are below 2^12 (HUU-1.6)
                slot = _tt_slot(f_h[k], tag)
                f_s[k, SLOT_] = slot
                f_s[k, TAG_] = tag
                cut, v, al, be = tt_probe(
                    tt_hands, tt_tag, tt_bounds, slot, f_h[k], tag, f_s[k, ALPHA_],
                    f_s[k, BETA_],
                )  # fmt: skip
                f_s[k, ALPHA_] = al
                f_s[k, BETA_] = be
                if cut:
                    rv = v
                    returning = True
            if not returning:
                f_s[k, A0_] = f_s[k, ALPHA_]
                f_s[k, B0_] = f_s[k, BETA_]
                f_s[k, NM_] = _moves(f_h, f_s, k, erl, d, f_mv[k])
                f_s[k, K_] = 0
                f_s[k, BEST_] = -WIDE if f_s[k, CUR_] & 1 == 0 else WIDE
        if returning:
            returning = False
            if k == 0:
                return rv
            k -= 1
            if f_s[k, CUR_] & 1 == 0:  # team 0 to act: the most
                if rv > f_s[k, BEST_]:
                    f_s[k, BEST_] = rv
                    if rv > f_s[k, ALPHA_]:
                        f_s[k, ALPHA_] = rv
            elif rv < f_s[k, BEST_]:
                f_s[k, BEST_] = rv
                if rv < f_s[k, BETA_]:
                    f_s[k, BETA_] = rv
            if f_s[k, ALPHA_] >= f_s[k, BETA_]:
                f_s[k, K_] = f_s[k, NM_]  # a cut-off
        i = f_s[k, K_]
        if i < f_s[k, NM_]:
            f_s[k, K_] = i + 1
            e = k + 1
            for j in range(POSITION):
                f_s[e, j] = f_s[k, j]
            for j in range(4):
                f_h[e, j] = f_h[k, j]
            _apply(f_h, f_s, e, f_mv[k, i], pts, mv, erl, lt, ntot)
            f_s[e, ALPHA_] = f_s[k, ALPHA_]
            f_s[e, BETA_] = f_s[k, BETA_]
            k = e
            entering = True
            continue
        best = f_s[k, BEST_]
        slot = f_s[k, SLOT_]
        if slot >= 0:
            tt_store(tt_hands, tt_tag, tt_bounds, slot, f_h[k], f_s[k, TAG_], best,
                     f_s[k, A0_], f_s[k, B0_], WIDE)  # fmt: skip
        rv = best
        returning = True


@njit
def _solve(
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
    score: np.ndarray,
    shaping: np.ndarray,
    bad: np.ndarray,
    nodes: np.ndarray,
) -> None:
    """Finish every row short of the end (``tricks_done`` < ``total_tricks``) by its
    double-dummy value (:func:`_dd`): the scores of a line that reaches it, in ``score``
    and ``shaping`` (the ``tricks``, ``points`` and ``marriages`` stay as at the stop). A
    three-player row (HUU-13: every seat scores for itself, no two sides to solve for) is
    marked ``bad``."""
    size = 1 << TT_BITS
    tt_hands = np.empty((size, 4), np.uint64)  # read only where tt_tag says it is set
    tt_tag = np.full(size, -1, np.int64)
    tt_bounds = np.empty((size, 2), np.int64)
    depth = 128  # 9 tricks × (4 cards, an attempt, an answer) and 9 calls
    f_h = np.zeros((depth, 4), np.uint64)
    f_s = np.zeros((depth, 28), np.int64)
    f_mv = np.zeros((depth, MOVES), np.int64)
    last = np.full(12, -(1 << 40), np.int64)
    rules = np.zeros(12, np.int64)
    for b in range(hands.shape[0]):
        ntot = total_tricks[b]
        if tricks_done[b] >= ntot:
            continue
        if nseats[b] != 4:
            bad[b] = 1
            continue
        rules[0] = declarer[b]
        rules[1] = contract[b]
        rules[2] = bid[b]
        rules[3] = erlangen[b]
        rules[4] = porvoo[b]
        rules[5] = last_trick[b]
        rules[6] = ntot
        rules[7] = scheme[b]
        for j in range(4):
            rules[8 + j] = marriage_values[b, j]
        same = True
        for j in range(12):
            if rules[j] != last[j]:
                same = False
        if not same:  # the table holds one rule set's values
            tt_tag[:] = -1
            for j in range(12):
                last[j] = rules[j]
        pts = POINTS[scheme[b]]
        t = trump[b] if trump[b] >= 0 else 4
        n = ntrick[b]
        lead = leader[b]
        win = 0
        wseat = lead
        tp = 0
        for i in range(n):  # HUU-7.4
            c = trick[b, i]
            tp += pts[c]
            if i == 0 or has(BEATS[t, win], c):
                win = c
                wseat = (lead + i) & 3
        for j in range(4):
            f_h[0, j] = hands[b, j]
        f_s[0, N_] = n
        f_s[0, LEAD_] = lead
        f_s[0, CUR_] = to_act[b]
        f_s[0, WIN_] = win
        f_s[0, WS_] = wseat
        f_s[0, TP_] = tp
        f_s[0, T_] = t
        f_s[0, US_] = used[b]
        f_s[0, BR_] = broken[b]
        f_s[0, WND_] = 1 if window[b] != 0 else 0
        f_s[0, ANS_] = 1 if answering[b] != 0 else 0
        f_s[0, AK_] = asker[b]
        f_s[0, AX_] = ask_suit[b]
        f_s[0, CL_] = calls[b]
        f_s[0, DONE_] = tricks_done[b]
        f_s[0, T0_] = points[b, 0] + marriages[b, 0]
        f_s[0, T1_] = points[b, 1] + marriages[b, 1]
        f_s[0, TK_] = (1 if tricks[b, 0] > 0 else 0) | (2 if tricks[b, 1] > 0 else 0)
        f_s[0, LED_] = trick[b, 0] if n > 0 else 0
        v = _dd(f_h, f_s, f_mv, pts, marriage_values[b], erlangen[b] != 0, porvoo[b] != 0,
                last_trick[b], ntot, declarer[b], contract[b], bid[b], tt_hands, tt_tag,
                tt_bounds, nodes)  # fmt: skip
        s0 = (v & ((1 << 21) - 1)) - LOW
        s1 = s0 - (v >> 21)
        score[b, 0] = s0
        score[b, 1] = s1
        score[b, 2] = 0
        for j in range(3):
            shaping[b, j] = score[b, j]
        tricks_done[b] = ntot


PLAY_ONLY = frozenset({"discard_points", "discards", "lapari"})
"""State keys that :func:`_run` reads and the solver (four players, open hands) does not."""


def _lapari(st: Any) -> bool:
    """Whether the declarer's opponents have at least ``LAPARI_TOTAL`` in the match
    totals carried into the deal (HUU-10.3): the heuristic's declarer then plays for
    every trick (its ``lapari``: aim at läpäri, HUU-9.4). A side is a team of two with
    four players (HUU-2.1), a seat with three (HUU-13.4); no declarer, no bonus."""
    d = st.declarer
    if d < 0:
        return False
    own = d % 2 if st.num_seats == 4 else d
    return max((x for i, x in enumerate(st.totals) if i != own), default=0) >= LAPARI_TOTAL


class HuutopussiKernel(GameKernel):
    """Huutopussi's card play in a batch (4 players, 3 players, Erlangen)."""

    game = "huutopussi"
    solver = True
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
        "discards",
        "lapari",
    )
    mask_keys = frozenset({"hands", "discards"})
    policies = frozenset({"random", "fast", "simple", "heuristic"})
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
            "discards": sum(1 << c for c in st.discards),  # HUU-6.2, seen by the declarer
            "lapari": int(_lapari(st)),
        }

    def run(self, a: Arrays, policy: int) -> int:
        return self.run_until(a, policy, 0)

    def run_until(self, a: Arrays, policy: int, stop: int) -> int:
        fn: Any = _run
        return int(fn(*(a[k] for k in self.state_keys), a["forced"], a["nforced"],
                        a["seeds"], policy, a["record"], a["nrec"], a["score"],
                        a["shaping"], a["bad"], stop))  # fmt: skip

    def solve(self, a: Arrays) -> int:
        nodes = np.zeros(1, np.int64)
        fn: Any = _solve
        fn(*(a[k] for k in self.state_keys if k not in PLAY_ONLY), a["score"],
           a["shaping"], a["bad"], nodes)  # fmt: skip
        if a["bad"].any():
            raise ValueError(
                "the solver has no value for a three-player deal (HUU-13: every seat for itself)"
            )
        return int(nodes[0])

    def tricks_left(self, state: DealState) -> int:
        st: Any = state
        return int(st.rules.tricks) - int(st.tricks_done)

    def solvable(self, state: DealState) -> bool:
        """Four players only: with three (HUU-13.4) each seat scores for itself and the
        two opponents' interests differ, so the deal has no two-sided value to solve."""
        return state.num_seats == 4

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

    def likelihoods(
        self, states: Sequence[DealState], seat: int, miss: float, bids: bool = True
    ) -> np.ndarray:
        """How well the heuristic explains the card play of the seats other than ``seat``
        in each of ``states`` (sampled deals of one observation: the same public play,
        different hidden hands and, with three players, discards): ``miss`` per action of
        the phase ``play`` — a card, a declaration, an ask, kontra or re — that it would
        not have chosen with that deal's hands (:func:`_weights`), as
        :func:`folkcards.bots.search.likelihood` weights that part of the deal. The bids,
        the gift and the return are not read (``bids`` has nothing to switch)."""
        st: Any = states[0]
        out = np.ones(len(states))
        history = st.history
        start = next((i for i, x in enumerate(history) if HT.KIND[x] >= HT.K_PLAY), None)
        if start is None:  # HUU-7.1: the card play has not begun
            return out
        played = history[start:]
        actors = st.actors[start:]
        gone = [0] * 4  # the cards each seat has played (HUU-7.4)
        for x, s in zip(played, actors, strict=True):
            if HT.KIND[x] == HT.K_PLAY:
                gone[s] |= 1 << HT.ARG[x]
        worlds: list[Any] = list(states)
        hands = np.array(
            [[(list(w.hands) + [0] * 4)[k] | gone[k] for k in range(4)] for w in worlds],
            np.uint64,
        )
        asides = np.array([sum(1 << c for c in w.discards) for w in worlds], np.uint64)
        codes = np.array([self.action_code(st, x) for x in played], np.int64)
        fn: Any = _weights
        fn(hands, asides, codes, st.num_seats, actors[0], bool(st.rules.erlangen), st.declarer,
           _lapari(st), SCHEMES.index(st.rules.point_scheme),
           np.array(st.rules.marriage_values, np.int64), seat, float(miss), out)  # fmt: skip
        return out

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
