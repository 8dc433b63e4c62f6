"""Confidence-interval arithmetic."""

from __future__ import annotations

import math

import pytest

from folkcards.tournament.stats import betainc, mean_ci, t_cdf, t_quantile


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
