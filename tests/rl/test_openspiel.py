"""OpenSpiel registration: random simulation test and IS-MCTS playing whole deals."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts as os_mcts  # noqa: E402

from folkcards.games import GAMES  # noqa: E402
from folkcards.rl.openspiel import register, short_name  # noqa: E402

NAMES = list(GAMES)


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    register()


@pytest.mark.parametrize("name", NAMES)
def test_random_simulation_test_passes(name: str) -> None:
    game = pyspiel.load_game(short_name(name))
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_information_state_is_per_seat_and_resampling_keeps_it(name: str) -> None:
    game = pyspiel.load_game(short_name(name))
    rng = np.random.RandomState(0)
    for _ in range(20):  # a deal that ends within six actions (a redeal) is dealt again
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        for _ in range(6):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            break
    assert not state.is_terminal(), "20 deals in a row ended within six actions"
    p = state.current_player()
    texts = {state.information_state_string(s) for s in range(game.num_players())}
    assert len(texts) == game.num_players()  # every seat knows something different
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    world = state.resample_from_infostate(p, sampler)
    assert world.information_state_string(p) == state.information_state_string(p)
    assert world.legal_actions() == state.legal_actions()
    assert len(state.information_state_tensor(p)) == game.information_state_tensor_size()


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_ismcts_plays_complete_deals(name: str) -> None:
    game = pyspiel.load_game(short_name(name))
    evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(2)
    )
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action(bot.step(state))
            moves += 1
    deal = state.deal
    assert moves == len(deal.history) > 0 and moves <= game.max_game_length()
    score = deal.result()["score"]
    assert state.returns() == [float(score[deal.team_of(p)]) for p in range(game.num_players())]


@pytest.mark.parametrize("variant", [{"players": 3}, {"erlangen": True}, {}])
def test_the_openspiel_bot_decides_in_variants_whose_normal_form_names_forbidden_keys(
    variant: dict[str, object],
) -> None:
    """HUU-11.5: a 3-player or Erlangen variant's full normal form names options that a
    record may not give; the bot hands OpenSpiel the variant as a record spells it."""
    import random

    from folkcards.rl.openspiel_bot import OpenSpielISMCTSBot

    game = GAMES["huutopussi"]
    deal = game.random_deal(random.Random(5), variant)
    obs = deal.observation(deal.to_act or 0)
    bot = OpenSpielISMCTSBot(iterations=4)
    choice = bot.choose(obs, random.Random(1))
    assert choice in obs.legal


@pytest.mark.parametrize(
    ("name", "variant"),
    [(n, {}) for n in NAMES]
    + [("sasku", {"target": 20}), ("sheepshead", {"double_on_bump": True})]
    + [("huutopussi", {"erlangen": True})],
)
def test_the_declared_utility_bounds_are_the_game_cards(
    name: str, variant: dict[str, object]
) -> None:
    import json

    game = pyspiel.load_game(short_name(name), {"variant": json.dumps(variant)})
    low, high = GAMES[name].card(variant).utility_bounds
    assert (game.min_utility(), game.max_utility()) == (low, high)


def test_the_openspiel_bot_registers_itself_in_the_bot_registry() -> None:
    """``folkcards.rl`` registers ``openspiel`` (the bot registry imports nothing of rl):
    once a spec names it, ``make_bot`` builds it with its options."""
    import random

    from folkcards.bots import make_bot
    from folkcards.rl import register_bots_for
    from folkcards.rl.openspiel_bot import OpenSpielISMCTSBot

    register_bots_for(["openspiel:iters=4", "heuristic"])
    bot = make_bot("openspiel:iters=4")
    assert isinstance(bot, OpenSpielISMCTSBot) and bot.iterations == 4
    assert bot.name == "openspiel:iters=4"
    deal = GAMES["scopone"].random_deal(random.Random(2))
    obs = deal.observation(deal.to_act or 0)
    assert bot.choose(obs, random.Random(1)) in obs.legal
