"""Batched Sasku card play (SAS-10 – SAS-13): must follow / must trump / must beat, the
twelve permanent picture trumps, the stroke table, lambapea and the 60–60 replay."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from folkcards.batch._jit import (
    ONE,
    ZERO,
    below,
    bit,
    has,
    kth,
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
from folkcards.bots.heuristic import sasku as HEUR
from folkcards.cards import BIT, CARD_NAMES
from folkcards.engine.api import DealState
from folkcards.games import sasku as S
from folkcards.games.sasku.rules import DEAL_LAYOUTS

BEATS = np.array([list(c.beats) + [0] * 12 for c in S.TRUMP_CONFIGS], np.uint64)
CLASS = np.array([list(c.class_of) + [0] * 12 for c in S.TRUMP_CONFIGS], np.uint64)
TRUMPS = np.array([c.trumps for c in S.TRUMP_CONFIGS], np.uint64)
POINTS = np.array(list(S.CARD_POINTS) + [0] * 12, np.int64)
POWER = np.array([power_table(c) for c in S.TRUMP_CONFIGS], np.int64)
SIDE = np.array([0, 1, 0, 1], np.int64)
H_POWER = np.array([list(row) + [0] * 12 for row in HEUR.POWER], np.float64)
"""The heuristic's own ordinal of each card per trump (:data:`folkcards.bots.heuristic.sasku.POWER`)."""
H_CONST = np.array(
    [
        HEUR.TRUMP_PW,
        HEUR.PLAIN_PW,
        HEUR.KEEP_TRICK,
        HEUR.KEEP_SCHMEAR,
        HEUR.REST_POINTS,
        HEUR.PARTNER_OVER,
        HEUR.PARTNER_BACK,
        HEUR.DEFENDER_BOSS_TRUMP_LEAD,
        HEUR.VOID_LEAD,
        HEUR.BOSS_Q,
        HEUR.TOP_Q,
    ],
    np.float64,
)
"""The heuristic's tuned constants, in the order :func:`_mimic` reads them."""
ENDGAME_CARDS = HEUR.ENDGAME_CARDS
"""From this many cards in hand down the heuristic solves its endgame (not modelled)."""


@njit
def _p_none(
    seat: int, cards: np.uint64, me: int, poss: np.ndarray, definite: np.ndarray,
    dens: np.ndarray,
) -> float:  # fmt: skip
    """``Knowledge.p_none``: the rough chance that ``seat`` holds none of ``cards``."""
    if seat == me:
        return 0.0 if poss[seat] & cards != ZERO else 1.0
    cards = cards & poss[seat]
    if cards == ZERO:
        return 1.0
    if cards & definite[seat] != ZERO:
        return 0.0
    p = 1.0
    m = cards
    while m != ZERO:
        c = lowest(m)
        m = m & (m - ONE)
        total = 0.0
        for t in range(4):
            if t != me and has(poss[t], c):
                total += dens[t]
        share = dens[seat] / total if total > 0 else 0.0
        p *= 1.0 - share
    return p


@njit
def _p_beat(
    seat: int, card: int, led: np.uint64, me: int, poss: np.ndarray, definite: np.ndarray,
    dens: np.ndarray, bt: np.ndarray, tr: np.uint64,
) -> float:  # fmt: skip
    """``Knowledge.p_beat``: the chance that ``seat``, playing later to a trick of class
    ``led`` that ``card`` is winning, takes it (SAS-10.3)."""
    higher = bt[card]
    if led == tr:
        return 1.0 - _p_none(seat, higher, me, poss, definite, dens)
    void = _p_none(seat, led, me, poss, definite, dens)
    trumps_higher = 1.0 - _p_none(seat, higher & tr, me, poss, definite, dens)
    if has(tr, card):
        return void * trumps_higher
    follow_higher = 1.0 - _p_none(seat, higher & led, me, poss, definite, dens)
    return min(1.0, follow_higher + void * trumps_higher)


@njit
def _p_hold(
    card: int, led: np.uint64, nlater: int, me: int, poss: np.ndarray, definite: np.ndarray,
    dens: np.ndarray, bt: np.ndarray, tr: np.uint64,
) -> float:  # fmt: skip
    """``Knowledge.p_hold``: the chance that ``card`` still wins after the ``nlater`` seats
    after ``me`` have played (only the opponents among them count)."""
    p = 1.0
    for k in range(1, nlater + 1):
        t = (me + k) & 3
        if t & 1 != me & 1:
            p *= 1.0 - _p_beat(t, card, led, me, poss, definite, dens, bt, tr)
    return p


