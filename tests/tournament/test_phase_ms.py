"""``benchmarks/phase_ms.py``: every bot timed on the same decisions with a choice, kept
under each decision's phase (SAS-6 to SAS-10: a Sasku deal's cut, exchange, auction,
declaration, override and play)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("phase_ms", BENCHMARKS / "phase_ms.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_bot_is_timed_on_the_same_decisions() -> None:
    bench = load()
    specs = ["heuristic", "random"]
    times = bench.measure("sasku", specs, 2, 5)
    phases = set(times["heuristic"])
    assert "play" in phases and "cut" in phases  # the cutter always chooses (SAS-6.2)
    assert set(times["random"]) == phases
    for phase in phases:
        assert len(times["heuristic"][phase]) == len(times["random"][phase]) > 0
        assert all(t >= 0 for t in times["heuristic"][phase])
    assert len(times["heuristic"]["play"]) >= 2 * 8  # two deals of nine tricks, most with a choice
