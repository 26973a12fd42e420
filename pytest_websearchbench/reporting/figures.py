"""Every figure a suite shows, computed once from its item records: the terminal summary, the HTML
report, the results file's summary block (costs, verdicts) only format them.

The rules: means with 95 % bootstrap intervals over the declared population (``ItemRecord.value``: an
errored item counts as its column says, or is left out); latency percentiles over the provider calls
that answered; cost at the price table's rates; each variant against the reference (the first in the
run's order) by the mean paired difference over the items both scored and a two-sided paired
randomization test; the baseline's verdict as ``reporting/regression.py`` judged it; a run of a history
against the run before it by the same paired test, over the cases both valued (``paired_runs``).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pytest_websearchbench.core.family import BenchmarkFamily, MetricColumn
from pytest_websearchbench.reporting import stats
from pytest_websearchbench.reporting.latency_verdict import LatencyVerdict, latency_verdict
from pytest_websearchbench.reporting.regression import SuiteVerdict
from pytest_websearchbench.reporting.results import ItemRecord

CASSETTE_STATES = ("replayed", "recorded", "live")


@dataclass(frozen=True)
class MetricFigure:
    """A metric's mean with its 95 % bootstrap interval, over ``n`` values."""

    column: MetricColumn
    mean: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


@dataclass(frozen=True)
class PairedFigure:
    """A variant against the reference on one metric: mean paired difference, p, pairs."""

    delta: float
    p: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"delta": self.delta, "p": self.p, "n": self.n}


@dataclass(frozen=True)
class NoiseFloor:
    """An A/A pair, one endpoint under two labels (``serper@a``, ``serper@b`` at one base URL), on the primary
    metric: the mean paired difference ``second`` − ``first`` with its 95 % bootstrap interval, over the ``n``
    items both scored, ``differing`` of which differ, and ``p95`` the 95th percentile of the per-item |Δ|.
    The floor is the interval's larger end in magnitude: a mean change within it is what the endpoint does
    against itself (its nondeterminism, the web drifting between calls), so it can feed ``--wsb-min-effect``."""

    first: str
    second: str
    column: MetricColumn
    delta: float
    low: float
    high: float
    differing: int
    n: int
    p95: float

    @property
    def floor(self) -> float:
        return max(abs(self.low), abs(self.high))

    def text(self) -> str:
        digits = ".3f" if self.column.scale == 1 else ".1f"  # as the table shows the metric

        def shown(value: float, sign: str = "") -> str:
            return format(value * self.column.scale, sign + digits)

        # --wsb-min-effect is on the metric's own scale (0-1), whatever scale the table shows it on
        return (
            f"noise floor (A/A {self.first} vs {self.second}, one endpoint): {self.column.label} mean Δ "
            f"{shown(self.delta, '+')} [{shown(self.low, '+')}, {shown(self.high, '+')}], {self.differing}/{self.n} "
            f"items differ (p95 |Δ| {shown(self.p95)}); a mean change within ±{shown(self.floor)} is noise "
            f"(--wsb-min-effect={self.floor:.3g})"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "second": self.second,
            "metric": self.column.key,
            "delta": self.delta,
            "low": self.low,
            "high": self.high,
            "floor": self.floor,
            "differing": self.differing,
            "n": self.n,
            "p95_abs_delta": self.p95,
        }


@dataclass(frozen=True)
class Cost:
    """The answered provider calls and what they cost at the price table's rates (replayed calls count at
    list price); a call without a price is unpriced."""

    calls: int
    usd: float  # the priced calls' total
    unpriced: int

    @property
    def text(self) -> str:
        if not self.calls:
            return "-"
        if self.unpriced == self.calls:
            return f"unpriced ({self.unpriced} calls; set --wsb-price)"
        text = f"{self.usd:.4f} ({self.calls - self.unpriced} calls)"
        return text + (f" + {self.unpriced} unpriced" if self.unpriced else "")

    def to_dict(self) -> dict[str, Any]:
        return {"calls": self.calls, "usd": self.usd, "unpriced_calls": self.unpriced}


def cost_of(records: Iterable[ItemRecord]) -> Cost:
    calls = [call for record in records for call in record.run.calls if call.ok]
    priced = [call.cost_usd for call in calls if call.cost_usd is not None]
    return Cost(len(calls), math.fsum(priced), len(calls) - len(priced))


