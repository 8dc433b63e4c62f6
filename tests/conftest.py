"""Shared test fixtures: where the normative rules live."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run and every machine (the brief: tests
# are deterministic); no example database carries failures between runs; and no example
# fails for its time (hypothesis's default 200 ms deadline): speed is measured by the
# benchmarks, and a slow or loaded CI machine must not fail a correct engine.
settings.register_profile("folkcards", derandomize=True, database=None, deadline=None)
settings.load_profile("folkcards")

REPO = Path(__file__).resolve().parents[1]


def rules_dir() -> Path:
    """``../shared/rules`` beside the repository (as laid out for developers and CI)."""
    for candidate in (REPO.parent / "shared" / "rules", Path("/work/shared/rules")):
        if candidate.is_dir():
            return candidate
    pytest.skip("the normative rules (../shared/rules) are not beside this checkout")


@pytest.fixture
def rules_path() -> Path:
    """The folder of the normative rules files."""
    return rules_dir()


BENCHMARKS = Path(__file__).parents[1] / "benchmarks"


@pytest.fixture
def load_benchmark() -> Callable[[str], ModuleType]:
    """``load_benchmark(name)``: the script ``benchmarks/<name>.py`` as a module (the
    benchmark scripts are run by path, not imported from a package)."""

    def load(name: str) -> ModuleType:
        module_name = f"_benchmark_{name}"
        spec = importlib.util.spec_from_file_location(module_name, BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module  # dataclasses look their module up while defined
        spec.loader.exec_module(module)
        return module

    return load


@pytest.fixture
def kernel_reads(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], list[tuple[int, bool]]]:
    """``kernel_reads(game)`` watches that game's batched kernel read sampled deals: a list
    that gets ``(deals, bids)`` for every call of its ``likelihoods`` or, for deals given
    by their hands (``draws_hands``), its ``likelihoods_hands`` (the weights are the
    kernel's own)."""
    from folkcards.batch import kernel_for

    def watch(game: str) -> list[tuple[int, bool]]:
        kernel = kernel_for(game)
        assert kernel is not None
        calls: list[tuple[int, bool]] = []
        likelihoods = kernel.likelihoods  # type: ignore[attr-defined]

        def spy(worlds: Any, seat: int, miss: float, bids: bool = True) -> Any:
            calls.append((len(worlds), bids))
            return likelihoods(worlds, seat, miss, bids)

        monkeypatch.setattr(kernel, "likelihoods", spy, raising=False)
        if kernel.draws_hands:
            of_hands = kernel.likelihoods_hands

            def spy_hands(
                template: Any, hands: Any, seat: int, miss: float, bids: bool = True
            ) -> Any:
                calls.append((len(hands), bids))
                return of_hands(template, hands, seat, miss, bids)

            monkeypatch.setattr(kernel, "likelihoods_hands", spy_hands)
        return calls

    return watch


@pytest.fixture
def hands_drawn_alike() -> Callable[..., None]:
    """``hands_drawn_alike(game, obs, cards, alone=None)``: over 1,500 draws each, how
    often each of ``cards`` lies with each seat differs between ``game.determinize`` and
    the hands drawn alone by less than five standard errors, and at least 20 hidden cards
    really move between seats (the hands alone must be drawn as whole deals are). The hands
    alone are ``game.determinize_hands``'s, or ``alone(rng, n)``'s: n rows drawn at once
    (``GameKernel.deal_hands``)."""

    def check(game: Any, obs: Any, cards: Sequence[int], alone: Any = None) -> None:
        n = 1500
        counts = []
        for draws in (
            lambda rng: [list(game.determinize(obs, rng).hands) for _ in range(n)],
            lambda rng: (
                [game.determinize_hands(obs, rng) for _ in range(n)]
                if alone is None
                else [[int(h) for h in row] for row in alone(rng, n)]
            ),
        ):
            tally = [[0] * len(cards) for _ in range(4)]
            for hands in draws(random.Random(21)):
                assert hands is not None and hands[obs.seat] == obs.hand
                for s in range(4):
                    for i, c in enumerate(cards):
                        tally[s][i] += hands[s] >> c & 1
            counts.append(tally)
        varied = 0
        for s in range(4):
            for i in range(len(cards)):
                p = (counts[0][s][i] + counts[1][s][i]) / (2 * n)
                if 0 < p < 1:
                    varied += 1
                    se = (2 * p * (1 - p) / n) ** 0.5
                    assert abs(counts[0][s][i] - counts[1][s][i]) / n < 5 * se, (s, cards[i])
        assert varied >= 20  # hidden cards that really move between seats

    return check
