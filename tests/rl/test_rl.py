"""Research interfaces: PettingZoo AEC envs, the Gymnasium wrapper, OpenSpiel registration."""

from __future__ import annotations

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
    """Each variant option value (one at a time) plays a whole masked episode."""
    game = GAMES[name]
    rng = random.Random(11)
    for opt in game.variant_options:
        values = opt.choices or ((not opt.default,) if isinstance(opt.default, bool) else ())
        for value in values:
            try:
                game.normalize_variant({opt.key: value})
            except ValueError:
                continue  # a value that needs another option with it
            e = env(name, **{opt.key: value})
            e.reset(seed=rng.randrange(1000))
            for agent in e.agent_iter():
                obs, _, term, trunc, _ = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                mask = obs["action_mask"]
                assert mask.sum() == len(e.unwrapped.state_.legal_actions()), agent
                e.step(int(rng.choice(list(np.flatnonzero(mask)))))


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
