"""The terminal summary: one table per suite, providers side by side."""

from __future__ import annotations

from collections import defaultdict

from pytest_websearchbench import stats
from pytest_websearchbench.baseline import Baseline
from pytest_websearchbench.families import FAMILIES
from pytest_websearchbench.results import ItemRecord

CASSETTE_STATES = ("replayed", "recorded", "live")


def summary_lines(records: list[ItemRecord], k: int, baseline: Baseline | None = None) -> list[str]:
    by_suite: dict[str, list[ItemRecord]] = defaultdict(list)
    for record in records:
        by_suite[record.meta["suite"]].append(record)
    lines: list[str] = []
    for suite in sorted(by_suite):
        lines += _suite_table(by_suite[suite], k, baseline)
        lines.append("")
    return lines


def _suite_table(records: list[ItemRecord], k: int, baseline: Baseline | None) -> list[str]:
    meta = records[0].meta
    providers = list(dict.fromkeys(r.meta["provider"] for r in records))
    by_provider = {p: [r for r in records if r.meta["provider"] == p] for p in providers}
    columns = FAMILIES[meta["family"]].columns(meta["kind"], k)
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
    rows.append(("latency p50/p95", [_latency(by_provider[p]) for p in providers]))
    rows.append(("cassettes", [_cassettes(by_provider[p]) for p in providers]))
    if baseline is not None:
        rows.append((f"Δ {columns[0].label} vs baseline",
                     [_baseline_delta(by_provider[p], columns[0].key, baseline) for p in providers]))
    title = f"{meta['suite']}  ({meta['family']}/{meta['kind'] or '-'}, edition {meta['edition']}, k={k})"
    label_width = max(len(label) for label, _ in rows)
    widths = [max(len(p), *(len(cells[i]) for _, cells in rows)) for i, p in enumerate(providers)]
    out = [title, "  " + " " * label_width + "  " + "  ".join(p.ljust(w) for p, w in zip(providers, widths))]
    for label, cells in rows:
        out.append("  " + label.ljust(label_width) + "  " + "  ".join(c.ljust(w) for c, w in zip(cells, widths)))
    out.append(f"  means with 95% bootstrap intervals over items (errors excluded); latency over provider calls")
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
