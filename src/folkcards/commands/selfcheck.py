"""``folkcards selfcheck [GAME ...]``: random deals and matches, the engine contract checked
after every action (:mod:`folkcards.engine.selfcheck`; docs/selfcheck.md).

Plays ``--deals N`` deals and ``--matches M`` matches of each game (all when none is named),
cycling through every value of every variant option, on all local cores or on Ray; shows a
progress bar, then a table per game; writes each failure's exact record to ``--out`` and
says how to reproduce it. Exit status 0 when nothing failed, 1 on failures, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from folkcards.engine.api import MalformedRecord
from folkcards.engine.selfcheck import (
    DEFAULT_DEEP_EVERY,
    GameSummary,
    JobResult,
    VariantTarget,
    check_record,
    jobs_of,
    plan_variants,
    run_selfcheck,
)


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "selfcheck",
        help="random deals and matches with the engine contract checked after every action",
        description="Plays random deals and matches of every variant option value and checks "
        "after every action: one seat to act, the legal set (non-empty, unique, sorted, "
        "parsing back), observations, card conservation, illegal actions refused without a "
        "trace; every K-th action also determinization, the public view, pickling, cloning "
        "and replaying the record so far; every deal's and match's record replays to its "
        "result. Exit status 0: no failure; 1: failures (records written to --out); 2: bad "
        "input.",
    )
    p.add_argument("games", nargs="*", metavar="GAME", help="games to check (default: all)")
    p.add_argument("--deals", type=int, default=100, help="random deals per game (default 100)")
    p.add_argument("--matches", type=int, default=4, help="random matches per game (default 4)")
    p.add_argument("--seed", type=int, default=0, help="seed of every deal and check (default 0)")
    p.add_argument(
        "--start",
        type=int,
        default=0,
        metavar="I",
        help="index of the first deal (and match): --deals 1 --start I replays deal I of a run",
    )
    p.add_argument(
        "--deep-every",
        type=int,
        default=None,
        metavar="K",
        help="deep checks (determinize, public view, pickle, clone, replay so far) at every "
        f"K-th action (default {DEFAULT_DEEP_EVERY}, with --record 1; 1 = every action, "
        "0 = only at deal ends)",
    )
    p.add_argument(
        "--variant",
        default=None,
        metavar="JSON",
        help="play only this variant, e.g. '{\"players\": 3}' (needs exactly one GAME)",
    )
    p.add_argument(
        "--max-match-deals", type=int, default=60, help="cap on deals per match (default 60)"
    )
    p.add_argument(
        "--max-failures",
        type=int,
        default=20,
        help="failure records written per game (default 20; all are counted)",
    )
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
        default="selfcheck-failures",
        metavar="DIR",
        help="directory for failure records (default selfcheck-failures/)",
    )
    p.add_argument(
        "--record",
        default=None,
        metavar="FILE",
        help="instead of random deals, re-check a stored record (a failure file) with every "
        "check at every action",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _error(message: str) -> int:
    print(f"folkcards selfcheck: {message}", file=sys.stderr)
    return 2


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    console = Console(file=stream)
    if not console.is_terminal:
        console = Console(file=stream, width=120)
    return console


def _validate(args: argparse.Namespace) -> tuple[list[str], dict[str, Any] | None] | str:
    """The games and the fixed variant, or an error message (exit status 2)."""
    from folkcards.games import GAMES

    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        return f"unknown game {unknown[0]!r} (valid: {', '.join(GAMES)})"
    games = list(dict.fromkeys(args.games)) or list(GAMES)
    for name, value in (("--deals", args.deals), ("--matches", args.matches)):
        if value < 0:
            return f"{name} must be 0 or more"
    if args.deals + args.matches == 0:
        return "nothing to check: --deals and --matches are both 0"
    if args.start < 0 or args.deep_every < 0 or args.max_match_deals < 1:
        return "--start and --deep-every must be 0 or more, --max-match-deals at least 1"
    fixed = None
    if args.variant is not None:
        if len(games) != 1:
            return "--variant needs exactly one GAME"
        try:
            fixed = json.loads(args.variant)
        except json.JSONDecodeError as exc:
            return f"--variant is not JSON: {exc}"
        if not isinstance(fixed, dict):
            return "--variant must be a JSON object"
        game = GAMES[games[0]]
        try:
            game.normalize_variant(fixed)
        except MalformedRecord as exc:
            options = ", ".join(o.key for o in game.variant_options) or "none"
            return f"bad variant for {game.name}: {exc} (options: {options})"
    return games, fixed


def _reproduce(args: argparse.Namespace, game: str, kind: str, index: int | None) -> str:
    """The command that plays the failing deal (or match) again with the same checks."""
    parts = ["folkcards", "selfcheck", game, "--seed", str(args.seed)]
    if index is None:  # a variant plan problem: any run of the game shows it
        return shlex.join([*parts, "--deals", "1", "--matches", "0"])
    count = ("--deals", "1", "--matches", "0")
    if kind == "matches":
        count = ("--deals", "0", "--matches", "1")
    parts += [*count, "--start", str(index), "--deep-every", str(args.deep_every)]
    parts += ["--workers", "1"]
    if kind == "matches":
        parts += ["--max-match-deals", str(args.max_match_deals)]
    if args.variant is not None:
        parts += ["--variant", args.variant]
    return shlex.join(parts)


def _commands(args: argparse.Namespace, path: Path, failure: dict[str, Any]) -> list[str]:
    """How to reproduce a failure: replay its record, re-check it, play it again."""
    again = _reproduce(args, failure["game"], failure["kind"], failure["index"])
    if failure["record"] is None:
        return [again]
    quoted = shlex.quote(str(path))
    return [f"folkcards replay {quoted}", f"folkcards selfcheck --record {quoted}", again]


class FailureWriter:
    """Writes failure files (at most ``cap`` per game) and remembers them for the report."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Path(args.out)
        self.cap = args.max_failures
        self.written: dict[str, list[tuple[Path, dict[str, Any]]]] = {}

    def write(self, failure: dict[str, Any]) -> None:
        """One failure file: the record itself, with the self-check's facts in ``meta``."""
        game = failure["game"]
        files = self.written.setdefault(game, [])
        if len(files) >= self.cap:
            return
        self.out.mkdir(parents=True, exist_ok=True)
        index = failure["index"]
        name = f"{game}-{failure['kind']}-{index if index is not None else 'run'}"
        path = self.out / f"{name}-{failure['check']}.json"
        info = {
            "check": failure["check"],
            "message": failure["message"],
            "seed": self.args.seed,
            "kind": failure["kind"],
            "index": index,
            "action": failure["action"],
            "deep_every": self.args.deep_every,
            "reproduce": _commands(self.args, path, failure),
        }
        if failure.get("detail"):
            info["traceback"] = failure["detail"]
        record = dict(failure["record"] or {"game": game})
        meta = dict(record.get("meta") or {})
        meta["selfcheck"] = info
        record["meta"] = meta
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        files.append((path, failure))