@njit
def _mimic(
    legal: np.uint64,
    n: int,
    win: int,
    wseat: int,
    seat: int,
    led: np.uint64,
    tp: int,
    declaring: bool,
    hh: np.ndarray,
    excl: np.ndarray,
    notat: np.ndarray,
    bt: np.ndarray,
    cl: np.ndarray,
    tr: np.uint64,
    hpower: np.ndarray,
    poss: np.ndarray,
    definite: np.ndarray,
    dens: np.ndarray,
    probe: int,
    vals: np.ndarray,
) -> int:
    """The heuristic's card (:func:`folkcards.bots.heuristic.sasku.playout_evaluate`, the
    scorer of ``search``'s playouts) from the seat's own knowledge, not the open hands:
    its :class:`~folkcards.bots.heuristic.sasku.Knowledge` is rebuilt from what every
    seat may know — the seat's hand, the cards no longer in play, each seat's public
    exclusions ``excl`` (voids and, under SAS-17.2, the cards that would have beaten, as
    ``play_exclusions`` reads them) and ``notat`` (cards known to lie elsewhere: the
    face-up deal, SAS-6.4, and the given pictures, SAS-7.7) — then each legal card is rated
    as ``_play`` and ``_lead`` rate it, and the best one (the lowest card number on ties)
    is played. One difference: a seat of the exchanging team knows the returned card
    (SAS-7.7), which this knowledge leaves out. ``vals`` receives the best card's value
    and that of the card ``probe`` (when it is legal; for :func:`_weights`)."""
    me = seat
    hand = hh[me]
    unseen = (hh[0] | hh[1] | hh[2] | hh[3]) & ~hand
    for t in range(4):
        if t == me:
            poss[t] = hand
        else:
            poss[t] = unseen & ~excl[t] & ~notat[t]
    for _ in range(4):  # close the sets on hand sizes
        changed = False
        for t in range(4):
            if t == me or popcount(poss[t]) > popcount(hh[t]):
                continue
            for u in range(4):
                if u != me and u != t and poss[u] & poss[t] != ZERO:
                    poss[u] = poss[u] & ~poss[t]
                    changed = True
        if not changed:
            break
    for t in range(4):
        definite[t] = ZERO
        dens[t] = 0.0
        if t == me:
            continue
        rest = ZERO
        for u in range(4):
            if u != me and u != t:
                rest = rest | poss[u]
        definite[t] = poss[t] & ~rest
        free = popcount(poss[t] & rest)
        slots = popcount(hh[t]) - popcount(definite[t])
        if free:
            dens[t] = max(0.0, min(1.0, slots / free))
    opp = poss[(me + 1) & 3] | poss[(me + 3) & 3]
    best = -1
    bv = -1e300
    if n == 0:
        partner_hand = poss[(me + 2) & 3]
        m = legal
        while m != ZERO:
            c = lowest(m)
            m = m & (m - ONE)
            pts = float(POINTS[c])
            pw = hpower[c]
            if has(tr, c):
                q = _p_hold(c, tr, 3, me, poss, definite, dens, bt, tr)
                if q >= H_CONST[9] and declaring and opp & tr != ZERO:
                    v = 30 + 0.1 * pw
                elif q >= H_CONST[9]:
                    v = (8.0 if declaring else H_CONST[7]) + 0.01 * pw
                else:
                    v = -5 - pts - 0.05 * pw
            else:
                suit = cl[c]
                q = _p_hold(c, suit, 3, me, poss, definite, dens, bt, tr)
                if q >= H_CONST[9]:
                    v = 15 + pts * 0.2
                elif q >= H_CONST[10] and opp & suit & bt[c] == ZERO:
                    v = 6 + 0.5 * pts + popcount(opp & suit)
                else:
                    length = popcount(hand & suit)
                    void = partner_hand & suit == ZERO and partner_hand & tr != ZERO
                    ruff = H_CONST[8] if void else 0.0
                    v = ruff - pts - 0.02 * pw - 0.5 * length
            if c == probe:
                vals[1] = v
            if v > bv:
                bv = v
                best = c
        vals[0] = bv
        return best
    nlater = 3 - n
    rest_pts = H_CONST[4] * nlater
    friend_winning = wseat & 1 == me & 1
    partner = (me + 2) & 3
    partner_last = nlater > 0 and ((me + nlater) & 3) == partner
    q_w = 0.0
    if friend_winning:
        q_w = _p_hold(win, led, nlater, me, poss, definite, dens, bt, tr)
    elif partner_last:
        q_w = H_CONST[5] * _p_beat(partner, win, led, me, poss, definite, dens, bt, tr)
    m = legal
    while m != ZERO:
        c = lowest(m)
        m = m & (m - ONE)
        pts = float(POINTS[c])
        value = tp + pts + rest_pts
        if has(bt[win], c):
            q = _p_hold(c, led, nlater, me, poss, definite, dens, bt, tr)
            if partner_last:
                higher = bt[c] & (led | tr)
                q += (
                    (1.0 - q)
                    * H_CONST[6]
                    * (1.0 - _p_none(partner, higher, me, poss, definite, dens))
                )
        else:
            q = q_w
        if has(tr, c):
            k = H_CONST[0] ** popcount(bt[c] & opp)
        else:
            k = H_CONST[1] * 0.5 ** popcount(bt[c] & opp & ~tr)
        keep = k * (H_CONST[2] + pts) - (1.0 - k) * pts * H_CONST[3]
        v = (2 * q - 1) * value - keep
        if c == probe:
            vals[1] = v
        if v > bv:
            bv = v
            best = c
    vals[0] = bv
    return best


@njit
def _shows(
    ex: np.ndarray, seat: int, c: int, led: np.uint64, win: int, bt: np.ndarray,
    tr: np.uint64, mb: bool,
) -> None:  # fmt: skip
    """What a follower's card ``c`` shows of its hand, added to ``ex[seat]`` (as
    ``play_exclusions`` reads the play): not following the led class ``led`` shows a void
    in it, and in trumps too when ``c`` is no trump (SAS-10.3); under SAS-17.2 a card that
    does not beat the winning ``win`` shows no card of its class that would have."""
    if not has(led, c):
        ex[seat] = ex[seat] | led
        if not has(tr, c):
            ex[seat] = ex[seat] | tr
    if mb and not has(bt[win], c):
        if has(led, c):
            ex[seat] = ex[seat] | (led & bt[win])
        elif has(tr, c):
            ex[seat] = ex[seat] | (tr & bt[win])


