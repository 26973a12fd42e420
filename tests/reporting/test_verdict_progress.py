"""A baseline's verdict tests count in pytest's progress from the first test on: the percentage only rises, and
ends at 100 % on the last verdict test (it used to end the items at 100 %, then drop to 97 % when the verdict
tests arrived), with or without xdist, in pytest's dots and in ``-v``'s lines."""

from __future__ import annotations

import re

import pytest

from conftest import TINY_GRADES, TINY_SCENARIOS, write_lexbench_suite

PERCENT = re.compile(r"\[ ?(\d+)%\]")


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("-v",),
        # pytest in xdist workers: e2e (tests/conftest.py)
        pytest.param(("-n", "2"), marks=pytest.mark.e2e),
        pytest.param(("-n", "2", "-v"), marks=pytest.mark.e2e),
    ],
    ids=["dots", "v", "xdist", "xdist-v"],
)
def test_the_progress_never_goes_back_and_ends_at_100_after_the_verdict_tests(pytester, tiny_suite, args):
    # two suites: the first verdict test is shown under the first suite, after the last item of the second
    write_lexbench_suite(pytester.path, "tiny2", TINY_SCENARIOS, TINY_GRADES)
    pytester.runpytest("suites", "--wsb-json=base.json").assert_outcomes(passed=6, failed=2)
    result = pytester.runpytest("suites", "--wsb-baseline=base.json", *args)
    result.assert_outcomes(passed=8, xfailed=2)  # 6 items, 2 verdict tests; each t4 failed in the baseline too
    progress = [int(m[1]) for line in result.outlines for m in PERCENT.finditer(line)]
    assert progress and progress == sorted(progress) and progress[-1] == 100, progress
    if "-v" in args:
        verdicts = [line for line in result.outlines if "[vs baseline][local]" in line]
        assert len(verdicts) == 2 and verdicts[-1].endswith("[100%]")


def test_without_a_baseline_nothing_is_counted_ahead(pytester, tiny_suite):
    result = pytester.runpytest("suites", "-v")
    assert [int(m[1]) for line in result.outlines for m in PERCENT.finditer(line)] == [25, 50, 75, 100]
