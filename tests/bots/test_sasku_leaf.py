"""Sasku's double-dummy leaf (``folkcards.bots.heuristic.sasku.leaf``), which ends the
playouts of ``search``, checked against a plain minimax over the engine's own legal moves
and scoring; and the search's inference from play (``infer``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from folkcards.bots.base import BotError, utilities
from folkcards.bots.heuristic import sasku
from folkcards.bots.kits import get_kit
from folkcards.bots.registry import make_bot
from folkcards.bots.search import (
    PIMCBot,
    heuristic_policy,
    leaf_for,
    likelihood,
    playout,
    resample,
    search_tuning,
)
from folkcards.engine.api import DealState
from folkcards.games import GAMES
from folkcards.games.sasku import SaskuDeal


def _held(state: DealState, seat: int) -> int:
    """How many cards ``seat`` holds."""
    assert isinstance(state, SaskuDeal)
    return state.hands[seat].bit_count()


def _reference(state: DealState) -> tuple[float, dict[str, Any]]:
    """Minimax over ``state.legal_actions()`` (SAS-10.3) with both sides open: team 0
    maximises (deal won by > 60 points, SAS-13; then its points), team 1 minimises; the
    value and the engine's result (SAS-14.1) of a line of best play."""
    if state.is_over:
        result = state.result()
        ours = result["points"][0]
        return (1000.0 if ours > 60 else 500.0 if ours == 60 else 0.0) + ours, result
    seat = state.to_act
    assert seat is not None
    best: tuple[float, dict[str, Any]] | None = None
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        value = _reference(child)
        if best is None or (value[0] > best[0] if seat % 2 == 0 else value[0] < best[0]):
            best = value
    assert best is not None
    return best


def _endgames(seed: int, variant: dict[str, Any], count: int) -> list[DealState]:
    """States with at most LEAF_CARDS cards in the hand to play (at a trick's start and
    in mid-trick), from deals played by the heuristic."""
    game = GAMES["sasku"]
    rng = random.Random(seed)
    found: list[DealState] = []
    while len(found) < count:
        state = game.random_deal(rng, variant)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if state.phase == "play" and _held(state, seat) <= sasku.LEAF_CARDS:
                found.append(state.clone())
                break
            state.apply(heuristic_policy(state, rng))
        for _ in range(rng.randrange(4)):  # move on into the trick now and then
            if not found[-1].is_over and sasku.leaf(found[-1]) is not None:
                probe = found[-1].clone()
                probe.apply(probe.legal_actions()[0])
                if not probe.is_over:
                    found.append(probe)
    return found


@pytest.mark.parametrize("variant", [{}, {"must_beat": False}])
def test_leaf_is_the_double_dummy_value(variant: dict[str, Any]) -> None:
    """SAS-10.3, SAS-13, SAS-13.2, SAS-17.2: the leaf's utilities are those of the result
    that best play from both open sides reaches, under either duty to beat."""
    for state in _endgames(3, variant, 40):
        values = sasku.leaf(state)
        assert values is not None
        _, result = _reference(state)
        assert values == pytest.approx(utilities("sasku", result, 4))


def test_leaf_waits_for_the_endgame() -> None:
    """Earlier in the play, and in the phases before it, the leaf gives None: the playout
    goes on with the heuristic."""
    game = GAMES["sasku"]
    rng = random.Random(4)
    state = game.random_deal(rng)
    assert sasku.leaf(state) is None  # the cut (SAS-6.2)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        big = _held(state, seat) > sasku.LEAF_CARDS
        assert (sasku.leaf(state) is None) == (big or state.phase != "play")
        state.apply(heuristic_policy(state, rng))


def test_playouts_end_in_the_leaf() -> None:
    """A playout with the leaf returns the leaf's utilities as soon as it applies; the
    search bots use Sasku's leaf unless ``dd=0``."""
    state = _endgames(5, {}, 1)[0]
    assert playout(state.clone(), random.Random(1), heuristic_policy, sasku.leaf) == (
        sasku.leaf(state)
    )
    assert leaf_for("sasku") is sasku.leaf
    assert leaf_for("scopone") is None
    bot = make_bot("search:iters=20")
    assert isinstance(bot, PIMCBot) and bot.leaf("sasku") is sasku.leaf
    off = make_bot("search:iters=20:dd=0")
    assert isinstance(off, PIMCBot) and off.leaf("sasku") is None


def _played(seed: int, stray_seat: int | None = None) -> DealState:
    """A Sasku deal played by the heuristic's playout choices into its fifth trick; with
    ``stray_seat``, that seat plays its last legal card instead whenever that is not one
    of the heuristic's choices."""
    game = GAMES["sasku"]
    rng = random.Random(seed)
    state = game.random_deal(rng)
    strayed = False
    while not state.is_over and not (state.phase == "play" and _held(state, 0) == 5):
        seat = state.to_act
        assert seat is not None
        action = heuristic_policy(state, rng)
        if seat == stray_seat and state.phase == "play" and not strayed:
            other = state.legal_actions()[-1]
            if get_kit("sasku").explains(state.observation(seat), other) is False:
                action, strayed = other, True
        state.apply(action)
    return state