@njit
def _run(
    hands: np.ndarray,
    trick: np.ndarray,
    ntrick: np.ndarray,
    leader: np.ndarray,
    points: np.ndarray,
    tricks: np.ndarray,
    played: np.ndarray,
    trump: np.ndarray,
    must_beat: np.ndarray,
    declarer_team: np.ndarray,
    target: np.ndarray,
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
    excl: np.ndarray,
    notat: np.ndarray,
) -> int:
    total = 0
    rec_cap = record.shape[1]
    hh = np.zeros(4, np.uint64)
    poss = np.zeros(4, np.uint64)
    definite = np.zeros(4, np.uint64)
    dens = np.zeros(4, np.float64)
    ex = np.zeros(4, np.uint64)
    vals = np.zeros(2, np.float64)
    for b in range(hands.shape[0]):
        t = trump[b]
        bt = BEATS[t]
        cl = CLASS[t]
        tr = TRUMPS[t]
        power = POWER[t]
        mb = must_beat[b] != 0
        h0 = hands[b, 0]
        h1 = hands[b, 1]
        h2 = hands[b, 2]
        h3 = hands[b, 3]
        for k in range(4):
            ex[k] = excl[b, k]
        s = seeds[b]
        p0 = points[b, 0]
        p1 = points[b, 1]
        t0 = tricks[b, 0]
        t1 = tricks[b, 1]
        n = ntrick[b]
        lead = leader[b]
        done = played[b]
        led = ZERO
        win = 0
        wseat = lead
        tp = 0
        for i in range(n):  # the trick so far (SAS-10.4)
            c = trick[b, i]
            tp += POINTS[c]
            if i == 0:
                led = cl[c]
                win = c
            elif has(bt[win], c):
                win = c
                wseat = (lead + i) & 3
        step = 0
        while done < 9:
            if stop > 0 and step >= nforced[b] and 9 - done <= stop:
                break  # the last ``stop`` tricks are left to the solver (:func:`_dd`)
            seat = (lead + n) & 3
            if seat == 0:
                hand = h0
            elif seat == 1:
                hand = h1
            elif seat == 2:
                hand = h2
            else:
                hand = h3
            m = hand
            if n > 0:  # SAS-10.3
                f = hand & led
                if f == ZERO:
                    f = hand & tr
                    if f == ZERO:
                        f = hand
                if mb:  # SAS-17.2
                    g = f & bt[win]
                    if g != ZERO:
                        f = g
                m = f
            p = policy & 15
            if policy >= 16:  # a share of random moves (policy >> 4 %)
                s = xorshift(s)
                if below(s, 100) < (policy >> 4):
                    p = 0
            if step < nforced[b]:
                c = forced[b, step]
                if c < 0 or c > 51 or not has(m, c):
                    bad[b] = 1
                    break
            elif p == 0:
                s = xorshift(s)
                c = kth(m, below(s, popcount(m)))
            elif p == 3:
                hh[0] = h0
                hh[1] = h1
                hh[2] = h2
                hh[3] = h3
                declaring = declarer_team[b] == (seat & 1)
                c = _mimic(m, n, win, wseat, seat, led, tp, declaring, hh, ex, notat[b], bt,
                           cl, tr, H_POWER[t], poss, definite, dens, -1, vals)  # fmt: skip
            elif p == 1:
                hh[0] = h0
                hh[1] = h1
                hh[2] = h2
                hh[3] = h3
                declaring = declarer_team[b] == (seat & 1)
                friend = n > 0 and (wseat & 1) == (seat & 1)
                c = swing_choice(m, n, win, friend, seat, lead, 4, hh, SIDE, led, cl, bt, power,
                                 POINTS, tr, True, declaring, tp, 0.0)  # fmt: skip
            else:
                after = ZERO
                for k in range(n + 1, 4):
                    o = (lead + k) & 3
                    if o == 0:
                        after = after | h0
                    elif o == 1:
                        after = after | h1
                    elif o == 2:
                        after = after | h2
                    else:
                        after = after | h3
                others = (h0 | h1 | h2 | h3) & ~hand
                friend = n > 0 and (wseat & 1) == (seat & 1)
                c = trick_choice(m, n, win, friend, after, others, bt, power, POINTS, tr, tp)
            if step < rec_cap:
                record[b, step] = c
            step += 1
            total += 1
            cb = bit(c)
            if seat == 0:
                h0 = h0 ^ cb
            elif seat == 1:
                h1 = h1 ^ cb
            elif seat == 2:
                h2 = h2 ^ cb
            else:
                h3 = h3 ^ cb
            trick[b, n] = c
            tp += POINTS[c]
            if n == 0:  # SAS-10.2
                led = cl[c]
                win = c
                wseat = seat
            else:
                _shows(ex, seat, c, led, win, bt, tr, mb)
                if has(bt[win], c):  # SAS-10.4
                    win = c
                    wseat = seat
            n += 1
            if n == 4:  # SAS-11.1, SAS-11.2
                if wseat & 1:
                    p1 += tp
                    t1 += 1
                else:
                    p0 += tp
                    t0 += 1
                tp = 0
                n = 0
                done += 1
                lead = wseat
        nrec[b] = step
        hands[b, 0] = h0
        hands[b, 1] = h1
        hands[b, 2] = h2
        hands[b, 3] = h3
        for k in range(4):
            excl[b, k] = ex[k]
        points[b, 0] = p0
        points[b, 1] = p1
        tricks[b, 0] = t0
        tricks[b, 1] = t1
        played[b] = done
        ntrick[b] = n
        leader[b] = lead
        seeds[b] = s
        shaping[b, 0] = p0
        shaping[b, 1] = p1
        score[b, 0] = 0
        score[b, 1] = 0
        if done < 9:
            continue
        dt = declarer_team[b]
        if t0 == 9:  # SAS-13.1
            score[b, 0] = target[b]
        elif t1 == 9:
            score[b, 1] = target[b]
        elif p0 == 60:  # SAS-13.2: replay, no score
            pass
        elif dt < 0:  # SAS-13.3
            if p0 > 60:
                score[b, 0] = 1
            else:
                score[b, 1] = 1
        else:  # SAS-13.4, SAS-13.5, SAS-22.6
            pd = p1 if dt == 1 else p0
            diamonds = t == 3
            if pd >= 91:
                score[b, dt] = 6 if diamonds else 4
            elif pd >= 61:
                score[b, dt] = 4 if diamonds else 2
            elif pd >= 30:
                score[b, 1 - dt] = 6 if diamonds else 4
            else:
                score[b, 1 - dt] = 8 if diamonds else 6
    return total


