"""What a CI job shows about a run is what happened (issue 37): a path option that names nothing is one
usage error before any item, and nothing is appended to the history; a results file says what it covers,
and a partial one is no baseline of a whole run; the exit codes docs/getting-started.md states are pytest's."""

from __future__ import annotations

import json
import re

import pytest

from conftest import REPO, summary_shows


def test_a_local_corpus_that_does_not_exist_is_one_usage_error_and_no_history(pytester, tiny_suite):
    result = pytester.runpytest("suites", "--wsb-local-corpus=nowhere.jsonl", "--wsb-history=history.sqlite")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--wsb-local-corpus: */nowhere.jsonl does not exist"])
    assert "passed" not in result.stdout.str() and "error" not in result.stdout.str().lower()
    assert not (pytester.path / "history.sqlite").exists()


@pytest.mark.parametrize("args", [("-k", "t1 or t2"), ("suites/tiny::t1[local]", "suites/tiny::t2[local]")])
def test_a_partial_run_says_so_and_is_no_baseline_unless_accepted(pytester, tiny_suite, args):
    pytester.runpytest("suites", "--wsb-json=all.json").assert_outcomes(passed=3, failed=1)
    assert json.loads((pytester.path / "all.json").read_text())["selection"] == "all"
    pytester.runpytest(*args, "--wsb-json=part.json", *([] if "::" in args[0] else ["suites"])).assert_outcomes(
        passed=2
    )
    part = json.loads((pytester.path / "part.json").read_text())
    assert part["selection"] == "partial" and part["complete"] is True and part["selected_by"]
    refused = pytester.runpytest("suites", "--wsb-baseline=part.json")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(
        [
            "*--wsb-baseline: *part.json is the results file of a partial run (2 items, "
            "selected by *); make a new baseline from a run of whole suites, or pass "
            "--wsb-baseline-accept=partial to compare its items only"
        ]
    )
    accepted = pytester.runpytest("suites", "--wsb-baseline=part.json", "--wsb-baseline-accept=partial")
    accepted.assert_outcomes(passed=4, failed=1)  # t3 passes, t4 fails its gate (no record to xfail it): + the verdict
    summary_shows(accepted.stdout.str(), "tiny [[]local[]]: * n=2; *baseline partial (*: its items only)")


def test_the_docs_state_the_exit_codes_pytest_gives(pytester, tiny_suite):
    page = (REPO / "docs" / "getting-started.md").read_text("utf-8")
    stated = dict(re.findall(r"^\| `(\d)` \| (.+?) \|$", page, re.M))
    assert stated, "docs/getting-started.md has an exit-code table"
    assert pytester.runpytest("suites", "-k", "not t4").ret == 0 and stated["0"].startswith("every test passed")
    assert pytester.runpytest("suites").ret == 1 and stated["1"].startswith("a test failed")
    assert pytester.runpytest("suites", "--wsb-k=zero").ret == 4 and stated["4"].startswith("a usage error")
    assert pytester.runpytest("suites", "-k", "nothing-matches").ret == 5 and stated["5"].startswith("no test")
