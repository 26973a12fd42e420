"""A benchmark item whose xdist worker died is an error with xdist's reason, in the summary and the
results file; it is never "passed" and never missing (DESIGN §3)."""

from __future__ import annotations

import json

import pytest

from pytest_websearchbench.reporting.results import (
    CRASH_PHASE,
    REPORT_PAYLOAD,
    ItemMeta,
    ItemRun,
    ResultStore,
    report_payload,
)

# the item kills its own worker: t2 before any of its reports was sent (in setup), t3 after its setup
# report said "passed" (in call); the hooks run for the suite folder given as the argument
KILLER = """
import os, signal
import pytest

def _die():
    os.kill(os.getpid(), signal.SIGKILL)

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if item.name == "t2[local]" and os.environ.get("PYTEST_XDIST_WORKER"):
        _die()

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    if item.name == "t3[local]" and os.environ.get("PYTEST_XDIST_WORKER"):
        _die()
"""


@pytest.mark.e2e
def test_a_killed_worker_makes_its_item_an_error_in_summary_and_results(pytester, tiny_suite):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)  # record the cassettes
    pytester.makeconftest(KILLER)
    results = pytester.path / "crash.json"
    result = pytester.runpytest_subprocess("suites/tiny", "-n", "2", "--wsb-record-mode=none", f"--wsb-json={results}")
    result.assert_outcomes(passed=1, failed=1, errors=2)
    result.stdout.fnmatch_lines(["*pass rate*1/4 (25.0%)*", "*errors*2*"])
    result.stdout.fnmatch_lines(["*local errors: 1× worker 'gw*' crashed while running 'suites/tiny::t2[[]local[]]'*"])
    result.stdout.fnmatch_lines(["*local errors: 1× worker 'gw*' crashed while running 'suites/tiny::t3[[]local[]]'*"])
    data = json.loads(results.read_text())
    items = {item["case_id"]: item for item in data["items"]}
    assert sorted(items) == ["t1", "t2", "t3", "t4"]
    assert [items[c]["outcome"] for c in ("t1", "t2", "t3", "t4")] == ["passed", "error", "error", "failed"]
    for case in ("t2", "t3"):
        crashed = items[case]
        assert crashed["metrics"] == {} and crashed["error_kind"] == "worker_crashed"
        assert crashed["error"].endswith(f"crashed while running 'suites/tiny::{case}[local]'")
        assert crashed["message"] == crashed["error"] and crashed["error"].startswith("worker 'gw")
        assert crashed["suite"] == "tiny" and crashed["provider"] == "local" and crashed["family"] == "lexbench"
    assert data["complete"] is True and data["missing_items"] == 0 and data["declared_items"] == 4


def _report(when: str, outcome: str = "passed", payload=None) -> pytest.TestReport:
    extra = {REPORT_PAYLOAD: payload} if payload is not None else {}
    return pytest.TestReport(
        nodeid="suites/tiny::t2[local]",
        location=("suites/tiny", 0, "tiny/t2[local]"),
        keywords={},
        outcome=outcome,
        longrepr=None if outcome == "passed" else "worker 'gw0' crashed while running 'suites/tiny::t2[local]'",
        when=when,
        **extra,
    )


META = ItemMeta("tiny", "t2", "local", "lexbench", "scenario", "e", "d")


def test_the_crash_report_is_final_after_a_passed_setup():
    store = ResultStore()
    store.add(_report("setup", payload=report_payload(META, ItemRun(cassette_path="c.yaml"))))
    assert store.records() == []  # not finished: no teardown yet
    store.add(_report(CRASH_PHASE, "failed"))
    [record] = store.records()
    assert record.outcome == "error" and record.errored and record.metrics == {}
    assert record.run.error == "worker 'gw0' crashed while running 'suites/tiny::t2[local]'"
    assert record.run.error_kind == "worker_crashed" and record.run.cassette_path == "c.yaml"


def test_a_crash_before_any_report_waits_for_its_description():
    store = ResultStore()
    store.add(_report(CRASH_PHASE, "failed"))
    assert store.records() == [] and store.crashed_unknown() == ["suites/tiny::t2[local]"]
    store.add_crashed("suites/tiny::t2[local]", META)
    [record] = store.records()
    assert record.key == ("tiny", "t2", "local") and record.outcome == "error"
    assert store.crashed_unknown() == [] and store.finished("suites/tiny::t2[local]")
