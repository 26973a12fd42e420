"""The terminal summary: one table per suite, providers side by side."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Mapping

from pytest_websearchbench.reporting import stats
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.core.family import BenchmarkFamily
from pytest_websearchbench.reporting.results import ItemRecord

CASSETTE_STATES = ("replayed", "recorded", "live")


def summary_lines(records: list[ItemRecord], families: Mapping[str, BenchmarkFamily], k: int,
                  baseline: Baseline | None = None, order: tuple[str, ...] = ()) -> list[str]:
    """One table per suite; providers in ``order`` (the --provider list: the first is the reference)."""
    by_suite: dict[str, list[ItemRecord]] = defaultdict(list)
    for record in records:
        by_suite[record.meta["suite"]].append(record)
    lines: list[str] = []
    for suite in sorted(by_suite):
        lines += _suite_table(by_suite[suite], families, k, baseline, order)
        lines.append("")
    return lines


def _suite_table(records: list[ItemRecord], families: Mapping[str, BenchmarkFamily], k: int,
                 baseline: Baseline | None, order: tuple[str, ...] = ()) -> list[str]:
    meta = records[0].meta
    present = set(r.meta["provider"] for r in records)
    providers = [p for p in order if p in present]
    providers += [p for p in dict.fromkeys(r.meta["provider"] for r in records) if p not in providers]
    by_provider = {p: [r for r in records if r.meta["provider"] == p] for p in providers}
    family = families[meta["family"]]
    columns = family.columns(meta["kind"], k)
    rows: list[tuple[str, list[str]]] = [
        ("items", [str(len(by_provider[p])) for p in providers]),
        ("pass rate", [_pass_rate(by_provider[p]) for p in providers]),
        ("errors", [str(sum(r.outcome == "error" for r in by_provider[p])) for p in providers]),
    ]
    for column in columns:
        cells = [_mean_ci([r.metrics[column.key] for r in by_provider[p] if column.key in r.metrics])
                 for p in providers]
        if any(cell != "-" for cell in cells):
            rows.append((column.label, cells))
    rows += family.summary_rows([[r.score for r in by_provider[p] if r.score] for p in providers])
    # a run that asked no provider anything (a suite self-check) has no traffic to report
    traffic = family.records_traffic and any(r.run.get("calls") or r.run.get("cassette") for r in records)
    if traffic:
        rows.append(("latency p50/p95", [_latency(by_provider[p]) for p in providers]))
        rows.append(("cost (USD)", [_cost(by_provider[p]) for p in providers]))
    empty = [_empty_answers(by_provider[p]) for p in providers]
    if any(n for n in empty):
        rows.append(("empty answers", [f"{n} (scored 0)" if n else "0" for n in empty]))
    if traffic:
        rows.append(("cassettes", [_cassettes(by_provider[p]) for p in providers]))
    paired = _paired_rows(providers, by_provider, columns) if len(providers) > 1 else []
    rows += paired
    if baseline is not None:
        rows.append((f"Δ {columns[0].label} vs baseline",
                     [_baseline_delta(by_provider[p], columns[0].key, baseline) for p in providers]))
    title = f"{meta['suite']}  ({meta['family']}/{meta['kind'] or '-'}, edition {meta['edition']}, k={k})"
    label_width = max(len(label) for label, _ in rows)
    widths = [max(len(p), *(len(cells[i]) for _, cells in rows)) for i, p in enumerate(providers)]

    def line(label: str, cells: list[str]) -> str:
        return f"  {label.ljust(label_width)}  {'  '.join(c.ljust(w) for c, w in zip(cells, widths))}".rstrip()

    out = [title, line("", providers)] + [line(label, cells) for label, cells in rows]
    out.append("  means with 95% bootstrap intervals over items (errors excluded)"
               + ("; latency over provider calls" if traffic else ""))
    if paired:
        out.append(f"  Δ vs {providers[0]}: mean paired difference over the items both scored, two-sided paired "
                   "randomization test (sign-flip, 10,000 resamples)")
    for provider in providers:
        out += [f"  {provider} errors: {line}" for line in _error_reasons(by_provider[provider])]
    return out


def _pass_rate(records: list[ItemRecord]) -> str:
    passed = sum(r.outcome == "passed" for r in records)
    return f"{passed}/{len(records)} ({100 * passed / len(records):.1f}%)"


def _mean_ci(values: list[float]) -> str:
    if not values:
        return "-"
    mean, low, high = stats.bootstrap_ci(values)
    return f"{mean:.3f} [{low:.3f}, {high:.3f}]"


def _latency(records: list[ItemRecord]) -> str:
    seconds = [call["seconds"] for r in records for call in r.run.get("calls", [])]
    if not seconds:
        return "-"
    return f"{1000 * stats.percentile(seconds, 50):.1f} / {1000 * stats.percentile(seconds, 95):.1f} ms"


def _cassettes(records: list[ItemRecord]) -> str:
    counts = {state: sum(r.run.get("cassette") == state for r in records) for state in CASSETTE_STATES}
    return " · ".join(f"{counts[state]} {state}" for state in CASSETTE_STATES)


def _baseline_delta(records: list[ItemRecord], metric: str, baseline: Baseline) -> str:
    old, new = baseline.paired_values({r.key: r.metrics[metric] for r in records if metric in r.metrics}, metric)
    if not old:
        return "no shared items"
    delta = stats.mean(new) - stats.mean(old)
    p = stats.paired_randomization_test(new, old)
    return f"{delta:+.3f} (p={p:.3f}, n={len(old)}, paired randomization)"


def _cost(records: list[ItemRecord]) -> str:
    """Total USD of the provider's calls at the price table's rates (replayed calls count at list price)."""
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
