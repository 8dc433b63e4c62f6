"""``benchmarks/decision_quality.py``: bots' cards judged on the true deal, decision by
decision (SAS-10.3's legal cards, SAS-11's tricks and SAS-13's strokes decide the values)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


def test_every_card_is_judged_and_the_summary_counts_the_decisions(
    tmp_path: Path, load_benchmark: Callable[[str], ModuleType]
) -> None:
    """One Sasku deal: every kept decision is a card play with a choice, every legal card
    is valued in [0, 1] by the playout judge and, with at most six tricks left, by the
    solver; a card the solver values is exact, so the card it values best has no regret;
    the summary's counts are the decisions'."""
    pytest.importorskip("numpy")
    module = load_benchmark("decision_quality")
    out, every = tmp_path / "quality.json", tmp_path / "rows.json"
    argv = ["sasku", "--deals", "1", "--seed", "5", "--players", "heuristic", "--workers", "1"]
    bots = "heuristic,bsearch:worlds=8"
    assert module.main([*argv, "--bots", bots, "--json", str(out), "--rows", str(every)]) == 0
    data = json.loads(out.read_text())
    rows = json.loads(every.read_text())["rows"]
    assert data["decisions"] == len(rows)
    assert len(rows) > 10
    for r in rows:
        playout = r["values"]["playout"]
        assert len(playout) >= 2 and all(0.0 <= v <= 1.0 for v in playout.values())
        assert ("solved" in r["values"]) == (r["tricks_left"] <= module.SOLVED_FROM)
        assert r["values"].get("solved", playout).keys() == playout.keys()
        assert r["heuristic"] in playout
        assert all(card in playout for card in r["chosen"].values())
    summary = data["summary"]
    for spec in bots.split(","):
        solved = summary[spec]["solved"]
        judged = [r for r in rows if "solved" in r["values"]]
        assert solved["decisions"] == len(judged)
        assert solved["better"] + solved["worse"] <= len(judged)
        assert solved["low"] <= solved["gain"] <= solved["high"]
        assert solved["regret"] >= 0.0
    pair = data["paired"]["bsearch:worlds=8"]
    for judge in ("playout", "solved"):
        whole = pair[f"{judge} all"]
        assert whole["low"] <= whole["difference"] <= whole["high"]
        parts = [pair[f"{judge} {band}"]["decisions"] for band in ("late", "middle", "early")
                 if f"{judge} {band}" in pair]  # fmt: skip
        assert sum(parts) == whole["decisions"]


def test_a_bot_that_plays_the_judges_best_card_has_no_regret(
    load_benchmark: Callable[[str], ModuleType],
) -> None:
    """``summarize`` on decisions where a bot always plays the judge's best card: gain at
    least that of every other card, regret zero; the heuristic's own card gains nothing."""
    module = load_benchmark("decision_quality")
    rows = []
    for i in range(12):
        values = {"play A": 0.1 * (i % 3), "play B": 0.3, "play C": 0.2}
        best = max(values, key=lambda a: values[a])
        rows.append({"deal": i // 3, "tricks_left": 5, "heuristic": "play C",
                     "values": {"playout": values, "solved": values},
                     "chosen": {"best": best, "same": "play C"}, "ms": {"best": 1.0, "same": 1.0}})  # fmt: skip
    summary = module.summarize(rows, ["best", "same"])
    assert summary["best"]["playout"]["regret"] == 0.0
    assert summary["best"]["playout"]["gain"] == pytest.approx(0.1)
    assert summary["best"]["left_heuristic"] == 1.0
    assert summary["same"]["playout"]["gain"] == 0.0
    assert summary["same"]["playout"]["regret"] == pytest.approx(0.1)
    assert summary["same"]["playout"]["better"] == summary["same"]["playout"]["worse"] == 0