def _plan(
    games: list[str], fixed: dict[str, Any] | None, seed: int
) -> tuple[dict[str, list[VariantTarget]], list[dict[str, Any]]]:
    from folkcards.games import GAMES

    targets: dict[str, list[VariantTarget]] = {}
    problems: list[dict[str, Any]] = []
    for name in games:
        targets[name], messages = plan_variants(GAMES[name], fixed, seed)
        for message in messages:
            problems.append(
                {
                    "game": name,
                    "kind": "variants",
                    "index": None,
                    "check": "variant.coverage",
                    "message": message,
                    "record": None,
                    "action": None,
                    "detail": "",
                }
            )
    return targets, problems


def run(args: argparse.Namespace) -> int:
    """Run the self-check; exit 0 (no failure), 1 (failures) or 2 (bad input)."""
    if args.record is not None:
        return _run_record(args)
    if args.deep_every is None:
        args.deep_every = DEFAULT_DEEP_EVERY
    checked = _validate(args)
    if isinstance(checked, str):
        return _error(checked)
    games, fixed = checked
    targets, problems = _plan(games, fixed, args.seed)
    writer = FailureWriter(args)
    summaries = {g: GameSummary(g, [t.label for t in targets[g]]) for g in games}
    for p in problems:
        summaries[p["game"]].failures += 1
        writer.write(p)
    jobs = jobs_of(
        games,
        args.deals,
        args.matches,
        args.seed,
        args.deep_every,
        targets,
        start=args.start,
        max_match_deals=args.max_match_deals,
        max_failures=args.max_failures,
    )
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        TextColumn("{task.description:<11}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:>7.1f} {task.fields[unit]}"),
        TextColumn("{task.fields[failures]} failures"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=_console(stderr=True),
        disable=args.quiet,
    )
    per_game = args.deals + args.matches
    tasks = {
        g: progress.add_task(g, total=per_game, rate=0.0, failures=0, unit="deals/s/core")
        for g in games
    }
    total = progress.add_task(
        "all", total=per_game * len(games), rate=0.0, failures=len(problems), unit="deals/s"
    )
    start = time.monotonic()

    def on_result(res: JobResult) -> None:
        g = summaries[res.game]
        for failure in res.failures:
            writer.write(failure)
        dealt = g.counters.deals + g.counters.match_deals
        rate = dealt / max(g.seconds, 1e-9)
        progress.update(tasks[res.game], advance=res.count, rate=rate, failures=g.failures)
        everything = sum(s.counters.deals + s.counters.match_deals for s in summaries.values())
        progress.update(
            total,
            advance=res.count,
            rate=everything / max(time.monotonic() - start, 1e-9),
            failures=sum(s.failures for s in summaries.values()),
        )

    try:
        with progress:
            digest = run_selfcheck(
                jobs,
                summaries,
                backend="ray" if args.ray is not None else "local",
                workers=args.workers,
                address=args.ray or None,
                on_result=on_result,
            )
    except RuntimeError as exc:
        print(f"folkcards selfcheck: {exc}", file=sys.stderr)
        return 1
    elapsed = time.monotonic() - start
    failures = sum(s.failures for s in summaries.values())
    if args.json:
        print(
            json.dumps(
                {
                    "seed": args.seed,
                    "deep_every": args.deep_every,
                    "games": [s.to_dict() for s in summaries.values()],
                    "failures": failures,
                    "seconds": round(elapsed, 3),
                    "digest": digest,
                },
                indent=2,
            )
        )
    else:
        _print_table(args, summaries, elapsed, digest)
    _print_failures(writer, failures, sys.stderr if args.json else sys.stdout)
    return 1 if failures else 0


