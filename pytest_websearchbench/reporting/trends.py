"""The release history's figures: what a run stores (``entry_of``: the figures ``reporting/figures.py``
computed for the run) and what the trend page shows (``suite_trends``).

The rules:

- A trend is a suite's primary metric per variant over the history's runs of that suite, each point the
  mean and 95 % interval the run itself computed. An incomplete run is listed, never drawn or counted
  (its means are over part of the items).
- A suite's *identity* is its edition, digest and run kind and the run's k. A run whose identity differs
  from the run before starts a new segment: the line breaks there, and runs of two identities are never
  joined, compared or counted as flips.
- A *step*: a point against the previous point of its segment, by the paired test over the items both
  valued (``figures.paired_runs``); significant by the later run's ``--wsb-alpha`` and
  ``--wsb-min-effect`` (``regression.significant``, the rule that fails a run against its baseline).
- An item's *state* in a run is passing (``passed``) or failing (``failed``, ``xfailed``, ``error``); a
  run that skipped it or did not run it gives no state and is stepped over.
- A *flip*: an item's state differs from its previous state, both in one segment. An item is **flaky**
  when it flipped ``FLAKY_FLIPS`` times or more.
- **Regressed since run N**: the item fails in every run from N to the last run (of those with a state),
  and passed in the run before N (same segment). A flaky item can be regressed too: both are listed.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from pytest_websearchbench.reporting.figures import PairedFigure, SuiteFigures, paired_runs
from pytest_websearchbench.reporting.history import (
    RunEntry,
    StoredFigure,
    StoredItem,
    StoredRun,
    StoredSuite,
    StoredVariant,
)
from pytest_websearchbench.reporting.json_results import RunResults
from pytest_websearchbench.reporting.regression import significant
from pytest_websearchbench.reporting.results import variant_settings

#: flips that make an item flaky: failing once and recovering (or the reverse) is flaky, one change is not
FLAKY_FLIPS = 2
PASSING = ("passed",)
FAILING = ("failed", "xfailed", "error")


def entry_of(
    results: RunResults,
    figures: Sequence[SuiteFigures],
    *,
    label: str,
    git_commit: str | None,
    alpha: float,
    min_effect: float,
) -> RunEntry:
    """What the history keeps of a run: its results' metadata, each suite's figures, and each item with its
    primary metric by the population rule."""
    done = results.completeness
    run = StoredRun(
        results.created or "",
        label,
        results.plugin_version,
        git_commit,
        results.k,
        tuple(results.providers),
        results.record_mode,
        done is None or done.complete,
        done.interrupted if done else None,
        done.declared if done else None,
        done.missing if done else 0,
        done.suite_errors if done else 0,
        alpha,
        min_effect,
        variant_settings(results.records),
        selected_by=done.selected_by if done else (),
    )
    suites, variants, items = [], [], []
    for suite in figures:
        meta = suite.records[0].meta
        suites.append(StoredSuite(suite.name, suite.family, suite.kind, suite.edition, meta.digest, suite.sources))
        primary = suite.columns[0] if suite.columns else None
        for variant in suite.variants:
            stored = tuple(
                StoredFigure(position, column.key, column.label, f.mean, f.low, f.high, f.n)
                for position, column in enumerate(suite.columns)
                for f in [variant.metrics.get(column.key)]
                if f is not None
            )
            variants.append(
                StoredVariant(
                    suite.name, variant.name, variant.items, variant.passed, variant.errors, variant.xfailed, stored
                )
            )
            for record in variant.records:
                value = record.value(primary.key, primary.error_value) if primary else None
                items.append(
                    StoredItem(
                        suite.name,
                        record.meta.case_id,
                        variant.name,
                        record.outcome,
                        record.primary,
                        value,
                        dict(record.metrics),
                    )
                )
    return RunEntry(run, suites, variants, items)


# ---------------------------------------------------------------------------------------------- the rules


def state(outcome: str | None) -> bool | None:
    """True passing, False failing, None no state (skipped, not run)."""
    return True if outcome in PASSING else False if outcome in FAILING else None


def flips(states: Sequence[tuple[Hashable, bool | None]]) -> int:
    """How often an item's state changed, from (segment, state) per run in order."""
    count, previous = 0, None
    for segment, passing in states:
        if passing is None:
            continue
        if previous is not None and previous[0] == segment and previous[1] != passing:
            count += 1
        previous = (segment, passing)
    return count


def failing_since(states: Sequence[tuple[Hashable, bool | None]]) -> int | None:
    """The index of the run from which the item failed in every run to the last, after passing in the run
    before it (same segment); None when it passes now, or failed ever since it was first run (in its segment)."""
    known = [(index, segment, passing) for index, (segment, passing) in enumerate(states) if passing is not None]
    start = len(known)
    while start and known[start - 1][2] is False:
        start -= 1
    if start == len(known) or start == 0:
        return None
    before, first = known[start - 1], known[start]
    return first[0] if before[1] == first[1] else None


# ---------------------------------------------------------------------------------------------- the trends


@dataclass(frozen=True)
class Identity:
    """What must match for two runs of a suite to be one line."""

    edition: str
    digest: str
    kind: str
    k: int

    def changed_from(self, before: Identity) -> list[str]:
        """The names of what differs from ``before``."""
        return [name for name in ("edition", "digest", "kind", "k") if getattr(before, name) != getattr(self, name)]

    def changes_from(self, before: Identity) -> str:
        """What changed, in words: ``edition 2026.1 → 2026.2; digest sha256:1a2b3c4d… → sha256:5e6f…``."""

        def shown(value: object) -> str:
            text = str(value)
            return (text[:16] + "…" if len(text) > 17 else text) or "-"

        return "; ".join(
            f"{name} {shown(getattr(before, name))} → {shown(getattr(self, name))}"
            for name in self.changed_from(before)
        )


