"""Collecting every item's record from test reports (on the xdist controller too)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from pytest_websearchbench.core.family import Score

WSB_KEYS = ("wsb_item", "wsb_run", "wsb_score", "wsb_baseline")

#: the phase pytest-xdist gives the report it makes for the item a crashed worker was running
#: (``DSession.handle_crashitem``): no later report of that item will come
CRASH_PHASE = "???"


@dataclass
class ItemRecord:
    """Everything one benchmark item produced, merged from its setup/call/teardown reports."""

    nodeid: str
    meta: dict[str, Any] = field(default_factory=dict)
    run: dict[str, Any] = field(default_factory=dict)
    score: Score | None = None  # None until the item was scored (it errored in setup)
    outcome: str = "passed"
    longrepr: str = ""
    baseline: dict[str, Any] | None = None  # how it compares with --wsb-baseline (ItemVerdict), if given
    finished: bool = False  # its last report (teardown, or the crash report of its worker) arrived

    @property
    def key(self) -> tuple[str, str, str]:
        return self.meta["suite"], self.meta["case_id"], self.meta["provider"]

    @property
    def metrics(self) -> dict[str, float]:
        return self.score.metrics if self.score else {}

    @property
    def errored(self) -> bool:
        """An item that never got a score because its provider (or agent) failed."""
        return self.score is None and self.outcome == "error"

    def value(self, metric: str, error_value: float | None) -> float | None:
        """``metric`` by the population rule: the score's value, ``error_value`` for an errored item
        (None: the metric leaves errored items out), None when the item has no such metric."""
        if self.errored:
            return error_value
        return self.metrics.get(metric)

    def to_dict(self) -> dict[str, Any]:
        return {
            **{k: self.meta[k] for k in ("suite", "case_id", "provider", "family", "kind")},
            "nodeid": self.nodeid,
            "outcome": self.outcome,
            "message": self.longrepr,
            "metrics": self.metrics,
            "primary_metric": self.score.primary if self.score else None,
            "results": self.score.results if self.score else [],
            "raw": self.run.get("raw"),
            "cassette": self.run.get("cassette"),
            "calls": self.run.get("calls", []),
            "error": self.run.get("error"),
            "error_kind": self.run.get("error_kind"),
            "baseline": self.baseline,
        }


class ResultStore:
    """Receives test reports (``pytest_runtest_logreport``) and keeps one record per benchmark item.

    An item's record is final when its teardown report arrives, or the report pytest-xdist makes when
    the worker running it died: that item is an error with xdist's reason, whatever earlier reports said.
    Items that never finished (an interrupted run) are left out of ``records()``.
    """

    def __init__(self) -> None:
        # keyed by what the item is, never by its node id: ids depend on pytest's rootdir and can collide
        self._records: dict[tuple[str, str, str], ItemRecord] = {}
        self._keys: dict[str, tuple[str, str, str]] = {}  # node id → key, from the item's own reports
        self._crashes: dict[str, str] = {}  # node id → reason, for crashed items none of whose reports came

    def add(self, report: pytest.TestReport) -> None:
        if report.when == CRASH_PHASE:
            self._crashed(report.nodeid, _text(report))
            return
        props = {name: value for name, value in report.user_properties if name in WSB_KEYS}
        if "wsb_item" not in props:
            return
        meta = props["wsb_item"]
        key = meta["suite"], meta["case_id"], meta["provider"]
        self._keys[report.nodeid] = key
        record = self._records.setdefault(key, ItemRecord(report.nodeid))
        record.meta = meta
        record.run = props.get("wsb_run", record.run)
        if "wsb_score" in props:
            record.score = Score.from_dict(props["wsb_score"])
        record.baseline = props.get("wsb_baseline", record.baseline)
        outcome = _outcome(report)
        if outcome != "passed" and record.outcome in ("passed", "skipped", "xfailed"):
            record.outcome = outcome
            record.longrepr = _text(report)
        record.finished = record.finished or report.when == "teardown"

    def _crashed(self, nodeid: str, reason: str) -> None:
        key = self._keys.get(nodeid)
        if key is None:  # it died before its first report: describe it at the end (crashed_unknown)
            self._crashes[nodeid] = reason
            return
        record = self._records[key]
        record.outcome = "error"
        record.longrepr = reason
        record.run = {**record.run, "error": reason, "error_kind": "worker_crashed"}
        record.finished = True

    def crashed_unknown(self) -> list[str]:
        """Node ids of crashed items the store has no description of yet (their worker died in setup)."""
        return [nodeid for nodeid in self._crashes if nodeid not in self._keys]

    def add_crashed(self, nodeid: str, meta: dict[str, Any]) -> None:
        """The record of a crashed item described by ``meta`` (what its own reports would have carried)."""
        key = meta["suite"], meta["case_id"], meta["provider"]
        self._keys[nodeid] = key
        self._records[key] = ItemRecord(nodeid, meta)
        self._crashed(nodeid, self._crashes.pop(nodeid))

    def finished(self, nodeid: str) -> bool:
        key = self._keys.get(nodeid)
        return key is not None and self._records[key].finished

    def records(self) -> list[ItemRecord]:
        """Every finished item's record, in (suite, case, variant) order."""
        return sorted((r for r in self._records.values() if r.finished), key=lambda r: r.key)


@dataclass(frozen=True)
class Completeness:
    """Whether a run's results cover every benchmark item it declared (collected and selected)."""

    declared: int | None  # None: the run stopped before its items were known
    missing: int  # declared items without a finished record
    interrupted: str | None = None  # why the run stopped early: "KeyboardInterrupt", pytest.exit's reason, -x…
    suite_errors: int = 0  # suites that failed to collect (their items are not even declared)

    @property
    def complete(self) -> bool:
        return (self.interrupted is None and self.declared is not None and self.missing == 0
                and self.suite_errors == 0)

    def to_dict(self) -> dict[str, Any]:
        return {"complete": self.complete, "interrupted": self.interrupted, "declared_items": self.declared,
                "missing_items": self.missing, "suite_errors": self.suite_errors}

    def text(self) -> str:
        """One line for the summary of an incomplete run ("" for a complete one)."""
        if self.complete:
            return ""
        parts = [f"interrupted ({self.interrupted})"] if self.interrupted else []
        if self.declared is None:
            parts.append("stopped before its items were collected")
        elif self.missing:
            parts.append(f"{self.missing} of {self.declared} declared items have no result")
        if self.suite_errors:
            parts.append(f"{self.suite_errors} suite{'s' if self.suite_errors != 1 else ''} could not be collected")
        return "run incomplete: " + "; ".join(parts)


def _outcome(report: pytest.TestReport) -> str:
    """pytest's words: a failure outside the test body is an error."""
    if hasattr(report, "wasxfail"):
        return "xfailed"  # a known failure (it failed in the baseline too)
    if report.skipped:
        return "skipped"
    if report.failed:
        return "failed" if report.when == "call" else "error"
    return "passed"


def _text(report: pytest.TestReport) -> str:
    if hasattr(report, "wasxfail"):
        return report.wasxfail
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])
    # xdist heads a worker's report with its platform and interpreter path: not the item's, and machine-specific
    return _WORKER_HEADER.sub("", report.longreprtext)


_WORKER_HEADER = re.compile(r"\A\[gw\d+\] [^\n]*\n")
