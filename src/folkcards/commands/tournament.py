"""``folkcards tournament GAME --bots A,B …``: duplicate-deal tournaments between bots.

Plays ``--deals N`` boards (or ``--matches N`` whole matches) of GAME, each board once per
seat arrangement of every pair of bots, on all local cores or on Ray (``--ray
[ADDRESS]``); prints win rates with 95 % confidence intervals (a percentile bootstrap
over boards), paired comparisons of bots met by the same opponent on the same boards,
mean scores and time per decision; writes every record (``records.jsonl``) and the summary (``summary.json``,
``summary.csv``) to ``--out``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

from folkcards.bots.base import BotError
from folkcards.bots.registry import make_bot
from folkcards.engine.api import FolkcardsError
from folkcards.rl import register_bots_for
from folkcards.tournament.duplicate import TournamentConfig
from folkcards.tournament.runner import run_tournament


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "tournament",
        help="duplicate-deal tournament between bots (local cores or Ray)",
        description="Duplicate deals: every deck is played with the bots' seats swapped or "
        "rotated, so the luck of the cards cancels. Reports win rates with 95% intervals "
        "(a percentile bootstrap over boards) and paired comparisons.",
    )
    p.add_argument("game", help="the game to play")
    p.add_argument(
        "--bots",
        required=True,
        help="comma-separated bot specs, e.g. heuristic,random or search:iters=200,heuristic "
        "(bots: random, heuristic, search, pimc, ismcts, bpimc, bsearch, openspiel; options "
        "iters=N ms=T policy=P prior=W only=P1+P2 keep=Z c=X; batched: worlds=D k=K noise=P read=M)",
    )
    p.add_argument(
        "--variant",
        nargs="*",
        default=[],
        metavar="KEY=VALUE",
        help='variant options (values read as JSON when they parse: true, 3, "x")',
    )
    count = p.add_mutually_exclusive_group()
    count.add_argument("--deals", type=int, help="boards of single deals (default 100)")
    count.add_argument("--matches", type=int, help="boards of whole matches instead of deals")
    p.add_argument("--max-match-deals", type=int, default=60, help="cap on deals per match")
    p.add_argument("--seed", type=int, default=0, help="seed of the decks and the bots")
    p.add_argument("--workers", type=int, default=None, help="local processes (default: cores)")
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run on Ray: the cluster at ADDRESS, or an embedded local Ray without one",
    )
    p.add_argument(
        "--out",
        default=None,
        help="directory for records and summary (default: tournament-GAME-seedS)",
    )
    p.add_argument("--no-records", action="store_true", help="do not write the deal records")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def parse_variant(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` items as a variant dict (JSON values where they parse, else text)."""
    out: dict[str, Any] = {}
    for item in items:
        key, eq, raw = item.partition("=")
        if not eq or not key:
            raise FolkcardsError(f"variant option {item!r} must be KEY=VALUE")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


