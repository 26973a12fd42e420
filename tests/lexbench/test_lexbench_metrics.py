"""Ranking metrics: DESIGN §2.2 rules, hand-computed cases, properties, a trec_eval cross-check."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pytest_websearchbench.lexbench.metrics import (
    answer_in_text,
    dcg,
    duplicate_rate,
    judged_at_k,
    known_page_hit,
    ndcg_at_k,
    precision_at_k,
    reciprocal_rank,
    success_at_k,
    supporting_url_hit,
)

LOG2_3 = math.log2(3)


# --- DESIGN example and precision ------------------------------------------------------


def test_design_example_precision_divides_by_the_cutoff():
    assert precision_at_k(["useful", "unrelated"], {"useful": 3, "unrelated": 0}, 5) == 0.2


def test_precision_counts_distinct_keys_only():
    assert precision_at_k(["a", "a", "b"], {"a": 2, "b": 3}, 3) == pytest.approx(2 / 3)


def test_precision_threshold_and_ungraded():
    ranked = ["one", "two", "three", "new"]
    grades = {"one": 1, "two": 2, "three": 3}
    assert precision_at_k(ranked, grades, 4) == 0.5
    assert precision_at_k(ranked, grades, 4, threshold=1) == 0.75
    assert precision_at_k(ranked, grades, 4, threshold=3) == 0.25


def test_precision_only_looks_at_the_top_k():
    assert precision_at_k(["x", "a"], {"a": 3}, 1) == 0.0


@pytest.mark.parametrize(
    "metric",
    [
        lambda r: ndcg_at_k(r, {}, [], 0),
        lambda r: precision_at_k(r, {}, 0),
        lambda r: success_at_k(r, {}, 0),
        lambda r: reciprocal_rank(r, {}, 0),
        lambda r: known_page_hit(r, [], 0),
        lambda r: supporting_url_hit(r, [], 0),
        lambda r: duplicate_rate(r, 0),
        lambda r: judged_at_k(r, {}, 0),
    ],
)
def test_a_cutoff_below_one_is_an_error(metric):
    with pytest.raises(ValueError, match="cutoff"):
        metric(["a"])


# --- DCG and nDCG ---------------------------------------------------------------------


def test_dcg_hand_computed():
    assert dcg([]) == 0.0
    assert dcg([3.0]) == 3.0
    assert dcg([1.0, 1.0, 1.0]) == pytest.approx(1 + 1 / LOG2_3 + 0.5)


def test_ndcg_hand_computed_with_an_unretrieved_pool_member():
    ranked = ["a", "b", "c"]
    grades = {"a": 1, "b": 3, "c": 0, "d": 2}
    # DCG = 1/1 + 7/log2(3) + 0; ideal from pool [3, 2, 1, 0] = 7 + 3/log2(3) + 1/2
    expected = (1 + 7 / LOG2_3) / (7 + 3 / LOG2_3 + 0.5)
    assert ndcg_at_k(ranked, grades, grades.values(), 3) == pytest.approx(expected)
    assert expected == pytest.approx(0.576666, abs=1e-6)


def test_ndcg_ideal_is_cut_at_k():
    # k = 1: the ideal is just the best grade (gain 7); "b" has gain 3.
    assert ndcg_at_k(["b"], {"a": 3, "b": 2}, [3, 2], 1) == pytest.approx(3 / 7)


def test_ndcg_duplicates_earn_no_gain_but_keep_their_position():
    grades = {"a": 3, "b": 3}
    # gains [7, 0, 7]; ideal [7, 7]
    expected = (7 + 7 / 2) / (7 + 7 / LOG2_3)
    assert ndcg_at_k(["a", "a", "b"], grades, grades.values(), 3) == pytest.approx(expected)
    only_repeats = ndcg_at_k(["a", "a", "a"], grades, grades.values(), 3)
    assert only_repeats == pytest.approx(7 / (7 + 7 / LOG2_3))


def test_ndcg_missing_positions_add_zero():
    grades = {"a": 3, "b": 2}
    assert ndcg_at_k(["a"], grades, grades.values(), 5) == pytest.approx(7 / (7 + 3 / LOG2_3))


def test_ndcg_of_an_all_zero_pool_is_zero():
    assert ndcg_at_k(["a", "b"], {"a": 0, "b": 0}, [0, 0], 5) == 0.0
    assert ndcg_at_k(["a"], {}, [], 5) == 0.0


def test_ndcg_of_an_empty_ranking_is_zero():
    assert ndcg_at_k([], {"a": 3}, [3], 5) == 0.0


def test_ndcg_perfect_and_ungraded_results():
    grades = {"a": 3, "b": 1}
    assert ndcg_at_k(["a", "b"], grades, grades.values(), 5) == 1.0
    assert ndcg_at_k(["new", "other"], grades, grades.values(), 5) == 0.0


# --- success, reciprocal rank, hits ------------------------------------------------------


def test_success_needs_a_top_grade_in_the_top_k():
    grades = {"a": 2, "b": 3}
    assert success_at_k(["a", "b"], grades, 2) == 1.0
    assert success_at_k(["a", "b"], grades, 1) == 0.0
    assert success_at_k([], grades, 5) == 0.0


def test_reciprocal_rank():
    grades = {"a": 1, "b": 2, "c": 3}
    assert reciprocal_rank(["c"], grades, 5) == 1.0
    assert reciprocal_rank(["a", "x", "b"], grades, 5) == pytest.approx(1 / 3)
    assert reciprocal_rank(["a", "x", "b"], grades, 2) == 0.0
    assert reciprocal_rank(["a", "b"], grades, 5, threshold=1) == 1.0
    assert reciprocal_rank([], grades, 5) == 0.0


def test_known_page_and_supporting_url_hits():
    ranked = ["a", "b", "c"]
    assert known_page_hit(ranked, ["c"], 3) == 1.0
    assert known_page_hit(ranked, ["c"], 2) == 0.0
    assert known_page_hit(ranked, [], 3) == 0.0
    assert known_page_hit([], ["a"], 3) == 0.0
    assert supporting_url_hit(ranked, iter(["z", "b"]), 2) == 1.0
    assert supporting_url_hit(ranked, ["z"], 3) == 0.0


# --- diagnostics --------------------------------------------------------------------------


def test_duplicate_rate():
    assert duplicate_rate(["a", "b", "a", "a"], 4) == 0.5
    assert duplicate_rate(["a", "b", "a", "a"], 2) == 0.0
    assert duplicate_rate(["a", "a"], 5) == 0.5
    assert duplicate_rate([], 5) == 0.0


def test_judged_at_k_counts_positions_with_a_grade():
    grades = {"a": 0, "b": 3}
    assert judged_at_k(["a", "new", "b", "a"], grades, 4) == 0.75
    assert judged_at_k(["a", "new", "b", "a"], grades, 2) == 0.5
    assert judged_at_k(["new"], grades, 5) == 0.0
    assert judged_at_k([], grades, 5) == 0.0


# --- properties -----------------------------------------------------------------------------

_keys = st.sampled_from([f"https://site{i}.example/p" for i in range(8)])
_grades = st.dictionaries(_keys, st.integers(0, 3))
_cutoffs = st.integers(1, 10)


@given(st.lists(_keys, max_size=12), _grades, _cutoffs)
def test_metrics_stay_in_the_unit_interval(ranked, grades, k):
    for value in (
        ndcg_at_k(ranked, grades, grades.values(), k),
        precision_at_k(ranked, grades, k),
        success_at_k(ranked, grades, k),
        reciprocal_rank(ranked, grades, k),
        duplicate_rate(ranked, k),
        judged_at_k(ranked, grades, k),
    ):
        assert 0.0 <= value <= 1.0


@given(_grades, _cutoffs)
def test_ndcg_is_one_for_the_ideal_ranking(grades, k):
    assume(any(grades.values()))
    ideal = sorted(grades, key=grades.__getitem__, reverse=True)
    assert ndcg_at_k(ideal, grades, grades.values(), k) == pytest.approx(1.0)


@given(st.lists(_keys, max_size=12), _grades, _cutoffs)
def test_ndcg_and_precision_ignore_repeats(ranked, grades, k):
    """Dropping repeats (and closing up) never lowers nDCG and never changes precision's hits."""
    distinct = list(dict.fromkeys(ranked))
    pool = list(grades.values())
    assert ndcg_at_k(distinct, grades, pool, k) >= ndcg_at_k(ranked, grades, pool, k) - 1e-12
    assert precision_at_k(ranked, grades, k) <= precision_at_k(distinct, grades, k)


