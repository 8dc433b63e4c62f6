"""Batched Satat card play (SAT-8, SAT-9, SAT-15): follow suit with the 2♥ free and
supreme, a led 2♥ calling for trumps once the trump is known, the deal won at seven
tricks, the 7-0 choice to continue (and 13-0), and Trup Kasiet's hidden trump becoming
known as play reveals it. Signals change nothing that counts and are left out.

The ``heuristic`` policy (:func:`_mimic`) plays the Satat heuristic's card from what the
seat may know (its hand, the cards played, the trump only where SAT-19.3 shows it), and
:meth:`SatatKernel.likelihoods` reads the play with it (:func:`_weights`): the batched
search's inference from play.

The endgame solver (:func:`_dd`, :meth:`SatatKernel.solve`) finishes rows stopped with a
few tricks left by their exact double-dummy value. Satat's utility
(:func:`folkcards.bots.base.utilities`) is the deal's winner (SAT-10) plus the margin of
the ``tricks`` taken when play stopped, and the winner is the side with more tricks, so
it is a strictly increasing function of team 0's final trick margin: the solver finds
that margin (team 0 maximises it, team 1 minimises it), the 7-0 choice (SAT-9.2) being
one more decision of the side that made the seven."""

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
from folkcards.bots.heuristic import satat as HEUR
from folkcards.cards import SUIT_MASK
from folkcards.engine.api import DealState
from folkcards.games import satat as T
from folkcards.games.satat.deal import trump_choices
from folkcards.games.satat.rules import K_BLIND, K_TRUMP, SUF

