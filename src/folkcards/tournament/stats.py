"""Statistics for tournaments: confidence intervals over duplicate boards.

The unit of a duplicate tournament is the *board* (one deck played in every seat
arrangement), since the plays of one board share its luck; intervals are therefore
computed over per-board values, never over single plays.

* Win rates (and paired differences of win rates) get a **percentile bootstrap over
  boards** (:func:`bootstrap_ci`): the boards are resampled with replacement, so the
  interval is made of resampled means of per-board shares and cannot leave [0, 1]
  (a difference of two shares stays in [-1, 1]).
* Margins and scores per deal, which have no bounds, get a **Student-t interval over
  boards** (:func:`mean_ci`).

Below :data:`FEW_BOARDS` boards neither is to be trusted (a bootstrap over a handful of
boards is far too narrow, a t-interval absurdly wide); the tournament summary says so.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """The Student-t distribution's CDF with ``df`` degrees of freedom."""
    x = df / (df + t * t)
    tail = 0.5 * betainc(df / 2.0, 0.5, x)
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (bisection on the CDF; exact to ~1e-10)."""
    if not 0.0 < p < 1.0:
        raise ValueError("p must be in (0, 1)")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2.0


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its confidence interval ``[low, high]`` over ``n`` values."""

    mean: float
    low: float
    high: float
    n: int
    confidence: float = 0.95
    method: str = "student-t"
    """How the interval was made: ``"student-t"`` or ``"bootstrap"`` (percentile, over
    the values — the boards — resampled with replacement)."""

    @property
    def half_width(self) -> float:
        """Half the interval's width (the ± of the estimate)."""
        return (self.high - self.low) / 2.0

    def to_dict(self, digits: int = 4) -> dict[str, float | int | str]:
        """JSON-ready form."""
        return {
            "mean": round(self.mean, digits),
            "low": round(self.low, digits),
            "high": round(self.high, digits),
            "n": self.n,
            "method": self.method,
        }

    def __str__(self) -> str:
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}]"


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """Mean and two-sided Student-t interval of ``values`` (treated as independent draws).

    One value gives a degenerate interval at the mean (there is no spread to measure);
    no values is an error.
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1, confidence)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    q = t_quantile(0.5 + confidence / 2.0, n - 1)
    half = q * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n, confidence)


FEW_BOARDS = 30
"""Fewer boards than this and an interval is too unreliable to mean much (the summary
flags it): the percentile bootstrap undercovers badly on small samples."""

BOOTSTRAP_RESAMPLES = 2000
"""Resamples of a bootstrap interval (the percentiles' own error is then about ±0.5
point of a win rate at 100 boards)."""


def bootstrap_ci(
    values: Sequence[float],
    confidence: float = 0.95,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> Estimate:
    """Mean and percentile-bootstrap interval of ``values`` (one value per board).

    ``resamples`` times, ``len(values)`` values are drawn with replacement and averaged;
    the interval runs between the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2``
    quantiles of those means. Every resampled mean lies between the smallest and the
    largest value, so shares in [0, 1] give an interval inside [0, 1]. The RNG is seeded
    (``seed``), so the same values always give the same interval. One value gives a
    degenerate interval at it; no values is an error.
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n == 1 or min(values) == max(values):
        return Estimate(mean, mean, mean, n, confidence, "bootstrap")
    rng = random.Random(seed)
    pool = list(values)
    means = sorted(math.fsum(rng.choices(pool, k=n)) / n for _ in range(resamples))
    tail = (1.0 - confidence) / 2.0
    low = _quantile(means, tail)
    high = _quantile(means, 1.0 - tail)
    return Estimate(mean, min(low, mean), max(high, mean), n, confidence, "bootstrap")


def _quantile(ordered: Sequence[float], p: float) -> float:
    """The ``p`` quantile of sorted values (linear interpolation between order statistics)."""
    pos = p * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)
