"""The 10⁶-deal self-check of every game, run in resumable chunks.

    python benchmarks/selfcheck_million.py run [GAME …] [--hours H] [--workers W]
    python benchmarks/selfcheck_million.py report

One million random deals (and a thousand matches) per game, every variant option value,
checked by ``folkcards selfcheck`` with the deep checks at every 32nd action. On a 2-core
machine that is several core-hours per game, more than one sitting, so the run is cut
into chunks of ``CHUNK`` deals (``--start`` of the self-check: deal *i* is the same deal
whichever chunk plays it) and each finished chunk's JSON summary is kept in
``benchmarks/results/selfcheck-million/``; ``run`` plays the chunks not yet there, the
games in turn, until ``--hours`` have passed (a chunk is never cut short), and
``report`` adds the chunks up into the table of ``docs/selfcheck.md``. Failure records
go to ``benchmarks/results/selfcheck-million/failures/``.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

GAMES = ("sasku", "sheepshead", "scopone", "huutopussi", "satat")
DEALS = 1_000_000
CHUNK = 20_000
MATCHES_PER_CHUNK = 20
SEED = 1_000_000
DEEP_EVERY = 32
OUT = Path(__file__).resolve().parent / "results" / "selfcheck-million"


def chunk_path(game: str, start: int) -> Path:
    return OUT / f"{game}-{start:07d}.json"


def missing(game: str) -> list[int]:
    return [s for s in range(0, DEALS, CHUNK) if not chunk_path(game, s).exists()]


def command(game: str, start: int, workers: int) -> list[str]:
    return [
        sys.executable,
        "-c",
        "import sys; from folkcards.cli import main; sys.exit(main(sys.argv[1:]))",
        "selfcheck",
        game,
        "--deals",
        str(CHUNK),
        "--matches",
        str(MATCHES_PER_CHUNK),
        "--start",
        str(start),
        "--seed",
        str(SEED),
        "--deep-every",
        str(DEEP_EVERY),
        "--workers",
        str(workers),
        "--out",
        str(OUT / "failures"),
        "--json",
        "--quiet",
    ]


def run_chunk(game: str, start: int, workers: int) -> dict[str, Any]:
    cmd = command(game, start, workers)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    summary: dict[str, Any] = json.loads(done.stdout)
    summary["chunk"] = {
        "start": start,
        "wall_seconds": round(wall, 1),
        "workers": workers,
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()} {platform.python_version()}",
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip(),
        "command": " ".join(["folkcards", *cmd[3:]]),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    chunk_path(game, start).write_text(json.dumps(summary, indent=1) + "\n", "utf-8")
    return summary


def run(games: list[str], hours: float, workers: int) -> None:
    deadline = time.monotonic() + hours * 3600
    queues = {g: missing(g) for g in games}
    while any(queues.values()) and time.monotonic() < deadline:
        for g in games:
            if not queues[g] or time.monotonic() >= deadline:
                continue
            start = queues[g].pop(0)
            s = run_chunk(g, start, workers)
            row = s["games"][0]
            print(
                f"{g} {start}: {row['deals']} deals, {row['failures']} failures, "
                f"{row['ms_per_deal']} ms/deal",
                flush=True,
            )


def report() -> None:
    print("| game | chunks | deals | matches (deals) | actions | deep | failures | core-hours |")
    print("|---|---|---|---|---|---|---|---|")
    for g in GAMES:
        rows = [json.loads(p.read_text("utf-8")) for p in sorted(OUT.glob(f"{g}-*.json"))]
        if not rows:
            continue
        games = [r["games"][0] for r in rows]
        total = {
            k: sum(x[k] for x in games)
            for k in ("deals", "matches", "match_deals", "actions", "deep_checks", "failures")
        }
        seconds = sum(x["deal_seconds"] + x["match_seconds"] for x in games)
        print(
            f"| {g} | {len(rows)}/{DEALS // CHUNK} | {total['deals']:,} | "
            f"{total['matches']:,} ({total['match_deals']:,}) | {total['actions']:,} | "
            f"{total['deep_checks']:,} | {total['failures']} | {seconds / 3600:.2f} |"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run")
    r.add_argument("games", nargs="*", metavar="GAME")
    r.add_argument("--hours", type=float, default=1.0)
    r.add_argument("--workers", type=int, default=1)
    sub.add_parser("report")
    args = p.parse_args()
    if args.what == "run":
        unknown = sorted(set(args.games) - set(GAMES))
        if unknown:
            p.error(f"unknown games {unknown}; the games are {', '.join(GAMES)}")
        run(args.games or list(GAMES), args.hours, args.workers)
    else:
        report()


if __name__ == "__main__":
    main()
