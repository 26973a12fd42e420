"""An item's typed payload and its record, and collecting the records from test reports (on the xdist
controller too).

What each phase of an item produced travels on its test report as a report attribute (``REPORT_PAYLOAD``,
the ``to_dict`` forms: xdist and pytest-reportlog serialize reports), never as a user property (those are
the JUnit XML's: ``reporting/junit.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from pytest_websearchbench.core.family import Score
from pytest_websearchbench.core.models import previews_by_row, previews_from_rows, without_answers
from pytest_websearchbench.providers.base import CallRecord
from pytest_websearchbench.reporting.baseline import ItemVerdict
from pytest_websearchbench.reporting.latency_verdict import ItemLatency, item_latency

#: the report attribute holding what one phase of a benchmark item produced (``report_payload``)
REPORT_PAYLOAD = "wsb_item"

#: the phase pytest-xdist gives the report it makes for the item a crashed worker was running
#: (``DSession.handle_crashitem``): no later report of that item will come
CRASH_PHASE = "???"


@dataclass(frozen=True, slots=True)  # slots: the run holds two a benchmark item (its own, its record's)
class ItemMeta:
    """Which item: a case of a suite against one variant (a provider, or WebBench's agent), and what the
    suite is; ``tags`` are the case's markers (-m's words: language, vendor, template…)."""

    suite: str
    case_id: str
    variant: str
    family: str
    kind: str = ""
    edition: str = ""
    digest: str = ""
    tags: tuple[str, ...] = ()
    #: the suite's remote files (hf://), each {repo, commit, path, sha256, size}: they travel with the item
    #: to the controller; the results file keeps them once, in its entry for the suite
    sources: tuple[dict[str, Any], ...] = ()
    #: the suite's identity in this run besides edition and digest (``BenchmarkFamily.identity``: the agent model
    #: asked for, the mode, the board, the grades): it travels with the item (an xdist controller loads no
    #: suite); the results file keeps it once, in its ``identity``
    identity: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.suite, self.case_id, self.variant

    @property
    def label(self) -> str:
        return f"{self.suite}/{self.case_id}[{self.variant}]"

    def to_dict(self) -> dict[str, Any]:
        # "provider": the results file's (published) name of the variant
        return {
            "suite": self.suite,
            "case_id": self.case_id,
            "provider": self.variant,
            "family": self.family,
            "kind": self.kind,
            "edition": self.edition,
            "digest": self.digest,
            "tags": list(self.tags),
            **({"sources": list(self.sources)} if self.sources else {}),
            **({"identity": dict(self.identity)} if self.identity else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ItemMeta:
        return cls(
            data["suite"],
            data["case_id"],
            data["provider"],
            data["family"],
            data.get("kind") or "",
            data.get("edition") or "",
            data.get("digest") or "",
            tuple(data.get("tags") or ()),
            tuple(data.get("sources") or ()),
            dict(data.get("identity") or {}),
        )


@dataclass(slots=True)  # slots: one a benchmark item, held to the end of the run
class ItemRun:
    """What running one item (its setup) produced: how its cassette answered, the provider calls, the raw
    results (``RawResults.to_dict``) or the error that stopped it, and what produced the answers."""

    cassette_path: str | None = None
    cassette: str | None = None  # replayed | recorded | live; None: no cassette answered (an error, no traffic)
    calls: list[CallRecord] = field(default_factory=list)
    error: str | None = None
    error_kind: str | None = None
    raw: dict[str, Any] | None = None
    produced_by: dict[str, str] | None = None  # Provider.produced_by: a corpus digest, the options that change results
    #: what the servers said they served, by field, each field's distinct values (``served_by``): the
    #: provider's (API versions, resolved settings) and the agent model's snapshots (``AGENT_SERVED``)
    served: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cassette_path": self.cassette_path,
            "cassette": self.cassette,
            "calls": [call.to_dict() for call in self.calls],
            "error": self.error,
            "error_kind": self.error_kind,
            "raw": self.raw,
            "produced_by": self.produced_by,
            "served": self.served,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ItemRun:
        """A run as ``to_dict`` wrote it, or as a results file's item holds it (without its cassette path)."""
        return cls(
            data.get("cassette_path"),
            data.get("cassette"),
            [CallRecord.from_dict(call) for call in data.get("calls") or []],
            data.get("error"),
            data.get("error_kind"),
            data.get("raw"),
            data.get("produced_by"),
            {name: list(values) for name, values in (data.get("served") or {}).items()},
        )


def served_by(calls: Iterable[CallRecord], own: Mapping[str, list[str]] | None = None) -> dict[str, list[str]]:
    """What the servers said they served for one item: each field's distinct values (sorted), from its provider
    calls (``CallRecord.served``) and what the family's run read of its own calls (``RawResults.served``)."""
    found: dict[str, set[str]] = {}
    for call in calls:
        for name, value in (call.served or {}).items():
            found.setdefault(name, set()).add(value)
    for name, values in (own or {}).items():
        found.setdefault(name, set()).update(values)
    return {name: sorted(values) for name, values in sorted(found.items())}


