"""The terminal summary: one table per suite, providers side by side, then the baseline's verdicts."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from pathlib import Path
from typing import Mapping

from pytest_websearchbench.core.family import BenchmarkFamily, MetricColumn
from pytest_websearchbench.reporting import stats
from pytest_websearchbench.reporting.baseline import FIXED, KNOWN, Baseline
from pytest_websearchbench.reporting.regression import SuiteVerdict
from pytest_websearchbench.reporting.results import ItemRecord

CASSETTE_STATES = ("replayed", "recorded", "live")


def summary_lines(records: list[ItemRecord], families: Mapping[str, BenchmarkFamily], k: int,
                  baseline: Baseline | None = None, order: tuple[str, ...] = (),
                  verdicts: list[SuiteVerdict] | None = None, cassette_dir: Path | None = None) -> list[str]:
    """One table per suite; providers in ``order`` (the --provider list: the first is the reference);
    then, with a baseline, the verdicts, fixed items and known failures."""
    by_suite: dict[str, list[ItemRecord]] = defaultdict(list)
    for record in records:
        by_suite[record.meta["suite"]].append(record)
    by_verdict = {(v.suite, v.provider): v for v in verdicts or []}
    lines: list[str] = []
    for suite in sorted(by_suite):
        lines += _suite_table(by_suite[suite], families, k, by_verdict, order)
        lines.append("")
    if any(r.run.get("cassette") == "recorded" for r in records) and cassette_dir is not None:
        lines.append(f"cassettes recorded under {cassette_dir}")
    if baseline is not None:
        lines += _baseline_lines(records, baseline, verdicts or [])
    return lines


def _baseline_lines(records: list[ItemRecord], baseline: Baseline, verdicts: list[SuiteVerdict]) -> list[str]:
    when = f" (run {baseline.created[:10]})" if baseline.created else ""
    lines = [f"baseline {baseline.path}{when}:"]
    lines += [f"  {v.suite} [{v.provider}]: {v.text()}" for v in verdicts]
    fixed = [_label(r) for r in records if (r.baseline or {}).get("status") == FIXED]
    if fixed:
        lines.append(f"  fixed since the baseline ({len(fixed)}): {', '.join(fixed)}")
    known: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for r in records:
        if r.outcome == "xfailed" and (r.baseline or {}).get("status") == KNOWN:
            since = (r.baseline.get("since") or "")[:10] or "?"
            known[r.meta["suite"], r.meta["provider"], since].append(r.meta["case_id"])
    if known:
        total = sum(len(cases) for cases in known.values())
        lines.append(f"  known failures, xfailed ({total}): failing in the baseline too")
        for (suite, provider, since), cases in sorted(known.items()):
            lines.append(f"    {suite} [{provider}] since {since} ({len(cases)}): {', '.join(cases)}")
    for name, settings in sorted(_provider_settings(records).items()):
        old = baseline.provider_settings.get(name)
        if old is not None and old != settings:
            changes = [f"{key} {old.get(key, '-')} → {settings.get(key, '-')}"
                       for key in sorted(set(old) | set(settings)) if old.get(key) != settings.get(key)]
            lines.append(f"  {name} settings differ from the baseline's: {'; '.join(changes)}")
    return lines


def _label(record: ItemRecord) -> str:
    return f"{record.meta['suite']}/{record.meta['case_id']}[{record.meta['provider']}]"


def _provider_settings(records: list[ItemRecord]) -> dict[str, dict[str, str]]:
    """What produced each provider's answers (``Provider.produced_by``), as the items recorded it."""
    out: dict[str, dict[str, str]] = {}
    for record in records:
        settings = record.run.get("produced_by")
        if settings is not None:
            out.setdefault(record.meta["provider"], settings)
    return out


