"""What the HTML report shows, computed from one or several results files (``--wsb-json`` documents).

The figures follow the terminal summary's rules exactly (``reporting/terminal.py``): means with 95 %
bootstrap intervals over the declared population (``ItemRecord.value``), latency percentiles over the
provider calls, the paired test against the reference variant (the first one), and the baseline's
verdicts as the run judged them (``reporting/regression.py``, stored in the results file).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Mapping

from pytest_websearchbench.core.family import BenchmarkFamily, MetricColumn, Score
from pytest_websearchbench.reporting import stats
from pytest_websearchbench.reporting.results import ItemRecord
from pytest_websearchbench.reporting.terminal import cassettes_text, cost_text

OUTCOMES = ("passed", "failed", "xfailed", "error", "skipped")


@dataclass(frozen=True)
class Source:
    """One results file: its label (the file name) and its document."""

    label: str
    document: dict[str, Any]


@dataclass
class Item:
    """One item of a results file as the report shows it."""

    index: int
    variant: str  # the provider or agent, suffixed with its file when several files name it for one suite
    source: str
    data: dict[str, Any]  # the item's entry in the results file
    record: ItemRecord

    @property
    def suite(self) -> str:
        return self.data["suite"]

    @property
    def case_id(self) -> str:
        return self.data["case_id"]

    @property
    def key(self) -> str:
        """What the URL fragment names it by."""
        return f"{self.suite}::{self.case_id}[{self.variant}]"


@dataclass
class MetricStat:
    column: MetricColumn
    mean: float
    low: float
    high: float
    n: int


@dataclass
class Paired:
    """A variant against the reference on one metric: mean paired difference, p, pairs."""

    delta: float
    p: float
    n: int


@dataclass
class VariantSummary:
    name: str
    items: list[Item]
    passed: int
    errors: int
    xfailed: int
    population: str
    metrics: dict[str, MetricStat]
    latencies_ms: list[float]
    p50_ms: float | None
    p95_ms: float | None
    cost: str
    cassettes: str
    verdict: dict[str, Any] | None  # the suite's regression verdict against the baseline
    paired: dict[str, Paired] = field(default_factory=dict)  # metric key → vs the reference

    @property
    def pass_rate(self) -> str:
        n = len(self.items)
        return f"{self.passed}/{n} ({100 * self.passed / n:.1f}%)" if n else "-"


@dataclass
class SuiteSummary:
    name: str
    family: str
    kind: str
    edition: str
    k: int | None  # None for a family whose items have no result cutoff (WebBench)
    columns: list[MetricColumn]
    variants: list[VariantSummary]
    population_note: str
    traffic: bool
    changes: dict[str, list[Item]]  # baseline status (regressed, fixed, known) → items

    @property
    def reference(self) -> str:
        return self.variants[0].name

    @property
    def shown_columns(self) -> list[MetricColumn]:
        """The metrics some variant has a value of."""
        return [c for c in self.columns if any(c.key in v.metrics for v in self.variants)]

    @property
    def paired_columns(self) -> list[MetricColumn]:
        """The metrics some variant was compared with the reference on."""
        return [c for c in self.columns if any(c.key in v.paired for v in self.variants[1:])]


def item_record(data: Mapping[str, Any], suite: Mapping[str, Any] | None = None) -> ItemRecord:
    """The ``ItemRecord`` a results file's item was written from (``ItemRecord.to_dict``; ``suite``: the file's
    entry for its suite), so the report values items by the same population rule as the summary; an item
    that was never scored has no score."""
    meta = {key: data.get(key) for key in ("suite", "case_id", "provider", "family", "kind")}
    meta.update({key: (suite or {}).get(key, "") for key in ("edition", "digest")})
    score = None
    if data.get("primary_metric") is not None or data.get("metrics"):
        score = Score(data.get("outcome") in ("passed", "xfailed"), dict(data.get("metrics") or {}),
                      data.get("message") or "", list(data.get("results") or []), data.get("primary_metric") or "")
    run = {"calls": list(data.get("calls") or []), "cassette": data.get("cassette"), "error": data.get("error"),
           "error_kind": data.get("error_kind"), "raw": data.get("raw")}
    return ItemRecord(data.get("nodeid", ""), meta, run, score, data.get("outcome", "passed"),
                      data.get("message") or "", data.get("baseline"), True)


def build_items(sources: list[Source]) -> list[Item]:
    """Every item of every file; a provider that several files name for one suite is told apart by its file."""
    files_of: dict[tuple[str, str], set[str]] = defaultdict(set)
    for source in sources:
        for data in source.document["items"]:
            files_of[data["suite"], data["provider"]].add(source.label)
    items = []
    for source in sources:
        for data in source.document["items"]:
            variant = data["provider"]
            if len(files_of[data["suite"], variant]) > 1:
                variant = f"{variant} ({source.label})"
            suite = (source.document.get("suites") or {}).get(data["suite"])
            items.append(Item(len(items), variant, source.label, data, item_record(data, suite)))
    return items


def variant_order(sources: list[Source], items: list[Item]) -> list[str]:
    """The --provider order of each file (the first is the reference), then the others as they come."""
    order: list[str] = []
    for source in sources:
        for provider in source.document.get("providers") or []:
            for item in items:
                if item.source == source.label and item.data["provider"] == provider and item.variant not in order:
                    order.append(item.variant)
    order += [v for v in dict.fromkeys(item.variant for item in items) if v not in order]
    return order


def suite_summaries(sources: list[Source], items: list[Item], families: Mapping[str, BenchmarkFamily]
                    ) -> list[SuiteSummary]:
    order = variant_order(sources, items)
    verdicts = {(v["suite"], v["provider"], source.label): v for source in sources
                for v in ((source.document.get("baseline") or {}).get("verdicts") or [])}
    k_of = {source.label: source.document.get("k") for source in sources}
    by_suite: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        by_suite[item.suite].append(item)
    out = []
    for name in sorted(by_suite):
        group = by_suite[name]
        first = group[0].data
        family = families.get(first["family"])
        k = k_of[group[0].source] or 0
        columns = family.columns(first["kind"], k) if family is not None else _columns_of(group)
        variants = [v for v in order if any(i.variant == v for i in group)]
        summaries = [_variant(v, [i for i in group if i.variant == v], columns, verdicts) for v in variants]
        _pair(summaries, columns)
        population = any(c.error_value is not None for c in columns)
        traffic = (family is None or family.records_traffic) and any(
            i.record.run.get("calls") or i.record.run.get("cassette") for i in group)
        note = ("the declared population (an errored item counts 0 in "
                + ", ".join(c.label for c in columns if c.error_value is not None)
                + "; other metrics leave it out)") if population else "items (errors excluded)"
        changes = {status: [i for i in group if (i.data.get("baseline") or {}).get("status") == status]
                   for status in ("regressed", "fixed", "known")}
        shown_k = k if family is None or family.uses_k else None
        out.append(SuiteSummary(name, first["family"], first.get("kind") or "", _edition(sources, name), shown_k, columns,
                                summaries, note, traffic, changes))
    return out


def _edition(sources: list[Source], suite: str) -> str:
    for source in sources:
        found = (source.document.get("suites") or {}).get(suite)
        if found:
            return str(found.get("edition", ""))
    return ""


def _columns_of(items: list[Item]) -> list[MetricColumn]:
    """A family this installation does not know: its metrics as they come, errors left out."""
    keys = dict.fromkeys(key for item in items for key in item.record.metrics)
    return [MetricColumn(key, key) for key in keys]


def _variant(name: str, items: list[Item], columns: list[MetricColumn],
             verdicts: Mapping[tuple[str, str, str], dict]) -> VariantSummary:
    records = [i.record for i in items]
    metrics = {}
    for column in columns:
        values = [v for v in (r.value(column.key, column.error_value) for r in records) if v is not None]
        if values:
            mean, low, high = stats.bootstrap_ci(values)
            metrics[column.key] = MetricStat(column, mean, low, high, len(values))
    seconds = [call["seconds"] for r in records for call in r.run.get("calls", []) if call.get("ok", True)
               and call.get("seconds") is not None]
    latencies = [1000 * s for s in seconds]
    declared = [r for r in records if r.score is not None or r.errored]
    errored = sum(r.errored for r in declared)
    population = f"{len(declared)}" + (f" · {errored} error{'s' if errored != 1 else ''} counted as 0" if errored else "")
    first = items[0]
    verdict = verdicts.get((first.suite, first.data["provider"], first.source))
    return VariantSummary(
        name, items, passed=sum(r.outcome == "passed" for r in records),
        errors=sum(r.outcome == "error" for r in records), xfailed=sum(r.outcome == "xfailed" for r in records),
        population=population, metrics=metrics, latencies_ms=latencies,
        p50_ms=stats.percentile(latencies, 50) if latencies else None,
        p95_ms=stats.percentile(latencies, 95) if latencies else None,
        cost=cost_text(records), cassettes=cassettes_text(records),
        verdict=verdict)


def _pair(summaries: list[VariantSummary], columns: list[MetricColumn]) -> None:
    """Each variant against the first, paired by case over the items both scored (the summary's Δ rows)."""
    if len(summaries) < 2:
        return
    first = {i.case_id: i.record.metrics for i in summaries[0].items if i.record.outcome != "error"}
    for summary in summaries[1:]:
        for column in columns:
            pairs = [(i.record.metrics[column.key], first[i.case_id][column.key]) for i in summary.items
                     if i.record.outcome != "error" and column.key in i.record.metrics
                     and column.key in first.get(i.case_id, {})]
            if not pairs:
                continue
            new, old = [a for a, _ in pairs], [b for _, b in pairs]
            # identical pairs: every sign flip ties, p = 1 (as the summary: skips 10,000 resamples)
            p = 1.0 if new == old else stats.paired_randomization_test(new, old)
            summary.paired[column.key] = Paired(stats.mean(new) - stats.mean(old), p, len(pairs))
