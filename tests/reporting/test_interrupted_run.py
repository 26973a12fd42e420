"""A results file says whether its run completed; one that did not is refused as a baseline unless
``--wsb-baseline-accept=incomplete``."""

from __future__ import annotations

import json

import pytest

from conftest import summary_shows

# the run stops at t3's test body: by Ctrl-C, pytest.exit, or Ctrl-C in one xdist worker
STOPPER = """
import os
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    if item.name == "t3[local]":
        how = os.environ["WSB_TEST_STOP"]
        if how == "ctrl-c":
            raise KeyboardInterrupt
        pytest.exit("enough for today")
"""


@pytest.fixture
def recorded(pytester, tiny_suite):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)
    pytester.makeconftest(STOPPER)
    return pytester


def _run(pytester, monkeypatch, how: str, *args: str):
    monkeypatch.setenv("WSB_TEST_STOP", how)
    results = pytester.path / f"{how}.json"
    # pytester raises an inner run's Ctrl-C again in the calling test, unless told not to
    result = pytester.runpytest_inprocess(
        "suites/tiny", "--wsb-record-mode=none", f"--wsb-json={results}", *args, no_reraise_ctrlc=True
    )
    return result, json.loads(results.read_text())


@pytest.mark.parametrize("how, reason", [("ctrl-c", "KeyboardInterrupt"), ("exit", "Exit: enough for today")])
def test_an_interrupted_run_says_so(recorded, monkeypatch, how, reason):
    result, data = _run(recorded, monkeypatch, how)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    # t1, t2 finished; t3 was stopped in its body (its setup said "passed": it must not count) and t4 never ran
    assert [item["case_id"] for item in data["items"]] == ["t1", "t2"]
    assert (data["complete"], data["interrupted"], data["declared_items"], data["missing_items"]) == (
        False,
        reason,
        4,
        2,
    )
    result.stdout.fnmatch_lines(
        [
            f"run incomplete: interrupted ({reason}); 2 of 4 declared items have no result",
            "results written to *(marked incomplete*--wsb-baseline-accept=incomplete)",
        ]
    )


@pytest.mark.e2e
def test_ctrl_c_in_an_xdist_worker_is_no_crash_but_an_interrupted_run(recorded, monkeypatch):
    monkeypatch.setenv("WSB_TEST_STOP", "ctrl-c")
    results = recorded.path / "xdist.json"
    result = recorded.runpytest_subprocess("suites/tiny", "--wsb-record-mode=none", f"--wsb-json={results}", "-n", "2")
    data = json.loads(results.read_text())
    assert data["complete"] is False and "received keyboard-interrupt" in data["interrupted"]
    assert "t3" not in [item["case_id"] for item in data["items"]]  # xdist's "crashed while running" is no result
    assert data["missing_items"] == 4 - len(data["items"]) >= 1
    summary_shows(result.stdout.str(), "run incomplete: interrupted (*received keyboard-interrupt)")


def test_a_complete_run_says_complete_and_an_incomplete_one_is_no_baseline(recorded, monkeypatch):
    monkeypatch.setenv("WSB_TEST_STOP", "none")
    complete = recorded.path / "complete.json"
    recorded.runpytest("suites/tiny", "--wsb-record-mode=none", f"--wsb-json={complete}", "-k", "not t3")
    data = json.loads(complete.read_text())
    assert (data["complete"], data["interrupted"], data["declared_items"], data["missing_items"]) == (True, None, 3, 0)

    _run(recorded, monkeypatch, "ctrl-c")
    result = recorded.runpytest(
        "suites/tiny", "--wsb-record-mode=none", f"--wsb-baseline={recorded.path / 'ctrl-c.json'}", "-k", "not t3"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*--wsb-baseline: *ctrl-c.json is the results file of a run that did not complete "
            "(interrupted: KeyboardInterrupt; 2 of 4 declared items missing)*"
            "--wsb-baseline-accept=incomplete*"
        ]
    )
    accepted = recorded.runpytest(
        "suites/tiny",
        "--wsb-record-mode=none",
        "-k",
        "not t3",
        f"--wsb-baseline={recorded.path / 'ctrl-c.json'}",
        "--wsb-baseline-accept=incomplete",
    )
    accepted.assert_outcomes(
        passed=3, failed=1
    )  # t4 is not in that baseline: its gate failure fails (and the verdict passes)
    summary_shows(accepted.stdout.str(), "tiny [[]local[]]: *not comparable: baseline incomplete")


def test_a_run_that_stops_at_the_first_failure_is_incomplete(recorded, monkeypatch, tiny_suite):
    monkeypatch.setenv("WSB_TEST_STOP", "none")
    items = tiny_suite / "items.jsonl"
    lines = items.read_text().splitlines(keepends=True)
    items.write_text(lines[3] + "".join(lines[:3]))  # t4, the one that fails, first
    results = recorded.path / "x.json"
    recorded.runpytest("suites/tiny", "--wsb-record-mode=none", f"--wsb-json={results}", "-x")
    data = json.loads(results.read_text())
    assert [item["case_id"] for item in data["items"]] == ["t4"]
    assert (data["complete"], data["interrupted"], data["missing_items"]) == (False, "stopping after 1 failures", 3)


# Ctrl-C while the session finishes (issue 46, part 7): the controller's teardown, where xdist waits for its workers
# to stop; a hook of every order, so it lands before and after the plugin's own writer
TEARDOWN_STOPPER = """
import os
import pytest

@pytest.hookimpl({order})
def pytest_sessionfinish(session):
    if not hasattr(session.config, "workerinput"):
        raise KeyboardInterrupt
"""


@pytest.mark.e2e  # pytest in a child process, with and without xdist workers
@pytest.mark.parametrize("order", ["tryfirst=True", "trylast=True"])
@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_ctrl_c_while_the_session_finishes_writes_every_report_as_interrupted(pytester, tiny_suite, order, workers):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)
    pytester.makeconftest(TEARDOWN_STOPPER.format(order=order))
    args = ["--wsb-record-mode=none", "--wsb-json=r.json", "--junitxml=j.xml", "--wsb-history=h.sqlite", *workers]
    result = pytester.runpytest_subprocess("suites/tiny", *args)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
    data = json.loads((pytester.path / "r.json").read_text())
    assert (data["complete"], data["interrupted"], len(data["items"])) == (False, "KeyboardInterrupt", 4)
    assert (pytester.path / "j.xml").read_text().count("<testcase ") == 4
    import sqlite3

    with sqlite3.connect(pytester.path / "h.sqlite") as history:
        assert history.execute("select count(*) from runs").fetchone() == (1,)
    result.stdout.fnmatch_lines(["interrupted while the session finished: the reports say the run is incomplete"])