def _suite_table(records: list[ItemRecord], families: Mapping[str, BenchmarkFamily], k: int,
                 verdicts: Mapping[tuple[str, str], SuiteVerdict], order: tuple[str, ...] = ()) -> list[str]:
    meta = records[0].meta
    present = set(r.meta["provider"] for r in records)
    providers = [p for p in order if p in present]
    providers += [p for p in dict.fromkeys(r.meta["provider"] for r in records) if p not in providers]
    by_provider = {p: [r for r in records if r.meta["provider"] == p] for p in providers}
    family = families[meta["family"]]
    columns = family.columns(meta["kind"], k)
    population = any(column.error_value is not None for column in columns)
    rows: list[tuple[str, list[str]]] = [
        ("items", [str(len(by_provider[p])) for p in providers]),
        ("pass rate", [_pass_rate(by_provider[p]) for p in providers]),
        ("errors", [str(sum(r.outcome == "error" for r in by_provider[p])) for p in providers]),
    ]
    if any(r.outcome == "xfailed" for r in records):
        rows.append(("known failures", [f"{sum(r.outcome == 'xfailed' for r in by_provider[p])} xfailed"
                                        for p in providers]))
    if population:
        rows.append(("population", [_population(by_provider[p]) for p in providers]))
    for column in columns:
        cells = [_mean_ci(_values(by_provider[p], column)) for p in providers]
        if any(cell != "-" for cell in cells):
            rows.append((column.label, cells))
    errors = any(r.errored for r in records)
    if population and errors:  # the mean over the items that were answered, as a second line
        primary = columns[0]
        rows.append((f"{primary.label} answered", [_mean_ci([r.metrics[primary.key] for r in by_provider[p]
                                                             if primary.key in r.metrics]) for p in providers]))
    rows += family.summary_rows([[r.score for r in by_provider[p] if r.score] for p in providers])
    # a run that asked no provider anything (a suite self-check) has no traffic to report
    traffic = family.records_traffic and any(r.run.get("calls") or r.run.get("cassette") for r in records)
    if traffic:
        rows.append(("latency p50/p95", [_latency(by_provider[p]) for p in providers]))
        rows.append(("cost (USD)", [cost_text(by_provider[p]) for p in providers]))
    empty = [_empty_answers(by_provider[p]) for p in providers]
    if any(n for n in empty):
        rows.append(("empty answers", [f"{n} (scored 0)" if n else "0" for n in empty]))
    if traffic:
        rows.append(("cassettes", [cassettes_text(by_provider[p]) for p in providers]))
    paired = _paired_rows(providers, by_provider, columns) if len(providers) > 1 else []
    rows += paired
    if verdicts:
        rows.append(("vs baseline", [verdicts[meta["suite"], p].text() if (meta["suite"], p) in verdicts else "-"
                                     for p in providers]))
    title = f"{meta['suite']}  ({meta['family']}/{meta['kind'] or '-'}, edition {meta['edition']}" + (
        f", k={k})" if family.uses_k else ")")
    label_width = max(len(label) for label, _ in rows)
    widths = [max(len(p), *(len(cells[i]) for _, cells in rows)) for i, p in enumerate(providers)]

    def line(label: str, cells: list[str]) -> str:
        return f"  {label.ljust(label_width)}  {'  '.join(c.ljust(w) for c, w in zip(cells, widths))}".rstrip()

    # a remote file's provenance, exactly: the dataset, the commit its revision resolved to, its hash
    sources = [f"  from {src['repo']}@{src['commit']} {src['path']} sha256:{src['sha256']}"
               for src in meta.get("sources") or []]
    out = [title, *sources, line("", providers)] + [line(label, cells) for label, cells in rows]
    over = ("the declared population (an errored item counts 0 in "
            + ", ".join(c.label for c in columns if c.error_value is not None)
            + "; other rows leave it out)") if population else "items (errors excluded)"
    out.append(f"  means with 95% bootstrap intervals over {over}" + ("; latency over provider calls" if traffic else ""))
    if paired:
        out.append(f"  Δ vs {providers[0]}: mean paired difference over the items both scored, two-sided paired "
                   "randomization test (sign-flip, 10,000 resamples)")
    for provider in providers:
        out += [f"  {provider} errors: {line}" for line in _error_reasons(by_provider[provider])]
    return out


def _values(records: list[ItemRecord], column: MetricColumn) -> list[float]:
    values = (r.value(column.key, column.error_value) for r in records)
    return [v for v in values if v is not None]


