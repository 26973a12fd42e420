"""Repeated runs of a suite (``--wsb-repeat N``): every case becomes N items, ``<id>@1`` … ``<id>@N``,
each its own test and cassette; and, for the summary, the pass rate of each run over the declared
cases with their mean ± SD, and how many runs each case passed. Pure."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, replace

from pytest_websearchbench.core.family import Case

REPEAT_MARK = "@"  # the n-th item of a case under --wsb-repeat: <case>@<n>


def repeat_cases(cases: Iterable[Case], repeat: int) -> tuple[Case, ...]:
    """Each case ``repeat`` times in a row (``<id>@1`` … ``<id>@N``); the cases as they are for 1."""
    if repeat == 1:
        return tuple(cases)
    return tuple(replace(case, id=f"{case.id}{REPEAT_MARK}{n}") for case in cases for n in range(1, repeat + 1))


def run_of(item_id: str) -> tuple[str, int]:
    """The case and the run (1…N) of a repeated item's id."""
    case_id, _, run = item_id.rpartition(REPEAT_MARK)
    return case_id, int(run)


@dataclass(frozen=True)
class RepeatSummary:
    """``rates``: each run's pass rate over the declared cases (an item without a verdict, e.g. one
    that errored, counts as failed); ``passes``: per case that has a verdict, the runs it passed."""

    runs: int
    rates: tuple[float, ...]
    passes: dict[str, int]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.rates)

    @property
    def sd(self) -> float:
        """The sample standard deviation over the runs (n − 1); 0 for one run."""
        return statistics.stdev(self.rates) if self.runs > 1 else 0.0

    def text(self) -> str:
        return f"{self.mean:.3f} ± {self.sd:.3f} SD (runs: " + " · ".join(f"{rate:.3f}" for rate in self.rates) + ")"


def repeat_summary(outcomes: Iterable[tuple[str, int, bool]], runs: int, cases: int) -> RepeatSummary:
    """From (case, run, passed) of the items that have a verdict, ``runs`` runs of ``cases`` declared cases."""
    passed_by_run = [0] * runs
    passes: dict[str, int] = {}
    for case, run, passed in outcomes:
        passes[case] = passes.get(case, 0) + passed
        passed_by_run[run - 1] += passed
    return RepeatSummary(runs, tuple(n / cases if cases else 0.0 for n in passed_by_run), dict(sorted(passes.items())))