@njit
def _weights(
    hands: np.ndarray,
    plays: np.ndarray,
    seats: np.ndarray,
    t: int,
    mb: bool,
    declarer_team: int,
    notat: np.ndarray,
    me: int,
    miss: float,
    out: np.ndarray,
) -> None:
    """Inference from play: each row's weight is ``miss`` to the power of the cards played
    so far (``plays`` by ``seats``, the deal's public play in order) by seats other than
    ``me`` that the heuristic (:func:`_mimic`, from that seat's knowledge at the time)
    would not have played, with the row's hands as the hidden cards. A decision with one
    legal card (SAS-10.3) tells nothing and is not counted; nor is one in the last
    ``ENDGAME_CARDS`` tricks, where the heuristic plays its endgame solver instead
    (``folkcards.bots.heuristic.sasku.models``)."""
    bt = BEATS[t]
    cl = CLASS[t]
    tr = TRUMPS[t]
    hp = H_POWER[t]
    poss = np.zeros(4, np.uint64)
    definite = np.zeros(4, np.uint64)
    dens = np.zeros(4, np.float64)
    vals = np.zeros(2, np.float64)
    gone = np.zeros(4, np.uint64)
    for i in range(plays.shape[0]):
        gone[seats[i]] = gone[seats[i]] | bit(plays[i])
    h = np.zeros(4, np.uint64)
    ex = np.zeros(4, np.uint64)
    for b in range(hands.shape[0]):
        for k in range(4):
            h[k] = hands[b, k] | gone[k]
            ex[k] = ZERO
        w = 1.0
        n = 0
        led = ZERO
        win = 0
        wseat = 0
        tp = 0
        for i in range(plays.shape[0]):
            seat = seats[i]
            c = plays[i]
            hand = h[seat]
            m = hand
            if n > 0:  # SAS-10.3
                f = hand & led
                if f == ZERO:
                    f = hand & tr
                    if f == ZERO:
                        f = hand
                if mb:  # SAS-17.2
                    g = f & bt[win]
                    if g != ZERO:
                        f = g
                m = f
            if seat != me and popcount(m) > 1 and popcount(hand) > ENDGAME_CARDS:
                declaring = declarer_team == (seat & 1)
                _mimic(m, n, win, wseat, seat, led, tp, declaring, h, ex, notat, bt, cl, tr, hp,
                       poss, definite, dens, c, vals)  # fmt: skip
                if vals[1] < vals[0] - 1e-9:
                    w *= miss
            h[seat] = hand ^ bit(c)
            tp += POINTS[c]
            if n == 0:
                led = cl[c]
                win = c
                wseat = seat
            else:
                _shows(ex, seat, c, led, win, bt, tr, mb)
                if has(bt[win], c):
                    win = c
                    wseat = seat
            n += 1
            if n == 4:
                n = 0
                tp = 0
        out[b] *= w  # after the bids read (:func:`_read_bids`)


WIN_W = HEUR.WIN_WEIGHTS
PIC_W = np.array([WIN_W.get(CARD_NAMES[c][0], 0.0) if BIT[c] & S.PICTURES else 0.0
                  for c in range(52)], np.float64)  # fmt: skip
TRUMP_W = np.array(
    [
        {"6": WIN_W["six"], "A": WIN_W["A_trump"], "T": WIN_W["T_trump"]}.get(
            CARD_NAMES[c][0], WIN_W["low_trump"]
        )
        for c in range(52)
    ],
    np.float64,
)
""":func:`folkcards.bots.heuristic.sasku.win_chance`'s weight of each card, as a picture
and as a trump below the pictures."""
SUITS_M = np.array([0x1FFF << (13 * s) for s in range(4)], np.uint64)
PICS_M = np.uint64(S.PICTURES)
ACES_M = np.uint64(sum(1 << (13 * s) for s in range(4)))
TENS_M = np.uint64(sum(1 << (13 * s + CARD_NAMES.index("TC")) for s in range(4)))
BID_CONST = np.array(
    [
        WIN_W["bias"], WIN_W["void"], WIN_W["ace"], WIN_W["ten"], WIN_W["ten_with_ace"],
        WIN_W["low"], HEUR.DECLARE_D, HEUR.BID_MIN, HEUR.BID_STEP, HEUR.DIAMONDS_MIN,
        HEUR.OVERRIDE_MIN, HEUR.OVERRIDE_GAIN,
    ],
    np.float64,
)  # fmt: skip
"""The heuristic's bidding constants, in the order :func:`_win_chance` and :func:`_heard`
read them."""
R_AUCTION, R_DECLARE, R_OVERRIDE = 0, 1, 2
"""Kinds of the decisions before card play that :func:`_heard` reads."""
A_PASS, A_DIAMONDS = 0, 1
"""Codes of ``pass`` and ``diamonds`` among :func:`_heard`'s actions (``bid N``: N,
``trump X``: 10 + the suit)."""


@njit
def _win_chance(hand: np.uint64, suit: int, k: np.ndarray) -> float:
    """:func:`folkcards.bots.heuristic.sasku.win_chance`, term by term in its order (so
    the very same float)."""
    x = k[0]
    m = hand & PICS_M
    while m != ZERO:
        c = lowest(m)
        x += PIC_W[c]
        m = m & (m - ONE)
    m = hand & SUITS_M[suit] & ~PICS_M
    while m != ZERO:
        c = lowest(m)
        x += TRUMP_W[c]
        m = m & (m - ONE)
    for t in range(4):
        if t == suit:
            continue
        cards = hand & SUITS_M[t] & ~PICS_M
        if cards == ZERO:
            x += k[1]
        ace = cards & ACES_M != ZERO
        if ace:
            x += k[2]
        if cards & TENS_M != ZERO:
            x += k[4] if ace else k[3]
        x += k[5] * popcount(cards & ~ACES_M & ~TENS_M)
    return 1.0 / (1.0 + math.exp(-x))  # as the heuristic's own


