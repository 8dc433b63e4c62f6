"""Batched Scopone play (SCO-4 – SCO-6, SCO-8): a fishing game, so a kernel of its own.
A card captures one table card of its rank if there is one (never a sum then), else
every set of table cards whose values add up to its value (found by a pruned walk over
the table sorted by value: values are at least 1, so a partial sum above the card's
value ends the branch), else it lies on the table; sweeps, the last capture's leftover,
and the score — cards, coins, settebello, primiera (flat or graded pictures), sweeps,
re bello and napola."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from folkcards.batch._jit import ZERO, below, bit, has, lowest, njit, popcount, xorshift
from folkcards.batch.core import Arrays, GameKernel
from folkcards.bots.heuristic import scopone as HEUR
from folkcards.bots.heuristic.scopone import WORTH
from folkcards.cards import DECK_40, RANK_MASK
from folkcards.engine.api import DealState
from folkcards.games import scopone as P

VALUE = np.array(list(P.VALUE) + [0] * 12, np.int64)
SAME = np.array([RANK_MASK[c % 13] & DECK_40 if c < 52 else 0 for c in range(64)], np.uint64)
PRIMIERA = np.array([P.PRIMIERA_TABLES["flat"], P.PRIMIERA_TABLES["graded"]], np.int64)
COINS = np.uint64(P.COINS)
SETTEBELLO = P.SETTEBELLO
RE_BELLO = P.RE_BELLO
NAPOLA = np.array(P.NAPOLA_RUN, np.int64)
WORTHS = np.array([[round(1000 * w) for w in row] + [0] * 12 for row in WORTH], np.int64)
WORTH_F = np.array([list(row) + [0.0] * 12 for row in WORTH], np.float64)
"""The heuristic's ``worth`` per card, as it reads them (its ``evaluate``)."""
VALUE_MASK = np.array(list(HEUR.VALUE_MASK), np.uint64)
M13 = np.uint64(0x1FFF)
CAP = 256  # most options a position can list here


@njit
def _sum_takes(
    table: np.uint64,
    v: int,
    out: np.ndarray,
    start: int,
    tc: np.ndarray,
    tv: np.ndarray,
    chosen: np.ndarray,
) -> int:
    """Every set of table cards whose values add up to ``v`` (SCO-4.2.2), appended to
    ``out`` from ``start``; the new end."""
    k = 0
    m = table
    while m != ZERO:  # the table's cards sorted by value (insertion sort: a few cards)
        c = lowest(m)
        m = m & (m - np.uint64(1))
        j = k
        while j > 0 and tv[j - 1] > VALUE[c]:
            tc[j] = tc[j - 1]
            tv[j] = tv[j - 1]
            j -= 1
        tc[j] = c
        tv[j] = VALUE[c]
        k += 1
    n = start
    d = 0
    pos = 0
    total = 0
    mask = ZERO
    while True:
        if pos < k and total + tv[pos] <= v:
            if total + tv[pos] == v:
                if n < out.shape[0]:
                    out[n] = mask | bit(tc[pos])
                    n += 1
                pos += 1
            else:
                chosen[d] = pos
                d += 1
                total += tv[pos]
                mask = mask | bit(tc[pos])
                pos += 1
        else:
            if d == 0:
                break
            d -= 1
            last = chosen[d]
            total -= tv[last]
            mask = mask ^ bit(tc[last])
            pos = last + 1
    return n


@njit
def _napola(pile: np.uint64) -> int:
    if not (has(pile, NAPOLA[0]) and has(pile, NAPOLA[1]) and has(pile, NAPOLA[2])):
        return 0
    n = 3
    while n < 10 and has(pile, NAPOLA[n]):
        n += 1
    return n


@njit
def _primiera(pile: np.uint64, table: np.ndarray) -> int:
    total = 0
    for s in range(4):
        best = table[int((pile >> np.uint64(13 * s)) & M13)]
        if best == 0:
            return 0
        total += best
    return total


