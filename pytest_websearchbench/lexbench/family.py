"""LexBench-Web-Search: search-result quality, graded 0–3 per (query, normalised URL).

Scenario and factual editions are separate suites (``kind``), reported apart, never mixed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pytest_websearchbench.lexbench import metrics as measures
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.family import (
    BenchmarkFamily, Case, MetricColumn, RawResults, RunContext, Score, Suite)
from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.core.suites import SuiteManifest, digest_files, read_records, require_unique_ids
from pytest_websearchbench.core.urls import host_matches_site, normalize_url, url_host

SCENARIO = "scenario"
FACTUAL = "factual"


@dataclass(frozen=True)
class Requirements:
    sites: tuple[str, ...] = ()
    after: str | None = None
    before: str | None = None
    content_terms: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.sites or self.after or self.before or self.content_terms)


@dataclass(frozen=True)
class Scenario:
    id: str
    query: str
    language: str
    family: str
    information_need: str = ""
    known_pages: tuple[str, ...] = ()
    requirements: Requirements = field(default_factory=Requirements)
    origin: str = ""
    provenance_kind: str = ""


@dataclass(frozen=True)
class FactualQuestion:
    id: str
    question: str
    answer: str
    supporting_urls: tuple[str, ...]
    language: str = ""


@dataclass(frozen=True)
class GradedPreview:
    """One line of the frozen grades file: the preview a grader saw and the grade given."""

    url: str
    grade: int
    grader: str
    title: str | None = None
    snippet: str | None = None
    published: str | None = None


def requirement_violations(req: Requirements, url: str, text: str | None, published: str | None) -> list[str]:
    """Which explicit requirements a result breaks: ``site``, ``time`` or ``content``.

    ``text`` (title + snippet) or ``published`` may be unknown (None): that check is then skipped.
    """
    broken = []
    if req.sites and not any(host_matches_site(url_host(url), site) for site in req.sites):
        broken.append("site")
    date = (published or "")[:10]
    if date and ((req.after and date < req.after) or (req.before and date > req.before)):
        broken.append("time")
    if req.content_terms and text is not None:
        lowered = text.casefold()
        if not any(term.casefold() in lowered for term in req.content_terms):
            broken.append("content")
    return broken


def _hit_published(hit: Hit) -> str | None:
    value = hit.extra.get("published") or hit.extra.get("date")
    return str(value) if value else None


def score_scenario(scenario: Scenario, hits: list[Hit], pool: dict[str, GradedPreview], k: int) -> Score:
    """Grades of the top k (0 for requirement violations), then nDCG@k, P@k, success@k and diagnostics."""
    top = hits[:k]
    ranked = [normalize_url(h.url) for h in top]
    req = scenario.requirements
    grades: dict[str, int] = {}
    rows = []
    for key, hit in zip(ranked, top):
        broken = requirement_violations(req, hit.url, f"{hit.title} {hit.snippet}", _hit_published(hit))
        if key not in grades:
            if broken:
                grades[key] = 0
            elif key in pool:
                grades[key] = pool[key].grade
        rows.append({"rank": hit.rank, "url": hit.url, "title": hit.title, "snippet": hit.snippet,
                     "grade": grades.get(key), "violations": broken})
    ideal = [p.grade for p in pool.values()
             if not requirement_violations(req, p.url, _preview_text(p), p.published)]
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


def _preview_text(preview: GradedPreview) -> str | None:
    if preview.title is None and preview.snippet is None:
        return None
    return f"{preview.title or ''} {preview.snippet or ''}"


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


class LexBenchFamily(BenchmarkFamily):
    name = "lexbench"

    def load(self, manifest: SuiteManifest) -> Suite:
        kind = manifest.kind or SCENARIO
        if kind not in (SCENARIO, FACTUAL):
            raise SuiteError(manifest.path, f"unknown kind {kind!r}; expected {SCENARIO!r} or {FACTUAL!r}",
                             field="kind")
        items_path = manifest.file("items")
        pairs = read_records(items_path, f"lexbench-{kind}")
        require_unique_ids(pairs, items_path)
        files = [manifest.path, items_path]
        if kind == FACTUAL:
            cases = tuple(_factual_case(record) for _, record in pairs)
            return Suite(manifest, cases, digest_files(files))
        scenarios = [_scenario(record) for _, record in pairs]
        grades_path = manifest.file("grades")
        if grades_path is None:
            raise SuiteError(manifest.path, "a scenario suite needs a grades file", field="grades")
        grades = _load_grades(grades_path, {s.id for s in scenarios})
        files.append(grades_path)
        return Suite(manifest, tuple(_scenario_case(s) for s in scenarios), digest_files(files), grades)

    def run(self, suite: Suite, case: Case, ctx: RunContext) -> RawResults:
        query = case.data.query if isinstance(case.data, Scenario) else case.data.question
        return RawResults(queries=[query], hits=ctx.provider.search(query, ctx.k))

    def score(self, suite: Suite, case: Case, raw: RawResults, k: int) -> Score:
        if isinstance(case.data, Scenario):
            return score_scenario(case.data, raw.hits, suite.context.get(case.id, {}), k)
        return score_factual(case.data, raw.hits, k)

    def columns(self, kind: str, k: int) -> list[MetricColumn]:
        if kind == FACTUAL:
            return [MetricColumn("answer_found", f"answer@{k}"), MetricColumn("supporting_hit", f"support@{k}")]
        return [MetricColumn("ndcg", f"nDCG@{k}"), MetricColumn("precision", f"P@{k}"),
                MetricColumn("success", f"success@{k}"), MetricColumn("rr", "MRR"),
                MetricColumn("known_page_hit", "known-page"), MetricColumn("requirements_met", "req-met"),
                MetricColumn("duplicate_rate", "dup-rate"), MetricColumn("judged", f"judged@{k}")]


def _scenario(record: dict) -> Scenario:
    req = record.get("requirements", {})
    return Scenario(
        id=record["id"], query=record["query"], language=record["language"], family=record["family"],
        information_need=record.get("information_need", ""),
        known_pages=tuple(record.get("known_pages", ())),
        requirements=Requirements(tuple(req.get("sites", ())), req.get("after"), req.get("before"),
                                  tuple(req.get("content_terms", ()))),
        origin=record.get("origin", ""), provenance_kind=record.get("provenance_kind", ""))


def _scenario_case(scenario: Scenario) -> Case:
    family = scenario.family.replace("-", "_")
    return Case(scenario.id, scenario,
                markers=("lexbench", "scenario", f"lang_{scenario.language}", f"lexbench_{family}"),
                keywords=(scenario.family, scenario.language))


def _factual_case(record: dict) -> Case:
    question = FactualQuestion(record["id"], record["question"], record["answer"],
                               tuple(record["supporting_urls"]), record.get("language", ""))
    markers = ("lexbench", "factual") + ((f"lang_{question.language}",) if question.language else ())
    return Case(question.id, question, markers=markers)


def _load_grades(path: Path, query_ids: set[str]) -> dict[str, dict[str, GradedPreview]]:
    """query id → normalised URL → graded preview; unknown query ids and double grades are errors."""
    grades: dict[str, dict[str, GradedPreview]] = {}
    first_line: dict[tuple[str, str], int] = {}
    for line, record in read_records(path, "lexbench-grade"):
        qid = record["query_id"]
        if qid not in query_ids:
            raise SuiteError(path, f"grade for unknown query id {qid!r}", line=line, field="query_id")
        key = normalize_url(record["url"])
        if (qid, key) in first_line:
            raise SuiteError(path, f"{record['url']} is graded twice for {qid} (first on line "
                             f"{first_line[qid, key]})", line=line, field="url")
        first_line[qid, key] = line
        grades.setdefault(qid, {})[key] = GradedPreview(
            record["url"], record["grade"], record["grader"], record.get("title"), record.get("snippet"),
            record.get("published"))
    return grades
