"""Research interfaces: PettingZoo AEC envs, the Gymnasium wrapper, OpenSpiel registration."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from folkcards.games import GAMES
from folkcards.rl import env
from folkcards.rl.encoding import Encoder, EncodingError
from folkcards.rl.gym_env import FolkcardsGym

NAMES = list(GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_api_test_passes(name: str) -> None:
    api_test(env(name), num_cycles=400)


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_seed_test_passes(name: str) -> None:
    seed_test(lambda: env(name), num_cycles=200)


@pytest.mark.parametrize("name", NAMES)
def test_action_space_is_fixed_and_masks_match_the_legal_actions(name: str) -> None:
    game = GAMES[name]
    enc = Encoder.for_game(game, {})
    rng = random.Random(3)
    for _ in range(3):
        s = game.random_deal(rng)
        while not s.is_over:
            obs = s.observation(s.to_act)  # type: ignore[arg-type]
            mask = enc.action_mask(obs)
            assert sum(mask) == len(s.legal_actions())  # every legal action has its own index
            i = rng.choice([k for k, m in enumerate(mask) if m])
            a = enc.decode(i, s.legal_actions())
            assert enc.encode(a, s.legal_actions()) == i
            s.apply(a)
            vec = enc.observation_vector(obs)
            assert len(vec) == enc.size and all(0.0 <= x <= 1.0 for x in vec)


@pytest.mark.parametrize("name", NAMES)
def test_an_action_outside_the_mask_raises_a_clear_error_and_changes_nothing(name: str) -> None:
    e = env(name)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = e.unwrapped.state_.record()
    with pytest.raises(EncodingError, match="not legal now"):
        e.step(bad)
    with pytest.raises(EncodingError, match="outside the action space"):
        e.step(len(mask) + 5)
    assert e.unwrapped.state_.record() == before


def test_terminate_convention_gives_the_offender_minus_one() -> None:
    e = env(NAMES[0], illegal="terminate")
    e.reset(seed=2)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1


def test_rewards_are_the_deal_score_of_each_seats_side() -> None:
    e = env(NAMES[0])
    e.reset(seed=5)
    rng = random.Random(5)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        _, reward, term, trunc, _info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        mask = e.observe(agent)["action_mask"]
        e.step(rng.choice(list(np.flatnonzero(mask))))
    result = e.unwrapped.state_.result()
    for i, agent in enumerate(e.possible_agents):
        assert total[agent] == result["score"][e.unwrapped.state_.team_of(i)]


@pytest.mark.parametrize("name", NAMES)
def test_gymnasium_wrapper_passes_check_env(name: str) -> None:
    check_env(FolkcardsGym(name, seat=0, opponents="random"), skip_render_check=True)


def test_unknown_game_and_variant_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        env("bridge")
    with pytest.raises(ValueError, match="unknown variant key"):
        env(NAMES[0], bogus=1)


def test_training_example_smoke_run() -> None:
    """The README's training example runs end to end (a few deals, not a strength claim)."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / "train_policy.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--episodes", "10", "--eval-deals", "10"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "duplicate deals" in proc.stdout and "trained policy" in proc.stdout


@pytest.mark.parametrize("name", NAMES)
def test_every_variant_option_gives_a_working_env(name: str) -> None:
    """Each variant option value (one at a time) plays a whole masked episode. (Integer
    options without a list of values are match-level targets: they change no deal.)"""
    game = GAMES[name]
    rng = random.Random(11)
    for opt in game.variant_options:
        values = opt.choices or ((not opt.default,) if isinstance(opt.default, bool) else ())
        for value in values:
            # a value that needs another option with it would fail here until this test
            # learns the combination
            e = env(name, **{opt.key: value})
            e.reset(seed=rng.randrange(1000))
            steps = 0
            for agent in e.agent_iter():
                obs, _, term, trunc, _ = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                mask = obs["action_mask"]
                assert mask.sum() == len(e.unwrapped.state_.legal_actions()) > 0, agent
                e.step(int(rng.choice(list(np.flatnonzero(mask)))))
                steps += 1
            state = e.unwrapped.state_
            assert state.is_over and steps == len(state.history) > 0, (opt.key, value)