class ProgressBar:
    """``rich``'s progress bar (boards done, elapsed time, ETA) on standard error; nothing
    when disabled or when rich is not installed. A context manager: leaving it stops the
    bar, so an error does not leave a half-drawn line."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> ProgressBar:
        if not self.enabled:
            return self
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
        except ImportError:  # the tui extra is not installed: no bar
            return self
        self.bar = Progress(
            TextColumn("boards"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self.bar.start()
        return self

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            return
        if self.task is None:
            self.task = self.bar.add_task("boards", total=total)
        self.bar.update(self.task, completed=done, total=total)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _error(message: str) -> int:
    print(f"folkcards tournament: {message}", file=sys.stderr)
    return 2


def build_config(args: argparse.Namespace) -> TournamentConfig:
    """The tournament the arguments describe; FolkcardsError on bad input."""
    from folkcards.games import get_game

    game = get_game(args.game)
    specs = tuple(s.strip() for s in args.bots.split(",") if s.strip())
    if len(specs) < 2:
        raise BotError("--bots needs at least two bot specs, e.g. heuristic,random")
    register_bots_for(specs)
    for spec in specs:
        make_bot(spec)
    variant = parse_variant(args.variant)
    game.normalize_variant(variant)
    boards = (
        args.matches if args.matches is not None else (100 if args.deals is None else args.deals)
    )
    if boards < 1:
        raise FolkcardsError("the number of deals or matches must be at least 1")
    return TournamentConfig(
        game=game.name,
        bots=specs,
        boards=boards,
        seed=args.seed,
        variant=variant,
        mode="matches" if args.matches is not None else "deals",
        max_match_deals=args.max_match_deals,
        records=not args.no_records,
    )


def _pct(x: float) -> str:
    return f"{x * 100:.1f}"


def format_table(summary: dict[str, Any]) -> str:
    """The summary as text within 80 columns: the bots numbered, one row per matchup (A's
    win rate with its interval, W-T-L, score per deal and ms per decision of each bot),
    the paired comparisons, how the intervals were made, and a warning when the boards
    are too few for them to mean much."""
    mode = "matches" if summary["mode"] == "matches" else "deals"
    bots: list[str] = summary["bots"]
    number = {name: i + 1 for i, name in enumerate(bots)}
    lines = [
        f"{summary['game']} · {summary['boards']} duplicate boards of {mode} · seed "
        f"{summary['seed']}"
        + (f" · variant {json.dumps(summary['variant'])}" if summary["variant"] else ""),
        *(f"  {i + 1}  {name}" for i, name in enumerate(bots)),
        "",
        f"{'A v B':6s}{'A win':>6s}  {'95% CI':15s}{'W-T-L':>13s} {'A/deal':>8s} "
        f"{'B/deal':>8s} {'ms/dec A':>9s} {'ms/dec B':>9s}",
    ]
    few = False
    for m in summary["matchups"]:
        w = m["win_rate"]
        wtl = "-".join(str(x) for x in m["wins_ties_losses"])
        flag = "*" if m.get("too_few_boards") else " "
        few = few or flag == "*"
        pair = f"{number[m['a']]} v {number[m['b']]}"
        ci = f"[{_pct(w['low'])}, {_pct(w['high'])}]{flag}"
        lines.append(
            f"{pair:6s}{_pct(w['mean']) + '%':>6s}  {ci:15s}{wtl:>13s} "
            f"{m['score_per_deal'][0]['mean']:8.3f} {m['score_per_deal'][1]['mean']:8.3f} "
            f"{m['ms_per_decision'][0]:9.2f} {m['ms_per_decision'][1]:9.2f}"
        )
    paired = summary.get("paired", [])
    if paired:
        lines += ["", "paired, on the same boards against the same opponent:"]
        for p in paired:
            d = p["difference"]
            flag = "*" if p.get("too_few_boards") else ""
            few = few or bool(flag)
            lines.append(
                f"  {number[p['a']]} − {number[p['b']]} against {number[p['against']]}: "
                f"{d['mean'] * 100:+.1f} points of win rate "
                f"[{d['low'] * 100:+.1f}, {d['high'] * 100:+.1f}]{flag} over {p['boards']} boards"
            )
    lines += [
        "",
        "win rate: A's share of the plays (a tie counts ½); 95% CI: percentile",
        "bootstrap over boards (the plays of a board share its luck).",
    ]
    if few:
        threshold = summary.get("intervals", {}).get("few_boards", 30)
        lines.append(
            f"* too few boards (fewer than {threshold}): the interval means little; play more."
        )
    lines.append(f"digest {summary['digest'][:16]}")
    return "\n".join(lines)


def write_outputs(out: Path, summary: dict[str, Any], results: list[dict[str, Any]]) -> None:
    """records.jsonl (one record per play, with its seating in ``meta``), summary.json,
    summary.csv."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "records.jsonl", "w", encoding="utf-8") as fh:
        for r in results:
            for p in r["plays"]:
                if p["record"] is not None:
                    fh.write(json.dumps(p["record"], ensure_ascii=False) + "\n")
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    with open(out / "summary.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(
            [
                "game",
                "mode",
                "a",
                "b",
                "boards",
                "plays",
                "win_rate",
                "ci_low",
                "ci_high",
                "wins",
                "ties",
                "losses",
                "margin",
                "a_score_per_deal",
                "b_score_per_deal",
                "a_ms_per_decision",
                "b_ms_per_decision",
                "ci_method",
                "too_few_boards",
            ]
        )
        for m in summary["matchups"]:
            w.writerow(
                [
                    summary["game"],
                    summary["mode"],
                    m["a"],
                    m["b"],
                    m["boards"],
                    m["plays"],
                    m["win_rate"]["mean"],
                    m["win_rate"]["low"],
                    m["win_rate"]["high"],
                    *m["wins_ties_losses"],
                    m["margin"]["mean"],
                    m["score_per_deal"][0]["mean"],
                    m["score_per_deal"][1]["mean"],
                    *m["ms_per_decision"],
                    m["win_rate"]["method"],
                    m["too_few_boards"],
                ]
            )


def run(args: argparse.Namespace) -> int:
    """Run the tournament; exit 2 on bad input (unknown game, bot or variant)."""
    try:
        config = build_config(args)
    except FolkcardsError as exc:
        return _error(str(exc))
    try:
        with ProgressBar(not args.quiet) as bar:
            summary, results = run_tournament(
                config,
                backend="ray" if args.ray is not None else "local",
                workers=args.workers,
                address=args.ray or None,
                progress=bar,
            )
    except RuntimeError as exc:
        print(f"folkcards tournament: {exc}", file=sys.stderr)
        return 1
    out = Path(args.out or f"tournament-{config.game_name}-seed{config.seed}")
    write_outputs(out, summary, results)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_table(summary))
        print(f"records and summary in {out}/")
    return 0