def test_likelihood_counts_the_decisions_the_heuristic_would_not_make() -> None:
    """Inference from play (``infer``): a deal in which every other seat played as the
    heuristic does keeps weight 1; each decision the heuristic would not have made
    multiplies it by ``miss``. The replay starts from the world's own deal (SAS-6)."""
    for seed in range(3):
        assert likelihood(_played(seed), 0, 0.5) == 1.0
        stray = _played(seed, stray_seat=1)
        assert likelihood(stray, 0, 0.5) == 0.5  # one card of seat 1 off the heuristic
        assert likelihood(stray, 1, 0.5) == 1.0  # seat 1 does not judge itself
    # In the last three tricks the heuristic plays by its solver, not by the playout
    # scorer: no opinion there, so the weight cannot depend on those cards.
    end = _endgames(6, {}, 1)[0]
    seat = end.to_act
    assert seat is not None
    obs = end.observation(seat)
    assert not sasku.models(obs)
    assert all(get_kit("sasku").explains(obs, a) is None for a in obs.legal)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:infer=0", "infer must be in"),
        ("ismcts:infer=0.5", "not of IS-MCTS"),
        ("pimc:pool=3", "give infer"),
        ("ismcts:pool=2", "not of IS-MCTS"),
        ("search:pool=0", "pool must be at least 1"),
    ],
)
def test_inference_options_are_checked(spec: str, message: str) -> None:
    """``infer`` and ``pool`` weight and resample the deals of ``pimc``/``search`` only;
    ``pool`` needs ``infer`` to weigh by; bad values are named."""
    with pytest.raises(BotError, match=message):
        make_bot(spec)


def test_inference_is_reproducible_and_pool_changes_the_sample() -> None:
    """With ``infer`` (and ``pool``) the evaluation stays reproducible from the seed, and
    resampling changes which deals are played out."""
    state = _played(1)
    seat = state.to_act
    assert seat is not None
    obs = state.observation(seat)
    values = []
    for spec in (
        "search:iters=24:infer=0.5",
        "pimc:iters=24:infer=0.5:keep=1:policy=heuristic",
        "pimc:iters=24:infer=0.5:pool=3:keep=1:policy=heuristic",
    ):
        bot = make_bot(spec)
        first = bot.evaluate(obs, random.Random(9))
        again = bot.evaluate(obs, random.Random(9))
        assert first.choice == again.choice and first.values == again.values
        values.append(first.values)
    assert values[2] != values[1]


def test_search_takes_each_games_tuning_unless_the_spec_says_otherwise() -> None:
    """``search`` reads a game's SEARCH_TUNING for the options its spec leaves out;
    ``pimc`` takes its spec as it is."""
    assert search_tuning("sasku") == sasku.SEARCH_TUNING
    assert search_tuning("scopone") == {}
    tuned = make_bot("search")
    assert isinstance(tuned, PIMCBot)
    tuning = sasku.SEARCH_TUNING
    pool = int(tuning.get("pool", 1))
    assert tuned.settings("sasku") == (tuning["keep"], tuning["infer"], pool)
    assert tuned.settings("scopone") == (1.0, None, 1)
    spelt = make_bot("search:keep=2:pool=3")
    assert isinstance(spelt, PIMCBot)
    assert spelt.settings("sasku") == (2.0, tuning["infer"], 3)
    plain = make_bot("pimc:keep=1")
    assert isinstance(plain, PIMCBot) and plain.settings("sasku") == (1.0, None, 1)


def test_resampling_draws_deals_in_proportion_to_their_likelihood(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``pool=K`` samples K deals, draws one in proportion to its likelihood and gives it
    the pool's mean weight (sampling importance resampling); ``pool=1`` is plain
    weighting. A deal that explains nothing (weight 0 here) is never drawn."""
    from folkcards.bots import search

    state = _played(2)
    seat = state.to_act
    assert seat is not None
    obs = state.observation(seat)
    game = GAMES["sasku"]
    one, weight = resample(game, obs, random.Random(4), 0.5, 1)
    assert weight == likelihood(one, seat, 0.5)
    again, _ = resample(game, obs, random.Random(4), 0.5, 1)
    assert again.hands == one.hands  # reproducible from the seed

    drawn: list[DealState] = []

    def only_the_third(world: DealState, who: int, miss: float) -> float:
        drawn.append(world)
        return 3.0 if len(drawn) % 4 == 3 else 0.0

    monkeypatch.setattr(search, "likelihood", only_the_third)
    for k in range(5):
        world, weight = resample(game, obs, random.Random(k), 0.5, 4)
        assert world is drawn[-2]  # the third of the four, the only one that explains
        assert weight == 3.0 / 4
    assert len({tuple(w.hands) for w in drawn}) > 4  # the pools hold different deals
