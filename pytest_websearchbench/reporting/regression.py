"""The suite-level regression verdict against a baseline: a paired test on the primary metric.

The run fails when the mean drop is significant (two-sided paired sign-flip test, p < alpha, exact on ties)
and larger than the minimum effect; pairs are the items both runs declared, each valued by the population
rule (an errored item counts as the column says, 0 for LexBench); under ``--wsb-repeat`` the pairs are the
cases, each the exact mean of its runs. Every verdict also says the smallest drop the test it ran could
have detected at 80 % power (``reporting/power.py``); a run without a finding whose detectable drop is above
the minimum effect is ``inconclusive``: it could not have seen a drop that matters. A verdict over answers
that hold pages nobody graded (a family's ``coverage``: LexBench's judged@k), when the run has less of them
graded than ``--wsb-min-judged`` or than the baseline had by more than ``--wsb-min-judged-drop``, is
``inconclusive (holes)``: nobody knows whether those pages are better or worse. Each verdict also compares the
items' latency with the baseline's (``reporting/latency_verdict.py``); ``--wsb-max-latency-regression`` makes a
significant slowdown beyond it fail the verdict whatever the metric says."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from pytest_websearchbench.core.family import BenchmarkFamily, Coverage
from pytest_websearchbench.core.repeats import run_of
from pytest_websearchbench.reporting import stats
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.reporting.identity import served_values
from pytest_websearchbench.reporting.latency_verdict import LatencyVerdict, baseline_item_latency, latency_verdict
from pytest_websearchbench.reporting.power import detectable_drop
from pytest_websearchbench.reporting.results import ItemRecord

REGRESSION = "REGRESSION"
IMPROVEMENT = "improvement"
NO_CHANGE = "no significant change"
INCONCLUSIVE = "inconclusive"
NOTHING_SHARED = "no items shared with the baseline"


@dataclass(frozen=True)
class Holes:
    """What of a verdict's answers nobody graded: the graded share of the top k (the family's coverage
    metric) now and in the baseline, and the ungraded pages of this run's answers (distinct, by item)."""

    label: str  # the coverage metric's name, e.g. judged@5
    now: float
    before: float | None  # None: the baseline's items do not say
    pages: list[str] = field(default_factory=list)

    def text(self) -> str:
        before = "" if self.before is None else f", {self.before:.3f} in the baseline"
        return f"{self.label} {self.now:.3f} now{before}"

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "now": self.now, "before": self.before, "unjudged": self.pages}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Holes:
        return cls(data.get("label", ""), data.get("now", 1.0), data.get("before"), list(data.get("unjudged") or []))


