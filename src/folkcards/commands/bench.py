"""``folkcards bench``: engine throughput per game (and ``bench server`` for the web table,
``bench bots`` for its bots' time per decision, ``bench batch`` for the batched playouts,
``bench batch --exact N`` for their differential check)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from folkcards.benchmarks.playouts import bench_games, bench_openspiel, bench_with_skat
from folkcards.games import GAMES


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "bench",
        help="random full-deal playouts per second per game (or: bench server)",
        description="Random full deals per second through the public engine API, one core. "
        "'bench server' measures the web table instead.",
    )
    p.add_argument(
        "games",
        nargs="*",
        help="games to measure (default: all); or 'server', 'bots [GAME …]', 'env', or "
        "'batch [GAME …]'",
    )
    p.add_argument("--seconds", type=float, default=1.0, help="length of one run (default 1)")
    p.add_argument("--repeats", type=int, default=5, help="runs per game; the median is shown")
    p.add_argument(
        "--reference",
        action="store_true",
        help="also run OpenSpiel's C++ skat (each run of a game paired with one of skat, for "
        "the ratio), hearts and euchre the same way (needs open_spiel)",
    )
    p.add_argument(
        "--tables",
        default="50,200,1000",
        help="bench server: live tables, or several sizes comma-separated (default 50,200,1000)",
    )
    p.add_argument(
        "--sizes",
        default="64,256,1024,4096,16384",
        help="bench batch: batch sizes (rows) to time, comma-separated",
    )
    p.add_argument(
        "--exact",
        type=int,
        default=0,
        metavar="N",
        help="bench batch: instead of speed, check N positions per game and policy against "
        "the scalar engine",
    )
    p.add_argument(
        "--level",
        default="search",
        help="bench bots: the web table's bot level in every seat (default search)",
    )
    p.add_argument(
        "--decisions",
        type=int,
        default=40,
        help="bench bots: bot decisions to time per game (default 40)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    """Print the figures."""
    if args.games == ["server"]:
        from folkcards.server.bench import run_server_bench

        try:
            sizes = [int(x) for x in str(args.tables).split(",") if x.strip()]
        except ValueError:
            print(f"folkcards bench server: --tables must be numbers, not {args.tables!r}")
            return 2
        if not sizes or any(not 1 <= n <= 2000 for n in sizes):
            print("folkcards bench server: each --tables size must be 1–2000")
            return 2
        for n in sizes:  # each size on a fresh server, --seconds × 10 of play
            res: dict[str, Any] = run_server_bench(n, args.seconds * 10)
            print(json.dumps(res) if args.json else "\n".join(f"{k}: {v}" for k, v in res.items()))
            if not args.json:
                print()
        return 0
    if args.games[:1] == ["bots"]:
        return _bench_bots(args)
    if args.games[:1] == ["env"]:
        from folkcards.benchmarks.env_steps import env_steps

        names = args.games[1:] or list(GAMES)
        steps = {n: env_steps(GAMES[n], args.seconds * 3) for n in names if n in GAMES}
        if args.json:
            print(json.dumps({n: {"env_steps_per_s": v} for n, v in steps.items()}))
        else:
            for n, v in steps.items():
                print(f"{n:16s} {v:10.0f} PettingZoo env steps/s")
        return 0
    if args.games[:1] == ["batch"]:
        from folkcards.benchmarks.batch import run_batch_bench

        return run_batch_bench(
            args.games[1:], [int(x) for x in args.sizes.split(",")], args.seconds,
            args.repeats, args.exact, args.json,
        )  # fmt: skip
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        print(f"folkcards bench: unknown game {unknown[0]!r} (valid: {', '.join(GAMES)}, server)")
        return 2
    games = [GAMES[g] for g in (args.games or list(GAMES))]
    out: dict[str, dict[str, float]] = {}
    if args.reference:
        out = bench_with_skat(games, args.seconds, args.repeats)
        if out:
            out.update(bench_openspiel(["hearts", "euchre"], args.seconds, args.repeats))
        else:
            print("(open_spiel is not installed: pip install -e '.[rl]' for the reference)")
    if not out:
        out = bench_games(games, args.seconds, args.repeats)
    if args.json:
        print(json.dumps(out))
    else:
        for name, r in out.items():
            line = (
                f"{name:16s} {r['deals_per_s']:10.0f} deals/s  {r['us_per_action']:6.2f} µs/action"
            )
            if "skat_ratio" in r:
                line += (
                    f"  {r['skat_ratio']:5.2f}× Skat ({r['ratio_low']:.2f}–{r['ratio_high']:.2f})"
                )
            print(line)
    return 0


def _bench_bots(args: argparse.Namespace) -> int:
    """``bench bots [GAME …]``: ms per decision of a web table of ``--level`` bots."""
    from folkcards.server.bench import run_bot_table_bench
    from folkcards.server.botbridge import levels

    names = args.games[1:] or list(GAMES)
    unknown = [g for g in names if g not in GAMES]
    if unknown:
        print(f"folkcards bench bots: unknown game {unknown[0]!r} (valid: {', '.join(GAMES)})")
        return 2
    if args.level not in levels():
        valid = ", ".join(levels())
        print(f"folkcards bench bots: {args.level!r} is no level of the web table (valid: {valid})")
        return 2
    if not 1 <= args.decisions <= 10_000:
        print("folkcards bench bots: --decisions must be 1–10000")
        return 2
    for name in names:
        res = run_bot_table_bench(name, args.level, args.decisions)
        print(json.dumps(res) if args.json else "  ".join(f"{k}: {v}" for k, v in res.items()))
    return 0
