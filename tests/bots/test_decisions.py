"""Every decision type of every registered game, answered legally by every bot level."""

from __future__ import annotations

import functools
import json
import random

import explore
import pytest

from folkcards.bots import make_bot, play_deal
from folkcards.bots.base import SeatClock
from folkcards.engine.api import Observation
from folkcards.engine.records import replay
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


def test_every_registered_game_has_its_decision_types_listed() -> None:
    """A game added to the registry fails here until its phases and verbs are listed (the
    tests below would otherwise have nothing to compare with)."""
    assert set(explore.EXPECTED_PHASES) == set(GAMES)
    assert set(EXPECTED_VERBS) == set(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_exploration_reaches_every_decision_type(game: str) -> None:
    """Exactly the rules files' decision phases and action verbs come up: none is missed,
    and no decision shows up in a phase or with a verb the lists do not know."""
    seen = points(game)
    phases = {k[1] for k in seen}
    verbs = {v for k in seen for v in k[2].split()}
    assert phases == explore.EXPECTED_PHASES[game]
    assert verbs == EXPECTED_VERBS[game]


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
    """Each search bot plays a whole deal at every seat: every action of the record is a
    decision of the bot at the acting seat, and the record replays to the same result."""
    g = GAMES[game]
    v = g.normalize_variant({})
    n = g.num_seats(v)
    for spec in ("pimc:iters=3", "ismcts:iters=3:policy=heuristic", "search:iters=12"):
        state = g.random_deal(random.Random(5), v, dealer=1)
        assert not state.is_over  # a void deal (SCO-3.4) would test nothing
        bots = [make_bot(spec) for _ in range(n)]
        clocks = [SeatClock() for _ in range(n)]
        play_deal(state, bots, [random.Random(s) for s in range(n)], clocks)
        assert [c.decisions for c in clocks] == [state.actors.count(s) for s in range(n)]
        assert sum(c.decisions for c in clocks) == len(state.history) > 0
        result = state.result()
        assert len(result["score"]) == g.num_teams(v) == (2 if g.partnership else n)
        assert replay(json.loads(json.dumps(state.record()))) == {
            "ok": True,
            "over": True,
            "result": result,
        }