BEATS = np.array([list(c.beats) + [0] * 12 for c in T.CONFIGS], np.uint64)
TRUMPS = np.array([c.trumps for c in T.CONFIGS], np.uint64)
CLASS = np.array([list(c.class_of) + [0] * 12 for c in T.CONFIGS], np.uint64)
SIDE = np.array([0, 1, 0, 1], np.int64)
SUITS = np.array(list(SUIT_MASK), np.uint64)
FOLLOW = np.array(list(T.FOLLOW_OF) + [0] * 12, np.uint64)
KEEP = np.array(list(T.KEEP_OF) + [0] * 12, np.uint64)
POWER = np.array([power_table(c) for c in T.CONFIGS], np.int64)
NO_POINTS = np.zeros(64, np.int64)
TWO_H = T.TWO_H
CONTINUE, STOP = 64, 65
PLAY_ON, OVER, CHOICE = 0, 1, 2
"""What follows a trick (:func:`_after`): more play, the end of the deal, the 7-0 choice."""
NO_TRUMP = 4
"""The heuristic's view of a seat that does not know the trump (Trup Kasiet, SAT-19.3)."""
VIEW_BEATS = np.array([list(s) + [0] * 12 for s in HEUR.STRONGER], np.uint64)
"""``VIEW_BEATS[view][c]``: the cards that beat ``c`` as the heuristic sees it, per trump
suit and for :data:`NO_TRUMP` (the 2♥ still supreme; SAT-1.3, SAT-1.8, SAT-8.5)."""
VIEW_TRUMPS = np.array([SUIT_MASK[t] for t in range(4)] + [0], np.uint64)
"""The cards the heuristic counts as trumps in each view (the 2♥ one when hearts are)."""
VIEW_POWER = np.array(
    [
        [
            40.0 if c == TWO_H else float(HEUR.rank_value(c) + (15 if c // 13 == t else 0))
            for c in range(52)
        ]
        + [0.0] * 12
        for t in range(5)
    ],
    np.float64,
)
"""The heuristic's ``power`` of each card per view: 40 for the 2♥, else its rank value,
15 more for a trump."""
SUIT_OF = np.array([SUIT_MASK[c // 13] if c < 52 else 0 for c in range(64)], np.uint64)
"""Each card's whole suit (the 2♥ a heart, SAT-1.3)."""


@njit
def _legal(hand: np.uint64, n: int, led: int, lk: bool, tr: int) -> np.uint64:
    """SAT-8.3: the cards of ``hand`` the ``n``-th player of a trick (0: the leader, who
    may lead anything, SAT-8.2) may play to the card ``led``: after a plain lead the led
    suit without the 2♥ when he holds one, the 2♥ always allowed too (rule 2); after a led
    2♥ the trump suit ``tr`` when he holds one and the trump was known at the lead
    (``lk``, SAT-15.5; rule 1), else anything."""
    m = hand
    if n > 0:
        if led != TWO_H:
            if hand & FOLLOW[led] != ZERO:
                m = hand & KEEP[led]
        elif lk:
            f = hand & SUITS[tr]
            if f != ZERO:
                m = f
    return np.uint64(m)


@njit
def _narrowed(cd: int, led: int, win: int, suits: int) -> int:
    """SAT-15.4 (b): the trump candidates ``cd`` (a suit mask) after a trick led by card
    ``led``, won by ``win`` (not the 2♥), whose cards are of the suits of mask ``suits``:
    the winner's suit alone when it is not the led suit (a trump won), else every suit
    played but the led one ruled out."""
    led_suit = led // 13
    ws = win // 13
    if ws != led_suit:
        return 1 << ws
    return cd & ~(suits & ~(1 << led_suit))


@njit
def _after(t0: int, t1: int, team: int, cont: bool) -> int:
    """What follows a trick won by ``team``, the tricks now ``t0``–``t1``: in a
    continuation (SAT-9.3) the end once the other team has a trick or the continuers all
    13; else at seven the end (SAT-9.1), or the 7-0 choice when the other team has none
    (SAT-9.2); else more play."""
    mine = t0 if team == 0 else t1
    theirs = t1 if team == 0 else t0
    if cont:
        if (t0 > 0 and t1 > 0) or mine == 13:
            return OVER
    elif mine == 7:
        return OVER if theirs > 0 else CHOICE
    return PLAY_ON


@njit
def _mimic(
    m: np.uint64,
    n: int,
    trick: np.ndarray,
    lead: int,
    seat: int,
    h: np.ndarray,
    vt: int,
    tm: int,
    key: bool,
    probe: int,
    vals: np.ndarray,
) -> int:
    """The heuristic's card (:func:`folkcards.bots.heuristic.satat.evaluate`: the shared
    tactics of ``common.score_plays`` with Satat's sides, power and 2♥) among the legal
    cards ``m`` of ``seat``, the ``n`` cards of ``trick`` led by ``lead`` on the table,
    from what the seat may know (SAT-19): its hand, the cards played (``unseen`` is the
    other hands), the partnerships by seat parity, the trump maker ``tm`` (whose side
    draws trumps), and the trump as view ``vt`` (a suit, or :data:`NO_TRUMP` for a seat
    of Trup Kasiet that does not know it, SAT-19.3; the trick winner is then the one it
    sees). The 2♥ (power 40, beats everything, SAT-1.3) costs 25 unless the trick is a
    key one (``key``: a side has six tricks, or a 7-0 continuation, SAT-9). Signals
    (SAT-16.6) rate below the plain play and the batch plays none. The first best card is
    played; ``vals`` receives the best value and card ``probe``'s (for
    :func:`_weights`)."""
    hand = h[seat]
    unseen = ZERO
    for k in range(4):
        if k != seat:
            unseen = unseen | h[k]
    vb = VIEW_BEATS[vt]
    trumps = VIEW_TRUMPS[vt]
    power = VIEW_POWER[vt]
    best = -1
    bv = -1e300
    if n == 0:  # common._lead_score (no card points in Satat)
        declares = (tm & 1) == (seat & 1)
        opp_trumps = unseen & trumps != ZERO
        mm = m
        while mm != ZERO:
            c = lowest(mm)
            mm = mm & (mm - ONE)
            pw = power[c]
            boss = unseen & vb[c] == ZERO
            if has(trumps, c):
                if boss and declares and opp_trumps:
                    v = 30 + 0.1 * pw
                elif boss:
                    v = 8 + 0.01 * pw
                else:
                    v = -5 - 0.05 * pw
            elif boss:
                v = 15.0
            elif unseen & vb[c] & ~trumps == ZERO:  # the top of its plain suit
                v = 6.0 + popcount(unseen & SUIT_OF[c] & ~vb[c] & ~trumps)
            else:  # low from a short suit
                v = -0.02 * pw - 0.5 * popcount(hand & SUIT_OF[c])
            if c == TWO_H and not key:
                v -= 25.0  # keep the 2♥ for a key trick
            if c == probe:
                vals[1] = v
            if v > bv:
                bv = v
                best = c
        vals[0] = bv
        return best
    win = trick[0]  # the winner as the seat sees it (common.winning)
    wseat = lead
    for i in range(1, n):
        c = trick[i]
        if has(vb[win], c):
            win = c
            wseat = (lead + i) & 3
    to_come = 3 - n
    friend_safe = (wseat & 1) == (seat & 1) and (to_come == 0 or unseen & vb[win] == ZERO)
    partner_to_come = n < 2
    mm = m
    while mm != ZERO:
        c = lowest(mm)
        mm = mm & (mm - ONE)
        pw = power[c]
        sure = to_come == 0 or unseen & vb[c] == ZERO
        # no card points in Satat
        v = follow_score(0.0, pw, has(trumps, c), friend_safe, has(vb[win], c), sure,
                         partner_to_come, 0.0)  # fmt: skip
        if c == TWO_H and not key:
            v -= 25.0  # keep the 2♥ for a key trick
        if c == probe:
            vals[1] = v
        if v > bv:
            bv = v
            best = c
    vals[0] = bv
    return best


@njit
def _weights(
    hands: np.ndarray,
    trumps: np.ndarray,
    tcards: np.ndarray,
    plays: np.ndarray,
    seats: np.ndarray,
    signals: np.ndarray,
    tk: bool,
    tm: int,
    me: int,
    miss: float,
    out: np.ndarray,
) -> None:
    """Inference from play: each row's weight ``out`` is multiplied by ``miss`` to the
    power of the plays so far (cards ``plays`` by ``seats``, in order from the first lead;
    ``signals`` 1 for a play with a SAT-16.6 suffix) of seats other than ``me`` that the
    heuristic (:func:`_mimic`) would not have made with the row's hands, trump and Trup
    Kasiet trump card (``trumps``, ``tcards``: a sampled deal's own). The trump as each seat
    knows it follows the play (SAT-15.4, SAT-19.3), and the legal cards SAT-8.3 with
    SAT-15.5; a single legal card tells nothing, and a suffixed play is always one the
    heuristic would not make (it rates it half a point below the plain play of its
    card)."""
    vals = np.zeros(2, np.float64)
    gone = np.zeros(4, np.uint64)
    for i in range(plays.shape[0]):
        gone[seats[i]] = gone[seats[i]] | bit(plays[i])
    h = np.zeros(4, np.uint64)
    trick = np.zeros(4, np.int64)
    for b in range(hands.shape[0]):
        for k in range(4):
            h[k] = hands[b, k] | gone[k]  # the hands play began with
        tr = trumps[b]
        bt = BEATS[tr]
        tc = tcards[b]
        kn = not tk  # known from the first lead in the main game; SAT-15.4 in Trup Kasiet
        cd = 15
        w = out[b]  # the weight read before the play (the trump choice)
        n = 0
        lead = 0
        lk = kn
        win = 0
        wseat = 0
        t0 = 0
        t1 = 0
        for i in range(plays.shape[0]):
            seat = seats[i]
            c = plays[i]
            if seat != me:
                if signals[i] != 0:
                    w *= miss
                else:
                    m = _legal(h[seat], n, trick[0], lk, tr)  # SAT-8.3
                    if popcount(m) > 1:
                        vt = tr if kn or seat == tm else NO_TRUMP  # SAT-19.3
                        key = t0 >= 6 or t1 >= 6  # a continuation has seven (SAT-9.3)
                        _mimic(m, n, trick, lead, seat, h, vt, tm, key, c, vals)
                        if vals[1] < vals[0] - 1e-9:
                            w *= miss
            h[seat] = h[seat] ^ bit(c)
            if c == tc:
                kn = True  # SAT-15.4 (a)
            trick[n] = c
            if n == 0:
                lead = seat
                win = c
                wseat = seat
                lk = kn  # SAT-15.5
            elif has(bt[win], c):  # SAT-8.5
                win = c
                wseat = seat
            n += 1
            if n < 4:
                continue
            n = 0
            if wseat & 1 == 0:
                t0 += 1
            else:
                t1 += 1
            if tk and not kn and win != TWO_H:  # SAT-15.4 (b)
                suits = 0
                for k in range(4):
                    suits = suits | (1 << (trick[k] // 13))
                cd = _narrowed(cd, trick[0], win, suits)
                if cd == 1 or cd == 2 or cd == 4 or cd == 8:
                    kn = True
        out[b] = w


@njit
def _run(
    hands: np.ndarray,
    trick: np.ndarray,
    ntrick: np.ndarray,
    leader: np.ndarray,
    tricks: np.ndarray,
    trump: np.ndarray,
    continuing: np.ndarray,
    pending: np.ndarray,
    to_act: np.ndarray,
    tk: np.ndarray,
    known: np.ndarray,
    lead_known: np.ndarray,
    cands: np.ndarray,
    tcard: np.ndarray,
    over: np.ndarray,
    tm: np.ndarray,
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
    h = np.zeros(4, np.uint64)
    vals = np.zeros(2, np.float64)
    for b in range(hands.shape[0]):
        for k in range(4):
            h[k] = hands[b, k]
        tr = trump[b]
        bt = BEATS[tr]
        power = POWER[tr]
        trumps = TRUMPS[tr]
        s = seeds[b]
        n = ntrick[b]
        lead = leader[b]
        t0 = tricks[b, 0]
        t1 = tricks[b, 1]
        cont = continuing[b] != 0
        pend = pending[b] != 0
        hidden = tk[b] != 0
        kn = known[b] != 0
        lk = lead_known[b] != 0
        cd = cands[b]
        tc = tcard[b]
        finished = over[b] != 0
        win = 0
        wseat = lead
        for i in range(n):
            c = trick[b, i]
            if i == 0 or has(bt[win], c):
                win = c
                wseat = (lead + i) & 3
        step = 0
        while not finished:
            if stop > 0 and step >= nforced[b] and 13 - t0 - t1 <= stop:
                break  # the last ``stop`` tricks are left to the solver (:func:`_dd`)
            if pend:  # SAT-9.2: the winner of the 7-0 trick continues or stops
                p = policy & 15
                if policy >= 16:  # a share of random moves (policy >> 4 %)
                    s = xorshift(s)
                    if below(s, 100) < (policy >> 4):
                        p = 0
                if step < nforced[b]:
                    code = forced[b, step]
                    if code != CONTINUE and code != STOP:
                        bad[b] = 1
                        break
                elif p == 0:
                    s = xorshift(s)
                    code = CONTINUE if below(s, 2) == 0 else STOP
                else:  # the heuristic always continues (failing costs nothing, SAT-9.3)
                    code = CONTINUE
                if step < rec_cap:
                    record[b, step] = code
                step += 1
                total += 1
                pend = False
                if code == CONTINUE:  # SAT-9.3
                    cont = True
                else:
                    finished = True
                continue
            seat = (lead + n) & 3 if n > 0 else to_act[b]
            hand = h[seat]
            m = _legal(hand, n, trick[b, 0], lk, tr)  # SAT-8.3
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
            elif p == 3:  # the heuristic, from what the seat knows (SAT-19.3)
                vt = tr if not hidden or kn or seat == tm[b] else NO_TRUMP
                key = cont or t0 >= 6 or t1 >= 6
                c = _mimic(m, n, trick[b], lead, seat, h, vt, tm[b], key, -1, vals)
            else:
                after = ZERO
                for k in range(n + 1, 4):
                    after = after | h[(lead + k) & 3]
                others = (h[0] | h[1] | h[2] | h[3]) & ~hand
                friend = n > 0 and (wseat & 1) == (seat & 1)
                if p == 1:
                    lc = CLASS[tr, trick[b, 0]] if n > 0 else ZERO
                    c = swing_choice(m, n, win, friend, seat, lead, 4, h, SIDE, lc, CLASS[tr], bt,
                                     power, NO_POINTS, trumps, False, False, 0, 15.0)  # fmt: skip
                else:
                    c = trick_choice(m, n, win, friend, after, others, bt, power, NO_POINTS,
                                     trumps, n)  # fmt: skip
            if step < rec_cap:
                record[b, step] = c
            step += 1
            total += 1
            h[seat] = hand ^ bit(c)
            if c == tc:
                kn = True  # SAT-15.4 (a)
            trick[b, n] = c
            if n == 0:
                lead = seat
                wseat = seat
                win = c
                lk = kn  # SAT-15.5
            elif has(bt[win], c):  # SAT-8.5
                win = c
                wseat = seat
            n += 1
            if n < 4:
                continue
            n = 0  # the trick is complete
            team = wseat & 1
            if team == 0:
                t0 += 1
            else:
                t1 += 1
            if hidden and not kn and win != TWO_H:  # SAT-15.4 (b)
                suits = 0
                for k in range(4):
                    suits = suits | (1 << (trick[b, k] // 13))
                cd = _narrowed(cd, trick[b, 0], win, suits)
                if cd == 1 or cd == 2 or cd == 4 or cd == 8:
                    kn = True
            lead = wseat
            to_act[b] = wseat
            then = _after(t0, t1, team, cont)  # SAT-9.1 – SAT-9.3
            if then == OVER:
                finished = True
            elif then == CHOICE:
                pend = True
        nrec[b] = step
        for k in range(4):
            hands[b, k] = h[k]
        ntrick[b] = n
        leader[b] = lead
        tricks[b, 0] = t0
        tricks[b, 1] = t1
        continuing[b] = 1 if cont else 0
        pending[b] = 1 if pend else 0
        known[b] = 1 if kn else 0
        lead_known[b] = 1 if lk else 0
        cands[b] = cd
        over[b] = 1 if finished else 0
        seeds[b] = s
        score[b, 0] = 0
        score[b, 1] = 0
        if finished:
            score[b, 0 if t0 > t1 else 1] = 1
        shaping[b, 0] = t0
        shaping[b, 1] = t1
    return total


TT_BITS = 16
"""The solver's transposition table holds ``2 ** TT_BITS`` trick-start positions."""
TT_MASK = np.uint64((1 << TT_BITS) - 1)
S13, S16, S25, S26, S32, S38, S39, S51 = (np.uint64(k) for k in (13, 16, 25, 26, 32, 38, 39, 51))
TAG_MIX = np.uint64(0x9E37)


@njit
def _tt_slot(h: np.ndarray, tag: int) -> np.int64:
    """The table slot of a trick-start position: its hands and ``tag`` (:func:`_tag`)
    folded by shifts, xors and a product that stays below 2**32 (nothing overflows)."""
    x = h[0] ^ (h[1] << S13) ^ (h[1] >> S51) ^ (h[2] << S26) ^ (h[2] >> S38)
    x = x ^ (h[3] << S39) ^ (h[3] >> S25) ^ np.uint64(tag) * TAG_MIX
    x = x ^ (x >> S32)
    x = x ^ (x >> S16)
    return np.int64(x & TT_MASK)


@njit
def _tag(lead: int, t0: int, t1: int, cont: int, kn: int, cd: int) -> int:
    """Everything but the hands that the rest of the deal depends on at a trick start:
    the leader, the tricks taken (SAT-9), a continuation (SAT-9.3), whether the trump is
    known and, while it is not, the candidates left (SAT-15.4). Below 2**16."""
    return lead + 4 * (t0 + 14 * (t1 + 14 * (cont + 2 * (kn + 2 * (0 if kn else cd)))))


@njit
def _distinct(m: np.uint64, rest: np.uint64, fixed: np.uint64) -> np.uint64:
    """The cards of ``m`` (one hand's legal cards) worth trying in a double-dummy search:
    of each run of cards of one suit that no other unplayed card (``rest``: every hand and
    the trick on the table) separates in rank, the highest alone. Such cards win and lose
    to exactly the same cards for the rest of the deal, and Satat counts tricks, not card
    points (SAT-1.6, SAT-8.5), so each has the same value. The cards of ``fixed`` (the 2♥,
    supreme whatever its rank, SAT-1.3; Trup Kasiet's trump card, which shows the trump
    when it falls, SAT-15.4) are kept and end a run."""
    out = m & fixed
    e = m & ~fixed
    for s in range(4):
        es = e & SUITS[s]
        if es == ZERO:
            continue
        r = rest & SUITS[s]
        prev = False
        while r != ZERO:
            c = lowest(r)  # the highest rank first (index order is A K Q … 2)
            r = r ^ bit(c)
            if has(es, c):
                if not prev:
                    out = out | bit(c)
                prev = True
            else:
                prev = False
    return out


@njit
def _dd(
    h: np.ndarray,
    n0: int,
    lead0: int,
    trick0: np.ndarray,
    lk0: bool,
    kn0: bool,
    cd0: int,
    t00: int,
    t10: int,
    cont0: bool,
    pend0: bool,
    tr: int,
    hidden: bool,
    tc: int,
    tt_hands: np.ndarray,
    tt_tag: np.ndarray,
    tt_bounds: np.ndarray,
    nodes: np.ndarray,
) -> int:
    """Team 0's final trick margin (its tricks less team 1's when play stops) when every
    hand ``h`` is open, team 0 maximises it and team 1 minimises it; ``trick0`` holds the
    ``n0`` cards of the current trick led by ``lead0`` (``lk0``: the trump was known at
    that lead), ``pend0`` says the side that made 7-0 is to choose (SAT-9.2; ``lead0`` is
    then the winner of trick seven).

    Alpha-beta (fail-soft) over the legal cards of SAT-8.3 (:func:`_legal`, as the
    playouts), trick winners by SAT-8.5, the end of play by SAT-9 (:func:`_after`), the
    7-0 choice as a node of two moves (stop first, so that a tie keeps the 7-0), and Trup
    Kasiet's trump becoming known when the trump card ``tc`` falls or the tricks leave one
    candidate (SAT-15.4, :func:`_narrowed`; ``hidden``: the row is Trup Kasiet). A
    transposition table of trick-start positions (hands and :func:`_tag`) holds a lower
    and an upper bound. The search keeps its own stack of frames (one per card or choice)
    rather than recursing, because numba's on-disk cache does not reload recursive
    functions."""
    depth = 64
    bt = BEATS[tr]
    f_st = np.zeros(depth, np.int64)  # PLAY_ON, OVER (a leaf) or CHOICE (SAT-9.2)
    f_n = np.zeros(depth, np.int64)
    f_lead = np.zeros(depth, np.int64)
    f_led = np.zeros(depth, np.int64)
    f_suits = np.zeros(depth, np.int64)  # the suits played to the trick (SAT-15.4 b)
    f_table = np.zeros(depth, np.uint64)  # the cards of the trick
    f_win = np.zeros(depth, np.int64)
    f_ws = np.zeros(depth, np.int64)
    f_lk = np.zeros(depth, np.int64)
    f_kn = np.zeros(depth, np.int64)
    f_cd = np.zeros(depth, np.int64)
    f_t0 = np.zeros(depth, np.int64)
    f_t1 = np.zeros(depth, np.int64)
    f_cont = np.zeros(depth, np.int64)
    f_seat = np.zeros(depth, np.int64)
    f_alpha = np.zeros(depth, np.int64)
    f_beta = np.zeros(depth, np.int64)
    f_a0 = np.zeros(depth, np.int64)
    f_b0 = np.zeros(depth, np.int64)
    f_best = np.zeros(depth, np.int64)
    f_hand = np.zeros(depth, np.uint64)
    f_m = np.zeros(depth, np.uint64)
    f_first = np.zeros(depth, np.uint64)  # the cards of f_m tried first
    f_slot = np.zeros(depth, np.int64)
    f_tag = np.zeros(depth, np.int64)
    win = 0
    wseat = lead0
    suits = 0
    table = ZERO
    fixed = bit(TWO_H)
    if 0 <= tc < 52:
        fixed = fixed | bit(tc)
    for i in range(n0):  # SAT-8.5
        c = trick0[i]
        table = table | bit(c)
        suits = suits | (1 << (c // 13))
        if i == 0 or has(bt[win], c):
            win = c
            wseat = (lead0 + i) & 3
    d = 0
    f_st[0] = CHOICE if pend0 else PLAY_ON
    f_n[0] = n0
    f_lead[0] = lead0
    f_led[0] = trick0[0] if n0 > 0 else 0
    f_suits[0] = suits
    f_table[0] = table
    f_win[0] = win
    f_ws[0] = wseat
    f_lk[0] = 1 if lk0 else 0
    f_kn[0] = 1 if kn0 else 0
    f_cd[0] = cd0
    f_t0[0] = t00
    f_t1[0] = t10
    f_cont[0] = 1 if cont0 else 0
    f_alpha[0] = -100
    f_beta[0] = 100
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
            st = f_st[d]
            if st == OVER or (h[0] | h[1] | h[2] | h[3]) == ZERO:  # SAT-10: the tricks
                rv = f_t0[d] - f_t1[d]
                returning = True
            elif st == PLAY_ON and n == 0:
                tag = _tag(lead, f_t0[d], f_t1[d], f_cont[d], f_kn[d], f_cd[d])
                f_tag[d] = tag
                slot = _tt_slot(h, tag)
                f_slot[d] = slot
                cut, v, al, be = tt_probe(
                    tt_hands, tt_tag, tt_bounds, slot, h, tag, f_alpha[d], f_beta[d]
                )
                f_alpha[d] = al
                f_beta[d] = be
                if cut:
                    rv = v
                    returning = True
            if not returning:
                f_a0[d] = f_alpha[d]
                f_b0[d] = f_beta[d]
                if st == CHOICE:  # SAT-9.2: the winner of trick seven (lead) decides
                    seat = lead
                    f_m[d] = np.uint64(3)  # bit 0 stop, bit 1 continue
                    f_first[d] = ZERO
                else:
                    seat = (lead + n) & 3
                    m = _legal(h[seat], n, f_led[d], f_lk[d] != 0, tr)  # SAT-8.3
                    rest = h[0] | h[1] | h[2] | h[3] | f_table[d]
                    m = _distinct(m, rest, fixed)
                    f_m[d] = m
                    if n == 0:
                        f_first[d] = ZERO
                    else:  # beat the other side's card, leave the partner's alone
                        over = m & bt[f_win[d]]
                        f_first[d] = m & ~over if (f_ws[d] & 1) == (seat & 1) else over
                f_seat[d] = seat
                f_hand[d] = h[seat]
                f_best[d] = -100 if seat & 1 == 0 else 100
        if returning:
            returning = False
            if d == 0:
                return rv
            d -= 1
            v = rv
            if f_seat[d] & 1 == 0:  # team 0 to play: the most
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
                f_first[d] = ZERO
        seat = f_seat[d]
        m = f_m[d]
        if m != ZERO:
            c = lowest(f_first[d] if f_first[d] != ZERO else m)
            f_m[d] = m ^ bit(c)
            f_first[d] = f_first[d] & ~bit(c)
            e = d + 1
            f_alpha[e] = f_alpha[d]
            f_beta[e] = f_beta[d]
            f_t0[e] = f_t0[d]
            f_t1[e] = f_t1[d]
            f_cont[e] = f_cont[d]
            f_kn[e] = f_kn[d]
            f_cd[e] = f_cd[d]
            f_lk[e] = 0
            f_led[e] = 0
            f_suits[e] = 0
            f_table[e] = ZERO
            f_win[e] = 0
            f_n[e] = 0
            f_lead[e] = f_lead[d]
            f_ws[e] = f_lead[d]
            if f_st[d] == CHOICE:
                if c == 0:  # stop: the deal ends 7-0
                    f_st[e] = OVER
                else:  # SAT-9.3: continue, the winner of trick seven leads
                    f_st[e] = PLAY_ON
                    f_cont[e] = 1
                d = e
                entering = True
                continue
            n = f_n[d]
            h[seat] = f_hand[d] ^ bit(c)
            kn = f_kn[d] != 0 or c == tc  # SAT-15.4 (a)
            if n == 0:
                led, nwin, nws, lk = c, c, seat, kn  # SAT-15.5: known at the lead
                nsuits = 1 << (c // 13)
            else:
                led, lk = f_led[d], f_lk[d] != 0
                nsuits = f_suits[d] | (1 << (c // 13))
                if has(bt[f_win[d]], c):  # SAT-8.5
                    nwin, nws = c, seat
                else:
                    nwin, nws = f_win[d], f_ws[d]
            cd = f_cd[d]
            if n == 3:  # the trick is taken
                team = nws & 1
                t0 = f_t0[d] + (1 - team)
                t1 = f_t1[d] + team
                if hidden and not kn and nwin != TWO_H:  # SAT-15.4 (b)
                    cd = _narrowed(cd, led, nwin, nsuits)
                    if cd == 1 or cd == 2 or cd == 4 or cd == 8:
                        kn = True
                f_st[e] = _after(t0, t1, team, f_cont[d] != 0)  # SAT-9.1 – SAT-9.3
                f_t0[e] = t0
                f_t1[e] = t1
                f_lead[e] = nws
                f_ws[e] = nws
            else:
                f_st[e] = PLAY_ON
                f_n[e] = n + 1
                f_led[e] = led
                f_lk[e] = 1 if lk else 0
                f_suits[e] = nsuits
                f_table[e] = f_table[d] | bit(c)
                f_win[e] = nwin
                f_ws[e] = nws
            f_kn[e] = 1 if kn else 0
            f_cd[e] = cd
            d = e
            entering = True
            continue
        h[seat] = f_hand[d]
        best = f_best[d]
        slot = f_slot[d]
        if slot >= 0:
            tag = f_tag[d]
            tt_store(tt_hands, tt_tag, tt_bounds, slot, h, tag, best, f_a0[d], f_b0[d], 100)
        rv = best
        returning = True


@njit
def _final(margin: int, t0: int, t1: int, cont: bool) -> tuple[int, int]:
    """The tricks when play stops on a line of team 0's final ``margin`` from tricks
    ``t0``–``t1``, the deal going on (``cont``: in a continuation). A winner with seven
    has the other side's ``7 - margin`` (SAT-9.1), or none after a 7-0 stop (SAT-9.2:
    margin 7; of the equal lines 7-0 stopped and 8-1 continued the solver keeps the
    stop); more than seven come from a continuation, ended by the other side's one trick
    or at 13-0 (SAT-9.3)."""
    w = margin if margin > 0 else -margin
    if w == 13:
        mine, theirs = 13, 0
    elif cont or w > 7:
        mine, theirs = w + 1, 1
    else:
        mine, theirs = 7, 7 - w
    if margin > 0:
        return mine, theirs
    return theirs, mine


@njit
def _solve(
    hands: np.ndarray,
    trick: np.ndarray,
    ntrick: np.ndarray,
    leader: np.ndarray,
    tricks: np.ndarray,
    trump: np.ndarray,
    continuing: np.ndarray,
    pending: np.ndarray,
    to_act: np.ndarray,
    tk: np.ndarray,
    known: np.ndarray,
    lead_known: np.ndarray,
    cands: np.ndarray,
    tcard: np.ndarray,
    over: np.ndarray,
    score: np.ndarray,
    shaping: np.ndarray,
    nodes: np.ndarray,
) -> None:
    """Finish every row that has not reached the end (``over`` 0) by its double-dummy
    value (:func:`_dd`): the tricks of that line when play stops (:func:`_final`) in
    ``tricks`` and ``shaping``, its winner in ``score`` (SAT-10), ``continuing`` where the
    line continued after a 7-0 (SAT-9.3), as :func:`_run` leaves a row it played to the
    end; the hands and the trick stay as they were."""
    size = 1 << TT_BITS
    tt_hands = np.empty((size, 4), np.uint64)  # read only where tt_tag says it is set
    tt_tag = np.full(size, -1, np.int64)
    tt_bounds = np.empty((size, 2), np.int64)
    last = (-1, -1, -1)
    h = np.zeros(4, np.uint64)
    for b in range(hands.shape[0]):
        if over[b] != 0:
            continue
        tr = trump[b]
        rules = (tr, tk[b], tcard[b])
        if rules != last:  # the table holds one trump's (and trump card's) values
            tt_tag[:] = -1
            last = rules
        for k in range(4):
            h[k] = hands[b, k]
        n = ntrick[b]
        t0 = tricks[b, 0]
        t1 = tricks[b, 1]
        cont = continuing[b] != 0
        v = _dd(h, n, leader[b] if n > 0 else to_act[b], trick[b], lead_known[b] != 0,
                known[b] != 0, cands[b], t0, t1, cont, pending[b] != 0, tr, tk[b] != 0,
                tcard[b], tt_hands, tt_tag, tt_bounds, nodes)  # fmt: skip
        f0, f1 = _final(v, t0, t1, cont)
        tricks[b, 0] = f0
        tricks[b, 1] = f1
        shaping[b, 0] = f0
        shaping[b, 1] = f1
        score[b, 0] = 1 if f0 > f1 else 0
        score[b, 1] = 1 if f1 > f0 else 0
        if f0 > 7 or f1 > 7:
            continuing[b] = 1
        pending[b] = 0
        over[b] = 1


class SatatKernel(GameKernel):
    """Satat's card play in a batch (every variant; signals left out), with the endgame
    solver of every variant: the main game and Trup Kasiet (SAT-15), signals or not, any
    match target (:meth:`solvable` is always True)."""

    game = "satat"
    solver = True
    draws_hands = True
    max_steps = 60
    state_keys = (
        "hands",
        "trick",
        "ntrick",
        "leader",
        "tricks",
        "trump",
        "continuing",
        "pending",
        "to_act",
        "tk",
        "known",
        "lead_known",
        "cands",
        "tcard",
        "over",
        "tm",
    )
    policies = frozenset({"random", "fast", "simple", "heuristic"})
    result_keys = (("score", "score"), ("tricks", "tricks"))

    def accepts(self, state: DealState) -> bool:
        return not state.is_over and state.phase in ("play", "lese", "continue")

    def encode_one(self, state: DealState) -> dict[str, Any]:
        st: Any = state
        if not self.accepts(st):
            raise ValueError(f"a Satat deal in phase {st.phase!r} is not in card play")
        trick = list(st.trick)
        return {
            "hands": list(st.hands),
            "trick": trick + [0] * (4 - len(trick)),
            "ntrick": len(trick),
            "leader": st.leader if trick else st.to_act,
            "tricks": list(st.tricks),
            "trump": st.trump,
            "continuing": int(bool(st.continuing)),
            "pending": int(st.ph == T.PH_CONTINUE),
            "to_act": st.to_act,
            "tk": int(bool(st.tk)),
            "known": int(bool(st.known)),
            "lead_known": int(bool(st.lead_known)),
            "cands": st.cands,
            "tcard": st.tcard,
            "over": 0,
            "tm": st.tm,
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
        fn(*(a[k] for k in self.state_keys if k != "tm"), a["score"], a["shaping"], nodes)
        return int(nodes[0])

    def tricks_left(self, state: DealState) -> int:
        st: Any = state
        return 13 - int(sum(st.tricks))

    def action_code(self, state: DealState, action: Any) -> int:
        kind = T._KIND[action]
        if kind == T.K_PLAY:
            return int(T._ARG[action])
        if kind == T.K_CONTINUE:
            return CONTINUE
        if kind == T.K_STOP:
            return STOP
        return -1

    def skipped(self, state: DealState) -> bool:
        return getattr(state, "ph", None) == T.PH_LESE

    def hands_of(self, state: DealState) -> list[int]:
        """The hands now, then the trump maker's first five (SAT-4.2), which the reading of
        his trump choice takes (:meth:`likelihoods`): the row of
        ``SatatGame.determinize_hands``, which draws hands alone only where every other key
        of a row is known to the seat (the trick, the tricks, the trump and, in Trup Kasiet,
        the trump card, SAT-19)."""
        st: Any = state
        return [*st.hands, st.first_five(st.tm)]

    def likelihoods(
        self, states: Sequence[DealState], seat: int, miss: float, bids: bool = True
    ) -> np.ndarray:
        """How well the heuristic explains the card play of the seats other than ``seat``
        in each of ``states`` (sampled deals of one observation, each with its own hands
        and, where ``seat`` does not know it, its own hidden trump): ``miss`` per play it
        would not have made (:func:`_weights`).

        The play phase's actions are counted, signals (SAT-16.6) included, and, with
        ``bids``, the trump maker's trump (SAT-5.2) or blind choice (SAT-5.3), read from
        his first five in each deal (:func:`folkcards.bots.heuristic.satat.trump_scores`)
        where ``seat`` is not the trump maker (Trup Kasiet's hidden card is not read). The
        lese signal (SAT-16.5) and the 7-0 choice (SAT-9.2) are not: the heuristic stays
        silent and continues whatever it holds, so such a step would weigh every sampled
        deal alike."""
        worlds: Any = states
        return _likelihoods(
            states[0],
            np.array([self.hands_of(x) for x in worlds], np.uint64),
            np.array([x.trump for x in worlds], np.int64),
            np.array([x.tcard for x in worlds], np.int64),
            seat,
            miss,
            bids,
        )

    def likelihoods_hands(
        self, template: DealState, hands: np.ndarray, seat: int, miss: float, bids: bool = True
    ) -> np.ndarray:
        """:meth:`likelihoods` of deals that are ``template`` but for their hands now and
        the trump maker's first five (``hands``: a row of :meth:`hands_of` per deal), as
        :meth:`encode_hands` encodes them."""
        st: Any = template
        d = len(hands)
        return _likelihoods(
            template,
            np.asarray(hands, np.uint64),
            np.full(d, st.trump, np.int64),
            np.full(d, st.tcard, np.int64),
            seat,
            miss,
            bids,
        )


def _likelihoods(
    template: DealState,
    rows: np.ndarray,
    trumps: np.ndarray,
    tcards: np.ndarray,
    seat: int,
    miss: float,
    bids: bool,
) -> np.ndarray:
    """The weights of :meth:`SatatKernel.likelihoods` for deals of one observation
    (``template`` one of them) given by their rows of :meth:`SatatKernel.hands_of`, their
    trumps and their trump cards."""
    st: Any = template
    out = np.ones(len(rows))
    made = next((a for a in st.history if T._KIND[a] in (K_TRUMP, K_BLIND)), None)
    if bids and made is not None and seat != st.tm and not st.tk:
        missed: dict[int, bool] = {}  # by first five
        for i, first in enumerate(rows[:, 4].tolist()):
            if first not in missed:  # the choices that five offered (a redeal or not)
                scores = HEUR.trump_scores(first, trump_choices(first, st.redeals, False))
                missed[first] = scores.get(made, -1.0) < max(scores.values()) - 1e-9
            if missed[first]:
                out[i] = miss  # the heuristic would have made another choice
    plays = [
        (int(T._ARG[a]), s, int(SUF[a] != 0))
        for a, s in zip(st.history, st.actors, strict=True)
        if T._KIND[a] == T.K_PLAY
    ]
    if not plays:
        return out
    cards, seats, signals = (np.array(x, np.int64) for x in zip(*plays, strict=True))
    fn: Any = _weights
    fn(np.ascontiguousarray(rows[:, :4]), trumps, tcards, cards, seats, signals,
       bool(st.tk), int(st.tm), seat, float(miss), out)  # fmt: skip
    return out


KERNEL = SatatKernel()
