"""``benchmarks/hands_alone.py``: its verdict check fails on a disagreement, and its timings
run both ways on the same positions (Sasku, SAS-19.1: hands alone in card play)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("numpy")


def test_the_benchmark_compares_verdicts_and_times_both_ways(
    monkeypatch: pytest.MonkeyPatch, load_benchmark: Callable[[str], ModuleType]
) -> None:
    bench = load_benchmark("hands_alone")
    obs_list = bench.observations("sasku", 6)
    assert len(obs_list) == 6 and all(o.phase == "play" and len(o.legal) > 1 for o in obs_list)
    accepted, rejected = bench.check_verdicts("sasku", obs_list, 300)
    assert accepted + rejected == 300 and accepted > 0
    whole, alone = bench.draws_per_second("sasku", obs_list, 3)
    assert whole > 0 and alone > 0
    old, new = bench.decision_ms("sasku", obs_list[:2], "bpimc:worlds=8")
    assert old > 0 and new > 0
    from folkcards.batch import kernel_for

    kernel: Any = kernel_for("sasku")
    assert kernel.draws_hands  # put back after the timing
    # a check that disagrees stops the run
    from folkcards.games.sasku import determinize as det

    monkeypatch.setattr(det, "_check", lambda *args: None)  # accepts every draw
    with pytest.raises(SystemExit, match="verdicts differ"):
        bench.check_verdicts("sasku", obs_list, 300)