@dataclass
class VariantFigures:
    """One variant's column of a suite's table."""

    name: str
    records: list[ItemRecord]
    passed: int
    errors: int  # items whose outcome is an error
    xfailed: int
    population: int  # the declared items the means are over: scored, or errored (the population rule)
    errored: int  # of them, errored (never scored)
    metrics: dict[str, MetricFigure]  # metric key → figure, for the metrics it has values of
    latencies_ms: list[float]  # each answered provider call's
    p50_ms: float | None
    p95_ms: float | None
    cost: Cost
    cassettes: dict[str, int]  # cassette state → items
    empty_answers: int  # calls answered with no result (they score 0)
    error_reasons: list[tuple[str, int]]  # each distinct reason of its errored items, most frequent first
    verdict: SuiteVerdict | None  # against the baseline
    answered: MetricFigure | None = None  # the primary metric over the answered items, when some errored
    #: the server's own time per answered call, where the provider stated one (None: it stated none)
    server_p50_ms: float | None = None
    server_p95_ms: float | None = None
    #: its verdict against the reference (side by side; None for the reference): regression.versus_verdicts
    versus: SuiteVerdict | None = None
    #: its items' latency against the reference's, paired by case (side by side; None for the reference)
    latency_paired: LatencyVerdict | None = None
    paired: dict[str, PairedFigure] = field(default_factory=dict)  # metric key → against the reference

    @property
    def items(self) -> int:
        return len(self.records)

    @property
    def pass_rate(self) -> str:
        return f"{self.passed}/{self.items} ({100 * self.passed / self.items:.1f}%)"

    @property
    def population_text(self) -> str:
        """How many items the headline means are over, and how many of them errored."""
        errors = self.errored
        return f"{self.population}" + (f" · {errors} error{'s' if errors != 1 else ''} counted as 0" if errors else "")

    @property
    def cassettes_text(self) -> str:
        """How the items' calls were answered."""
        return " · ".join(f"{self.cassettes[state]} {state}" for state in CASSETTE_STATES)

    def to_dict(self) -> dict[str, Any]:
        """The variant's figures as the results file's summary block holds them (fractions, milliseconds)."""
        return {
            "variant": self.name,
            "items": self.items,
            "passed": self.passed,
            "errors": self.errors,
            "xfailed": self.xfailed,
            "population": self.population,
            "errored": self.errored,
            "metrics": {key: figure.to_dict() for key, figure in self.metrics.items()},
            "answered": self.answered.to_dict() if self.answered else None,
            "latency_ms": {"p50": self.p50_ms, "p95": self.p95_ms},
            **(
                {"server_latency_ms": {"p50": self.server_p50_ms, "p95": self.server_p95_ms}}
                if self.server_p50_ms is not None
                else {}
            ),
            **({"latency_paired": self.latency_paired.to_dict()} if self.latency_paired is not None else {}),
            **({"versus": self.versus.to_dict()} if self.versus is not None else {}),
            "cost": self.cost.to_dict(),
            "cassettes": self.cassettes,
            "empty_answers": self.empty_answers,
            "error_reasons": [{"reason": reason, "items": count} for reason, count in self.error_reasons],
            "paired": {key: figure.to_dict() for key, figure in self.paired.items()},
            "baseline": self.verdict.to_dict() if self.verdict else None,
        }


@dataclass
class SuiteFigures:
    name: str
    family: str
    kind: str
    edition: str
    k: int | None  # None for a family whose items have no result cutoff (WebBench)
    columns: list[MetricColumn]
    records: list[ItemRecord]  # every item of the suite, in record order
    variants: list[VariantFigures]  # the first is the reference
    traffic: bool  # some item asked a provider (a self-check of a suite asks none)
    sources: tuple[dict[str, Any], ...] = ()  # the suite's remote files (hf://): repo, commit, path, sha256
    noise_floors: list[NoiseFloor] = field(default_factory=list)  # its A/A pairs' (one endpoint, two labels)

    @property
    def reference(self) -> str:
        return self.variants[0].name

    @property
    def counted_columns(self) -> list[MetricColumn]:
        """The metrics an errored item counts in (its column's error value); the others leave it out."""
        return [c for c in self.columns if c.error_value is not None]

    @property
    def shown_columns(self) -> list[MetricColumn]:
        """The metrics some variant has a value of."""
        return [c for c in self.columns if any(c.key in v.metrics for v in self.variants)]

    @property
    def paired_columns(self) -> list[MetricColumn]:
        """The metrics some variant was compared with the reference on."""
        return [c for c in self.columns if any(c.key in v.paired for v in self.variants[1:])]

    def to_dict(self) -> dict[str, Any]:
        """The suite's figures as the results file's summary block holds them: each variant's, the first
        the reference the others are paired with."""
        return {
            "suite": self.name,
            "family": self.family,
            "kind": self.kind,
            "edition": self.edition,
            "k": self.k,
            "metrics": [{"key": c.key, "label": c.label, "errored_count_as": c.error_value} for c in self.columns],
            "reference": self.reference,
            "variants": [variant.to_dict() for variant in self.variants],
            **({"noise_floors": [f.to_dict() for f in self.noise_floors]} if self.noise_floors else {}),
        }