def test_the_core_package_does_not_need_the_rl_extras() -> None:
    import subprocess
    import sys

    code = (
        "import sys, random\n"
        "from folkcards.games import GAMES\n"
        "from folkcards.engine import replay\n"
        "d = GAMES['sasku'].random_deal(random.Random(1))\n"
        "heavy = {'numpy', 'pettingzoo', 'gymnasium', 'pyspiel', 'ray'} & set(sys.modules)\n"
        "print(sorted(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- void deals (SCO-3.4): dealt again as the match would, in every interface -------------

VOID_SEED = 448
"""A reset seed whose first Scopone deal is void (3+ kings on the table, SCO-3.4)."""


def _seeded_decks(seed: int, count: int) -> tuple[int, list[list[int]]]:
    """The dealer and the first ``count`` shuffled packs drawn from ``Random(seed)`` the
    way the environments draw them (dealer first, then one shuffle per deal)."""
    from folkcards.cards import iter_cards

    rng = random.Random(seed)
    dealer = rng.randrange(4)
    decks = []
    for _ in range(count):
        deck = list(iter_cards(GAMES["scopone"].deck))
        rng.shuffle(deck)
        decks.append(deck)
    return dealer, decks


def test_the_void_seed_deals_a_void_first_deal() -> None:
    """Guards the hard-coded seed: if seeding changes, the tests below would test nothing."""
    game = GAMES["scopone"]
    v = game.normalize_variant({})
    dealer, (first, second) = _seeded_decks(VOID_SEED, 2)
    void = game.new_deal(v, dealer, first)
    assert void.is_over and void.history == [] and void.legal_actions() == ()
    assert void.result() == {"score": [0, 0], "redeal": True}
    assert not game.new_deal(v, dealer, second).is_over
    # scientifico has no table cards and no redeal check (SCO-8.1): the same pack is played
    assert not game.new_deal(game.normalize_variant({"scientifico": True}), dealer, first).is_over


def test_pettingzoo_deals_a_void_deal_again_as_the_match_would() -> None:
    """SCO-3.4 / SCO-7.1: reset never hands out the void deal; the same dealer deals the
    next shuffle of the same RNG, and the episode is an ordinary one."""
    from folkcards.cards import CARD_NAMES

    dealer, (first, second) = _seeded_decks(VOID_SEED, 2)
    e = env("scopone")
    e.reset(seed=VOID_SEED)
    u = e.unwrapped
    assert [d.record()["deck"] for d in u.void_deals] == [[CARD_NAMES[c] for c in first]]
    assert u.void_deals[0].result()["redeal"] is True
    s = u.state_
    assert s.dealer == dealer and s.history == [] and not s.is_over
    assert s.record()["deck"] == [CARD_NAMES[c] for c in second]
    assert e.agent_selection == f"seat_{(dealer + 1) % 4}"  # SCO-2.2: eldest plays first
    assert all(e.infos[a]["void_deals"] == 1 for a in e.possible_agents)
    rng = random.Random(0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() == len(s.legal_actions()) > 0
        e.step(int(rng.choice(list(np.flatnonzero(mask)))))
        steps += 1
    assert steps == 36  # a classic deal: 9 cards each (SCO-3.1)
    score = s.result()["score"]
    assert [total[f"seat_{i}"] for i in range(4)] == [score[i % 2] for i in range(4)]
    e.reset(seed=VOID_SEED + 1)
    assert u.void_deals == [] and e.infos["seat_0"]["void_deals"] == 0


def test_gymnasium_deals_a_void_deal_again_like_pettingzoo() -> None:
    """The same seed gives the Gymnasium wrapper the same void deal and the same next deal
    (same dealer, SCO-7.1) as the PettingZoo environment."""
    from folkcards.cards import CARD_NAMES

    dealer, (first, second) = _seeded_decks(VOID_SEED, 2)
    e = env("scopone")
    e.reset(seed=VOID_SEED)
    for seat in range(4):
        g = FolkcardsGym("scopone", seat=seat, opponents="random")
        obs, info = g.reset(seed=VOID_SEED)
        assert info["void_deals"] == 1 and len(g.void_deals) == 1
        assert g.void_deals[0].record() == e.unwrapped.void_deals[0].record()
        assert g.void_deals[0].record()["deck"] == [CARD_NAMES[c] for c in first]
        assert g.state_.dealer == dealer
        assert g.state_.record()["deck"] == e.unwrapped.state_.record()["deck"]
        assert g.state_.record()["deck"] == [CARD_NAMES[c] for c in second]
        assert g.state_.to_act == seat and obs["action_mask"].sum() > 0
        assert len(g.state_.history) == (seat - dealer - 1) % 4  # the bots before the learner


@pytest.mark.parametrize(("name", "step"), [("huutopussi", 1), ("satat", 0)])
def test_episode_deals_follow_the_match_rules_after_a_redeal(name: str, step: int) -> None:
    """After a deal that ends with no decision left for the learner, the next deal is the
    match's next one: the next dealer after a Huutopussi redeal (HUU-4.6, HUU-10.1), the
    same dealer after a Satat no-picture redeal (SAT-5.4, SAT-12.1), with the redeal
    counted in the carried-over ``redeals`` (SAT-12.3)."""
    from folkcards.rl.deals import EpisodeDeals

    game = GAMES[name]
    v = game.normalize_variant({})
    rng = random.Random(7)
    deals = EpisodeDeals(game, v, dealer=2)
    for k in range(2):
        for _ in range(1000):  # a deck whose first seat to act may ask for a redeal
            state = game.new_deal(v, deals.dealer, deals.shuffled(rng), carry=dict(deals.carry))
            if "redeal" in state.legal_texts():
                break
        else:
            raise AssertionError("no deck allowed a redeal")
        dealer = state.dealer
        state.apply("redeal")
        assert state.is_over and state.result()["redeal"]
        deals.skip(state)
        assert deals.void[-1] is state and len(deals.void) == k + 1
        assert deals.dealer == (dealer + step) % state.num_seats
        nxt = deals.playable(rng)
        assert nxt.dealer == deals.dealer and not nxt.is_over
        if name == "satat":
            assert deals.carry["redeals"] == k + 1
            assert nxt.record().get("redeals", 0) == k + 1


def test_gymnasium_deals_again_after_the_bots_redeal() -> None:
    """A Satat deal that the bots end (``redeal`` by the trump maker, SAT-5.4) before the
    learner's first turn is not an episode: the same dealer deals again (SAT-12.1)."""
    found = 0
    for seed in range(600):
        g = FolkcardsGym("satat", seat=3, opponents="random")
        _, info = g.reset(seed=seed)
        assert info["void_deals"] == len(g.void_deals)
        assert g.state_.to_act == 3 and not g.state_.is_over
        if not g.void_deals:
            continue
        found += 1
        chain = [*g.void_deals, g.state_]
        for before, after in itertools.pairwise(chain):
            assert before.is_over and 3 not in before.actors
            assert before.result()["redeal"] in ("no_pictures", "no_trumps")
            assert after.dealer == before.dealer
    assert found >= 3


def test_openspiel_deals_a_void_deal_again_with_new_chance_nodes() -> None:
    """SCO-3.4 / SCO-7.1 in OpenSpiel: a void pack is not terminal; a new round of chance
    nodes deals the next pack, by the same dealer; the void deal stays in every seat's
    information state."""
    pyspiel = pytest.importorskip("pyspiel")
    from folkcards.cards import CARD_NAMES
    from folkcards.rl.openspiel import register, short_name

    register(["scopone"])
    dealer, (first, second) = _seeded_decks(VOID_SEED, 2)
    game = pyspiel.load_game(short_name("scopone"), {"dealer": dealer})
    state = game.new_initial_state()
    for c in first:
        assert state.is_chance_node()
        state.apply_action(c)
    assert state.is_chance_node() and not state.is_terminal()
    assert len(state.chance_outcomes()) == 40
    assert state.returns() == [0.0] * 4
    void_line, dealing = str(state).splitlines()
    assert json.loads(void_line)["deck"] == [CARD_NAMES[c] for c in first]
    assert dealing == "dealing: 0 cards drawn"
    for c in second:
        state.apply_action(c)
    assert state.current_player() == (dealer + 1) % 4
    assert state.deal.dealer == dealer
    assert state.deal.record()["deck"] == [CARD_NAMES[c] for c in second]
    texts = [state.information_state_string(p) for p in range(4)]
    for p, text in enumerate(texts):
        void = json.loads(text)["void_deals"]
        assert len(void) == 1 and void[0]["result"] == {"score": [0, 0], "redeal": True}
        assert void[0]["seat"] == p
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(0) == texts[0]
    assert str(state.clone()) == str(state)
    rng = random.Random(1)
    moves = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    assert moves == 36 <= game.max_game_length()
    score = state.deal.result()["score"]
    assert state.returns() == [float(score[p % 2]) for p in range(4)]


@pytest.mark.parametrize("name", NAMES)
def test_reset_always_selects_an_agent_with_a_legal_action(name: str) -> None:
    """No seed gives an agent an empty mask at reset (the bench's crash, issue item 3)."""
    e = env(name)
    seeds = [*range(40), VOID_SEED]
    voids = 0
    for seed in seeds:
        e.reset(seed=seed)
        obs, _, term, trunc, _ = e.last()
        assert not (term or trunc)
        assert obs["action_mask"].sum() == len(e.unwrapped.state_.legal_actions()) > 0
        voids += len(e.unwrapped.void_deals)
    assert voids == (1 if name == "scopone" else 0)


def test_env_bench_runs_through_a_void_deal() -> None:
    from folkcards.benchmarks.env_steps import env_steps

    assert env_steps(GAMES["scopone"], 0.05, seed=VOID_SEED) > 0
