"""Batched Sasku card play (SAS-10 – SAS-13): must follow / must trump / must beat, the
twelve permanent picture trumps, the stroke table, lambapea and the 60–60 replay."""

from __future__ import annotations

from collections.abc import Sequence
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
from folkcards.cards import CARD_NAMES
from folkcards.engine.api import DealState
from folkcards.games import sasku as S

BEATS = np.array([list(c.beats) + [0] * 12 for c in S.TRUMP_CONFIGS], np.uint64)
CLASS = np.array([list(c.class_of) + [0] * 12 for c in S.TRUMP_CONFIGS], np.uint64)
TRUMPS = np.array([c.trumps for c in S.TRUMP_CONFIGS], np.uint64)
POINTS = np.array(list(S.CARD_POINTS) + [0] * 12, np.int64)
POWER = np.array([power_table(c) for c in S.TRUMP_CONFIGS], np.int64)
SIDE = np.array([0, 1, 0, 1], np.int64)


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
) -> int:
    total = 0
    rec_cap = record.shape[1]
    hh = np.zeros(4, np.uint64)
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
            tp += POINTS[c]
            if n == 0:  # SAS-10.2
                led = cl[c]
                win = c
                wseat = seat
            elif has(bt[win], c):  # SAS-10.4
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


class SaskuKernel(GameKernel):
    """Sasku's card play in a batch."""

    game = "sasku"
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
    )

    def encode_one(self, state: DealState) -> dict[str, Any]:
        st: Any = state
        if st.phase != "play":
            raise ValueError(f"a Sasku deal in phase {st.phase!r} is not in card play")
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
        }

    def run(self, a: Arrays, policy: int) -> int:
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
            )
        )

    def action_code(self, state: DealState, action: Any) -> int:
        return int(S.CARD_OF_PLAY[action])

    def action_texts(self, state: DealState, codes: Sequence[int]) -> list[str]:
        return [f"play {CARD_NAMES[c]}" for c in codes]


KERNEL = SaskuKernel()
