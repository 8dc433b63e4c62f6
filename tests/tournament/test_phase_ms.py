"""``benchmarks/phase_ms.py``: every bot timed on the same decisions with a choice, kept
under each decision's phase (SAS-6 to SAS-10: a Sasku deal's cut, exchange, auction,
declaration, override and play)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType


def test_every_bot_is_timed_on_the_same_decisions(
    load_benchmark: Callable[[str], ModuleType],
) -> None:
    bench = load_benchmark("phase_ms")
    specs = ["heuristic", "random"]
    times = bench.measure("sasku", specs, 2, 5)
    phases = set(times["heuristic"])
    assert "play" in phases and "cut" in phases  # the cutter always chooses (SAS-6.2)
    assert set(times["random"]) == phases
    for phase in phases:
        assert len(times["heuristic"][phase]) == len(times["random"][phase]) > 0
        assert all(t >= 0 for t in times["heuristic"][phase])
    assert len(times["heuristic"]["play"]) >= 2 * 8  # two deals of nine tricks, most with a choice
