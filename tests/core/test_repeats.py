"""Repeated runs (``--wsb-repeat``): N items per case and the statistics over the runs."""

from __future__ import annotations

import pytest

from pytest_websearchbench.core.family import Case
from pytest_websearchbench.core.repeats import repeat_cases, repeat_summary, run_of


def test_each_case_becomes_n_items_in_a_row_with_its_marks():
    cases = (Case("a", 1, markers=("m",), keywords=("k",)), Case("b@x", 2))
    assert repeat_cases(cases, 1) == cases
    repeated = repeat_cases(cases, 3)
    assert [c.id for c in repeated] == ["a@1", "a@2", "a@3", "b@x@1", "b@x@2", "b@x@3"]
    assert repeated[1] == Case("a@2", 1, markers=("m",), keywords=("k",))
    assert [run_of(c.id) for c in repeated[3:]] == [("b@x", 1), ("b@x", 2), ("b@x", 3)]


def test_pass_rates_are_per_run_over_the_declared_cases_with_mean_and_sample_sd():
    outcomes = [("a", 1, True), ("a", 2, True), ("a", 3, False), ("b", 1, True), ("b", 2, True), ("b", 3, True)]
    summary = repeat_summary(outcomes, runs=3, cases=3)  # c has no verdict in any run: failed every time
    assert summary.rates == pytest.approx((2 / 3, 2 / 3, 1 / 3))
    assert summary.mean == pytest.approx(5 / 9) and summary.sd == pytest.approx(0.19245, abs=1e-5)
    assert summary.passes == {"a": 2, "b": 3}
    assert summary.text() == "0.556 ± 0.192 SD (runs: 0.667 · 0.667 · 0.333)"
    assert repeat_summary([("a", 1, True)], runs=1, cases=1).sd == 0.0
