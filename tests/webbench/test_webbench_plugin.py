"""WebBench through pytest, the way users run it (pytester)."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from wb_support import SAMPLE

from conftest import summary_shows


@pytest.mark.e2e  # a pytest process over the bundled WebBench suite, -n 2
def test_oracle_run_with_xdist_passes_every_task_and_reports_verdicts(pytester):
    results = pytester.path / "oracle.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "oracle",
        "-n",
        "2",
        f"--wsb-json={results}",
    )
    result.assert_outcomes(passed=28)
    result.stdout.fnmatch_lines(
        [
            "*websearchbench summary*",
            "webbench-sample  (webbench/workplace+deskops, edition sample-5)",
            "*oracle*",
            "*items*28*",
            "*pass rate*28/28 (100.0%)*",
            "*WebScore*100.000 [[]100.000, 100.000[]]*",
            "*pass *1.000*",
            "*strict_pass*1.000*",
            "*steps*",
            "*failure modes*none 28*",
        ]
    )
    assert "cassettes" not in result.stdout.str()
    data = json.loads(results.read_text())
    assert data["suites"]["webbench-sample"]["digest"].startswith("sha256:")
    items = data["items"]
    assert len(items) == 28 and {i["provider"] for i in items} == {"oracle"}
    for item in items:
        verdict = item["results"][0]["verdict"]
        assert verdict["webscore"] == 100.0 and verdict["pass"] and verdict["strict_pass"]
        assert {g["name"] for g in verdict["gates"]} >= {"containment", "evidence_read_any", "no_canary"}
        extra = item["raw"]["extra"]
        assert extra["base_url"].startswith("http://127.0.0.1:") and extra["evidence"]["call_trace"]
        # a fresh world's server each: its trace starts at the first request (ports may come round again)
        seqs = [e["seq"] for e in extra["evidence"]["web_trace"]]
        assert seqs == list(range(1, len(seqs) + 1))


def test_agents_side_by_side_and_failures_name_the_gate(pytester):
    result = pytester.runpytest_inprocess(
        "-p",
        "no:cacheprovider",
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "oracle,noop,write-without-read",
        "-k",
        "wb-workplace-workplace-004-open-points-038e07-s1",
    )
    result.assert_outcomes(passed=1, failed=2)
    summary_shows(  # the failures' messages are folded within 120 columns
        result.stdout.str(),
        "webbench-sample/wb-workplace-workplace-004-open-points-038e07-s1[[]noop[]]*WebScore 0.0, pass=False*failure mode: evidence_read_any",
        "gate evidence_read_any: FAILS — nothing was committed",
        "webbench-sample/wb-workplace-workplace-004-open-points-038e07-s1[[]write-without-read[]]",
        "gate evidence_read_any: FAILS — no chain anchor was read before the first commit",
    )
    result.stdout.fnmatch_lines(
        ["*oracle*noop*write-without-read*", "*failure modes*none 1*evidence_read_any 1*evidence_read_any 1*"]
    )


def test_markers_keywords_and_a_control_that_does_not_apply(pytester):
    collected = pytester.runpytest_inprocess(
        "-p",
        "no:cacheprovider",
        "--suite",
        "webbench-sample",
        "--co",
        "-q",
        "-m",
        "webbench_infeasible",
        "--strict-markers",
    )
    collected.stdout.fnmatch_lines(
        [
            "*wb-workplace-workplace-001-open-points-33b7ff-s2[[]oracle[]]*",
            "*wb-workplace-workplace-002-open-points-619002-s2[[]oracle[]]*",
            "*wb-workplace-workplace-003-session-slot-ca4b11-s1[[]oracle[]]*",
            "*wb-deskops-deskops-001-budget-reserve-f4cdc2-s3[[]oracle[]]*",
            "*wb-workplace-workplace-004-open-points-038e07-s3[[]oracle[]]*",
            "*wb-workplace-workplace-005-escalation-945861-s2[[]oracle[]]*",
            "*wb-deskops-deskops-002-event-c5b002-s2[[]oracle[]]*",
            "*wb-workplace-workplace-006-claim-message-5391f8-s3[[]oracle[]]*",
            "*8/28 tests collected (20 deselected)*",
        ]
    )
    release = pytester.runpytest_inprocess(
        "-p",
        "no:cacheprovider",
        "--suite",
        "webbench-sample",
        "--co",
        "-q",
        "-m",
        "webbench_release",
        "--strict-markers",
    )
    release.stdout.fnmatch_lines(["*16/28 tests collected (12 deselected)*"])
    skipped = pytester.runpytest_inprocess(
        "-p",
        "no:cacheprovider",
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "abstain-on-feasible",
        "-m",
        "webbench_infeasible",
        "-rs",
    )
    skipped.assert_outcomes(skipped=8)
    skipped.stdout.fnmatch_lines(["*abstain-on-feasible applies to feasible tasks only*"])


def test_unknown_agent_is_one_usage_error(pytester):
    result = pytester.runpytest_inprocess("--suite", "webbench-sample", "--wsb-agent", "oracle,gpt")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--wsb-agent: unknown agent 'gpt'; agents: oracle, alt-oracle, noop,*"])


def test_a_tampered_package_is_a_collection_error_naming_the_task(pytester):
    suite = pytester.path / "suites" / "webbench-sample"
    shutil.copytree(SAMPLE, suite)
    contract = suite / "wb-workplace-workplace-004-open-points-038e07-s1" / "tests" / "contract.json"
    contract.write_text(contract.read_text().replace('"value": "issue"', '"value": "needs_approval"', 1))
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "suites")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*invalid suite:*wb-workplace-workplace-004-open-points-038e07-s1: item 'wb-workplace-workplace-004-open-points-038e07-s1' field 'digest': digest mismatch*"
        ]
    )


def test_a_route_that_no_longer_sees_its_evidence_is_an_error_not_a_score(pytester):
    from pytest_websearchbench.webbench.harbor import task_digest

    suite = pytester.path / "suites" / "webbench-sample"
    shutil.copytree(SAMPLE, suite)
    task = suite / "wb-workplace-workplace-004-open-points-038e07-s1"
    route = task / "solution" / "actions.jsonl"
    route.write_text(route.read_text().replace('"expect": ["Product: ', '"expect": ["Product: Not ', 1))
    dataset = suite / "dataset.toml"  # re-seal the package, so that only the route's expectation is off
    entry = re.compile(r'(name = "wsb/wb-workplace-workplace-004-open-points-038e07-s1"\ndigest = )"[^"]+"')
    dataset.write_text(entry.sub(lambda m: f'{m.group(1)}"{task_digest(task)}"', dataset.read_text()))
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "suites", "-k", "wb-workplace-workplace-004-open-points-038e07-s1"
    )
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*wb-workplace-workplace-004-open-points-038e07-s1[[]oracle[]]: step 5 {action='click'*lacks [[]'Product: Not *'[]]; "
            "the world no longer matches the route*"
        ]
    )


def test_a_verifier_exception_is_an_error_of_the_item_graded_false_never_a_score(pytester):
    # the verifier is broken inside the run itself and mended when it ends; found by its name in sys.modules
    # (what the family's import finds), not as the package's attribute: a module an earlier in-process run
    # dropped from sys.modules may still hang on its package
    pytester.makeconftest("""
from importlib import import_module

verifier = import_module("pytest_websearchbench.webbench.grading.verifier")
_kept = verifier.verify


def _broken(contract, evidence):
    raise KeyError("web_trace")


def pytest_configure(config):
    verifier.verify = _broken


def pytest_unconfigure(config):
    verifier.verify = _kept
""")
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--suite", "webbench-sample", "-k", "wb-workplace-workplace-004-open-points-038e07-s1"
    )
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*wb-workplace-workplace-004-open-points-038e07-s1[[]oracle[]]*the verifier failed (KeyError: 'web_trace'): graded: false, "
            "no reward*"
        ]
    )
