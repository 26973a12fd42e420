"""The terminal summary: one table per suite, variants side by side, then the baseline's verdicts. It
formats the suites' figures (``reporting/figures.py``) and computes none.

Its lines fit ``WIDTH`` columns: a side-by-side table's row with a long cell is shown below the table (``_fit``), a
one-variant table's long cell wraps in its column, and a note (a footnote, a baseline's verdict, its known
failures) is folded at spaces, its further lines two columns deeper (``fold``). Only a table of many variants
with short cells is as wide as they make it, and a line naming a file or folder (the cassettes', the baseline's)
is kept whole: its length is its path's, which depends on where the user runs. The run's other lines fold the
same way: the live line between its parts (``fold_parts``), its notes at spaces, a failed item's message
(``fold_message``) at spaces, a result's title under its URL."""

from __future__ import annotations

import re
import textwrap
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from pytest_websearchbench.core.family import BenchmarkFamily
from pytest_websearchbench.reporting.baseline import FIXED, KNOWN, Baseline
from pytest_websearchbench.reporting.figures import MetricFigure, SuiteFigures
from pytest_websearchbench.reporting.latency_verdict import LatencyVerdict
from pytest_websearchbench.reporting.regression import SuiteVerdict
from pytest_websearchbench.reporting.results import ItemRecord, variant_settings

#: the widest line of the summary (the module's docstring says how its lines keep to it)
WIDTH = 120
LONG_CELL = 40


def summary_lines(
    suites: list[SuiteFigures],
    families: Mapping[str, BenchmarkFamily],
    baseline: Baseline | None = None,
    verdicts: Iterable[SuiteVerdict] = (),
    cassette_dir: Path | None = None,
) -> list[str]:
    """One table per suite; then, with a baseline, its ``verdicts`` (as the run judged them, in their
    order), the fixed items and the known failures."""
    lines: list[str] = []
    for suite in suites:
        lines += _suite_table(suite, families.get(suite.family))
        lines.append("")
    records = [record for suite in suites for record in suite.records]
    if any(r.run.cassette == "recorded" for r in records) and cassette_dir is not None:
        lines.append(f"cassettes recorded under {cassette_dir}")  # a line naming a file or folder is kept whole
    if baseline is not None:
        when = f" (run {baseline.created[:10]})" if baseline.created else ""
        lines.append(f"baseline {baseline.path}{when}:")
        lines += [folded for line in _baseline_lines(records, baseline, list(verdicts)) for folded in fold(line)]
    return lines


def fold(text: str) -> list[str]:
    """``text`` as lines of at most ``WIDTH`` columns, broken at spaces, each line after a line's first two columns
    deeper than it (a hanging indent). A line within ``WIDTH`` is kept as it is, and a word that would not fit
    on a line of its own (a long path) stays on the line it begins: breaking before it would not make it fit."""
    out: list[str] = []
    for line in text.split("\n"):
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out += [line] if len(line) <= WIDTH else _pack(re.findall(r"\S+ *", line.strip()), indent)
    return out


#: a row naming a URL and, two spaces after it, more (a result's title): ``head`` ends with the URL
_URL_ROW = re.compile(r"(?P<head>(?P<before>.*?)https?://\S+) {2,}(?P<rest>\S.*)")


def fold_message(text: str) -> list[str]:
    """A test's failure message as ``fold`` folds it, but for a row naming a URL and then a title (two spaces
    apart) that is too wide: the title goes on the next line, under the URL, whole, rather than cut where the
    width falls (folded itself only if it would not fit there)."""
    out: list[str] = []
    for line in text.split("\n"):
        row = _URL_ROW.fullmatch(line) if len(line) > WIDTH else None
        if row is None:
            out += fold(line)
        else:
            out += fold(row["head"]) + fold(" " * len(row["before"]) + row["rest"])
    return out


def fold_parts(parts: Sequence[str], separator: str = " · ") -> list[str]:
    """``parts`` joined by ``separator`` as ``fold`` folds a line (the first part's indent its indent), broken only
    between parts (a part such as a host's rate and its 429s reads as one), each broken line ending in the
    separator's mark."""
    indent = " " * (len(parts[0]) - len(parts[0].lstrip(" "))) if parts else ""
    stripped = [part.removeprefix(indent) for part in parts]
    return _pack([part + separator for part in stripped[:-1]] + stripped[-1:], indent)


def _pack(chunks: Iterable[str], indent: str) -> list[str]:
    """``chunks`` (a word or a part, each with its separator after it) in lines of ``WIDTH`` columns from ``indent``,
    the further lines two columns deeper; a chunk that would not fit on a line of its own stays where it begins."""
    out: list[str] = []
    current = indent
    for chunk in chunks:
        word = chunk.rstrip()
        if current.strip() and len(current + word) > WIDTH and len(indent) + 2 + len(word) <= WIDTH:
            out.append(current.rstrip())
            current = indent + "  "
        current += chunk
    out.append(current.rstrip())
    return out