@njit
def _potential(hand: np.uint64, suit: int) -> int:
    """Pictures plus cards of ``suit`` (SAS-8.1)."""
    return popcount(hand & PICS_M) + popcount(hand & SUITS_M[suit] & ~PICS_M)


@njit
def _heard(hand: np.uint64, seat: int, kind: int, bidder: int, bid: int, named: int,
           code: int, k: np.ndarray) -> int:  # fmt: skip
    """Whether the heuristic (:func:`folkcards.bots.heuristic.sasku._auction`, its
    declaration and its override) makes decision ``code`` of ``kind`` with ``hand``: 1 if
    so, 0 if not, -1 when the decision had one legal action and tells nothing. ``bidder``
    and ``bid`` are the auction's highest so far (-1 and 0: none); ``named`` the trump the
    final bidder named (the override, SAS-9.3)."""
    if kind == R_AUCTION:  # SAS-8
        best_t = 0
        best = -1.0
        chances = np.zeros(4)
        for t in range(4):
            chances[t] = _win_chance(hand, t, k) + (k[6] if t == 3 else 0.0)
            if chances[t] >= best:
                best_t = t
                best = chances[t]
        chance = chances[best_t] - (k[6] if best_t == 3 else 0.0)
        length = 0
        for t in range(4):
            length = max(length, _potential(hand, t))
        if best_t != 3:
            length = _potential(hand, best_t)
        partner = bidder >= 0 and (bidder & 1) == (seat & 1)
        rival = bidder >= 0 and not partner
        supported = 0
        for n in range(5, 10):
            if length >= n and chance >= k[7] + k[8] * (n - 5):
                supported = n
        d = _win_chance(hand, 3, k)
        if (rival and bid >= 8 and d >= 0.5) or (best_t == 3 and d >= k[9]):
            want = A_DIAMONDS
        elif max(5, bid + 1) <= supported and not (partner and supported - bid < 2):
            want = max(5, bid + 1)  # the lowest supported bid
        else:
            want = A_PASS
        return 1 if code == want else 0
    if kind == R_DECLARE:  # SAS-9.1: C, S, H as long as the bid; D always
        top = -1e9
        legal = 0
        mine = 0.0
        for t in range(4):
            if t == 3 or _potential(hand, t) >= bid:
                v = _win_chance(hand, t, k) + (k[6] if t == 3 else 0.0)
                top = max(top, v)
                legal += 1
                if code == 10 + t:
                    mine = v
        if legal < 2:
            return -1
        return 1 if mine >= top - 1e-9 else 0
    # the override (SAS-9.3): diamonds against the named trump, never against a friend
    d = _win_chance(hand, 3, k)
    want_d = (bidder & 1) != (seat & 1) and d >= k[10] and d >= _win_chance(hand, named, k) + k[11]
    return 1 if (code == A_DIAMONDS) == want_d else 0


@njit
def _read_bids(hands: np.ndarray, gone: np.ndarray, reads: np.ndarray, me: int, miss: float,
               k: np.ndarray, out: np.ndarray) -> None:  # fmt: skip
    """Multiply each row's weight by ``miss`` per decision of ``reads`` (rows: kind, seat,
    bidder, bid, named trump, action code) by a seat other than ``me`` that the heuristic
    would not have made with that row's hand of the auction (its hand now and the cards it
    has played: nothing moves between the auction and the play)."""
    for b in range(hands.shape[0]):
        w = out[b]
        for i in range(reads.shape[0]):
            seat = reads[i, 1]
            if seat == me:
                continue
            hand = hands[b, seat] | gone[seat]
            if _heard(hand, seat, reads[i, 0], reads[i, 2], reads[i, 3], reads[i, 4],
                      reads[i, 5], k) == 0:  # fmt: skip
                w *= miss
        out[b] = w


def bid_reads(history: Sequence[Any], actors: Sequence[int]) -> np.ndarray:
    """The public decisions before card play that the kernel reads (:func:`_read_bids`):
    every bid, pass and ``diamonds`` of the auction (SAS-8), the final bidder's trump
    (SAS-9.1) and the override's answers (SAS-9.3), with the auction's state when each
    was made."""
    rows: list[tuple[int, int, int, int, int, int]] = []
    bidder, bid, named = -1, 0, 3
    kind = R_AUCTION
    for action, seat in zip(history, actors, strict=True):
        step = action.step
        verb = step.kind
        if verb in ("give", "return", "keep", "deal"):
            continue
        if verb == "play":
            break
        if verb == "trump":
            named = "CSHD".index(step.suit)
            rows.append((R_DECLARE, seat, bidder, bid, named, 10 + named))
            kind = R_OVERRIDE
            continue
        code = A_DIAMONDS if verb == "diamonds" else A_PASS if verb == "pass" else step.number
        rows.append((kind, seat, bidder, bid, named, code))
        if verb == "bid":
            bidder, bid = seat, step.number
        elif verb == "diamonds":
            break  # SAS-8.6, SAS-9.4: the trump is fixed
    return np.array(rows, np.int64).reshape(-1, 6)


TT_BITS = 16
"""The solver's transposition table holds ``2 ** TT_BITS`` trick-start positions."""
TT_MASK = np.uint64((1 << TT_BITS) - 1)
S13, S16, S25, S26, S32, S38, S39, S51 = (np.uint64(k) for k in (13, 16, 25, 26, 32, 38, 39, 51))


