"""Golden Satat deal and match records: each replays to its stored output (SAT-10, SAT-13.4).

The stored outputs were produced by ``make_golden.py``; the hand-built deals and the draws
are also checked here against facts worked out by hand from the rules.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from folkcards.engine import Match, replay

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".out.json"))


def load(name: str) -> dict[str, Any]:
    """``{"record": …, "replay": …}`` of one golden file."""
    return {
        "record": json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8")),
        "replay": json.loads((GOLDEN / f"{name}.out.json").read_text(encoding="utf-8")),
    }


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_replays_to_its_stored_output(path: Path) -> None:
    """SAT-10, SAT-13.4: the record replays to exactly the stored object."""
    data = load(path.stem)
    assert replay(data["record"]) == data["replay"]


def test_golden_files_exist() -> None:
    assert len(FILES) >= 9
    assert sum("deals" in json.loads(p.read_text()) for p in FILES) >= 3


def test_golden_hand_facts() -> None:
    """SAT-9.2, SAT-9.3, SAT-12.2, SAT-12.4 on the hand-built deals."""
    r = load("deal_hands_7_0")["replay"]["result"]
    assert (r["outcome"], r["tricks"], r["next_dealer"], r["next_passing"]) == (
        "7-0",
        [0, 7],
        2,
        {"winners": 1, "cards": 1},
    )
    r = load("deal_hands_13_0")["replay"]["result"]
    assert (r["outcome"], r["tricks"], r["next_passing"]) == (
        "13-0",
        [0, 13],
        {"winners": 1, "cards": 2},
    )


def test_golden_match_facts() -> None:
    """SAT-3.2, SAT-3.3, SAT-7.1, SAT-13.2, SAT-13.3 on the golden matches."""
    m = load("match_draw")["record"]
    assert m["draw"] == [["AD", "JS", "6D", "5S"]] and m["deals"][0]["dealer"] == 0  # J beats A
    m = load("match_trup_kasiet_target")
    assert (
        m["record"]["draw"][1] == [None, None, "5D", "JS"]
        and m["record"]["deals"][0]["dealer"] == 2
    )
    res = m["replay"]["result"]
    assert res["match_over"] and max(res["totals"]) == 3 and res["winner"] == res["totals"].index(3)
    m = load("match_after_7_0")
    second = m["record"]["deals"][1]
    assert second["dealer"] == 2 and second["passing"] == {"winners": 1, "cards": 1}
    assert [a.split(" ")[0] for a in second["actions"][1:5]] == ["give"] * 4
    assert m["replay"]["result"]["sevens"] == [0, 1]
    outs = [
        replay({**m["record"], "deals": m["record"]["deals"][: i + 1]})
        for i in range(len(m["record"]["deals"]))
    ]
    totals = [o["result"]["totals"] for o in outs]
    assert all(sum(b) - sum(a) in (0, 1) for a, b in itertools.pairwise(totals))


def test_match_from_record_continues() -> None:
    """SAT-13.1: a recorded match continues with the derived dealer and carried state."""
    m = Match.from_record(load("match_after_7_0")["record"])
    assert not m.is_over
    d = m.new_deal()
    res = load("match_after_7_0")["replay"]["result"]
    assert d.dealer == res["next_dealer"]


def test_cli_replay_prints_the_contract() -> None:
    """The ``folkcards replay -`` command on a golden deal (exit 0) and a broken one (exit 1)."""
    data = load("deal_hands_7_0")
    code = "from folkcards.cli import main; import sys; sys.exit(main(['replay', '-']))"
    ok = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(data["record"]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout) == data["replay"]
    bad = {**data["record"], "actions": [*data["record"]["actions"], "play 2S"]}
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(bad),
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 1 and json.loads(out.stdout)["index"] == len(bad["actions"]) - 1
