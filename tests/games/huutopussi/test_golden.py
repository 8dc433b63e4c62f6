"""Golden deal and match records with their expected ``replay`` output (conventions.md).

The sweep deals, the 3-player deal and the sweep match were checked by hand:
läpäri +100/−50, Porvoo +100/−100, Erlangen kontra+re on a failed sweep −150 × 2 / 0,
3 players +100/−50/−50, the match 4 × (+160) and 3 × 0 for team 0, 4 × (−50) for team 1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from folkcards.engine.records import replay

GOLDEN = Path(__file__).parent / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".out.json"))


def test_there_are_golden_deals_and_matches() -> None:
    names = [p.stem for p in RECORDS]
    assert sum(n.startswith("deal_") for n in names) >= 8
    assert sum(n.startswith("match_") for n in names) >= 2


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_replay(path: Path) -> None:
    """HUU-9.5, HUU-10.4, HUU-17.2: each record replays to its stored output."""
    record = json.loads(path.read_text())
    expected = json.loads(path.with_name(path.stem + ".out.json").read_text())
    assert replay(record) == expected


def test_hand_checked_scores() -> None:
    """HUU-9.4, HUU-11.4, HUU-12.8, HUU-12.9, HUU-13.4, HUU-10.2 by hand."""

    def result(name: str) -> dict[str, object]:
        out = replay(json.loads((GOLDEN / f"{name}.json").read_text()))
        assert out["ok"] is True
        res = out["result"]
        assert isinstance(res, dict)
        return res

    assert result("deal_lapari")["score"] == [100, -50]
    assert result("deal_porvoo")["score"] == [100, -100]
    assert result("deal_erlangen_calls_failed_sweep")["score"] == [-300, 0]
    assert result("deal_three_players")["score"] == [100, -50, -50]
    match = result("match_sweeps_to_640")
    assert match["totals"] == [640, -200] and match["winner"] == 0 and match["match_over"] is True


@pytest.mark.parametrize(("name", "code"), [("deal_lapari", 0), ("error_untruthful_answer", 1)])
def test_cli_replay(name: str, code: int) -> None:
    """`folkcards replay FILE` prints the same object and exits 0, or 1 on an error."""
    path = GOLDEN / f"{name}.json"
    proc = subprocess.run(
        [sys.executable, "-m", "folkcards.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == code
    assert json.loads(proc.stdout) == json.loads(path.with_name(f"{name}.out.json").read_text())