@dataclass(slots=True)  # slots: one a benchmark item, held to the end of the run
class ItemRecord:
    """Everything one benchmark item produced, merged from its setup/call/teardown reports."""

    nodeid: str
    meta: ItemMeta
    run: ItemRun = field(default_factory=ItemRun)
    score: Score | None = None  # None until the item was scored (it errored in setup)
    outcome: str = "passed"
    message: str = ""  # pytest's report of a test that did not pass
    baseline: ItemVerdict | None = None  # how it compares with --wsb-baseline, if given
    finished: bool = False  # its last report (teardown, or the crash report of its worker) arrived
    #: what the case asks and what answers it (``CaseSample.to_dict``), with --wsb-inspect-log only: not in
    #: the results file
    sample: dict[str, Any] | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        return self.meta.key

    @property
    def metrics(self) -> dict[str, float]:
        return self.score.metrics if self.score else {}

    @property
    def primary(self) -> str | None:
        """The key of the metric a baseline compares (the family's first column); None when unscored."""
        return self.score.primary if self.score else None

    @property
    def errored(self) -> bool:
        """An item that never got a score because its provider (or agent) failed."""
        return self.score is None and self.outcome == "error"

    @property
    def latency(self) -> ItemLatency | None:
        """Its client (and server) time over its answered calls (``latency_verdict.item_latency``)."""
        return item_latency(self.run.calls)

    def value(self, metric: str, error_value: float | None) -> float | None:
        """``metric`` by the population rule: the score's value, ``error_value`` for an errored item
        (None: the metric leaves errored items out), None when the item has no such metric."""
        if self.errored:
            return error_value
        return self.metrics.get(metric)

    def drop_answers(self) -> None:
        """The provider's answer text out of the record, as the results file keeps it without --wsb-json-raw
        (``without_answers``): for a run whose outputs never show it, it was most of what a record held."""
        raw, results = without_answers(self.run.raw, self.score.results if self.score else [])
        self.run.raw = raw
        if self.score is not None:
            self.score = replace(self.score, results=results)

    def to_dict(self, *, shared_previews: bool = False, answers: bool = True) -> dict[str, Any]:
        """The item's entry in the results file (its suite's edition and digest are the file's ``suites``).
        ``shared_previews``: a raw hit whose preview is its scored row's is written once (``previews_by_row``);
        ``answers`` False: without the provider's answer text (``without_answers``)."""
        meta = self.meta.to_dict()
        results = self.score.results if self.score else []
        raw = self.run.raw
        if not answers:
            raw, results = without_answers(raw, results)
        return {
            **{key: meta[key] for key in ("suite", "case_id", "provider", "family", "kind", "tags")},
            "nodeid": self.nodeid,
            "outcome": self.outcome,
            "message": self.message,
            "metrics": self.metrics,
            "primary_metric": self.primary,
            "results": results,
            **({"details": self.score.details} if self.score and self.score.details else {}),
            "raw": previews_by_row(raw, results) if shared_previews else raw,
            "cassette": self.run.cassette,
            "calls": [call.to_dict() for call in self.run.calls],
            # what a baseline's latency verdict pairs (the calls' client and server times, totalled apart)
            **({"latency_ms": latency.to_dict()} if (latency := self.latency) is not None else {}),
            "error": self.run.error,
            "error_kind": self.run.error_kind,
            "baseline": self.baseline.to_dict() if self.baseline else None,
            # what the servers said they served (run identity): only where one said
            **({"served": self.run.served} if self.run.served else {}),
        }

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], suite: Mapping[str, Any] | None = None, produced_by: dict[str, str] | None = None
    ) -> ItemRecord:
        """The record a results file's item was written from (``suite``: the file's entry for its suite;
        ``produced_by``: the file's provider settings of its variant). Fields an older file lacks are
        empty; an item without metrics or primary metric was never scored."""
        meta = ItemMeta.from_dict(
            {
                **data,
                "edition": (suite or {}).get("edition"),
                "digest": (suite or {}).get("digest"),
                "sources": (suite or {}).get("sources"),
                "identity": None,
            }
        )
        score = None
        if data.get("primary_metric") is not None or data.get("metrics"):
            score = Score(
                data.get("outcome") in ("passed", "xfailed"),
                dict(data.get("metrics") or {}),
                data.get("message") or "",
                list(data.get("results") or []),
                data.get("primary_metric") or "",
                dict(data.get("details") or {}),
            )
        raw = previews_from_rows(data.get("raw"), data.get("results") or [])
        run = ItemRun.from_dict({**data, "raw": raw, "produced_by": produced_by})
        baseline = ItemVerdict.from_dict(data["baseline"]) if data.get("baseline") else None
        return cls(
            data.get("nodeid", ""),
            meta,
            run,
            score,
            data.get("outcome", "passed"),
            data.get("message") or "",
            baseline,
            True,
        )