# --- cross-check against trec_eval (ir-measures over pytrec_eval) -----------------------------
# trec_eval's own C code, given the custom gains 2**g − 1 so its nDCG is the DESIGN rule; its
# ideal comes from all qrels of the query (here: every grade), it scores an all-zero pool 0, and
# a run holds each document once (duplicates are tested above). Queries with an empty run are
# absent from trec_eval's output and are checked directly. All cases go in one batched call.


def _cases(count: int, seed: int = 20261201):
    rng = random.Random(seed)
    keys = [f"https://site{i}.example/p" for i in range(8)]
    for number in range(count):
        graded = rng.sample(keys, rng.randint(1, len(keys)))
        grades = {key: rng.randint(0, 3) for key in graded}
        ranked = rng.sample(keys + ["https://new.example/x"], rng.randint(0, 9))
        yield f"q{number}", ranked, grades, rng.randint(1, 10)


def test_agrees_with_trec_eval():
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import RR, P, Qrel, ScoredDoc, Success, nDCG

    cases = list(_cases(600))
    ours, measures_by_query = {}, {}
    qrels, run = [], []
    for qid, ranked, grades, k in cases:
        ours[qid] = {
            "ndcg": ndcg_at_k(ranked, grades, grades.values(), k),
            "p1": precision_at_k(ranked, grades, k, threshold=1),
            "p2": precision_at_k(ranked, grades, k),
            "p3": precision_at_k(ranked, grades, k, threshold=3),
            "rr": reciprocal_rank(ranked, grades, k),
            "success": success_at_k(ranked, grades, k),
        }
        if not ranked:
            assert set(ours[qid].values()) == {0.0}
            continue
        measures_by_query[qid] = {
            nDCG(gains={0: 0, 1: 1, 2: 3, 3: 7}) @ k: "ndcg",
            P(rel=1) @ k: "p1",
            P(rel=2) @ k: "p2",
            P(rel=3) @ k: "p3",
            RR(rel=2) @ k: "rr",
            Success(rel=3) @ k: "success",
        }
        qrels += [Qrel(qid, key, grade) for key, grade in grades.items()]
        run += [ScoredDoc(qid, key, float(len(ranked) - i)) for i, key in enumerate(ranked)]
    every_measure = {m for measures in measures_by_query.values() for m in measures}
    checked = 0
    for metric in ir_measures.iter_calc(every_measure, qrels, run):
        name = measures_by_query[metric.query_id].get(metric.measure)
        if name is not None:  # each query is asked at its own cutoff
            assert ours[metric.query_id][name] == pytest.approx(metric.value, abs=1e-9), (metric, name)
            checked += 1
    assert checked == 6 * len(measures_by_query) > 3000


