"""Train a small policy on Scopone card play with numpy, and show it beating `random`.

The learner sits at seat 0 of the Gymnasium wrapper (`FolkcardsGym`); the other three
seats are `random` bots. The policy is a softmax over the legal actions with a linear
score of a few features of each action, read from the seat's own observation (how many
cards it takes, coins, the settebello, sevens, sixes, a sweep, and — when it takes
nothing — what it leaves on the table). It is trained by REINFORCE with a running
baseline on the deal's score margin. Evaluation is duplicate: the same deals (seeds) are
played once by the trained policy and once by a uniformly random policy in seat 0.

    .venv/bin/python examples/train_policy.py --minutes 3
    .venv/bin/python examples/train_policy.py --episodes 20 --eval-deals 20   # smoke run
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from folkcards.engine.api import Observation
from folkcards.rl.gym_env import FolkcardsGym

VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
FEATURES = 10


def action_features(obs: Observation, text: str) -> np.ndarray:
    """Features of one legal action, from the observation and the action's text."""
    tokens = text.split()
    played, taken = tokens[1], tokens[3:]
    table = list(obs.info.get("table", []))
    f = np.zeros(FEATURES)
    if taken:
        won = [played, *taken]
        f[0] = 1.0
        f[1] = len(taken) / 4
        f[2] = sum(c.endswith("D") for c in won) / 4
        f[3] = float("7D" in won)
        f[4] = sum(c[0] == "7" for c in won) / 2
        f[5] = sum(c[0] == "6" for c in won) / 2
        f[6] = float(len(taken) == len(table))  # a sweep (scopa)
    else:
        left = sum(VALUE[c[0]] for c in table) + VALUE[played[0]]
        f[7] = float(left <= 10)  # the next seat may sweep
        f[8] = float(played == "7D") + 0.5 * float(played[0] == "7")
        f[9] = float(played.endswith("D"))
    return f


def policy(w: np.ndarray, obs: Observation) -> tuple[np.ndarray, np.ndarray]:
    """Action probabilities and the feature matrix of the legal actions."""
    feats = np.stack([action_features(obs, a.text) for a in obs.legal])
    z = feats @ w
    p = np.exp(z - z.max())
    return p / p.sum(), feats


def run_episode(
    env: FolkcardsGym, w: np.ndarray | None, seed: int, rng: np.random.Generator, greedy: bool
) -> tuple[float, list[tuple[np.ndarray, int]]]:
    """One deal for seat 0 (w None: uniformly random play); the margin and the steps."""
    env.reset(seed=seed)
    steps: list[tuple[np.ndarray, int]] = []
    done, reward = False, 0.0
    while not done:
        assert env.state_ is not None
        obs = env.state_.observation(env.seat)
        if w is None:
            k = int(rng.integers(len(obs.legal)))
        else:
            p, feats = policy(w, obs)
            k = int(np.argmax(p)) if greedy else int(rng.choice(len(p), p=p))
            steps.append((feats, k))
        index = env.encoder.encode(obs.legal[k], obs.legal)
        _, r, done, _, _ = env.step(index)
        reward = float(r)
    return reward, steps


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--episodes", type=int, default=0, help="stop after this many (0: by time)")
    ap.add_argument("--eval-deals", type=int, default=400)
    ap.add_argument("--lr", type=float, default=0.1)
    args = ap.parse_args()
    env = FolkcardsGym("scopone", seat=0, opponents="random", reward="margin")
    w = np.zeros(FEATURES)
    rng = np.random.default_rng(1)
    baseline, episodes, start = 0.0, 0, time.time()
    while (
        (episodes < args.episodes) if args.episodes else (time.time() - start < args.minutes * 60)
    ):
        reward, steps = run_episode(env, w, 10_000 + episodes, rng, greedy=False)
        adv = reward - baseline
        baseline += 0.02 * (reward - baseline)
        for feats, k in steps:
            p = feats @ w
            p = np.exp(p - p.max())
            p /= p.sum()
            w += args.lr * adv * (feats[k] - p @ feats) / math.sqrt(len(steps))
        episodes += 1
    seconds = time.time() - start
    eval_rng = np.random.default_rng(0)
    trained = [run_episode(env, w, i, eval_rng, greedy=True)[0] for i in range(args.eval_deals)]
    rand = [run_episode(env, None, i, eval_rng, greedy=False)[0] for i in range(args.eval_deals)]
    diff = np.array(trained) - np.array(rand)
    half = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff)) if len(diff) > 1 else float("nan")
    print(f"trained on {episodes} deals in {seconds:.0f} s; weights {np.round(w, 2).tolist()}")
    print(f"{args.eval_deals} duplicate deals, seat 0 vs 3 random bots, mean score margin:")
    print(f"  trained policy {np.mean(trained):+.3f}   random policy {np.mean(rand):+.3f}")
    print(f"  difference {diff.mean():+.3f} ± {half:.3f} (95% CI)")
    print(
        f"  deals won (margin > 0): trained {np.mean(np.array(trained) > 0):.1%}, "
        f"random {np.mean(np.array(rand) > 0):.1%}"
    )


if __name__ == "__main__":
    main()
