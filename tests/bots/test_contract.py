"""The bot contract: observation only, legal answers, reproducibility, the registry."""

from __future__ import annotations

import dataclasses
import gc
import random
from typing import Any

import pytest
import toygame

from folkcards.bots import BOT_NAMES, BotError, make_bot, play_deal
from folkcards.bots.base import Bot, Evaluation, decide, margins, sides, utilities
from folkcards.bots.search import HEURISTIC, fast_policy, heuristic_prior
from folkcards.engine.api import DealState, Game, Observation
from folkcards.games import GAMES

ALL_GAMES: list[Game] = [*GAMES.values(), toygame.GAME]

pytestmark = pytest.mark.usefixtures("toy_registered")  # the bots find the toy by name


def reachable(obj: Any, limit: int = 20000) -> list[Any]:
    """Every object reachable from ``obj`` through references (bounded)."""
    seen: dict[int, Any] = {}
    stack = [obj]
    while stack and len(seen) < limit:
        o = stack.pop()
        if id(o) in seen or isinstance(o, type):
            continue
        seen[id(o)] = o
        stack.extend(gc.get_referents(o))
    return list(seen.values())


class Spy(Bot):
    """Records every argument it is handed."""

    name = "spy"

    def __init__(self) -> None:
        self.args: list[tuple[Any, ...]] = []

    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        raise NotImplementedError

    def choose(self, obs: Any, *rest: Any) -> Any:
        self.args.append((obs, *rest))
        return obs.legal[0]


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: g.name)
def test_no_path_from_a_bot_to_the_state(game: Game) -> None:
    """A bot is handed an Observation and an RNG, and nothing reachable from them is a deal
    state, a game, or another seat's hand."""
    v = game.normalize_variant({})
    n = game.num_seats(v)
    spies = [Spy() for _ in range(n)]
    state = game.random_deal(random.Random(3), v)
    play_deal(state, spies, [random.Random(s) for s in range(n)])
    asked = [a for s in spies for a in s.args]
    assert asked
    for args in asked[:: max(1, len(asked) // 12)]:
        obs, rng = args
        assert type(obs) is Observation and type(rng) is random.Random
        assert obs.to_act == obs.seat
        with pytest.raises(dataclasses.FrozenInstanceError):
            obs.hand = 0  # type: ignore[misc]
        for o in reachable(obs):
            assert not isinstance(o, (DealState, Game)), type(o)


def test_a_bot_returning_an_illegal_action_is_stopped() -> None:
    class Cheat(Spy):
        def choose(self, obs: Any, *rest: Any) -> Any:
            return 10**9

    state = toygame.GAME.random_deal(random.Random(1))
    with pytest.raises(BotError, match="not one of the legal actions"):
        play_deal(state, [Cheat()] * 4, [random.Random(0)] * 4)
    assert state.history == []  # nothing applied


def test_decide_returns_the_engine_action_object() -> None:
    state = toygame.GAME.random_deal(random.Random(1))
    obs = state.observation(state.to_act)
    bot = make_bot("random")
    a = decide(bot, obs, random.Random(0))
    assert any(a is b for b in obs.legal)


@pytest.mark.parametrize("spec", ["random", "heuristic", "pimc:iters=20", "ismcts:iters=20"])
def test_bots_are_reproducible_with_a_seed(spec: str) -> None:
    def run() -> list[str]:
        state = toygame.GAME.random_deal(random.Random(9))
        play_deal(state, [make_bot(spec) for _ in range(4)], [random.Random(s) for s in range(4)])
        return [a.text for a in state.history]

    assert run() == run()


def test_registry_names_and_errors() -> None:
    assert BOT_NAMES[:5] == ("random", "heuristic", "search", "pimc", "ismcts")
    bot = make_bot("ismcts:iters=7:policy=heuristic:c=1.5")
    assert bot.name == "ismcts:iters=7:policy=heuristic:c=1.5"
    assert bot.iterations == 7 and bot.policy_name == "heuristic"  # type: ignore[attr-defined]
    with pytest.raises(BotError, match=r"unknown bot 'alphazero' \(valid: random, heuristic"):
        make_bot("alphazero")
    with pytest.raises(BotError, match="valid options: iters"):
        make_bot("pimc:depth=3")
    with pytest.raises(BotError, match="needs a int"):
        make_bot("pimc:iters=lots")
    with pytest.raises(BotError, match="unknown playout policy"):
        make_bot("pimc:policy=oracle")
    with pytest.raises(BotError, match="valid options: none"):
        make_bot("random:iters=3")


def test_search_finds_the_winning_card() -> None:
    """Two tricks left in the toy game, no trump, tricks 1-1, seat 1 to lead with AC JS.
    Leading AC takes a trick (no higher club is out) and draws at worst; leading JS lets
    seat 0 win with KS and then cash AH: the deal is lost."""
    g = toygame.GAME
    hands = [["AH", "KS"], ["AC", "JS"], ["KH", "QH"], ["QS", "QC"]]
    cards = [[toygame.CARD_NAMES.index(c) for c in h] for h in hands]
    state = g.new_deal(g.normalize_variant({}), 0, None, hands=cards)
    state.phase = "play"
    state.to_act = 1
    state.tricks = [1, 1]
    state.played = 0
    for spec in ("pimc:iters=60", "ismcts:iters=200"):
        s = state.clone()
        obs = s.observation(1)
        ev = make_bot(spec).evaluate(obs, random.Random(2))
        assert ev.choice.text == "play AC", (spec, ev)
        assert ev.values["play AC"] > ev.values["play JS"]


def test_outcome_arithmetic() -> None:
    assert sides(4, 2) == [0, 1, 0, 1]
    assert sides(5, 5) == [0, 1, 2, 3, 4]
    assert margins([4, 0], 4) == [4, -4, 4, -4]
    assert margins([4, -1, -1, -1, -1], 5) == [5, -1.25, -1.25, -1.25, -1.25]
    u = utilities("sasku", {"score": [0, 6]}, 4)
    assert u[1] > 0.75 > 0.25 > u[0]
    assert utilities("satat", {"score": [0, 0]}, 4) == [0.5] * 4
    # the "how much" part follows Sasku's card points, not its strokes: a 66-54 win is
    # worth less than a 90-30 win with the same strokes-sign
    close = utilities("sasku", {"score": [0, 4], "points": [54, 66]}, 4)
    clear = utilities("sasku", {"score": [0, 4], "points": [30, 90]}, 4)
    assert 0.75 < close[1] < clear[1] < 1.0 and clear[0] < close[0] < 0.25
    assert (
        utilities("satat", {"score": [1, 0], "tricks": [7, 6]}, 4)[0]
        < utilities("satat", {"score": [1, 0], "tricks": [10, 3]}, 4)[0]
    )


def test_search_falls_back_when_no_deal_can_be_sampled(monkeypatch: pytest.MonkeyPatch) -> None:
    from folkcards.engine.api import FolkcardsError

    def broken(obs: Observation, rng: random.Random) -> DealState:
        raise FolkcardsError("determinize: no deal is consistent with this observation")

    monkeypatch.setattr(toygame.GAME, "determinize", broken)
    state = toygame.GAME.random_deal(random.Random(4))
    obs = state.observation(state.to_act)
    for spec in ("pimc:iters=5", "ismcts:iters=5"):
        ev = make_bot(spec).evaluate(obs, random.Random(0))
        assert ev.choice in obs.legal
        assert "no deal is consistent" in ev.detail["fallback"]


def test_heuristic_prior_ranks_the_heuristics_choice_first() -> None:
    game = GAMES["scopone"]
    state = game.random_deal(random.Random(8))
    obs = state.observation(state.to_act)
    prior = heuristic_prior(obs)
    assert set(prior) == set(obs.legal)
    assert min(prior.values()) == 0.0 and max(prior.values()) == 1.0
    best = HEURISTIC.evaluate(obs, random.Random(0)).choice
    assert prior[best] == 1.0
    assert heuristic_prior(toygame.GAME.random_deal(random.Random(1)).observation(1)) == {}
    # a search bot with a huge prior plays the heuristic's choice
    for spec in ("pimc:iters=4:prior=100", "ismcts:iters=40:prior=100"):
        assert prior[make_bot(spec).choose(obs, random.Random(3))] == 1.0


def test_search_leaves_unsearched_phases_to_the_heuristic() -> None:
    game = GAMES["sasku"]
    state = game.random_deal(random.Random(2))
    obs = state.observation(state.to_act)  # the cut: not card play
    assert obs.phase != "play"
    bot = make_bot("search:iters=5")
    assert bot.only == frozenset({"play"})  # type: ignore[attr-defined]
    assert bot.evaluate(obs, random.Random(0)).scale == "heuristic"
    every = make_bot("search:iters=5:only=")
    assert every.evaluate(obs, random.Random(0)).scale == "win"
    both = make_bot("pimc:iters=5:only=cut+play")
    assert both.evaluate(obs, random.Random(0)).scale == "win"


def test_fast_playout_policy_is_legal_and_falls_back_to_random() -> None:
    for game in (GAMES["scopone"], GAMES["sasku"], toygame.GAME):
        state = game.random_deal(random.Random(6))
        rng = random.Random(1)
        while not state.is_over:
            action = fast_policy(state, rng)
            assert action in state.legal_actions()
            state.apply(action)


def test_keep_plays_the_heuristic_unless_a_gain_is_significant() -> None:
    """``pimc:keep=z`` is the heuristic's rollout improvement: with an unreachable z it
    plays exactly the heuristic's choice; with z = 0 it plays any action whose paired
    mean gain over that choice is positive (the best such one)."""
    game = GAMES["scopone"]
    checked = 0
    for seed in range(12):
        state = game.random_deal(random.Random(seed))
        obs = state.observation(state.to_act)
        if len(obs.legal) < 2:
            continue
        stubborn = make_bot("pimc:iters=12:policy=fast:keep=1000")
        scores = HEURISTIC.evaluate(obs, random.Random(5)).values
        ev = stubborn.evaluate(obs, random.Random(5))
        assert scores[ev.choice.text] == max(scores.values())  # one of the heuristic's best
        assert ev.detail[ev.choice.text]["heuristic"] == 1.0
        eager = make_bot("pimc:iters=40:policy=fast:keep=0").evaluate(obs, random.Random(5))
        gains = {t: d["gain"] for t, d in eager.detail.items() if "gain" in d}
        if max(gains.values(), default=0.0) > 0:
            assert eager.choice.text == max(gains, key=lambda t: gains[t])
        else:
            assert eager.detail[eager.choice.text].get("heuristic") == 1.0
        checked += 1
    assert checked >= 6
    with pytest.raises(BotError, match="keep is an option of pimc"):
        make_bot("ismcts:keep=1")
    with pytest.raises(BotError, match="keep must be at least 0"):
        make_bot("pimc:keep=-1")
