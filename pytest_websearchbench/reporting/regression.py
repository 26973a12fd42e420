"""The suite-level regression verdict against a baseline: a paired test on the primary metric.

The run fails when the mean drop is significant (two-sided paired randomization test, p < alpha) and
larger than the minimum effect; pairs are the items both runs declared, each valued by the
population rule (an errored item counts as the column says, 0 for LexBench)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from pytest_websearchbench.core.family import BenchmarkFamily
from pytest_websearchbench.reporting import stats
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.reporting.results import ItemRecord

REGRESSION = "REGRESSION"
IMPROVEMENT = "improvement"
NO_CHANGE = "no significant change"
NOTHING_SHARED = "no items shared with the baseline"


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

    @property
    def failed(self) -> bool:
        return self.status == REGRESSION

    def text(self) -> str:
        """One line: ``REGRESSION nDCG@5 −0.110 (p<0.001, n=55)`` or ``no significant change …``."""
        if self.status == NOTHING_SHARED:
            return self.status
        p = "p<0.001" if self.p < 0.001 else f"p={self.p:.3f}"
        delta = f"{self.delta:+.3f}".replace("-", "−")
        note = f"; not comparable: {', '.join(self.not_comparable)}" if self.not_comparable else ""
        return f"{self.status} {self.metric} {delta} ({p}, n={self.n}){note}"

    def to_dict(self) -> dict:
        # "provider": the results file's (published) name of the variant
        return {"suite": self.suite, "provider": self.variant, "metric": self.metric, "status": self.status,
                "delta": self.delta, "p": self.p, "n": self.n, "not_comparable": self.not_comparable,
                "text": self.text()}

    @classmethod
    def from_dict(cls, data: dict) -> "SuiteVerdict":
        """A verdict as a results file holds it (``text`` is derived, so not read)."""
        return cls(data["suite"], data["provider"], data.get("metric", ""), data.get("status", ""),
                   data.get("delta", 0.0), data.get("p", 1.0), data.get("n", 0), list(data.get("not_comparable") or []))


def significant(delta: float, p: float, alpha: float, min_effect: float) -> bool:
    """A change the paired test finds (p < alpha) and larger than the minimum effect: a regression when a drop."""
    return p < alpha and abs(delta) > min_effect


def suite_verdicts(records: list[ItemRecord], families: Mapping[str, BenchmarkFamily], k: int, baseline: Baseline,
                   *, alpha: float, min_effect: float) -> list[SuiteVerdict]:
    """One verdict per (suite, variant) of this run, in record order."""
    groups: dict[tuple[str, str], list[ItemRecord]] = {}
    for record in records:
        groups.setdefault((record.meta.suite, record.meta.variant), []).append(record)
    verdicts = []
    for (suite, variant), group in groups.items():
        meta = group[0].meta
        column = families[meta.family].columns(meta.kind, k)[0]
        old, new = [], []
        for record in group:
            now = record.value(column.key, column.error_value)
            before = baseline.value(record.key, column.key, column.error_value)
            if now is not None and before is not None:
                old.append(before)
                new.append(now)
        differences = baseline.accepted_differences(k, suite, meta.edition, meta.digest, meta.kind)
        if not old:
            verdicts.append(SuiteVerdict(suite, variant, column.label, NOTHING_SHARED, not_comparable=differences))
            continue
        delta, p = stats.paired_difference(new, old)
        status = NO_CHANGE if not significant(delta, p, alpha, min_effect) else REGRESSION if delta < 0 else IMPROVEMENT
        verdicts.append(SuiteVerdict(suite, variant, column.label, status, delta, p, len(old), differences))
    return verdicts
