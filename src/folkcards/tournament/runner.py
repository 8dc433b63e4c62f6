"""Running a duplicate tournament: locally on processes, or on a Ray cluster.

:func:`run_tournament` cuts the work into one job per (matchup, board), runs the jobs on
the chosen backend, puts the results back in job order and summarizes them. Every job's
randomness comes from the seed and the job's position, never from the worker or the
order of completion, so the same seed gives the same results on one core, on all cores
and on Ray (only the measured times differ).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from folkcards.raycluster import ray_session
from folkcards.tournament.duplicate import TournamentConfig, play_board
from folkcards.tournament.stats import FEW_BOARDS, bootstrap_ci, mean_ci

Progress = Callable[[int, int], None]
Job = tuple[int, int, int]
"""One unit of work: (index of bot A, index of bot B, board)."""


def jobs_of(config: TournamentConfig) -> list[Job]:
    """Every job, in the order results are reported."""
    return [(a, b, board) for a, b in config.matchups() for board in range(config.boards)]


def _run_job(config: TournamentConfig, job: Job) -> dict[str, Any]:
    return play_board(config, (job[0], job[1]), job[2])


def run_local(
    config: TournamentConfig, workers: int | None = None, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """All boards on local processes (``workers`` = cores by default; 1 = in this process)."""
    jobs = jobs_of(config)
    workers = workers or os.cpu_count() or 1
    results: list[dict[str, Any] | None] = [None] * len(jobs)
    if workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            results[i] = _run_job(config, job)
            if progress:
                progress(i + 1, len(jobs))
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            pending: dict[Future[dict[str, Any]], int] = {
                pool.submit(_run_job, config, job): i for i, job in enumerate(jobs)
            }
            done_count = 0
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    results[pending.pop(fut)] = fut.result()
                    done_count += 1
                    if progress:
                        progress(done_count, len(jobs))
    return [r for r in results if r is not None]


def run_ray(
    config: TournamentConfig,
    address: str | None = None,
    progress: Progress | None = None,
    num_cpus: int | None = None,
) -> list[dict[str, Any]]:
    """All boards as Ray tasks: on the cluster at ``address``, or on an embedded local Ray.

    Cluster nodes need folkcards installed (``pip install 'folkcards[ray]'``). A Ray
    already initialized in this process is used as it is and left running.
    """
    with ray_session(address, num_cpus) as ray:
        remote = ray.remote(_run_job)
        jobs = jobs_of(config)
        cfg = ray.put(config)
        refs = [remote.remote(cfg, job) for job in jobs]
        index = {ref: i for i, ref in enumerate(refs)}
        results: list[dict[str, Any] | None] = [None] * len(jobs)
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                results[index[ref]] = ray.get(ref)
            if progress:
                progress(len(refs) - len(pending), len(refs))
        return [r for r in results if r is not None]


# --- summary ------------------------------------------------------------------------------


def _win_point(margin: float) -> float:
    return 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5


def board_shares(results: Sequence[dict[str, Any]], pair: tuple[int, int]) -> dict[int, float]:
    """Bot A's share of the plays of each board of matchup ``pair`` (ties ½), by board."""
    out = {}
    for r in results:
        if r["pair"] == list(pair):
            out[r["board"]] = sum(_win_point(p["margin"]) for p in r["plays"]) / len(r["plays"])
    return out


