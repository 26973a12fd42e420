"""The summary's statistics cross-checked against SciPy on hypothesis-generated data: the percentile
bootstrap against ``scipy.stats.bootstrap``, the paired sign-flip test against the exact
``scipy.stats.permutation_test``."""

from __future__ import annotations

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.reporting.stats import bootstrap_ci, paired_randomization_test


@pytest.fixture(scope="module")
def scipy_stats():
    """SciPy's statistics, the oracle: imported in the workers that run these tests only (about 0.6 s)."""
    return pytest.importorskip("scipy.stats")


# per-item scores as the families produce them: fractions of a small cutoff, or any value in [0, 1]
_score = st.one_of(st.integers(0, 8).map(lambda i: i / 8), st.floats(0, 1, allow_nan=False))


@settings(derandomize=True, deadline=None, max_examples=60)
@given(st.lists(_score, min_size=3, max_size=40))
def test_bootstrap_interval_matches_scipy_percentile_bootstrap(scipy_stats, values):
    mean, low, high = bootstrap_ci(values)
    reference = scipy_stats.bootstrap(
        (numpy.array(values),),
        numpy.mean,
        method="percentile",
        confidence_level=0.95,
        n_resamples=20000,
        rng=numpy.random.default_rng(0),
    )
    distribution = reference.bootstrap_distribution
    assert mean == pytest.approx(float(numpy.mean(values)), abs=1e-12)
    # our 2,000 resamples estimate the 2.5th/97.5th percentiles of the same bootstrap distribution that
    # SciPy samples 20,000 times: each end must sit within ±1.25 points of rank (≥ 3.5 standard errors)
    # of SciPy's, which also holds where the distribution has ties
    assert numpy.percentile(distribution, 1.25) - 1e-12 <= low <= numpy.percentile(distribution, 3.75) + 1e-12
    assert numpy.percentile(distribution, 96.25) - 1e-12 <= high <= numpy.percentile(distribution, 98.75) + 1e-12
    assert reference.confidence_interval.low == pytest.approx(low, abs=max(0.05, 0.5 * (high - low)))


def _mean_difference(x, y, axis):
    return numpy.mean(x - y, axis=axis)


# scores on a grid of 1/64: SciPy's float sums of these are exact, so its ties are the true ones
_grid_score = st.integers(0, 64).map(lambda i: i / 64)


def _scipy_p(scipy_stats, pairs, resamples: int) -> float:
    """SciPy's two-sided paired permutation test of the mean difference (every pattern up to ``resamples``)."""
    return float(
        scipy_stats.permutation_test(
            (numpy.array([x for x, _ in pairs]), numpy.array([y for _, y in pairs])),
            _mean_difference,
            vectorized=True,
            permutation_type="samples",
            alternative="two-sided",
            n_resamples=resamples,
            rng=numpy.random.default_rng(0),
        ).pvalue
    )


@settings(derandomize=True, deadline=None, max_examples=40)
@given(st.lists(st.tuples(_grid_score, _grid_score), min_size=2, max_size=12))
def test_paired_test_matches_scipy_exact_permutation_test(scipy_stats, pairs):
    # n ≤ 12: both enumerate all 2^n sign patterns (exact p)
    ours = paired_randomization_test([x for x, _ in pairs], [y for _, y in pairs])
    assert ours == pytest.approx(min(1.0, _scipy_p(scipy_stats, pairs, 10**6)), abs=1e-9)


@settings(derandomize=True, deadline=None, max_examples=40)
@given(st.lists(st.tuples(_score, _score), min_size=14, max_size=30))
def test_the_sampled_test_stays_near_scipy_where_it_cannot_enumerate(scipy_stats, pairs):
    # n ≥ 14: ours samples 10,000 of the 2^n patterns; SciPy 100,000
    ours = paired_randomization_test([x for x, _ in pairs], [y for _, y in pairs])
    assert ours == pytest.approx(_scipy_p(scipy_stats, pairs, 10**5), abs=0.02)
