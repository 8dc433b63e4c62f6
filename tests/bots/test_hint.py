"""Hints: the API and ``folkcards hint``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from folkcards.bots import BotError, explain_hint, hint
from folkcards.cli import main
from folkcards.games import GAMES


def _record(game: str, steps: int) -> dict[str, object]:
    g = GAMES[game]
    state = g.random_deal(random.Random(11), dealer=0)
    rng = random.Random(1)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state.record()


def test_hint_values_every_legal_action() -> None:
    g = GAMES["scopone"]
    state = g.random_deal(random.Random(2))
    obs = state.observation(state.to_act)
    h = hint(obs, "heuristic", random.Random(0))
    assert {a["action"] for a in h["actions"]} == {a.text for a in obs.legal}
    values = [a["value"] for a in h["actions"]]
    assert values == sorted(values, reverse=True)
    assert h["choice"] == h["actions"][0]["action"]
    other = state.observation((state.to_act + 1) % 4)
    with pytest.raises(BotError, match="is not to act"):
        hint(other, "heuristic")


@pytest.mark.parametrize("game", list(GAMES))
def test_hint_command_json(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(_record(game, 3)))
    assert main(["hint", str(path), "--bot", "ismcts:iters=12", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == game
    assert out["choice"] in {a["action"] for a in out["actions"]}
    assert all("visits" in a for a in out["actions"]) or "fallback" in json.dumps(out)


def test_hint_command_text_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rec.json"
    rec = _record("sasku", 2)
    path.write_text(json.dumps(rec))
    assert main(["hint", str(path), "--bot", "heuristic"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("sasku · seat") and "choice: " in text
    assert main(["hint", str(path), "--bot", "oracle"]) == 2
    assert "unknown bot 'oracle' (valid: random, heuristic" in capsys.readouterr().err
    to_act = GAMES["sasku"].deal_from_record(rec, GAMES["sasku"].normalize_variant({}))
    for a in rec["actions"]:  # type: ignore[union-attr]
        to_act.apply(a)
    wrong = (to_act.to_act + 1) % 4  # type: ignore[operator]
    assert main(["hint", str(path), "--seat", str(wrong)]) == 1
    assert "is not to act" in capsys.readouterr().err
    assert main(["hint", str(tmp_path / "missing.json")]) == 1
    state = GAMES["sasku"].random_deal(random.Random(1))
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    path.write_text(json.dumps(state.record()))
    assert main(["hint", str(path)]) == 1
    assert "the deal is over" in capsys.readouterr().err


def test_explain_hint_ranks_names_the_scale_and_says_why_the_choice_stands() -> None:
    actions: list[dict[str, Any]] = [
        {"action": "play 6H", "value": 0.41, "samples": 20},
        {"action": "play JC", "value": 0.40, "samples": 20},
        {"action": "play QS", "value": 0.39, "samples": 20, "gain": 0.05, "se": 0.01},
        {"action": "play AS", "value": 0.30, "samples": 20},
    ]
    h = {"choice": "play JC", "scale": "win", "actions": actions}
    e = explain_hint(h)
    assert e["choice"] == "play JC" and e["scale"] == "win_chance" and e["samples"] == 20
    assert [r["action"] for r in e["rows"]] == ["play JC", "play 6H", "play QS", "play AS"]
    assert e["rows"][0]["diff"] == 0.0 and e["rows"][0]["reason"] is None
    assert e["rows"][1]["value"] == 0.41 and abs(e["rows"][1]["diff"] - 0.01) < 1e-9
    assert e["rows"][1]["reason"] == "noise" and e["reason"] == "noise"
    assert e["rows"][3]["reason"] is None and e["rows"][3]["diff"] < 0
    assert json.loads(json.dumps(e)) == e  # plain data
    # the choice is the tried play: a higher mean is not a clear gain over it
    actions[1]["heuristic"] = 1.0
    actions[0].update(gain=0.01, se=0.02)
    row = explain_hint(h)["rows"][1]
    assert row["reason"] == "noise_tried_play" and row["gain"] == 0.01 and row["se"] == 0.02
    # a clear lead that the choice rule overrode
    actions[0].update(value=0.5)
    del actions[1]["heuristic"]
    assert explain_hint(h)["reason"] == "choice_rule"
    # rule-of-thumb scores: an order, never numbers
    rank = explain_hint(
        {
            "choice": "bid 5",
            "scale": "heuristic",
            "actions": [{"action": "pass", "value": 2.0}, {"action": "bid 5", "value": 1.5}],
        }
    )
    assert rank["scale"] == "rank" and [r["action"] for r in rank["rows"]] == ["bid 5", "pass"]
    assert all(r["value"] is None and r["diff"] is None for r in rank["rows"])
    assert rank["reason"] is None
    assert explain_hint({"choice": "x", "scale": "uniform", "actions": []})["scale"] == "none"
    # a higher mean below the 0.1 point shown ("+0.0") reads as a tie and needs no reason
    tie = [
        {"action": "give AH", "value": 0.502, "heuristic": 1.0},
        {"action": "give AS", "value": 0.5031, "gain": 0.0011, "se": 0.0003},
        {"action": "give KH", "value": 0.5024, "gain": 0.0004, "se": 0.0003},
    ]
    tied = explain_hint({"choice": "give AH", "scale": "win", "actions": tie})
    assert tied["rows"][1]["action"] == "give AS" and tied["rows"][1]["reason"]
    assert tied["rows"][2]["reason"] is None


def test_explain_hint_of_a_real_hint() -> None:
    state = GAMES["sasku"].random_deal(random.Random(4))
    while state.phase != "play":
        state.apply(state.legal_actions()[0])
    assert state.to_act is not None
    h = hint(state.observation(state.to_act), "pimc:ms=50", random.Random(0))
    e = explain_hint(h)
    assert e["scale"] == "win_chance" and e["rows"][0]["action"] == h["choice"]
    assert {r["action"] for r in e["rows"]} == {a["action"] for a in h["actions"]}
    assert all(0.0 <= r["value"] <= 1.0 for r in e["rows"])
