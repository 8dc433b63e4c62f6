"""Duplicate-deal tournaments between bots, with confidence intervals; local or on Ray.

>>> from folkcards.tournament import TournamentConfig, run_tournament
>>> summary, _ = run_tournament(TournamentConfig("sasku", ("heuristic", "random"), 10, 1))
... # doctest: +SKIP
"""

from __future__ import annotations

from folkcards.tournament.duplicate import TournamentConfig, arrangements, play_board
from folkcards.tournament.runner import digest, run_local, run_ray, run_tournament, summarize
from folkcards.tournament.stats import FEW_BOARDS, Estimate, bootstrap_ci, mean_ci, t_quantile

__all__ = [
    "FEW_BOARDS",
    "Estimate",
    "TournamentConfig",
    "arrangements",
    "bootstrap_ci",
    "digest",
    "mean_ci",
    "play_board",
    "run_local",
    "run_ray",
    "run_tournament",
    "summarize",
    "t_quantile",
]