@njit
def _risk(table: np.uint64, unseen: np.uint64, remaining: int, worth: np.ndarray) -> float:
    """The heuristic's ``_risk``: the expected loss from the next (opposing) player's
    capture on ``table`` — a sweep when it adds up to 10 or less and that value is unseen
    (SCO-5.1), else its best single take."""
    if table == ZERO or remaining <= 1:
        return 0.0
    total = 0
    m = table
    while m != ZERO:
        total += VALUE[lowest(m)]
        m = m & (m - np.uint64(1))
    risk = 0.0
    if total <= 10:
        n = popcount(unseen & VALUE_MASK[total]) if total > 0 else 0
        if n:
            w = 0.0
            m = table
            while m != ZERO:
                w += worth[lowest(m)]
                m = m & (m - np.uint64(1))
            risk += min(1.0, 0.35 * n) * (6.0 + w)
    best = 0.0
    m = table
    while m != ZERO:
        t = lowest(m)
        m = m & (m - np.uint64(1))
        n = popcount(unseen & SAME[t])
        if n:
            best = max(best, min(1.0, 0.3 * n) * (worth[t] * 2))
    return risk + best


@njit
def _mimic(
    no: int,
    cards: np.ndarray,
    takes: np.ndarray,
    tb: np.uint64,
    unseen: np.uint64,
    remaining: int,
    worth: np.ndarray,
    probe: int,
    vals: np.ndarray,
) -> int:
    """The heuristic's play (:func:`folkcards.bots.heuristic.scopone.evaluate`) among the
    ``no`` options (``cards[j]`` taking ``takes[j]``, SCO-4.2): what a capture gains, a
    sweep (SCO-5.1), the risk the table left to the next player holds, a laid card's
    exposure. ``unseen`` is every card in the other hands (all of the pack is dealt, so
    the seat's own knowledge); ``remaining`` the cards still to play, its own included.
    The first best option is played; ``vals`` receives the best score and option
    ``probe``'s (for :func:`_weights`)."""
    best = 0
    bv = -1e300
    for j in range(no):
        c = cards[j]
        t = takes[j]
        if t != ZERO:
            gain = worth[c]
            m = t
            while m != ZERO:
                gain += worth[lowest(m)]
                m = m & (m - np.uint64(1))
            after = tb & ~t
            if after == ZERO and remaining != 1:
                gain += 6.0
            v = gain - _risk(after, unseen, remaining, worth)
        else:
            n = popcount(unseen & SAME[c])
            exposure = 0.0
            if n:
                exposure = worth[c] * (1.0 if n % 2 == 1 else 0.6) * 1.5
            v = -exposure - _risk(tb | bit(c), unseen, remaining, worth)
            v -= 0.3 * worth[c]
        if j == probe:
            vals[1] = v
        if v > bv:
            bv = v
            best = j
    vals[0] = bv
    return best


@njit
def _options(
    hand: np.uint64,
    tb: np.uint64,
    cards: np.ndarray,
    takes: np.ndarray,
    tc: np.ndarray,
    tv: np.ndarray,
    chosen: np.ndarray,
) -> int:
    """Every option of ``hand`` on table ``tb`` (SCO-4.2) into ``cards``/``takes``."""
    no = 0
    m = hand
    while m != ZERO:
        c = lowest(m)
        m = m & (m - np.uint64(1))
        singles = tb & SAME[c]
        start = no
        if singles != ZERO:  # SCO-4.2.1
            while singles != ZERO and no < CAP:
                t = lowest(singles)
                singles = singles & (singles - np.uint64(1))
                takes[no] = bit(t)
                no += 1
        else:  # SCO-4.2.2
            no = _sum_takes(tb, VALUE[c], takes, no, tc, tv, chosen)
        if no == start and no < CAP:  # SCO-4.2.3: it lies on the table
            takes[no] = ZERO
            no += 1
        for j in range(start, no):
            cards[j] = c
    return no


