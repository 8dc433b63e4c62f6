"""Hints by the batched search (``bsearch``, the web table's hint): a value per legal
action, the deals it sampled, and the same explained shape as the scalar search's."""

from __future__ import annotations

import json
import random

import pytest

from folkcards.bots import explain_hint, hint
from folkcards.bots.positions import card_play_position
from folkcards.engine.api import Observation
from folkcards.games import GAMES

pytest.importorskip("numpy")


def _play(game: str, seed: int) -> Observation:
    state = card_play_position(GAMES[game], random.Random(seed), nth=2, choices=3)
    assert state is not None and state.to_act is not None
    return state.observation(state.to_act)


@pytest.mark.parametrize("game", ["sasku", "scopone", "sheepshead", "satat", "huutopussi"])
def test_a_batched_hint_values_every_legal_action_with_its_deals(game: str) -> None:
    obs = _play(game, 6)
    h = hint(obs, "bsearch:worlds=16", random.Random(2))
    assert h["bot"] == "bsearch:worlds=16" and h["scale"] == "win"
    assert {a["action"] for a in h["actions"]} == {a.text for a in obs.legal}
    assert h["choice"] in {a.text for a in obs.legal}
    assert all(a["samples"] == 16 and isinstance(a["samples"], int) for a in h["actions"])
    anchor = [a for a in h["actions"] if a.get("heuristic")]
    assert len(anchor) == 1  # keep's anchor: the heuristic's card
    others = [a for a in h["actions"] if not a.get("heuristic")]
    assert all("gain" in a and "se" in a and a["se"] >= 0 for a in others)
    e = explain_hint(h)
    assert e["scale"] == "win_chance" and e["samples"] == 16
    assert e["choice"] == h["choice"] == e["rows"][0]["action"]
    assert {r["action"] for r in e["rows"]} == {a.text for a in obs.legal}
    assert h["unsearched"] == e["unsearched"] == 0  # card play: every card valued
    assert all(0.0 <= r["value"] <= 1.0 for r in e["rows"]) and e["rows"][0]["diff"] == 0.0
    for r in e["rows"][1:]:
        if r["reason"] == "noise_tried_play":  # the heuristic's card stands: gain ± se
            assert isinstance(r["gain"], float) and isinstance(r["se"], float)
    assert json.loads(json.dumps(e)) == e


def test_a_batched_hint_outside_card_play_ranks_by_the_heuristic() -> None:
    state = GAMES["sasku"].random_deal(random.Random(3))
    assert state.to_act is not None
    obs = state.observation(state.to_act)  # the cut
    e = explain_hint(hint(obs, "bsearch", random.Random(0)))
    assert e["scale"] in ("rank", "none") and e["rows"][0]["action"] == e["choice"]


def test_a_bridged_hint_says_how_many_choices_it_left_unsearched() -> None:
    """HUU-5.1: at a Huutopussi gift the search values the heuristic's best ``wide`` cards
    through the bridge; the hint counts the others, so that a reader is told they were left
    out (the web panel and the terminal say so), and every valued row is a legal gift."""
    from folkcards.bots.positions import phase_position

    state = phase_position(GAMES["huutopussi"], random.Random(6), "give")
    assert state is not None
    obs = state.observation(state.to_act)
    h = hint(obs, "bsearch:wide=4", random.Random(1))
    e = explain_hint(h)
    legal = {a.text for a in obs.legal}
    assert e["scale"] == "win_chance" and len(e["rows"]) == 4
    assert {r["action"] for r in e["rows"]} <= legal
    assert h["unsearched"] == e["unsearched"] == len(legal) - 4 > 0
    from folkcards.tui.hints import lines

    assert any("Not searched" in line and str(len(legal) - 4) in line for line in lines(h))
