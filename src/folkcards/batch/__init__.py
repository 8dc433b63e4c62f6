"""Batched playouts: thousands of determinized deals in card play advanced together.

Hands are one ``uint64`` card mask per seat, and a game's *kernel* plays every row of a
batch to the end of the deal by the same rules as the scalar engine — legal-move masks,
trick winners, points and the deal's score — compiled by numba when it is installed
(``pip install 'folkcards[fast]'``), else run as plain Python over numpy arrays (exact,
much slower). numpy itself is needed (the ``fast`` and ``rl`` extras bring it);
:func:`available` says whether it is there.

>>> import random
>>> from folkcards.batch import kernel_for
>>> from folkcards.games import GAMES
>>> k = kernel_for("sasku")
>>> # worlds = [GAMES["sasku"].determinize(obs, rng) for _ in range(64)]  # in card play
>>> # batch = k.build(k.encode(worlds), np.repeat(np.arange(64), 16), seed=1)
>>> # k.play(batch, "fast"); k.utilities(batch, 4)   # 1024 playouts' utilities per seat

Sasku's, Sheepshead's and Satat's kernels also solve endgames exactly: ``k.play(batch,
"fast", stop=3)`` stops each row with three tricks left and ``k.solve(batch)`` finishes
it by its double-dummy value (alpha-beta with a transposition table, every hand open),
which ``bsearch`` uses instead of the last tricks of its playouts where the game's
tuning asks for it (``tests/batch/test_endgame.py`` checks it against a plain minimax
over the scalar engine).

The differential tests (``tests/batch``) and ``benchmarks/batch_exact.py`` play the same
worlds with the same choices through both engines and compare tricks, points and scores.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from folkcards.batch.core import GameKernel

COVERED = ("sasku", "sheepshead", "satat", "huutopussi", "scopone")
"""Games with a batched kernel."""

_KERNELS: dict[str, GameKernel] = {}


def available() -> bool:
    """True when numpy is importable (the batch needs it)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def compiled() -> bool:
    """True when the kernels are compiled by numba (else they run as plain Python)."""
    if not available():
        return False
    from folkcards.batch._jit import NUMBA

    return NUMBA


def kernel_for(game: str) -> GameKernel | None:
    """The batched kernel of a game, or None (no kernel, or numpy missing)."""
    if game not in COVERED or not available():
        return None
    k = _KERNELS.get(game)
    if k is None:
        module = importlib.import_module(f"folkcards.batch.{game}")
        k = _KERNELS[game] = module.KERNEL
    return k


__all__ = ["COVERED", "available", "compiled", "kernel_for"]
