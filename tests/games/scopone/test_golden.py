"""Golden Scopone records: the engine's ``replay`` output and the naive referee agree with them.

Regenerate with ``python tests/games/scopone/make_golden.py`` (deterministic).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import scopone_reference as ref

from folkcards.engine import replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (Path(__file__).parent / "golden" / f"{name}.json").read_text()
    )
    return data


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replay_output(path: Path) -> None:
    """Every golden record replays to exactly its stored output (conventions: replay)."""
    data = json.loads(path.read_text())
    assert replay(data["record"]) == data["expected"]


PLAYABLE = [p for p in GOLDEN if json.loads(p.read_text())["expected"]["ok"]]
"""The goldens of legal records (the error goldens are checked by their replay output)."""


def test_golden_set_has_error_and_playable_records() -> None:
    """Both kinds of golden exist, so neither test above is vacuous."""
    assert PLAYABLE and len(PLAYABLE) < len(GOLDEN)


@pytest.mark.parametrize("path", PLAYABLE, ids=[p.stem for p in PLAYABLE])
def test_golden_agrees_with_reference(path: Path) -> None:
    """The independent referee reaches the same results (and legal lists) for every deal."""
    data = json.loads(path.read_text())
    rec = data["record"]
    deals = rec.get("deals", [rec])
    variant = rec.get("variant", {})
    last: Any = None
    for d in deals:
        d = dict(d, variant=variant)
        last = ref.replay_deal(d)
    exp = data["expected"]
    if exp["over"]:
        got = {
            k: v
            for k, v in exp["result"].items()
            if k not in ("totals", "match_over", "winner", "draw")
        }
        assert last == got
    else:
        assert last is None


def test_sco_3_4_golden_redeal_prints_only_score_and_redeal() -> None:
    """SCO-3.4: a void deal prints {"score": [0, 0], "redeal": true} and nothing else."""
    out = load("redeal_three_kings")["expected"]
    assert out == {"ok": True, "over": True, "result": {"score": [0, 0], "redeal": True}}
    bad = load("redeal_with_action")["expected"]
    assert bad["ok"] is False and bad["index"] == 0 and "SCO-3.4" in bad["error"]


def test_sco_10_4_golden_turn1_sweep() -> None:
    """SCO-10.4 / SCO-5.1: eldest takes all four table cards on turn 1: a sweep."""
    data = load("turn1_sweep")
    rec = data["record"]
    first = rec["actions"][0]
    assert len(first.split()) == 7  # play C take W X Y Z: all four table cards
    state = replay(dict(rec, actions=rec["actions"][:1]))
    assert state["ok"] and state["legal"] == sorted(
        state["legal"], key=lambda t: ref.order(t.split()[1])
    )
    assert all(" take " not in t for t in state["legal"])  # SCO-5.2: empty table


def test_sco_10_5_golden_turn35_sweep_and_leftover() -> None:
    """SCO-10.5: a sweep on turn 35 counts; the dealer's last card is leftover for the sweepers."""
    data = load("turn35_sweep")
    rec = data["record"]
    res = data["expected"]["result"]
    sweeper = (rec["dealer"] + 35) % 4
    assert res["last_capture"] == sweeper
    assert res["sweeps"][sweeper % 2] >= 1
    assert rec["actions"][35].count(" ") == 1  # the final card captures nothing


def test_sco_10_6_and_8_2_golden_final_turn_capture() -> None:
    """SCO-10.6: the dealer's last card clears the table, no sweep; SCO-8.2 makes it one."""
    plain = load("final_turn_clear")
    swept = load("final_turn_clear_last_sweep")
    dealer_team = plain["record"]["dealer"] % 2
    a, b = plain["expected"]["result"], swept["expected"]["result"]
    assert b["sweeps"][dealer_team] == a["sweeps"][dealer_team] + 1
    assert b["score"][dealer_team] == a["score"][dealer_team] + 1
    assert a["last_capture"] == plain["record"]["dealer"]


def test_sco_8_4_golden_capotto() -> None:
    """SCO-8.4: all ten coins give napola 10 and capotto; the match ends at once (SCO-7.3)."""
    res = load("capotto_deal")["expected"]["result"]
    assert res["coins"] == [10, 0] and res["napola"] == [10, 0] and res["capotto"] == 0
    m = load("match_capotto")["expected"]["result"]
    assert m["match_over"] is True and m["winner"] == 0 and max(m["totals"]) < 21


def test_sco_7_1_golden_redeal_keeps_dealer() -> None:
    """SCO-7.1: after a void deal the same dealer deals again; otherwise the deal passes on."""
    rec = load("match_with_redeal")["record"]
    dealers = [d["dealer"] for d in rec["deals"]]
    assert dealers[1] == (dealers[0] + 1) % 4  # after a complete deal: to the right
    assert dealers[2] == dealers[1]  # deal 1 is void: the same dealer again
    assert replay(dict(rec["deals"][1], game="scopone", variant={"target": 5}))["result"]["redeal"]


def test_sco_7_3_golden_tie_over_target_goes_on() -> None:
    """SCO-7.3 / SCO-10.7: equal totals at or above the target do not end the match."""
    rec = load("match_tie_over_target")["record"]
    first = replay({"game": "scopone", "variant": rec["variant"], "deals": rec["deals"][:1]})
    r = first["result"]
    assert r["totals"][0] == r["totals"][1] >= rec["variant"]["target"]
    assert r["match_over"] is False and r["winner"] is None and r["draw"] is False
    final = load("match_tie_over_target")["expected"]["result"]
    assert (
        final["match_over"] is True
        and final["totals"][final["winner"]] > final["totals"][1 - final["winner"]]
    )
