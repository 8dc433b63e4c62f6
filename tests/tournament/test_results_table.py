"""``benchmarks/results_table.py``: the tournament summaries that docs/bots.md quotes, as a
table, and runs on fresh boards pooled."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


def _summary(seed: int, a: str, wtl: tuple[int, int, int], low: float, high: float) -> dict:
    plays = sum(wtl)
    return {
        "game": "satat",
        "seed": seed,
        "matchups": [
            {
                "a": a,
                "b": "search:iters=200",
                "boards": plays // 2,
                "win_rate": {"mean": (wtl[0] + wtl[1] / 2) / plays, "low": low, "high": high},
                "wins_ties_losses": list(wtl),
                "ms_per_decision": [60.5, 134.2],
            }
        ],
    }


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    runs = [
        ("satat--x--search-iters200--seed101.json", 101, "x", (230, 4, 166), 0.55, 0.61),
        ("satat--x--search-iters200--seed104.json", 104, "x", (227, 8, 165), 0.545, 0.61),
        ("satat--x-again--search-iters200--seed104.json", 104, "x", (200, 0, 200), 0.47, 0.53),
        ("satat--y--search-iters200--seed105.json", 105, "y", (210, 0, 190), 0.5, 0.55),
    ]
    for name, seed, a, wtl, low, high in runs:
        (tmp_path / name).write_text(json.dumps(_summary(seed, a, wtl, low, high)))
    return tmp_path


def test_pooled_runs_count_every_play_once_and_combine_the_intervals(
    load_benchmark: Callable[[str], ModuleType], folder: Path
) -> None:
    table = load_benchmark("results_table")
    rows = table.read_rows(folder)
    assert [r.seed for r in rows] == [101, 104, 104, 105]  # sorted by game and seed
    fresh = [r for r in rows if r.file.startswith("satat--x--")]
    p = table.pool(fresh)
    assert p.wtl == (457, 12, 331) and p.boards == 400 and p.runs == 2
    assert p.mean == pytest.approx((457 + 6) / 800)
    se = math.sqrt((0.06 / 3.92) ** 2 / 4 + (0.065 / 3.92) ** 2 / 4)
    assert p.high - p.low == pytest.approx(2 * 1.96 * se)
    assert p.low < p.mean < p.high
    # Two runs of a seed share its boards, and two bots are not one bot's record.
    with pytest.raises(ValueError, match="seed used twice"):
        table.pool([r for r in rows if r.a == "x"])
    with pytest.raises(ValueError, match="one bot against one opponent"):
        table.pool([rows[0], rows[3]])
    with pytest.raises(ValueError, match="no file matched"):
        table.pool([])


def test_the_table_lists_every_run_and_the_command_line_pools(
    load_benchmark: Callable[[str], ModuleType],
    folder: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = load_benchmark("results_table")
    assert table.main([str(folder)]) == 0
    out = capsys.readouterr().out
    assert out.count("| satat |") == 4
    assert "| 58.0 % [55.0, 61.0] | 230-4-166 | 60 / 134 |" in out
    assert table.main([str(folder), "--pool", "satat--x--*"]) == 0
    assert "pooled: 2 runs, 400 boards, 57.9 %" in capsys.readouterr().out
    assert table.main([str(folder), "--pool", "satat--x*"]) == 2
    assert "seed used twice" in capsys.readouterr().err
    assert table.main([str(folder), "--bot", "y", "--against", "search:iters=200"]) == 0
    assert capsys.readouterr().out.count("| satat |") == 1
    assert table.main([str(folder), "--bot", "y", "--against", "heuristic"]) == 0
    assert capsys.readouterr().out.count("| satat |") == 0


def test_the_record_of_runs_against_search_lists_every_summary_beside_it(
    load_benchmark: Callable[[str], ModuleType],
) -> None:
    """benchmarks/results/bsearch-vs-search200/README.md is the script's table of the
    summaries in its folder: a run added without the table regenerated fails here."""
    table = load_benchmark("results_table")
    folder = Path(__file__).parents[2] / "benchmarks" / "results" / "bsearch-vs-search200"
    _, marker, generated = (folder / "README.md").read_text().partition(table.GENERATED)
    assert marker, f"{table.GENERATED} missing from the README"
    assert generated.strip() == table.markdown(table.read_rows(folder))
