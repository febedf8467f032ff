"""pass@k, cost accounting and the log-linear scaling fit. Pure functions, no IO.

- ``pass_at_k(n, c, k)``: the unbiased estimator of Chen et al. (2021),
  ``1 - C(n-c, k) / C(n, k)``: the probability that a random size-``k`` subset of the ``n``
  recorded attempts contains at least one of the ``c`` successes. Needs ``k <= n``.
- Expected cost of pass@k on a problem: ``k`` x the mean cost of its attempts (each of the
  ``k`` attempts in a random subset costs the mean in expectation).
- ``loglinear_fit(costs, solved)``: least squares ``solved ≈ a + b·ln(cost)`` with R², the
  form in which test-time scaling is usually reported (solve rate linear in log compute).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from ``n`` attempts with ``c`` successes; ``ValueError`` if ``k > n``."""
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got c={c}, n={n}")
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got k={k}, n={n}")
    if n - c < k:
        return 1.0
    # product form avoids huge binomials: C(n-c,k)/C(n,k) = prod_{i=n-c+1}^{n} (1 - k/i)
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def mean_pass_at_k(counts: Sequence[tuple[int, int]], k: int) -> float:
    """Mean pass@k over problems given (n, c) per problem; problems with n < k are an error."""
    if not counts:
        return 0.0
    return sum(pass_at_k(n, c, k) for n, c in counts) / len(counts)


def k_grid(max_n: int) -> list[int]:
    """1, 2, 4, ... up to ``max_n``, plus ``max_n`` itself."""
    ks, k = [], 1
    while k < max_n:
        ks.append(k)
        k *= 2
    if max_n >= 1:
        ks.append(max_n)
    return ks


@dataclass(frozen=True)
class Fit:
    """``y = a + b·ln(x)``; ``r2`` is the coefficient of determination (nan if undefined)."""

    a: float
    b: float
    r2: float
    points: int

    def predict(self, x: float) -> float:
        return self.a + self.b * math.log(x)

    def describe(self, unit: str) -> str:
        if self.points < 2:
            return f"not enough points to fit ({self.points})"
        r2 = "n/a" if math.isnan(self.r2) else f"{self.r2:.3f}"
        return (f"solved = {self.a:.4f} {self.b:+.4f}·ln({unit}), R² = {r2}, {self.points} points; "
                f"{self.b * math.log(2) * 100:+.2f} points of solve rate per doubling")


def loglinear_fit(xs: Sequence[float], ys: Sequence[float]) -> Fit:
    """Least-squares fit of ``y`` on ``ln x`` over points with ``x > 0``."""
    pts = [(math.log(x), y) for x, y in zip(xs, ys, strict=True) if x > 0]
    n = len(pts)
    if n < 2:
        return Fit(a=pts[0][1] if pts else float("nan"), b=0.0, r2=float("nan"), points=n)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        return Fit(a=my, b=0.0, r2=float("nan"), points=n)
    b = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx
    a = my - b * mx
    ss_tot = sum((p[1] - my) ** 2 for p in pts)
    ss_res = sum((p[1] - (a + b * p[0])) ** 2 for p in pts)
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 1e-12 else float("nan")  # flat data: R² undefined
    return Fit(a=a, b=b, r2=r2, points=n)