@njit
def _weights(
    hands: np.ndarray,
    table0: np.uint64,
    plays: np.ndarray,
    ptakes: np.ndarray,
    seats: np.ndarray,
    re_bello: int,
    me: int,
    miss: float,
    out: np.ndarray,
) -> None:
    """Inference from play: each row's weight is ``miss`` to the power of the plays so far
    (``plays[i]`` taking ``ptakes[i]`` by ``seats[i]``, from the table ``table0`` the deal
    began with) by seats other than ``me`` that the heuristic (:func:`_mimic`) would not
    have made with the row's hands; a seat with one option tells nothing."""
    worth = WORTH_F[re_bello]
    takes = np.zeros(CAP, np.uint64)
    cards = np.zeros(CAP, np.int64)
    tc = np.zeros(40, np.int64)
    tv = np.zeros(40, np.int64)
    chosen = np.zeros(40, np.int64)
    vals = np.zeros(2, np.float64)
    gone = np.zeros(4, np.uint64)
    for i in range(plays.shape[0]):
        gone[seats[i]] = gone[seats[i]] | bit(plays[i])
    h = np.zeros(4, np.uint64)
    for b in range(hands.shape[0]):
        for k in range(4):
            h[k] = hands[b, k] | gone[k]
        tb = table0
        w = 1.0
        for i in range(plays.shape[0]):
            seat = seats[i]
            c = plays[i]
            t = ptakes[i]
            if seat != me:
                no = _options(h[seat], tb, cards, takes, tc, tv, chosen)
                if no > 1:
                    probe = -1
                    for j in range(no):
                        if cards[j] == c and takes[j] == t:
                            probe = j
                    every = h[0] | h[1] | h[2] | h[3]
                    _mimic(no, cards, takes, tb, every & ~h[seat], popcount(every), worth,
                           probe, vals)  # fmt: skip
                    if probe < 0 or vals[1] < vals[0] - 1e-9:
                        w *= miss
            h[seat] = h[seat] ^ bit(c)
            tb = tb ^ t if t != ZERO else tb | bit(c)  # SCO-4.4
        out[b] = w


