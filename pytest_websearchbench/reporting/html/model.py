"""What the HTML report shows: the items of one or several runs' results (``RunResults``: the run's own
with ``--wsb-html``, results files' with the report CLI) and each suite's figures (``reporting/figures.py``),
computed by the summary's rules; the baseline's verdicts are those the run judged (stored in its results).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace

from pytest_websearchbench.core.family import BenchmarkFamily
from pytest_websearchbench.reporting.figures import SuiteFigures, suite_figures
from pytest_websearchbench.reporting.json_results import RunResults
from pytest_websearchbench.reporting.results import ItemRecord

OUTCOMES = ("passed", "failed", "xfailed", "error", "skipped")
#: the baseline statuses the report lists per suite, in order
CHANGES = ("regressed", "fixed", "known")


@dataclass(frozen=True)
class Source:
    """One run's results and its label (the results file's name)."""

    label: str
    results: RunResults


@dataclass
class Item:
    """One item as the report shows it: its record, whose variant is suffixed with its source's label when
    several sources name that variant for one suite."""

    index: int
    source: str
    record: ItemRecord
    source_variant: str  # the variant as its source names it

    @property
    def suite(self) -> str:
        return self.record.meta.suite

    @property
    def case_id(self) -> str:
        return self.record.meta.case_id

    @property
    def variant(self) -> str:
        return self.record.meta.variant

    @property
    def key(self) -> str:
        """What the URL fragment names it by."""
        return f"{self.suite}::{self.case_id}[{self.variant}]"


def build_items(sources: list[Source]) -> list[Item]:
    """Every item of every source; a variant that several sources name for one suite is told apart by its source."""
    files_of: dict[tuple[str, str], set[str]] = defaultdict(set)
    for source in sources:
        for record in source.results.records:
            files_of[record.meta.suite, record.meta.variant].add(source.label)
    items: list[Item] = []
    for source in sources:
        for record in source.results.records:
            named = record.meta.variant
            if len(files_of[record.meta.suite, named]) > 1:
                record = replace(record, meta=replace(record.meta, variant=f"{named} ({source.label})"))
            items.append(Item(len(items), source.label, record, named))
    return items


def variant_order(sources: list[Source], items: list[Item]) -> list[str]:
    """The --provider order of each source, as shown (the first is the reference; ``suite_figures`` puts the
    other variants after them, as they come)."""
    order: list[str] = []
    for source in sources:
        for provider in source.results.providers:
            for item in items:
                if item.source == source.label and item.source_variant == provider and item.variant not in order:
                    order.append(item.variant)
    return order


def report_figures(
    sources: list[Source], items: list[Item], families: Mapping[str, BenchmarkFamily]
) -> list[SuiteFigures]:
    """Each suite's figures, by suite name, over the items of every source (a suite's k: its first source's)."""
    order = variant_order(sources, items)
    by_label = {source.label: source for source in sources}
    by_suite: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        by_suite[item.suite].append(item)
    out = []
    for name in sorted(by_suite):
        group = by_suite[name]
        verdicts = [
            replace(verdict, variant=shown)
            for label, named, shown in dict.fromkeys((i.source, i.source_variant, i.variant) for i in group)
            for verdict in by_label[label].results.verdicts
            if (verdict.suite, verdict.variant) == (name, named)
        ]
        # side by side within one run: its verdicts against the reference, as that run judged them
        versus = [] if len(sources) > 1 else [v for v in sources[0].results.versus if v.suite == name]
        out.append(
            suite_figures(
                [item.record for item in group],
                families.get(group[0].record.meta.family),
                by_label[group[0].source].results.k,
                order=order,
                verdicts=verdicts,
                versus=versus,
                # its A/A pairs' noise floors, within one run as it measured them
                same_endpoints=[] if len(sources) > 1 else sources[0].results.same_endpoints,
            )
        )
    return out


def changes(items: list[Item]) -> dict[str, dict[str, list[Item]]]:
    """Per suite: its items by their status against the baseline (regressed, fixed, known)."""
    out: dict[str, dict[str, list[Item]]] = {item.suite: {status: [] for status in CHANGES} for item in items}
    for item in items:
        verdict = item.record.baseline
        if verdict is not None and verdict.status in CHANGES:
            out[item.suite][verdict.status].append(item)
    return out