def _print_table(
    args: argparse.Namespace, summaries: dict[str, GameSummary], elapsed: float, digest: str
) -> None:
    from rich.table import Table

    deep = (
        f"every {args.deep_every}th action + deal ends"
        if args.deep_every > 1
        else ("every action" if args.deep_every == 1 else "deal ends only")
    )
    table = Table(title=f"folkcards selfcheck · seed {args.seed}", title_justify="left")
    for col in ("game", "values", "deals", "matches", "match deals", "actions", "deep"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for col in ("failures", "seconds", "ms/deal"):
        table.add_column(col, justify="right")
    for s in summaries.values():
        c = s.counters
        per = f"{1000 * s.deal_seconds / c.deals:.2f}" if c.deals else "–"
        table.add_row(
            s.game,
            str(len(s.targets)),
            str(c.deals),
            str(c.matches),
            str(c.match_deals),
            str(c.actions),
            str(c.deep),
            f"[red]{s.failures}[/red]" if s.failures else "0",
            f"{s.seconds:.1f}",
            per,
        )
    console = _console()
    console.print(table)
    console.print(
        f"cheap checks: every action · deep checks (determinize, public view, pickle, clone, "
        f"replay): {deep}",
        highlight=False,
    )
    console.print(
        f"{sum(s.counters.deals + s.counters.match_deals for s in summaries.values())} deals "
        f"in {elapsed:.1f} s wall time · seconds = worker time · digest {digest[:16]}",
        highlight=False,
    )


def _print_failures(writer: FailureWriter, failures: int, stream: TextIO) -> None:
    """The failures written and how to reproduce each (on stderr after ``--json``)."""
    if not failures:
        return
    stored = sum(len(v) for v in writer.written.values())
    lines = [f"{failures} failures; {stored} records written to {writer.out}/ — reproduce with:"]
    for files in writer.written.values():
        for path, failure in files:
            lines.append(f"  {failure['game']}: {failure['check']}: {failure['message'][:160]}")
            lines += [f"    {command}" for command in _commands(writer.args, path, failure)]
    print("\n".join(lines), file=stream)


def _run_record(args: argparse.Namespace) -> int:
    """``--record FILE``: every check at every action along a stored record."""
    try:
        obj = json.loads(Path(args.record).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return _error(f"cannot read {args.record}: {exc}")
    found = check_record(obj, deep_every=1 if args.deep_every is None else args.deep_every)
    if not found:
        print(f"{args.record}: every check passes at every action")
        return 0
    for f in found:
        where = f"deal {f.index}" if f.index is not None else "record"
        print(f"{args.record}: {where}: {f.check}: {f.message}")
    return 1
