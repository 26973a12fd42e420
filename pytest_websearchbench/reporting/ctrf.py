"""``--wsb-ctrf PATH``: the run as a CTRF report (Common Test Report Format, https://ctrf.io; the JSON
Harbor's verifiers write), so a CTRF viewer, a CI plugin or Harbor's tooling opens it as it opens theirs.

One test per test pytest ran: each benchmark item (its variant, metrics and primary metric in ``extra``)
and each suite's verdict against the baseline (``extra.verdict``), besides any other test of the run.
The statuses keep pytest's counts: ``passed``, ``failed`` (a failure, or an error in setup or teardown:
CTRF has no error status), ``skipped``, and ``other`` for xfailed and xpassed; pytest's own word is each
test's ``rawStatus``. Pure: test reports folded in (``OutcomeLog``), records in, a dict out; the reporter
writes it through the atomic writer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest

from pytest_websearchbench.reporting.results import ItemRecord

#: the version of the CTRF specification the report follows (its schema's ``specVersion``)
CTRF_SPEC_VERSION = "0.1.0"

#: pytest's outcome of a test → CTRF's status
STATUS = {
    "passed": "passed",
    "failed": "failed",
    "error": "failed",
    "skipped": "skipped",
    "xfailed": "other",
    "xpassed": "other",
}

#: the keyword a suite's verdict test's reports carry (run/verdict_tests.py)
VERDICT_KEYWORD = "wsb_verdict"


@dataclass
class Outcome:
    """One test as pytest counts it, from its setup, call and teardown reports."""

    nodeid: str
    raw_status: str = "passed"  # pytest's word: passed, failed, error, skipped, xfailed, xpassed
    duration: float = 0.0  # seconds, every phase
    start: float | None = None
    stop: float | None = None
    message: str = ""
    trace: str = ""
    verdict: str = ""  # a suite's verdict test: the verdict in words

    @property
    def status(self) -> str:
        return STATUS[self.raw_status]


@dataclass
class OutcomeLog:
    """Every test's reports, folded as they arrive into one outcome per test."""

    tests: dict[str, Outcome] = field(default_factory=dict)

    def add(self, report: pytest.TestReport) -> None:
        test = self.tests.setdefault(report.nodeid, Outcome(report.nodeid))
        test.duration += report.duration or 0.0
        start, stop = getattr(report, "start", None), getattr(report, "stop", None)
        if start is not None:
            test.start = start if test.start is None else min(test.start, start)
        if stop is not None:
            test.stop = stop if test.stop is None else max(test.stop, stop)
        if VERDICT_KEYWORD in report.keywords:
            test.verdict = str(dict(report.user_properties).get("verdict", ""))
        raw = _raw_status(report)
        # the first phase that did not pass decides (a failed call stays failed whatever its teardown says);
        # pytest counts a teardown error beside it, CTRF has one status a test
        if raw is not None and test.raw_status == "passed":
            test.raw_status = raw
            test.message, test.trace = _message(report)

    def outcomes(self) -> list[Outcome]:
        return list(self.tests.values())


def _raw_status(report: pytest.TestReport) -> str | None:
    """What this phase says of the test (None: nothing beyond passed)."""
    xfail = hasattr(report, "wasxfail")
    if report.failed:
        return "failed" if report.when == "call" else "error"
    if report.skipped:
        return "xfailed" if xfail else "skipped"
    if report.when == "call" and xfail:
        return "xpassed"
    return None


def _message(report: pytest.TestReport) -> tuple[str, str]:
    """The one-line message and the full text of a phase that did not pass."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple):  # a skip: (file, line, reason)
        return str(longrepr[2]).removeprefix("Skipped: "), ""
    if hasattr(report, "wasxfail") and not report.failed:
        return f"xfail: {report.wasxfail}".rstrip(": "), ""
    crash = getattr(longrepr, "reprcrash", None)
    text = report.longreprtext
    first = next((line for line in text.splitlines() if line.strip()), "")
    return (str(crash.message) if crash is not None else first), text


def ctrf_document(
    outcomes: Iterable[Outcome],
    records: Iterable[ItemRecord],
    *,
    started: float,
    stopped: float,
    pytest_version: str,
    plugin_version: str,
) -> dict[str, Any]:
    """The CTRF report of a run's tests; ``records`` add each benchmark item's variant and metrics,
    ``started``/``stopped`` (seconds since the epoch) are the run's."""
    by_nodeid = {record.nodeid: record for record in records}
    tests = [_test(outcome, by_nodeid.get(outcome.nodeid)) for outcome in outcomes]
    counts = Counter(test["status"] for test in tests)
    start, stop = _ms(started), max(_ms(started), _ms(stopped))
    return {
        "reportFormat": "CTRF",
        "specVersion": CTRF_SPEC_VERSION,
        "generatedBy": f"pytest-websearchbench {plugin_version}",
        "timestamp": datetime.fromtimestamp(stopped, UTC).isoformat().replace("+00:00", "Z"),
        "results": {
            "tool": {"name": "pytest", "version": pytest_version},
            "summary": {
                "tests": len(tests),
                **{status: counts.get(status, 0) for status in ("passed", "failed", "pending", "skipped", "other")},
                "start": start,
                "stop": stop,
                "duration": stop - start,
                # pytest's own counts (errors apart from failures), which the statuses merge
                "extra": {"pytest": dict(sorted(Counter(test["rawStatus"] for test in tests).items()))},
            },
            "tests": tests,
        },
    }


def _test(outcome: Outcome, record: ItemRecord | None) -> dict[str, Any]:
    test: dict[str, Any] = {
        "name": outcome.nodeid,
        "status": outcome.status,
        "rawStatus": outcome.raw_status,
        "duration": _ms(outcome.duration),
        "filePath": outcome.nodeid.split("::", 1)[0],
    }
    if outcome.start is not None and outcome.stop is not None:
        test["start"], test["stop"] = _ms(outcome.start), _ms(outcome.stop)
    if outcome.message:
        test["message"] = outcome.message
    if outcome.trace:
        test["trace"] = outcome.trace
    if record is not None:
        meta = record.meta
        test["suite"] = [meta.suite]
        test["tags"] = list(meta.tags)
        test["extra"] = {
            "suite": meta.suite,
            "case_id": meta.case_id,
            "variant": meta.variant,
            "family": meta.family,
            "kind": meta.kind,
            "outcome": record.outcome,
            "metrics": dict(record.metrics),
            **({"primary": record.primary} if record.primary else {}),
            **({"error": record.run.error} if record.run.error else {}),
        }
    elif outcome.verdict:
        suite, _, variant = outcome.nodeid.rpartition("::[vs baseline][")
        test["suite"] = [suite]
        test["extra"] = {"verdict": outcome.verdict, "variant": variant.removesuffix("]")}
    return test


def _ms(seconds: float) -> int:
    return round(seconds * 1000)
