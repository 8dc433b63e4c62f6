"""Train a small policy on Scopone card play with numpy, and show it beating `random`.

A linear softmax policy over the folkcards observation vector, trained by REINFORCE with
a running baseline in the Gymnasium wrapper (seat 0 learns; the other three seats are
`random` bots; reward = the deal's score margin). Evaluation is duplicate: the same deals
(seeds) are played by the trained policy and by a uniformly random policy in seat 0.

    .venv/bin/python examples/train_policy.py --minutes 3
    .venv/bin/python examples/train_policy.py --episodes 20   # smoke run (CI)
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from folkcards.rl.gym_env import FolkcardsGym


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask > 0, logits, -np.inf)
    z = z - z.max()
    p = np.exp(z)
    return p / p.sum()


def run_episode(
    env: FolkcardsGym,
    w: np.ndarray,
    seed: int,
    rng: np.random.Generator,
    greedy: bool,
    random_policy: bool = False,
) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    obs, _ = env.reset(seed=seed)
    steps: list[tuple[np.ndarray, np.ndarray, int]] = []
    done, reward = False, 0.0
    while not done:
        x, mask = obs["observation"], obs["action_mask"]
        if random_policy:
            a = int(rng.choice(np.flatnonzero(mask)))
        else:
            p = masked_softmax(x @ w, mask)
            a = int(np.argmax(p)) if greedy else int(rng.choice(len(p), p=p))
        steps.append((x, mask, a))
        obs, r, done, _, _ = env.step(a)
        reward = float(r)
    return reward, steps


def evaluate(env: FolkcardsGym, w: np.ndarray, deals: int, seed0: int) -> tuple[float, float]:
    """Mean margin of the trained policy and of random play on the same deals."""
    rng = np.random.default_rng(0)
    trained = [run_episode(env, w, seed0 + i, rng, greedy=True)[0] for i in range(deals)]
    rand = [
        run_episode(env, w, seed0 + i, rng, greedy=False, random_policy=True)[0]
        for i in range(deals)
    ]
    return float(np.mean(trained)), float(np.mean(rand))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--episodes", type=int, default=0, help="stop after this many (0: by time)")
    ap.add_argument("--eval-deals", type=int, default=300)
    ap.add_argument("--lr", type=float, default=0.05)
    args = ap.parse_args()
    env = FolkcardsGym("scopone", seat=0, opponents="random", reward="margin")
    w = np.zeros((env.encoder.size, env.encoder.num_actions))
    rng = np.random.default_rng(1)
    baseline, episodes, start = 0.0, 0, time.time()
    while True:
        if args.episodes and episodes >= args.episodes:
            break
        if not args.episodes and time.time() - start > args.minutes * 60:
            break
        reward, steps = run_episode(env, w, 10_000 + episodes, rng, greedy=False)
        adv = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for x, mask, a in steps:
            p = masked_softmax(x @ w, mask)
            grad = -p
            grad[a] += 1.0
            w += args.lr * adv * np.outer(x, np.where(mask > 0, grad, 0.0)) / math.sqrt(len(steps))
        episodes += 1
    deals = min(args.eval_deals, max(10, args.episodes or args.eval_deals))
    trained, rand = evaluate(env, w, deals, seed0=1)
    print(f"trained on {episodes} deals in {time.time() - start:.0f} s")
    print(
        f"mean score margin over {deals} duplicate deals: trained {trained:+.3f}, random {rand:+.3f}"
    )


if __name__ == "__main__":
    main()