@dataclass(frozen=True)
class TrendPoint:
    """One run of one variant of a suite: its counts, its primary metric, and its step from the point before."""

    position: int  # the run's place on the suite's axis
    run: StoredRun
    counts: StoredVariant
    step: PairedFigure | None  # against the previous point of its segment
    significant: bool

    @property
    def figure(self) -> StoredFigure | None:
        return self.counts.primary


@dataclass
class VariantTrend:
    variant: str
    segments: list[list[TrendPoint]]  # one line each: the runs of one identity, in order

    @property
    def points(self) -> list[TrendPoint]:
        return [point for segment in self.segments for point in segment]


@dataclass(frozen=True)
class Break:
    position: int  # the first run of the new segment on the suite's axis
    what: str  # the names of what changed: "edition, digest"
    text: str  # what changed, from what to what


@dataclass(frozen=True)
class ItemHistory:
    variant: str
    case_id: str
    outcomes: tuple[str | None, ...]  # per run of the suite's axis; None: not run there
    flips: int
    regressed_since: StoredRun | None

    @property
    def flaky(self) -> bool:
        return self.flips >= FLAKY_FLIPS

    @property
    def changed(self) -> bool:
        """Its outcome was not the same in every run that ran it."""
        return len({o for o in self.outcomes if o is not None}) > 1


@dataclass
class SuiteTrend:
    suite: str
    family: str
    kind: str
    runs: list[StoredRun]  # the axis: the history's complete runs of the suite, in order
    identities: list[Identity]  # per run of the axis
    breaks: list[Break]
    metric: str  # the primary metric's label (each segment's, when a break changed it)
    variants: list[VariantTrend]
    items: list[ItemHistory]  # flaky first, then regressed, then changed, then the others

    @property
    def flaky(self) -> list[ItemHistory]:
        return [item for item in self.items if item.flaky]

    @property
    def regressed(self) -> list[ItemHistory]:
        return [item for item in self.items if item.regressed_since is not None]


def suite_trends(entries: Sequence[RunEntry]) -> list[SuiteTrend]:
    """Each suite's trend over the history's complete runs, by suite name."""
    complete = [entry for entry in entries if entry.run.complete]
    names = sorted({suite.suite for entry in complete for suite in entry.suites})
    return [_suite_trend(name, [e for e in complete if any(s.suite == name for s in e.suites)]) for name in names]


def _suite_trend(name: str, entries: list[RunEntry]) -> SuiteTrend:
    suites = [next(s for s in entry.suites if s.suite == name) for entry in entries]
    identities = [Identity(s.edition, s.digest, s.kind, e.run.k) for s, e in zip(suites, entries)]
    segment_of, breaks = [], []
    for position, identity in enumerate(identities):
        if position and identity != identities[position - 1]:
            before = identities[position - 1]
            breaks.append(Break(position, ", ".join(identity.changed_from(before)), identity.changes_from(before)))
        segment_of.append(len(breaks))
    variant_names = list(dict.fromkeys(v.variant for e in entries for v in e.variants if v.suite == name))
    variants = [_variant_trend(name, variant, entries, segment_of) for variant in variant_names]
    labels = dict.fromkeys(p.figure.label for v in variants for p in v.points if p.figure is not None)
    items = []
    for variant in variant_names:
        outcomes: dict[str, list[str | None]] = {}
        for position, entry in enumerate(entries):
            for item in entry.items:
                if item.suite == name and item.variant == variant:
                    outcomes.setdefault(item.case_id, [None] * len(entries))[position] = item.outcome
        for case_id, row in outcomes.items():
            states = [(segment, state(outcome)) for segment, outcome in zip(segment_of, row)]
            since = failing_since(states)
            items.append(
                ItemHistory(
                    variant, case_id, tuple(row), flips(states), entries[since].run if since is not None else None
                )
            )
    items.sort(key=lambda i: (not i.flaky, i.regressed_since is None, not i.changed, -i.flips, i.variant, i.case_id))
    return SuiteTrend(
        name,
        suites[-1].family,
        suites[-1].kind,
        [e.run for e in entries],
        identities,
        breaks,
        " / ".join(labels),
        variants,
        items,
    )


def _variant_trend(suite: str, variant: str, entries: list[RunEntry], segment_of: list[int]) -> VariantTrend:
    segments: list[list[TrendPoint]] = []
    previous: tuple[int, dict[str, float]] | None = None  # the last point's segment and item values
    for position, entry in enumerate(entries):
        counts = next((v for v in entry.variants if (v.suite, v.variant) == (suite, variant)), None)
        if counts is None:
            continue
        values = {
            i.case_id: i.value for i in entry.items if (i.suite, i.variant) == (suite, variant) and i.value is not None
        }
        step = None
        if previous is not None and previous[0] == segment_of[position]:
            step = paired_runs(previous[1], values)
        else:
            segments.append([])
        run = entry.run
        segments[-1].append(
            TrendPoint(
                position,
                run,
                counts,
                step,
                step is not None and significant(step.delta, step.p, run.alpha, run.min_effect),
            )
        )
        previous = (segment_of[position], values)
    return VariantTrend(variant, segments)
