"""Record the bots' decisions on seeded positions of every game, to compare a refactor's
before and after: ``python tests/bots/record_decisions.py > before.jsonl`` (then again
into ``after.jsonl``, and ``cmp`` the two). Not a test: the decisions change, rightly,
whenever a heuristic or a rule does.

Positions come from deals played by uniformly random actions (the engine alone, so they
do not move when a bot changes), a quarter of the decisions with a choice kept, 300 per
game (the first argument changes it) in the default variant and a few others, the toy
game of these tests included. Each line is one bot's evaluation of one position with a
seeded RNG: its choice, every value (``repr``, so exact) and its detail; ``heuristic``
and ``search:iters=12`` decide every position, eight dearer specs (every playout policy,
the prior, inference from play, IS-MCTS, the batched search) every fifth.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import toygame

from folkcards.bots import make_bot, utilities
from folkcards.engine.api import Game, Observation
from folkcards.engine.registry import register
from folkcards.games import GAMES

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "sasku": [{}, {"must_beat": False, "exchange": False}],
    "scopone": [{}, {"re_bello": True, "scientifico": True}],
    "sheepshead": [{}, {"no_pick": "doubler"}],
    "satat": [{}, {"trup_kasiet": True, "signals": "all"}],
    "huutopussi": [
        {},
        {"players": 3, "card_points": "11-10-4-3-2", "marriage_values": "bridge"},
        {"erlangen": True},
    ],
    "toy": [{}],
}
EVERY = ["heuristic", "search:iters=12"]
DEARER = [
    "pimc:iters=24",
    "pimc:iters=24:policy=fast",
    "pimc:iters=24:policy=heuristic:prior=0.5",
    "pimc:iters=16:policy=heuristic:infer=0.5:pool=2:keep=0.5",
    "search:iters=12:dd=0",
    "ismcts:iters=24:prior=0.3",
    "bsearch:worlds=6",
    "bpimc:worlds=6:k=2:policy=random:noise=5",
]


def positions(game: Game, count: int) -> list[Observation]:
    """``count`` observations of a seat to act with a choice; each finished deal's
    utilities are printed on the way (they read the game card)."""
    out: list[Observation] = []
    seed = 0
    variants = VARIANTS[game.name]
    while len(out) < count:
        variant = game.normalize_variant(variants[seed % len(variants)])
        rng = random.Random(1000 + seed)
        state = game.random_deal(rng, variant, dealer=seed % 3)
        while not state.is_over and len(out) < count:
            legal = state.legal_actions()
            seat = state.to_act
            assert seat is not None
            if len(legal) > 1 and rng.random() < 0.25:
                out.append(state.observation(seat))
            state.apply(legal[rng.randrange(len(legal))])
        if state.is_over:
            u = utilities(game, state.result(), state.num_seats, state.variant)
            print(json.dumps({"game": game.name, "seed": seed, "utilities": [repr(x) for x in u]}))
        seed += 1
    return out


def main(count: int) -> None:
    register(toygame.GAME)
    bots = {spec: make_bot(spec) for spec in EVERY + DEARER}
    for game in [*GAMES.values()]:
        for i, obs in enumerate(positions(game, count)):
            specs = EVERY + (DEARER if i % 5 == 0 else [])
            if game.name == "toy":  # the toy's setup record does not replay: no inference
                specs = [s for s in specs if "infer" not in s]
            for spec in specs:
                ev = bots[spec].evaluate(obs, random.Random(i * 7919 + 17))
                line = {
                    "game": game.name,
                    "pos": i,
                    "phase": obs.phase,
                    "bot": spec,
                    "choice": ev.choice.text,
                    "scale": ev.scale,
                    "values": {a: repr(v) for a, v in sorted(ev.values.items())},
                    "detail": json.loads(json.dumps(ev.detail, sort_keys=True, default=repr)),
                }
                print(json.dumps(line, sort_keys=True), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
