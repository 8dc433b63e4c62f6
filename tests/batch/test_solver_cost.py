"""``benchmarks/solver_cost.py``: the positions it times are what it says, the same on
every run, and the values it writes are the solver's."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

np = pytest.importorskip("numpy")

from folkcards.bots.endgame import Solver, allies_of  # noqa: E402


def test_the_positions_hold_the_cards_asked_and_repeat(
    load_benchmark: Callable[[str], ModuleType],
) -> None:
    bench = load_benchmark("solver_cost")
    first = bench.positions("satat", 3, 4)
    again = bench.positions("satat", 3, 4)
    assert [s.hands for s in first] == [s.hands for s in again]
    for st in first:
        obs = st.observation(st.to_act)
        assert obs.phase == "play" and int(obs.hand).bit_count() == 3 and len(obs.legal) > 1


def test_the_values_written_are_the_exact_values(
    tmp_path: Path, load_benchmark: Callable[[str], ModuleType]
) -> None:
    """SAT-9, SAT-10: each written score is that of the scalar solver's optimal line."""
    bench = load_benchmark("solver_cost")
    out = tmp_path / "values.json"
    assert bench.main(["satat", "--cards", "3", "--positions", "4", "--values", str(out)]) == 0
    written = json.loads(out.read_text())["3"]
    for i, st in enumerate(bench.positions("satat", 3, 4)):
        value = Solver(0, allies_of(st, 0)).value(st)  # team 0's utility
        won = written["score"][i]
        assert (value > 0.5) == (won[0] == 1) and (value < 0.5) == (won[1] == 1)
