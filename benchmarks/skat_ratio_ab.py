"""Two versions of the engines, each as a ratio to OpenSpiel's Skat, taken in turn.

    python benchmarks/skat_ratio_ab.py OLD_SRC NEW_SRC [--rounds N] [--seconds S] [--repeats R]
                                       [--games sasku,scopone,…]

``OLD_SRC`` and ``NEW_SRC`` are the ``src`` folders of two checkouts (``git worktree add
/tmp/old COMMIT`` makes one). Each round runs one process per version, in alternating
order, and each process plays this checkout's ``bench --reference`` loop
(:func:`folkcards.benchmarks.playouts.bench_with_skat`, loaded from this file's tree so
both versions are timed by the same code) on that version's engines: every run of a game
is paired with a run of Skat, which is C++ and the same in both. The report gives, per
game, the median over rounds of each version's ratio to Skat and of new/old taken round
by round, and of new/old in the games' own deals/s (the same rounds, no reference), with
Skat's speed in each version's processes. Timing only: ``benchmarks/results/`` keeps
what was found.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HARNESS = Path(__file__).resolve().parent.parent / "src/folkcards/benchmarks/playouts.py"

CHILD = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("harness", sys.argv[1])
harness = importlib.util.module_from_spec(spec)
spec.loader.exec_module(harness)
from folkcards.games import GAMES
games = [GAMES[n] for n in sys.argv[4].split(",")]
print(json.dumps(harness.bench_with_skat(games, float(sys.argv[2]), int(sys.argv[3]))))
"""


def measure(src: str, games: str, seconds: float, repeats: int) -> dict[str, dict[str, float]]:
    """One process on the engines of ``src``: ``games``, comma-separated, in turn."""
    env = dict(os.environ, PYTHONPATH=src)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(HARNESS), str(seconds), str(repeats), games],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    out: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument(
        "--games", default="sasku,scopone,sheepshead,satat,huutopussi", help="comma-separated"
    )
    args = p.parse_args()
    rows: list[tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]] = []
    for k in range(args.rounds):
        order = [args.old, args.new] if k % 2 == 0 else [args.new, args.old]
        got = {src: measure(src, args.games, args.seconds, args.repeats) for src in order}
        rows.append((got[args.old], got[args.new]))
        print(f"round {k + 1}/{args.rounds} done", file=sys.stderr)
    print("| game | old ÷ Skat | new ÷ Skat | new ÷ old by the ratios | new ÷ old by deals/s |")
    print("|---|---|---|---|---|")

    def spread(xs: list[float]) -> str:
        return f"{statistics.median(xs):.3f} ({min(xs):.2f}–{max(xs):.2f})"

    for game in rows[0][0]:
        if game.startswith("openspiel:"):
            continue
        old = [o[game]["skat_ratio"] for o, _ in rows]
        new = [n[game]["skat_ratio"] for _, n in rows]
        by_ratio = [b / a for a, b in zip(old, new, strict=True)]
        by_speed = [n[game]["deals_per_s"] / o[game]["deals_per_s"] for o, n in rows]
        print(
            f"| {game} | {statistics.median(old):.3f} | {statistics.median(new):.3f} | "
            f"{spread(by_ratio)} | {spread(by_speed)} |"
        )
    # Skat is the same C++ in both versions: a gap between these two medians is the
    # processes' own (memory layout, what else was imported), which the ratios carry.
    skat_old = [o["openspiel:skat"]["deals_per_s"] for o, _ in rows]
    skat_new = [n["openspiel:skat"]["deals_per_s"] for _, n in rows]
    print(
        f"\nSkat: median {statistics.median(skat_old):.0f} deals/s in the old processes, "
        f"{statistics.median(skat_new):.0f} in the new ({2 * len(rows)} processes, "
        f"{min(skat_old + skat_new):.0f}–{max(skat_old + skat_new):.0f})"
    )


if __name__ == "__main__":
    main()
