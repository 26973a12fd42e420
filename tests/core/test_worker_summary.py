"""Under xdist only the controller keeps records and writes the summary: each worker once computed a
summary (bootstraps included) from its own share and threw it away."""

from __future__ import annotations


def test_only_the_xdist_controller_computes_the_summary(pytester, tiny_suite, monkeypatch):
    marks = pytester.path / "summaries.txt"
    monkeypatch.setenv("WSB_SUMMARIES", str(marks))
    pytester.makeconftest('''
import os

import pytest_websearchbench.reporting.reporter as reporter

_real = getattr(reporter.summary_lines, "__wrapped__", reporter.summary_lines)  # conftest runs in each run


def _counted(*args, **kwargs):
    with open(os.environ["WSB_SUMMARIES"], "a") as out:
        out.write(os.environ.get("PYTEST_XDIST_WORKER", "controller") + "\\n")
    return _real(*args, **kwargs)


_counted.__wrapped__ = _real
reporter.summary_lines = _counted
''')
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)  # records the cassettes
    marks.unlink()
    result = pytester.runpytest("suites", "-n", "2", "--wsb-record-mode=none")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*websearchbench summary*", "*tiny*"])
    assert marks.read_text().split() == ["controller"]
