"""ms a decision of each bot, by phase, on the same decisions.

    python benchmarks/phase_ms.py sasku --bots bsearch,bsearch:worlds=192 --deals 12

Deals seeded by ``--seed`` are played by the heuristic; at every decision with a choice,
each bot of ``--bots`` (in turns, one process) decides from the seat's observation and its
time is kept under the decision's phase. Printed: mean ms per phase and over every decision,
and how many decisions each phase had. One process and one core: run it on a quiet machine
(the time a search bot takes is its wall time)."""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from typing import Any

from rich.console import Console
from rich.table import Table

from folkcards.bots.registry import make_bot
from folkcards.bots.search import quick_choice
from folkcards.games import GAMES


def measure(
    game: str, specs: list[str], deals: int, seed: int
) -> dict[str, dict[str, list[float]]]:
    """Per bot, per phase, the seconds of each decision with a choice."""
    bots = [make_bot(s) for s in specs]
    times: dict[str, dict[str, list[float]]] = {s: defaultdict(list) for s in specs}
    warm: Any = GAMES[game].random_deal(random.Random(seed - 1))
    while len(warm.legal_actions()) < 2:
        warm.apply(warm.legal_actions()[0])
    for bot in bots:  # compile and load the kernels before timing
        bot.evaluate(warm.observation(warm.to_act), random.Random(0))
    for d in range(deals):
        rng = random.Random(f"phase-ms:{game}:{seed}:{d}")
        state: Any = GAMES[game].random_deal(rng, dealer=d % 4)
        n = 0
        while not state.is_over:
            obs = state.observation(state.to_act)
            if len(obs.legal) > 1:
                for i in range(len(bots)):
                    k = (i + n) % len(bots)  # who goes first takes turns
                    t = time.perf_counter()
                    bots[k].evaluate(obs, random.Random(n))
                    times[specs[k]][obs.phase].append(time.perf_counter() - t)
                n += 1
            state.apply(quick_choice(obs, rng))
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(GAMES))
    ap.add_argument("--bots", default="bsearch")
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    specs = args.bots.split(",")
    times = measure(args.game, specs, args.deals, args.seed)
    phases = sorted({p for t in times.values() for p in t}, key=lambda p: -len(times[specs[0]][p]))
    table = Table(title=f"{args.game}: ms a decision with a choice, {args.deals} deals")
    table.add_column("bot")
    for p in phases:
        table.add_column(f"{p} ({len(times[specs[0]][p])})", justify="right")
    table.add_column("every decision", justify="right")
    for spec in specs:
        cells = []
        for p in phases:
            ts = times[spec][p]
            cells.append(f"{1000 * sum(ts) / len(ts):.1f}")
        every = [x for ts in times[spec].values() for x in ts]
        table.add_row(spec, *cells, f"{1000 * sum(every) / len(every):.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()
