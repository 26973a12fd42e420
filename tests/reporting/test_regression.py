"""The suite-level verdict against a baseline, and item records keyed by what the item is."""

from __future__ import annotations

import random

import pytest

from pytest_websearchbench.core.family import Score
from pytest_websearchbench.lexbench.family import LexBenchFamily
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.reporting.regression import REGRESSION, suite_verdicts
from pytest_websearchbench.reporting.results import REPORT_PAYLOAD, ItemMeta, ItemRecord, ResultStore, report_payload

FAMILIES = {"lexbench": LexBenchFamily()}


def _meta(case: str, suite: str = "s", variant: str = "p") -> ItemMeta:
    return ItemMeta(suite, case, variant, "lexbench", "scenario", "e", "d")


def _record(case: str, ndcg: float | None, outcome: str = "passed") -> ItemRecord:
    score = None if ndcg is None else Score(outcome == "passed", {"ndcg": ndcg})
    return ItemRecord(f"s::{case}[p]", _meta(case), score=score, outcome=outcome)


def _baseline(values: dict[str, float]) -> Baseline:
    items = {("s", case, "p"): {"suite": "s", "case_id": case, "provider": "p", "outcome": "passed",
                                "metrics": {"ndcg": value}} for case, value in values.items()}
    return Baseline(items, "base.json", k=5, suites={"s": {"edition": "e", "digest": "d", "kind": "scenario"}})


def _verdict(before: dict[str, float], records: list[ItemRecord], **kwargs):
    [verdict] = suite_verdicts(records, FAMILIES, 5, _baseline(before), alpha=kwargs.get("alpha", 0.05),
                               min_effect=kwargs.get("min_effect", 0.01))
    return verdict


def test_a_significant_drop_larger_than_the_minimum_effect_is_a_regression():
    rng = random.Random(7)
    before = {f"q{i:02}": rng.uniform(0.5, 1.0) for i in range(55)}
    records = [_record(case, value - 0.11) for case, value in before.items()]
    verdict = _verdict(before, records)
    assert verdict.status == REGRESSION and verdict.failed and verdict.n == 55
    assert verdict.delta == pytest.approx(-0.11)
    assert verdict.text() == "REGRESSION nDCG@5 −0.110 (p<0.001, n=55)"
    # the same drop below the minimum effect, or a run too small to be significant, is no regression
    assert _verdict(before, records, min_effect=0.2).text() == "no significant change nDCG@5 −0.110 (p<0.001, n=55)"
    small = {case: before[case] for case in list(before)[:3]}
    assert not _verdict(small, [_record(case, value - 0.11) for case, value in small.items()]).failed


def test_an_errored_item_counts_zero_on_both_sides():
    before = {f"q{i:02}": 0.9 for i in range(20)}
    # a provider that times out on hard queries must not look better: 10 errors now count 0
    records = [_record(case, None, "error") if i < 10 else _record(case, 0.9) for i, case in enumerate(before)]
    verdict = _verdict(before, records)
    assert verdict.status == REGRESSION and verdict.n == 20 and verdict.delta == pytest.approx(-0.45)


def test_gains_are_reported_but_never_fail():
    before = {f"q{i:02}": 0.2 + 0.01 * i for i in range(30)}
    verdict = _verdict(before, [_record(case, value + 0.3) for case, value in before.items()])
    assert verdict.status == "improvement" and not verdict.failed


def test_records_are_keyed_by_suite_case_and_provider_not_by_node_id():
    store = ResultStore()
    for suite in ("lexbench-sample", "lexbench-sample-factual"):
        for when in ("call", "teardown"):
            report = pytest.TestReport(nodeid="../q001[local]", location=("x", 0, "x"), keywords={}, outcome="passed",
                                       longrepr=None, when=when,
                                       **{REPORT_PAYLOAD: report_payload(_meta("q001", suite, "local"))})
            store.add(report)
    assert [r.key for r in store.records()] == [("lexbench-sample", "q001", "local"),
                                                 ("lexbench-sample-factual", "q001", "local")]
