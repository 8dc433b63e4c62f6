"""``folkcards bench``'s playout figures and ``--reference``'s ratio to OpenSpiel's Skat."""

from __future__ import annotations

import json
import sys
import types

import pytest

from folkcards.benchmarks import playouts
from folkcards.cli import main
from folkcards.games import get_game


def test_ratios_are_taken_pair_by_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of the game and the Skat run right after it make one ratio: a machine that
    slows down between pairs moves both alike and leaves the ratio alone."""
    speeds = iter([100.0, 30.0, 60.0])  # the machine's speed drifts run by run
    skat_speeds = iter([50.0, 10.0, 40.0])  # ratios 2, 3 and 1.5
    monkeypatch.setattr(playouts, "playouts", lambda g, s, seed=1: (next(speeds), 1.0))
    monkeypatch.setattr(
        playouts, "openspiel_playouts", lambda g, s, seed=1: (next(skat_speeds), 2.0)
    )
    monkeypatch.setitem(sys.modules, "pyspiel", types.SimpleNamespace(load_game=lambda n: n))
    out = playouts.bench_with_skat([get_game("sasku")], 0.01, repeats=3)
    assert out["sasku"]["skat_ratio"] == 2.0  # medians of the blocks would give 60 / 40
    assert (out["sasku"]["ratio_low"], out["sasku"]["ratio_high"]) == (1.5, 3.0)
    assert out["sasku"]["deals_per_s"] == 60.0
    assert out["openspiel:skat"]["deals_per_s"] == 40.0


def test_reference_prints_a_ratio_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    assert (
        main(["bench", "satat", "--reference", "--seconds", "0.05", "--repeats", "2", "--json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    r = out["satat"]
    assert r["ratio_low"] <= r["skat_ratio"] <= r["ratio_high"]
    assert r["deals_per_s"] > 0 and r["skat_ratio"] > 0
    assert {"openspiel:skat", "openspiel:hearts", "openspiel:euchre"} <= out.keys()


def test_bench_without_reference_has_no_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "satat", "--seconds", "0.05", "--repeats", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"satat"} and "skat_ratio" not in out["satat"]
