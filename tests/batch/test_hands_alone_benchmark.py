"""``benchmarks/hands_alone.py``: its verdict check fails on a disagreement, and its timings
run both ways on the same positions (hands alone in card play: Sasku, SAS-19.1; Satat,
SAT-19)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from folkcards.engine.determinize import Reject

pytest.importorskip("numpy")


@pytest.mark.parametrize("game", ["sasku", "satat"])
def test_the_benchmark_compares_verdicts_and_times_both_ways(
    game: str, monkeypatch: pytest.MonkeyPatch, load_benchmark: Callable[[str], ModuleType]
) -> None:
    bench = load_benchmark("hands_alone")
    obs_list = bench.observations(game, 6)
    assert len(obs_list) == 6 and all(o.phase == "play" and len(o.legal) > 1 for o in obs_list)
    accepted, rejected = bench.check_verdicts(game, obs_list, 300)
    assert accepted + rejected == 300 and accepted > 0
    whole, alone = bench.draws_per_second(game, obs_list, 3)
    assert whole > 0 and alone > 0
    old, new = bench.decision_ms(game, obs_list[:2], "bpimc:worlds=8")
    assert old > 0 and new > 0
    from folkcards.batch import kernel_for

    kernel: Any = kernel_for(game)
    assert kernel.draws_hands  # put back after the timing
    # a check that disagrees stops the run
    det = importlib.import_module(f"folkcards.games.{game}.determinize")
    monkeypatch.setattr(det, "_check", lambda *args: None)  # accepts every draw
    if game == "sasku":  # Satat's whole deals reject too rarely for 300 draws to show it
        with pytest.raises(SystemExit, match="verdicts differ"):
            bench.check_verdicts(game, obs_list, 300)

    def refuse(*args: Any) -> None:
        raise Reject("refused")

    monkeypatch.setattr(det, "_check", refuse)  # rejects every draw
    with pytest.raises(SystemExit, match="verdicts differ"):
        bench.check_verdicts(game, obs_list, 300)
