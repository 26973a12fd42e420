"""The frozen grades file: one graded preview per (query, normalised URL)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import iter_records
from pytest_websearchbench.core.urls import normalize_url


@dataclass(frozen=True, slots=True)  # slots: a suite holds one per graded page, 140,000 at 2,750 items
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
    error naming both lines when they do not.

    Lines are read one at a time (only the previews are kept); a line that is not valid JSON or not
    a grade is reported before an unknown query id or a disagreement, wherever it is in the file."""
    grades: dict[str, dict[str, GradedPreview]] = {}
    problem: SuiteError | None = None
    for line, record in iter_records(path, "lexbench-grade"):
        if problem is not None:
            continue  # read on: a malformed line further down is the error to report
        qid = record["query_id"]
        if qid not in query_ids:
            problem = SuiteError(path, f"grade for unknown query id {qid!r}", line=line, field="query_id")
            continue
        key = normalize_url(record["url"])
        pages = grades.setdefault(qid, {})
        first = pages.get(key)
        if first is None:
            pages[key] = GradedPreview(
                record["url"], record["grade"], sys.intern(record["grader"]), record.get("title"),
                record.get("snippet"), record.get("published"))
        elif first.grade != record["grade"]:
            problem = SuiteError(path, f"{record['url']} is graded {record['grade']} for {qid}, but line "
                                 f"{_first_line(path, qid, key)} grades the same page ({first.url}) {first.grade}",
                                 line=line, item=qid, field="grade")
    if problem is not None:
        raise problem
    return grades


def _first_line(path: Path, qid: str, key: str) -> int:
    """The line that first graded ``key`` for ``qid`` (looked up again only for the error message, so
    a line number per page is not kept for every load)."""
    return next(line for line, record in iter_records(path, "lexbench-grade")
                if record["query_id"] == qid and normalize_url(record["url"]) == key)
