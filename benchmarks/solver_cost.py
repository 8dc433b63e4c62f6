"""What a kernel's double-dummy solver costs, by the cards left in the hand to play.

    python benchmarks/solver_cost.py satat --cards 3,4,5,6,7 --positions 40

For each hand size, ``--positions`` positions of card play where the seat to play holds
that many cards and has a choice, reached by the heuristic bot from seeded deals (so the
same positions on every run), are encoded into one batch and solved
(``GameKernel.solve``). Printed per hand size: ms per position and positions searched
per position. ``--values FILE`` writes every row's solved score and tricks, so that two
versions of a solver can be compared for identical values (``cmp``)."""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from folkcards.batch import kernel_for
from folkcards.bots.registry import make_bot
from folkcards.engine.api import DealState
from folkcards.games import GAMES


def positions(game: str, cards: int, count: int) -> list[DealState]:
    """``count`` solvable card-play positions whose seat to play holds ``cards`` cards."""
    g = GAMES[game]
    kernel = kernel_for(game)
    assert kernel is not None
    heuristic = make_bot("heuristic")
    out: list[DealState] = []
    deal = 0
    while len(out) < count:
        state = g.random_deal(random.Random(f"solver-cost:{game}:{cards}:{deal}"))
        rng = random.Random(deal)
        deal += 1
        if deal > 200 * count:
            raise SystemExit(f"no {cards}-card positions in {game} deals")
        while not state.is_over:
            assert state.to_act is not None
            obs = state.observation(state.to_act)
            if (
                obs.phase == "play"
                and kernel.accepts(state)
                and kernel.solvable(state)
                and int(obs.hand).bit_count() == cards
                and len(obs.legal) > 1
            ):
                out.append(state.clone())
                break
            state.apply(heuristic.choose(obs, rng))
    return out


def measure(game: str, cards: int, count: int) -> tuple[float, float, dict[str, Any]]:
    """ms and positions searched per solved position, and the solved values."""
    kernel = kernel_for(game)
    assert kernel is not None
    states = positions(game, cards, count)
    base = kernel.encode(states)
    kernel.solve(kernel.build(base, np.arange(1)))  # compiled before the clock starts
    a = kernel.build(base, np.arange(len(states)))
    start = time.perf_counter()
    nodes = kernel.solve(a)
    ms = (time.perf_counter() - start) * 1000.0 / count
    values = {key: a[key].tolist() for key in ("score", "shaping")}
    return ms, nodes / count, values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=[g for g in GAMES if (k := kernel_for(g)) and k.solver])
    parser.add_argument("--cards", default="3,4,5,6", help="hand sizes, comma-separated")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--values", help="write the solved values to this JSON file")
    args = parser.parse_args(argv)
    table = Table(title=f"{args.game}: the solver from {args.positions} positions a size")
    for col in ("cards in hand", "ms a position", "positions searched"):
        table.add_column(col, justify="right")
    values = {}
    for cards in (int(c) for c in args.cards.split(",")):
        ms, nodes, values[cards] = measure(args.game, cards, args.positions)
        table.add_row(str(cards), f"{ms:.3f}", f"{nodes:,.0f}")
    Console().print(table)
    if args.values:
        with open(args.values, "w", encoding="utf-8") as f:
            json.dump(values, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