def run_figures(
    records: Sequence[ItemRecord],
    families: Mapping[str, BenchmarkFamily],
    k: int,
    *,
    order: Sequence[str] = (),
    verdicts: Iterable[SuiteVerdict] = (),
    same_endpoints: Sequence[tuple[str, str]] = (),
    versus: Iterable[SuiteVerdict] = (),
) -> list[SuiteFigures]:
    """Each suite's figures, by suite name (see ``suite_figures``)."""
    by_suite: dict[str, list[ItemRecord]] = defaultdict(list)
    for record in records:
        by_suite[record.meta.suite].append(record)
    verdicts, compared = list(verdicts), list(versus)
    return [
        suite_figures(
            by_suite[name],
            families.get(by_suite[name][0].meta.family),
            k,
            order=order,
            verdicts=verdicts,
            same_endpoints=same_endpoints,
            versus=compared,
        )
        for name in sorted(by_suite)
    ]


def suite_figures(
    records: Sequence[ItemRecord],
    family: BenchmarkFamily | None,
    k: int,
    *,
    order: Sequence[str] = (),
    verdicts: Iterable[SuiteVerdict] = (),
    same_endpoints: Sequence[tuple[str, str]] = (),
    versus: Iterable[SuiteVerdict] = (),
) -> SuiteFigures:
    """The figures of one suite's records: variants in ``order`` (the first is the reference), then the
    others as they come; ``family`` None (one this installation does not know): its metrics as they come,
    errored items left out; ``verdicts``: the baseline's, matched by suite and variant; ``same_endpoints``:
    the A/A pairs (two labels of one endpoint), each a noise floor; ``versus``: the side-by-side verdicts against
    the reference, matched by suite and variant."""
    first = records[0].meta
    columns = family.columns(first.kind, k) if family is not None else _columns_of(records)
    present = dict.fromkeys(r.meta.variant for r in records)
    names = [v for v in order if v in present] + [v for v in present if v not in order]
    judged = {v.variant: v for v in verdicts if v.suite == first.suite}
    variants = [
        _variant(name, [r for r in records if r.meta.variant == name], columns, judged.get(name)) for name in names
    ]
    counted = [c for c in columns if c.error_value is not None]
    if counted and any(r.errored for r in records):  # the primary metric over the answered items too
        primary = columns[0]
        for variant in variants:
            variant.answered = _mean(
                primary, [r.metrics[primary.key] for r in variant.records if primary.key in r.metrics]
            )
    _pair(variants, columns)
    _pair_latency(variants)
    compared = {v.variant: v for v in versus if v.suite == first.suite}
    for variant in variants[1:]:
        variant.versus = compared.get(variant.name)
    traffic = (family is None or family.records_traffic) and any(r.run.calls or r.run.cassette for r in records)
    return SuiteFigures(
        first.suite,
        first.family,
        first.kind,
        first.edition,
        k if family is None or family.uses_k else None,
        columns,
        list(records),
        variants,
        traffic,
        first.sources,
        [
            floor
            for first_name, second in same_endpoints
            if (floor := _noise_floor(variants, columns, first_name, second))
        ],
    )


def _columns_of(records: Sequence[ItemRecord]) -> list[MetricColumn]:
    keys = dict.fromkeys(key for record in records for key in record.metrics)
    return [MetricColumn(key, key) for key in keys]


def _mean(column: MetricColumn, values: list[float]) -> MetricFigure | None:
    if not values:
        return None
    mean, low, high = stats.bootstrap_ci(values)
    return MetricFigure(column, mean, low, high, len(values))


