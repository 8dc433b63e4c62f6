"""Where a Sheepshead tournament's plays were won: by the lone bot's role in each deal.

    folkcards tournament sheepshead --bots A,B --deals 20 --seed 56 --out DIR
    python benchmarks/sheepshead_roles.py DIR/records.jsonl

A Sheepshead board is played with one bot alone in a seat against the other in the other
four (folkcards.tournament.duplicate); the lone seat wins the play when its score is above
zero (SHP-8). Each record is replayed through the engine (``load_deal``), and its plays
are grouped by the lone bot, the bot of the other seats and the lone seat's role:
``picker``, ``partner`` (SHP-6), ``defender``, or ``leaster`` (nobody picked, SHP-9.1:
only the seat that took the fewest points scores above zero). Printed per group: plays, the lone seat's share of plays
won, its mean score.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.table import Table

from folkcards.engine.records import load_deal


def role_of(result: dict[str, Any], seat: int) -> str:
    """The seat's role in a finished deal, from its result object (SHP-8, SHP-9)."""
    if result.get("picker") is None:
        return "leaster"
    if result["picker"] == seat:
        return "picker"
    return "partner" if result.get("partner") == seat else "defender"


def roles(lines: Iterable[str]) -> dict[tuple[str, str, str], list[float]]:
    """(lone bot, other bot, role) → [plays, plays won (a zero score ½), score sum]."""
    out: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for line in lines:
        record = json.loads(line)
        players = record["meta"]["players"]
        count = Counter(players)
        lone = next(b for b, c in count.items() if c == 1)
        other = next(b for b in count if b != lone)
        seat = players.index(lone)
        result = load_deal(record).result()
        score = float(result["score"][seat])
        row = out[(lone, other, role_of(result, seat))]
        row[0] += 1
        row[1] += 1.0 if score > 0 else 0.5 if score == 0 else 0.0
        row[2] += score
    return dict(out)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", help="a Sheepshead tournament's records.jsonl")
    args = ap.parse_args(argv)
    with open(args.records, encoding="utf-8") as f:
        found = roles(f)
    table = Table("lone bot", "others", "role", "plays", "won", "mean score")
    for (lone, other, role), (n, won, total) in sorted(found.items()):
        table.add_row(lone, other, role, str(int(n)), f"{won / n:.1%}", f"{total / n:+.2f}")
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
