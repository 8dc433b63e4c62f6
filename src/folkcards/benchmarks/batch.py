"""Batched playouts against scalar ones, and the batch's differential check at scale.

:func:`mid_deal` finds a position in the middle of a game's card play (a deal played by
the heuristic from a fixed seed) and samples worlds from the observation of the seat to
act; :func:`scalar_rate` plays them out one at a time through the engine (the search's
playout loop: clone, the policy until the deal is over, the utilities), and
:func:`batch_rate` plays the same worlds, replicated to ``B`` rows, through the game's
kernel. One core; rates are the best of ``repeats`` runs (the machine is shared).
"""

from __future__ import annotations

import random
import time
from typing import Any

from folkcards.engine.api import DealState, Game


def mid_deal(game: Game, seed: int = 1, worlds: int = 64) -> tuple[DealState, list[DealState]]:
    """A position halfway through card play (the heuristic plays every seat) and
    ``worlds`` determinizations of it from the observation of the seat to act."""
    from folkcards.batch import kernel_for
    from folkcards.bots.search import HEURISTIC

    kernel = kernel_for(game.name)
    assert kernel is not None
    rng = random.Random(f"mid-deal:{game.name}:{seed}")
    while True:
        state = game.random_deal(rng)
        plays: list[DealState] = []
        while not state.is_over:
            if kernel.accepts(state) and len(state.legal_actions()) > 1:
                plays.append(state.clone())
            seat = state.to_act
            assert seat is not None
            state.apply(HEURISTIC.quick_choice(state.observation(seat), rng))
        if len(plays) >= 8:
            pos = plays[len(plays) // 2]
            seat = pos.to_act
            assert seat is not None
            obs = pos.observation(seat)
            return pos, [game.determinize(obs, rng) for _ in range(worlds)]


def scalar_rate(
    worlds: list[DealState], policy: str, seconds: float = 1.0, repeats: int = 3
) -> float:
    """Scalar playouts per second (``folkcards.bots.search.playout`` with ``policy``)."""
    from folkcards.bots.search import POLICIES, playout

    pol = POLICIES[policy]
    rng = random.Random(1)
    best = 0.0
    for _ in range(repeats):
        n = 0
        t0 = time.process_time()
        while time.process_time() - t0 < seconds:
            playout(worlds[n % len(worlds)].clone(), rng, pol)
            n += 1
        best = max(best, n / (time.process_time() - t0))
    return best


def batch_rate(
    worlds: list[DealState], policy: str, size: int, seconds: float = 1.0, repeats: int = 3
) -> tuple[float, float]:
    """(playouts per second, card plays per second) of the kernel on batches of ``size``
    rows (the worlds replicated), timing encode-free runs: copy, play, utilities."""
    import numpy as np

    from folkcards.batch import kernel_for

    kernel = kernel_for(worlds[0].game.name)
    assert kernel is not None
    base = kernel.encode(worlds)
    rows = np.arange(size) % len(worlds)
    seats = worlds[0].num_seats
    sides = kernel.num_sides(worlds[0])
    a = kernel.build(base, rows, seed=0)
    kernel.play(a, policy)  # compile (or load the cache) outside the timing
    best = (0.0, 0.0)
    for r in range(repeats):
        played = n = 0
        t0 = time.process_time()
        while time.process_time() - t0 < seconds:
            a = kernel.build(base, rows, seed=r * 1000 + n)
            played += kernel.play(a, policy)
            kernel.utilities(a, seats, sides)
            n += size
        dt = time.process_time() - t0
        if n / dt > best[0]:
            best = (n / dt, played / dt)
    return best


def exact(game: Game, positions: int, seed: int = 1, chunk: int = 5000) -> dict[str, Any]:
    """The differential check (:func:`folkcards.batch.exact.check`) on ``positions``
    positions per policy, in chunks: positions, actions and failures."""
    from folkcards.batch.exact import check
    from folkcards.batch.exact import positions as draw

    out: dict[str, Any] = {"positions": 0, "actions": 0, "failures": []}
    done = 0
    while done < positions:
        n = min(chunk, positions - done)
        states = draw(game, n, seed=seed * 100003 + done)
        for policy in ("random", "fast"):
            report = check(game, states, policy, seed=seed + done)
            out["positions"] += report.positions
            out["actions"] += report.actions
            out["failures"] += report.failures[:5]
        done += n
    return out


def run_batch_bench(
    names: list[str], sizes: list[int], seconds: float, repeats: int, positions: int, as_json: bool
) -> int:
    """``folkcards bench batch``: speed (scalar against batched playouts from a mid-deal
    position, every game) or, with ``positions``, the differential check. Exit status 1
    when a check fails, 2 for an unknown game or a missing numpy."""
    import json
    import sys

    from folkcards.batch import COVERED, available, compiled
    from folkcards.games import GAMES

    if not available():
        print("folkcards bench batch: numpy is missing (pip install 'folkcards[fast]')")
        return 2
    names = names or list(COVERED)
    unknown = [n for n in names if n not in COVERED]
    if unknown:
        print(f"folkcards bench batch: no kernel for {unknown[0]!r} (valid: {', '.join(COVERED)})")
        return 2
    out: dict[str, Any] = {"compiled": compiled()}
    status = 0
    for name in names:
        game = GAMES[name]
        if positions:
            t0 = time.perf_counter()
            res = exact(game, positions)
            res["seconds"] = round(time.perf_counter() - t0, 1)
            out[name] = res
            if res["failures"]:
                status = 1
            if not as_json:
                verdict = "identical" if not res["failures"] else "DIFFERENT"
                print(
                    f"{name:12s} {res['positions']:8d} positions {res['actions']:9d} actions "
                    f"{verdict} ({res['seconds']} s)",
                    flush=True,
                )
                for f in res["failures"]:
                    print("   ", f)
            continue
        _, worlds = mid_deal(game)
        row: dict[str, Any] = {"cards_left": _cards_left(worlds[0])}
        for policy in ("random", "fast", "heuristic"):
            row[f"scalar_{policy}"] = round(scalar_rate(worlds, policy, seconds, repeats))
        for policy in ("random", "fast"):
            for size in sizes:
                p, c = batch_rate(worlds, policy, size, seconds, repeats)
                row[f"batch_{policy}_{size}"] = [round(p), round(c)]
        out[name] = row
        if not as_json:
            best = max(sizes, key=lambda s: row[f"batch_fast_{s}"][0])
            print(
                f"{name:12s} scalar playouts/s: random {row['scalar_random']:>8,} "
                f"fast {row['scalar_fast']:>8,} heuristic {row['scalar_heuristic']:>7,}",
                flush=True,
            )
            for policy in ("random", "fast"):
                cells = "  ".join(f"B={s}: {row[f'batch_{policy}_{s}'][0]:,}" for s in sizes)
                print(f"{'':12s} batch {policy:6s} playouts/s  {cells}")
            p, c = row[f"batch_fast_{best}"]
            print(
                f"{'':12s} best: B={best}, {p:,} playouts/s, {c:,} card plays/s "
                f"({p / row['scalar_random']:.0f}× scalar random, "
                f"{p / row['scalar_heuristic']:.0f}× scalar heuristic)",
                flush=True,
            )
    if as_json:
        json.dump(out, sys.stdout)
        print()
    elif not compiled():
        print(
            "(numba is not installed or FOLKCARDS_NO_NUMBA is set: the kernels ran as plain Python)"
        )
    return status


def _cards_left(state: DealState) -> int:
    hands: list[int] = getattr(state, "hands", [])
    return sum(h.bit_count() for h in hands)
