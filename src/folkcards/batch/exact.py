"""The differential check: the same worlds with the same choices through the batched and
the scalar engine must give identical tricks, points and results.

:func:`positions` draws play-phase states of random variants (the choices before and in
play uniformly random); :func:`check` plays each of them through a game's kernel (random
or fast policy, the choices recorded), replays the recorded choices through the scalar
engine and lists every difference. ``tests/batch`` runs a few thousand positions;
``benchmarks/batch_exact.py`` runs 10⁵ and more.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from folkcards.batch import kernel_for
from folkcards.engine.api import DealState, FolkcardsError, Game


def random_variant(game: Game, rng: random.Random) -> dict[str, Any]:
    """A random valid variant: Huutopussi's own sampler (every rule set of HUU-11), else a
    random choice among each option's listed values (booleans: both)."""
    sampler = getattr(game, "sample_variant", None)
    if sampler is not None:
        v: dict[str, Any] = sampler(rng)
        return v
    for _ in range(50):
        v = {}
        for opt in game.variant_options:
            if opt.choices:
                v[opt.key] = rng.choice(opt.choices)
            elif isinstance(opt.default, bool):
                v[opt.key] = rng.random() < 0.5
        try:
            game.normalize_variant(v)
        except FolkcardsError:
            continue
        return v
    return {}


def positions(game: Game, n: int, seed: int) -> list[DealState]:
    """``n`` states in card play (``kernel.encode_one`` accepts them) at random points of
    random deals of random variants."""
    rng = random.Random(f"batch-positions:{game.name}:{seed}")
    kernel = kernel_for(game.name)
    assert kernel is not None
    out: list[DealState] = []
    while len(out) < n:
        variant = random_variant(game, rng)
        v = game.normalize_variant(variant)
        st = game.random_deal(rng, variant, dealer=rng.randrange(game.num_seats(v)))
        candidates = []
        while not st.is_over:
            if kernel.accepts(st):
                candidates.append(st.clone())
            st.apply(rng.choice(st.legal_actions()))
        if candidates:
            out.append(rng.choice(candidates))
    return out


@dataclass
class Report:
    """What :func:`check` found."""

    game: str
    positions: int = 0
    actions: int = 0
    failures: list[str] = field(default_factory=list)


def check(
    game: Game, states: list[DealState], policy: str = "random", seed: int = 1, limit: int = 10
) -> Report:
    """Play ``states`` through the kernel (recording its choices), replay each through the
    scalar engine, and report every row whose tricks, points or result differ (at most
    ``limit`` described)."""
    kernel = kernel_for(game.name)
    assert kernel is not None
    base = kernel.encode(states)
    a = kernel.build(base, np.arange(len(states)), seed=seed, record=True)
    report = Report(game.name, len(states))
    report.actions = kernel.play(a, policy)
    for i, st in enumerate(states):
        codes = [int(c) for c in a["record"][i, : a["nrec"][i]]]
        try:
            final = kernel.replay(st, codes)
            problems = kernel.mismatches(a, i, final)
        except (FolkcardsError, ValueError) as exc:
            problems = [f"the scalar engine refused the batch's choices: {exc}"]
        if problems:
            if len(report.failures) < limit:
                report.failures.append(f"{game.name} row {i} ({policy}): {'; '.join(problems)}")
            else:
                report.failures.append("…")
    return report
