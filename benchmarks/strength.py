"""Strength benchmark: duplicate tournaments of the bot levels in every game.

    python benchmarks/strength.py --boards 200 --search search:iters=200 --out benchmarks/results

For each game it plays ``heuristic`` against ``random`` and the search bot against
``heuristic`` (``--compare`` adds PIMC against IS-MCTS at an equal playout budget),
writes each tournament's summary as JSON, and prints the Markdown table of
README.md ("Measured strength"): game × matchup × win rate of the first bot × 95 % CI × ms per decision.
Each tournament is exactly ``folkcards tournament GAME --bots A,B --deals N --seed S``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from folkcards.games import GAMES
from folkcards.tournament import TournamentConfig, run_tournament


def row(game: str, m: dict[str, Any]) -> str:
    """One Markdown table row of a matchup summary."""
    w = m["win_rate"]
    wtl = "-".join(str(x) for x in m["wins_ties_losses"])
    return (
        f"| {game} | {m['a']} vs {m['b']} | {m['boards']} | {w['mean'] * 100:.1f} % | "
        f"[{w['low'] * 100:.1f}, {w['high'] * 100:.1f}] | {wtl} | "
        f"{m['ms_per_decision'][0]:.1f} | {m['ms_per_decision'][1]:.1f} |"
    )


HEADER = (
    "| game | matchup (A vs B) | boards | A win rate | 95 % CI | A W-T-L | A ms/decision "
    "| B ms/decision |\n|---|---|---|---|---|---|---|---|"
)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    p.add_argument("--boards", type=int, default=200, help="duplicate boards per matchup")
    p.add_argument("--search-boards", type=int, default=None, help="boards for search matchups")
    p.add_argument("--search", default="search:iters=200", help="the search bot's spec")
    p.add_argument("--compare", action="store_true", help="also pimc vs ismcts (equal iters)")
    p.add_argument("--only", choices=["heuristic", "search", "compare"], default=None)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--out", default="benchmarks/results", help="directory for JSON summaries")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    iters = next(
        (part for part in args.search.split(":") if part.startswith("iters=")), "iters=200"
    )
    plan: list[tuple[str, str, str, int]] = []
    for game in args.games.split(","):
        if game not in GAMES:
            print(f"unknown game {game!r} (valid: {', '.join(GAMES)})", file=sys.stderr)
            return 2
        sb = args.search_boards or args.boards
        if args.only in (None, "heuristic"):
            plan.append((game, "heuristic", "random", args.boards))
        if args.only in (None, "search"):
            plan.append((game, args.search, "heuristic", sb))
        if args.compare or args.only == "compare":
            plan.append((game, f"pimc:{iters}", f"ismcts:{iters}", sb))
    rows = []
    for game, a, b, boards in plan:
        t0 = time.monotonic()
        config = TournamentConfig(game, (a, b), boards, args.seed)
        summary, _ = run_tournament(config, workers=args.workers)
        name = f"{game}--{a}--{b}".replace(":", "_").replace("=", "")
        (out / f"{name}.json").write_text(json.dumps(summary, indent=2) + "\n")
        rows.append(row(game, summary["matchups"][0]))
        print(rows[-1], f"({time.monotonic() - t0:.0f} s)", flush=True)
    print()
    print(HEADER)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
