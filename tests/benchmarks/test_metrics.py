"""pass@k against brute-force enumeration; the log-linear fit against known lines."""

import itertools
import math
import random

import pytest

from benchmarks.metrics import k_grid, loglinear_fit, mean_pass_at_k, pass_at_k


def brute_pass_at_k(n: int, c: int, k: int) -> float:
    """Fraction of all size-k subsets of n attempts (c successes) that contain a success."""
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    return sum(any(outcomes[i] for i in s) for s in subsets) / len(subsets)


@pytest.mark.parametrize("n", range(1, 11))
def test_pass_at_k_matches_enumeration(n):
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert pass_at_k(n, c, k) == pytest.approx(brute_pass_at_k(n, c, k), abs=1e-12), (n, c, k)


def test_pass_at_k_closed_form_large_n():
    n, c, k = 200, 7, 16
    expected = 1 - math.comb(n - c, k) / math.comb(n, k)
    assert pass_at_k(n, c, k) == pytest.approx(expected, rel=1e-12)


def test_pass_at_k_edges_and_errors():
    assert pass_at_k(5, 0, 5) == 0.0
    assert pass_at_k(5, 1, 5) == 1.0
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25)
    for bad in [(3, 4, 1), (3, 1, 4), (3, 1, 0), (3, -1, 1)]:
        with pytest.raises(ValueError):
            pass_at_k(*bad)


def test_mean_pass_at_k_and_grid():
    assert mean_pass_at_k([(4, 0), (4, 4)], 1) == pytest.approx(0.5)
    assert mean_pass_at_k([], 1) == 0.0
    assert k_grid(1) == [1]
    assert k_grid(8) == [1, 2, 4, 8]
    assert k_grid(6) == [1, 2, 4, 6]


def test_loglinear_fit_recovers_line():
    xs = [1, 2, 4, 8, 16, 32]
    ys = [0.1 + 0.05 * math.log(x) for x in xs]
    fit = loglinear_fit(xs, ys)
    assert fit.a == pytest.approx(0.1)
    assert fit.b == pytest.approx(0.05)
    assert fit.r2 == pytest.approx(1.0)
    assert fit.predict(64) == pytest.approx(0.1 + 0.05 * math.log(64))


def test_loglinear_fit_noise_lowers_r2_and_degenerate_cases():
    rng = random.Random(0)
    xs = [2 ** i for i in range(10)]
    ys = [0.2 + 0.03 * math.log(x) + rng.gauss(0, 0.05) for x in xs]
    fit = loglinear_fit(xs, ys)
    assert 0.0 < fit.r2 < 1.0
    assert math.isnan(loglinear_fit([1.0], [0.5]).r2)
    assert math.isnan(loglinear_fit([3.0, 3.0], [0.1, 0.2]).r2)
    assert loglinear_fit([0.0, -1.0], [0.1, 0.2]).points == 0


def test_loglinear_fit_flat_solve_rate_has_undefined_r2():
    fit = loglinear_fit([2.18, 4.36, 2.75, 5.5], [0.1, 0.1, 0.1, 0.1])
    assert fit.b == pytest.approx(0.0, abs=1e-12) and math.isnan(fit.r2)
    assert "R² = n/a" in fit.describe("x")
