"""The frozen grades file: one graded preview per (query, normalised URL).

A page's date is a function of all its lines, never of their order: every line of the page (its URL
forms merged) adds its preview's date to the page's ``dates``, and eligibility puts the page outside a
time window only when every dated preview says so (``eligibility.preview_violations``). A line's
``published`` is read by ``core.dates.parse_date`` in any provider's shape; a relative one ("3 days
ago") is counted back from the line's ``received_at`` (when its preview was received: the pool records
it), and without one it is unknown."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.dates import parse_date, parse_instant
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
    published: str | None = None  # as the (first) line wrote it
    dates: tuple[str, ...] = ()  # ISO dates of every readable preview date of the page, sorted

    def __post_init__(self) -> None:
        # a preview made in code with only ``published`` has that date (relative forms: unknown, no receipt)
        if not self.dates and self.published and (read := parse_date(self.published)) is not None:
            object.__setattr__(self, "dates", (read.isoformat(),))

    @classmethod
    def of_line(cls, record: dict[str, Any]) -> GradedPreview:
        """The graded preview of one grades-file line, its date read (see the module docstring)."""
        read = line_date(record)
        return cls(
            record["url"],
            record["grade"],
            sys.intern(record["grader"]),
            record.get("title"),
            record.get("snippet"),
            record.get("published"),
            (read.isoformat(),) if read else (),
        )

    def with_date(self, iso: str) -> GradedPreview:
        """This page with one more preview date (order-free: the dates are a sorted set)."""
        return self if iso in self.dates else replace(self, dates=tuple(sorted({*self.dates, iso})))


def line_date(record: dict[str, Any]) -> date | None:
    """A line's preview date: its ``published`` in any shape, a relative one against its ``received_at``."""
    received = record.get("received_at")
    return parse_date(record.get("published"), parse_instant(received) if isinstance(received, str) else None)


def merged_lines(path: Path) -> Iterator[tuple[int, str, str, GradedPreview | str | date]]:
    """(line, query id, normalised URL, what the line adds) for each line that grades a page first, or
    grades it otherwise than the line that did (in place of the preview, the message naming both lines:
    ``disagreement`` makes it the error), or grades it alike with a preview date of its own (the date:
    the page's dates are all its lines', GradedPreview.with_date).

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
            yield line, qid, key, GradedPreview.of_line(record)
        elif seen[0] != grade:
            yield (
                line,
                qid,
                key,
                (f"{url} is graded {grade} for {qid}, but line {seen[1]} grades the same page ({seen[2]}) {seen[0]}"),
            )
        elif (read := line_date(record)) is not None:
            yield line, qid, key, read


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
        elif isinstance(found, date):
            grades[qid][key] = grades[qid][key].with_date(found.isoformat())
        else:
            grades.setdefault(qid, {})[key] = found
    if problem is not None:
        raise problem
    return grades
