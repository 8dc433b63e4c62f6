"""Confidence-interval arithmetic."""

from __future__ import annotations

import math
import random

import pytest

from folkcards.tournament import stats
from folkcards.tournament.stats import betainc, bootstrap_ci, mean_ci, t_cdf, t_quantile


@pytest.mark.parametrize(
    ("p", "df", "expected"),
    [
        (0.975, 1, 12.7062),
        (0.975, 2, 4.3027),
        (0.975, 4, 2.7764),
        (0.975, 9, 2.2622),
        (0.975, 30, 2.0423),
        (0.975, 1000, 1.9623),
        (0.995, 10, 3.1693),
        (0.95, 20, 1.7247),
    ],
)
def test_t_quantiles_match_the_tables(p: float, df: int, expected: float) -> None:
    assert t_quantile(p, df) == pytest.approx(expected, abs=1e-4)
    assert t_quantile(1 - p, df) == pytest.approx(-expected, abs=1e-4)
    assert t_cdf(expected, df) == pytest.approx(p, abs=1e-5)


def test_closed_forms() -> None:
    assert t_quantile(0.5, 7) == 0.0
    # df = 1 is the Cauchy distribution: quantile tan(pi (p - 1/2))
    assert t_quantile(0.9, 1) == pytest.approx(math.tan(math.pi * 0.4), rel=1e-9)
    # I_x(1, 1) = x; I_x(a, 1) = x^a
    assert betainc(1, 1, 0.3) == pytest.approx(0.3)
    assert betainc(3, 1, 0.5) == pytest.approx(0.125)


def test_mean_ci_by_hand() -> None:
    est = mean_ci([1, 2, 3, 4, 5])
    se = math.sqrt(2.5 / 5)  # sample variance 2.5
    assert est.mean == 3
    assert est.half_width == pytest.approx(2.776445 * se, rel=1e-5)
    assert (est.low, est.high) == pytest.approx((3 - 1.963243, 3 + 1.963243), abs=1e-5)
    assert est.n == 5


def test_mean_ci_edges() -> None:
    one = mean_ci([0.7])
    assert (one.low, one.mean, one.high) == (0.7, 0.7, 0.7)
    flat = mean_ci([0.5] * 10)
    assert flat.low == flat.high == 0.5
    wider = mean_ci([0, 1] * 5, confidence=0.99)
    narrower = mean_ci([0, 1] * 5, confidence=0.90)
    assert wider.half_width > narrower.half_width
    with pytest.raises(ValueError):
        mean_ci([])


def test_bootstrap_stays_inside_the_values_range() -> None:
    # two boards: a Student-t interval would run to [-242.7, 392.7] % here
    two = bootstrap_ci([0.5, 1.0])
    assert two.method == "bootstrap"
    assert 0.5 <= two.low <= two.mean == 0.75 <= two.high <= 1.0
    t = mean_ci([0.5, 1.0])
    assert t.low < 0 and t.high > 1
    rng = random.Random(3)
    for n in (3, 10, 50):
        values = [rng.choice([0.0, 0.25, 0.5, 0.75, 1.0]) for _ in range(n)]
        est = bootstrap_ci(values)
        assert 0.0 <= min(values) <= est.low <= est.mean <= est.high <= max(values) <= 1.0


def test_bootstrap_is_reproducible_and_degenerate_cases() -> None:
    values = [0.0, 0.5, 1.0, 1.0, 0.5, 0.25]
    assert bootstrap_ci(values) == bootstrap_ci(list(values))
    one = bootstrap_ci([0.7])
    assert (one.low, one.mean, one.high, one.n) == (0.7, 0.7, 0.7, 1)
    flat = bootstrap_ci([1.0] * 8)
    assert flat.low == flat.high == 1.0
    with pytest.raises(ValueError):
        bootstrap_ci([])
    assert bootstrap_ci(values).to_dict()["method"] == "bootstrap"
    assert mean_ci(values).to_dict()["method"] == "student-t"


def test_bootstrap_agrees_with_t_on_many_boards() -> None:
    rng = random.Random(5)
    values = [rng.choice([0.0, 0.5, 1.0]) for _ in range(400)]
    b, t = bootstrap_ci(values), mean_ci(values)
    assert b.low == pytest.approx(t.low, abs=0.01)
    assert b.high == pytest.approx(t.high, abs=0.01)


def test_bootstrap_covers_the_true_mean() -> None:
    """About 95 % of intervals over 60 boards hold the true share (p = 0.6)."""
    rng = random.Random(11)
    hits = 0
    trials = 200
    for i in range(trials):
        values = [(rng.random() < 0.6) * 0.5 + (rng.random() < 0.6) * 0.5 for _ in range(60)]
        est = bootstrap_ci(values, resamples=400, seed=i)
        hits += est.low <= 0.6 <= est.high
    assert 0.88 <= hits / trials <= 0.99


def test_no_normal_quantile_left_behind() -> None:
    assert not hasattr(stats, "z_quantile")
