"""Scoring one LexBench item (pure): grades of the top k, then the metrics and a readable verdict."""

from __future__ import annotations

from typing import Any

from pytest_websearchbench.core.family import Score
from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.core.urls import normalize_url
from pytest_websearchbench.lexbench import metrics as measures
from pytest_websearchbench.lexbench.eligibility import hit_date, hit_violations, preview_violations
from pytest_websearchbench.lexbench.grades import GradedPreview
from pytest_websearchbench.lexbench.items import FactualQuestion, Scenario


def score_scenario(
    scenario: Scenario, hits: list[Hit], pool: dict[str, GradedPreview], k: int, *, qrels: bool = False
) -> Score:
    """Grades of the top k (0 for requirement violations), then nDCG@k, P@k, success@k and diagnostics.

    A pooled page's eligibility is its graded preview's (title, snippet and date), whichever provider
    returned it under whatever date: the ideal ranking is built from the same decisions, so it is one
    ideal for every provider and nDCG ∈ [0, 1]. A page no pool has seen is judged from its own hit (it
    is ungraded, so this changes only its row and req-met). ``unreadable_dates`` counts the top-k hits
    whose own date no known shape describes (its time check was skipped).

    ``bpref`` is trec_eval's over the query's judged pages (``metrics.bpref_at_k``). A top-k page with no
    grade, neither in the pool nor 0 by rule, is a hole: ``unjudged`` counts the distinct ones, and the
    score's ``details["unjudged"]`` lists their URLs (as returned, in rank order), which ``wsb-lexbench
    fill`` grades.

    ``qrels``: ``details["qrels"]`` holds the grades the metrics used, trec_eval's qrels of the query (``judged``
    below), for --wsb-trec: the run's end writes them where no suite was loaded (the xdist controller).
    """
    top = hits[:k]
    ranked = [normalize_url(h.url) for h in top]
    req = scenario.requirements
    pooled = {key: preview_violations(req, preview) for key, preview in pool.items()} if req else {}
    grades: dict[str, int] = {}
    violations: dict[str, list[str]] = {}  # normalised URL → the requirements it breaks, decided once
    rows = []
    for key, hit in zip(ranked, top):
        if key not in violations:
            violations[key] = pooled.get(key, []) if key in pool else hit_violations(req, hit)
            if violations[key]:
                grades[key] = 0
            elif key in pool:
                grades[key] = pool[key].grade
        broken = violations[key]
        # who gave the grade the metrics used: the grades file's grader (human or model), the eligibility
        # rule, or nobody yet (None: ungraded, counts 0)
        grader = "eligibility rule" if broken else pool[key].grader if key in pool else None
        rows.append(
            {
                "rank": hit.rank,
                "url": hit.url,
                "title": hit.title,
                "snippet": hit.snippet,
                "grade": grades.get(key),
                "grader": grader,
                "violations": broken,
            }
        )
    ideal = [preview.grade for key, preview in pool.items() if not pooled.get(key)]
    # trec_eval's qrels for bpref: the whole pool with the grades the metrics use (0 where it breaks a
    # requirement), and a page of this list no pool has seen that is 0 by rule
    judged = {**{key: 0 if pooled.get(key) else preview.grade for key, preview in pool.items()}, **grades}
    unjudged: dict[str, str] = {}  # normalised URL → the first form the list gave: a hole in the grades
    for key, hit in zip(ranked, top):
        if key not in grades:
            unjudged.setdefault(key, hit.url)
    metrics = {
        "ndcg": measures.ndcg_at_k(ranked, grades, ideal, k),
        "bpref": measures.bpref_at_k(ranked, judged, k),
        "precision": measures.precision_at_k(ranked, grades, k),
        "success": measures.success_at_k(ranked, grades, k),
        "rr": measures.reciprocal_rank(ranked, grades, k),
        "duplicate_rate": measures.duplicate_rate(ranked, k),
        "judged": measures.judged_at_k(ranked, grades, k),
        "unjudged": float(len(unjudged)),
        "unreadable_dates": float(sum(hit_date(hit.extra).unreadable for hit in top)),
    }
    if scenario.known_pages:
        metrics["known_page_hit"] = measures.known_page_hit(ranked, [normalize_url(u) for u in scenario.known_pages], k)
    if req:
        metrics["requirements_met"] = sum(not r["violations"] for r in rows) / len(rows) if rows else 0.0
    passed = metrics["success"] == 1.0
    message = "" if passed else f"success@{k} = 0: no result in the top {k} is graded 3\n" + _result_table(rows)
    details: dict[str, Any] = {"unjudged": list(unjudged.values())}
    if qrels:
        details["qrels"] = judged
    return Score(passed, metrics, message, rows, details=details)


def passing_pages(scenario: Scenario, pool: dict[str, GradedPreview]) -> list[str]:
    """The pages any of which in the top k passes the query (success@k): those of its pool graded 3 that break
    none of its requirements, by the URL their grade was kept under, sorted."""
    req = scenario.requirements
    return sorted(p.url for p in pool.values() if p.grade == 3 and not (req and preview_violations(req, p)))


def score_factual(question: FactualQuestion, hits: list[Hit], k: int) -> Score:
    """Answer found in a top-k preview (title or snippet), or a supporting URL in the top k."""
    top = hits[:k]
    ranked = [normalize_url(h.url) for h in top]
    rows = [
        {
            "rank": h.rank,
            "url": h.url,
            "title": h.title,
            "snippet": h.snippet,
            "answer_found": measures.answer_in_text(question.answer, f"{h.title}\n{h.snippet}"),
        }
        for h in top
    ]
    metrics = {
        "answer_found": float(any(r["answer_found"] for r in rows)),
        "supporting_hit": measures.supporting_url_hit(ranked, [normalize_url(u) for u in question.supporting_urls], k),
    }
    passed = metrics["answer_found"] == 1.0 or metrics["supporting_hit"] == 1.0
    message = (
        ""
        if passed
        else (
            f"answer {question.answer!r} not in any top-{k} preview and no supporting URL in the top {k}\n"
            + _result_table(rows)
        )
    )
    return Score(passed, metrics, message, rows)


def _result_table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "  (the provider returned no results)"
    lines = []
    for row in rows:
        mark = (
            f"grade={row['grade'] if row['grade'] is not None else '?'}"
            if "grade" in row
            else f"answer={'yes' if row['answer_found'] else 'no'}"
        )
        broken = f"  violates: {', '.join(row['violations'])}" if row.get("violations") else ""
        lines.append(f"  {row['rank']:>2}. [{mark}] {row['url']}  {row['title'][:70]!r}{broken}")
    return "\n".join(lines)
