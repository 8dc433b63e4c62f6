"""Golden records: each ``golden/NAME.json`` must replay to ``golden/NAME.out.json``
exactly (SHP-10.1, SHP-10.2, SHP-11.4); finished deals are cross-checked by the naive
referee, and the command line gives the same object (``folkcards replay``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from shp_helpers import referee

from folkcards.engine.records import replay

GOLDEN = Path(__file__).parent / "golden"
NAMES = sorted(p.name[: -len(".json")] for p in GOLDEN.glob("*.json") if ".out." not in p.name)


def test_goldens_exist() -> None:
    assert len(NAMES) >= 10


@pytest.mark.parametrize("name", NAMES)
def test_golden_replay(name: str) -> None:
    rec = json.loads((GOLDEN / f"{name}.json").read_text())
    want = json.loads((GOLDEN / f"{name}.out.json").read_text())
    got = replay(rec)
    assert got == want
    deals = rec.get("deals", [rec])
    for d in deals:
        if got["ok"] and (d is not deals[-1] or got["over"]):
            full = {"variant": rec.get("variant", {}), **d}
            r = referee(full)
            if d is deals[-1]:
                assert {k: got["result"][k] for k in r} == r


def test_golden_hand_checked_deal() -> None:
    """SHP-8.3: the hand-checked deal: picker side takes all six tricks, +6/+3/−3."""
    want = json.loads((GOLDEN / "deal_called_all_tricks.out.json").read_text())
    assert want["result"]["score"] == [-3, 6, 3, -3, -3]
    assert want["result"]["picker_points"] == 120


def test_golden_via_command_line() -> None:
    """`folkcards replay FILE` prints the same object; exit 1 on an error object."""
    for name, code in (("deal_called_all_tricks", 0), ("deal_hold_rule_breach", 1)):
        proc = subprocess.run(
            [sys.executable, "-m", "folkcards.cli", "replay", str(GOLDEN / f"{name}.json")],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == code
        assert json.loads(proc.stdout) == json.loads((GOLDEN / f"{name}.out.json").read_text())
