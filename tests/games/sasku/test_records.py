"""Sasku records: golden deals and matches, the replay contract, bad input (SAS-14, 16, 20)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sasku_helpers import (
    LONE_KS,
    NAIVE_POINTS,
    SUIT_PER_SEAT,
    hands_record,
    naive_legal,
    naive_winner,
    run,
)

from folkcards.cards import CARD_NAMES, cards_list
from folkcards.engine.records import load_deal, replay_text
from folkcards.games.sasku import DECK, GAME

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_NAMES = sorted(p.name[: -len(".out.json")] for p in GOLDEN.glob("*.out.json"))


def load(name: str) -> Any:
    return json.loads((GOLDEN / name).read_text())


def test_golden_set_is_complete() -> None:
    """The goldens cover every dealing method, a match and an unfinished record."""
    assert len(GOLDEN_NAMES) >= 12
    firsts = {
        load(f"{n}.json").get("actions", [""])[0].split(" ")[1]
        for n in GOLDEN_NAMES
        if "match" not in n
    }
    assert {"threes", "ones", "nines", "cover", "to"} <= firsts


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_replay_output(name: str) -> None:
    """SAS-14.1, SAS-16.4: each golden record gives exactly its stored replay output."""
    assert run(load(f"{name}.json")) == load(f"{name}.out.json")


@pytest.mark.parametrize("name", [n for n in GOLDEN_NAMES if "match" not in n])
def test_golden_deals_agree_with_the_naive_referee(name: str) -> None:
    """SAS-10.3, SAS-11.1, SAS-4.1, SAS-12.1: a list-based referee replays each golden deal."""
    rec = load(f"{name}.json")
    state = load_deal(rec)
    if not state.is_over:
        return
    trump = state.result()["trump"]
    hands: dict[int, list[str]] = {}
    # rebuild the hands at the start of play from the finished deal: cards played per seat
    plays = [
        (seat, a.text.split()[1])
        for a, seat in zip(state.history, state.actors, strict=True)
        if a.text.startswith("play")
    ]
    for seat, card in plays:
        hands.setdefault(seat, []).append(card)
    points = [0, 0]
    tricks = [0, 0]
    for t in range(9):
        trick = plays[4 * t : 4 * t + 4]
        for i, (seat, card) in enumerate(trick):
            legal = naive_legal(
                hands[seat],
                [c for _, c in trick[:i]],
                trump,
                rec.get("variant", {}).get("must_beat", True),
            )
            assert card in legal, (name, t, i)
            hands[seat].remove(card)
        w = naive_winner([c for _, c in trick], trump)
        team = trick[w][0] % 2
        points[team] += sum(NAIVE_POINTS.get(c[0], 0) for _, c in trick)
        tricks[team] += 1
        if t < 8:
            assert plays[4 * t + 4][0] == trick[w][0]  # SAS-10.1: the winner leads
    res = state.result()
    assert res["points"] == points and res["tricks"] == tricks


def test_golden_match_carries_dealer_and_replay_key() -> None:
    """SAS-16.1, SAS-16.2: dealer + 1 each deal, same dealer and replay after 60–60."""
    rec = load("match_with_redeal.json")
    out = load("match_with_redeal.out.json")
    deals = rec["deals"]
    totals = [0, 0]
    for k, d in enumerate(deals):
        res = run({"game": "sasku", **d})["result"]
        totals = [totals[0] + res["score"][0], totals[1] + res["score"][1]]
        if k + 1 < len(deals):
            nxt = deals[k + 1]
            if res["redeal"]:
                assert nxt["dealer"] == d["dealer"] and nxt["replay"] == res["replay"]
            else:
                assert nxt["dealer"] == (d["dealer"] + 1) % 4 and "replay" not in nxt
    assert out["result"]["totals"] == totals and max(totals) >= 16
    assert out["result"]["match_over"] and out["result"]["winner"] == totals.index(max(totals))
    assert out["result"]["draw"] is False


def test_cli_replay_prints_the_golden_output(tmp_path: Path) -> None:
    """The `folkcards replay FILE` contract: one JSON object, exit 0; bad action exit 1."""
    path = GOLDEN / "named_trump_stands.json"
    code = "import sys; from folkcards.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run(
        [sys.executable, "-c", code, "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout) == load("named_trump_stands.out.json")
    bad = load("named_trump_stands.json")
    bad["actions"][5] = "play 5H"
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad))
    proc = subprocess.run(
        [sys.executable, "-c", code, "replay", str(bad_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    out = json.loads(proc.stdout)
    assert proc.returncode == 1 and out["ok"] is False and out["index"] == 5
    assert out["action"] == "play 5H" and "Traceback" not in proc.stderr


# --- SAS-14.2, SAS-16: matches ----------------------------------------------------------------


def test_sas_14_2_16_4_match_output_and_unfinished_last_deal() -> None:
    """SAS-14.2, SAS-16.4: match keys added; unfinished last deal → in-progress object."""
    out = load("match_unfinished_last_deal.out.json")
    assert out["ok"] and not out["over"] and set(out) == {"ok", "over", "to_act", "phase", "legal"}
    rec = load("match_with_redeal.json")
    rec["deals"] = rec["deals"][:2]
    res = run(rec)["result"]
    assert res["match_over"] is False and res["winner"] is None and res["draw"] is False
    assert set(res) >= {"totals", "match_over", "winner", "draw", "score"}


def test_sas_16_3_match_faults_name_the_deal() -> None:
    """SAS-16.3: wrong dealer, missing or wrong replay, unfinished deal, deal after the end."""
    rec = load("match_with_redeal.json")
    bad = copy.deepcopy(rec)
    bad["deals"][1]["dealer"] = 3
    out = run(bad)
    assert not out["ok"] and out["deal"] == 1 and out["index"] is None
    bad = copy.deepcopy(rec)
    tie = next(k for k, d in enumerate(rec["deals"]) if "replay" in d)
    del bad["deals"][tie]["replay"]
    out = run(bad)
    assert not out["ok"] and out["deal"] == tie and out["index"] is None
    bad = copy.deepcopy(rec)
    bad["deals"][0]["replay"] = {"trump": "D", "declarer": None}  # the first deal has no replay
    out = run(bad)
    assert not out["ok"] and out["deal"] == 0
    bad = copy.deepcopy(rec)
    bad["deals"][2]["actions"] = bad["deals"][2]["actions"][:10]
    out = run(bad)
    assert not out["ok"] and out["deal"] == 2 and out["index"] is None  # (e): the unfinished deal
    bad = copy.deepcopy(rec)
    bad["deals"].append(copy.deepcopy(rec["deals"][0]))
    out = run(bad)
    assert not out["ok"] and out["deal"] == len(rec["deals"])
    bad = copy.deepcopy(rec)
    bad["deals"][1]["actions"][3] = "bid 12"
    out = run(bad)
    assert not out["ok"] and out["deal"] == 1 and out["index"] == 3


def test_sas_16_1_17_3_target_ends_the_match_and_totals_may_exceed_it() -> None:
    """SAS-16.1, SAS-17.3: the match ends at the deal that reaches target; totals may pass it."""
    lam = load("lambapea_target_12.json")
    match = {"game": "sasku", "variant": {"target": 12, "exchange": False}, "deals": [
        {k: v for k, v in lam.items() if k not in ("game", "variant")}
    ]}  # fmt: skip
    res = run(match)["result"]
    assert res["totals"] == [0, 12] and res["match_over"] and res["winner"] == 1
    state = GAME.start_match(GAME.normalize_variant({}), {})
    assert state.totals == [0, 0] and state.next_dealer is None  # SAS-16.2: any first dealer


def test_sas_16_5_no_drawn_matches() -> None:
    """SAS-16.5 (no rule effect of score-sheet remarks) and SAS-16.4: draw is always false."""
    out = load("match_with_redeal.out.json")
    assert out["result"]["draw"] is False


# --- SAS-20: bad input --------------------------------------------------------------------------


def deck_record(**over: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "game": "sasku",
        "dealer": 0,
        "deck": [CARD_NAMES[c] for c in cards_list(DECK)],
        "actions": [],
    }
    rec.update(over)
    return rec


@pytest.mark.parametrize(
    ("record", "fragment"),
    [
        ([1, 2], "JSON object"),
        ({"dealer": 0, "deck": [], "actions": []}, "game"),
        (deck_record(game="skat"), "unknown game"),
        (deck_record(variant={"mustbeat": True}), "unknown variant key"),
        (deck_record(variant={"target": 0}), "at least 1"),
        (deck_record(variant={"target": 16.0}), "target"),
        (deck_record(variant={"exchange": "yes"}), "exchange"),
        (deck_record(dealer=4), "dealer"),
        (deck_record(dealer=True), "dealer"),
        (deck_record(deck=["AC"] * 36), "twice"),
        (deck_record(deck=[CARD_NAMES[c] for c in cards_list(DECK)][:35]), "36"),
        (deck_record(deck=["5H", *[CARD_NAMES[c] for c in cards_list(DECK)][1:]]), "5H"),
        (deck_record(hands=[h.split() for h in SUIT_PER_SEAT]), "exactly one"),
        ({"game": "sasku", "dealer": 0, "actions": []}, "exactly one"),
        (deck_record(extra={}), "extra"),
        (hands_record(SUIT_PER_SEAT, [], extra={"blind": ["AC"]}), "AC"),
        (hands_record(SUIT_PER_SEAT, [], extra={"blind": []}), "SAS-6.6"),
        (hands_record([*SUIT_PER_SEAT[:3], "KD QD JD AD TD 9D 8D 7D"], []), "pack"),
        (
            hands_record(
                ["KC QC JC AC TC 9C 8C 7C 6C KD", *SUIT_PER_SEAT[1:3], "QD JD AD TD 9D 8D 7D 6D"],
                [],
            ),
            "9",
        ),
        (deck_record(replay={"trump": "H"}), "replay"),
        (deck_record(replay={"trump": "X", "declarer": 1}), "replay.trump"),
        (deck_record(replay={"trump": "H", "declarer": 5}), "replay.declarer"),
        (deck_record(replay={"trump": "H", "declarer": None}), "passed deal"),
        (deck_record(replay=[]), "replay"),
        (deck_record(actions="deal threes"), "actions"),
        (deck_record(colour="red"), "unknown key"),
        (deck_record(meta=[]), "meta"),
    ],
)
def test_sas_20_1_malformed_records(record: Any, fragment: str) -> None:
    """SAS-20.1: malformed record → ok false, index null, one-line error naming the fault."""
    out = run(record)
    assert out["ok"] is False and out["index"] is None and out["action"] is None
    assert fragment in out["error"] and "\n" not in out["error"]


def test_sas_20_1_lowercase_replay_trump_is_accepted_and_meta_ignored() -> None:
    """SAS-15.2 with conventions' text input: case-insensitive; meta is ignored."""
    out = run(deck_record(replay={"trump": "h", "declarer": 1}, meta={"event": "x"}))
    assert out["ok"] and out["phase"] == "cut"
    state = load_deal(deck_record(replay={"trump": "h", "declarer": 1}))
    assert state.record()["replay"] == {"trump": "H", "declarer": 1}


