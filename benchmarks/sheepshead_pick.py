"""How much Sheepshead's picking moves a tournament's win rate, and how OpenSpiel picks.

    python benchmarks/sheepshead_pick.py shift --bots heuristic,pickshift:t=1 --deals 300 --seed 60
    python benchmarks/sheepshead_pick.py openspiel --deals 40

``shift`` registers the bot ``pickshift:t=T``: the heuristic, but it picks (SHP-4) when its
hand's strength reaches the heuristic's threshold plus T (``t=100``: it never picks), and
plays a duplicate tournament of the given bots, printing each matchup's win rate.

``openspiel`` deals the cards, lets the heuristic bid until the blind is taken or everyone
passed (SHP-4), and at each pick decision of the way asks OpenSpiel's IS-MCTS
(``openspiel:ms=100``, the rl extra) too; it counts the pairs of choices.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from typing import Any

from folkcards.bots.base import Bot, Evaluation
from folkcards.bots.heuristic import sheepshead
from folkcards.bots.registry import make_bot, register_bot
from folkcards.bots.search import HeuristicBot
from folkcards.engine.api import Observation
from folkcards.games import GAMES
from folkcards.rl import register_bots_for
from folkcards.tournament import TournamentConfig, run_tournament


class PickShift(Bot):
    """The heuristic with its picking threshold moved by ``t``."""

    def __init__(self, t: float, name: str) -> None:
        self.t = t
        self.name = name
        self.heuristic = HeuristicBot()

    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        if obs.phase != "pick":
            return self.heuristic.evaluate(obs, rng)
        passes = sum(1 for step in obs.history if step.kind == "pass")
        want = sheepshead.strength(obs.hand) >= 9.5 + self.t - 0.4 * passes
        choice = next(a for a in obs.legal if (a.step.kind == "pick") == want)
        return Evaluation(choice, {a.text: float(a == choice) for a in obs.legal}, "heuristic")


def make_pick_shift(opts: dict[str, Any], name: str) -> Bot:
    return PickShift(float(opts.get("t", 0.0)), name)


def shift(bots: tuple[str, ...], deals: int, seed: int) -> None:
    register_bot("pickshift", make_pick_shift, {"t": float})  # forked workers inherit it
    summary, _ = run_tournament(TournamentConfig("sheepshead", bots, deals, seed), workers=2)
    for m in summary["matchups"]:
        w = m["win_rate"]
        print(
            f"{m['a']} v {m['b']}: {w['mean']:.1%} [{w['low']:.1%}, {w['high']:.1%}]"
            f"  {'-'.join(map(str, m['wins_ties_losses']))}"
        )


def openspiel(deals: int) -> None:
    register_bots_for(["openspiel"])
    game = GAMES["sheepshead"]
    heuristic, other = make_bot("heuristic"), make_bot("openspiel:ms=100")
    rng = random.Random(7)
    pairs: Counter[tuple[str, str]] = Counter()
    for d in range(deals):
        deal = game.random_deal(random.Random(500 + d))
        while deal.to_act is not None:
            obs = deal.observation(deal.to_act)
            if obs.phase != "pick":
                break
            mine = heuristic.evaluate(obs, rng).choice
            pairs[(mine.step.kind, other.evaluate(obs, rng).choice.step.kind)] += 1
            deal.apply(mine)
    for (h, o), n in sorted(pairs.items()):
        print(f"heuristic {h}, openspiel {o}: {n}")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["shift", "openspiel"])
    ap.add_argument("--bots", default="heuristic,pickshift:t=100")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=60)
    args = ap.parse_args(argv)
    if args.what == "shift":
        shift(tuple(args.bots.split(",")), args.deals, args.seed)
    else:
        openspiel(args.deals)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
