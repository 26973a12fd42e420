"""--wsb-ctrf: the run as a CTRF report, checked against the CTRF schema's essentials (written here from the
specification, ctrf.io, specVersion 0.1.0), its counts against pytest's, each item's variant and metrics
against the results file, and the suite's verdict test among its tests."""

from __future__ import annotations

import json

import jsonschema
import pytest

from pytest_websearchbench.reporting.ctrf import ctrf_document

STATUSES = ["passed", "failed", "skipped", "pending", "other"]
COUNT = {"type": "integer", "minimum": 0}

#: the CTRF schema's required structure (ctrf-io/ctrf schema/ctrf.schema.json), with the fields we write typed
CTRF_SCHEMA = {
    "type": "object",
    "required": ["reportFormat", "specVersion", "results"],
    "properties": {
        "reportFormat": {"const": "CTRF"},
        "specVersion": {"type": "string", "pattern": r"^[0-9]+\.[0-9]+\.[0-9]+$"},
        "generatedBy": {"type": "string"},
        "timestamp": {"type": "string"},
        "results": {
            "type": "object",
            "required": ["tool", "summary", "tests"],
            "properties": {
                "tool": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {"name": {"type": "string", "minLength": 1}, "version": {"type": "string"}},
                    "additionalProperties": False,
                },
                "summary": {
                    "type": "object",
                    "required": ["tests", *STATUSES, "start", "stop"],
                    "properties": {
                        **{name: COUNT for name in ["tests", *STATUSES]},
                        "start": {"type": "integer"},
                        "stop": {"type": "integer"},
                        "duration": {"type": "integer"},
                        "extra": {"type": "object"},
                    },
                    "additionalProperties": False,
                },
                "tests": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["name", "status", "duration"],
                        "properties": {
                            "name": {"type": "string", "minLength": 1},
                            "status": {"enum": STATUSES},
                            "duration": {"type": "integer", "minimum": 0},
                            "start": {"type": "integer"},
                            "stop": {"type": "integer"},
                            "rawStatus": {"type": "string"},
                            "message": {"type": "string"},
                            "trace": {"type": "string"},
                            "filePath": {"type": "string"},
                            "suite": {"type": "array", "minItems": 1, "items": {"type": "string"}},
                            "tags": {"type": "array", "items": {"type": "string"}},
                            "extra": {"type": "object"},
                        },
                        "additionalProperties": False,
                    },
                },
            },
        },
    },
}

PLAIN_TESTS = """
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("no fixture today")

def test_passes():
    pass

def test_skipped():
    pytest.skip("not here")

@pytest.mark.xfail(reason="known")
def test_xfails():
    assert False

def test_errors(broken):
    pass
"""


def test_a_run_with_a_baseline_writes_a_ctrf_report_that_counts_as_pytest_does(pytester, tiny_suite):
    base = pytester.path / "base.json"
    pytester.runpytest("suites", f"--wsb-json={base}").assert_outcomes(passed=3, failed=1)
    pytester.makepyfile(test_plain=PLAIN_TESTS)
    result = pytester.runpytest(
        "suites", "test_plain.py", "--wsb-record-mode=none", f"--wsb-baseline={base}", "--wsb-ctrf=run.ctrf.json"
    )
    outcomes = result.parseoutcomes()
    result.stdout.fnmatch_lines(["CTRF report written to *run.ctrf.json"])
    document = json.loads((pytester.path / "run.ctrf.json").read_text("utf-8"))
    jsonschema.validate(document, CTRF_SCHEMA)

    summary, tests = document["results"]["summary"], document["results"]["tests"]
    # 3 items pass and the suite's verdict test; t4 is a known failure (xfailed), as test_xfails
    assert outcomes == {"passed": 5, "skipped": 1, "xfailed": 2, "errors": 1}
    assert summary["passed"] == outcomes["passed"]
    assert summary["failed"] == outcomes.get("failed", 0) + outcomes["errors"]
    assert summary["skipped"] == outcomes["skipped"] and summary["other"] == outcomes["xfailed"]
    assert summary["tests"] == len(tests) == sum(outcomes.values()) and summary["pending"] == 0
    assert summary["extra"]["pytest"] == {"error": 1, "passed": 5, "skipped": 1, "xfailed": 2}
    assert summary["start"] <= summary["stop"]

    by_name = {test["name"]: test for test in tests}
    assert by_name["test_plain.py::test_errors"]["rawStatus"] == "error"
    assert by_name["test_plain.py::test_errors"]["message"].startswith("RuntimeError: no fixture today")
    assert by_name["test_plain.py::test_skipped"]["message"] == "not here"
    items = {i["case_id"]: i for i in json.loads(base.read_text("utf-8"))["items"]}
    for case in ("t1", "t2", "t3", "t4"):
        test = by_name[f"suites/tiny::{case}[local]"]
        assert test["suite"] == ["tiny"] and test["filePath"] == "suites/tiny"
        extra = test["extra"]
        assert (extra["variant"], extra["family"], extra["primary"]) == ("local", "lexbench", "ndcg")
        assert extra["metrics"] == items[case]["metrics"]  # the replay scores what the baseline run scored
    t4 = by_name["suites/tiny::t4[local]"]
    assert (t4["status"], t4["rawStatus"], t4["extra"]["outcome"]) == ("other", "xfailed", "xfailed")
    verdict = by_name["suites/tiny::[vs baseline][local]"]
    assert verdict["status"] == "passed" and verdict["extra"]["variant"] == "local"
    assert verdict["extra"]["verdict"].startswith("inconclusive (holes")


def test_a_ctrf_path_in_a_missing_folder_is_one_usage_error(pytester, tiny_suite):
    result = pytester.runpytest("suites", "--wsb-ctrf=nowhere/run.json")
    assert result.ret == 4
    result.stderr.fnmatch_lines(
        [
            "ERROR: pytest-websearchbench: --wsb-ctrf: cannot write */nowhere/run.json: the folder */nowhere does not exist*"
        ]
    )


def test_an_empty_run_is_a_valid_report():
    document = ctrf_document([], [], started=1.0, stopped=2.5, pytest_version="9", plugin_version="0")
    jsonschema.validate(document, CTRF_SCHEMA)
    assert document["results"]["summary"] | {"extra": None} == {
        "tests": 0,
        **dict.fromkeys(STATUSES, 0),
        "start": 1000,
        "stop": 2500,
        "duration": 1500,
        "extra": None,
    }


@pytest.mark.parametrize("status", STATUSES)
def test_the_schema_accepts_each_status(status):
    document = ctrf_document([], [], started=0, stopped=0, pytest_version="9", plugin_version="0")
    document["results"]["tests"] = [{"name": "t", "status": status, "duration": 0}]
    jsonschema.validate(document, CTRF_SCHEMA)
