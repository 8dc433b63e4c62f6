"""Which tool for the batched engine: numpy array operations or numba loops?

    python benchmarks/batch_tool.py [--sizes 256,1024,4096,16384] [--seconds 1]

Both play the same Sasku worlds (a mid-deal position, uniformly random card play) to
the end of the deal on one core:

* **numpy, lockstep** — every world advances one card per step with whole-batch array
  operations: the legal mask (follow the led class, else trump, else anything; must
  beat) with ``np.where``, a uniform choice among the legal cards by the ``argmax`` of
  random keys over the 52 card bits, the trick's winner and points by table lookups;
* **numba, per world** — :mod:`folkcards.batch.sasku`'s kernel: a compiled loop over the
  worlds, each played to its end with scalar bit operations.

It prints playouts and card plays per second at each batch size (best of three runs).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from folkcards.batch import kernel_for
from folkcards.batch.sasku import BEATS, CLASS, POINTS, TRUMPS
from folkcards.benchmarks.batch import batch_rate, mid_deal
from folkcards.games import GAMES

ONE = np.uint64(1)
SHIFTS = np.arange(52, dtype=np.uint64)
BITS = ONE << np.arange(64, dtype=np.uint64)


def numpy_lockstep(a: dict[str, Any], rng: np.random.Generator) -> int:
    """Random Sasku play of every row of ``a`` (the kernel's arrays) in lockstep; the
    number of card plays. The rows must share trump, trick and turn (worlds of one
    observation do)."""
    b = a["hands"].shape[0]
    ar = np.arange(b)
    h = a["hands"].copy()
    t = int(a["trump"][0])
    bt, cl, tr = BEATS[t], CLASS[t], TRUMPS[t]
    must_beat = bool(a["must_beat"][0])
    pts = a["points"].copy()
    n = int(a["ntrick"][0])
    lead = int(a["leader"][0])
    trick = a["trick"][0]
    win = np.full(b, trick[0] if n else 0, np.int64)
    wseat = np.full(b, lead, np.int64)
    for i in range(1, n):
        if bt[win[0]] >> np.uint64(trick[i]) & ONE:
            win[:] = trick[i]
            wseat[:] = (lead + i) & 3
    led = np.full(b, cl[trick[0]] if n else 0, np.uint64)
    tp = np.full(b, int(sum(POINTS[c] for c in trick[:n])), np.int64)
    seat = np.full(b, (lead + n) & 3, np.int64)
    done = int(a["played"][0])
    cards = 0
    while done < 9:
        hand = h[ar, seat]
        if n:
            m = hand & led
            m = np.where(m == 0, hand & tr, m)
            m = np.where(m == 0, hand, m)
            if must_beat:
                g = m & bt[win]
                m = np.where(g != 0, g, m)
        else:
            m = hand
        isset = ((m[:, None] >> SHIFTS) & ONE).astype(bool)
        c = np.where(isset, rng.random((b, 52)), -1.0).argmax(axis=1)
        h[ar, seat] ^= BITS[c]
        tp += POINTS[c]
        cards += b
        if n == 0:
            led = cl[c]
            win = c.copy()
            wseat = seat.copy()
        else:
            better = ((bt[win] >> c.astype(np.uint64)) & ONE).astype(bool)
            win = np.where(better, c, win)
            wseat = np.where(better, seat, wseat)
        n += 1
        if n == 4:
            pts[ar, wseat & 1] += tp
            tp[:] = 0
            n = 0
            done += 1
            seat = wseat.copy()
        else:
            seat = (seat + 1) & 3
    return cards


def main() -> None:
    """Print the comparison."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="256,1024,4096,16384")
    p.add_argument("--seconds", type=float, default=1.0)
    args = p.parse_args()
    kernel = kernel_for("sasku")
    assert kernel is not None
    _, worlds = mid_deal(GAMES["sasku"])
    base = kernel.encode(worlds)
    rng = np.random.default_rng(1)
    for size in (int(s) for s in args.sizes.split(",")):
        a = kernel.build(base, np.arange(size) % len(worlds), seed=1)
        best = 0.0
        plays = 0
        for _ in range(3):
            n = cards = 0
            t0 = time.process_time()
            while time.process_time() - t0 < args.seconds:
                cards += numpy_lockstep(a, rng)
                n += size
            dt = time.process_time() - t0
            if n / dt > best:
                best, plays = n / dt, round(cards / dt)
        nb_p, nb_c = batch_rate(worlds, "random", size, args.seconds, 3)
        print(
            f"B={size:6d}  numpy lockstep {best:>10,.0f} playouts/s {plays:>12,} card plays/s"
            f"   numba {nb_p:>10,.0f} playouts/s {nb_c:>12,.0f} card plays/s"
            f"   ratio {nb_p / best:5.1f}"
        )


if __name__ == "__main__":
    main()
