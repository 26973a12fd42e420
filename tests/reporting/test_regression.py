"""The suite-level verdict against a baseline, and item records keyed by what the item is."""

from __future__ import annotations

import random

import pytest

from pytest_websearchbench.core.family import Score
from pytest_websearchbench.lexbench.family import LexBenchFamily
from pytest_websearchbench.reporting import power
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.reporting.regression import REGRESSION, SuiteVerdict, suite_verdicts
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
    assert (verdict.n, verdict.delta, verdict.p) == (20, 0.0, 1.0)
    # no case changed: a drop the sign test finds must lose cases, each of its 2 runs worth ½ (pass/fail
    # stays discrete): about 7 of the 20 cases
    assert verdict.detectable == power.detectable_drop([0.0] * 20, 0.05, step=0.5)
    assert 0.15 < verdict.detectable < 0.2
    assert verdict.text().startswith("inconclusive nDCG@5 +0.000 (p=1.000, n=20; could detect −0.1")
    [by_item] = suite_verdicts(records, FAMILIES, 5, _baseline(before), **kwargs)  # what pairing runs gave
    assert (by_item.n, by_item.status) == (40, "inconclusive") and by_item.detectable > verdict.detectable


def test_a_repeated_case_is_valued_by_the_runs_both_sides_have():
    before = {"a@1": 0.9, "a@2": 0.7, "b@1": 0.5}  # the baseline lacks b's second run
    records = [_record("a@1", 0.5), _record("a@2", 0.3), _record("b@1", 0.5), _record("b@2", 0.0)]
    [verdict] = suite_verdicts(records, {"lexbench": _Repeated()}, 5, _baseline(before), alpha=0.05, min_effect=0.01)
    # a: 0.4 − 0.8 = −0.4; b: its first run only, 0.5 − 0.5 = 0
    assert verdict.n == 2 and verdict.delta == pytest.approx(-0.2)


# --- holes: pages nobody graded ----------------------------------------------------------------------------


def _graded(case: str, ndcg: float, judged: float, unjudged: list[str]) -> ItemRecord:
    score = Score(True, {"ndcg": ndcg, "judged": judged}, details={"unjudged": unjudged})
    return ItemRecord(f"s::{case}[p]", _meta(case), score=score)


def _judged_baseline(values: dict[str, float], judged: float = 1.0) -> Baseline:
    baseline = _baseline(values)
    for item in baseline.items.values():
        item["metrics"]["judged"] = judged
    return baseline


def _holes_verdict(records, baseline, **kwargs):
    [verdict] = suite_verdicts(records, FAMILIES, 5, baseline, alpha=0.05, min_effect=0.01, **kwargs)
    return verdict


def test_a_release_that_puts_unjudged_pages_on_top_is_inconclusive_with_its_holes_not_a_regression():
    # the case: three never-graded pages above the graded ones; nDCG falls by half, but nobody knows
    # whether those pages are better or worse
    before = {f"q{i:02}": 0.9 for i in range(55)}
    new = [f"https://new.example/{i}" for i in range(3)]
    records = [_graded(case, 0.39, 0.4, new if i == 0 else []) for i, case in enumerate(before)]
    verdict = _holes_verdict(records, _judged_baseline(before))
    assert verdict.status == "inconclusive" and not verdict.failed and verdict.p < 0.001
    assert verdict.holes is not None and verdict.holes.pages == new
    assert verdict.text().startswith("inconclusive (holes: 3 unjudged pages in the top 5) nDCG@5 −0.510 (p<0.001")
    assert "judged@5 0.400 now, 1.000 in the baseline" in verdict.text()
    assert verdict.to_dict()["holes"]["unjudged"] == new
    assert SuiteVerdict.from_dict(verdict.to_dict()) == verdict


def test_holes_are_judged_against_both_thresholds():
    before = {f"q{i:02}": 0.9 for i in range(30)}
    well_graded = [_graded(case, 0.9, 0.96, []) for case in before]
    # 0.96 graded now against 1.0 before: within --wsb-min-judged-drop (0.05) and above --wsb-min-judged (0.9)
    assert _holes_verdict(well_graded, _judged_baseline(before)).holes is None
    # a stricter drop makes it a hole; so does a floor above what the run has graded
    assert _holes_verdict(well_graded, _judged_baseline(before), min_judged_drop=0.01).status == "inconclusive"
    assert _holes_verdict(well_graded, _judged_baseline(before), min_judged=0.97).holes is not None
    # a baseline with as many holes (both runs 0.8 graded): no drop, but below the floor
    poor = [_graded(case, 0.9, 0.8, []) for case in before]
    assert _holes_verdict(poor, _judged_baseline(before, 0.8)).holes is not None
    assert _holes_verdict(poor, _judged_baseline(before, 0.8), min_judged=0.5).holes is None


def test_a_family_whose_answers_are_all_graded_has_no_holes():
    from pytest_websearchbench.codebench.family import CodeFamily

    assert CodeFamily().coverage("retrieval/search") is None
    assert FAMILIES["lexbench"].coverage("factual") is None
    assert FAMILIES["lexbench"].coverage("scenario") is not None


def test_pass_fail_suites_keep_their_discreteness_and_exact_ties():
    # a pass/fail metric where nothing changed: a drop must lose cases for the test to see one, so the
    # verdict says what it could detect from the sign test, not "any drop"
    before = {f"q{i:02}": float(i % 3 != 0) for i in range(32)}
    verdict = _verdict(before, [_record(case, value) for case, value in before.items()])
    assert verdict.p == 1.0 and verdict.status == "inconclusive"
    assert verdict.detectable == power.detectable_drop([0.0] * 32, 0.05, step=1.0)
    # a continuous metric where nothing changed: any shift moves every pair
    smooth = {f"q{i:02}": 0.3 + i / 100 for i in range(32)}
    assert _verdict(smooth, [_record(case, value) for case, value in smooth.items()]).detectable == 0.0


# --- side by side: each variant against the reference -----------------------------------------------------


def test_side_by_side_each_variant_gets_the_verdicts_statistics_against_the_reference_in_words_that_compare():
    from pytest_websearchbench.reporting.regression import versus_verdicts

    rng = random.Random(9)
    prod = {f"q{i:02}": rng.uniform(0.5, 1.0) for i in range(40)}

    def records(variant, shift):
        return [
            ItemRecord(
                f"s::{case}[{variant}]", _meta(case, variant=variant), score=Score(True, {"ndcg": value + shift})
            )
            for case, value in prod.items()
        ]

    run = records("serper@prod", 0.0) + records("serper@staging", -0.1) + records("serper@canary", 0.0)
    verdicts = {
        v.variant: v
        for v in versus_verdicts(run, FAMILIES, 5, ["serper@prod", "serper@staging"], alpha=0.05, min_effect=0.01)
    }
    assert set(verdicts) == {"serper@staging", "serper@canary"}  # the reference is the first named
    staging = verdicts["serper@staging"]
    assert staging.status == "worse" and not staging.failed and staging.n == 40 and staging.delta == pytest.approx(-0.1)
    assert staging.text().startswith("worse nDCG@5 −0.100 (p<0.001, n=40; could detect any drop)")
    assert verdicts["serper@canary"].text().startswith("no significant difference nDCG@5 +0.000 (p=1.000, n=40")
    # one variant: nothing to compare
    assert versus_verdicts(records("serper@prod", 0.0), FAMILIES, 5, ["serper@prod"], alpha=0.05, min_effect=0.01) == []