def _baseline_lines(records: list[ItemRecord], baseline: Baseline, verdicts: list[SuiteVerdict]) -> list[str]:
    lines = [f"  {v.suite} [{v.variant}]: {v.text()}" for v in verdicts]
    fixed = [r.meta.label for r in records if r.baseline is not None and r.baseline.status == FIXED]
    if fixed:
        lines.append(f"  fixed since the baseline ({len(fixed)}): {', '.join(fixed)}")
    known: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for r in records:
        if r.outcome == "xfailed" and r.baseline is not None and r.baseline.status == KNOWN:
            since = (r.baseline.since or "")[:10] or "?"
            known[r.meta.suite, r.meta.variant, since].append(r.meta.case_id)
    if known:
        total = sum(len(cases) for cases in known.values())
        lines.append(f"  known failures, xfailed ({total}): failing in the baseline too")
        for (suite, variant, since), cases in sorted(known.items()):
            lines.append(f"    {suite} [{variant}] since {since} ({len(cases)}): {', '.join(cases)}")
    for name, settings in sorted(variant_settings(records).items()):
        old = baseline.provider_settings.get(name)
        if old is not None and old != settings:
            changes = [
                f"{key} {old.get(key, '-')} → {settings.get(key, '-')}"
                for key in sorted(set(old) | set(settings))
                if old.get(key) != settings.get(key)
            ]
            lines.append(f"  {name} settings differ from the baseline's: {'; '.join(changes)}")
    return lines


def _suite_table(suite: SuiteFigures, family: BenchmarkFamily | None) -> list[str]:
    variants = suite.variants
    names = [v.name for v in variants]
    population = bool(suite.counted_columns)
    rows: list[tuple[str, list[str]]] = [
        ("items", [str(v.items) for v in variants]),
        ("pass rate", [v.pass_rate for v in variants]),
        ("errors", [str(v.errors) for v in variants]),
    ]
    if any(v.xfailed for v in variants):
        rows.append(("known failures", [f"{v.xfailed} xfailed" for v in variants]))
    if population:
        rows.append(("population", [v.population_text for v in variants]))
    for column in suite.shown_columns:
        rows.append((column.label, [_mean_ci(v.metrics.get(column.key), column.scale) for v in variants]))
    if population and any(v.errored for v in variants):  # the mean over the items that were answered, as a second line
        rows.append(
            (f"{suite.columns[0].label} answered", [_mean_ci(v.answered, suite.columns[0].scale) for v in variants])
        )
    if family is not None:
        rows += family.summary_rows([[r.score for r in v.records if r.score] for v in variants])
    if suite.traffic:
        rows.append(("latency p50/p95", [_latency(v.p50_ms, v.p95_ms) for v in variants]))
        if any(v.server_p50_ms is not None for v in variants):  # only where a provider states its own time
            rows.append(("server p50/p95", [_latency(v.server_p50_ms, v.server_p95_ms) for v in variants]))
        rows.append(("cost (USD)", [v.cost.text for v in variants]))
    if any(v.empty_answers for v in variants):
        rows.append(("empty answers", [f"{v.empty_answers} (scored 0)" if v.empty_answers else "0" for v in variants]))
    if suite.traffic:
        rows.append(("cassettes", [v.cassettes_text for v in variants]))
    for column in suite.paired_columns:
        rows.append(
            (
                f"Δ {column.label} vs {suite.reference}",
                ["(reference)"]
                + [
                    f"{_delta(d.delta, column.scale)} (p={d.p:.3f}, n={d.n})"
                    if (d := v.paired.get(column.key))
                    else "-"
                    for v in variants[1:]
                ],
            )
        )
    if any(v.versus is not None for v in variants[1:]):
        rows.append(
            (
                f"verdict vs {suite.reference}",
                ["(reference)"] + [v.versus.text() if v.versus is not None else "-" for v in variants[1:]],
            )
        )
    if any(v.latency_paired is not None for v in variants):
        rows.append(
            (
                f"Δ latency vs {suite.reference}",
                ["(reference)"] + [v.latency_paired.cell() if v.latency_paired else "-" for v in variants[1:]],
            )
        )
    if any(v.verdict is not None and v.verdict.latency is not None for v in variants):
        rows.append(("latency vs baseline", [_latency_vs(v.verdict.latency if v.verdict else None) for v in variants]))
    if any(v.verdict is not None for v in variants):
        rows.append(("vs baseline", [v.verdict.text() if v.verdict is not None else "-" for v in variants]))
    scaled = ", metrics on a 0-100 scale" if any(c.scale == 100 for c in suite.columns) else ""
    title = (
        f"{suite.name}  ({suite.family}/{suite.kind or '-'}, edition {suite.edition}"
        + (f", k={suite.k}" if suite.k is not None else "")
        + scaled
        + ")"
    )
    rows, below = _fit(rows, names)
    label_width = max(len(label) for label, _ in rows)
    widths = [max(len(name), *(len(cells[i]) for _, cells in rows)) for i, name in enumerate(names)]
    if len(names) == 1:  # one variant: a long cell wraps in its column (the widths then hold what is left)
        room = max(WIDTH - (4 + label_width), LONG_CELL)
        widths = [max(len(names[0]), *(min(len(cells[0]), room) for _, cells in rows))]

    def line(label: str, cells: list[str]) -> str:
        return f"  {label.ljust(label_width)}  {'  '.join(c.ljust(w) for c, w in zip(cells, widths))}".rstrip()

    def row(label: str, cells: list[str]) -> list[str]:
        if len(names) > 1 or len(cells[0]) <= widths[0]:
            return [line(label, cells)]
        first, *more = textwrap.wrap(cells[0], widths[0], break_long_words=False, break_on_hyphens=False)
        return [line(label, [first]), *(line("", [cell]) for cell in more)]

    # a remote file's provenance, exactly: the dataset, the commit its revision resolved to, its hash
    sources = [f"  from {src['repo']}@{src['commit']} {src['path']} sha256:{src['sha256']}" for src in suite.sources]
    out = [*fold(title), *(folded for source in sources for folded in fold(source)), line("", names)]
    out += [shown for label, cells in rows for shown in row(label, cells)]
    out += _below(below, names)
    over = (
        (
            "the declared population (an errored item counts 0 in "
            + ", ".join(c.label for c in suite.counted_columns)
            + "; other rows leave it out)"
        )
        if population
        else "items (errors excluded)"
    )
    notes = [
        f"  means with 95% bootstrap intervals over {over}" + ("; latency over provider calls" if suite.traffic else "")
    ]
    if suite.paired_columns:
        notes.append(
            f"  Δ vs {suite.reference}: mean paired difference over the items both scored, two-sided paired "
            "randomization test (sign-flip, 10,000 resamples)"
        )
    if any(v.latency_paired is not None for v in variants):
        notes.append(
            f"  Δ latency vs {suite.reference}: the items' client time, paired by case; p50 by the sign-flip test on "
            "every pair, p95 on the upper tail's pairs"
        )
    notes += [f"  {floor.text()}" for floor in suite.noise_floors]
    for variant in variants:
        notes += [f"  {variant.name} errors: {line}" for line in _error_reasons(variant.error_reasons)]
    return out + [folded for note in notes for folded in fold(note)]


