"""``wsb-report parity``: Harbor's parity rule over runs of two sides (an adapter and its original, two harness
versions), pure: results in, figures and a ``parity_experiment.json``-shaped document out.

A run's metric is its suite × variant mean over the items (the population rule: an errored item counts the
family's error value, 0 for a score; a metric the item lacks leaves it out). Each side's figure is the mean
of its runs' values ± their standard error (the sample SD of the per-run means / √runs); the sides agree
when the ranges [mean − SEM, mean + SEM] overlap. Rows are matched by suite, variant and metric; a row one
side lacks is named apart, never compared.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_websearchbench.core.family import BenchmarkFamily
from pytest_websearchbench.reporting.json_results import RunResults

#: fewer runs a side give no standard error
MIN_RUNS = 2


@dataclass(frozen=True)
class Side:
    """One side's runs of one metric: each run's mean, in the order the runs were given."""

    trials: tuple[float, ...]

    @property
    def mean(self) -> float:
        return math.fsum(self.trials) / len(self.trials)

    @property
    def sem(self) -> float:
        return statistics.stdev(self.trials) / math.sqrt(len(self.trials))

    def text(self) -> str:
        return f"{self.mean:.4f} ± {self.sem:.4f}"


@dataclass(frozen=True)
class ParityRow:
    suite: str
    variant: str
    metric: str  # the key (ndcg)
    label: str  # as the summary names it (nDCG@5)
    a: Side
    b: Side

    @property
    def overlap(self) -> bool:
        """[mean − SEM, mean + SEM] of the two sides meet."""
        return abs(self.a.mean - self.b.mean) <= self.a.sem + self.b.sem


@dataclass(frozen=True)
class Parity:
    rows: list[ParityRow]
    unmatched: list[str]  # "suite [variant] label: only in a" (or b)


def run_means(run: RunResults, families: Mapping[str, BenchmarkFamily]) -> dict[tuple[str, str, str], float]:
    """Each (suite, variant, metric)'s mean over the run's items; the metric's label is the family's column."""
    values: dict[tuple[str, str, str], list[float]] = {}
    for record in run.records:
        family = families.get(record.meta.family)
        if family is None:
            continue
        for column in family.columns(record.meta.kind, run.k):
            value = record.value(column.key, column.error_value)
            if value is not None:
                values.setdefault((record.meta.suite, record.meta.variant, column.key), []).append(value)
    return {key: math.fsum(found) / len(found) for key, found in values.items()}


def labels(runs: Sequence[RunResults], families: Mapping[str, BenchmarkFamily]) -> dict[tuple[str, str], str]:
    """(suite, metric) → the label the summary gives it."""
    found: dict[tuple[str, str], str] = {}
    for run in runs:
        for record in run.records:
            family = families.get(record.meta.family)
            for column in family.columns(record.meta.kind, run.k) if family is not None else []:
                found.setdefault((record.meta.suite, column.key), column.label)
    return found


def parity(a: Sequence[RunResults], b: Sequence[RunResults], families: Mapping[str, BenchmarkFamily]) -> Parity:
    """The parity rows of two sides' runs (each at least ``MIN_RUNS``, checked by the caller)."""
    means_a = [run_means(run, families) for run in a]
    means_b = [run_means(run, families) for run in b]
    named = labels([*a, *b], families)
    keys_a = set().union(*means_a)
    keys_b = set().union(*means_b)
    rows, unmatched = [], []
    for key in sorted(keys_a | keys_b):
        suite, variant, metric = key
        label = named.get((suite, metric), metric)
        in_a = [m[key] for m in means_a if key in m]
        in_b = [m[key] for m in means_b if key in m]
        if len(in_a) < MIN_RUNS or len(in_b) < MIN_RUNS:
            side = "a" if len(in_b) < MIN_RUNS and len(in_a) >= MIN_RUNS else "b" if len(in_a) < MIN_RUNS else ""
            unmatched.append(
                f"{suite} [{variant}] {label}: in {len(in_a)} run(s) of a, {len(in_b)} of b"
                + (f" (only {side} has {MIN_RUNS})" if side else "")
            )
            continue
        rows.append(ParityRow(suite, variant, metric, label, Side(tuple(in_a)), Side(tuple(in_b))))
    return Parity(rows, unmatched)


def parity_document(
    result: Parity, *, adapter_name: str, agent: str, model: str, date: str, items: int
) -> list[dict[str, Any]]:
    """Harbor's ``parity_experiment.json`` as its adapters write it (our reading: a list of experiments, each
    with its adapter, agent, model, date, size, trials and metrics; side a is ``original``, side b
    ``harbor``); ``overlap`` and ``variant`` are ours, beside its fields."""
    trials = max([len(row.a.trials) for row in result.rows] + [len(row.b.trials) for row in result.rows] or [0])
    return [
        {
            "adapter_name": adapter_name,
            "agent": agent,
            "model": model,
            "date": date,
            "parity_benchmark_size": items,
            "number_of_trials": trials,
            "metrics": [
                {
                    "benchmark_name": row.suite,
                    "variant": row.variant,
                    "metric": row.label,
                    "original": row.a.text(),
                    "harbor": row.b.text(),
                    "original_trials": [round(v, 6) for v in row.a.trials],
                    "harbor_trials": [round(v, 6) for v in row.b.trials],
                    "overlap": row.overlap,
                }
                for row in result.rows
            ],
        }
    ]
