"""The suite-level regression verdict against a baseline: a paired test on the primary metric.

The run fails when the mean drop is significant (two-sided paired randomization test, p < alpha) and
larger than the minimum effect; pairs are the items both runs declared, each valued by the
population rule (an errored item counts as the column says, 0 for LexBench); under ``--wsb-repeat`` the
pairs are the cases, each the mean of its runs. Every verdict also says the
smallest drop the run could have detected at 80 % power (the paired differences' spread over √n, normal
approximation); a run without a finding whose detectable drop is above the minimum effect is
``inconclusive``: it could not have seen a drop that matters."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_websearchbench.core.family import BenchmarkFamily
from pytest_websearchbench.core.repeats import run_of
from pytest_websearchbench.reporting import stats
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.reporting.results import ItemRecord

REGRESSION = "REGRESSION"
IMPROVEMENT = "improvement"
NO_CHANGE = "no significant change"
INCONCLUSIVE = "inconclusive"
POWER = 0.8
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
    detectable: float | None = None  # the smallest drop detectable at 80 % power; None: too few pairs to say

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
        power = (
            "could detect any drop"
            if self.detectable == 0
            else f"could detect {self.detectable:.3f}".replace("detect ", "detect −") + " at 80 % power"
            if self.detectable is not None
            else "too few items to say what it could detect"
        )
        return f"{self.status} {self.metric} {delta} ({p}, n={self.n}; {power}){note}"

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
            "text": self.text(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SuiteVerdict:
        """A verdict as a results file holds it (``text`` is derived, so not read)."""
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
        )


def significant(delta: float, p: float, alpha: float, min_effect: float) -> bool:
    """A change the paired test finds (p < alpha) and larger than the minimum effect: a regression when a drop."""
    return p < alpha and abs(delta) > min_effect


def detectable_drop(new: Sequence[float], old: Sequence[float], alpha: float, power: float = POWER) -> float | None:
    """The smallest mean paired change a two-sided test at ``alpha`` finds with probability ``power``:
    (z₁₋α/₂ + z_power) · sd(differences) / √n. None with fewer than two pairs (no spread to estimate)."""
    if len(new) < 2:
        return None
    spread = statistics.stdev(a - b for a, b in zip(new, old))
    normal = statistics.NormalDist()
    return (normal.inv_cdf(1 - alpha / 2) + normal.inv_cdf(power)) * spread / math.sqrt(len(new))


def suite_verdicts(
    records: list[ItemRecord],
    families: Mapping[str, BenchmarkFamily],
    k: int,
    baseline: Baseline,
    *,
    alpha: float,
    min_effect: float,
) -> list[SuiteVerdict]:
    """One verdict per (suite, variant) of this run, in record order."""
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
        # mean of its runs valued in both (its runs paired one to one would count it N times)
        runs: dict[str, tuple[list[float], list[float]]] = {}
        for record in group:
            now = record.value(column.key, column.error_value)
            before = baseline.value(record.key, column.key, column.error_value)
            if now is not None and before is not None:
                case = run_of(record.meta.case_id)[0] if repeated else record.meta.case_id
                befores, nows = runs.setdefault(case, ([], []))
                befores.append(before)
                nows.append(now)
        old = [statistics.fmean(befores) for befores, _ in runs.values()]
        new = [statistics.fmean(nows) for _, nows in runs.values()]
        differences = baseline.accepted_differences(k, suite, meta.edition, meta.digest, meta.kind)
        if not old:
            verdicts.append(SuiteVerdict(suite, variant, column.label, NOTHING_SHARED, not_comparable=differences))
            continue
        delta, p = stats.paired_difference(new, old)
        detectable = detectable_drop(new, old, alpha)
        if significant(delta, p, alpha, min_effect):
            status = REGRESSION if delta < 0 else IMPROVEMENT
        else:
            status = INCONCLUSIVE if detectable is None or detectable > min_effect else NO_CHANGE
        verdicts.append(SuiteVerdict(suite, variant, column.label, status, delta, p, len(old), differences, detectable))
    return verdicts
