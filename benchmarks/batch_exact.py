"""The batch's differential check at scale: N positions per game and policy.

    python benchmarks/batch_exact.py --exact 10000 [GAME …]

The same as ``folkcards bench batch --exact N``: random play-phase positions of random
variants, played by the kernel (random and fast policy, choices recorded), replayed
through the scalar engine, tricks, points and results compared. Exit status 1 on any
difference.
"""

from __future__ import annotations

import sys

from folkcards.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", "batch", *sys.argv[1:]]))
