"""The vendor's regression check, run the way users run it (pytester) on the tiny suite: known
failures xfail, fixed items pass, regressions fail, per-item drops only with a tolerance, baselines
that cannot be compared are refused, and the population rule counts errors as 0."""

from __future__ import annotations

import json

import pytest

from conftest import summary_shows


def _baseline(pytester, edit=None):
    """Record the tiny suite (t4 fails its gate) into base.json, optionally edited."""
    base = pytester.path / "base.json"
    pytester.runpytest("suites", f"--wsb-json={base}").assert_outcomes(passed=3, failed=1)
    if edit:
        data = json.loads(base.read_text())
        edit(data, {i["case_id"]: i for i in data["items"]})
        base.write_text(json.dumps(data))
    return base


def _replay(pytester, base, *args):
    return pytester.runpytest("suites", "--wsb-record-mode=none", f"--wsb-baseline={base}", *args)


def test_a_known_failure_is_an_xfail_and_the_run_is_green(pytester, tiny_suite):
    base = _baseline(pytester)
    created = json.loads(base.read_text())["created"][:10]
    result = _replay(pytester, base, "-rx")
    result.assert_outcomes(passed=4, xfailed=1)  # 3 items and the suite's verdict, a test of its own
    assert result.ret == 0
    summary_shows(  # the long ones folded at 120 columns
        result.stdout.str(),
        "known failures 1 xfailed",
        "vs baseline inconclusive (holes: 2 unjudged pages in the top 5) nDCG@5 +0.000 (p=1.000, n=4; too "
        "few items to detect any drop; judged@5 0.833 now, 0.833 in the baseline)",
        f"baseline {base} (run {created}):",
        # 4 queries can never reach p < 0.05 (2/2⁴), and a sixth of the top 5 is graded by nobody
        " tiny [[]local[]]: inconclusive (holes: 2 unjudged pages in the top 5) nDCG@5 +0.000 (p=1.000, n=4; "
        "too few items to detect any drop; judged@5 0.833 now, 0.833 in the baseline) ",
        " known failures, xfailed (1): failing in the baseline too ",
        f" tiny [[]local[]] since {created} (1): t4 ",
        f"XFAIL suites/tiny::t4[[]local[]] - tiny/t4[[]local[]]: known failure: failed in the baseline too since {created}",
    )
    # a results file made against a baseline is itself a baseline: the known failure keeps its date
    again = pytester.path / "again.json"
    _replay(pytester, base, f"--wsb-json={again}")
    t4 = next(i for i in json.loads(again.read_text())["items"] if i["case_id"] == "t4")
    assert t4["outcome"] == "xfailed" and t4["baseline"]["status"] == "known"
    assert t4["baseline"]["since"] == json.loads(base.read_text())["created"]


def test_passed_then_failing_is_a_regression_and_failed_then_passing_is_fixed(pytester, tiny_suite):
    def edit(data, items):
        items["t4"]["outcome"] = "passed"  # t4 passed back then: failing now is a regression
        items["t1"]["outcome"] = "failed"  # t1 failed back then: passing now is a fix

    result = _replay(pytester, _baseline(pytester, edit))
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*tiny/t4[[]local[]]: success@5 = 0*",
            "*regressed against the baseline: passed in the baseline, fails now (ndcg * in the baseline, * now)*",
            "  fixed since the baseline (1): tiny/t1[[]local[]]",
        ]
    )


def test_a_metric_drop_fails_an_item_only_when_a_tolerance_is_given(pytester, tiny_suite):
    def edit(data, items):
        items["t2"]["metrics"]["ndcg"] = 1.5  # pretend the baseline scored higher than possible now

    base = _baseline(pytester, edit)
    _replay(pytester, base).assert_outcomes(passed=4, xfailed=1)
    result = _replay(pytester, base, "--wsb-tolerance=0.1")
    result.assert_outcomes(passed=3, failed=1, xfailed=1)
    summary_shows(  # the failure's message is folded within 120 columns
        result.stdout.str(),
        "tiny/t2[[]local[]]: regressed against the baseline: ndcg 1.5000 in the baseline, "
        "1.0000 now: dropped by 0.5000 > tolerance 0.1",
    )
    _replay(pytester, base, "--wsb-tolerance=0.6").assert_outcomes(passed=4, xfailed=1)


def test_a_baseline_with_another_k_is_refused_unless_accepted(pytester, tiny_suite):
    base = _baseline(pytester)
    result = _replay(pytester, base, "--wsb-k=3")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            f"*{base} was made with k=5, this run has k=3; rerun with --wsb-k=5, or pass "
            "--wsb-baseline-accept=k to compare anyway (not comparable)*"
        ]
    )
    # recorded again with k=3 (other requests), then compared knowingly: the verdict says so
    pytester.runpytest("suites", "--wsb-k=3", "--wsb-record-mode=rewrite")
    accepted = _replay(pytester, base, "--wsb-k=3", "--wsb-baseline-accept=k")
    summary_shows(accepted.stdout.str(), " tiny [[]local[]]: * nDCG@3 *not comparable: k 5 → 3")


@pytest.mark.parametrize("field", ["edition", "digest", "kind"])
@pytest.mark.e2e
def test_a_baseline_of_another_suite_edition_digest_or_kind_is_refused(pytester, tiny_suite, field):
    def edit(data, items):
        data["suites"]["tiny"][field] = "other"

    base = _baseline(pytester, edit)
    result = _replay(pytester, base)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            f"*--wsb-baseline: suite 'tiny' differs from the baseline {base}: {field} 'other' in "
            f"the baseline, * now. Make a new baseline for the new suite, or pass "
            f"--wsb-baseline-accept={field} to compare anyway (not comparable)*"
        ]
    )
    _replay(pytester, base, f"--wsb-baseline-accept={field}").assert_outcomes(passed=4, xfailed=1)


def test_errored_items_count_zero_in_the_headline_means(pytester, tiny_suite):
    results = pytester.path / "all.json"
    pytester.runpytest("suites", f"--wsb-json={results}").assert_outcomes(passed=3, failed=1)
    ndcg = {i["case_id"]: i["metrics"]["ndcg"] for i in json.loads(results.read_text())["items"]}
    (pytester.path / "cassettes" / "tiny" / "local" / "t2.yaml").unlink()  # t2 errors: no cassette to replay
    result = pytester.runpytest("suites", "--wsb-record-mode=none")
    result.assert_outcomes(passed=2, failed=1, errors=1)
    headline = (ndcg["t1"] + ndcg["t3"] + ndcg["t4"]) / 4  # t2 counts 0
    answered = (ndcg["t1"] + ndcg["t3"] + ndcg["t4"]) / 3
    result.stdout.fnmatch_lines(
        [
            "  population *4 · 1 error counted as 0",
            f"  nDCG@5 *{headline:.3f} [[]*",
            "  success@5 *0.500 [[]*",  # 2 of the 4 declared queries, not 2 of 3
            f"  nDCG@5 answered *{answered:.3f} [[]*",
        ]
    )
    summary_shows(
        result.stdout.str(),
        "means with 95% bootstrap intervals over the declared population (an errored item counts 0 in nDCG@5, "
        "P@5, success@5, MRR, bpref; other rows leave it out)",
    )


def test_a_baseline_that_is_not_a_results_file_is_one_usage_error(pytester, tiny_suite):
    bad = pytester.path / "bad.json"
    bad.write_text('{"items": 3}')
    result = pytester.runpytest("suites", f"--wsb-baseline={bad}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--wsb-baseline: {bad}: field 'format': not a pytest-websearchbench results file*"])
