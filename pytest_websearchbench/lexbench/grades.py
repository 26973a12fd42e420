"""The frozen grades file: one graded preview per (query, normalised URL)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import read_records
from pytest_websearchbench.core.urls import normalize_url


@dataclass(frozen=True)
class GradedPreview:
    """One line of the frozen grades file: the preview a grader saw and the grade given."""

    url: str
    grade: int
    grader: str
    title: str | None = None
    snippet: str | None = None
    published: str | None = None


def load_grades(path: Path, query_ids: set[str]) -> dict[str, dict[str, GradedPreview]]:
    """query id → normalised URL → graded preview; unknown query ids are errors.

    Pools merged from several providers' previews list one page under several URL forms: lines whose
    URLs normalise alike merge when their grades agree (the first line's preview is kept) and are an
    error naming both lines when they do not."""
    grades: dict[str, dict[str, GradedPreview]] = {}
    first_line: dict[tuple[str, str], int] = {}
    for line, record in read_records(path, "lexbench-grade"):
        qid = record["query_id"]
        if qid not in query_ids:
            raise SuiteError(path, f"grade for unknown query id {qid!r}", line=line, field="query_id")
        key = normalize_url(record["url"])
        if (qid, key) in first_line:
            first = grades[qid][key]
            if first.grade != record["grade"]:
                raise SuiteError(path, f"{record['url']} is graded {record['grade']} for {qid}, but line "
                                 f"{first_line[qid, key]} grades the same page ({first.url}) {first.grade}",
                                 line=line, item=qid, field="grade")
            continue
        first_line[qid, key] = line
        grades.setdefault(qid, {})[key] = GradedPreview(
            record["url"], record["grade"], record["grader"], record.get("title"), record.get("snippet"),
            record.get("published"))
    return grades