@njit
def _run(
    hands: np.ndarray,
    table: np.ndarray,
    piles: np.ndarray,
    sweeps: np.ndarray,
    last_capture: np.ndarray,
    turn: np.ndarray,
    final_turn: np.ndarray,
    last_sweep: np.ndarray,
    to_act: np.ndarray,
    re_bello: np.ndarray,
    napola: np.ndarray,
    graded: np.ndarray,
    forced: np.ndarray,
    nforced: np.ndarray,
    seeds: np.ndarray,
    policy: int,
    record: np.ndarray,
    nrec: np.ndarray,
    score: np.ndarray,
    shaping: np.ndarray,
    primiera: np.ndarray,
    bad: np.ndarray,
) -> int:
    total = 0
    rec_cap = record.shape[1]
    h = np.zeros(4, np.uint64)
    takes = np.zeros(CAP, np.uint64)
    cards = np.zeros(CAP, np.int64)
    tc = np.zeros(40, np.int64)
    tv = np.zeros(40, np.int64)
    chosen = np.zeros(40, np.int64)
    vals = np.zeros(2, np.float64)
    for b in range(hands.shape[0]):
        for k in range(4):
            h[k] = hands[b, k]
        tb = table[b]
        p0 = piles[b, 0]
        p1 = piles[b, 1]
        sw0 = sweeps[b, 0]
        sw1 = sweeps[b, 1]
        lc = last_capture[b]
        tn = turn[b]
        fin = final_turn[b]
        seat = to_act[b]
        worth = WORTHS[re_bello[b]]
        s = seeds[b]
        step = 0
        while tn < fin:
            hand = h[seat]
            no = _options(hand, tb, cards, takes, tc, tv, chosen)  # SCO-4.2
            p = policy & 15
            if policy >= 16:  # a share of random moves (policy >> 4 %)
                s = xorshift(s)
                if below(s, 100) < (policy >> 4):
                    p = 0
            if step < nforced[b]:
                code = forced[b, step]
                pick = -1
                for j in range(no):
                    if cards[j] + (np.int64(takes[j]) << 6) == code:
                        pick = j
                if pick < 0:
                    bad[b] = 1
                    break
            elif p == 0:
                s = xorshift(s)
                pick = below(s, no)
            elif p == 3:
                every = h[0] | h[1] | h[2] | h[3]
                pick = _mimic(no, cards, takes, tb, every & ~hand, popcount(every),
                              WORTH_F[re_bello[b]], -1, vals)  # fmt: skip
            else:  # the rollout of the heuristic: the most valuable capture, at times random
                s = xorshift(s)
                if no == 1 or below(s, 100) < 15:
                    s = xorshift(s)
                    pick = below(s, no)
                else:
                    pick = 0
                    best = -(1 << 60)
                    for j in range(no):
                        t = takes[j]
                        if t == ZERO:
                            v = -worth[cards[j]]
                        else:
                            v = worth[cards[j]]
                            mm = t
                            while mm != ZERO:
                                v += worth[lowest(mm)]
                                mm = mm & (mm - np.uint64(1))
                        if v > best:
                            best = v
                            pick = j
            c = cards[pick]
            take = takes[pick]
            if step < rec_cap:
                record[b, step] = c + (np.int64(take) << 6)
            step += 1
            total += 1
            cb = bit(c)
            h[seat] = hand ^ cb
            tn += 1
            team = seat & 1
            if take != ZERO:  # SCO-4.4, SCO-5.1, SCO-8.2
                tb = tb ^ take
                if team == 0:
                    p0 = p0 | take | cb
                else:
                    p1 = p1 | take | cb
                lc = seat
                if tb == ZERO and (tn != fin or last_sweep[b] != 0):
                    if team == 0:
                        sw0 += 1
                    else:
                        sw1 += 1
            else:
                tb = tb | cb
            if tn == fin:  # SCO-5.3
                if lc & 1:
                    p1 = p1 | tb
                else:
                    p0 = p0 | tb
                tb = ZERO
            seat = (seat + 1) & 3
        nrec[b] = step
        for k in range(4):
            hands[b, k] = h[k]
        table[b] = tb
        piles[b, 0] = p0
        piles[b, 1] = p1
        sweeps[b, 0] = sw0
        sweeps[b, 1] = sw1
        last_capture[b] = lc
        turn[b] = tn
        to_act[b] = seat
        seeds[b] = s
        score[b, 0] = 0
        score[b, 1] = 0
        if tn < fin:
            continue
        c0 = popcount(p0)  # SCO-6
        d0 = popcount(p0 & COINS)
        pt = PRIMIERA[graded[b]]
        pr0 = _primiera(p0, pt)
        pr1 = _primiera(p1, pt)
        primiera[b, 0] = pr0
        primiera[b, 1] = pr1
        s0 = sw0 + (1 if c0 > 20 else 0) + (1 if d0 > 5 else 0) + (1 if pr0 > pr1 else 0)
        s1 = sw1 + (1 if c0 < 20 else 0) + (1 if d0 < 5 else 0) + (1 if pr1 > pr0 else 0)
        if has(p0, SETTEBELLO):
            s0 += 1
        else:
            s1 += 1
        if re_bello[b] != 0:  # SCO-8.3
            if has(p0, RE_BELLO):
                s0 += 1
            else:
                s1 += 1
        if napola[b] != 0:  # SCO-8.4
            s0 += _napola(p0)
            s1 += _napola(p1)
        score[b, 0] = s0
        score[b, 1] = s1
        shaping[b, 0] = s0
        shaping[b, 1] = s1
    return total


