"""Every tournament summary in a folder as one Markdown table, and several pooled.

    python benchmarks/results_table.py benchmarks/results/bsearch-vs-search200 --game satat
    python benchmarks/results_table.py benchmarks/results/bsearch-vs-search200 \
        --pool 'satat--*hands-fixed*' --bot bsearch:worlds=1700:read=0.5 \
        --against search:iters=200

Reads the JSON that ``folkcards tournament ... --json`` prints (one file per run, named
``GAME--BOT--OPPONENT--seedS.json``) and prints, for every matchup of every file: the file,
the seed, the boards, the win rate of the first bot with its 95 % interval, wins-ties-losses
and the ms a decision of both bots, sorted by game and seed. This is the history of the
measurements that docs/bots.md quotes.

``--bot SPEC`` and ``--against SPEC`` keep the matchups of that bot and that opponent (a
file of three bots holds three), and ``--pool GLOB`` pools the files that match (runs of
one bot against one opponent on different, fresh boards): the pooled win rate is the share
of plays over all of them (ties count half, as in the tournament), and its interval a
normal approximation that combines the runs' independent intervals (each run's standard
error taken as its bootstrap interval's width over 3.92). Boards of one seed are the same
whatever the bots, so pooling two runs of one seed counts those boards twice: the script
refuses that.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Row:
    """One matchup of one tournament summary."""

    file: str
    game: str
    seed: int
    a: str
    b: str
    boards: int
    mean: float
    low: float
    high: float
    wtl: tuple[int, int, int]
    ms: tuple[float, float]


def read_rows(folder: Path) -> list[Row]:
    """Every matchup of every ``*.json`` summary in ``folder``, by game, seed and file."""
    rows = []
    for path in sorted(folder.glob("*.json")):
        data: dict[str, Any] = json.loads(path.read_text())
        for m in data.get("matchups", []):
            wr = m["win_rate"]
            ms = m.get("ms_per_decision") or [math.nan, math.nan]
            rows.append(
                Row(
                    path.name,
                    data["game"],
                    int(data["seed"]),
                    m["a"],
                    m["b"],
                    int(m["boards"]),
                    float(wr["mean"]),
                    float(wr["low"]),
                    float(wr["high"]),
                    (
                        int(m["wins_ties_losses"][0]),
                        int(m["wins_ties_losses"][1]),
                        int(m["wins_ties_losses"][2]),
                    ),
                    (float(ms[0]), float(ms[1])),
                )
            )
    rows.sort(key=lambda r: (r.game, r.seed, r.file))
    return rows


@dataclass(frozen=True)
class Pooled:
    """Runs of one bot against one opponent on different boards, taken together."""

    runs: int
    boards: int
    mean: float
    low: float
    high: float
    wtl: tuple[int, int, int]


def pool(rows: list[Row]) -> Pooled:
    """Pool ``rows`` (one bot against one opponent, each seed once): the share of plays
    won, ties half, and a 95 % normal interval from the runs' own intervals."""
    if not rows:
        raise ValueError("nothing to pool: no file matched")
    pairs = {(r.a, r.b) for r in rows}
    if len(pairs) != 1:
        raise ValueError(f"pool one bot against one opponent, not {sorted(pairs)}")
    seeds = [r.seed for r in rows]
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seed used twice, its boards would count twice: {sorted(seeds)}")
    w = sum(r.wtl[0] for r in rows)
    t = sum(r.wtl[1] for r in rows)
    lost = sum(r.wtl[2] for r in rows)
    plays = w + t + lost
    mean = (w + t / 2) / plays
    # Each run's mean is weighted by its plays; its variance from its interval's width.
    var = sum(((r.high - r.low) / 3.92) ** 2 * (sum(r.wtl) / plays) ** 2 for r in rows)
    half = 1.96 * math.sqrt(var)
    return Pooled(
        len(rows), sum(r.boards for r in rows), mean, mean - half, mean + half, (w, t, lost)
    )


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def markdown(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| game | seed | bot | opponent | boards | win rate | W-T-L | ms (bot / opponent) | file |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.game} | {r.seed} | `{r.a}` | `{r.b}` | {r.boards} | {_pct(r.mean)} "
            f"[{100 * r.low:.1f}, {100 * r.high:.1f}] | {'-'.join(map(str, r.wtl))} | "
            f"{r.ms[0]:.0f} / {r.ms[1]:.0f} | `{r.file}` |"
        )
    return "\n".join(lines)


GENERATED = "<!-- the table below: python benchmarks/results_table.py FOLDER -->"
"""The line of a folder's README.md after which its table is this script's output."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--game", help="only this game's files")
    ap.add_argument("--bot", help="only the matchups of this bot (its spec, exactly)")
    ap.add_argument("--against", help="only the matchups against this opponent")
    ap.add_argument("--pool", metavar="GLOB", help="pool the files whose names match")
    args = ap.parse_args(argv)
    rows = read_rows(args.folder)
    if args.game:
        rows = [r for r in rows if r.game == args.game]
    if args.bot:
        rows = [r for r in rows if r.a == args.bot]
    if args.against:
        rows = [r for r in rows if r.b == args.against]
    if args.pool:
        chosen = [r for r in rows if fnmatch.fnmatch(r.file, args.pool)]
        try:
            p = pool(chosen)
        except ValueError as exc:
            print(f"results_table: {exc}", file=sys.stderr)
            return 2
        print(markdown(chosen))
        print()
        print(
            f"pooled: {p.runs} runs, {p.boards} boards, {_pct(p.mean)} "
            f"[{100 * p.low:.1f}, {100 * p.high:.1f}], {'-'.join(map(str, p.wtl))}"
        )
        return 0
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