@njit
def _tt_slot(h: np.ndarray, lead: int) -> np.int64:
    """The table slot of a trick-start position (its hands and leader folded by shifts
    and xors, which never overflow)."""
    x = h[0] ^ (h[1] << S13) ^ (h[1] >> S51) ^ (h[2] << S26) ^ (h[2] >> S38)
    x = x ^ (h[3] << S39) ^ (h[3] >> S25) ^ np.uint64(lead)
    x = x ^ (x >> S32)
    x = x ^ (x >> S16)
    return np.int64(x & TT_MASK)


@njit
def _dd(
    h: np.ndarray,
    n0: int,
    lead0: int,
    led0: np.uint64,
    win0: int,
    wseat0: int,
    tp0: int,
    bt: np.ndarray,
    cl: np.ndarray,
    tr: np.uint64,
    mb: bool,
    tt_hands: np.ndarray,
    tt_lead: np.ndarray,
    tt_bounds: np.ndarray,
    nodes: np.ndarray,
) -> int:
    """The card points team 0 still takes (the current trick's ``tp0`` included) when
    every hand ``h`` is open, team 0 maximises them and team 1 minimises them.

    Alpha-beta (fail-soft) over the legal cards of SAS-10.3 / SAS-17.2, trick winners by
    SAS-10.4, with a transposition table of trick-start positions (hands and leader: the
    points already taken do not change what is still to take) holding a lower and an
    upper bound. The search keeps its own stack of frames (one per card played) rather
    than recursing, because numba's on-disk cache does not reload recursive functions."""
    depth = 40
    f_n = np.zeros(depth, np.int64)
    f_lead = np.zeros(depth, np.int64)
    f_led = np.zeros(depth, np.uint64)
    f_win = np.zeros(depth, np.int64)
    f_ws = np.zeros(depth, np.int64)
    f_tp = np.zeros(depth, np.int64)
    f_alpha = np.zeros(depth, np.int64)
    f_beta = np.zeros(depth, np.int64)
    f_a0 = np.zeros(depth, np.int64)
    f_b0 = np.zeros(depth, np.int64)
    f_best = np.zeros(depth, np.int64)
    f_hand = np.zeros(depth, np.uint64)
    f_m = np.zeros(depth, np.uint64)
    f_slot = np.zeros(depth, np.int64)
    f_gain = np.zeros(depth, np.int64)
    d = 0
    f_n[0] = n0
    f_lead[0] = lead0
    f_led[0] = led0
    f_win[0] = win0
    f_ws[0] = wseat0
    f_tp[0] = tp0
    f_alpha[0] = -1000
    f_beta[0] = 1000
    entering = True
    returning = False
    rv = 0
    while True:
        if entering:
            entering = False
            nodes[0] += 1
            n = f_n[d]
            lead = f_lead[d]
            f_slot[d] = -1
            if n == 0:
                if h[0] == ZERO and h[1] == ZERO:  # every trick played
                    rv = 0
                    returning = True
                else:
                    slot = _tt_slot(h, lead)
                    f_slot[d] = slot
                    cut, v, al, be = tt_probe(
                        tt_hands, tt_lead, tt_bounds, slot, h, lead, f_alpha[d], f_beta[d]
                    )
                    f_alpha[d] = al
                    f_beta[d] = be
                    if cut:
                        rv = v
                        returning = True
            if not returning:
                f_a0[d] = f_alpha[d]
                f_b0[d] = f_beta[d]
                seat = (lead + n) & 3
                hand = h[seat]
                m = hand
                if n > 0:  # SAS-10.3
                    f = hand & f_led[d]
                    if f == ZERO:
                        f = hand & tr
                        if f == ZERO:
                            f = hand
                    if mb:  # SAS-17.2
                        g = f & bt[f_win[d]]
                        if g != ZERO:
                            f = g
                    m = f
                f_hand[d] = hand
                f_m[d] = m
                f_best[d] = -1000 if seat & 1 == 0 else 1000
        if returning:
            returning = False
            if d == 0:
                return rv
            d -= 1
            v = rv + f_gain[d]
            if (f_lead[d] + f_n[d]) & 1 == 0:  # team 0 to play: the most
                if v > f_best[d]:
                    f_best[d] = v
                    if v > f_alpha[d]:
                        f_alpha[d] = v
            elif v < f_best[d]:
                f_best[d] = v
                if v < f_beta[d]:
                    f_beta[d] = v
            if f_alpha[d] >= f_beta[d]:
                f_m[d] = ZERO  # a cut-off
        n = f_n[d]
        lead = f_lead[d]
        seat = (lead + n) & 3
        m = f_m[d]
        if m != ZERO:
            c = lowest(m)
            cb = bit(c)
            f_m[d] = m ^ cb
            h[seat] = f_hand[d] ^ cb
            win = f_win[d]
            if n == 0:  # SAS-10.2
                nled, nwin, nws = cl[c], c, seat
            elif has(bt[win], c):  # SAS-10.4
                nled, nwin, nws = f_led[d], c, seat
            else:
                nled, nwin, nws = f_led[d], win, f_ws[d]
            ntp = f_tp[d] + POINTS[c]
            e = d + 1
            if n == 3:  # SAS-11.1: the trick is taken
                gain = ntp if nws & 1 == 0 else 0
                f_n[e] = 0
                f_lead[e] = nws
                f_led[e] = ZERO
                f_win[e] = 0
                f_ws[e] = nws
                f_tp[e] = 0
            else:
                gain = 0
                f_n[e] = n + 1
                f_lead[e] = lead
                f_led[e] = nled
                f_win[e] = nwin
                f_ws[e] = nws
                f_tp[e] = ntp
            f_gain[d] = gain
            f_alpha[e] = f_alpha[d] - gain
            f_beta[e] = f_beta[d] - gain
            d = e
            entering = True
            continue
        h[seat] = f_hand[d]
        best = f_best[d]
        slot = f_slot[d]
        if slot >= 0:
            tt_store(tt_hands, tt_lead, tt_bounds, slot, h, lead, best, f_a0[d], f_b0[d], 1000)
        rv = best
        returning = True


