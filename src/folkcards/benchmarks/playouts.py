"""Random full-deal playouts through the public engine API: the engine speed figure.

A *random full deal* is a new deal from a shuffled deck, then a uniformly random
choice among ``legal_actions()`` applied with ``apply`` until the deal is over, then
``result()`` — the same loop as ``shared/bench/openspiel_playouts.py`` runs on
OpenSpiel's C++ games, so the two can be compared as a ratio in one run.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from folkcards.cards import iter_cards
from folkcards.engine.api import Game


def playouts(
    game: Game, seconds: float, variant: dict[str, Any] | None = None, seed: int = 1
) -> tuple[float, float]:
    """Deals per second and µs per action for ``seconds`` of random playouts from ``seed``."""
    v = game.normalize_variant(variant or {})
    rng = random.Random(seed)
    rnd = rng.random
    base = list(iter_cards(game.deck))
    seats = game.num_seats(v)
    deals = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            deck = base[:]
            rng.shuffle(deck)
            s = game.new_deal(v, deals % seats, deck)
            while s.to_act is not None:
                legal = s.legal_actions()
                s.apply(legal[int(rnd() * len(legal))])
                actions += 1
            s.result()
            deals += 1
    elapsed = time.perf_counter() - start
    return deals / elapsed, elapsed * 1e6 / max(actions, 1)


def _medians(runs: list[tuple[float, float]]) -> dict[str, float]:
    """``deals_per_s`` and ``us_per_action``: the medians of ``(deals/s, µs/action)`` runs."""
    return {
        "deals_per_s": statistics.median(r[0] for r in runs),
        "us_per_action": statistics.median(r[1] for r in runs),
    }


def bench_games(games: list[Game], seconds: float, repeats: int = 5) -> dict[str, dict[str, float]]:
    """Median deals/s and µs/action of each game over ``repeats`` runs."""
    out: dict[str, dict[str, float]] = {}
    for game in games:
        # A new seed per run: replaying the same deals would let a game's memo tables
        # answer from the previous run and overstate its speed on new deals.
        runs = [playouts(game, seconds, seed=1 + i) for i in range(repeats)]
        out[game.name] = _medians(runs)
    return out


def openspiel_playouts(game: Any, seconds: float, seed: int = 1) -> tuple[float, float]:
    """Deals per second and µs per action of ``seconds`` of the same loop on a loaded
    OpenSpiel game (``pyspiel.load_game``), chance outcomes drawn from ``seed``."""
    rnd = random.Random(seed).random
    deals = acts = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    outcomes = s.chance_outcomes()
                    a = outcomes[int(rnd() * len(outcomes))][0]
                else:
                    legal = s.legal_actions()
                    a = legal[int(rnd() * len(legal))]
                s.apply_action(a)
                acts += 1
            s.returns()
            deals += 1
    el = time.perf_counter() - start
    return deals / el, el * 1e6 / acts


def bench_openspiel(
    names: list[str], seconds: float, repeats: int = 5
) -> dict[str, dict[str, float]]:
    """The same loop on OpenSpiel's C++ games (needs ``open_spiel``; {} without it)."""
    try:
        import pyspiel
    except ImportError:
        return {}
    out: dict[str, dict[str, float]] = {}
    for name in names:
        game = pyspiel.load_game(name)
        runs = [openspiel_playouts(game, seconds) for _ in range(repeats)]
        out[f"openspiel:{name}"] = _medians(runs)
    return out


def bench_with_skat(
    games: list[Game], seconds: float, repeats: int = 5
) -> dict[str, dict[str, float]]:
    """Each game's figures of :func:`bench_games` and its speed as a ratio to OpenSpiel's
    Skat, the two run in turn; {} without ``open_spiel``.

    Every run of a game is followed at once by a run of Skat of the same length, and the
    ratio is taken pair by pair: the machine's speed drifts with its load over seconds,
    and two runs side by side drift alike where a block of one game's runs and a block of
    Skat's later do not. ``skat_ratio`` is the median of the pairs' ratios, ``ratio_low``
    and ``ratio_high`` their range; ``openspiel:skat`` is the median of all Skat's runs.
    """
    try:
        import pyspiel
    except ImportError:
        return {}
    skat = pyspiel.load_game("skat")
    out: dict[str, dict[str, float]] = {}
    skat_runs: list[tuple[float, float]] = []
    for game in games:
        runs, ratios = [], []
        for i in range(repeats):
            ours = playouts(game, seconds, seed=1 + i)
            theirs = openspiel_playouts(skat, seconds, seed=1 + i)
            runs.append(ours)
            skat_runs.append(theirs)
            ratios.append(ours[0] / theirs[0])
        out[game.name] = {
            **_medians(runs),
            "skat_ratio": statistics.median(ratios),
            "ratio_low": min(ratios),
            "ratio_high": max(ratios),
        }
    out["openspiel:skat"] = _medians(skat_runs)
    return out