def paired_comparisons(
    config: TournamentConfig, results: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Every pair of bots X, Y measured against the same opponent C on the same boards:
    the mean over those boards of (X's share against C) − (Y's share against C), with a
    percentile bootstrap interval over the boards (resampled together, so the luck of
    each deck cancels in the difference)."""
    n = len(config.bots)
    share: dict[tuple[int, int], dict[int, float]] = {}  # (bot, opponent) -> board -> share
    for a, b in config.matchups():
        by_board = board_shares(results, (a, b))
        share[a, b] = by_board
        share[b, a] = {k: 1.0 - v for k, v in by_board.items()}
    out = []
    for c in range(n):
        others = [x for x in range(n) if x != c and share.get((x, c))]
        for i, x in enumerate(others):
            for y in others[i + 1 :]:
                boards = sorted(share[x, c].keys() & share[y, c].keys())
                if not boards:
                    continue
                diffs = [share[x, c][k] - share[y, c][k] for k in boards]
                out.append(
                    {
                        "a": config.bots[x],
                        "b": config.bots[y],
                        "against": config.bots[c],
                        "boards": len(boards),
                        "too_few_boards": len(boards) < FEW_BOARDS,
                        "difference": bootstrap_ci(diffs).to_dict(),
                    }
                )
    return out


def summarize(config: TournamentConfig, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per matchup: win rate of A (a percentile bootstrap interval over boards, which
    stays in [0, 1]), mean scores and margins (Student-t intervals over boards), W/T/L,
    decisions and milliseconds per decision of each bot, and whether the boards are too
    few for the intervals to mean much; paired comparisons of bots measured against the
    same opponent on the same boards; a digest of every outcome."""
    matchups = []
    for a, b in config.matchups():
        boards = [r for r in results if r["pair"] == [a, b]]
        if not boards:
            continue
        wins = [sum(_win_point(p["margin"]) for p in r["plays"]) / len(r["plays"]) for r in boards]
        margin = [sum(p["margin"] for p in r["plays"]) / len(r["plays"]) for r in boards]
        per_deal: list[list[float]] = [[], []]
        for side in (0, 1):
            for r in boards:
                per_deal[side].append(
                    sum(p["means"][side] / p["deals"] for p in r["plays"]) / len(r["plays"])
                )
        plays = [p for r in boards for p in r["plays"]]
        wtl = [
            sum(p["margin"] > 0 for p in plays),
            sum(p["margin"] == 0 for p in plays),
            sum(p["margin"] < 0 for p in plays),
        ]
        decisions = [sum(p["decisions"][s] for p in plays) for s in (0, 1)]
        seconds = [sum(p["seconds"][s] for p in plays) for s in (0, 1)]
        matchups.append(
            {
                "a": config.bots[a],
                "b": config.bots[b],
                "boards": len(boards),
                "plays": len(plays),
                "deals": sum(p["deals"] for p in plays),
                "too_few_boards": len(boards) < FEW_BOARDS,
                "win_rate": bootstrap_ci(wins).to_dict(),
                "wins_ties_losses": wtl,
                "margin": mean_ci(margin).to_dict(),
                "score_per_deal": [mean_ci(per_deal[0]).to_dict(), mean_ci(per_deal[1]).to_dict()],
                "decisions": decisions,
                "ms_per_decision": [
                    round(1000.0 * seconds[s] / decisions[s], 3) if decisions[s] else 0.0
                    for s in (0, 1)
                ],
            }
        )
    return {
        "game": config.game_name,
        "variant": dict(config.variant),
        "bots": list(config.bots),
        "mode": config.mode,
        "boards": config.boards,
        "seed": config.seed,
        "intervals": {
            "confidence": 0.95,
            "win_rate": "percentile bootstrap over boards",
            "margin": "student-t over boards",
            "few_boards": FEW_BOARDS,
        },
        "matchups": matchups,
        "paired": paired_comparisons(config, results),
        "digest": digest(results),
    }


def outcomes(results: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Each play's outcome without its timings (what the seed determines)."""
    for r in results:
        for p in r["plays"]:
            yield {
                "pair": r["pair"],
                "board": r["board"],
                "arrangement": p["arrangement"],
                "score": p["score"],
                "decisions": p["decisions"],
                "record": p["record"],
            }


def digest(results: Sequence[dict[str, Any]]) -> str:
    """A SHA-256 over every outcome and record (timings excluded): equal digests mean the
    tournaments played exactly the same actions."""
    h = hashlib.sha256()
    for o in outcomes(results):
        h.update(json.dumps(o, sort_keys=True).encode())
    return h.hexdigest()


def run_tournament(
    config: TournamentConfig,
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: Progress | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run a tournament; returns its summary and the raw per-board results."""
    if backend == "ray":
        results = run_ray(config, address, progress, num_cpus=workers)
    elif backend == "local":
        results = run_local(config, workers, progress)
    else:
        raise ValueError(f"unknown backend {backend!r} (valid: local, ray)")
    return summarize(config, results), results