# --- factual edition: answer in text ----------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "text"),
    [
        ("12", "It took 12 days."),
        ("12", "It took 12."),
        ("12", "(12)"),
        ("1,200", "about 1200 people"),
        ("1200", "about 1,200 people"),
        ("1 200", "about 1,200 people"),
        ("1200", "about 1 200 people"),
        ("1,200,000", "1200000 in total"),
        ("3.5", "rated 3.50 stars"),
        ("3.50", "rated 3.5 stars"),
        ("0.5", "a share of 0.50"),
        ("$1,200", "costs $1200"),
        ("1,200 km", "a 1 200 km route"),
        ("12", "number 12, 13"),
        ("Paris", "the capital is PARIS."),
        ("new york", "New\n  York City"),
        ("C++", "written in c++ mostly"),
        ("Straße", "die STRASSE"),
        ("東京", "日本の首都は東京都です"),
        ("12", "第12回"),
        ("１２", "12"),
    ],
)
def test_answer_found(answer, text):
    assert answer_in_text(answer, text)


@pytest.mark.parametrize(
    ("answer", "text"),
    [
        ("12", "in 2012"),
        ("12", "120 items"),
        ("12", "12.5 percent"),
        ("12", "1.12"),
        ("12", "12,5 (decimal comma)"),
        ("12", "route A12"),
        ("12", "12km"),
        ("3.5", "3.55"),
        ("1,200", "1,2000"),
        ("Paris", "Parisian"),
        ("York", "Yorkshire"),
        ("east", "the beast"),
        ("", "anything"),
        ("   ", "anything"),
        ("東京", "大阪"),
    ],
)
def test_answer_not_found(answer, text):
    assert not answer_in_text(answer, text)


@given(st.integers(0, 10**9), st.integers(0, 10**9))
def test_integers_match_by_value(answer, stated):
    text = f"the figure was {stated:,} overall"
    assert answer_in_text(str(answer), text) is (answer == stated)
