"""A suite's verdict against the baseline as a test of its own (``<suite>::[vs baseline][<variant>]``):
failed on a regression, with the verdict as its message, passed otherwise. Its reports go through
pytest's own hooks, so the terminal's counts and ``-rA``, JUnit XML and every plugin that reads
reports see it as they see an item; it exists only in the process that judges (pytest's, or the xdist
controller's)."""

from __future__ import annotations

import time

import pytest

from pytest_websearchbench.reporting.regression import SuiteVerdict
from pytest_websearchbench.reporting.results import ItemRecord
from pytest_websearchbench.reporting.terminal import fold_message

_MARK = "wsb_verdict_test"


def verdict_nodeid(suite_nodeid: str, variant: str) -> str:
    return f"{suite_nodeid}::[vs baseline][{variant}]"


def is_verdict_test(report: pytest.TestReport) -> bool:
    return bool(getattr(report, _MARK, False))


def report_verdicts(config: pytest.Config, verdicts: list[SuiteVerdict], records: list[ItemRecord]) -> None:
    """Log one test per verdict: its setup, call and teardown reports, as a run of it would."""
    suite_ids: dict[str, str] = {}
    for record in records:  # the suite's node id as its items have it (a folder, a file, a bundled name)
        suite_ids.setdefault(record.meta.suite, record.nodeid.split("::", 1)[0])
    hook = config.hook
    for verdict in verdicts:
        base = suite_ids.get(verdict.suite, verdict.suite)
        nodeid = verdict_nodeid(base, verdict.variant)
        location = (base, None, f"[vs baseline][{verdict.variant}]")
        hook.pytest_runtest_logstart(nodeid=nodeid, location=location)
        for when in ("setup", "call", "teardown"):
            failed = when == "call" and verdict.failed
            now = time.time()
            report = pytest.TestReport(
                nodeid,
                location,
                keywords={"wsb_verdict": 1},
                outcome="failed" if failed else "passed",
                longrepr="\n".join(fold_message(f"{verdict.suite} [{verdict.variant}]: {verdict.text()}"))
                if failed
                else None,
                when=when,
                sections=[] if failed or when != "call" else [("verdict", verdict.text())],
                duration=0.0,
                start=now,
                stop=now,
                user_properties=[("verdict", verdict.text())],
            )
            setattr(report, _MARK, True)
            hook.pytest_runtest_logreport(report=report)
        hook.pytest_runtest_logfinish(nodeid=nodeid, location=location)
