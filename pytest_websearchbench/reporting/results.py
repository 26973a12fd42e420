"""Collecting every item's record from test reports (on the xdist controller too)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from pytest_websearchbench.core.family import Score

WSB_KEYS = ("wsb_item", "wsb_run", "wsb_score", "wsb_baseline")


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
    """Receives test reports (``pytest_runtest_logreport``) and keeps one record per benchmark item."""

    def __init__(self) -> None:
        # keyed by what the item is, never by its node id: ids depend on pytest's rootdir and can collide
        self._records: dict[tuple[str, str, str], ItemRecord] = {}

    def add(self, report: pytest.TestReport) -> None:
        props = {name: value for name, value in report.user_properties if name in WSB_KEYS}
        if "wsb_item" not in props:
            return
        meta = props["wsb_item"]
        record = self._records.setdefault((meta["suite"], meta["case_id"], meta["provider"]),
                                          ItemRecord(report.nodeid))
        record.meta = meta
        record.run = props.get("wsb_run", record.run)
        if "wsb_score" in props:
            record.score = Score.from_dict(props["wsb_score"])
        record.baseline = props.get("wsb_baseline", record.baseline)
        outcome = _outcome(report)
        if outcome != "passed" and record.outcome in ("passed", "skipped", "xfailed"):
            record.outcome = outcome
            record.longrepr = _text(report)

    def records(self) -> list[ItemRecord]:
        return sorted(self._records.values(), key=lambda r: r.key)


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