def _population(records: list[ItemRecord]) -> str:
    """How many items the headline means are over, and how many of them errored."""
    declared = [r for r in records if r.score is not None or r.errored]
    errors = sum(r.errored for r in declared)
    return f"{len(declared)}" + (f" · {errors} error{'s' if errors != 1 else ''} counted as 0" if errors else "")


def _pass_rate(records: list[ItemRecord]) -> str:
    passed = sum(r.outcome == "passed" for r in records)
    return f"{passed}/{len(records)} ({100 * passed / len(records):.1f}%)"


def _mean_ci(values: list[float]) -> str:
    if not values:
        return "-"
    mean, low, high = stats.bootstrap_ci(values)
    return f"{mean:.3f} [{low:.3f}, {high:.3f}]"


def _latency(records: list[ItemRecord]) -> str:
    seconds = [call["seconds"] for r in records for call in r.run.get("calls", []) if call.get("ok", True)]
    if not seconds:
        return "-"
    return f"{1000 * stats.percentile(seconds, 50):.1f} / {1000 * stats.percentile(seconds, 95):.1f} ms"


def cassettes_text(records: list[ItemRecord]) -> str:
    """How the items' calls were answered (the summary's and the HTML report's cassettes row)."""
    counts = {state: sum(r.run.get("cassette") == state for r in records) for state in CASSETTE_STATES}
    return " · ".join(f"{counts[state]} {state}" for state in CASSETTE_STATES)


def cost_text(records: list[ItemRecord]) -> str:
    """Total USD of the provider's calls at the price table's rates (replayed calls count at list price);
    the summary's and the HTML report's cost row."""
    calls = [call for r in records for call in r.run.get("calls", []) if call.get("ok", True)]
    if not calls:
        return "-"
    priced = [call["cost_usd"] for call in calls if call.get("cost_usd") is not None]
    unpriced = len(calls) - len(priced)
    if not priced:
        return f"unpriced ({unpriced} calls; set --wsb-price)"
    text = f"{math.fsum(priced):.4f} ({len(priced)} calls)"
    return text + (f" + {unpriced} unpriced" if unpriced else "")


def _empty_answers(records: list[ItemRecord]) -> int:
    return sum(call.get("outcome") == "empty" for r in records for call in r.run.get("calls", []))


def _paired_rows(providers: list[str], by_provider: dict[str, list[ItemRecord]],
                 columns) -> list[tuple[str, list[str]]]:
    """One row per metric: each provider against the first, paired by case id."""
    first = {r.meta["case_id"]: r.metrics for r in by_provider[providers[0]] if r.outcome != "error"}
    rows = []
    for column in columns:
        cells = ["(reference)"]
        for provider in providers[1:]:
            pairs = [(r.metrics[column.key], first[r.meta["case_id"]][column.key])
                     for r in by_provider[provider]
                     if r.outcome != "error" and column.key in r.metrics
                     and column.key in first.get(r.meta["case_id"], {})]
            if not pairs:
                cells.append("-")
                continue
            new, old = [a for a, _ in pairs], [b for _, b in pairs]
            # identical pairs: every sign flip ties, p = 1 (skips 10,000 resamples)
            p = 1.0 if new == old else stats.paired_randomization_test(new, old)
            cells.append(f"{stats.mean(new) - stats.mean(old):+.3f} (p={p:.3f}, n={len(pairs)})")
        if any(cell != "-" for cell in cells[1:]):
            rows.append((f"Δ {column.label} vs {providers[0]}", cells))
    return rows


def _error_reasons(records: list[ItemRecord], limit: int = 2) -> list[str]:
    """The distinct reasons of a provider's errored items, most frequent first."""
    reasons = Counter(r.run["error"] for r in records if r.outcome == "error" and r.run.get("error"))
    lines = [f"{count}× {reason}" for reason, count in reasons.most_common(limit)]
    if len(reasons) > limit:
        lines.append(f"… and {len(reasons) - limit} other reasons (see the results file)")
    return lines
