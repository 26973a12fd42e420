"""Aggregate statistics: percentile rule, bootstrap determinism, paired randomization test."""

from __future__ import annotations

import math
import random
import statistics

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.reporting import stats
from pytest_websearchbench.reporting.stats import bootstrap_ci, mean, paired_randomization_test, percentile

_scores = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


# --- mean and percentile ------------------------------------------------------------------


def test_mean():
    assert mean([1.0, 2.0, 4.0]) == pytest.approx(7 / 3)
    assert mean([0.1] * 10) == 0.1
    assert math.isnan(mean([]))


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        # sorted [10, 20, 30, 40]: position h = 3·q/100, value = x[⌊h⌋] + (h − ⌊h⌋)·step
        (0, 10.0),
        (25, 17.5),
        (50, 25.0),
        (75, 32.5),
        (95, 38.5),
        (100, 40.0),
    ],
)
def test_percentile_hand_computed(q, expected):
    assert percentile([40.0, 10.0, 30.0, 20.0], q) == pytest.approx(expected)


def test_percentile_edges():
    assert percentile([7.0], 50) == 7.0
    assert math.isnan(percentile([], 50))
    with pytest.raises(ValueError):
        percentile([1.0], 101)
    with pytest.raises(ValueError):
        percentile([1.0], -1)


@given(st.lists(_scores, min_size=2, max_size=30), st.integers(2, 10))
def test_percentile_matches_inclusive_quantiles(values, parts):
    cuts = statistics.quantiles(values, n=parts, method="inclusive")
    ours = [percentile(values, 100 * i / parts) for i in range(1, parts)]
    assert ours == pytest.approx(cuts, rel=1e-9, abs=1e-6)


@given(st.lists(_scores, min_size=1, max_size=30), st.floats(0, 100))
def test_percentile_matches_numpy_default(values, q):
    expected = float(numpy.percentile(values, q))
    assert percentile(values, q) == pytest.approx(expected, rel=1e-9, abs=1e-6)


# --- bootstrap -----------------------------------------------------------------------------


def test_bootstrap_empty_and_single():
    assert all(math.isnan(x) for x in bootstrap_ci([]))
    assert bootstrap_ci([0.25]) == (0.25, 0.25, 0.25)
    assert bootstrap_ci([0.1, 0.1, 0.1]) == (mean([0.1] * 3),) * 3


def test_bootstrap_is_deterministic_and_order_independent():
    rng = random.Random(1)
    values = [rng.random() for _ in range(40)]
    shuffled = values[::-1]
    random.Random(2).shuffle(shuffled)
    assert bootstrap_ci(values) == bootstrap_ci(values) == bootstrap_ci(shuffled)
    assert bootstrap_ci(values, seed=1) != bootstrap_ci(values, seed=2)


def test_bootstrap_interval_is_plausible_for_binary_outcomes():
    values = [1.0] * 30 + [0.0] * 70
    centre, low, high = bootstrap_ci(values)
    assert centre == pytest.approx(0.3)
    assert 0.19 < low < 0.3 < high < 0.41  # normal approximation: 0.3 ± 1.96·0.046


def test_bootstrap_wider_confidence_gives_a_wider_interval():
    values = [float(i % 7) for i in range(50)]
    _, low_90, high_90 = bootstrap_ci(values, confidence=0.90)
    _, low_99, high_99 = bootstrap_ci(values, confidence=0.99)
    assert low_99 <= low_90 and high_90 <= high_99


@pytest.mark.parametrize("bad", [{"confidence": 0.0}, {"confidence": 1.0}, {"resamples": 0}])
def test_bootstrap_rejects_bad_parameters(bad):
    with pytest.raises(ValueError):
        bootstrap_ci([1.0, 2.0], **bad)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=25), st.randoms(use_true_random=False))
def test_bootstrap_interval_contains_the_mean(values, rng):
    centre, low, high = bootstrap_ci(values, resamples=300)
    assert low <= centre <= high
    shuffled = list(values)
    rng.shuffle(shuffled)
    assert bootstrap_ci(shuffled, resamples=300) == (centre, low, high)


