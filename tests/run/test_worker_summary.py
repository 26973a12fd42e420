"""Under xdist only the controller keeps records and computes the summary's figures: each worker once
computed them (bootstraps included) from its own share and threw them away."""

from __future__ import annotations

import pytest

CONFTEST = """
import os

import pytest_websearchbench.run.reporter as reporter

_real = reporter.run_figures
_role = []


def pytest_configure(config):
    _role.append("worker" if hasattr(config, "workerinput") else "controller")


def _counted(*args, **kwargs):
    with open(os.environ["WSB_SUMMARIES"], "a") as out:
        out.write(_role[0] + "\\n")
    return _real(*args, **kwargs)


reporter.run_figures = _counted
"""


@pytest.mark.e2e
def test_only_the_xdist_controller_computes_the_figures(pytester, tiny_suite, monkeypatch):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)  # records the cassettes
    marks = pytester.path / "summaries.txt"
    monkeypatch.setenv("WSB_SUMMARIES", str(marks))
    pytester.makeconftest(CONFTEST)  # in a process of its own: the patch must not outlive the run
    result = pytester.runpytest_subprocess("suites", "-n", "2", "--wsb-record-mode=none")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*websearchbench summary*", "*tiny*"])
    assert marks.read_text().split() == ["controller"]
