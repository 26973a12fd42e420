"""Cohen's weighted κ, the confusion matrix and Kendall's τ-b against values computed by hand, and
against independent implementations (numpy's matrix form of κ; scipy's kendalltau)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.lexbench.agreement import Agreement, confusion, kendall_tau_b, weighted_kappa

# reference grade, model grade — ten pages
PAIRS = [(0, 0), (0, 1), (1, 1), (1, 1), (2, 1), (2, 2), (2, 3), (3, 3), (3, 3), (3, 2)]


def test_confusion_rows_are_the_reference_grades_and_columns_the_models():
    assert confusion(PAIRS) == [[1, 1, 0, 0], [0, 2, 0, 0], [0, 1, 1, 1], [0, 0, 1, 2]]


def test_quadratic_kappa_by_hand():
    # rows (reference) 2, 2, 3, 3; columns (model) 1, 4, 2, 3; n = 10, weights (i-j)^2/9.
    # observed disagreement: 4 pages one grade apart → 4 · (1/9) / 10 = 0.04444…
    # expected: Σ rᵢ cⱼ (i-j)² / (9 · 100) = 222 / 900
    # by distance: 1 apart 2·4+2·1+2·2+3·4+3·3+3·2 = 41, 2 apart 2·2+2·3+3·1+3·4 = 25, 3 apart 2·3+3·1 = 9,
    # so Σ rᵢ cⱼ (i-j)² = 41 + 4·25 + 9·9 = 222
    expected = sum(r * c * (i - j) ** 2 for i, r in enumerate([2, 2, 3, 3]) for j, c in enumerate([1, 4, 2, 3])) / 900
    assert expected == pytest.approx(222 / 900)
    assert weighted_kappa(PAIRS) == pytest.approx(1 - (4 / 90) / (222 / 900))  # = 0.81982
    assert weighted_kappa(PAIRS) == pytest.approx(0.8198198, abs=1e-6)


def test_linear_kappa_by_hand():
    # observed: 4 · (1/3) / 10; expected: Σ rᵢ cⱼ |i-j| / (3 · 100) = (41 + 2·25 + 3·9) / 300 = 118/300
    assert weighted_kappa(PAIRS, "linear") == pytest.approx(1 - (4 / 30) / (118 / 300))


def _kappa_matrix_form(pairs, power):
    """κ as 1 − Σ W∘O / Σ W∘E with numpy (an independent formulation)."""
    observed = np.zeros((4, 4))
    for a, b in pairs:
        observed[a, b] += 1
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    idx = np.arange(4)
    weights = np.abs(idx[:, None] - idx[None, :]) ** power
    return 1 - (weights * observed).sum() / (weights * expected).sum()


@settings(derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=60))
def test_kappa_matches_the_matrix_form(pairs):
    for weights, power in (("quadratic", 2), ("linear", 1)):
        ours = weighted_kappa(pairs, weights)
        with np.errstate(invalid="ignore", divide="ignore"):
            theirs = _kappa_matrix_form(pairs, power)
        if math.isnan(theirs):  # both graders constant: we say 1 when they agree, nan when not
            assert ours == 1.0 if all(a == b for a, b in pairs) else math.isnan(ours)
        else:
            assert ours == pytest.approx(theirs)


def test_kappa_edge_cases():
    assert math.isnan(weighted_kappa([]))
    assert weighted_kappa([(2, 2), (2, 2)]) == 1.0
    assert weighted_kappa([(0, 0), (3, 3), (1, 1)]) == 1.0
    assert weighted_kappa([(0, 3), (3, 0)]) == pytest.approx(-1.0)


def test_kendall_tau_b_by_hand():
    # three providers: reference order a > b > c, model order a > c > b: 2 concordant pairs, 1 discordant
    assert kendall_tau_b([0.9, 0.6, 0.3], [0.8, 0.2, 0.5]) == pytest.approx(1 / 3)
    assert kendall_tau_b([0.9, 0.6, 0.3], [0.7, 0.5, 0.1]) == 1.0
    assert kendall_tau_b([0.9, 0.6, 0.3], [0.1, 0.5, 0.7]) == -1.0
    # a tie in the model's: (1 - 0) / sqrt(3 · 2)... pairs (a,b) tie in y, (a,c) concordant, (b,c) concordant
    assert kendall_tau_b([3, 2, 1], [2, 2, 1]) == pytest.approx(2 / math.sqrt(3 * 2))
    assert math.isnan(kendall_tau_b([1, 1], [1, 2]))


@settings(derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=2, max_size=12))
def test_tau_matches_scipy(points):
    scipy_stats = pytest.importorskip("scipy.stats")
    x, y = [a for a, _ in points], [b for _, b in points]
    theirs = scipy_stats.kendalltau(x, y).statistic
    ours = kendall_tau_b(x, y)
    assert (math.isnan(ours) and math.isnan(theirs)) or ours == pytest.approx(theirs)


def test_the_agreement_table_prints_kappa_the_matrix_and_the_rankings():
    agreement = Agreement(tuple(PAIRS), {"a": (0.9, 0.8), "b": (0.6, 0.2), "c": (0.3, 0.5)}, "nDCG@5")
    text = "\n".join(agreement.lines("human"))
    assert "on 10 pages both graded" in text
    assert "Cohen's κ, quadratic weights: 0.820" in text and "exact agreement 60.0%" in text
    assert re.search(r"\n  3 +0 +0 +1 +2\n", text)
    assert "Kendall's τ-b between the two rankings: 0.333 (3 providers)" in text
