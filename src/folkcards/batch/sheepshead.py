"""Batched Sheepshead card play (SHP-7 – SHP-9): the fourteen permanent trumps (queens,
jacks, diamonds), following the effective suit, the called-ace duties (SHP-7.5, SHP-7.6),
the picker's score table with schneider and schwarz (SHP-8), and the leaster (SHP-9)."""

from __future__ import annotations

from typing import Any

import numpy as np

from folkcards.batch._jit import (
    ONE,
    ZERO,
    below,
    bit,
    has,
    kth,
    max_card,
    min_card,
    njit,
    popcount,
    swing_choice,
    trick_choice,
    xorshift,
)
from folkcards.batch.core import Arrays, GameKernel, power_table
from folkcards.engine.api import DealState
from folkcards.games import sheepshead as H

BEATS = np.array(list(H.BEATS) + [0] * 12, np.uint64)
CLASS = np.array(list(H.CLASS) + [0] * 12, np.uint64)
TRUMPS = np.uint64(H.TRUMPS)
POINTS = np.array(list(H.POINTS) + [0] * 12, np.int64)
POWER = np.array(power_table(H.TRUMP), np.int64)
THROW = np.array([p * 4 + q for p, q in zip(POINTS, POWER, strict=True)], np.int64)
CALLED, ALONE, LEASTER = 1, 2, 3


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
) -> int:
    total = 0
    rec_cap = record.shape[1]
    h = np.zeros(5, np.uint64)
    side = np.zeros(5, np.int64)
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
                friend = n > 0 and side[wseat] == side[seat]
                if p == 1:
                    lc = CLASS[trick[b, 0]] if n > 0 else ZERO
                    c = swing_choice(m, n, win, friend, seat, lead, 5, h, side, lc, CLASS, BEATS,
                                     POWER, POINTS, TRUMPS, False, side[seat] == 1, tp, 0.0)  # fmt: skip
                else:
                    c = trick_choice(m, n, win, friend, after, others, BEATS, POWER, POINTS,
                                     TRUMPS, tp)  # fmt: skip
            if step < rec_cap:
                record[b, step] = c
            step += 1
            total += 1
            h[seat] = hand ^ bit(c)
            trick[b, n] = c
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


class SheepsheadKernel(GameKernel):
    """Sheepshead's card play in a batch (called partner, alone, leaster)."""

    game = "sheepshead"
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
    )
    mask_keys = frozenset({"hands", "x_mask"})
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
        }

    def run(self, a: Arrays, policy: int) -> int:
        fn: Any = _run
        return int(fn(*(a[k] for k in self.state_keys), a["forced"], a["nforced"],
                        a["seeds"], policy, a["record"], a["nrec"], a["score"],
                        a["shaping"], a["res_points"], a["bad"]))  # fmt: skip

    def action_code(self, state: DealState, action: Any) -> int:
        c = H.CARD_OF[action]
        return int(c) if H.KIND[action] == H.K_PLAY else -1


KERNEL = SheepsheadKernel()
