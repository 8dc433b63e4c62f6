"""Batched Satat card play (SAT-8, SAT-9, SAT-15): follow suit with the 2♥ free and
supreme, a led 2♥ calling for trumps once the trump is known, the deal won at seven
tricks, the 7-0 choice to continue (and 13-0), and Trup Kasiet's hidden trump becoming
known as play reveals it. Signals change nothing that counts and are left out."""

from __future__ import annotations

from typing import Any

import numpy as np

from folkcards.batch._jit import (
    ZERO,
    below,
    bit,
    has,
    kth,
    njit,
    popcount,
    swing_choice,
    trick_choice,
    xorshift,
)
from folkcards.batch.core import Arrays, GameKernel, power_table
from folkcards.cards import SUIT_MASK
from folkcards.engine.api import DealState
from folkcards.games import satat as T

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
                else:
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
            m = hand
            if n > 0:  # SAT-8.3
                led = trick[b, 0]
                if led != TWO_H:
                    if hand & FOLLOW[led] != ZERO:
                        m = hand & KEEP[led]
                elif lk:
                    f = hand & SUITS[tr]
                    if f != ZERO:
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
                led_suit = trick[b, 0] // 13
                ws = win // 13
                if ws != led_suit:
                    cd = 1 << ws
                else:
                    for k in range(4):
                        x = trick[b, k] // 13
                        if x != led_suit:
                            cd = cd & ~(1 << x)
                if cd == 1 or cd == 2 or cd == 4 or cd == 8:
                    kn = True
            mine = t0 if team == 0 else t1
            theirs = t1 if team == 0 else t0
            lead = wseat
            to_act[b] = wseat
            if cont:  # SAT-9.3
                if (t0 > 0 and t1 > 0) or mine == 13:
                    finished = True
            elif mine == 7:
                if theirs > 0:
                    finished = True  # SAT-9.1
                else:
                    pend = True  # SAT-9.2
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


class SatatKernel(GameKernel):
    """Satat's card play in a batch (every variant; signals left out)."""

    game = "satat"
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
    )
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
        }

    def run(self, a: Arrays, policy: int) -> int:
        fn: Any = _run
        return int(fn(*(a[k] for k in self.state_keys), a["forced"], a["nforced"],
                        a["seeds"], policy, a["record"], a["nrec"], a["score"],
                        a["shaping"], a["bad"]))  # fmt: skip

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


KERNEL = SatatKernel()