@pytest.mark.parametrize(
    ("actions", "index", "fragment"),
    [
        (["deal fours"], 0, "SAS-6.2"),
        (["deal to 5H"], 0, "5H"),
        (["bid 5"], 0, "phase cut"),
        (["deal threes", 7], 1, "text"),
        (["deal nines", "bid 10"], 1, "5 to 9"),
        (["deal nines", "bid 4"], 1, "5 to 9"),
        (["deal nines", "pass", "bid 5", "bid 5"], 3, "SAS-8.4"),
        (["deal nines", "trump H"], 1, "phase auction"),
        (["deal nines", "play AC"], 1, "phase auction"),
        (["deal nines", "bid 5", "pass", "pass", "pass", "trump Z"], 5, "suit letter"),
        (["deal nines", "bid 5", "pass", "pass", "pass", "trump D", "play 6D"], 6, "not in seat 1"),
        (["deal nines", "bid 5", "pass", "pass", "pass", "trump D", "play 5H"], 6, "5H"),
        (["deal nines", "return KS"], 1, "picture"),
        (["deal nines", "give AC"], 1, "not a picture"),
        (["deal nines", "hello"], 1, "not a Sasku action"),
        ([""], 0, "empty"),
    ],
)
def test_sas_20_2_bad_actions(actions: list[Any], index: int, fragment: str) -> None:
    """SAS-20.2: bad action at K → index K, its text, nothing after applied."""
    rec = deck_record(actions=actions)
    out = run(rec)
    assert out["ok"] is False and out["index"] == index
    assert out["action"] == actions[index] and fragment in out["error"], out


