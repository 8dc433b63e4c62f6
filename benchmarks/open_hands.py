"""How far a tournament's win rate can go: a player who sees every card, on duplicate boards.

    python benchmarks/open_hands.py sheepshead --bots openhands,search:iters=200 --deals 100 --seed 70
    python benchmarks/open_hands.py sheepshead --bots openhands,openspiel:ms=100 --deals 50 --seed 71
    python benchmarks/open_hands.py satat --bots openhands:solve=9,search:iters=200 --seed 76
    python benchmarks/open_hands.py sasku --bots openhands:bridge=0,search:iters=200 --seed 85
    python benchmarks/open_hands.py sasku \
        --bots openhands:policy=heuristic:solve=0:leaf=3:bridge=0,search:iters=200 --seed 84

Registers the bot ``openhands`` and plays a duplicate tournament of the given bots
(``folkcards tournament``'s boards, seats and win rates). ``openhands`` is *not fair*: it
decides from the whole deal, not from its seat's observation, so it exists only here, as
a yardstick for the goals of the searches, never in the registry. Each of its decisions is
valued on the true deal alone by the batched kernel (``folkcards.batch``): a card with at
most ``solve`` tricks left (6 unless given: all of Sheepshead's) by the kernel's
double-dummy solver right after it (the rest of the deal solved exactly, every hand open,
where the kernel has a solver for the deal: Sasku, Sheepshead outside a leaster, Satat);
an earlier card, and a bid, a pick, a bury or a trump (the heuristic's ``wide`` best,
every seat's later decisions up to the card play the heuristic's), by ``k`` playouts of
the true deal averaged (1 unless given; ``policy``, ``fast`` unless given) until ``leaf``
tricks are left (5 unless given), the rest solved. Where even a player who sees every
card wins a matchup by little, the format caps what a fair bot can win (docs/bots.md,
"The batched search against its goals"); it takes the card of the best mean, where the
fair ``bsearch`` keeps the heuristic's unless another is clearly better, so a card's value
taken this way is a ceiling only where it is as good a judge (docs/bots.md, "Where Sasku's
open hands win").

Its options take the open hands apart. ``bridge=0`` leaves every decision before card
play (a bid, a pick, a trump) to the heuristic, which sees only its own cards, so that
only the card play is open. ``policy=heuristic:solve=0:leaf=3`` values each card as the
fair ``bsearch`` does (the heuristic's playouts, the last three tricks solved) but on the
true deal alone: what ``bsearch``'s way of valuing a card would win if its sampled deals
were all the right one.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from folkcards.batch import kernel_for
from folkcards.bots import base
from folkcards.bots.base import Bot, Evaluation, SeatClock
from folkcards.bots.batched import BatchPIMCBot
from folkcards.bots.registry import register_bot
from folkcards.bots.search import heuristic_evaluation
from folkcards.engine.api import DealState, Observation
from folkcards.rl import register_bots_for
from folkcards.tournament import TournamentConfig, duplicate, run_tournament

TRUTH: list[DealState] = []
"""The deal being played, set by :func:`play_deal_in_the_open`."""
FAIR_PLAY_DEAL = base.play_deal
"""The tournament's own loop, every bot deciding from its seat's observation."""


def play_deal_in_the_open(
    state: DealState,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    clocks: Sequence[SeatClock] | None = None,
) -> DealState:
    """:func:`folkcards.bots.base.play_deal`, with the deal where ``openhands`` reads it
    (the deal is played in place, so it is the current one at every decision; the other
    bots still get their seat's observation only)."""
    TRUTH[:] = [state]
    try:
        return FAIR_PLAY_DEAL(state, bots, rngs, clocks)
    finally:
        TRUTH.clear()


class OpenHands(BatchPIMCBot):
    """Every decision valued on the true deal only (see the module doc); ``bridged``
    False leaves the decisions before card play to the heuristic."""

    bridged = True

    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        truth = TRUTH[0]
        if truth.to_act != obs.seat or len(truth.history) != len(obs.history):
            raise ValueError("openhands was handed a deal that is not the observation's")
        kernel = kernel_for(obs.game)
        if kernel is None or len(obs.legal) == 1:
            return heuristic_evaluation(obs, rng)
        world = truth.clone()
        start = time.perf_counter()
        if not kernel.accepts(world):
            if not self.bridged:
                return heuristic_evaluation(obs, rng)
            return self._bridge(obs, rng, kernel, [world], [1.0], None, start, self.policy)
        codes = [kernel.action_code(world, a) for a in obs.legal]
        if min(codes) < 0:  # not a card (a signal, a 7-0's continue): the heuristic's
            return heuristic_evaluation(obs, rng)
        unique = sorted(set(codes))
        base = kernel.encode([world])
        return self._search(
            obs, rng, kernel, world, base, [1.0], codes, unique, None, start, self.policy
        )


def make_open_hands(opts: dict[str, Any], name: str) -> Bot:
    solve = int(opts.get("solve", 6))
    bot = OpenHands(worlds=1, k=int(opts.get("k", 1)), only=None, leaf=int(opts.get("leaf", 5)),
                    root=solve, hidden=0, wide=int(opts.get("wide", 40)),
                    policy=str(opts.get("policy", "fast")), name=name)  # fmt: skip
    bot.bridged = bool(opts.get("bridge", 1))
    return bot


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--bots", default="openhands,search:iters=200")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=70)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="also write the tournament's summary to this file")
    args = ap.parse_args(argv)
    options: dict[str, type] = {
        "wide": int,
        "solve": int,
        "leaf": int,
        "policy": str,
        "bridge": int,
        "k": int,
    }
    register_bot("openhands", make_open_hands, options)  # forked workers inherit it
    bots = tuple(args.bots.split(","))
    register_bots_for(bots)
    config = TournamentConfig(args.game, bots, args.deals, args.seed, records=False)
    duplicate.play_deal = play_deal_in_the_open  # type: ignore[attr-defined]
    try:
        summary, _ = run_tournament(config, workers=args.workers)
    finally:
        duplicate.play_deal = FAIR_PLAY_DEAL  # type: ignore[attr-defined]
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
    for m in summary["matchups"]:
        w = m["win_rate"]
        ms = m["ms_per_decision"]
        print(
            f"{args.game} {m['a']} v {m['b']} (seed {args.seed}, {m['boards']} boards): "
            f"{w['mean']:.1%} [{w['low']:.1%}, {w['high']:.1%}]"
            f"  {'-'.join(map(str, m['wins_ties_losses']))}  ms {ms[0]:.2f} / {ms[1]:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