def variant_settings(records: Iterable[ItemRecord]) -> dict[str, dict[str, str]]:
    """What produced each variant's answers (``Provider.produced_by``), as its first item recorded it."""
    out: dict[str, dict[str, str]] = {}
    for record in records:
        if record.run.produced_by is not None:
            out.setdefault(record.meta.variant, record.run.produced_by)
    return out


def report_payload(
    meta: ItemMeta,
    run: ItemRun | None = None,
    score: Score | None = None,
    verdict: ItemVerdict | None = None,
    sample: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What a report carries (``REPORT_PAYLOAD``): the item it belongs to, and what its phase produced —
    the run (and, when asked for, the case's sample) on the setup report, the score and the baseline verdict
    on the call report."""
    payload: dict[str, Any] = {"item": meta.to_dict()}
    if run is not None:
        payload["run"] = run.to_dict()
    if sample is not None:
        payload["sample"] = sample
    if score is not None:
        payload["score"] = score.to_dict()
    if verdict is not None:
        payload["baseline"] = verdict.to_dict()
    return payload


class ResultStore:
    """Receives test reports (``pytest_runtest_logreport``) and keeps one record per benchmark item.

    An item's record is final when its teardown report arrives, or the report pytest-xdist makes when
    the worker running it died: that item is an error with xdist's reason, whatever earlier reports said.
    Items that never finished (an interrupted run) are left out of ``records()``. ``keeps_answers`` says of an
    item whether its record keeps the provider's answer text when it finishes (``ItemRecord.drop_answers``).
    """

    def __init__(self, keeps_answers: Callable[[ItemMeta], bool] = lambda meta: True) -> None:
        self._keeps_answers = keeps_answers
        # keyed by what the item is, never by its node id: ids depend on pytest's rootdir and can collide
        self._records: dict[tuple[str, str, str], ItemRecord] = {}
        self._keys: dict[str, tuple[str, str, str]] = {}  # node id → key, from the item's own reports
        self._crashes: dict[str, str] = {}  # node id → reason, for crashed items none of whose reports came

    def add(self, report: pytest.TestReport) -> None:
        if report.when == CRASH_PHASE:
            self._crashed(report.nodeid, _text(report))
            return
        payload = getattr(report, REPORT_PAYLOAD, None)
        if payload is None:
            return
        # taken off the report: pytest keeps every report to the end of the run, and the record now holds it
        delattr(report, REPORT_PAYLOAD)
        meta = ItemMeta.from_dict(payload["item"])
        self._keys[report.nodeid] = meta.key
        record = self._records.setdefault(meta.key, ItemRecord(report.nodeid, meta))
        record.meta = meta
        if "run" in payload:
            record.run = ItemRun.from_dict(payload["run"])
        if "sample" in payload:
            record.sample = payload["sample"]
        if "score" in payload:
            record.score = Score.from_dict(payload["score"])
        if "baseline" in payload:
            record.baseline = ItemVerdict.from_dict(payload["baseline"])
        outcome = _outcome(report)
        if outcome != "passed" and record.outcome in ("passed", "skipped", "xfailed"):
            record.outcome = outcome
            record.message = _text(report)
        if report.when == "teardown":
            record.finished = True
            if not self._keeps_answers(meta):
                record.drop_answers()

    def _crashed(self, nodeid: str, reason: str) -> None:
        key = self._keys.get(nodeid)
        if key is None:  # it died before its first report: describe it at the end (crashed_unknown)
            self._crashes[nodeid] = reason
            return
        record = self._records[key]
        record.outcome = "error"
        record.message = reason
        record.run.error, record.run.error_kind = reason, "worker_crashed"
        record.finished = True

    def crashed_unknown(self) -> list[str]:
        """Node ids of crashed items the store has no description of yet (their worker died in setup)."""
        return [nodeid for nodeid in self._crashes if nodeid not in self._keys]

    def add_crashed(self, nodeid: str, meta: ItemMeta) -> None:
        """The record of a crashed item described by ``meta`` (what its own reports would have carried)."""
        self._keys[nodeid] = meta.key
        self._records[meta.key] = ItemRecord(nodeid, meta)
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
    #: how the run chose a part of its suites' items (-k, -m, --lf, --deselect, ids); empty: it ran them all
    selected_by: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return self.interrupted is None and self.declared is not None and self.missing == 0 and self.suite_errors == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "complete": self.complete,
            "interrupted": self.interrupted,
            "declared_items": self.declared,
            "missing_items": self.missing,
            "suite_errors": self.suite_errors,
            "selection": "partial" if self.selected_by else "all",
            "selected_by": list(self.selected_by),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Completeness:
        return cls(
            data.get("declared_items"),
            data.get("missing_items") or 0,
            data.get("interrupted"),
            data.get("suite_errors") or 0,
            tuple(data.get("selected_by") or ()),
        )

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
