"""How often a kernel's playout policy plays the heuristic bot's own card.

    python benchmarks/policy_agreement.py [--deals 150] [GAME …]

Deals are played by the heuristic; at every decision of the card play with a choice (a
card; in Huutopussi also a declaration, an ask, an answer, kontra or re), the position
is put into the game's kernel as a batch of one and the first card each kernel policy
plays there (``fast``: the heuristic's rating with every hand open; ``heuristic``, where
the kernel has it: the heuristic's play from the seat's own knowledge) is compared with
the card the heuristic bot chose (ties in its scores count as agreement).
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np

from folkcards.batch import kernel_for
from folkcards.bots.kits import find_kit
from folkcards.games import GAMES


def agreement(game: str, deals: int) -> dict[str, float]:
    g = GAMES[game]
    kernel = kernel_for(game)
    kit = find_kit(game)
    assert kernel is not None and kit is not None
    rng = random.Random(3)
    policies = [p for p in ("fast", "heuristic") if p in kernel.policies]
    agree = dict.fromkeys(policies, 0)
    decisions = 0
    for d in range(deals):
        deal = g.random_deal(random.Random(d), dealer=d % g.card({}).seats)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            scores = kit.scores(obs, playout=True)
            choice = max(obs.legal, key=lambda a: (scores[a], rng.random()))
            if kernel.accepts(deal) and not kernel.skipped(deal) and len(obs.legal) > 1:
                best = max(scores.values())
                decisions += 1
                for p in policies:
                    a = kernel.build(kernel.encode([deal]), np.arange(1), seed=d, record=True)
                    kernel.play(a, p)
                    code = int(a["record"][0, 0])
                    played = next(x for x in obs.legal if kernel.action_code(deal, x) == code)
                    agree[p] += scores[played] >= best - 1e-9
            deal.apply(choice)
    return {"decisions": decisions, **{p: agree[p] / decisions for p in policies}}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "games", nargs="*", default=["sasku", "scopone", "sheepshead", "satat", "huutopussi"]
    )
    ap.add_argument("--deals", type=int, default=150)
    args = ap.parse_args(argv)
    for game in args.games:
        out = agreement(game, args.deals)
        rates = "  ".join(f"{k} {v:.1%}" for k, v in out.items() if k != "decisions")
        print(f"{game}: {out['decisions']} decisions with a choice  {rates}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
