"""Items are addressable by the id pytest prints, and --lf/--ff find them again (pytest 8 and 9)."""

from __future__ import annotations

import pytest


def _recorded(pytester):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)  # t4 fails its gate


def test_a_failed_items_printed_id_runs_just_that_item(pytester, tiny_suite):
    _recorded(pytester)
    result = pytester.runpytest("suites", "-rf")
    result.stdout.fnmatch_lines(["FAILED suites/tiny::t4[[]local[]] - *"])
    again = pytester.runpytest("suites/tiny::t4[local]", "--wsb-record-mode=none")
    again.assert_outcomes(failed=1, deselected=3)
    again.stdout.no_fnmatch_line("*cannot contain*")


def test_a_case_id_without_the_provider_runs_every_provider(pytester, tiny_suite):
    result = pytester.runpytest("suites/tiny::t2", "--provider=local,serper", "--co", "-q")
    result.stdout.fnmatch_lines(
        ["suites/tiny::t2[[]local[]]", "suites/tiny::t2[[]serper[]]", "*2/8 tests collected (6 deselected)*"]
    )


def test_ids_add_up_and_a_whole_suite_argument_wins(pytester, tiny_suite):
    result = pytester.runpytest("suites/tiny::t1[local]", "suites/tiny::t3[local]", "--co", "-q")
    result.stdout.fnmatch_lines(["suites/tiny::t1[[]local[]]", "suites/tiny::t3[[]local[]]", "*2/4 tests collected*"])
    result = pytester.runpytest("suites/tiny::t1[local]", "suites", "--co", "-q")
    result.stdout.fnmatch_lines(["*4 tests collected*"])


def test_an_unknown_id_is_not_found(pytester, tiny_suite):
    result = pytester.runpytest("suites/tiny::t9[local]", "--co")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*not found: *tiny::t9[[]local[]]*"])


def test_last_failed_reruns_exactly_the_last_failures(pytester, tiny_suite):
    _recorded(pytester)
    result = pytester.runpytest("suites", "--lf", "--wsb-record-mode=none")
    result.stdout.fnmatch_lines(["run-last-failure: rerun previous 1 failure*"])
    result.assert_outcomes(failed=1)  # and nothing else ran
    first = pytester.runpytest("suites", "--ff", "--wsb-record-mode=none", "-v")
    first.stdout.fnmatch_lines(
        ["run-last-failure: rerun previous 1 failure first*", "suites/tiny::t4[[]local[]] FAILED*"]
    )