@settings(derandomize=True, deadline=None, max_examples=60)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=60), st.integers(1, 500), st.integers(0, 3))
def test_bootstrap_follows_its_definition(values, resamples, seed):
    """The documented draw, written out plainly: sorted values, indices ⌊(raw >> 32)·n / 2³²⌋ from
    PCG64's raw stream, percentiles of the resample means (pins the stream: the digits stay put)."""
    ordered = sorted(values)
    n = len(ordered)
    raw = numpy.random.PCG64(seed).random_raw(resamples * n).tolist()
    means = [math.fsum(ordered[(r >> 32) * n >> 32] for r in raw[i * n : (i + 1) * n]) / n for i in range(resamples)]
    centre, low, high = bootstrap_ci(values, resamples=resamples, seed=seed)
    assert centre == mean(values)
    if ordered[0] == ordered[-1]:
        assert low == high == centre
    else:
        assert low == pytest.approx(percentile(means, 2.5), rel=1e-12, abs=1e-15)
        assert high == pytest.approx(percentile(means, 97.5), rel=1e-12, abs=1e-15)


@settings(derandomize=True, deadline=None, max_examples=40)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), max_size=30), max_size=6), st.integers(1, 300))
def test_intervals_bootstrapped_together_are_each_samples_own(samples, resamples):
    """bootstrap_cis shares one draw among the samples of a length (a run's metrics): no sample's interval
    depends on which others came with it, empty and constant ones included."""
    together = stats.bootstrap_cis(samples, resamples=resamples)
    alone = [bootstrap_ci(values, resamples=resamples) for values in samples]
    assert [tuple(map(repr, t)) for t in together] == [tuple(map(repr, a)) for a in alone]  # nan == nan as text


def test_bootstrap_draws_in_bounded_chunks_without_changing_the_interval(monkeypatch):
    values = [float(i % 9) / 8 for i in range(301)]
    whole = bootstrap_ci(values, resamples=1000)
    monkeypatch.setattr(stats, "_DRAWS_AT_ONCE", 700)  # 2 resamples a chunk
    assert bootstrap_ci(values, resamples=1000) == whole


# --- paired randomization test --------------------------------------------------------------


def test_randomization_identical_inputs_give_one():
    values = [0.1, 0.5, 0.9, 0.3]
    assert paired_randomization_test(values, values) == 1.0
    assert paired_randomization_test([], []) == 1.0


def test_randomization_clear_shift_gives_a_small_p():
    rng = random.Random(3)
    a = [rng.random() for _ in range(30)]
    b = [x - 0.2 - 0.05 * rng.random() for x in a]
    p = paired_randomization_test(a, b, resamples=2000)
    assert p == pytest.approx(1 / 2001)  # only the observed signs (or all flipped) reach it


def test_randomization_noise_gives_a_large_p():
    rng = random.Random(4)
    a = [rng.random() for _ in range(30)]
    b = [rng.random() for _ in range(30)]
    assert paired_randomization_test(a, b, resamples=2000) > 0.05


def test_randomization_is_deterministic_symmetric_and_order_independent():
    rng = random.Random(5)
    a = [rng.random() for _ in range(12)]
    b = [x + rng.gauss(0.05, 0.1) for x in a]
    p = paired_randomization_test(a, b, resamples=3000)
    pairs = list(zip(a, b))
    rng.shuffle(pairs)
    shuffled_a, shuffled_b = map(list, zip(*pairs))
    assert 0 < p <= 1
    assert paired_randomization_test(a, b, resamples=3000) == p
    assert paired_randomization_test(b, a, resamples=3000) == p
    assert paired_randomization_test(shuffled_a, shuffled_b, resamples=3000) == p


def test_randomization_exact_on_a_tiny_sample():
    # differences [1, 1]: |Σ| = 2 is reached by (+,+) and (−,−), i.e. half of all sign vectors.
    p = paired_randomization_test([1.0, 1.0], [0.0, 0.0], resamples=20000)
    assert p == pytest.approx(0.5, abs=0.02)


def test_randomization_rejects_unpaired_samples():
    with pytest.raises(ValueError, match="length"):
        paired_randomization_test([1.0], [1.0, 2.0])