@njit
def _solve(
    hands: np.ndarray,
    trick: np.ndarray,
    ntrick: np.ndarray,
    leader: np.ndarray,
    points: np.ndarray,
    played: np.ndarray,
    trump: np.ndarray,
    must_beat: np.ndarray,
    declarer_team: np.ndarray,
    score: np.ndarray,
    shaping: np.ndarray,
    nodes: np.ndarray,
) -> None:
    """Finish every row that has not reached the end (``played`` < 9) by its double-dummy
    value (:func:`_dd`): its final points and the winner they make (SAS-13: the side with
    more than 60 wins, a 60-60 tie is a replay, SAS-13.2) in ``shaping`` and ``score``.
    The score holds the winner's sign only (1 or 0), which is what the utilities read: the
    stroke count of SAS-13.4 is not computed."""
    size = 1 << TT_BITS
    tt_hands = np.empty((size, 4), np.uint64)  # read only where tt_lead says it is set
    tt_lead = np.full(size, -1, np.int64)
    tt_bounds = np.empty((size, 2), np.int64)
    last_trump = -1
    last_beat = -1
    h = np.zeros(4, np.uint64)
    for b in range(hands.shape[0]):
        if played[b] >= 9:
            continue
        t = trump[b]
        mb = must_beat[b]
        if t != last_trump or mb != last_beat:  # the table holds one rule set's values
            tt_lead[:] = -1
            last_trump = t
            last_beat = mb
        bt = BEATS[t]
        cl = CLASS[t]
        for k in range(4):
            h[k] = hands[b, k]
        n = ntrick[b]
        lead = leader[b]
        led = ZERO
        win = 0
        wseat = lead
        tp = 0
        for i in range(n):  # SAS-10.4
            c = trick[b, i]
            tp += POINTS[c]
            if i == 0:
                led = cl[c]
                win = c
            elif has(bt[win], c):
                win = c
                wseat = (lead + i) & 3
        rest = tp
        for k in range(4):
            m = h[k]
            while m != ZERO:
                rest += POINTS[lowest(m)]
                m = m & (m - ONE)
        v = _dd(h, n, lead, led, win, wseat, tp, bt, cl, TRUMPS[t], mb != 0, tt_hands,
                tt_lead, tt_bounds, nodes)  # fmt: skip
        p0 = points[b, 0] + v
        p1 = points[b, 1] + rest - v
        points[b, 0] = p0
        points[b, 1] = p1
        shaping[b, 0] = p0
        shaping[b, 1] = p1
        score[b, 0] = 1 if p0 > p1 else 0
        score[b, 1] = 1 if p1 > p0 else 0


def _public_key(state: Any) -> tuple[Any, ...]:
    """What :func:`_public_knowledge` reads of a deal: its public history."""
    return (
        tuple(state.history),
        tuple(state.actors),
        state.trump,
        bool(state.must_beat),
        tuple(state.face_up),
        state.dealer,
        tuple((g, p, r, ret >= 0) for g, p, r, ret in state.exchanges),
    )


def _public_knowledge(state: Any) -> tuple[list[int], list[int]]:
    """Per seat, the cards the play has shown it lacks (SAS-10.3, SAS-17.2) and the cards
    every seat knows to lie elsewhere (:func:`located`): the same for every deal sampled
    from one observation."""
    excl = S.play_exclusions(
        [a.step for a in state.history],
        state.actors,
        S.TRUMP_CONFIGS[state.trump],
        bool(state.must_beat),
    )
    return list(excl), located(state)


def located(state: Any) -> list[int]:
    """Per seat, the cards every seat knows to lie in another hand (or already played
    elsewhere): the face-up cards of ``deal to X`` with their recipients (SAS-6.4) and the
    given pictures with the partners who took them (SAS-7.7). A returned card is seen by
    the two partners only, so it locates nothing here; the face-up suit cards of the
    returner may have gone back with it, so they are placed at the giver or the returner
    (as the heuristic's ``Knowledge`` places them for a seat outside the exchange)."""
    at: dict[int, int] = {}
    layout = DEAL_LAYOUTS["to"]
    for i, c in enumerate(state.face_up):
        at[c] = (state.dealer + layout[i][0]) & 3
    pair: dict[int, tuple[int, int]] = {}
    for giver, picture, returner, returned in state.exchanges:
        at[picture] = returner
        pair.pop(picture, None)
        if returned < 0:
            continue
        for c, seat in list(at.items()):
            if seat == returner and not S.PICTURES >> c & 1:
                del at[c]
                pair[c] = (giver, returner)
    out = [0, 0, 0, 0]
    for c, seat in at.items():
        for t in range(4):
            if t != seat:
                out[t] |= BIT[c]
    for c, seats in pair.items():
        for t in range(4):
            if t not in seats:
                out[t] |= BIT[c]
    return out


