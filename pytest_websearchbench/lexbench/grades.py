"""The frozen grades file: one graded preview per (query, normalised URL)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

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


def merged_lines(path: Path) -> Iterator[tuple[int, str, str, GradedPreview | str]]:
    """(line, query id, normalised URL, what the line adds) for each line that grades a page first, or
    grades it otherwise than the line that did (in place of the preview, the message naming both lines:
    ``disagreement`` makes it the error).

    Pools merged from several providers' previews list one page under several URL forms: lines whose
    URLs normalise alike merge when their grades agree (the first line's preview is kept). A query's
    first line always yields. Lines are read one at a time; a line that is not valid JSON or not a
    grade raises, wherever it is in the file, before the caller sees anything of the lines after it."""
    first: dict[str, dict[str, tuple[int, int, str]]] = {}  # query id → key → (grade, line, URL)
    for line, record in iter_records(path, "lexbench-grade"):
        qid, url, grade = record["query_id"], record["url"], record["grade"]
        key = normalize_url(url)
        pages = first.setdefault(qid, {})
        seen = pages.get(key)
        if seen is None:
            pages[key] = (grade, line, url)
            yield line, qid, key, GradedPreview(url, grade, sys.intern(record["grader"]), record.get("title"),
                                                record.get("snippet"), record.get("published"))
        elif seen[0] != grade:
            yield line, qid, key, (f"{url} is graded {grade} for {qid}, but line {seen[1]} grades the same page "
                                   f"({seen[2]}) {seen[0]}")


def unknown_query(path: Path, qid: str, line: int) -> SuiteError:
    return SuiteError(path, f"grade for unknown query id {qid!r}", line=line, field="query_id")


def disagreement(path: Path, qid: str, line: int, message: str) -> SuiteError:
    return SuiteError(path, message, line=line, item=qid, field="grade")


def load_grades(path: Path, query_ids: set[str]) -> dict[str, dict[str, GradedPreview]]:
    """query id → normalised URL → graded preview; unknown query ids and disagreeing grades
    (``merged_lines``) are errors, a malformed line reported first wherever it is in the file."""
    grades: dict[str, dict[str, GradedPreview]] = {}
    problem: SuiteError | None = None
    for line, qid, key, found in merged_lines(path):
        if problem is not None:
            continue  # read on: a malformed line further down is the error to report
        if qid not in query_ids:
            problem = unknown_query(path, qid, line)
        elif isinstance(found, str):
            problem = disagreement(path, qid, line, found)
        else:
            grades.setdefault(qid, {})[key] = found
    if problem is not None:
        raise problem
    return grades