def _table_width(rows: list[tuple[str, list[str]]], names: list[str]) -> int:
    label_width = max(len(label) for label, _ in rows)
    return (
        2 + label_width + sum(2 + max(len(name), *(len(cells[i]) for _, cells in rows)) for i, name in enumerate(names))
    )


def _fit(
    rows: list[tuple[str, list[str]]], names: list[str]
) -> tuple[list[tuple[str, list[str]]], list[tuple[str, list[str]]]]:
    """The rows of a side-by-side table at most ``WIDTH`` columns wide, and the long rows moved below it: while
    it is wider, the row with the longest cell goes, if that cell is longer than ``LONG_CELL`` (a table of many
    variants with short cells stays whole, as wide as they make it). Each keeps its order. A table of one
    variant keeps every row: a long cell wraps in its column."""
    if len(names) < 2:
        return rows, []
    kept = list(rows)
    while len(kept) > 1 and _table_width(kept, names) > WIDTH:
        widest = max(kept, key=lambda row: max(map(len, row[1])))
        if max(map(len, widest[1])) <= LONG_CELL:
            break
        kept.remove(widest)
    return kept, [row for row in rows if row not in kept]


def _below(rows: list[tuple[str, list[str]]], names: list[str]) -> list[str]:
    """Long rows under the table: the label, then a line per variant, its cell wrapped within ``WIDTH``."""
    name_width = max(map(len, names))
    indent = 4 + name_width + 2
    out = []
    for label, cells in rows:
        out.append(f"  {label}")
        for name, cell in zip(names, cells):
            wrapped = textwrap.wrap(cell, max(WIDTH - indent, 40), break_on_hyphens=False) or ["-"]
            out.append(f"    {name.ljust(name_width)}  {wrapped[0]}")
            out += [" " * indent + more for more in wrapped[1:]]
    return out


def _mean_ci(figure: MetricFigure | None, scale: float = 1.0) -> str:
    if figure is None:
        return "-"
    if scale == 1:
        return f"{figure.mean:.3f} [{figure.low:.3f}, {figure.high:.3f}]"
    return f"{figure.mean * scale:.1f} [{figure.low * scale:.1f}, {figure.high * scale:.1f}]"


def _delta(delta: float, scale: float) -> str:
    return f"{delta:+.3f}" if scale == 1 else f"{delta * scale:+.1f}"


def _latency(p50_ms: float | None, p95_ms: float | None) -> str:
    return "-" if p50_ms is None else f"{p50_ms:.1f} / {p95_ms:.1f} ms"


def _latency_vs(latency: LatencyVerdict | None) -> str:
    if latency is None:
        return "-"
    return latency.cell() if latency.client is not None else latency.missing


def _error_reasons(reasons: list[tuple[str, int]], limit: int = 2) -> list[str]:
    """The most frequent reasons a variant's items errored."""
    lines = [f"{count}× {reason}" for reason, count in reasons[:limit]]
    if len(reasons) > limit:
        lines.append(f"… and {len(reasons) - limit} other reasons (see the results file)")
    return lines