def _likelihoods(
    template: DealState, hands: np.ndarray, seat: int, miss: float, bids: bool
) -> np.ndarray:
    """The weights of :meth:`SaskuKernel.likelihoods` for deals that are ``template`` but
    for their hands now (four card masks a deal)."""
    st: Any = template
    plays = [(a.step.cards[0], s) for a, s in zip(st.history, st.actors, strict=True)
             if a.step.kind == "play"]  # fmt: skip
    hands = np.ascontiguousarray(hands, np.uint64)
    out = np.ones(len(hands))
    if bids:  # the bids, the trump and the override (:func:`bid_reads`)
        reads = bid_reads(st.history, st.actors)
        if len(reads):
            gone = np.zeros(4, np.uint64)
            for c, s in plays:
                gone[s] |= BIT[c]
            _read_bids(hands, gone, reads, seat, float(miss), BID_CONST, out)
    if not plays:
        return out
    declarer_team = -1 if st.passed_deal or st.declarer is None else st.declarer & 1
    _weights(hands, np.array([c for c, _ in plays], np.int64),
             np.array([s for _, s in plays], np.int64), int(st.trump),
             bool(st.must_beat), declarer_team, np.array(located(st), np.uint64), seat,
             float(miss), out)  # fmt: skip
    return out


class SaskuKernel(GameKernel):
    """Sasku's card play in a batch."""

    game = "sasku"
    solver = True
    draws_hands = True  # every key but the hands is public: the trick, the points, SAS-19.1
    policies = frozenset({"random", "fast", "simple", "heuristic"})
    seats = 4
    sides = 2
    max_steps = 36
    state_keys = (
        "hands",
        "trick",
        "ntrick",
        "leader",
        "points",
        "tricks",
        "played",
        "trump",
        "must_beat",
        "declarer_team",
        "target",
        "excl",
        "notat",
    )
    mask_keys = frozenset({"hands", "excl", "notat"})

    def encode(self, states: Sequence[DealState]) -> Arrays:
        """One row per state; the public knowledge (``excl``, ``notat``) is worked out once
        for the states that share a public history, as the sampled deals of one
        observation do."""
        known: dict[tuple[Any, ...], tuple[list[int], list[int]]] = {}
        rows = []
        for state in states:
            key = _public_key(state)
            if key not in known:
                known[key] = _public_knowledge(state)
            rows.append(self.encode_one(state, known[key]))
        return {
            key: np.array([r[key] for r in rows], np.uint64 if key in self.mask_keys else np.int64)
            for key in self.state_keys
        }

    def encode_one(
        self, state: DealState, public: tuple[list[int], list[int]] | None = None
    ) -> dict[str, Any]:
        """The row of one play-phase state (``public``: its ``excl`` and ``notat`` when
        already known)."""
        st: Any = state
        if st.phase != "play":
            raise ValueError(f"a Sasku deal in phase {st.phase!r} is not in card play")
        excl, notat = public if public is not None else _public_knowledge(st)
        trick = list(st.trick)
        declarer_team = -1 if st.passed_deal or st.declarer is None else st.declarer & 1
        return {
            "hands": list(st.hands),
            "trick": trick + [0] * (4 - len(trick)),
            "ntrick": len(trick),
            "leader": st.leader,
            "points": list(st.points),
            "tricks": list(st.tricks),
            "played": st.tricks_played,
            "trump": st.trump,
            "must_beat": int(bool(st.must_beat)),
            "declarer_team": declarer_team,
            "target": int(st.variant["target"]),
            "excl": excl,
            "notat": notat,
        }

    def run(self, a: Arrays, policy: int) -> int:
        return self.run_until(a, policy, 0)

    def run_until(self, a: Arrays, policy: int, stop: int) -> int:
        return int(
            _run(
                a["hands"],
                a["trick"],
                a["ntrick"],
                a["leader"],
                a["points"],
                a["tricks"],
                a["played"],
                a["trump"],
                a["must_beat"],
                a["declarer_team"],
                a["target"],
                a["forced"],
                a["nforced"],
                a["seeds"],
                policy,
                a["record"],
                a["nrec"],
                a["score"],
                a["shaping"],
                a["bad"],
                stop,
                a["excl"],
                a["notat"],
            )
        )

    def solve(self, a: Arrays) -> int:
        nodes = np.zeros(1, np.int64)
        _solve(a["hands"], a["trick"], a["ntrick"], a["leader"], a["points"], a["played"],
               a["trump"], a["must_beat"], a["declarer_team"], a["score"], a["shaping"],
               nodes)  # fmt: skip
        a["played"][:] = 9
        return int(nodes[0])

    def tricks_left(self, state: DealState) -> int:
        st: Any = state
        return 9 - int(st.tricks_played)

    def likelihoods(
        self, states: Sequence[DealState], seat: int, miss: float, bids: bool = True
    ) -> np.ndarray:
        """How well the heuristic explains the card play of the seats other than ``seat``
        in each of ``states`` (sampled deals of one observation: the same public play,
        different hidden hands): ``miss`` per card it would not have played
        (:func:`_weights`) and, with ``bids``, per bid, pass or ``diamonds``, trump named
        and override answer it would not have made with that deal's hands at the auction
        (:func:`_read_bids`)."""
        hands = np.array([list(x.hands) for x in states], np.uint64)  # type: ignore[attr-defined]
        return _likelihoods(states[0], hands, seat, miss, bids)

    def likelihoods_hands(
        self, template: DealState, hands: np.ndarray, seat: int, miss: float, bids: bool = True
    ) -> np.ndarray:
        """:meth:`likelihoods` of deals that are ``template`` but for their hands now
        (``hands``: four card masks a deal), as :meth:`encode_hands` encodes them."""
        return _likelihoods(template, hands, seat, miss, bids)

    def reads_before_play(self, state: DealState) -> bool:
        """True once the auction has a bid, pass or ``diamonds`` (SAS-8.3) to read: an
        exchange (SAS-7) comes before it and has nothing."""
        st: Any = state
        return len(bid_reads(st.history, st.actors)) > 0

    def action_code(self, state: DealState, action: Any) -> int:
        return int(S.CARD_OF_PLAY[action])

    def action_texts(self, state: DealState, codes: Sequence[int]) -> list[str]:
        return [f"play {CARD_NAMES[c]}" for c in codes]


KERNEL = SaskuKernel()
