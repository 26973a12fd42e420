"""--wsb-trec: a LexBench run as TREC qrels and run files. trec_eval's own code (ir-measures over pytrec_eval)
reads them back and gives our per-query P@k and MRR (relevance level 2) and nDCG@k (gains 2^g − 1) exactly,
across repeats, pages that break a requirement, ungraded pages and pool pages no provider returned; trec_eval's
linear-gain ndcg_cut differs where a grade above 1 is retrieved, as the docs say."""

from __future__ import annotations

import json
import random

import pytest

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.core.urls import normalize_url
from pytest_websearchbench.lexbench.eligibility import Requirements
from pytest_websearchbench.lexbench.grades import GradedPreview
from pytest_websearchbench.lexbench.items import Scenario
from pytest_websearchbench.lexbench.scoring import score_scenario
from pytest_websearchbench.lexbench.trec import EXP_GAINS, merge_qrels, qrels_lines, ranked_docnos, run_lines

ir_measures = pytest.importorskip("ir_measures")
from ir_measures import RR, P, nDCG  # noqa: E402


def _cases(count: int, seed: int = 50):
    """Random queries: a pool on two hosts (one required: the other's pages are 0 by rule), hits that repeat a
    page under another URL form, pages nobody graded, and a cutoff k."""
    rng = random.Random(seed)
    pages = [f"https://{host}.example/p{i}" for host in ("good", "other") for i in range(5)]
    for number in range(count):
        graded = rng.sample(pages, rng.randint(1, len(pages)))
        pool = {normalize_url(u): GradedPreview(u, rng.randint(0, 3), "test") for u in graded}
        forms = [*pages, "https://good.example/new", "https://other.example/new"]
        urls = [rng.choice(forms) for _ in range(rng.randint(0, 8))]
        # a repeat under another form of the same page: a slash, a tracking parameter
        urls = [u + rng.choice(["", "/", "?utm_source=x"]) for u in urls]
        required = rng.random() < 0.5
        req = Requirements(sites=("good.example",)) if required else Requirements()
        scenario = Scenario(f"q{number}", "query", "en", "general", requirements=req)
        hits = [Hit(i, u, f"title {i}", f"snippet {i}") for i, u in enumerate(urls, start=1)]
        yield scenario, hits, pool, rng.randint(1, 6)


def test_trec_eval_reads_back_our_p_mrr_and_ndcg_exactly(tmp_path):
    ours, runs, judged = {}, [], []
    cutoffs = {}
    for scenario, hits, pool, k in _cases(400):
        score = score_scenario(scenario, hits, pool, k, qrels=True)
        ours[scenario.id] = score.metrics
        cutoffs[scenario.id] = k
        judged.append((scenario.id, score.details["qrels"]))
        runs += run_lines(scenario.id, [row["url"] for row in score.results], "local")
    assert any("wsb-repeat:" in line for line in runs)  # repeats, before and after relevant pages
    (tmp_path / "q.qrels").write_text("".join(f"{line}\n" for line in qrels_lines(merge_qrels(judged))))
    (tmp_path / "local.run").write_text("".join(f"{line}\n" for line in runs))
    qrels = list(ir_measures.read_trec_qrels(str(tmp_path / "q.qrels")))
    run = list(ir_measures.read_trec_run(str(tmp_path / "local.run")))

    measures = {m for k in set(cutoffs.values()) for m in (nDCG(gains=EXP_GAINS) @ k, P(rel=2) @ k, RR(rel=2) @ k)}
    checked, seen = 0, set()
    for value in ir_measures.iter_calc(measures, qrels, run):
        qid, measure = value.query_id, value.measure
        k = cutoffs[qid]
        name = {nDCG(gains=EXP_GAINS) @ k: "ndcg", P(rel=2) @ k: "precision", RR(rel=2) @ k: "rr"}.get(measure)
        if name is not None:  # each query is read at its own cutoff
            assert ours[qid][name] == pytest.approx(value.value, abs=1e-12), (qid, name, value)
            checked += 1
            seen.add(qid)
    assert checked == 3 * len(seen) > 900
    # a query with no run line (nothing returned) is 0 in ours, as trec_eval -c counts it
    assert all(not any(ours[q][m] for m in ("ndcg", "precision", "rr")) for q in set(ours) - seen)