@dataclass(frozen=True)
class SuiteVerdict:
    suite: str
    variant: str  # the provider (or agent)
    metric: str  # the primary metric's label, e.g. nDCG@5
    status: str
    delta: float = 0.0  # mean(now) − mean(baseline)
    p: float = 1.0
    n: int = 0
    not_comparable: list[str] = field(default_factory=list)  # differences accepted with --wsb-baseline-accept
    detectable: float | None = None  # the smallest drop detectable at 80 % power; None: no drop is
    holes: Holes | None = None  # set when too little of the answers was graded to judge (status inconclusive)
    served: str | None = None  # what the provider's servers said they served, changed since the baseline
    latency: LatencyVerdict | None = None  # the items' latency against the baseline's; None: the run has none

    @property
    def failed(self) -> bool:
        return self.status == REGRESSION or (self.latency is not None and self.latency.failed)

    @property
    def headline(self) -> str:
        """The status as a reader meets it: ``inconclusive (holes: 3 unjudged pages in the top 5)`` for holes."""
        if self.holes is None:
            return self.status
        pages = len(self.holes.pages)
        return f"{self.status} (holes: {pages} unjudged page{'s' * (pages != 1)} in the top {_cutoff(self.metric)})"

    def text(self) -> str:
        """One line: ``REGRESSION nDCG@5 −0.110 (p<0.001, n=55; could detect −0.021 at 80 % power)`` or
        ``no significant change …``."""
        if self.status == NOTHING_SHARED:
            return self.status
        p = "p<0.001" if self.p < 0.001 else f"p={self.p:.3f}"
        delta = f"{self.delta:+.3f}".replace("-", "−")
        note = f"; not comparable: {', '.join(self.not_comparable)}" if self.not_comparable else ""
        power = (
            "could detect any drop"
            if self.detectable == 0
            else f"could detect −{self.detectable:.3f} at 80 % power"
            if self.detectable is not None
            else "too few items to detect any drop"
        )
        graded = f"; {self.holes.text()}" if self.holes is not None else ""
        served = f"; {self.served}" if self.served else ""  # what is being tested: shown beside its verdict
        # latency is part of the verdict when it can fail it (a gate given); else the summary's row shows it
        gated = self.latency is not None and self.latency.limit is not None
        latency = f"; {self.latency.text()}" if gated and self.latency is not None else ""
        return f"{self.headline} {self.metric} {delta} ({p}, n={self.n}; {power}{graded}){served}{latency}{note}"

    def to_dict(self) -> dict[str, Any]:
        # "provider": the results file's (published) name of the variant
        return {
            "suite": self.suite,
            "provider": self.variant,
            "metric": self.metric,
            "status": self.status,
            "delta": self.delta,
            "p": self.p,
            "n": self.n,
            "not_comparable": self.not_comparable,
            "detectable": self.detectable,
            "holes": None if self.holes is None else self.holes.to_dict(),
            "served": self.served,
            "latency": None if self.latency is None else self.latency.to_dict(),
            "text": self.text(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SuiteVerdict:
        """A verdict as a results file holds it (``text`` is derived, so not read)."""
        holes, latency = data.get("holes"), data.get("latency")
        return cls(
            data["suite"],
            data["provider"],
            data.get("metric", ""),
            data.get("status", ""),
            data.get("delta", 0.0),
            data.get("p", 1.0),
            data.get("n", 0),
            list(data.get("not_comparable") or []),
            data.get("detectable"),
            None if holes is None else Holes.from_dict(holes),
            data.get("served"),
            None if latency is None else LatencyVerdict.from_dict(latency),
        )


def _cutoff(label: str) -> str:
    """The k of a metric's label (``nDCG@5`` → 5), or k."""
    return label.rpartition("@")[2] or "k"


def significant(delta: float, p: float, alpha: float, min_effect: float) -> bool:
    """A change the paired test finds (p < alpha) and larger than the minimum effect: a regression when a drop."""
    return p < alpha and abs(delta) > min_effect


def suite_verdicts(
    records: list[ItemRecord],
    families: Mapping[str, BenchmarkFamily],
    k: int,
    baseline: Baseline,
    *,
    alpha: float,
    min_effect: float,
    min_judged: float = 0.9,
    min_judged_drop: float = 0.05,
    max_latency_regression: float | None = None,
) -> list[SuiteVerdict]:
    """One verdict per (suite, variant) of this run, in record order; ``max_latency_regression``: the latency
    gate (``latency_verdict``), None: latency is compared but fails nothing."""
    groups: dict[tuple[str, str], list[ItemRecord]] = {}
    for record in records:
        groups.setdefault((record.meta.suite, record.meta.variant), []).append(record)
    verdicts = []
    for (suite, variant), group in groups.items():
        meta = group[0].meta
        family = families[meta.family]
        column = family.columns(meta.kind, k)[0]
        repeated = family.repeats() > 1
        # the pairs are the cases: a repeated case's runs are not independent items, so it is valued by the
        # mean of its runs valued in both (its runs paired one to one would count it N times); the means are
        # exact, so equal sums of runs tie in the test instead of differing in a float's last bit
        runs: dict[str, tuple[list[float], list[float]]] = {}
        for record in group:
            now = record.value(column.key, column.error_value)
            before = baseline.value(record.key, column.key, column.error_value)
            if now is not None and before is not None:
                case = run_of(record.meta.case_id)[0] if repeated else record.meta.case_id
                befores, nows = runs.setdefault(case, ([], []))
                befores.append(before)
                nows.append(now)
        differences = [stats.exact_mean(nows) - stats.exact_mean(befores) for befores, nows in runs.values()]
        # a pass/fail metric (each value 0 or c, e.g. solved, success@k): its drops are cases lost, not shifts,
        # a case's mean of N runs moving c/N at a time
        values = {v for befores, nows in runs.values() for v in (*befores, *nows)}
        pass_fail = Fraction(max(values, default=1.0) or 1.0) / family.repeats() if len(values | {0.0}) <= 2 else None
        accepted = baseline.accepted_differences(k, suite, meta.edition, meta.digest, meta.kind)
        if not differences:
            verdicts.append(SuiteVerdict(suite, variant, column.label, NOTHING_SHARED, not_comparable=accepted))
            continue
        delta = float(stats.exact_mean(differences))
        p = stats.sign_flip_p(differences)
        detectable = detectable_drop(differences, alpha, step=pass_fail)
        holes = _holes(group, family.coverage(meta.kind), baseline, k)
        if holes is not None and (holes.now < min_judged or _dropped(holes, min_judged_drop)):
            status = INCONCLUSIVE  # pages nobody graded decide nothing either way, whatever the test says
        elif significant(delta, p, alpha, min_effect):
            status, holes = REGRESSION if delta < 0 else IMPROVEMENT, None
        else:
            status = INCONCLUSIVE if detectable is None or detectable > min_effect else NO_CHANGE
            holes = None
        served = baseline.served_change(suite, variant, served_values(group))
        latency = latency_verdict(
            (
                (run_of(record.meta.case_id)[0] if repeated else record.meta.case_id, baseline_item_latency(old), took)
                for record in group
                if (took := record.latency) is not None and (old := baseline.items.get(record.key)) is not None
            ),
            limit=max_latency_regression,
            alpha=alpha,
        )
        verdicts.append(
            SuiteVerdict(
                suite,
                variant,
                column.label,
                status,
                delta,
                p,
                len(differences),
                accepted,
                detectable,
                holes,
                served,
                latency,
            )
        )
    return verdicts


def _holes(group: list[ItemRecord], coverage: Coverage | None, baseline: Baseline, k: int) -> Holes | None:
    """How much of the group's answers, and of the baseline's for the same items, was graded; None for a
    family whose every answer is graded, or a group without a graded share."""
    if coverage is None:
        return None
    now = [
        r.score.metrics[coverage.metric] for r in group if r.score is not None and coverage.metric in r.score.metrics
    ]
    if not now:
        return None
    before = [v for r in group if (v := baseline.value(r.key, coverage.metric, None)) is not None]
    pages = dict.fromkeys(
        url for r in group if r.score is not None for url in r.score.details.get(coverage.pages) or []
    )
    return Holes(
        f"{coverage.metric}@{k}",
        stats.mean(now),
        stats.mean(before) if before else None,
        list(pages),
    )


def _dropped(holes: Holes, most: float) -> bool:
    """The run has less of its answers graded than the baseline had, by more than ``most``."""
    return holes.before is not None and holes.before - holes.now > most


#: a side-by-side verdict's words: a comparison of two variants of one run, not a gate (the exit code is untouched)
WORSE, BETTER, NO_DIFFERENCE = "worse", "better", "no significant difference"
_COMPARED = {REGRESSION: WORSE, IMPROVEMENT: BETTER, NO_CHANGE: NO_DIFFERENCE}


def versus_verdicts(
    records: list[ItemRecord],
    families: Mapping[str, BenchmarkFamily],
    k: int,
    order: list[str],
    *,
    alpha: float,
    min_effect: float,
    min_judged: float = 0.9,
    min_judged_drop: float = 0.05,
) -> list[SuiteVerdict]:
    """Side by side (several providers, or one provider's endpoints ``serper@prod,serper@staging``): each variant
    of a suite against the suite's reference, the first of ``order`` it has, by the baseline verdict's rules
    (exact paired test, the drop it could detect, holes); in words that compare (``worse``, ``better``, ``no
    significant difference``), since the run's exit code does not follow them."""
    verdicts = []
    by_suite: dict[str, list[ItemRecord]] = {}
    for record in records:
        by_suite.setdefault(record.meta.suite, []).append(record)
    for suite, group in by_suite.items():
        present = dict.fromkeys(r.meta.variant for r in group)
        names = [v for v in order if v in present] + [v for v in present if v not in order]
        if len(names) < 2:
            continue
        reference, meta = names[0], group[0].meta
        # the reference's items, keyed as each other variant's would be: the baseline every other one meets
        items = {
            (suite, r.meta.case_id, other): {
                "suite": suite,
                "case_id": r.meta.case_id,
                "provider": other,
                "outcome": r.outcome,
                "metrics": r.metrics,
            }
            for r in group
            if r.meta.variant == reference
            for other in names[1:]
        }
        against = Baseline(
            items, reference, k=k, suites={suite: {"edition": meta.edition, "digest": meta.digest, "kind": meta.kind}}
        )
        others = [r for r in group if r.meta.variant != reference]
        for verdict in suite_verdicts(
            others,
            families,
            k,
            against,
            alpha=alpha,
            min_effect=min_effect,
            min_judged=min_judged,
            min_judged_drop=min_judged_drop,
        ):
            verdicts.append(replace(verdict, status=_COMPARED.get(verdict.status, verdict.status), latency=None))
    return verdicts
