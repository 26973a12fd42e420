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
    items = {
        ("s", case, "p"): {
            "suite": "s",
            "case_id": case,
            "provider": "p",
            "outcome": "passed",
            "metrics": {"ndcg": value},
        }
        for case, value in values.items()
    }
    return Baseline(items, "base.json", k=5, suites={"s": {"edition": "e", "digest": "d", "kind": "scenario"}})


def _verdict(before: dict[str, float], records: list[ItemRecord], **kwargs):
    [verdict] = suite_verdicts(
        records,
        FAMILIES,
        5,
        _baseline(before),
        alpha=kwargs.get("alpha", 0.05),
        min_effect=kwargs.get("min_effect", 0.01),
    )
    return verdict


def test_a_significant_drop_larger_than_the_minimum_effect_is_a_regression():
    rng = random.Random(7)
    before = {f"q{i:02}": rng.uniform(0.5, 1.0) for i in range(55)}
    records = [_record(case, value - 0.11) for case, value in before.items()]
    verdict = _verdict(before, records)
    assert verdict.status == REGRESSION and verdict.failed and verdict.n == 55
    assert verdict.delta == pytest.approx(-0.11)
    assert verdict.text() == "REGRESSION nDCG@5 −0.110 (p<0.001, n=55; could detect any drop)"  # every pair −0.11
    # the same drop below the minimum effect, or a run too small to be significant, is no regression
    assert _verdict(before, records, min_effect=0.2).text() == (
        "no significant change nDCG@5 −0.110 (p<0.001, n=55; could detect any drop)"
    )
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
            report = pytest.TestReport(
                nodeid="../q001[local]",
                location=("x", 0, "x"),
                keywords={},
                outcome="passed",
                longrepr=None,
                when=when,
                **{REPORT_PAYLOAD: report_payload(_meta("q001", suite, "local"))},
            )
            store.add(report)
    assert [r.key for r in store.records()] == [
        ("lexbench-sample", "q001", "local"),
        ("lexbench-sample-factual", "q001", "local"),
    ]


def test_the_detectable_drop_is_the_normal_approximation_of_a_paired_test_at_80_percent_power():
    from scipy import stats as scipy_stats

    from pytest_websearchbench.reporting.regression import detectable_drop

    rng = random.Random(3)
    for n in (2, 5, 55, 400):
        old = [rng.random() for _ in range(n)]
        new = [value + rng.gauss(0, 0.2) for value in old]
        differences = [a - b for a, b in zip(new, old)]
        spread = float(__import__("numpy").std(differences, ddof=1))
        expected = (scipy_stats.norm.ppf(0.975) + scipy_stats.norm.ppf(0.8)) * spread / n**0.5
        assert detectable_drop(new, old, 0.05) == pytest.approx(expected, rel=1e-9)
    assert detectable_drop([0.5], [0.4], 0.05) is None  # one pair: no spread to estimate


def test_a_drop_of_the_detectable_size_is_found_about_four_times_in_five():
    # the promise the number makes: simulated runs whose true drop is what the verdict says it could
    # detect are significant about 80 % of the time (a z-test on the mean difference, as the formula assumes)
    from pytest_websearchbench.reporting.regression import detectable_drop

    rng = random.Random(11)
    sigma, n, runs, found = 0.2, 60, 2000, 0
    size = detectable_drop([rng.gauss(0, sigma) for _ in range(2000)], [0.0] * 2000, 0.05) * (2000 / n) ** 0.5
    for _ in range(runs):
        differences = [rng.gauss(-size, sigma) for _ in range(n)]
        z = abs(sum(differences) / n) / (sigma / n**0.5)
        found += z > 1.959964
    assert 0.76 < found / runs < 0.84


def test_a_small_noisy_run_that_finds_nothing_is_inconclusive():
    from pytest_websearchbench.reporting.regression import INCONCLUSIVE

    rng = random.Random(5)
    before = {f"q{i:02}": rng.uniform(0.2, 1.0) for i in range(6)}
    records = [_record(case, min(1.0, max(0.0, value + rng.uniform(-0.3, 0.3)))) for case, value in before.items()]
    verdict = _verdict(before, records)
    assert verdict.status == INCONCLUSIVE and not verdict.failed
    assert verdict.detectable > 0.01 and f"could detect −{verdict.detectable:.3f} at 80 % power" in verdict.text()


class _Repeated(LexBenchFamily):
    def repeats(self) -> int:
        return 2


def test_repeated_runs_are_paired_by_case_each_the_mean_of_its_runs():
    # every case: run 1 scored 1 and run 2 scored 0 in the baseline, the other way round now. Case by case
    # nothing changed; paired run by run, every pair would move by ±1 and the verdict could tell nothing
    cases = [f"q{i:02}" for i in range(20)]
    before = {f"{case}@{run}": float(run == 1) for case in cases for run in (1, 2)}
    records = [_record(f"{case}@{run}", float(run == 2)) for case in cases for run in (1, 2)]
    kwargs = {"alpha": 0.05, "min_effect": 0.01}
    [verdict] = suite_verdicts(records, {"lexbench": _Repeated()}, 5, _baseline(before), **kwargs)
    assert (verdict.n, verdict.delta, verdict.detectable) == (20, 0.0, 0.0)
    assert verdict.text().startswith("no significant change nDCG@5 +0.000") and "n=20" in verdict.text()
    [by_item] = suite_verdicts(records, FAMILIES, 5, _baseline(before), **kwargs)  # what pairing runs gave
    assert (by_item.n, by_item.status) == (40, "inconclusive") and by_item.detectable == pytest.approx(0.449, abs=1e-3)


def test_a_repeated_case_is_valued_by_the_runs_both_sides_have():
    before = {"a@1": 0.9, "a@2": 0.7, "b@1": 0.5}  # the baseline lacks b's second run
    records = [_record("a@1", 0.5), _record("a@2", 0.3), _record("b@1", 0.5), _record("b@2", 0.0)]
    [verdict] = suite_verdicts(records, {"lexbench": _Repeated()}, 5, _baseline(before), alpha=0.05, min_effect=0.01)
    # a: 0.4 − 0.8 = −0.4; b: its first run only, 0.5 − 0.5 = 0
    assert verdict.n == 2 and verdict.delta == pytest.approx(-0.2)