def test_a_repeat_keeps_its_place_under_a_docno_no_qrels_names():
    urls = ["https://a.example/x", "https://b.example/", "https://A.example/x?utm_source=s", "https://c.example"]
    a, b, c = (normalize_url(u) for u in ("https://a.example/x", "https://b.example/", "https://c.example"))
    assert ranked_docnos(urls) == [a, b, f"wsb-repeat:3:{a}", c]
    lines = run_lines("q 1", urls, "serper@prod")
    assert lines[0] == f"q_1 Q0 {a} 1 4 serper@prod" and lines[3].split()[3:5] == ["4", "1"]
    assert qrels_lines({"q2": {"https://b.example/": 1}, "q1": {"https://z.example/": 0, "https://a.example/": 3}}) == [
        "q1 0 https://a.example/ 3",
        "q1 0 https://z.example/ 0",
        "q2 0 https://b.example/ 1",
    ]


def test_trec_evals_linear_ndcg_cut_is_not_ours():
    # gains 7 and 1 (ours) against 3 and 1 (the grade as gain): a grade 3 below a grade 1 weighs differently
    scenario = Scenario("q1", "query", "en", "general")
    pool = {
        normalize_url(u): GradedPreview(u, g, "test") for u, g in [("https://a.example", 1), ("https://b.example", 3)]
    }
    score = score_scenario(
        scenario, [Hit(1, "https://a.example", "a", ""), Hit(2, "https://b.example", "b", "")], pool, 5, qrels=True
    )
    qrels = [ir_measures.Qrel("q1", doc, grade) for doc, grade in score.details["qrels"].items()]
    run = [
        ir_measures.ScoredDoc("q1", doc, 2.0 - i)
        for i, doc in enumerate(ranked_docnos(["https://a.example", "https://b.example"]))
    ]
    linear = ir_measures.calc_aggregate([nDCG @ 5], qrels, run)[nDCG @ 5]
    exp = ir_measures.calc_aggregate([nDCG(gains=EXP_GAINS) @ 5], qrels, run)[nDCG(gains=EXP_GAINS) @ 5]
    assert exp == pytest.approx(score.metrics["ndcg"]) and linear != pytest.approx(exp)


def test_a_run_writes_the_qrels_and_a_run_file_per_variant_that_read_back_as_its_metrics(pytester, tiny_suite):
    result = pytester.runpytest("suites", "--wsb-json=r.json", "--wsb-trec=trec")
    result.assert_outcomes(passed=3, failed=1)
    folder = pytester.path / "trec"
    assert sorted(p.name for p in folder.iterdir()) == ["tiny.local.run", "tiny.qrels"]
    qrels_text = (folder / "tiny.qrels").read_text("utf-8")
    # t4's only grade-3 page is outside its time window: the qrels say 0, as the scoring did
    assert "t4 0 https://tea.example/black-tea 0\n" in qrels_text
    assert "t1 0 https://mirror.example/green-tea-brewing 0\n" in qrels_text  # off the required site
    items = {i["case_id"]: i for i in json.loads((pytester.path / "r.json").read_text("utf-8"))["items"]}
    qrels = list(ir_measures.read_trec_qrels(str(folder / "tiny.qrels")))
    run = list(ir_measures.read_trec_run(str(folder / "tiny.local.run")))
    assert {line.split()[5] for line in (folder / "tiny.local.run").read_text().splitlines()} == {"local"}
    names = {nDCG(gains=EXP_GAINS) @ 5: "ndcg", P(rel=2) @ 5: "precision", RR(rel=2) @ 5: "rr"}
    values = list(ir_measures.iter_calc(list(names), qrels, run))
    assert {v.query_id for v in values} == set(items) == {"t1", "t2", "t3", "t4"}
    for value in values:
        assert items[value.query_id]["metrics"][names[value.measure]] == pytest.approx(value.value, abs=1e-12)


def test_a_trec_folder_under_a_missing_folder_is_one_usage_error(pytester, tiny_suite):
    result = pytester.runpytest("suites", "--wsb-trec=missing/trec")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: pytest-websearchbench: --wsb-trec: cannot write into */missing/trec: the folder */missing does not exist*"
        ]
    )
    assert not (pytester.path / "missing").exists()
    (pytester.path / "file").write_text("x")
    result = pytester.runpytest("suites", "--wsb-trec=file")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--wsb-trec: *file is a regular file, not a folder"])
