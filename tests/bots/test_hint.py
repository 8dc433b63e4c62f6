"""Hints: the API and ``folkcards hint``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from folkcards.bots import BotError, hint
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
