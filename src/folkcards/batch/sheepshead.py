"""Batched Sheepshead card play (SHP-7 – SHP-9): the fourteen permanent trumps (queens,
jacks, diamonds), following the effective suit, the called-ace duties (SHP-7.5, SHP-7.6),
the picker's score table with schneider and schwarz (SHP-8), and the leaster (SHP-9)."""

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
    max_card,
    min_card,
    njit,
    popcount,
    swing_choice,
    trick_choice,
    tt_probe,
    tt_store,
    xorshift,
)
from folkcards.batch.core import Arrays, GameKernel, power_table
from folkcards.bots.heuristic import sheepshead as HEUR
from folkcards.cards import SUIT_MASK
from folkcards.engine.api import DealState
from folkcards.games import sheepshead as H

BEATS = np.array(list(H.BEATS) + [0] * 12, np.uint64)
CLASS = np.array(list(H.CLASS) + [0] * 12, np.uint64)
TRUMPS = np.uint64(H.TRUMPS)
POINTS = np.array(list(H.POINTS) + [0] * 12, np.int64)
POWER = np.array(power_table(H.TRUMP), np.int64)
THROW = np.array([p * 4 + q for p, q in zip(POINTS, POWER, strict=True)], np.int64)
CALLED, ALONE, LEASTER = 1, 2, 3
H_POWER = np.array(
    [float(HEUR.power(c)) if HEUR.DECK >> c & 1 else 0.0 for c in range(64)], np.float64
)
"""The heuristic's own ordinal of each card (``folkcards.bots.heuristic.sheepshead.power``)."""
SUIT = np.array([SUIT_MASK[c // 13] if c < 52 else 0 for c in range(64)], np.uint64)
NOT_HIDDEN = np.zeros(0, np.int64)
"""``hidden`` for a batch without that array: every row's partner known to all."""


@njit
def _legal(
    hand: np.uint64,
    n: int,
    led: int,
    mode: int,
    called: int,
    x_mask: np.uint64,
    x_led: bool,
    trick_no: int,
    is_picker: bool,
) -> np.uint64:
    """SHP-7.8's legal cards (``_legal_cards`` of the scalar engine)."""
    if mode != CALLED:
        if n == 0:
            return hand  # SHP-7.2
        f = hand & CLASS[led]  # SHP-7.3, SHP-7.4
        return np.uint64(f if f != ZERO else hand)
    restrict = not x_led and trick_no < 5
    partner = has(hand, called)
    if n == 0:
        if restrict and partner:
            return hand & ~(x_mask & ~bit(called))  # SHP-7.6.3
        return hand
    cls = CLASS[led]
    legal = hand & cls
    if legal == ZERO:
        legal = hand
    if partner and cls == x_mask:
        return bit(called)  # SHP-7.6.1
    if restrict:
        if partner:
            legal = legal & ~bit(called)  # SHP-7.6.2
        elif is_picker and hand & cls == ZERO:
            xs = hand & x_mask
            if xs != ZERO and xs & (xs - ONE) == ZERO:
                legal = legal & ~xs  # SHP-7.5
    return np.uint64(legal)


@njit
def _mimic(
    m: np.uint64,
    n: int,
    win: int,
    wseat: int,
    seat: int,
    tp: int,
    h: np.ndarray,
    aside: np.uint64,
    md: int,
    pk: int,
    pt: int,
    cc: int,
    probe: int,
    vals: np.ndarray,
) -> int:
    """The heuristic's card (:func:`folkcards.bots.heuristic.sheepshead.evaluate`, the
    shared tactics of ``common.score_plays`` with Sheepshead's sides) among the legal
    cards ``m``, from what the seat knows (SHP-13.1): its hand, the cards played, the
    picker the blind and its bury (``aside``), and the partner only once the called card
    has fallen or when it is the partner. A leaster (SHP-9) ducks and dumps points. The
    first best card is played; ``vals`` receives the best value and card ``probe``'s."""
    me = seat
    hand = h[me]
    unseen = ZERO
    every = ZERO
    for k in range(5):
        every = every | h[k]
        if k != me:
            unseen = unseen | h[k]
    if md == LEASTER or me != pk:
        unseen = unseen | aside
    best = -1
    bv = -1e300
    if md == LEASTER:
        mm = m
        while mm != ZERO:
            c = lowest(mm)
            mm = mm & (mm - ONE)
            if n == 0:
                v = -H_POWER[c] - POINTS[c] * 0.2  # lead low
            elif has(BEATS[win], c):
                v = -10.0 - POINTS[c] - tp
            else:
                v = POINTS[c] + 0.1 * H_POWER[c]  # duck, dumping points on the winner
            if c == probe:
                vals[1] = v
            if v > bv:
                bv = v
                best = c
        vals[0] = bv
        return best
    pv = -1  # the partner as this seat may know it (SHP-13.1)
    if md == CALLED and (me == pt or not has(every, cc)):
        pv = pt
    side = me == pk or (pv >= 0 and me == pv) or (cc >= 0 and has(hand, cc))
    to_come = 4 - n
    if n == 0:
        opp_trumps = unseen & TRUMPS != ZERO
        mm = m
        while mm != ZERO:
            c = lowest(mm)
            mm = mm & (mm - ONE)
            pts = POINTS[c]
            pw = H_POWER[c]
            boss = unseen & BEATS[c] == ZERO
            if has(TRUMPS, c):
                if boss and side and opp_trumps:
                    v = 30 + 0.1 * pw
                elif boss:
                    v = 8 + 0.01 * pw
                else:
                    v = -5 - pts - 0.05 * pw
            elif boss:
                v = 15 + pts * 0.2
            elif unseen & BEATS[c] & ~TRUMPS == ZERO:  # the top of its fail suit
                out_there = popcount(unseen & ~BEATS[c] & SUIT[c] & ~TRUMPS)
                v = 6 + 0.5 * pts + out_there
            else:
                v = -pts - 0.02 * pw - 0.5 * popcount(hand & SUIT[c])
            if not side and cc >= 0 and not has(TRUMPS, c) and c // 13 == cc // 13:
                v += 12.0  # defenders lead the called suit
            if c == probe:
                vals[1] = v
            if v > bv:
                bv = v
                best = c
        vals[0] = bv
        return best
    if wseat == me:
        friend_winning = True
    elif side:
        friend_winning = wseat == pk or (pv >= 0 and wseat == pv)
    else:
        friend_winning = wseat != pk and (pv < 0 or wseat != pv)
    if side:
        partner_to_come = False
        if pv >= 0:
            for k in range(1, to_come + 1):
                o = (me + k) % 5
                if o in (pk, pv):
                    partner_to_come = True
    else:
        partner_to_come = n < 3
    friend_safe = friend_winning and (to_come == 0 or unseen & BEATS[win] == ZERO)
    mm = m
    while mm != ZERO:
        c = lowest(mm)
        mm = mm & (mm - ONE)
        pts = POINTS[c]
        pw = H_POWER[c]
        sure = to_come == 0 or unseen & BEATS[c] == ZERO
        v = follow_score(pts, pw, has(TRUMPS, c), friend_safe, has(BEATS[win], c), sure,
                         partner_to_come, tp)  # fmt: skip
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
    aside: np.ndarray,
    plays: np.ndarray,
    seats: np.ndarray,
    md: int,
    pk: int,
    cc: int,
    xm: np.uint64,
    me: int,
    miss: float,
    out: np.ndarray,
) -> None:
    """Inference from play: each row's weight is ``miss`` to the power of the cards played
    so far (``plays`` by ``seats``, in order from the first trick) by seats other than
    ``me`` that the heuristic (:func:`_mimic`) would not have played with the row's hands,
    bury and partner (the holder of the called card; SHP-7.8 legal cards; a single legal
    card tells nothing)."""
    vals = np.zeros(2, np.float64)
    gone = np.zeros(5, np.uint64)
    for i in range(plays.shape[0]):
        gone[seats[i]] = gone[seats[i]] | bit(plays[i])
    h = np.zeros(5, np.uint64)
    for b in range(hands.shape[0]):
        pt = -1
        for k in range(5):
            h[k] = hands[b, k] | gone[k]
            if md == CALLED and has(h[k], cc):
                pt = k
        w = 1.0
        n = 0
        led = 0
        win = 0
        wseat = 0
        tp = 0
        done = 0
        xl = False
        for i in range(plays.shape[0]):
            seat = seats[i]
            c = plays[i]
            m = _legal(h[seat], n, led, md, cc, xm, xl, done, seat == pk)
            if seat != me and popcount(m) > 1:
                _mimic(m, n, win, wseat, seat, tp, h, aside[b], md, pk, pt, cc, c, vals)
                if vals[1] < vals[0] - 1e-9:
                    w *= miss
            h[seat] = h[seat] ^ bit(c)
            tp += POINTS[c]
            if n == 0:
                if has(xm, c):
                    xl = True  # SHP-7.8
                led = c
                win = c
                wseat = seat
            elif has(BEATS[win], c):  # SHP-7.7
                win = c
                wseat = seat
            n += 1
            if n == 5:  # SHP-7.9
                n = 0
                tp = 0
                done += 1
        out[b] *= w  # after the picks read (:func:`_read_picks`)


STRENGTH_W = np.array(
    [HEUR.PICK_WEIGHT.get(c, 0.0) if HEUR.is_trump(c) else float(c % 13 == 0)
     for c in range(52)], np.float64)  # fmt: skip
"""Each card's share of :func:`folkcards.bots.heuristic.sheepshead.strength`: a trump's
pick weight, 1 for a fail ace (card 13·s is the ace of suit s)."""


@njit
def _strength(hand: np.uint64) -> float:
    """:func:`folkcards.bots.heuristic.sheepshead.strength`, card by card in its order."""
    x = 0.0
    m = hand
    while m != ZERO:
        x += STRENGTH_W[lowest(m)]
        m = m & (m - ONE)
    return x


@njit
def _read_picks(
    hands: np.ndarray,
    gone: np.ndarray,
    blind: np.ndarray,
    bury: np.ndarray,
    reads: np.ndarray,
    pk: int,
    me: int,
    miss: float,
    out: np.ndarray,
) -> None:
    """Multiply each row's weight by ``miss`` per pick or pass of ``reads`` (rows: seat,
    passes before it, 1 for a pick) by a seat other than ``me`` that the heuristic would
    not have made (SHP-4: it picks when the six cards dealt reach its strength threshold,
    lower by 0.4 a pass before). A seat's six are its hand now and the cards it played;
    the picker's also the row's bury, less the row's blind (SHP-5)."""
    for b in range(hands.shape[0]):
        w = out[b]
        for i in range(reads.shape[0]):
            seat = reads[i, 0]
            if seat == me:
                continue
            dealt = hands[b, seat] | gone[seat]
            if seat == pk:
                dealt = (dealt | bury[b]) & ~blind[b]
            want = _strength(dealt) >= 9.5 - 0.4 * reads[i, 1]
            if want != (reads[i, 2] == 1):
                w *= miss
        out[b] = w


def pick_reads(history: Sequence[Any], actors: Sequence[int]) -> np.ndarray:
    """The public picks and passes (SHP-4) that the kernel reads (:func:`_read_picks`):
    seat, the passes before it, 1 for a pick."""
    rows: list[tuple[int, int, int]] = []
    passes = 0
    for action, seat in zip(history, actors, strict=True):
        kind = H.KIND[action]
        if kind == H.K_PASS:
            rows.append((seat, passes, 0))
            passes += 1
        elif kind == H.K_PICK:
            rows.append((seat, passes, 1))
            break
        elif kind == H.K_PLAY:
            break
    return np.array(rows, np.int64).reshape(-1, 3)


@njit
def _run(
    hands: np.ndarray,
    trick: np.ndarray,
    ntrick: np.ndarray,
    leader: np.ndarray,
    trick_no: np.ndarray,
    tricks: np.ndarray,
    taken: np.ndarray,
    mode: np.ndarray,
    called: np.ndarray,
    x_mask: np.ndarray,
    x_led: np.ndarray,
    picker: np.ndarray,
    partner: np.ndarray,
    bury_points: np.ndarray,
    blind_points: np.ndarray,
    stake: np.ndarray,
    bump: np.ndarray,
    aside: np.ndarray,
    forced: np.ndarray,
    nforced: np.ndarray,
    seeds: np.ndarray,
    policy: int,
    record: np.ndarray,
    nrec: np.ndarray,
    score: np.ndarray,
    shaping: np.ndarray,
    res_points: np.ndarray,
    bad: np.ndarray,
    stop: int,
    hidden: np.ndarray,
) -> int:
    total = 0
    rec_cap = record.shape[1]
    vals = np.zeros(2, np.float64)
    h = np.zeros(5, np.uint64)
    side = np.zeros(5, np.int64)
    lone = np.zeros(5, np.int64)  # the sides as seen while the partner is hidden
    for b in range(hands.shape[0]):
        for k in range(5):
            h[k] = hands[b, k]
        md = mode[b]
        cc = called[b]
        xm = x_mask[b]
        xl = x_led[b] != 0
        pk = picker[b]
        pt = partner[b]
        for k in range(5):  # who plays with whom (the fast policy's view of the world)
            if md == LEASTER:
                side[k] = k
            else:
                side[k] = 1 if k in (pk, pt) else 0
            lone[k] = 1 if k == pk else 0
        # with ``hidden``, until the called card falls (SHP-7.5) only the partner knows
        # the sides: the others play as if the picker were alone against four
        secret = hidden.shape[0] > b and hidden[b] != 0 and md == CALLED and cc >= 0
        if secret:
            held = ZERO
            for k in range(5):
                held = held | h[k]
            secret = has(held, cc)
        s = seeds[b]
        n = ntrick[b]
        lead = leader[b]
        done = trick_no[b]
        win = 0
        wseat = lead
        tp = 0
        for i in range(n):
            c = trick[b, i]
            tp += POINTS[c]
            if i == 0 or has(BEATS[win], c):
                win = c
                wseat = (lead + i) % 5
        step = 0
        last = -1
        while done < 6:
            if stop > 0 and step >= nforced[b] and 6 - done <= stop:
                break  # the last ``stop`` tricks are left to the solver (:func:`_dd`)
            seat = (lead + n) % 5
            hand = h[seat]
            led = trick[b, 0] if n > 0 else 0
            m = _legal(hand, n, led, md, cc, xm, xl, done, seat == pk)
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
                c = _mimic(m, n, win, wseat, seat, tp, h, aside[b], md, pk, pt, cc, -1, vals)
            elif md == LEASTER:  # take as few points as possible: duck, dump on others
                if n == 0:
                    c = min_card(m, THROW)
                else:
                    duck = m & ~BEATS[win]
                    c = max_card(duck, THROW) if duck != ZERO else min_card(m, THROW)
            else:
                after = ZERO
                for k in range(n + 1, 5):
                    after = after | h[(lead + k) % 5]
                others = ZERO
                for k in range(5):
                    if k != seat:
                        others = others | h[k]
                view = lone if secret and seat != pt else side
                friend = n > 0 and view[wseat] == view[seat]
                if p == 1:
                    lc = CLASS[trick[b, 0]] if n > 0 else ZERO
                    c = swing_choice(m, n, win, friend, seat, lead, 5, h, view, lc, CLASS, BEATS,
                                     POWER, POINTS, TRUMPS, False, view[seat] == 1, tp, 0.0)  # fmt: skip
                else:
                    c = trick_choice(m, n, win, friend, after, others, BEATS, POWER, POINTS,
                                     TRUMPS, tp)  # fmt: skip
            if step < rec_cap:
                record[b, step] = c
            step += 1
            total += 1
            h[seat] = hand ^ bit(c)
            trick[b, n] = c
            if c == cc:
                secret = False  # the partner is known (SHP-7.5)
            tp += POINTS[c]
            if n == 0:
                if has(xm, c):
                    xl = True  # SHP-7.8
                win = c
                wseat = seat
            elif has(BEATS[win], c):  # SHP-7.7
                win = c
                wseat = seat
            n += 1
            if n == 5:  # SHP-7.9
                tricks[b, wseat] += 1
                taken[b, wseat] += tp
                tp = 0
                n = 0
                done += 1
                lead = wseat
                last = wseat
        nrec[b] = step
        for k in range(5):
            hands[b, k] = h[k]
        ntrick[b] = n
        leader[b] = lead
        trick_no[b] = done
        x_led[b] = 1 if xl else 0
        seeds[b] = s
        for k in range(5):
            res_points[b, k] = taken[b, k]
            score[b, k] = 0
        if done < 6:
            continue
        st = stake[b]
        if md == LEASTER:  # SHP-9.2, SHP-9.3
            res_points[b, last] += blind_points[b]
            low = 1 << 30
            for k in range(5):
                if tricks[b, k] > 0 and res_points[b, k] < low:
                    low = res_points[b, k]
            nwin = 0
            for k in range(5):
                if tricks[b, k] > 0 and res_points[b, k] == low:
                    nwin += 1
            for k in range(5):
                if tricks[b, k] > 0 and res_points[b, k] == low:
                    score[b, k] = (5 - nwin) * st
                else:
                    score[b, k] = -nwin * st
        else:  # SHP-8
            res_points[b, pk] += bury_points[b]
            alone = md == ALONE
            if alone:
                ppts = res_points[b, pk]
                ptr = tricks[b, pk]
            else:
                ppts = res_points[b, pk] + res_points[b, pt]
                ptr = tricks[b, pk] + tricks[b, pt]
            if ptr == 6:
                picker_won, level = True, 3
            elif ptr == 0:
                picker_won, level = False, 3
            elif ppts >= 91:
                picker_won, level = True, 2
            elif ppts >= 61:
                picker_won, level = True, 1
            elif ppts >= 31:
                picker_won, level = False, 1
            else:
                picker_won, level = False, 2
            u = st * (2 if not picker_won and bump[b] != 0 else 1)  # SHP-8.6
            d = level * u if picker_won else -level * u
            if alone:  # SHP-8.5
                for k in range(5):
                    score[b, k] = -d
                score[b, pk] = 4 * d
            elif not picker_won and level == 3:  # SHP-8.3, SHP-8.4
                for k in range(5):
                    score[b, k] = 3 * u
                score[b, pk] = -9 * u
                score[b, pt] = 0
            else:
                for k in range(5):
                    score[b, k] = -d
                score[b, pk] = 2 * d
                score[b, pt] = d
        for k in range(5):
            shaping[b, k] = score[b, k]
    return total


TT_BITS = 16
"""The solver's transposition table holds ``2 ** TT_BITS`` trick-start positions."""
TT_MASK = np.uint64((1 << TT_BITS) - 1)
S13, S16, S26, S32, S39, S52 = (np.uint64(k) for k in (13, 16, 26, 32, 39, 52))


@njit
def _tt_slot(h: np.ndarray, tag: int) -> np.int64:
    """The table slot of a trick-start position: its hands and ``tag`` (leader, the
    picker side's points and who has taken a trick) folded by shifts and xors."""
    x = h[0] ^ (h[1] << S13) ^ (h[2] << S26) ^ (h[3] << S39) ^ (h[4] << S52)
    x = x ^ (h[1] >> S52) ^ (h[2] >> S39) ^ (h[3] >> S26) ^ (h[4] >> S13)
    x = x ^ np.uint64(tag) * np.uint64(0x9E37)
    x = x ^ (x >> S32)
    x = x ^ (x >> S16)
    return np.int64(x & TT_MASK)


@njit
def _outcome(ppts: int, ours: bool, theirs: bool) -> int:
    """The picker side's result as a rank from -3 to 3 (SHP-8.2): 3 schwarz won (every
    trick), 2 schneider won (91+), 1 won (61+), -1 lost (31–60), -2 schneidered (≤ 30),
    -3 schwarzed (no trick); ``ppts`` its card points with the buried cards, ``ours`` /
    ``theirs`` whether it / the defenders took a trick. Every seat's score is monotone in
    this rank (the partner's too, as a member of the picker's side)."""
    if not theirs:
        return 3
    if not ours:
        return -3
    if ppts >= 91:
        return 2
    if ppts >= 61:
        return 1
    if ppts >= 31:
        return -1
    return -2


@njit
def _dd(
    h: np.ndarray,
    n0: int,
    lead0: int,
    trick0: np.ndarray,
    done0: int,
    xl0: bool,
    ppts0: int,
    ours0: bool,
    theirs0: bool,
    md: int,
    cc: int,
    xm: np.uint64,
    pk: int,
    side: np.ndarray,
    tt_hands: np.ndarray,
    tt_tag: np.ndarray,
    tt_bounds: np.ndarray,
    nodes: np.ndarray,
) -> int:
    """The picker side's :func:`_outcome` when every hand ``h`` is open, the picker's side
    (``side`` 1: the picker and its partner, or the picker alone) maximises it and the
    defenders minimise it: alpha-beta (fail-soft) over the legal cards of SHP-7.8, trick
    winners by SHP-7.7, with a transposition table of trick-start positions (hands,
    leader, the called suit's state and what the picker side has taken) holding a lower and
    an upper bound. ``trick0`` holds the ``n0`` cards of the current trick. The search
    keeps its own stack of frames rather than recursing (numba's on-disk cache does not
    reload recursive functions)."""
    depth = 32
    f_n = np.zeros(depth, np.int64)
    f_lead = np.zeros(depth, np.int64)
    f_win = np.zeros(depth, np.int64)
    f_ws = np.zeros(depth, np.int64)
    f_tp = np.zeros(depth, np.int64)
    f_done = np.zeros(depth, np.int64)
    f_xl = np.zeros(depth, np.int64)
    f_pp = np.zeros(depth, np.int64)
    f_ours = np.zeros(depth, np.int64)
    f_theirs = np.zeros(depth, np.int64)
    f_alpha = np.zeros(depth, np.int64)
    f_beta = np.zeros(depth, np.int64)
    f_a0 = np.zeros(depth, np.int64)
    f_b0 = np.zeros(depth, np.int64)
    f_best = np.zeros(depth, np.int64)
    f_hand = np.zeros(depth, np.uint64)
    f_m = np.zeros(depth, np.uint64)
    f_slot = np.zeros(depth, np.int64)
    f_tag = np.zeros(depth, np.int64)
    f_led = np.zeros(depth, np.int64)  # the card led to the frame's trick
    win = 0
    wseat = lead0
    tp = 0
    for i in range(n0):
        c = trick0[i]
        tp += POINTS[c]
        if i == 0 or has(BEATS[win], c):
            win = c
            wseat = (lead0 + i) % 5
    d = 0
    f_n[0] = n0
    f_lead[0] = lead0
    f_led[0] = trick0[0] if n0 > 0 else 0
    f_win[0] = win
    f_ws[0] = wseat
    f_tp[0] = tp
    f_done[0] = done0
    f_xl[0] = 1 if xl0 else 0
    f_pp[0] = ppts0
    f_ours[0] = 1 if ours0 else 0
    f_theirs[0] = 1 if theirs0 else 0
    f_alpha[0] = -10
    f_beta[0] = 10
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
                if f_done[d] >= 6:  # SHP-8.2
                    rv = _outcome(f_pp[d], f_ours[d] != 0, f_theirs[d] != 0)
                    returning = True
                else:
                    tag = lead + 8 * (f_xl[d] + 2 * f_ours[d] + 4 * f_theirs[d] + 8 * f_pp[d])
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
                seat = (lead + n) % 5
                hand = h[seat]
                m = _legal(hand, n, f_led[d], md, cc, xm, f_xl[d] != 0, f_done[d], seat == pk)
                f_hand[d] = hand
                f_m[d] = m
                f_best[d] = -10 if side[seat] == 1 else 10
        if returning:
            returning = False
            if d == 0:
                return rv
            d -= 1
            v = rv
            if side[(f_lead[d] + f_n[d]) % 5] == 1:  # the picker's side: the most
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
        seat = (lead + n) % 5
        m = f_m[d]
        if m != ZERO:
            c = lowest(m)
            cb = bit(c)
            f_m[d] = m ^ cb
            h[seat] = f_hand[d] ^ cb
            e = d + 1
            f_led[e] = c if n == 0 else f_led[d]
            xl = f_xl[d]
            if n == 0:
                if has(xm, c):
                    xl = 1  # SHP-7.8
                nwin, nws = c, seat
            elif has(BEATS[f_win[d]], c):  # SHP-7.7
                nwin, nws = c, seat
            else:
                nwin, nws = f_win[d], f_ws[d]
            ntp = f_tp[d] + POINTS[c]
            f_xl[e] = xl
            f_pp[e] = f_pp[d]
            f_ours[e] = f_ours[d]
            f_theirs[e] = f_theirs[d]
            f_alpha[e] = f_alpha[d]
            f_beta[e] = f_beta[d]
            if n == 4:  # SHP-7.9: the trick is taken
                f_n[e] = 0
                f_lead[e] = nws
                f_win[e] = 0
                f_ws[e] = nws
                f_tp[e] = 0
                f_done[e] = f_done[d] + 1
                if side[nws] == 1:
                    f_pp[e] = f_pp[d] + ntp
                    f_ours[e] = 1
                else:
                    f_theirs[e] = 1
            else:
                f_n[e] = n + 1
                f_lead[e] = lead
                f_win[e] = nwin
                f_ws[e] = nws
                f_tp[e] = ntp
                f_done[e] = f_done[d]
            d = e
            entering = True
            continue
        h[seat] = f_hand[d]
        best = f_best[d]
        slot = f_slot[d]
        if slot >= 0:
            tag = f_tag[d]
            tt_store(tt_hands, tt_tag, tt_bounds, slot, h, tag, best, f_a0[d], f_b0[d], 10)
        rv = best
        returning = True


@njit
def _score(score: np.ndarray, b: int, rank: int, md: int, pk: int, pt: int, st: int,
           bump: bool) -> None:  # fmt: skip
    """Row ``b``'s scores for the picker side's result ``rank`` (:func:`_outcome`):
    SHP-8.3 – SHP-8.6, as at the end of :func:`_run`."""
    picker_won = rank > 0
    level = rank if rank > 0 else -rank
    u = st * (2 if not picker_won and bump else 1)  # SHP-8.6
    d = level * u if picker_won else -level * u
    if md == ALONE:  # SHP-8.5
        for k in range(5):
            score[b, k] = -d
        score[b, pk] = 4 * d
    elif not picker_won and level == 3:  # SHP-8.3, SHP-8.4
        for k in range(5):
            score[b, k] = 3 * u
        score[b, pk] = -9 * u
        score[b, pt] = 0
    else:
        for k in range(5):
            score[b, k] = -d
        score[b, pk] = 2 * d
        score[b, pt] = d


@njit
def _solve(
    hands: np.ndarray,
    trick: np.ndarray,
    ntrick: np.ndarray,
    leader: np.ndarray,
    trick_no: np.ndarray,
    tricks: np.ndarray,
    taken: np.ndarray,
    mode: np.ndarray,
    called: np.ndarray,
    x_mask: np.ndarray,
    x_led: np.ndarray,
    picker: np.ndarray,
    partner: np.ndarray,
    bury_points: np.ndarray,
    stake: np.ndarray,
    bump: np.ndarray,
    score: np.ndarray,
    shaping: np.ndarray,
    bad: np.ndarray,
    nodes: np.ndarray,
) -> None:
    """Finish every row short of the end (``trick_no`` < 6) by its double-dummy result
    (:func:`_dd`) and the scores it gives (SHP-8); a leaster row (SHP-9, every seat for
    itself: no two sides to solve for) is marked ``bad``. The card points and tricks of
    the line are not written: the scores are what the utilities read."""
    size = 1 << TT_BITS
    tt_hands = np.empty((size, 5), np.uint64)  # read only where tt_tag says it is set
    tt_tag = np.full(size, -1, np.int64)
    tt_bounds = np.empty((size, 2), np.int64)
    h = np.zeros(5, np.uint64)
    side = np.zeros(5, np.int64)
    last = (-1, -1, -1, -1)
    for b in range(hands.shape[0]):
        if trick_no[b] >= 6:
            continue
        md = mode[b]
        if md == LEASTER:
            bad[b] = 1
            continue
        pk = picker[b]
        pt = partner[b] if md == CALLED else pk
        rules = (md, called[b], pk, pt)
        if rules != last:  # the table holds one rule set's and one side's values
            tt_tag[:] = -1
            last = rules
        ppts = bury_points[b]
        ours = False
        theirs = False
        for k in range(5):
            side[k] = 1 if k in (pk, pt) else 0
            h[k] = hands[b, k]
            if side[k] == 1:
                ppts += taken[b, k]
                ours = ours or tricks[b, k] > 0
            else:
                theirs = theirs or tricks[b, k] > 0
        rank = _dd(h, ntrick[b], leader[b], trick[b], trick_no[b], x_led[b] != 0, ppts, ours,
                   theirs, md, called[b], x_mask[b], pk, side, tt_hands, tt_tag, tt_bounds,
                   nodes)  # fmt: skip
        _score(score, b, rank, md, pk, pt, stake[b], bump[b] != 0)
        for k in range(5):
            shaping[b, k] = score[b, k]
        trick_no[b] = 6


class SheepsheadKernel(GameKernel):
    """Sheepshead's card play in a batch (called partner, alone, leaster)."""

    game = "sheepshead"
    solver = True
    seats = 5
    sides = 5
    max_steps = 30
    state_keys = (
        "hands",
        "trick",
        "ntrick",
        "leader",
        "trick_no",
        "tricks",
        "taken",
        "mode",
        "called",
        "x_mask",
        "x_led",
        "picker",
        "partner",
        "bury_points",
        "blind_points",
        "stake",
        "bump",
        "aside",
    )
    mask_keys = frozenset({"hands", "x_mask", "aside"})
    policies = frozenset({"random", "fast", "simple", "heuristic"})
    result_keys = (("score", "score"), ("tricks", "tricks"), ("res_points", "points"))

    def encode_one(self, state: DealState) -> dict[str, Any]:
        st: Any = state
        if st.phase != "play":
            raise ValueError(f"a Sheepshead deal in phase {st.phase!r} is not in card play")
        md = {H.M_CALLED: CALLED, H.M_ALONE: ALONE, H.M_LEASTER: LEASTER}[st._md]
        trick = list(st.trick)
        return {
            "hands": list(st.hands),
            "trick": trick + [0] * (5 - len(trick)),
            "ntrick": len(trick),
            "leader": st.leader,
            "trick_no": st.trick_no,
            "tricks": list(st.tricks),
            "taken": list(st.taken),
            "mode": md,
            "called": st.called if md == CALLED else -1,
            "x_mask": st.x_mask if md == CALLED else 0,
            "x_led": int(bool(st.x_led)),
            "picker": st.picker,
            "partner": st.partner if md == CALLED else -1,
            "bury_points": H.mask_points(st.bury),
            "blind_points": H.mask_points(st.blind_mask),
            "stake": st.stake,
            "bump": int(bool(st.variant["double_on_bump"])),
            "aside": st.blind_mask if md == LEASTER else st.bury,
        }

    def run(self, a: Arrays, policy: int) -> int:
        return self.run_until(a, policy, 0)

    def run_until(self, a: Arrays, policy: int, stop: int) -> int:
        fn: Any = _run
        return int(fn(*(a[k] for k in self.state_keys), a["forced"], a["nforced"],
                        a["seeds"], policy, a["record"], a["nrec"], a["score"],
                        a["shaping"], a["res_points"], a["bad"],
                        stop, a.get("hidden", NOT_HIDDEN)))  # fmt: skip

    def solve(self, a: Arrays) -> int:
        nodes = np.zeros(1, np.int64)
        fn: Any = _solve
        fn(*(a[k] for k in self.state_keys if k not in ("blind_points", "aside")), a["score"],
           a["shaping"], a["bad"], nodes)  # fmt: skip
        if a["bad"].any():
            raise ValueError("the solver has no value for a leaster (SHP-9)")
        return int(nodes[0])

    def tricks_left(self, state: DealState) -> int:
        st: Any = state
        return 6 - int(st.trick_no)

    def solvable(self, state: DealState) -> bool:
        st: Any = state
        return bool(st._md != H.M_LEASTER)

    def action_code(self, state: DealState, action: Any) -> int:
        c = H.CARD_OF[action]
        return int(c) if H.KIND[action] == H.K_PLAY else -1

    def likelihoods(
        self, states: Sequence[DealState], seat: int, miss: float, bids: bool = True
    ) -> np.ndarray:
        """How well the heuristic explains the picks, passes and card play of the seats
        other than ``seat`` in each of ``states`` (sampled deals of one observation):
        ``miss`` per card (:func:`_weights`) and, with ``bids``, per pick or pass
        (:func:`_read_picks`) it would not have made."""
        row = self.encode_one(states[0])
        st: Any = states[0]
        plays = [(int(H.CARD_OF[a]), s) for a, s in zip(st.history, st.actors, strict=True)
                 if H.KIND[a] == H.K_PLAY]  # fmt: skip
        out = np.ones(len(states))
        hands = np.array([list(x.hands) for x in states], np.uint64)  # type: ignore[attr-defined]
        if bids:  # the picks and passes (:func:`pick_reads`)
            reads = pick_reads(st.history, st.actors)
            if len(reads):
                gone = np.zeros(5, np.uint64)
                for c, s in plays:
                    gone[s] |= np.uint64(1 << c)
                deals: Any = states
                blind = np.array([x.blind_mask for x in deals], np.uint64)
                bury = np.array([x.bury for x in deals], np.uint64)
                fn_picks: Any = _read_picks
                fn_picks(hands, gone, blind, bury, reads, int(st.picker), seat, float(miss), out)
        if not plays:
            return out
        asides = np.array([self.encode_one(x)["aside"] for x in states], np.uint64)
        fn: Any = _weights
        fn(hands, asides, np.array([c for c, _ in plays], np.int64),
           np.array([s for _, s in plays], np.int64), row["mode"], row["picker"],
           row["called"], np.uint64(row["x_mask"]), seat, float(miss), out)  # fmt: skip
        return out


KERNEL = SheepsheadKernel()