def test_sas_20_2_action_after_the_deal_is_over() -> None:
    """SAS-20.2: any action after the 9th trick is bad."""
    rec = load("named_trump_stands.json")
    rec["actions"].append("pass")
    out = run(rec)
    assert out["ok"] is False and out["index"] == len(rec["actions"]) - 1 and "over" in out["error"]


def test_sas_20_2_illegal_action_changes_nothing() -> None:
    """SAS-20.2: an illegal action leaves the state as it was."""
    state = load_deal(hands_record(LONE_KS, ["keep"]))
    before = (state.phase, state.to_act, list(state.hands), len(state.history))
    for bad in ("bid 8", "play AS", "keep", "trump S", "return 9C"):
        with pytest.raises(Exception, match="SAS-"):
            state.apply(bad)
        assert (state.phase, state.to_act, list(state.hands), len(state.history)) == before


def test_sas_20_3_parsing_is_case_insensitive_and_accepts_10() -> None:
    """SAS-20.3: verbs and cards case-insensitive, 10 for T, blanks; canonical output."""
    rec = hands_record(
        SUIT_PER_SEAT,
        ["PASS", " pass ", "Pass", "pass\t", "play 10s", "PLAY kh", "play  6d", "play Kc"],
    )
    state = load_deal(rec)
    assert [a.text for a in state.history][4:] == ["play TS", "play KH", "play 6D", "play KC"]
    assert state.record()["actions"][0] == "pass"
    out = replay_text("not json {")
    assert out["ok"] is False and out["index"] is None and "JSON" in out["error"]


def test_sas_6_6_hands_record_round_trip_keeps_the_received_order() -> None:
    """SAS-6.6, SAS-6.7: a hands record round-trips with each hand in received order."""
    rec = hands_record(LONE_KS, ["give KS", "return 8D", "pass"])
    state = load_deal(rec)
    again = state.record()
    assert again["hands"] == rec["hands"] and again["actions"] == rec["actions"]
    assert "deck" not in again and "extra" not in again
