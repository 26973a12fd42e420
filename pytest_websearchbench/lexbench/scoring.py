"""Scoring one LexBench item (pure): grades of the top k, then the metrics and a readable verdict."""

from __future__ import annotations

from pytest_websearchbench.core.family import Score
from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.core.urls import normalize_url
from pytest_websearchbench.lexbench import metrics as measures
from pytest_websearchbench.lexbench.eligibility import hit_violations, preview_violations
from pytest_websearchbench.lexbench.grades import GradedPreview
from pytest_websearchbench.lexbench.items import FactualQuestion, Scenario


def score_scenario(scenario: Scenario, hits: list[Hit], pool: dict[str, GradedPreview], k: int) -> Score:
    """Grades of the top k (0 for requirement violations), then nDCG@k, P@k, success@k and diagnostics.

    A page's eligibility is decided once per normalised URL (its first occurrence in the top k, the hit's
    fields else its graded preview's) and the ideal ranking uses that same decision, so nDCG ∈ [0, 1].
    """
    top = hits[:k]
    ranked = [normalize_url(h.url) for h in top]
    req = scenario.requirements
    grades: dict[str, int] = {}
    eligible: dict[str, bool] = {}  # normalised URL → eligibility, as its first occurrence decided
    rows = []
    for key, hit in zip(ranked, top):
        broken = hit_violations(req, hit, pool.get(key))
        if key not in eligible:
            eligible[key] = not broken
            if broken:
                grades[key] = 0
            elif key in pool:
                grades[key] = pool[key].grade
        # who gave the grade the metrics used: the grades file's grader (human or model), the eligibility
        # rule, or nobody yet (None: ungraded, counts 0)
        grader = "eligibility rule" if not eligible[key] else pool[key].grader if key in pool else None
        rows.append({"rank": hit.rank, "url": hit.url, "title": hit.title, "snippet": hit.snippet,
                     "grade": grades.get(key), "grader": grader, "violations": broken})
    ideal = [p.grade for key, p in pool.items()
             if eligible.get(key, not preview_violations(req, p))]
    metrics = {
        "ndcg": measures.ndcg_at_k(ranked, grades, ideal, k),
        "precision": measures.precision_at_k(ranked, grades, k),
        "success": measures.success_at_k(ranked, grades, k),
        "rr": measures.reciprocal_rank(ranked, grades, k),
        "duplicate_rate": measures.duplicate_rate(ranked, k),
        "judged": measures.judged_at_k(ranked, grades, k),
    }
    if scenario.known_pages:
        metrics["known_page_hit"] = measures.known_page_hit(ranked, [normalize_url(u) for u in scenario.known_pages], k)
    if req:
        metrics["requirements_met"] = sum(not r["violations"] for r in rows) / len(rows) if rows else 0.0
    passed = metrics["success"] == 1.0
    message = "" if passed else f"success@{k} = 0: no result in the top {k} is graded 3\n" + _result_table(rows)
    return Score(passed, metrics, message, rows)


def score_factual(question: FactualQuestion, hits: list[Hit], k: int) -> Score:
    """Answer found in a top-k preview (title or snippet), or a supporting URL in the top k."""
    top = hits[:k]
    ranked = [normalize_url(h.url) for h in top]
    rows = [{"rank": h.rank, "url": h.url, "title": h.title, "snippet": h.snippet,
             "answer_found": measures.answer_in_text(question.answer, f"{h.title}\n{h.snippet}")} for h in top]
    metrics = {
        "answer_found": float(any(r["answer_found"] for r in rows)),
        "supporting_hit": measures.supporting_url_hit(ranked, [normalize_url(u) for u in question.supporting_urls], k),
    }
    passed = metrics["answer_found"] == 1.0 or metrics["supporting_hit"] == 1.0
    message = "" if passed else (
        f"answer {question.answer!r} not in any top-{k} preview and no supporting URL in the top {k}\n"
        + _result_table(rows))
    return Score(passed, metrics, message, rows)


def _result_table(rows: list[dict]) -> str:
    if not rows:
        return "  (the provider returned no results)"
    lines = []
    for row in rows:
        mark = (f"grade={row['grade'] if row['grade'] is not None else '?'}" if "grade" in row
                else f"answer={'yes' if row['answer_found'] else 'no'}")
        broken = f"  violates: {', '.join(row['violations'])}" if row.get("violations") else ""
        lines.append(f"  {row['rank']:>2}. [{mark}] {row['url']}  {row['title'][:70]!r}{broken}")
    return "\n".join(lines)


