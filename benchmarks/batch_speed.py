"""Batched against scalar playouts from a mid-deal position, every game, one core.

    python benchmarks/batch_speed.py [GAME …] [--seconds 1 --repeats 3]

The same as ``folkcards bench batch``: per game, playouts per second of the scalar
engine (random, fast and heuristic policy: ``folkcards.bots.search.playout``) and of the
game's kernel at each batch size, with card plays per second at the best size.
"""

from __future__ import annotations

import sys

from folkcards.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", "batch", *sys.argv[1:]]))
