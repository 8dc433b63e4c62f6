"""Sampled deals by their hands alone: as exact as the whole deals, and what they save.

    python benchmarks/hands_alone.py sasku --positions 40 --check 100000

A batched search in card play needs nothing of a sampled deal but its hands
(``GameKernel.encode_hands``), so a game that can draw them alone
(``Game.determinize_hands``) skips rebuilding and replaying each deal. On ``--positions``
card-play observations of seeded deals played by the heuristic (every dealer, both
``must_beat`` variants), this prints:

* the verdicts compared: ``--check`` draws (Sasku), each judged both by the whole deal
  replayed through the rules (``_build``) and by the hands alone (``_check``); any
  disagreement is printed and the run fails;
* deals drawn per second, whole and by their hands alone, timed in turns on the same
  observations (the ratio is from one run);
* ms per decision of ``--bots`` (default ``bsearch``, ``bsearch:worlds=850:policy=heuristic``)
  with the kernel taking hands alone and taking whole deals, in turns on the same
  observations and seeds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from folkcards.batch import kernel_for
from folkcards.bots.registry import make_bot
from folkcards.bots.search import quick_choice
from folkcards.engine.api import Observation
from folkcards.engine.determinize import Infeasible, Reject
from folkcards.games import GAMES


def observations(game: str, count: int) -> list[Observation]:
    """``count`` card-play observations of a seat with a choice, from seeded heuristic
    deals (every dealer; Sasku's ``must_beat`` on and off), a few per deal."""
    g = GAMES[game]
    out: list[Observation] = []
    d = 0
    while len(out) < count:
        rng = random.Random(f"hands-alone:{game}:{d}")
        variant = {"must_beat": d % 2 == 0} if game == "sasku" else {}
        state: Any = g.random_deal(rng, variant, dealer=d % 4)
        while not state.is_over and len(out) < count:
            obs = state.observation(state.to_act)
            if state.phase == "play" and len(obs.legal) > 1 and rng.random() < 0.25:
                out.append(obs)
            state.apply(quick_choice(obs, rng))
        d += 1
    return out


def check_verdicts(
    game: str, obs_list: list[Observation], draws: int, seed: int = 1
) -> tuple[int, int]:
    """Draws judged by the whole deal and by the hands alone (Sasku's ``_build`` and
    ``_check``), the observations taken in turn: (accepted, rejected). SystemExit on the
    first draw they judge apart, or whose built deal's hands are not the draw's."""
    if game != "sasku":
        return 0, 0
    from folkcards.games.sasku import determinize as det

    g = GAMES[game]
    rng = random.Random(seed)
    accepted = rejected = 0
    k = 0
    while accepted + rejected < draws:
        obs = obs_list[k % len(obs_list)]
        prepared = det._prepared(obs)
        try:
            draw = det._draw(prepared, rng, k % 4)
        except (Reject, Infeasible):
            k += 1
            continue
        verdicts: list[str | None] = []
        try:
            world = det._build(g, obs, prepared, draw, rng)
            verdicts.append(None)
        except Reject as exc:
            verdicts.append(str(exc))
        try:
            det._check(g, obs, prepared, draw)
            verdicts.append(None)
        except Reject as exc:
            verdicts.append(str(exc))
        if (verdicts[0] is None) != (verdicts[1] is None):
            sys.exit(f"verdicts differ: {verdicts} on {list(obs.history)}")
        if verdicts[0] is None and world.hands != draw.hands:
            sys.exit(f"the built deal's hands are not the draw's on {list(obs.history)}")
        accepted += verdicts[0] is None
        rejected += verdicts[0] is not None
        k += 1
    return accepted, rejected


def draws_per_second(game: str, obs_list: list[Observation], per: int) -> tuple[float, float]:
    """Deals drawn per second, whole (``determinize``) and hands alone, in turns."""
    g = GAMES[game]
    spent = [0.0, 0.0]
    for i, obs in enumerate(obs_list):
        for which in (0, 1) if i % 2 else (1, 0):
            rng = random.Random(i)
            draw = g.determinize if which == 0 else g.determinize_hands
            t = time.perf_counter()
            for _ in range(per):
                draw(obs, rng)
            spent[which] += time.perf_counter() - t
    n = per * len(obs_list)
    return n / spent[0], n / spent[1]


def decision_ms(game: str, obs_list: list[Observation], spec: str) -> tuple[float, float]:
    """ms per decision of ``spec`` with whole deals and with hands alone, in turns."""
    kernel: Any = kernel_for(game)
    bot = make_bot(spec)
    bot.evaluate(obs_list[0], random.Random(0))  # compile and warm
    spent = [0.0, 0.0]
    drawing = kernel.draws_hands
    try:
        for i, obs in enumerate(obs_list):
            for which in (0, 1) if i % 2 else (1, 0):
                kernel.draws_hands = bool(which) and drawing
                t = time.perf_counter()
                bot.evaluate(obs, random.Random(i))
                spent[which] += time.perf_counter() - t
    finally:
        kernel.draws_hands = drawing
    return spent[0] * 1000 / len(obs_list), spent[1] * 1000 / len(obs_list)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(GAMES))
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--check", type=int, default=10_000, help="draws whose verdicts to compare")
    ap.add_argument("--per", type=int, default=50, help="deals drawn per position when timed")
    ap.add_argument("--bots", default="bsearch,bsearch:worlds=850:policy=heuristic")
    args = ap.parse_args()
    console = Console()
    obs_list = observations(args.game, args.positions)
    if GAMES[args.game].determinize_hands(obs_list[0], random.Random(0)) is None:
        sys.exit(f"{args.game} draws no hands alone (Game.determinize_hands)")
    accepted, rejected = check_verdicts(args.game, obs_list, args.check)
    console.print(
        f"verdicts: {accepted + rejected:,} draws, {accepted:,} accepted and {rejected:,} "
        "rejected by both, none apart"
    )
    whole, alone = draws_per_second(args.game, obs_list, args.per)
    table = Table(title=f"{args.game}: {len(obs_list)} card-play positions")
    table.add_column("measure")
    table.add_column("whole deals", justify="right")
    table.add_column("hands alone", justify="right")
    table.add_column("ratio", justify="right")
    table.add_row(
        "deals drawn per second", f"{whole:,.0f}", f"{alone:,.0f}", f"{alone / whole:.2f}"
    )
    for spec in args.bots.split(","):
        old, new = decision_ms(args.game, obs_list, spec)
        table.add_row(f"ms a decision, {spec}", f"{old:.1f}", f"{new:.1f}", f"{old / new:.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
