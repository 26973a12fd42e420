"""Latency as a verdict (reporting/latency_verdict.py): an item's client and server time over its answered calls,
kept apart; p50 and p95 against the other side with their paired tests; the --wsb-max-latency-regression gate in
the suite's verdict; where server time comes from (a vendor's body field, Server-Timing, X-Response-Time)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.cassettes.latency import server_seconds
from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.family import Score
from pytest_websearchbench.core.options import share
from pytest_websearchbench.lexbench.family import LexBenchFamily
from pytest_websearchbench.providers.base import CallRecord
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.reporting.latency_verdict import (
    NO_BASELINE_LATENCY,
    ItemLatency,
    LatencyVerdict,
    baseline_item_latency,
    compare,
    item_latency,
    latency_verdict,
)
from pytest_websearchbench.reporting.regression import REGRESSION, SuiteVerdict, suite_verdicts
from pytest_websearchbench.reporting.results import ItemMeta, ItemRecord, ItemRun

latencies = st.lists(st.floats(min_value=0.5, max_value=5000, allow_nan=False), min_size=1, max_size=40)


def _pairs(before: list[float], now: list[float]) -> list[tuple[str, ItemLatency | None, ItemLatency]]:
    return [(f"c{i}", ItemLatency(b), ItemLatency(n)) for i, (b, n) in enumerate(zip(before, now))]


@settings(max_examples=60, deadline=None)
@given(latencies)
def test_identical_latencies_shift_nothing_and_fail_no_gate(values):
    verdict = latency_verdict(_pairs(values, values), limit=0.0001, alpha=0.5)
    assert verdict is not None and verdict.client is not None
    for shift in verdict.client:
        assert shift.before == shift.now and shift.relative == 0 and shift.p == 1.0
    assert not verdict.failed and verdict.n == len(values)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=1, max_value=5000, allow_nan=False), min_size=10, max_size=40))
def test_a_uniform_slowdown_by_half_is_significant_and_fails_a_25_percent_gate(values):
    slower = [1.5 * v for v in values]
    verdict = latency_verdict(_pairs(values, slower), limit=0.25, alpha=0.05)
    assert verdict is not None and verdict.client is not None
    p50, p95 = verdict.client
    assert p50.relative == pytest.approx(0.5) and p95.relative == pytest.approx(0.5)
    assert p50.p < 0.05 and p95.p < 0.05  # every pair slower: 2/2ⁿ for all of them, and for the tail's ≥ 8
    assert verdict.failed and verdict.over == [p50, p95]
    assert not latency_verdict(_pairs(values, slower), limit=0.6, alpha=0.05).failed  # within a 60 % limit
    assert not latency_verdict(_pairs(values, slower), limit=None).failed  # no gate: compared, fails nothing


@settings(max_examples=40, deadline=None)
@given(latencies, latencies)
def test_p_is_the_same_for_either_order_of_the_pairs_and_either_side(before, now):
    n = min(len(before), len(now))
    before, now = before[:n], now[:n]
    p50, p95 = compare(before, now)
    r50, r95 = compare(before[::-1], now[::-1])
    s50, s95 = compare(now, before)
    assert p50.p == r50.p == s50.p
    assert p95.p == s95.p  # swapping the sides keeps the tail (chosen by the pairs' means)
    assert p95.n == r95.n == min(n, max(8, p95.n))


def test_a_faster_run_is_no_regression_whatever_its_p():
    values = [100.0 + i for i in range(20)]
    verdict = latency_verdict(_pairs(values, [v / 2 for v in values]), limit=0.25)
    assert verdict is not None and not verdict.failed
    assert verdict.text().startswith("latency p50 −50 % (110 → 55 ms, p<0.001), p95 −50 %")


def test_a_slow_tail_alone_moves_p95_not_p50():
    before = [100.0] * 40
    now = [100.0] * 34 + [400.0] * 6
    p50, p95 = compare(before, now)
    assert p50.relative == 0  # the middle did not move (the test sees the mean's shift: it says so, or not)
    # all tie at the cut, so all are in the tail; 6 slower pairs, 34 unchanged: p = 2/2⁶
    assert p95.relative == pytest.approx(3.0) and p95.p == pytest.approx(2 / 64) and p95.n == 40
    assert compare(before, [100.0] * 35 + [400.0] * 5)[1].p == pytest.approx(
        2 / 32
    )  # 5 slower pairs can never reach 0.05
    verdict = latency_verdict(_pairs(before, now), limit=0.25)
    assert verdict is not None and verdict.over == [verdict.client[1]]  # type: ignore[index]
    assert verdict.text().startswith("latency REGRESSION (over +25 %) p50 +0 % (100 → 100 ms, p=")


def test_an_item_totals_its_answered_calls_client_and_server_apart():
    calls = [
        CallRecord("search", 0.2, True, server_seconds=0.05),
        CallRecord("fetch", 0.3, True, server_seconds=0.1),
        CallRecord("fetch", 9.0, False, "timeout"),  # no answer: no latency of an answer
    ]
    assert item_latency(calls) == pytest.approx(ItemLatency(500.0, 150.0))
    # one call that stated nothing: no server total (a partial one would read faster than it was)
    assert item_latency([*calls, CallRecord("fetch", 0.1, True)]) == pytest.approx(ItemLatency(600.0, None))
    assert item_latency([CallRecord("search", 1.0, False, "http")]) is None
    assert CallRecord("search", 0.2, True).to_dict().keys().isdisjoint({"server_seconds", "served"})
    record = ItemRecord("s::c[p]", ItemMeta("s", "c", "p", "lexbench"), ItemRun(calls=calls))
    assert record.to_dict()["latency_ms"] == pytest.approx({"client": 500.0, "server": 150.0})
    # a baseline item: its latency_ms, else its calls counted the same way, else none
    assert baseline_item_latency({"latency_ms": {"client": 12.5, "server": None}}) == ItemLatency(12.5, None)
    assert baseline_item_latency({"calls": [c.to_dict() for c in calls]}) == pytest.approx(ItemLatency(500.0, 150.0))
    assert baseline_item_latency({"metrics": {}}) is None


def test_server_time_is_read_from_the_headers_a_server_states_it_in():
    assert server_seconds({"server-timing": "app;dur=12.3"}) == pytest.approx(0.0123)
    # nested metrics: the largest, unless one is named total
    assert server_seconds({"server-timing": 'db;dur=4, app;dur=20;desc="all", cache;desc=hit'}) == pytest.approx(0.02)
    assert server_seconds({"server-timing": "app;dur=20, total;dur=25"}) == pytest.approx(0.025)
    assert server_seconds({"x-response-time": "45.2ms"}) == pytest.approx(0.0452)
    assert server_seconds({"x-response-time": "0.5s"}) == pytest.approx(0.5)
    assert server_seconds({"x-response-time": "30"}) == pytest.approx(0.03)
    assert server_seconds({"server-timing": "miss, app;dur=oops", "x-response-time": "n/a"}) is None
    assert server_seconds({}) is None


def test_the_gate_option_reads_a_percentage_or_a_share():
    assert share("25%", "--x") == pytest.approx(0.25) and share("0.25", "--x") == 0.25 and share("", "--x") is None
    assert share("150%", "--x") == pytest.approx(1.5)
    for bad in ("25", "abc", "-5%", "0", "nan%", "inf"):
        with pytest.raises(ConfigurationError, match=r"^--x: expected a percentage \(25%\) or a share"):
            share(bad, "--x")


def _record(case: str, ms: float) -> ItemRecord:
    return ItemRecord(
        f"s::{case}[p]",
        ItemMeta("s", case, "p", "lexbench", "scenario", "e", "d"),
        ItemRun(calls=[CallRecord("search", ms / 1000, True)]),
        Score(True, {"ndcg": 0.5}),
    )


def _baseline(ms: dict[str, float | None]) -> Baseline:
    items = {
        ("s", case, "p"): {
            "suite": "s",
            "case_id": case,
            "provider": "p",
            "outcome": "passed",
            "metrics": {"ndcg": 0.5},
            **({"latency_ms": {"client": value, "server": None}} if value is not None else {}),
        }
        for case, value in ms.items()
    }
    return Baseline(items, "base.json", k=5, suites={"s": {"edition": "e", "digest": "d", "kind": "scenario"}})


def test_the_suite_verdict_fails_on_latency_alone_and_says_so_in_one_line():
    cases = [f"c{i}" for i in range(12)]
    records = [_record(case, 150.0 + 10 * i) for i, case in enumerate(cases)]
    baseline = _baseline({case: 100.0 + 10 * i for i, case in enumerate(cases)})
    families = {"lexbench": LexBenchFamily()}
    (gated,) = suite_verdicts(records, families, 5, baseline, alpha=0.05, min_effect=0.01, max_latency_regression=0.25)
    assert gated.status != REGRESSION and gated.failed  # the metric did not move; the latency did
    assert "; latency REGRESSION (over +25 %) p50 +32 % (155 → 205 ms, p<0.001), p95 " in gated.text()
    again = SuiteVerdict.from_dict(gated.to_dict())
    assert again.latency == gated.latency and again.failed and again.text() == gated.text()
    (ungated,) = suite_verdicts(records, families, 5, baseline, alpha=0.05, min_effect=0.01)
    # without a gate latency fails nothing and stays out of the verdict's line (the summary's row shows it)
    assert not ungated.failed and "latency" not in ungated.text()
    assert ungated.latency is not None and ungated.latency.cell().startswith("p50 +32 % (p<0.001), p95 +24 %")
    # a baseline without per-item latency: no latency verdict, said once
    (old,) = suite_verdicts(
        records, families, 5, _baseline(dict.fromkeys(cases)), alpha=0.05, min_effect=0.01, max_latency_regression=0.25
    )
    assert not old.failed and old.text().count(NO_BASELINE_LATENCY) == 1
    assert old.latency == LatencyVerdict(limit=0.25, missing=NO_BASELINE_LATENCY)


def test_side_by_side_each_variant_is_compared_with_the_first_and_server_time_has_its_own_row():
    from pytest_websearchbench.reporting.figures import suite_figures
    from pytest_websearchbench.reporting.terminal import summary_lines

    def record(case: str, variant: str, ms: float, server: float | None) -> ItemRecord:
        call = CallRecord("search", ms / 1000, True, server_seconds=None if server is None else server / 1000)
        meta = ItemMeta("s", case, variant, "lexbench", "scenario", "e", "d")
        return ItemRecord(f"s::{case}[{variant}]", meta, ItemRun("x", "replayed", [call]), Score(True, {"ndcg": 0.5}))

    cases = [f"c{i}" for i in range(10)]
    records = [record(c, "a", 100.0 + i, 80.0) for i, c in enumerate(cases)]
    records += [record(c, "b", 200.0 + 2 * i, None) for i, c in enumerate(cases)]
    suite = suite_figures(records, LexBenchFamily(), 5, order=("a", "b"))
    first, second = suite.variants
    assert first.latency_paired is None and first.server_p50_ms == pytest.approx(80.0)
    assert second.server_p50_ms is None and second.latency_paired is not None
    assert second.latency_paired.cell() == "p50 +100 % (p=0.002), p95 +100 % (p=0.008), n=10"
    lines = summary_lines([suite], {"lexbench": LexBenchFamily()})
    assert any(line.split() == ["server", "p50/p95", "80.0", "/", "80.0", "ms", "-"] for line in lines)
    assert any(line.startswith("  Δ latency vs a ") and line.endswith("n=10") for line in lines)
