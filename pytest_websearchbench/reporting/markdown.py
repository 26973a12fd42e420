"""The run as a pull request reads it (``--wsb-markdown``, and ``$GITHUB_STEP_SUMMARY`` when set): per
suite and variant the primary metric with its interval, the verdict against the baseline with its p and
the drop it could detect, the items that regressed or were fixed, spend and latency. It formats the
run's figures (reporting/figures.py); it computes none."""

from __future__ import annotations

from pytest_websearchbench.reporting.baseline import FIXED, REGRESSED
from pytest_websearchbench.reporting.figures import SuiteFigures
from pytest_websearchbench.reporting.regression import INCONCLUSIVE, NOTHING_SHARED

#: the most item ids a list shows before "… and N more"
SHOWN_ITEMS = 20


def markdown_summary(figures: list[SuiteFigures], *, baseline: str | None, incomplete: str = "") -> str:
    lines = [f"## {headline(figures, baseline=baseline, incomplete=bool(incomplete))}", ""]
    if baseline:
        lines += [f"Baseline: `{baseline}`", ""]
    if incomplete:
        lines += [f"**{incomplete}**", ""]
    for suite in figures:
        primary = suite.columns[0]
        k = f", k={suite.k}" if suite.k is not None else ""
        lines += [
            f"### {suite.name} ({suite.family}/{suite.kind}, edition {suite.edition}{k})",
            "",
            f"| variant | {_cell(primary.label)} (95 % CI) | pass | vs baseline | latency p50/p95 | cost (USD) |",
            "|---|---|---|---|---|---|",
        ]
        for variant in suite.variants:
            figure = variant.metrics.get(primary.key)
            value = f"{figure.mean:.3f} [{figure.low:.3f}, {figure.high:.3f}]" if figure else "-"
            latency = (
                f"{variant.p50_ms:.0f} / {variant.p95_ms:.0f} ms"
                if variant.p50_ms is not None and variant.p95_ms is not None
                else "-"
            )
            verdict = variant.verdict.text() if variant.verdict else "-"
            lines.append(
                f"| {_cell(variant.name)} | {value} | {variant.pass_rate} | {_cell(verdict)} | {latency} | "
                f"{_cell(variant.cost.text)} |"
            )
        lines.append("")
        for variant in suite.variants[1:]:  # side by side: each against the reference (a comparison, no gate)
            if variant.versus is not None:
                lines.append(f"- {_cell(variant.name)} vs {_cell(suite.reference)}: {_cell(variant.versus.text())}")
        lines += [f"- {floor.text()}" for floor in suite.noise_floors]
        for variant in suite.variants:
            for status, heading in ((REGRESSED, "regressed"), (FIXED, "fixed")):
                ids = [
                    r.meta.case_id for r in variant.records if r.baseline is not None and r.baseline.status == status
                ]
                if ids:
                    shown = ", ".join(f"`{i}`" for i in ids[:SHOWN_ITEMS])
                    more = f" … and {len(ids) - SHOWN_ITEMS} more" if len(ids) > SHOWN_ITEMS else ""
                    lines.append(f"- {heading} ({len(ids)}) [{_cell(variant.name)}]: {shown}{more}")
        if lines[-1] != "":
            lines.append("")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """Text as one table cell: a pipe would end it."""
    return text.replace("|", "\\|").replace("\n", " ")


def headline(figures: list[SuiteFigures], *, baseline: str | None, incomplete: bool = False) -> str:
    """The run in one line, as its exit code and JUnit tell it: ❌ when a suite's verdict or an item regressed
    (or an item failed or errored), ⚠️ when a verdict could not decide (inconclusive, holes, nothing shared)
    or the run did not complete, ✅ only when nothing regressed and every verdict could detect the minimum
    effect (a run without a baseline: when every item passed)."""
    verdicts = [v.verdict for s in figures for v in s.variants if v.verdict is not None]
    records = [r for s in figures for v in s.variants for r in v.records]
    regressed_items = sum(r.baseline is not None and r.baseline.status == REGRESSED for r in records)
    failed_items = sum(r.outcome in ("failed", "error") for r in records) - regressed_items
    regressed_suites = sum(v.failed for v in verdicts)  # a metric regression, or latency over its limit
    undecided = sum(v.status in (INCONCLUSIVE, NOTHING_SHARED) for v in verdicts)
    holes = sum(v.holes is not None for v in verdicts)
    if regressed_suites or regressed_items:
        parts = [_count(regressed_suites, "suite verdict"), _count(regressed_items, "item")]
        return f"❌ regression against the baseline ({', '.join(p for p in parts if p)})"
    if failed_items:
        return f"❌ {_count(failed_items, 'item')} failed" + (
            " (no regression against the baseline)" if baseline else ""
        )
    if incomplete:
        return "⚠️ incomplete run"
    if undecided:
        with_holes = f", {holes} with holes" if holes else ""
        return f"⚠️ inconclusive against the baseline ({_count(undecided, 'verdict')}{with_holes})"
    return "✅ no regression against the baseline" if baseline else "✅ websearchbench results: every item passed"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}" if n else ""
