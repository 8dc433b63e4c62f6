"""Every decision type of every registered game, answered legally by every bot level."""

from __future__ import annotations

import functools
import random

import explore
import pytest

from folkcards.bots import make_bot, play_deal
from folkcards.engine.api import Observation
from folkcards.games import GAMES

EXPECTED_VERBS = {
    "sasku": {"deal", "give", "keep", "return", "bid", "pass", "diamonds", "trump", "play"},
    "scopone": {"play"},
    "sheepshead": {"pick", "pass", "bury", "call", "alone", "play"},
    "satat": {
        "trump", "blind", "redeal", "hide", "pass", "propose", "accept", "refuse", "give",
        "announce", "silent", "play", "lese", "continue", "stop",
    },
    "huutopussi": {
        "bid", "pass", "redeal", "give", "contract", "return", "discard", "play", "declare",
        "ask", "answer", "kontra", "re",
    },
}  # fmt: skip
"""Every action verb of each game's rules file."""

LEVELS = ("random", "heuristic", "pimc:iters=6", "ismcts:iters=6")


@functools.cache
def points(game: str) -> dict[tuple[str, str, str], Observation]:
    return explore.decision_points(GAMES[game])


@pytest.mark.parametrize("game", list(GAMES))
def test_exploration_reaches_every_decision_type(game: str) -> None:
    seen = points(game)
    phases = {k[1] for k in seen}
    verbs = {v for k in seen for v in k[2].split()}
    if game in explore.EXPECTED_PHASES:
        assert explore.EXPECTED_PHASES[game] <= phases
    if game in EXPECTED_VERBS:
        assert EXPECTED_VERBS[game] <= verbs


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", list(GAMES))
def test_every_bot_answers_every_decision_type(game: str, level: str) -> None:
    bot = make_bot(level)
    for key, obs in sorted(points(game).items()):
        rng = random.Random(str(key))
        action = bot.choose(obs, rng)
        assert action in obs.legal, (key, action)
        ev = bot.evaluate(obs, random.Random(str(key)))
        assert ev.choice in obs.legal
        assert set(ev.values) == {a.text for a in obs.legal}


@pytest.mark.parametrize("game", list(GAMES))
def test_search_bots_play_whole_deals(game: str) -> None:
    g = GAMES[game]
    v = g.normalize_variant({})
    n = g.num_seats(v)
    for spec in ("pimc:iters=3", "ismcts:iters=3:policy=heuristic", "search:iters=12"):
        state = g.random_deal(random.Random(5), v, dealer=1)
        bots = [make_bot(spec) for _ in range(n)]
        play_deal(state, bots, [random.Random(s) for s in range(n)])
        assert state.is_over
        assert len(state.result()["score"]) in (2, n)