class ScoponeKernel(GameKernel):
    """Scopone's play in a batch (classic and scientifico, every scoring variant)."""

    game = "scopone"
    max_steps = 40
    draws_hands = True  # the hands are all a sampled deal hides (SCO-9)
    policies = frozenset({"random", "fast", "simple", "heuristic"})
    state_keys = (
        "hands",
        "table",
        "piles",
        "sweeps",
        "last_capture",
        "turn",
        "final_turn",
        "last_sweep",
        "to_act",
        "re_bello",
        "napola",
        "graded",
    )
    mask_keys = frozenset({"hands", "table", "piles"})
    result_keys = (("score", "score"), ("sweeps", "sweeps"), ("primiera", "primiera"))

    def encode_one(self, state: DealState) -> dict[str, Any]:
        st: Any = state
        if not self.accepts(st):
            raise ValueError("a Scopone deal that is over is not in play")
        v = st.variant
        return {
            "hands": list(st.hands),
            "table": st.table,
            "piles": list(st.piles),
            "sweeps": list(st.sweeps),
            "last_capture": -1 if st.last_capture is None else st.last_capture,
            "turn": st.turn,
            "final_turn": st.final_turn,
            "last_sweep": int(bool(st.last_sweep)),
            "to_act": st.to_act,
            "re_bello": int(bool(v["re_bello"])),
            "napola": int(bool(v["napola"])),
            "graded": int(v["primiera_pictures"] == "graded"),
        }

    def run(self, a: Arrays, policy: int) -> int:
        fn: Any = _run
        return int(fn(*(a[k] for k in self.state_keys), a["forced"], a["nforced"],
                        a["seeds"], policy, a["record"], a["nrec"], a["score"],
                        a["shaping"], a["primiera"], a["bad"]))  # fmt: skip

    def action_code(self, state: DealState, action: Any) -> int:
        return int(action.card) + (int(action.take) << 6)

    def deal_hands(
        self, template: DealState, seat: int, rng: random.Random, n: int
    ) -> np.ndarray | None:
        """``n`` rows of hands, the first ``template``'s, the rest the cards ``seat`` has
        not seen dealt anew among the other three hands, each keeping its size: Scopone's
        ``determinize`` is exactly that uniform deal (SCO-9: the hands are all that is
        hidden, and a card not played tells nothing), so it is drawn here as arrays, a
        permutation per row (numpy's generator seeded from ``rng``), instead of deal by
        deal."""
        if seat not in range(4):
            return None  # a spectator sees no hand to keep
        hands = [int(h) for h in template.hands]  # type: ignore[attr-defined]
        others = [s for s in range(4) if s != seat]
        unseen = np.array(
            [c for s in others for c in range(64) if hands[s] >> c & 1], np.int64
        )  # fmt: skip
        rows = np.empty((n, 4), np.uint64)
        rows[:, seat] = np.uint64(hands[seat])
        rows[0] = np.array(hands, np.uint64)
        if n > 1:
            gen = np.random.default_rng(rng.getrandbits(64))
            cards = gen.permuted(np.tile(unseen, (n - 1, 1)), axis=1)
            bits = np.left_shift(np.uint64(1), cards.astype(np.uint64))
            k = 0
            for s in others:
                size = hands[s].bit_count()
                rows[1:, s] = bits[:, k : k + size].sum(axis=1, dtype=np.uint64)
                k += size
        return rows

    def likelihoods(
        self, states: Sequence[DealState], seat: int, miss: float, bids: bool = True
    ) -> np.ndarray:
        """How well the heuristic explains the plays of the seats other than ``seat`` in
        each of ``states`` (sampled deals of one observation): ``miss`` per play it would
        not have made (:func:`_weights`). Scopone has no decision before card play, so
        ``bids`` changes nothing."""
        hands = np.array([list(x.hands) for x in states], np.uint64)  # type: ignore[attr-defined]
        return _likelihoods(states[0], hands, seat, miss)

    def likelihoods_hands(
        self, template: DealState, hands: np.ndarray, seat: int, miss: float, bids: bool = True
    ) -> np.ndarray:
        """:meth:`likelihoods` of deals that are ``template`` but for their hands now
        (``hands``: four card masks a deal)."""
        return _likelihoods(template, hands, seat, miss)


def _likelihoods(template: DealState, hands: np.ndarray, seat: int, miss: float) -> np.ndarray:
    """The weights of deals that are ``template`` but for their ``hands`` now (see
    :meth:`ScoponeKernel.likelihoods`)."""
    st: Any = template
    plays = list(st.history)
    out = np.ones(len(hands))
    if not plays:
        return out
    laid = 0
    taken = 0
    for a in plays:
        if a.take:
            taken |= a.take
        else:
            laid |= 1 << a.card
    table0 = (st.table | taken) & ~laid  # the table the deal began with (SCO-3.1)
    _weights(np.ascontiguousarray(hands, np.uint64), np.uint64(table0),
             np.array([a.card for a in plays], np.int64),
             np.array([a.take for a in plays], np.uint64),
             np.array(st.actors, np.int64), int(bool(st.variant["re_bello"])), seat,
             float(miss), out)  # fmt: skip
    return out


KERNEL = ScoponeKernel()