def _variant(
    name: str, records: list[ItemRecord], columns: list[MetricColumn], verdict: SuiteVerdict | None
) -> VariantFigures:
    samples = [[v for v in (r.value(c.key, c.error_value) for r in records) if v is not None] for c in columns]
    # all columns' intervals at once: those over the same items share their resampling draws
    intervals = stats.bootstrap_cis(samples)
    metrics = {
        column.key: MetricFigure(column, *interval, len(values))
        for column, values, interval in zip(columns, samples, intervals)
        if values
    }
    seconds = [call.seconds for r in records for call in r.run.calls if call.ok and call.seconds is not None]
    # the server's own times apart from the client's: never one list, a stated time is not a measured one
    stated = [s for r in records for call in r.run.calls if call.ok and (s := call.server_seconds) is not None]
    declared = [r for r in records if r.score is not None or r.errored]
    reasons = Counter(r.run.error for r in records if r.outcome == "error" and r.run.error)
    return VariantFigures(
        name,
        records,
        passed=sum(r.outcome == "passed" for r in records),
        errors=sum(r.outcome == "error" for r in records),
        xfailed=sum(r.outcome == "xfailed" for r in records),
        population=len(declared),
        errored=sum(r.errored for r in declared),
        metrics=metrics,
        latencies_ms=[1000 * s for s in seconds],
        p50_ms=1000 * stats.percentile(seconds, 50) if seconds else None,
        p95_ms=1000 * stats.percentile(seconds, 95) if seconds else None,
        cost=cost_of(records),
        cassettes={state: sum(r.run.cassette == state for r in records) for state in CASSETTE_STATES},
        empty_answers=sum(call.outcome == "empty" for r in records for call in r.run.calls),
        error_reasons=reasons.most_common(),
        verdict=verdict,
        server_p50_ms=1000 * stats.percentile(stated, 50) if stated else None,
        server_p95_ms=1000 * stats.percentile(stated, 95) if stated else None,
    )


def _pair(variants: list[VariantFigures], columns: list[MetricColumn]) -> None:
    """Each variant against the first, paired by case over the items both scored."""
    if len(variants) < 2:
        return
    first = {r.meta.case_id: r.metrics for r in variants[0].records if r.outcome != "error"}
    for variant in variants[1:]:
        for column in columns:
            pairs = [
                (r.metrics[column.key], first[r.meta.case_id][column.key])
                for r in variant.records
                if r.outcome != "error" and column.key in r.metrics and column.key in first.get(r.meta.case_id, {})
            ]
            if pairs:
                delta, p = stats.paired_difference([a for a, _ in pairs], [b for _, b in pairs])
                variant.paired[column.key] = PairedFigure(delta, p, len(pairs))


def _pair_latency(variants: list[VariantFigures]) -> None:
    """Each variant's items' latency against the first's, paired by case (``latency_verdict``, no gate)."""
    if len(variants) < 2:
        return
    first = {r.meta.case_id: latency for r in variants[0].records if (latency := r.latency) is not None}
    for variant in variants[1:]:
        variant.latency_paired = latency_verdict(
            (r.meta.case_id, first[r.meta.case_id], latency)
            for r in variant.records
            if (latency := r.latency) is not None and r.meta.case_id in first
        )


def _noise_floor(
    variants: list[VariantFigures], columns: list[MetricColumn], first: str, second: str
) -> NoiseFloor | None:
    """The A/A pair's noise floor on the primary metric, over the items both scored; None when the suite has
    not both variants or they share no scored item."""
    by_name = {v.name: v for v in variants}
    if not columns or first not in by_name or second not in by_name:
        return None
    key = columns[0].key
    before = {
        r.meta.case_id: r.metrics[key] for r in by_name[first].records if r.outcome != "error" and key in r.metrics
    }
    differences = [
        r.metrics[key] - before[r.meta.case_id]
        for r in by_name[second].records
        if r.outcome != "error" and key in r.metrics and r.meta.case_id in before
    ]
    if not differences:
        return None
    delta, low, high = stats.bootstrap_ci(differences)
    spread = stats.percentile([abs(d) for d in differences], 95)
    return NoiseFloor(
        first, second, columns[0], delta, low, high, sum(d != 0 for d in differences), len(differences), spread
    )


_Key = TypeVar("_Key", bound=Hashable)


def paired_runs(before: Mapping[_Key, float], after: Mapping[_Key, float]) -> PairedFigure | None:
    """A run against an earlier one on one metric (each item's value by the population rule, by item): the
    mean paired difference after − before over the items both valued, and its p; None when none are shared."""
    shared = [key for key in after if key in before]
    if not shared:
        return None
    delta, p = stats.paired_difference([after[key] for key in shared], [before[key] for key in shared])
    return PairedFigure(delta, p, len(shared))
